package ui

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/debuglog"
)

// The debug log records the dialogs the shell opens and closes and the
// keys it ignores, with why, and never the key itself (typed digits are
// the customer's data).
func TestTheDebugLogRecordsDialogsAndIgnoredKeys(t *testing.T) {
	var buf bytes.Buffer
	log := debuglog.New(&buf, func() time.Time { return time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC) })
	ta := newTestApp(t, func(c *Config) { c.DebugLog = log })

	ta.press("R") // the preparing dialog
	ta.press("7")
	ta.send(ConfirmDialog(1, refundSpec(&confirmProbe{})))
	ta.press("5") // inside the confirmation's guard
	ta.clock.advance(ConfirmGuard)
	ta.press("esc")
	require.Nil(t, ta.modal)
	require.NoError(t, log.Close())

	got := buf.String()
	var events []string
	for _, l := range strings.Split(strings.TrimSpace(got), "\n") {
		f := strings.Fields(l)
		require.GreaterOrEqual(t, len(f), 2, l)
		events = append(events, f[1]+" "+strings.Join(f[2:], " "))
	}
	assert.Equal(t, []string{
		"dialog_open dialog=preparing",
		`key_ignored dialog=preparing why="the dialog was being prepared"`,
		"dialog_open dialog=confirm replaces=preparing",
		`key_ignored dialog=confirm why="the dialog opened while you typed"`,
		"dialog_close dialog=confirm",
	}, events)
	assert.NotContains(t, got, " 7", "the key pressed is not written")
	assert.NotContains(t, got, "=5")
}
