package main

import (
	"os"
	"os/exec"
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
