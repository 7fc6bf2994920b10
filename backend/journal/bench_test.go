package journal

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"
)

// The start's reading of a large journal, against two baselines measured in
// the same run: io.Copy of the same file to io.Discard (what reading the
// bytes costs, the floor) and the whole-file Read paydash used before (on a
// tenth of the size: it holds the file and every entry in memory).
//
//	go test -run '^$' -bench Start -benchtime 3x ./backend/journal/
//	PAYDASH_BENCH_JOURNAL_MB=1024 go test -run '^$' -bench Start -benchtime 1x ./backend/journal/
//
// Metrics: MB/s; x-floor, the share of io.Copy's speed; x-before, how many
// times faster than the old Read; peak-MiB, the most heap in use above
// what was in use before (sampled); before-peak-MiB, the old Read's on its
// tenth, scaled up to the full size.

var bench struct {
	once  sync.Once
	dir   string
	big   string // PAYDASH_BENCH_JOURNAL_MB of journal
	small string // a tenth of it
	err   error
}

func benchFiles(b *testing.B) (big, small string) {
	b.Helper()
	bench.once.Do(func() {
		mb := 200
		if v := os.Getenv("PAYDASH_BENCH_JOURNAL_MB"); v != "" {
			mb, bench.err = strconv.Atoi(v)
			if bench.err != nil {
				return
			}
		}
		bench.dir, bench.err = os.MkdirTemp("", "paydash-journal-bench-")
		if bench.err != nil {
			return
		}
		bench.big = filepath.Join(bench.dir, "big.jsonl")
		bench.small = filepath.Join(bench.dir, "small.jsonl")
		if bench.err = writeBenchJournal(bench.big, int64(mb)<<20); bench.err != nil {
			return
		}
		bench.err = writeBenchJournal(bench.small, int64(mb)<<20/10)
	})
	if bench.err != nil {
		b.Fatal(bench.err)
	}
	return bench.big, bench.small
}

func TestMain(m *testing.M) {
	code := m.Run()
	if bench.dir != "" {
		_ = os.RemoveAll(bench.dir)
	}
	os.Exit(code)
}

// writeBenchJournal writes about size bytes of a journal as paydash writes
// one: refunds, captures and payment links, each sent then done, one in
// a hundred unknown first, one in a thousand left open.
func writeBenchJournal(path string, size int64) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	svc := &Service{Origin: "https://pay.example.com", Interface: "v2", Credentials: "pbkdf2-sha256:0123456789abcdef0123456789abcdef"}
	t := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var written int64
	for i := 0; written < size; i++ {
		t = t.Add(time.Second)
		id := fmt.Sprintf("%08x-1111-4222-8333-%012x", i, i)
		e := Entry{Time: t, Action: "refund", ObjectID: strconv.Itoa(43000000 + i), Amount: "150.00", Currency: "RUB",
			Interface: "v2", IdempotencyKey: fmt.Sprintf("%08x-2222-4333-8444-%012x", i, i), ActionID: id, Service: svc}
		switch i % 10 {
		case 3:
			e.Action, e.IdempotencyKey = "capture", ""
		case 7:
			e.Action = "create_invoice_link"
			e.Params = json.RawMessage(`{"merchantId":"1001","amount":{"value":1500,"currency":"RUB"},"description":"Order A-` +
				strconv.Itoa(i) + ` \"gift\"","orderNo":"A-` + strconv.Itoa(i) + `","customerEmail":"buyer@example.com"}`)
		}
		phases := []string{PhaseSent, PhaseDone}
		switch {
		case i%1000 == 999:
			phases = []string{PhaseSent, PhaseUnknown}
		case i%100 == 42:
			phases = []string{PhaseSent, PhaseUnknown, PhaseDone}
		}
		for _, p := range phases {
			e.Phase = p
			e.Result, e.How, e.Error = "", "", ""
			switch p {
			case PhaseDone:
				e.Result, e.How = "refund 7000123 Pending", "answered"
			case PhaseUnknown:
				e.Error = "no answer from the service in time"
			}
			line, err := json.Marshal(e)
			if err != nil {
				return err
			}
			_, _ = w.Write(line)
			_ = w.WriteByte('\n')
			written += int64(len(line) + 1)
		}
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return f.Close()
}

// peakHeap runs f and returns the most heap in use above what was in use
// before it, sampled every few milliseconds.
func peakHeap(f func()) uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base := ms.HeapInuse
	var (
		peak uint64
		done = make(chan struct{})
		wg   sync.WaitGroup
	)
	wg.Go(func() {
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			if ms.HeapInuse > base {
				peak = max(peak, ms.HeapInuse-base)
			}
			select {
			case <-done:
				return
			case <-tick.C:
			}
		}
	})
	f()
	close(done)
	wg.Wait()
	runtime.ReadMemStats(&ms)
	if ms.HeapInuse > base {
		peak = max(peak, ms.HeapInuse-base)
	}
	return peak
}

