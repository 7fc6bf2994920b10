package ui

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// esc on the preparing dialog tells the tab that was asked to prepare it,
// so that it cancels its read; the confirmation or refusal of another
// ticket never reaches it as a give-up.
func TestGivingUpTellsTheTabToCancelItsRead(t *testing.T) {
	ta := newTestApp(t)
	ta.press("R")
	ticket := lastTicket(t, ta.tabs[0])
	assert.Empty(t, msgsOf[CancelActionMsg](ta.tabs[0]), "nothing given up yet")
	ta.press("esc")
	assert.Nil(t, ta.modal, "esc gives up")
	assert.Equal(t, []CancelActionMsg{{Ticket: ticket}}, msgsOf[CancelActionMsg](ta.tabs[0]))

	// A preparation that ends in its confirmation is not given up.
	ta.press("R")
	next := lastTicket(t, ta.tabs[0])
	ta.send(ConfirmDialog(next, refundSpec(&confirmProbe{})))
	require.NotNil(t, ta.modal)
	assert.Len(t, msgsOf[CancelActionMsg](ta.tabs[0]), 1, "only the first was given up")
}
