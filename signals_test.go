package main

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend/sandbox"
)

// SIGTERM or SIGINT while `paydash sandbox` seeds 5,000,000 payments ends
// it and its seed (it used to go on seeding: 6 s after TERM, 2.6 GB; the
// whole seed takes about 3 GB, 9 GB under the race detector). The stop is
// checked for what it is, not timed: after the signal the process grows by
// less than 1 GiB before it exits, where going on with the seed would take
// gigabytes; the exit itself is awaited for longWait, a hang guard only.
func TestSandboxStopsOnSIGTERMWhileSeeding(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the binary")
	}
	if runtime.GOOS == "windows" {
		t.Skip("no SIGTERM")
	}
	// Not in parallel: four seeds of 5,000,000 payments keep both cores
	// of a small machine busy, and the end-to-end tests beside them would
	// read their keys late.
	bin := paydashBinary(t)
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			// While it starts: 100 MB resident is the seed under way, so
			// main has set up its signal handling (its first statement).
			// Not a time after the start, which a loaded machine may not
			// have reached main by, and die of the signal.
			t.Run("seeding before it is ready", func(t *testing.T) {
				if _, ok := residentKB(os.Getpid()); !ok {
					t.Skip("needs /proc to see the seed under way")
				}
				p := startSeeding(t, bin)
				p.waitFor(t, "100 MB of seed", func() bool {
					kb, ok := residentKB(p.cmd.Process.Pid)
					return ok && kb >= 100<<10
				})
				p.signalAndCheck(t, sig)
			})
			// Once serving, the older days are still being seeded in the
			// background.
			t.Run("seeding while serving", func(t *testing.T) {
				p := startSeeding(t, bin)
				p.waitFor(t, "ready", func() bool { return strings.Contains(p.out.String(), "ready in") })
				p.signalAndCheck(t, sig)
			})
		})
	}
}

type seedingSandbox struct {
	cmd    *exec.Cmd
	out    *syncBuffer
	exited chan error
}

func startSeeding(t *testing.T, bin string) *seedingSandbox {
	t.Helper()
	p := &seedingSandbox{out: &syncBuffer{}, exited: make(chan error, 1)}
	p.cmd = exec.Command(bin, "sandbox", "--payments", "5000000", "--arrivals", "0", "--info-file", t.TempDir()+"/info.json")
	p.cmd.Stdout, p.cmd.Stderr = p.out, p.out
	require.NoError(t, p.cmd.Start())
	go func() { p.exited <- p.cmd.Wait() }()
	t.Cleanup(func() {
		_ = p.cmd.Process.Kill() // by its id; a no-op once it has exited
		<-p.exited
	})
	return p
}

// waitFor polls cond until it holds; the process exiting first, or
// longWait passing, fails the test.
func (p *seedingSandbox) waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(longWait)
	for !cond() {
		select {
		case err := <-p.exited:
			p.exited <- err
			t.Fatalf("paydash sandbox exited (%v) before %s:\n%s", err, what, p.out.String())
		case <-time.After(10 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("paydash sandbox not at %s after %s:\n%s", what, longWait, p.out.String())
		}
	}
}

func (p *seedingSandbox) signalAndCheck(t *testing.T, sig syscall.Signal) {
	t.Helper()
	before, measured := residentKB(p.cmd.Process.Pid)
	require.NoError(t, p.cmd.Process.Signal(sig))
	signalled := time.Now()
	select {
	case err := <-p.exited:
		p.exited <- err
		t.Logf("exited (%v) %s after %s:\n%s", err, time.Since(signalled).Round(time.Millisecond), sig, p.out.String())
	case <-time.After(longWait):
		t.Fatalf("paydash sandbox still running %s after %s:\n%s", longWait, sig, p.out.String())
	}
	// Whether it became ready is its own to say: it may print so just
	// before the signal arrives.
	if strings.Contains(p.out.String(), "ready in") {
		assert.Equal(t, 0, p.cmd.ProcessState.ExitCode(), "stopped as asked once serving")
	} else {
		assert.Equal(t, 1, p.cmd.ProcessState.ExitCode(), "interrupted before it was ready")
		assert.Contains(t, p.out.String(), "interrupted before it was ready")
	}
	if peak, ok := peakResidentKB(p.cmd.ProcessState); ok && measured {
		t.Logf("resident: %d MB at the signal, %d MB at the most", before>>10, peak>>10)
		assert.Less(t, peak-before, int64(1<<20), "grew by 1 GiB or more after %s: the seed went on", sig)
	}
}

// residentKB is the resident memory of process pid in KiB, from /proc
// (Linux); false where there is none.
func residentKB(pid int) (int64, bool) {
	f, err := os.Open("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0, false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb, err == nil
		}
	}
	return 0, false
}

// peakResidentKB is the most resident memory an exited process had, in
// KiB (Linux's unit of ru_maxrss); false elsewhere.
func peakResidentKB(ps *os.ProcessState) (int64, bool) {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok || runtime.GOOS != "linux" {
		return 0, false
	}
	return ru.Maxrss, true
}

// The sandbox the dashboard starts in its process stops with the signal
// context too: startSandbox returns at once when ctx ends, without waiting
// for sandbox.Start. Start is held at its first look at the clock (the
// seed spans the 90 days before it) until the test has its answer, so a
// startSandbox that waited for it would wait for ever, and a bound of
// longWait cannot be reached by one that does not.
func TestStartSandboxReturnsWhenInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	held, release := make(chan struct{}), make(chan struct{})
	var heldOnce sync.Once
	t.Cleanup(func() { close(release) })
	opts := sandbox.Options{Payments: 500_000, Now: func() time.Time {
		heldOnce.Do(func() { close(held) })
		<-release
		return time.Now()
	}}
	type result struct {
		srv *sandbox.Server
		err error
	}
	returned := make(chan result, 1)
	go func() {
		srv, err := startSandbox(ctx, opts)
		returned <- result{srv, err}
	}()
	select {
	case r := <-returned:
		require.ErrorIs(t, r.err, context.Canceled)
		assert.Nil(t, r.srv)
	case <-time.After(longWait):
		t.Fatalf("startSandbox waited %s for a sandbox that was still starting, its context ended", longWait)
	}
	select { // the hold above held something: Start did reach the clock
	case <-held:
	case <-time.After(longWait):
		t.Fatalf("sandbox.Start never read the clock in %s: the test no longer holds it", longWait)
	}

	// And the dashboard reports it as an interruption (exit 1), before it
	// needs a terminal.
	var stdout, stderr bytes.Buffer
	done, stop := context.WithCancel(context.Background())
	stop()
	assert.Equal(t, 1, runWith(done, nil, &stdout, &stderr, bareSystem(t.TempDir())))
	assert.Contains(t, stderr.String(), "interrupted before it was ready")
}
