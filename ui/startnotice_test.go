package ui

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// News at start the user must not miss (an action left open on another
// service) opens the notice dialog, which stays until closed, and is kept
// in the messages view; a warning is only a toast.
func TestStartNoticesOpenTheNoticeDialog(t *testing.T) {
	ta := newTestApp(t, func(c *Config) {
		c.Notices = []Notice{{Title: "Actions left open on other services — not checked here", ID: "elsewhere-0",
			Level: ToastWarning, Text: "1 action left open on https://other-host — not checked here"}}
	})
	require.IsType(t, &noticeModal{}, ta.modal)
	assert.Contains(t, unwrapped(ta.screen()), "1 action left open on https://other-host — not checked here")
	ta.press("q")
	require.NotNil(t, ta.modal, "q does not slip past it")
	ta.press("enter")
	assert.Nil(t, ta.modal)
	ta.press("M")
	assert.Contains(t, unwrapped(ta.screen()), "1 action left open on https://other-host")
}
