package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// make test fuzzes by a count of inputs: a time-based -fuzztime lets Go's
// fuzz coordinator fail the run by chance on its own deadline ("context
// deadline exceeded", no crasher), and make test must never fail by chance.
func TestMakeTestFuzzesByCountNotByTime(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make is not installed here")
	}
	out, err := exec.Command("make", "-n", "--no-print-directory", "fuzz", "FUZZTIME=$(TEST_FUZZTIME)").CombinedOutput()
	require.NoError(t, err, "%s", out)
	times := regexp.MustCompile(`-fuzztime\s+(\S+)`).FindAllStringSubmatch(string(out), -1)
	require.NotEmpty(t, times, "make fuzz runs the fuzzers:\n%s", out)
	for _, m := range times {
		assert.Regexp(t, `^[1-9][0-9]*x$`, m[1], "each fuzzer of make test runs a count of inputs")
	}
	// make -n would still run the test recipe (it calls $(MAKE)): read it.
	makefile, err := os.ReadFile("Makefile")
	require.NoError(t, err)
	assert.Contains(t, string(makefile), "$(MAKE) fuzz FUZZTIME=$(TEST_FUZZTIME)", "make test passes the count to make fuzz")
}

// make test builds bin/paydash and has the end-to-end tests run it, and a
// binary named wrongly is refused, saying why, before any test runs it.
func TestMakeTestRunsTheBuiltBinaryEndToEnd(t *testing.T) {
	makefile, err := os.ReadFile("Makefile")
	require.NoError(t, err)
	assert.Contains(t, string(makefile), "$(MAKE) build --no-print-directory || exit 1")
	assert.Contains(t, string(makefile), e2eBinaryEnv+"=$(CURDIR)/$(BIN) $(GO) test")

	dir := t.TempDir()
	plain := filepath.Join(dir, "plain")
	require.NoError(t, os.WriteFile(plain, []byte("not a program"), 0o600))
	exe := filepath.Join(dir, "paydash")
	require.NoError(t, os.WriteFile(exe, []byte("#!/bin/sh\n"), 0o700))
	for path, why := range map[string]string{
		"bin/paydash":                 "not an absolute path",
		filepath.Join(dir, "missing"): "no such file",
		dir:                           "not an executable file",
		plain:                         "not an executable file",
	} {
		_, err := givenBinary(path)
		require.Error(t, err, path)
		assert.Contains(t, err.Error(), why)
		assert.Contains(t, err.Error(), e2eBinaryEnv)
	}
	got, err := givenBinary(exe)
	require.NoError(t, err)
	assert.Equal(t, exe, got)
}
