# paydash: the two commands a fresh machine needs are `make run` and `make test`.
GO      ?= go
BIN     := bin/paydash
# paydash version prints these three (version.go); left empty, it reads the
# module's build information instead.
VERSION := $(shell git describe --tags --always --dirty 2>/dev/null || echo dev)
COMMIT  := $(shell git rev-parse --short HEAD 2>/dev/null)
DATE    := $(shell date -u +%Y-%m-%dT%H:%M:%SZ)
LDFLAGS := -X main.version=$(VERSION) -X main.commit=$(COMMIT) -X main.date=$(DATE)

.PHONY: run build test bench lint fuzz clean

## run: the dashboard on the embedded sandbox, started inside it (./bin/paydash sandbox serves the sandbox alone)
run: build
	./$(BIN)

## build: compile the binary into bin/
build:
	$(GO) build -ldflags '$(LDFLAGS)' -o $(BIN) .

## test: vet, every test with the race detector (without it, saying why, where cgo or a C compiler is missing), and beside them a few thousand inputs of each fuzzer; the end-to-end tests run bin/paydash as built (see e2e_harness_test.go)
test:
	@why=$$($(RACE_WHY_NOT)); if [ -n "$$why" ]; then \
		echo "make test: running the tests without the race detector: $$why"; \
		export CGO_ENABLED=0; race=; \
	else race=-race; fi; \
	set -x; \
	$(GO) vet ./... || exit 1; \
	$(MAKE) build --no-print-directory || exit 1; \
	fuzzlog=$$(mktemp); \
	$(MAKE) fuzz FUZZTIME=$(TEST_FUZZTIME) --no-print-directory >"$$fuzzlog" 2>&1 & fuzz=$$!; \
	PAYDASH_E2E_BINARY=$(CURDIR)/$(BIN) $(GO) test $$race -count=1 -p $(TEST_PACKAGES) ./...; tests=$$?; \
	wait $$fuzz; fuzzed=$$?; \
	set +x; echo "--- make fuzz (ran beside the tests):"; cat "$$fuzzlog"; rm -f "$$fuzzlog"; \
	[ $$tests -eq 0 ] && [ $$fuzzed -eq 0 ]

# TEST_PACKAGES is how many packages' tests run at once. The end-to-end
# tests (the root package) and backend/action mostly wait, on a terminal
# or a timer: with one more package than the two cores, a package that
# computes runs while they wait. The fuzzers run beside the tests for the
# same reason: building them mostly waits on one core.
TEST_PACKAGES ?= 3

# RACE_WHY_NOT is shell code that prints why go test -race cannot run here,
# or nothing: it needs a C compiler (go env CC) and cgo on. Without them
# make test sets CGO_ENABLED=0, so that nothing tries to compile C at all
# (race_test.go and norace_test.go tell the tests which way they were built).
RACE_WHY_NOT = set -- $$($(GO) env CC); \
	if ! command -v "$$1" >/dev/null 2>&1; then \
		echo "it needs a C compiler, and $${1:-go env CC} is not found (install gcc: apt-get install gcc, or build-essential)"; \
	elif [ "$$($(GO) env CGO_ENABLED)" != 1 ]; then \
		echo "it needs cgo, and CGO_ENABLED is 0 (unset it, or set it to 1)"; fi

# fuzz: the decoders of server answers, the terminal-text cleaner and the journal's
# line scanner, FUZZTIME each.
# make test fuzzes a count of inputs, not a time: with a time limit, Go's fuzz
# coordinator can report its own deadline ("context deadline exceeded") as a
# failure with no crasher, by chance; a count has no deadline, and a real
# crasher still fails the run.
FUZZTIME ?= 30s
TEST_FUZZTIME ?= 4000x
fuzz:
	$(GO) test -run '^$$' -fuzz '^FuzzDecodeJSON$$' -fuzztime $(FUZZTIME) ./backend/v1/
	$(GO) test -run '^$$' -fuzz '^FuzzDecodeXML$$' -fuzztime $(FUZZTIME) ./backend/v1/
	$(GO) test -run '^$$' -fuzz '^FuzzClean$$' -fuzztime $(FUZZTIME) ./backend/textsafe/
	$(GO) test -run '^$$' -fuzz '^FuzzWalk$$' -fuzztime $(FUZZTIME) ./backend/journal/

## bench: the benchmarks of the quality bars (figures as ratios against the baselines in the same run)
bench:
	$(GO) test -run '^$$' -bench . -benchmem -count 1 ./...

## lint: formatting (gofmt), go vet and staticcheck (a tool of go.mod); any finding fails
lint:
	@out=$$("$$($(GO) env GOROOT)/bin/gofmt" -l .); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	$(GO) tool staticcheck ./...

clean:
	rm -rf bin
