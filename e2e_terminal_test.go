package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/creack/pty"
	"github.com/stretchr/testify/require"
)

// paydash in a pseudo-terminal, its screen emulated (vt), and the waits of
// the end-to-end tests: on the screen (each output wakes them), on the
// program's exit, on the service (polled), and the one pause a person
// makes before confirming.

const (
	e2eCols, e2eRows = 120, 40
	e2eWait          = 15 * time.Second // for one screen; the whole test takes a few seconds
	modalGuard       = 400 * time.Millisecond
)

// pauseForGuard waits out the confirmation dialog's guard (ui/confirm_guard.go:
// a key less than modalGuard after the one before it is ignored), with a
// margin for a loaded machine. The binary runs on the real clock, so this
// is the one real wait of the end-to-end tests; a test that then asserts
// that a key was taken sees it fail if the guard ignored it. Call it once
// the screen showed the dialog, or what the key before did (waitFor): the
// guard runs from the moment paydash read that key, which may be well
// after it was sent on a loaded machine.
func pauseForGuard() { time.Sleep(modalGuard + 200*time.Millisecond) }

// terminal is paydash running in a pseudo-terminal, its screen emulated.
type terminal struct {
	cmd    *exec.Cmd
	pty    *os.File
	vt     *vt
	exited chan struct{}
	code   int
	// drained is closed once copyAll read the pseudo-terminal to its end:
	// the program may exit before its last output was read.
	drained chan struct{}

	rawMu sync.Mutex
	raw   []byte // the last rawKeep bytes of output
}

func startInTerminal(t *testing.T, bin string, args, env []string, dir string) *terminal {
	t.Helper()
	home := filepath.Join(dir, "home")
	require.NoError(t, os.MkdirAll(home, 0o700))
	cmd := exec.Command(bin, args...)
	cmd.Env = append([]string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + home, // no config file of the machine's user is read
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"XDG_STATE_HOME=" + filepath.Join(home, ".local", "state"),
		"TERM=xterm-256color",
		"NO_COLOR=1",
	}, env...)
	if tz, ok := os.LookupEnv("TZ"); ok {
		cmd.Env = append(cmd.Env, "TZ="+tz) // the same "today" as the test
	}
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: e2eRows, Cols: e2eCols})
	require.NoError(t, err)
	term := &terminal{cmd: cmd, pty: f, vt: newVT(e2eCols, e2eRows), exited: make(chan struct{}), drained: make(chan struct{})}
	go term.copyAll(f)
	go func() {
		err := cmd.Wait()
		term.code = cmd.ProcessState.ExitCode()
		_ = err // the exit code says it
		close(term.exited)
	}()
	t.Cleanup(func() {
		select {
		case <-term.exited:
		default:
			_ = cmd.Process.Kill()
			<-term.exited
		}
		_ = f.Close()
	})
	return term
}

// copyAll reads the pseudo-terminal until it closes (EIO once the program
// exits on Linux), into the screen and the raw log.
func (tm *terminal) copyAll(src *os.File) {
	defer close(tm.drained)
	buf := make([]byte, 32*1024)
	for {
		k, err := src.Read(buf)
		if k > 0 {
			_, _ = tm.vt.Write(buf[:k])
			tm.rawMu.Lock()
			tm.raw = append(tm.raw, buf[:k]...)
			if len(tm.raw) > rawKeep {
				tm.raw = append(tm.raw[:0], tm.raw[len(tm.raw)-rawKeep:]...)
			}
			tm.rawMu.Unlock()
		}
		if err != nil {
			return
		}
	}
}

const rawKeep = 1 << 20

// tailIf is rawTail when cond holds (a failure message's detail).
func (tm *terminal) tailIf(cond bool) string {
	if !cond {
		return ""
	}
	return tm.rawTail()
}

// rawTail is the end of the program's output with escape sequences removed,
// for messages about a program that went wrong.
func (tm *terminal) rawTail() string {
	select {
	case <-tm.exited:
		// All of an exited program's output, its last words included.
		select {
		case <-tm.drained:
		case <-time.After(10 * time.Second):
		}
	default:
	}
	tm.rawMu.Lock()
	defer tm.rawMu.Unlock()
	s := ansi.Strip(string(tm.raw))
	if len(s) > 20000 {
		s = s[len(s)-20000:]
	}
	return s
}