// floor is io.Copy's speed on path, in MB/s.
func floor(b *testing.B, path string) float64 {
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	start := time.Now()
	n, err := io.Copy(io.Discard, f)
	if err != nil {
		b.Fatal(err)
	}
	return float64(n) / 1e6 / time.Since(start).Seconds()
}

// before is the old start's reading, for the baseline: the whole file in
// memory, every line decoded into an entry kept in a slice.
func before(path string) ([]Entry, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var entries []Entry
	sc := bufio.NewScanner(bytes.NewReader(raw))
	sc.Buffer(make([]byte, 0, 64*1024), len(raw)+1)
	for sc.Scan() {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		var e Entry
		err := json.NewDecoder(bytes.NewReader(line)).Decode(&e)
		if errors.Is(err, io.ErrUnexpectedEOF) || err != nil || !json.Valid(line) {
			continue
		}
		entries = append(entries, e)
	}
	return entries, sc.Err()
}

// baseline measures the old Read on small once: its MB/s and its peak heap
// per MB read.
func baseline(b *testing.B, small string) (mbps, peakPerMB float64) {
	fi, err := os.Stat(small)
	if err != nil {
		b.Fatal(err)
	}
	var took time.Duration
	peak := peakHeap(func() {
		start := time.Now()
		if _, err := before(small); err != nil {
			b.Fatal(err)
		}
		took = time.Since(start)
	})
	mb := float64(fi.Size()) / 1e6
	return mb / took.Seconds(), float64(peak) / (1 << 20) / mb
}

func BenchmarkStartRead(b *testing.B) {
	big, small := benchFiles(b)
	fi, err := os.Stat(big)
	if err != nil {
		b.Fatal(err)
	}
	floorMBps := floor(b, big)
	oldMBps, oldPeakPerMB := baseline(b, small)
	read := func() {
		st, err := readFile(context.Background(), big, fi.Size(), false, nil)
		if err != nil {
			b.Fatal(err)
		}
		if len(st.entries) == 0 {
			b.Fatal("no open action found")
		}
	}
	// The heap is sampled on a round of its own: sampling stops the world.
	peak := peakHeap(read)
	b.SetBytes(fi.Size())
	b.ResetTimer()
	for b.Loop() {
		read()
	}
	b.StopTimer()
	mbps := float64(fi.Size()) * float64(b.N) / 1e6 / b.Elapsed().Seconds()
	b.ReportMetric(mbps/floorMBps, "x-floor")
	b.ReportMetric(mbps/oldMBps, "x-before")
	b.ReportMetric(float64(peak)/(1<<20), "peak-MiB")
	b.ReportMetric(oldPeakPerMB*float64(fi.Size())/1e6, "before-peak-MiB")
}

// BenchmarkStartRollover is the start on a journal past its size: read,
// and rolled over once (the open actions carried into a new file).
func BenchmarkStartRollover(b *testing.B) {
	big, _ := benchFiles(b)
	fi, err := os.Stat(big)
	if err != nil {
		b.Fatal(err)
	}
	floorMBps := floor(b, big)
	// prepare gives the big file a second name in a directory of its own:
	// the rollover archives that name and leaves the file as it is.
	prepare := func() (dir, path string) {
		dir, err := os.MkdirTemp(bench.dir, "run-")
		if err != nil {
			b.Fatal(err)
		}
		path = filepath.Join(dir, "journal.jsonl")
		if err := os.Link(big, path); err != nil {
			b.Fatal(err)
		}
		return dir, path
	}
	start := func(path string) {
		j, err := OpenWith(path, Options{})
		if err != nil {
			b.Fatal(err)
		}
		if j.Opened().Archived == "" || j.Opened().RolloverErr != nil {
			b.Fatalf("not rolled over: %v", j.Opened().RolloverErr)
		}
		_ = j.Close()
	}
	dir, path := prepare()
	peak := peakHeap(func() { start(path) })
	_ = os.RemoveAll(dir)
	b.SetBytes(fi.Size())
	b.ResetTimer()
	for b.Loop() {
		b.StopTimer()
		dir, path := prepare()
		b.StartTimer()
		start(path)
		b.StopTimer()
		_ = os.RemoveAll(dir)
		b.StartTimer()
	}
	b.StopTimer()
	mbps := float64(fi.Size()) * float64(b.N) / 1e6 / b.Elapsed().Seconds()
	b.ReportMetric(mbps/floorMBps, "x-floor")
	b.ReportMetric(float64(peak)/(1<<20), "peak-MiB")
}
