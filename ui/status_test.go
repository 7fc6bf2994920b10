package ui

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// What stands out in one tab (the Overview) shows as "! N" in the status
// bar of every other tab, and not in its own, which shows it whole.
func TestTheStatusBarSaysWhatStandsOutElsewhere(t *testing.T) {
	ta := newTestApp(t)
	lastLines := func() string {
		lines := strings.Split(ta.screen(), "\n")
		return strings.Join(lines[len(lines)-3:], "\n")
	}
	assert.NotContains(t, lastLines(), "! ")

	ta.tabs[1].status.StandsOut = 2
	assert.Contains(t, lastLines(), "! 2", "the Payments tab says two figures stand out elsewhere")

	ta.press("2")
	assert.NotContains(t, lastLines(), "! 2", "the tab that has them shows them itself")
}
