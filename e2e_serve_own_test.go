package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	v2 "paydash/backend/v2"
)

// A person who asked for an approval and has since become a supervisor
// (the people file changed and was read again) cannot approve their own
// request: the key says why and nothing is sent; another supervisor can.
func TestEndToEndServeSupervisorCannotApproveOwnRequest(t *testing.T) {
	st := startTeam(t)
	p := findOrMakePayment(t, st.s.api, st.s.merchant, v2.PaymentStatusSettled)
	before := refundsOf(t, st.s.api, st.s.merchant, p.ID)

	// desk-1, support with a limit of 1 RUB, asks for a refund above it.
	desk := st.connect(t, "desk-1")
	require.Contains(t, desk.refundDialog(t, p.ID), "Ask approval")
	desk.confirm(t)
	desk.waitFor(t, "the request filed", func(sc string) bool { return strings.Contains(unwrappedScreen(sc), "asked a supervisor") })

	// desk-1 becomes a supervisor. The reload keeps the session open (the
	// key is still theirs) and the new role applies to it at once: the
	// session reads the people file's directory at every use (were it
	// disconnected, the waits below would fail on its exit).
	st.reloadPeople(t, func(block string) string {
		if !strings.Contains(block, `"desk-1"`) {
			return block
		}
		block, _, _ = strings.Cut(block, "[person.limits]") // only support people have limits
		return strings.Replace(block, `role = "support"`, `role = "supervisor"`, 1) + "\n"
	})

	// Their own request, selected on the Approvals tab: a is refused with
	// the reason, and no confirmation opens.
	desk.settle()
	desk.send(t, "6")
	desk.waitFor(t, "the request", func(sc string) bool { return strings.Contains(sc, "desk-1") && strings.Contains(sc, "waiting") })
	desk.settle()
	desk.send(t, "a")
	sc := desk.waitFor(t, "the refusal", func(sc string) bool {
		return strings.Contains(unwrappedScreen(sc), "nobody approves their own request")
	})
	assert.NotContains(t, sc, "Approve and send")
	assert.NotContains(t, unwrappedScreen(sc), "only a supervisor", "the new role applies to the open session")
	desk.quiet(time.Second)
	assert.NotContains(t, desk.vt.Screen(), "Approve and send", "no confirmation after the refusal")
	assert.Len(t, refundsOf(t, st.s.api, st.s.merchant, p.ID), len(before), "nothing was sent")

	// The request still waits: another supervisor approves it, and exactly
	// one refund results.
	boss := st.connect(t, "boss-1")
	boss.settle()
	boss.send(t, "6")
	boss.waitFor(t, "the request", func(sc string) bool { return strings.Contains(sc, "desk-1") && strings.Contains(sc, "waiting") })
	boss.settle()
	boss.send(t, "a")
	boss.waitFor(t, "the approval's confirmation", func(sc string) bool { return strings.Contains(sc, "Approve and send") })
	boss.confirm(t)
	waitForService(t, boss.terminal, "one refund more", func() (bool, string) {
		n := len(newRefunds(before, refundsOf(t, st.s.api, st.s.merchant, p.ID)))
		return n >= 1, fmt.Sprintf("%d new refunds", n)
	})
	boss.quiet(time.Second)
	require.Len(t, newRefunds(before, refundsOf(t, st.s.api, st.s.merchant, p.ID)), 1)
	desk.waitFor(t, "the requester told", func(sc string) bool { return strings.Contains(unwrappedScreen(sc), "approved by boss-1") })
}
