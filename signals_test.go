package main

import (
	"bytes"
	"context"
	"os/exec"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend/sandbox"
)

// SIGTERM while `paydash sandbox` seeds millions of payments ends it within
// a second (it used to go on seeding: 6 s after TERM, 2.6 GB).
func TestSandboxStopsOnSIGTERMWhileSeeding(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	if runtime.GOOS == "windows" {
		t.Skip("no SIGTERM")
	}
	dir := t.TempDir()
	bin := buildPaydash(t, dir)
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			cmd := exec.Command(bin, "sandbox", "--payments", "5000000", "--arrivals", "0", "--info-file", dir+"/info.json")
			var out syncBuffer
			cmd.Stdout, cmd.Stderr = &out, &out
			require.NoError(t, cmd.Start())
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			t.Cleanup(func() {
				_ = cmd.Process.Kill() // by its id; a no-op once it has exited
			})

			time.Sleep(300 * time.Millisecond)
			// Whether it is still in Start or already serving while the
			// older days are seeded in the background, the signal ends it.
			ready := strings.Contains(out.String(), "ready in")
			require.NoError(t, cmd.Process.Signal(sig))
			signalled := time.Now()
			select {
			case err := <-exited:
				t.Logf("ready when signalled: %v; exited (%v) after %s:\n%s", ready, err, time.Since(signalled).Round(time.Millisecond), out.String())
				if ready {
					assert.Equal(t, 0, cmd.ProcessState.ExitCode(), "stopped as asked once serving")
				} else {
					assert.Equal(t, 1, cmd.ProcessState.ExitCode(), "interrupted before it was ready")
					assert.Contains(t, out.String(), "interrupted before it was ready")
				}
			case <-time.After(time.Second):
				t.Fatalf("paydash sandbox still running 1 s after %s:\n%s", sig, out.String())
			}
		})
	}
}

// The sandbox the dashboard starts in its process stops with the signal
// context too: startSandbox returns at once when ctx ends, and (once the
// store stops seeding on ctx) the seeding ends with it.
func TestStartSandboxReturnsWhenInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	began := time.Now()
	srv, err := startSandbox(ctx, sandbox.Options{Payments: 500_000})
	assert.Less(t, time.Since(began), time.Second)
	require.ErrorIs(t, err, context.Canceled)
	assert.Nil(t, srv)

	// And the dashboard reports it as an interruption (exit 1), before it
	// needs a terminal.
	var stdout, stderr bytes.Buffer
	done, stop := context.WithCancel(context.Background())
	stop()
	assert.Equal(t, 1, runWith(done, nil, &stdout, &stderr, bareSystem(t.TempDir())))
	assert.Contains(t, stderr.String(), "interrupted before it was ready")
}
