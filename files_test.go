package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/config"
)

// bareSystem is a machine with no environment and its config and state
// directories under dir.
func bareSystem(dir string) config.System {
	return config.System{
		Getenv:        func(string) string { return "" },
		UserConfigDir: func() (string, error) { return filepath.Join(dir, "config"), nil },
		UserHomeDir:   func() (string, error) { return filepath.Join(dir, "home"), nil },
		GOOS:          runtime.GOOS,
	}
}

func names(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	slices.Sort(out)
	return out
}

func TestSandboxInfoFileOnlyOverARegularFile(t *testing.T) {
	// Refused before the sandbox starts: exit 2 is a refusal of the command
	// line, made before anything is started (the failures of a started
	// sandbox, writing the info file among them, exit 1), and nothing of a
	// sandbox is printed.
	sandboxRefuses := func(t *testing.T, path, problem string) {
		t.Helper()
		var stdout, stderr bytes.Buffer
		code := run(context.Background(), []string{"sandbox", "--info-file", path, "--payments", "0"}, &stdout, &stderr)
		assert.Equal(t, 2, code, stderr.String())
		assert.Contains(t, stderr.String(), "--info-file "+path)
		assert.Contains(t, stderr.String(), problem)
		assert.NotContains(t, stderr.String(), "writing the info file", "refused before the sandbox starts")
		assert.Empty(t, stdout.String(), "no sandbox was started")
	}

	t.Run("/dev/full", func(t *testing.T) {
		st, err := os.Lstat("/dev/full")
		if err != nil || st.Mode()&os.ModeCharDevice == 0 {
			t.Skip("no /dev/full here")
		}
		sandboxRefuses(t, "/dev/full", "not a regular file")
		st, err = os.Lstat("/dev/full")
		require.NoError(t, err)
		assert.NotZero(t, st.Mode()&os.ModeCharDevice, "the device is untouched")
		_, err = os.Lstat("/dev/full-ca.pem")
		assert.ErrorIs(t, err, os.ErrNotExist)
	})

	t.Run("a directory", func(t *testing.T) {
		parent := t.TempDir()
		target := filepath.Join(parent, "info")
		require.NoError(t, os.Mkdir(target, 0o700))
		sandboxRefuses(t, target, "is a directory")
		assert.Equal(t, []string{"info"}, names(t, parent), "nothing written beside it")
		assert.Empty(t, names(t, target), "nor in it")
	})

	t.Run("a symbolic link", func(t *testing.T) {
		d := t.TempDir()
		require.NoError(t, os.WriteFile(filepath.Join(d, "file.json"), []byte("x"), 0o600))
		require.NoError(t, os.Symlink(filepath.Join(d, "file.json"), filepath.Join(d, "link.json")))
		sandboxRefuses(t, filepath.Join(d, "link.json"), "symbolic link")
		assert.Equal(t, []string{"file.json", "link.json"}, names(t, d))
	})

	t.Run("a regular file: replaced by rename, mode 600, no temporary file left", func(t *testing.T) {
		d := t.TempDir()
		path := filepath.Join(d, "sandbox.json")
		require.NoError(t, os.WriteFile(path, []byte("stale"), 0o644))
		ctx, cancel := context.WithCancel(context.Background())
		var stdout, stderr syncBuffer
		done := make(chan int, 1)
		go func() {
			done <- run(ctx, []string{"sandbox", "--info-file", path, "--payments", "0", "--arrivals", "0"}, &stdout, &stderr)
		}()
		require.Eventually(t, func() bool { return strings.Contains(stdout.String(), "Press Ctrl-C") }, longWait, 10*time.Millisecond, stderr.String())
		cancel()
		assert.Equal(t, 0, <-done, stderr.String())

		assert.Equal(t, []string{"sandbox-ca.pem", "sandbox.json"}, names(t, d))
		for _, p := range []string{path, filepath.Join(d, "sandbox-ca.pem")} {
			st, err := os.Stat(p)
			require.NoError(t, err)
			assert.Equal(t, os.FileMode(0o600), st.Mode().Perm(), p)
		}
		raw, err := os.ReadFile(path)
		require.NoError(t, err)
		assert.Contains(t, string(raw), `"baseUrl"`)
	})
}