func (tm *terminal) send(t *testing.T, keys string) {
	t.Helper()
	_, err := tm.pty.Write([]byte(keys))
	require.NoError(t, err, "typing %q", keys)
}

// waitFor waits until the screen satisfies ok, and fails with the screen
// when it does not in time or the program exits. It looks again at each
// output of the program.
func (tm *terminal) waitFor(t *testing.T, what string, ok func(screen string) bool) string {
	t.Helper()
	deadline := time.NewTimer(e2eWait)
	defer deadline.Stop()
	for {
		changed := tm.vt.Changed()
		s := tm.vt.Screen()
		if ok(s) {
			if os.Getenv("PAYDASH_E2E_SCREENS") != "" {
				t.Logf("%s:\n%s", what, s)
			}
			return s
		}
		select {
		case <-changed:
		case <-tm.exited:
			t.Fatalf("paydash exited (code %d) while waiting for %s; the last screen:\n%s", tm.code, what, s)
		case <-deadline.C:
			t.Fatalf("waited %s for %s; the screen:\n%s", e2eWait, what, s)
		}
	}
}

// holdsFor checks that the screen satisfies ok all through d, every
// output of the program included: something that must not come up does
// not, not even for a moment.
func (tm *terminal) holdsFor(t *testing.T, d time.Duration, what string, ok func(screen string) bool) {
	t.Helper()
	end := time.NewTimer(d)
	defer end.Stop()
	for {
		changed := tm.vt.Changed()
		if s := tm.vt.Screen(); !ok(s) {
			t.Errorf("not so for %s: %s; the screen:\n%s", d, what, s)
			return
		}
		select {
		case <-changed:
		case <-end.C:
			return
		}
	}
}

// settle waits until the program has drawn nothing for a moment (at most
// 3 s), so that the next keys go to the screen the test has seen.
func (tm *terminal) settle() { tm.quiet(150 * time.Millisecond) }

// quiet waits until the program has drawn nothing for d, at most 3 s.
func (tm *terminal) quiet(d time.Duration) { tm.vt.waitQuiet(d, 3*time.Second) }

func (tm *terminal) wait(t *testing.T, timeout time.Duration) int {
	t.Helper()
	select {
	case <-tm.exited:
		return tm.code
	case <-time.After(timeout):
		// Ask the Go runtime where it is stuck: SIGQUIT prints every
		// goroutine's stack, which the raw output then holds.
		screen := tm.vt.Screen()
		_ = tm.cmd.Process.Signal(syscall.SIGQUIT)
		select {
		case <-tm.exited:
		case <-time.After(2 * time.Second):
		}
		t.Fatalf("paydash did not exit within %s; the screen:\n%s\n\nits last output:\n%s", timeout, screen, tm.rawTail())
		return -1
	}
}

// waitForService polls the service until ok, failing with the screen.
func waitForService(t *testing.T, tm *terminal, what string, ok func() (bool, string)) {
	t.Helper()
	tm.poll(t, what, e2eWait, 50*time.Millisecond, ok)
}

// poll asks ok every interval until it holds, failing with the screen when
// timeout passes or the program exits first; ok's text says where things
// stand, for the failure.
func (tm *terminal) poll(t *testing.T, what string, timeout, interval time.Duration, ok func() (bool, string)) {
	t.Helper()
	var state string
	err := pollUntil(timeout, interval, tm.exited, func() bool {
		var done bool
		done, state = ok()
		return done
	})
	switch {
	case errors.Is(err, errExited):
		t.Fatalf("paydash exited (code %d) while waiting for %s (now: %s); the screen:\n%s", tm.code, what, state, tm.vt.Screen())
	case err != nil:
		t.Fatalf("waited %s for %s (now: %s); the screen:\n%s", timeout, what, state, tm.vt.Screen())
	}
}
