package main

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	v2 "paydash/backend/v2"
)

// Quitting while a refund's answer is awaited is never silent: once the
// screen is restored paydash says which action is still open and exits
// with a status of its own (exitOutcomeUnknown), and the journal holds it
// for the next start.
func TestEndToEndQuittingWithAnOutcomeUnknownSaysSo(t *testing.T) {
	s := newFaultSession(t, false)
	p := s.payments(v2.PaymentStatusSettled, 1, map[string]bool{})[0]
	tm := s.start(s.merchant)
	tm.open(t, p.ID, "Settled")
	sc := tm.dialog(t, "R", "Refund payment "+p.ID)
	shown := shownAmount(t, sc)
	pauseForGuard()
	if tm.digitsIfAsked(t, p.ID) {
		pauseForGuard()
	}
	s.setFaults("latency=3s") // the refund's answer is still awaited when paydash quits
	tm.send(t, "y")
	sent := s.sentLine(tm, p.ID)
	require.NotEmpty(t, sent.ActionID, "the refund was sent; the screen:\n%s", tm.vt.Screen())

	// ctrl+c twice: quit at once, without waiting for the answer.
	tm.send(t, "\x03\x03")
	code := tm.wait(t, 20*time.Second)
	out := unwrappedScreen(tm.rawTail())
	assert.Equal(t, exitOutcomeUnknown, code, "its own exit status; the output:\n%s", out)
	assert.Contains(t, out, fmt.Sprintf("paydash: 1 refund of %s for payment %s — outcome unknown; it is checked at the next start",
		shown.Display(), p.ID))
	assert.Contains(t, out, "the journal "+s.journal+" holds them")
	final := finalLine(s.entries(), sent.ActionID)
	assert.Nil(t, final, "no outcome was guessed")
}