func TestSandboxFlagsOutOfRangeAreRefusedWithTheRange(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"--payments", "9999999999999"}, []string{"-payments", "from 0 to 5,000,000"}},
		{[]string{"--payments", "99999999999999999999999"}, []string{"-payments", "from 0 to 5,000,000"}},
		{[]string{"--payments", "-1"}, []string{"-payments", "from 0 to 5,000,000"}},
		{[]string{"--payments", "lots"}, []string{"-payments", "not a whole number", "from 0 to 5,000,000"}},
		{[]string{"--arrivals", "1ns"}, []string{"-arrivals", "0 (none) or a duration from 100ms to 24h"}},
		{[]string{"--arrivals", "-3s"}, []string{"-arrivals", "from 100ms to 24h"}},
		{[]string{"--arrivals", "48h"}, []string{"-arrivals", "from 100ms to 24h"}},
		{[]string{"--settle-delay", "0"}, []string{"-settle-delay", "from 1ms to 24h"}},
		{[]string{"--settle-delay", "25h"}, []string{"-settle-delay", "from 1ms to 24h"}},
		{[]string{"--settle-delay", "soon"}, []string{"-settle-delay", "not a duration"}},
		{[]string{"--seed", "0"}, []string{"-seed", "from 1 to 9223372036854775807"}},
		{[]string{"--seed", "-7"}, []string{"-seed", "from 1 to 9223372036854775807"}},
		{[]string{"--faults", "latency=1h"}, []string{"--faults", "latency 1h0m0s is out of range", "from 0 to 5m"}},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			code := run(context.Background(), append([]string{"sandbox"}, tc.args...), &stdout, &stderr)
			assert.Equal(t, 2, code)
			msg := stderr.String()
			assert.Equal(t, 1, strings.Count(msg, "\n"), "one line: %s", msg)
			for _, w := range tc.want {
				assert.Contains(t, msg, w)
			}
		})
	}

	// The help names the ranges too.
	var stdout, stderr bytes.Buffer
	require.Equal(t, 0, run(context.Background(), []string{"sandbox", "--help"}, &stdout, &stderr))
	for _, w := range []string{"-payments N", "from 0 to 5,000,000", "-arrivals DURATION", "0 (none) or from 100ms to 24h", "-settle-delay DURATION", "(default 5s)", "(default 100000)"} {
		assert.Contains(t, strings.Join(strings.Fields(stdout.String()), " "), w, "wrapped lines read as one")
	}
}

func TestDashboardRefreshOutOfRange(t *testing.T) {
	sys := bareSystem(t.TempDir())
	for _, tc := range []struct{ val, want string }{
		{"100ms", "too short"},
		{"48h", "too long"},
	} {
		var stdout, stderr bytes.Buffer
		assert.Equal(t, 2, runWith(context.Background(), []string{"--refresh", tc.val}, &stdout, &stderr, sys))
		assert.Contains(t, stderr.String(), "--refresh "+tc.val)
		assert.Contains(t, stderr.String(), tc.want)
		assert.Contains(t, stderr.String(), "from 1s to 24h")
	}
}

