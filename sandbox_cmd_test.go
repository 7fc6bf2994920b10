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
		assert.Contains(t, errb.String(), w)
	}
}
