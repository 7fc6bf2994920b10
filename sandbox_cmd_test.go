package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The testers' part of `paydash sandbox --help` fits an 80-column
// terminal and names every control endpoint.
func TestSandboxControlHelpFitsAndNamesEveryEndpoint(t *testing.T) {
	for i, line := range strings.Split(sandboxControlHelp, "\n") {
		assert.LessOrEqual(t, len([]rune(line)), 80, "line %d: %q", i+1, line)
	}
	var out, errb bytes.Buffer
	require.Equal(t, 0, run(context.Background(), []string{"sandbox", "--help"}, &out, &errb))
	for _, w := range []string{"/_sandbox/clock/advance", "/_sandbox/reset", "/_sandbox/callbacks/", "POST /_sandbox/scenario",
		"GET  /_sandbox/scenario", "decline_spike", "confirmation_stall", "refund_delay"} {
		assert.Contains(t, out.String(), w)
	}
}

// paydash sandbox --help is like paydash --help: on stdout (so that it
// pages with less), exit 0, nothing on stderr, flags written with two
// dashes as the README writes them, every line within 80 columns.
func TestSandboxHelpOnStdoutLikePaydashHelp(t *testing.T) {
	for _, help := range []string{"--help", "-h", "-help"} {
		var out, errb bytes.Buffer
		require.Equal(t, 0, run(context.Background(), []string{"sandbox", help}, &out, &errb), help)
		assert.Empty(t, errb.String(), help)
		text := out.String()
		assert.True(t, strings.HasPrefix(text, "Usage: paydash sandbox [flags]\n"), text)
		for _, f := range []string{"--addr HOST:PORT", "--public", "--seed N", "--payments N", "--info-file PATH",
			"--faults SPEC", "--settle-delay DURATION", "--arrivals DURATION", "-v\n"} {
			assert.Contains(t, text, "\n  "+f, help)
		}
		assert.NotRegexp(t, `(?m)^\s+-[a-z][a-z-]+`, text, "no flag written with one dash but -v")
		for i, line := range strings.Split(text, "\n") {
			assert.LessOrEqual(t, len([]rune(line)), 80, "line %d: %q", i+1, line)
		}
	}
	var out, errb bytes.Buffer
	require.Equal(t, 0, run(context.Background(), []string{"--help"}, &out, &errb))
	assert.Empty(t, errb.String())
	assert.Contains(t, out.String(), "--base-url URL")
}

// Every bad input to paydash sandbox exits 2 with one prefix, the address
// refused before anything starts included.
func TestSandboxBadInputExits2WithOnePrefix(t *testing.T) {
	for _, args := range [][]string{
		{"--addr", "0.0.0.0:0"},
		{"--addr", "nonsense"},
		{"--payments", "-1"},
		{"--frobnicate"},
		{"extra"},
		{"--faults", "error=2"},
	} {
		var out, errb bytes.Buffer
		code := run(context.Background(), append([]string{"sandbox"}, args...), &out, &errb)
		assert.Equal(t, 2, code, "%v: %s", args, errb.String())
		assert.True(t, strings.HasPrefix(errb.String(), "paydash sandbox: "), "%v: %s", args, errb.String())
		assert.NotContains(t, errb.String(), "sandbox: sandbox:", args)
		assert.Equal(t, 1, strings.Count(errb.String(), "\n"), "%v: one line: %s", args, errb.String())
	}
}