func TestConfigAndCAFilesAreBounded(t *testing.T) {
	dir := t.TempDir()
	sys := bareSystem(dir)
	// What is refused is refused without being read: a big file by its
	// size (the message says so), a named pipe before its open, which
	// would wait for a writer for ever (longWait is a hang guard only).
	refused := func(t *testing.T, args []string, want ...string) {
		t.Helper()
		var stdout, stderr bytes.Buffer
		code := make(chan int, 1)
		go func() { code <- runWith(context.Background(), args, &stdout, &stderr, sys) }()
		select {
		case c := <-code:
			assert.Equal(t, 2, c, stderr.String())
		case <-time.After(longWait):
			t.Fatalf("%q: still at it after %s", args, longWait)
		}
		for _, w := range want {
			assert.Contains(t, stderr.String(), w)
		}
	}

	big := filepath.Join(dir, "big.toml")
	require.NoError(t, os.WriteFile(big, bytes.Repeat([]byte("# comment line\n"), 10<<20/15), 0o600))
	refused(t, []string{"--config", big}, "--config "+big, "larger than 1 MiB")

	bigCA := filepath.Join(dir, "big.pem")
	require.NoError(t, os.WriteFile(bigCA, bytes.Repeat([]byte("x"), 5<<20), 0o600))
	refused(t, []string{"--ca-file", bigCA}, "--ca-file "+bigCA, "larger than 4 MiB")

	refused(t, []string{"--config", dir}, "not a regular file (a directory)")

	// A named pipe would block the open until something writes to it.
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err == nil {
		refused(t, []string{"--config", fifo}, "not a regular file (a named pipe)")
		refused(t, []string{"--ca-file", fifo}, "not a regular file (a named pipe)")

		// The default config path too (it may be missing, not a pipe).
		cfgDir := filepath.Join(dir, "config", "paydash")
		require.NoError(t, os.MkdirAll(cfgDir, 0o700))
		require.NoError(t, syscall.Mkfifo(filepath.Join(cfgDir, "config.toml"), 0o600))
		refused(t, nil, "config file", "not a regular file (a named pipe)")
		require.NoError(t, os.Remove(filepath.Join(cfgDir, "config.toml")))

		// And the request log, which would block its open.
		_, err := openSession(context.Background(), config.Settings{LogPath: fifo, LogFrom: "--log"}, time.Now())
		var ue *config.UsageError
		require.True(t, errors.As(err, &ue), "%v", err)
		assert.Contains(t, err.Error(), "--log "+fifo+": it is a named pipe (FIFO)")
	}

	// (A symbolic link as the request log: TestLogsRefuseLinkAndFIFO.)

	// A config of the right size still works.
	small := filepath.Join(dir, "small.toml")
	require.NoError(t, os.WriteFile(small, []byte("refresh = \"30s\"\n"), 0o600))
	s, err := config.Load([]string{"--config", small}, sys)
	require.NoError(t, err)
	assert.Equal(t, 30*time.Second, s.Refresh)
}

// The built binary refuses /dev/zero as its config or CA file at once
// (it used to read it without limit: 3.4 GB in 5 s). A read without limit
// never ends, and is killed after longWait (exit -1, not 2), if it has not
// run out of memory by then; a refusal takes milliseconds.
func TestDevZeroConfigAndCARefusedAtOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the binary")
	}
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero here")
	}
	t.Parallel() // the binary's start and its refusal: mostly waiting
	dir := t.TempDir()
	bin := paydashBinary(t)
	for _, args := range [][]string{{"--config", "/dev/zero"}, {"--ca-file", "/dev/zero"}} {
		t.Run(args[0], func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), longWait)
			defer cancel()
			cmd := exec.CommandContext(ctx, bin, args...)
			cmd.Env = []string{"HOME=" + dir, "XDG_CONFIG_HOME=" + filepath.Join(dir, "config"), "XDG_STATE_HOME=" + filepath.Join(dir, "state")}
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			began := time.Now()
			err := cmd.Run()
			elapsed := time.Since(began)
			var ee *exec.ExitError
			require.True(t, errors.As(err, &ee), "%v: %s", err, out.String())
			assert.Equal(t, 2, ee.ExitCode(), out.String())
			assert.Contains(t, out.String(), args[0]+" /dev/zero")
			assert.Contains(t, out.String(), "not a regular file (a character device)")
			t.Logf("refused in %s", elapsed.Round(time.Millisecond))
		})
	}
}
