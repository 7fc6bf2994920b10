package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"
)

// The launch figure (first screen with data within 150 ms, README.md's
// Performance section): from starting `paydash` (no configuration: the
// embedded sandbox with 100,000 payments) to the first frame that shows
// payments, the median of the runs, beside the launch of `paydash
// version` to its exit as the baseline of the same run.
//
//	go test -run '^$' -bench Launch -benchtime 10x .
//
// Each run is a fresh process in a pseudo-terminal; the screen is looked
// at after each output of the program.

func BenchmarkLaunch(b *testing.B) {
	bin := buildForBench(b)
	b.Run("baseline-version", func(b *testing.B) {
		var runs []time.Duration
		for b.Loop() {
			start := time.Now()
			if out, err := exec.Command(bin, "version").CombinedOutput(); err != nil {
				b.Fatalf("paydash version: %v\n%s", err, out)
			}
			runs = append(runs, time.Since(start))
		}
		reportMedian(b, runs)
	})
	b.Run("first-frame-with-data", func(b *testing.B) {
		var runs []time.Duration
		for b.Loop() {
			runs = append(runs, launchToFirstFrame(b, bin))
		}
		reportMedian(b, runs)
	})
}

// launchToFirstFrame starts the dashboard on its embedded sandbox and
// times it until the screen shows a payment (an amount in roubles).
func launchToFirstFrame(b *testing.B, bin string) time.Duration {
	b.Helper()
	home := b.TempDir()
	cmd := exec.Command(bin)
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"XDG_STATE_HOME=" + filepath.Join(home, "state"), "TERM=xterm-256color", "NO_COLOR=1"}
	start := time.Now()
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: e2eRows, Cols: e2eCols})
	if err != nil {
		b.Fatal(err)
	}
	defer func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		_ = f.Close()
	}()
	screen := newVT(e2eCols, e2eRows)
	go func() {
		buf := make([]byte, 32*1024)
		for {
			n, err := f.Read(buf)
			if n > 0 {
				_, _ = screen.Write(buf[:n])
			}
			if err != nil {
				return
			}
		}
	}()
	deadline := time.NewTimer(e2eWait)
	defer deadline.Stop()
	for {
		changed := screen.Changed()
		if s := screen.Screen(); strings.Contains(s, "RUB") && strings.Contains(s, "sandbox") {
			return time.Since(start)
		}
		select {
		case <-changed:
		case <-deadline.C:
			b.Fatalf("no payments on screen after %s:\n%s", e2eWait, screen.Screen())
			return 0
		}
	}
}

// buildForBench builds the binary as a user would (no race detector).
func buildForBench(b *testing.B) string {
	b.Helper()
	bin := filepath.Join(b.TempDir(), "paydash")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// reportMedian reports the median run in milliseconds beside ns/op (the
// mean), since one slow launch on a busy machine moves the mean a lot.
func reportMedian(b *testing.B, runs []time.Duration) {
	if len(runs) == 0 {
		return
	}
	slices.Sort(runs)
	b.ReportMetric(float64(runs[len(runs)/2].Microseconds())/1000, "ms-median")
}
