package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"paydash/backend/sandbox"
)

// What the end-to-end tests run: this test binary itself as paydash (a
// link to it named paydash starts main instead of the tests), the
// `paydash sandbox` processes it serves, and how many of the tests run at
// once.

// paydashName is the name under which the test binary runs as paydash.
const paydashName = "paydash"

// e2eParallel is how many parallel tests run at once when -parallel is not
// given (Go's default is GOMAXPROCS, 2 on a small machine): an end-to-end
// test spends most of its time waiting for latency, a dialog's guard or
// the screen, not using a CPU. More than 6 starve the programs under test
// of CPU on a 2-core machine: their keys are then read late, and a pause
// meant to outlast a dialog's guard may not.
const e2eParallel = 6

// TestMain runs the tests, or, started through paydashBinary's link,
// paydash itself: the end-to-end tests run the very code they were built
// from (with -race when they run with it), and no `go build` waits before
// the first of them.
func TestMain(m *testing.M) {
	if filepath.Base(os.Args[0]) == paydashName {
		main()
		return
	}
	flag.Parse()
	raiseParallel()
	code := m.Run()
	shared.stop()
	if built.dir != "" {
		_ = os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// raiseParallel sets -parallel to e2eParallel when the command line did
// not set it.
func raiseParallel() {
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given && runtime.GOMAXPROCS(0) < e2eParallel {
		_ = flag.Set("test.parallel", strconv.Itoa(e2eParallel))
	}
}

// e2eBinaryEnv names a paydash binary for the end-to-end tests to run
// instead of this test binary. make test gives the one it has just built
// (without the race detector): under -race, the programs the tests start
// took three quarters of the package's CPU, and on two cores they slowed
// every other package's tests. The race detector still runs in the tests
// of every package, this one's own included, over the same code.
const e2eBinaryEnv = "PAYDASH_E2E_BINARY"

// givenBinary checks the binary named by e2eBinaryEnv: an absolute path to
// an executable file, so that a mistake fails every test at once, saying so.
func givenBinary(path string) (string, error) {
	if !filepath.IsAbs(path) {
		return "", fmt.Errorf("%s=%s: not an absolute path", e2eBinaryEnv, path)
	}
	st, err := os.Stat(path)
	switch {
	case err != nil:
		return "", fmt.Errorf("%s: %v", e2eBinaryEnv, err)
	case !st.Mode().IsRegular() || st.Mode().Perm()&0o111 == 0:
		return "", fmt.Errorf("%s=%s: not an executable file", e2eBinaryEnv, path)
	}
	return path, nil
}

// paydashBinary is the path of paydash for the tests to run: the binary
// e2eBinaryEnv names, or else a link named paydash to this test binary
// (TestMain), made once per run.
func paydashBinary(t *testing.T) string {
	t.Helper()
	built.once.Do(func() {
		if b := os.Getenv(e2eBinaryEnv); b != "" {
			built.bin, built.err = givenBinary(b)
			return
		}
		exe, err := os.Executable()
		if err != nil {
			built.err = err
			return
		}
		if built.dir, err = os.MkdirTemp("", "paydash-e2e-"); err != nil {
			built.err = err
			return
		}
		bin := filepath.Join(built.dir, paydashName)
		if err := os.Symlink(exe, bin); err != nil {
			built.err = fmt.Errorf("linking the test binary as %s: %v", paydashName, err)
			return
		}
		built.bin = bin
	})
	require.NoError(t, built.err)
	return built.bin
}

var built struct {
	once     sync.Once
	dir, bin string
	err      error
}

// sandboxProcess is `paydash sandbox` running in a process of its own.
type sandboxProcess struct {
	cmd    *exec.Cmd
	out    *syncBuffer
	exited chan struct{}
	info   sandbox.Info
}

// launchSandbox runs `paydash sandbox` (with extra flags, such as --faults)
// on a small seed, and returns once its info file says it is ready.
func launchSandbox(bin, dir string, extra ...string) (*sandboxProcess, error) {
	infoPath := filepath.Join(dir, "sandbox.json")
	args := []string{"sandbox", "--info-file", infoPath, "--payments", "2000", "--seed", "5",
		"--settle-delay", "200ms", "--arrivals", "0"}
	p := &sandboxProcess{cmd: exec.Command(bin, append(args, extra...)...), out: &syncBuffer{}, exited: make(chan struct{})}
	p.cmd.Stdout, p.cmd.Stderr = p.out, p.out
	if err := p.cmd.Start(); err != nil {
		return nil, err
	}
	go func() { _ = p.cmd.Wait(); close(p.exited) }()
	err := pollUntil(e2eWait, 20*time.Millisecond, p.exited, func() bool {
		raw, err := os.ReadFile(infoPath)
		return err == nil && json.Unmarshal(raw, &p.info) == nil && p.info.BaseURL != ""
	})
	switch {
	case errors.Is(err, errExited):
		return nil, fmt.Errorf("paydash sandbox stopped before it was ready:\n%s", p.out.String())
	case err != nil:
		p.stop()
		return nil, fmt.Errorf("paydash sandbox wrote no info file in %s:\n%s", e2eWait, p.out.String())
	case len(p.info.MerchantIDs) == 0:
		p.stop()
		return nil, fmt.Errorf("paydash sandbox names no merchant:\n%s", p.out.String())
	}
	return p, nil
}

// stop interrupts the sandbox, and kills it if it is still there 5 s later.
func (p *sandboxProcess) stop() {
	if p == nil {
		return
	}
	_ = p.cmd.Process.Signal(os.Interrupt)
	select {
	case <-p.exited:
	case <-time.After(5 * time.Second):
		_ = p.cmd.Process.Kill()
		<-p.exited
	}
}

// startSandboxProcess is launchSandbox for one test, stopped when it ends.
func startSandboxProcess(t *testing.T, bin, dir string, extra ...string) sandbox.Info {
	t.Helper()
	p, err := launchSandbox(bin, dir, extra...)
	require.NoError(t, err)
	t.Cleanup(p.stop)
	return p.info
}

// sharedSandbox is one sandbox without faults for the tests that only read
// from the service (a test that changes something has a sandbox of its
// own): started by the first of them, stopped by TestMain.
func sharedSandbox(t *testing.T) sandbox.Info {
	t.Helper()
	shared.once.Do(func() {
		if shared.dir, shared.err = os.MkdirTemp("", "paydash-e2e-sandbox-"); shared.err == nil {
			shared.p, shared.err = launchSandbox(paydashBinary(t), shared.dir)
		}
	})
	require.NoError(t, shared.err)
	return shared.p.info
}

var shared sharedProcess

type sharedProcess struct {
	once sync.Once
	p    *sandboxProcess
	dir  string
	err  error
}

func (s *sharedProcess) stop() {
	s.p.stop()
	if s.dir != "" {
		_ = os.RemoveAll(s.dir)
	}
}

// errExited is pollUntil's answer when the process it watches ended first.
var errExited = errors.New("the process exited")

// pollUntil asks cond every interval until it holds (nil), exited is
// closed (errExited) or timeout passes (an error saying so). It is for
// state that nothing announces (a file, the service); the screen has
// terminal.waitFor.
func pollUntil(timeout, interval time.Duration, exited <-chan struct{}, cond func() bool) error {
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for !cond() {
		select {
		case <-exited:
			if cond() {
				return nil
			}
			return errExited
		case <-deadline.C:
			return fmt.Errorf("not so after %s", timeout)
		case <-tick.C:
		}
	}
	return nil
}
