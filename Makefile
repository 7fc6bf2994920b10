# paydash: the two commands a fresh machine needs are `make run` and `make test`.
GO      ?= go
BIN     := bin/paydash
VERSION := $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
LDFLAGS := -X main.version=$(VERSION)

.PHONY: run build test bench lint fuzz clean

## run: the dashboard on the embedded sandbox, started inside it (./bin/paydash sandbox serves the sandbox alone)
run: build
	./$(BIN)

## build: compile the binary into bin/
build:
	$(GO) build -ldflags '$(LDFLAGS)' -o $(BIN) .

## test: vet, every test with the race detector, then a few seconds of each fuzzer
test:
	$(GO) vet ./...
	$(GO) test -race -count=1 ./...
	$(MAKE) fuzz FUZZTIME=3s

# fuzz: the decoders of server answers and the terminal-text cleaner, FUZZTIME each
FUZZTIME ?= 30s
fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzDecodeJSON$$' -fuzztime $(FUZZTIME) ./backend/v1/
	$(GO) test -run '^$$' -fuzz '^FuzzDecodeXML$$' -fuzztime $(FUZZTIME) ./backend/v1/
	$(GO) test -run '^$$' -fuzz '^FuzzClean$$' -fuzztime $(FUZZTIME) ./backend/textsafe/

## bench: the benchmarks of the quality bars (figures as ratios against the baselines in the same run)
bench:
	$(GO) test -run '^$$' -bench . -benchmem -count 1 ./...

## lint: formatting and vet
lint:
	@out=$$(gofmt -l .); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...

clean:
	rm -rf bin
