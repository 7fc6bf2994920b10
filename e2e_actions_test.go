package main

import (
	"fmt"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend"
	"paydash/backend/action"
	"paydash/backend/journal"
	"paydash/backend/money"
	v2 "paydash/backend/v2"
)

// The end-to-end tests of the money actions: the binary in a
// pseudo-terminal, driven with hostile timing against a sandbox with
// faults, and killed between sending a refund and reading its answer.
// Afterwards the service holds exactly what the user confirmed, with the
// amounts the dialogs showed, and the journal has an outcome for every
// action.

// open jumps to a payment and waits for its pane in the state wanted. A
// read the faults broke is tried again, as a user would, once the message
// saying so is gone.
func (tm *terminal) open(t *testing.T, id, status string) {
	t.Helper()
	for attempt := 0; ; attempt++ {
		// A failure still on screen from before would read as this one's.
		tm.waitFor(t, "no failure on screen", func(sc string) bool { return !strings.Contains(sc, "Could not look for") })
		tm.settle()
		tm.send(t, ":"+id+"\r")
		sc := tm.waitFor(t, "payment "+id+" or a failure", func(sc string) bool {
			return (strings.Contains(sc, "Payment "+id) && strings.Contains(sc, status)) || strings.Contains(sc, "Could not look for")
		})
		if strings.Contains(sc, "Payment "+id) || attempt == 5 {
			require.Contains(t, sc, "Payment "+id)
			return
		}
	}
}

var buttonRE = regexp.MustCompile(`(Refund|Capture|Release) ([0-9][0-9,]*(?:\.[0-9]+)?) ([A-Z]{3})`)

// dialog presses an action key and waits for its confirmation (title),
// pressing again when the faults broke the reading before it; it returns
// the screen with the dialog.
func (tm *terminal) dialog(t *testing.T, key, title string) string {
	t.Helper()
	for attempt := 0; ; attempt++ {
		// A refusal still on screen from before would read as this one's.
		tm.waitFor(t, "no refusal on screen", func(sc string) bool { return !strings.Contains(sc, "Could not read payment") })
		tm.send(t, key)
		sc := tm.waitFor(t, title+" or a refusal", func(sc string) bool {
			return (strings.Contains(sc, title) && buttonRE.MatchString(sc)) || strings.Contains(sc, "Could not read payment")
		})
		if strings.Contains(sc, title) || attempt == 5 {
			require.Contains(t, sc, title)
			return sc
		}
		tm.dismissRefusal(t, title[strings.LastIndex(title, " ")+1:])
	}
}

// dismissRefusal takes away a refusal to act on payment id, which stays
// on screen until dismissed, the way the screen says: esc closes the
// payment's pane, esc again dismisses the message; then it opens the
// payment again.
func (tm *terminal) dismissRefusal(t *testing.T, id string) {
	t.Helper()
	tm.settle()
	tm.send(t, "\x1b")
	tm.waitFor(t, "the pane of "+id+" closed", func(sc string) bool { return !strings.Contains(sc, "Payment "+id) })
	tm.settle()
	tm.send(t, "\x1b")
	tm.waitFor(t, "the refusal dismissed", func(sc string) bool { return !strings.Contains(sc, "Could not read payment") })
	tm.open(t, id, "")
}

// digitsIfAsked types the payment id's last four digits when the dialog
// asks for them (an amount above confirm_typed_over), as the user must,
// then pauses: a y right after them would be ignored. It says whether it
// typed them.
func (tm *terminal) digitsIfAsked(t *testing.T, id string) bool {
	t.Helper()
	last4 := id[len(id)-4:]
	if !strings.Contains(unwrappedScreen(tm.vt.Screen()), "type "+last4+",") {
		return false
	}
	tm.send(t, last4)
	tm.waitFor(t, "the digits accepted", func(sc string) bool {
		return strings.Contains(sc, "["+last4+"] ✓")
	})
	pauseForGuard()
	return true
}

// shownAmount is the amount the confirm button names on the screen.
func shownAmount(t *testing.T, screen string) money.Amount {
	t.Helper()
	m := buttonRE.FindStringSubmatch(screen)
	require.NotNil(t, m, "a confirm button naming an amount on:\n%s", screen)
	v, err := money.Parse(strings.ReplaceAll(m[2], ",", ""))
	require.NoError(t, err)
	return money.Amount{Value: v, Currency: m[3]}
}

// resize changes the pseudo-terminal's size (the program gets SIGWINCH)
// and the emulated screen's.
func (tm *terminal) resize(t *testing.T, w, h int) {
	t.Helper()
	tm.vt.resize(w, h)
	require.NoError(t, pty.Setsize(tm.pty, &pty.Winsize{Cols: uint16(w), Rows: uint16(h)}))
}

func (v *vt) resize(w, h int) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.w, v.h = w, h
	v.reset()
}

// confirmed is what the user confirmed: the action, the payment and the
// amount the dialog showed.
type confirmed struct {
	kind   backend.ActionName
	pay    v2.PaymentListItem
	amount money.Amount
}

func TestEndToEndHostileTimingUnderFaults(t *testing.T) {
	s := newFaultSession(t, true)
	start := time.Now()
	used := map[string]bool{}
	settled := s.payments(v2.PaymentStatusSettled, 2, used)
	held := s.payments(v2.PaymentStatusAuthorized, 2, used)
	before := map[string][]v2.Refund{}
	for _, p := range settled {
		before[p.ID] = s.refunds(p)
	}
	// Faults on everything paydash does, from its start to its end.
	s.setFaults("latency=400ms,error=0.2,drop=0.05,malformed=0.05")
	tm := s.start(s.merchant)
	var did []confirmed

	// 1. A reported bug: "R, then quickly tab 106 enter (inside the guard), then
	// y" refunded the whole amount. Now the keys are shown as ignored,
	// nothing is sent, and the next two y's, each after a pause, send what
	// the dialog shows.
	p := settled[0]
	tm.open(t, p.ID, "Settled")
	// (Pressed again, all of it, when the faults broke the reading of the
	// payment before the dialog: the refusal closed it, nothing was sent.)
	sc := tm.dialog(t, "R\t106\ry", "Refund payment "+p.ID)
	require.Contains(t, unwrappedScreen(sc), "keys ignored", "the refund dialog says keys were ignored")
	shown := shownAmount(t, sc)
	assert.NotEqual(t, money.MustParse("106"), shown.Value, "the typing inside the guard did not become the amount")
	pauseForGuard()
	typed := tm.digitsIfAsked(t, p.ID)
	assert.Empty(t, newRefunds(before[p.ID], s.refunds(p)), "nothing was sent yet")
	tm.confirmAfterIgnored(t, "Refund payment "+p.ID, "refund", !typed)
	did = append(did, confirmed{backend.ActionRefund, p, shown})

	// 2. The action key pressed twice: one dialog; n leaves nothing behind.
	h := held[0]
	tm.settle()
	tm.open(t, h.ID, "Authorized")
	sc = tm.dialog(t, "cc", "Capture payment "+h.ID)
	assert.Equal(t, 1, strings.Count(sc, "Capture payment "+h.ID), "one dialog:\n%s", sc)
	pauseForGuard()
	tm.send(t, "n")
	tm.waitFor(t, "no dialog left", func(sc string) bool { return !strings.Contains(sc, "Capture payment") })
	tm.holdsFor(t, time.Second, "no second dialog comes up", func(sc string) bool { return !strings.Contains(sc, "Capture payment") })
	assert.Equal(t, v2.PaymentStatusAuthorized, s.payment(h.ID).Status)

	// 3. A resize under the dialog: y pressed while the window is too
	// small acts on nothing; back at full size the dialog wants y twice,
	// each after a pause.
	sc = tm.dialog(t, "c", "Capture payment "+h.ID)
	shown = shownAmount(t, sc)
	pauseForGuard()
	tm.resize(t, 60, 20)
	tm.waitFor(t, "the request for a bigger window", func(sc string) bool {
		return strings.Contains(unwrappedScreen(sc), "make the window at least 80x24")
	})
	tm.send(t, "y")
	// The y waits in the program (nothing shows) until the window is big
	// enough; a moment without output lets it read the y first.
	tm.quiet(300 * time.Millisecond)
	tm.resize(t, e2eCols, e2eRows)
	tm.waitFor(t, "the dialog back, saying a key was ignored", func(sc string) bool {
		return strings.Contains(unwrappedScreen(sc), "ignored — the dialog was not fully on screen")
	})
	assert.Equal(t, v2.PaymentStatusAuthorized, s.payment(h.ID).Status, "the y in the small window captured nothing")
	pauseForGuard()
	typed = tm.digitsIfAsked(t, h.ID)
	tm.confirmAfterIgnored(t, "Capture payment "+h.ID, "capture", !typed)
	did = append(did, confirmed{backend.ActionCapture, h, shown})

	// 4. An amount typed after the guard is what is sent, as typed.
	p = settled[1]
	tm.settle()
	tm.open(t, p.ID, "Settled")
	tm.dialog(t, "R", "Refund payment "+p.ID)
	pauseForGuard()
	tm.send(t, "e")
	tm.settle()
	tm.send(t, strings.Repeat("\x7f", 24)+"1")
	tm.settle()
	tm.send(t, "\r")
	sc = tm.waitFor(t, "the button naming 1.00", func(sc string) bool { return strings.Contains(sc, "Refund 1.00 ") })
	shown = shownAmount(t, sc)
	pauseForGuard() // y confirms only what stood still for the guard
	tm.send(t, "y")
	did = append(did, confirmed{backend.ActionRefund, p, shown})

	// 5. A capture confirmed with the second held payment, y pressed in
	// the same instant the dialog is asked for: the keys wait, and the
	// capture happens only after the two y's that follow, each after a
	// pause.
	h = held[1]
	tm.settle()
	tm.open(t, h.ID, "Authorized")
	sc = tm.dialog(t, "cyyy", "Capture payment "+h.ID)
	require.Contains(t, unwrappedScreen(sc), "keys ignored", "the capture dialog says keys were ignored")
	assert.Equal(t, v2.PaymentStatusAuthorized, s.payment(h.ID).Status, "y typed ahead captured nothing")
	shown = shownAmount(t, sc)
	pauseForGuard()
	typed = tm.digitsIfAsked(t, h.ID)
	tm.confirmAfterIgnored(t, "Capture payment "+h.ID, "capture", !typed)
	did = append(did, confirmed{backend.ActionCapture, h, shown})

	// Every action's outcome is found out (through the faults, a check
	// may take a few tries), then the dashboard quits.
	tm.poll(t, "every action's outcome", 90*time.Second, 200*time.Millisecond, func() (bool, string) {
		entries := s.entries()
		sent := 0
		for _, e := range entries {
			if e.Phase == journal.PhaseSent {
				sent++
			}
		}
		pending := action.Pending(entries)
		return sent == len(did) && len(pending) == 0, fmt.Sprintf("%d of %d sent, without an outcome: %+v", sent, len(did), pending)
	})
	tm.settle()
	tm.send(t, "q")
	assert.Equal(t, 0, tm.wait(t, 15*time.Second))
	s.setFaults("")

	// The service holds exactly what was confirmed and made, with the
	// amount the dialog showed; the journal agrees.
	entries := s.entries()
	for _, c := range did {
		var sentLine, final *journal.Entry
		for i, e := range entries {
			if e.ObjectID != c.pay.ID || e.Action != string(c.kind) {
				continue
			}
			switch {
			case e.Phase == journal.PhaseSent:
				sentLine = &entries[i]
			case journal.Final(e.Phase):
				final = &entries[i]
			}
		}
		require.NotNil(t, sentLine, "%s of %s was sent", c.kind, c.pay.ID)
		require.NotNil(t, final, "%s of %s has an outcome", c.kind, c.pay.ID)
		sentAmount, err := money.Parse(sentLine.Amount)
		require.NoError(t, err)
		assert.Equal(t, c.amount.Value, sentAmount, "%s of %s: sent what the dialog showed", c.kind, c.pay.ID)
		switch c.kind {
		case backend.ActionRefund:
			added := newRefunds(before[c.pay.ID], s.refunds(c.pay))
			if final.Phase == journal.PhaseDone {
				require.Len(t, added, 1, "one refund of %s", c.pay.ID)
				assert.Equal(t, c.amount.Value, added[0].Amount.Value)
			} else {
				assert.Empty(t, added, "a refund found not made is not at the service: %+v", final)
			}
		case backend.ActionCapture:
			got := s.payment(c.pay.ID)
			if final.Phase == journal.PhaseDone {
				assert.Equal(t, v2.PaymentStatusSettled, got.Status)
				assert.Equal(t, c.amount.Value, got.Amount.Value, "captured the amount shown")
			} else {
				assert.Equal(t, v2.PaymentStatusAuthorized, got.Status, "a capture found not made: %+v", final)
			}
		}
		t.Logf("%s of %s %s: %s %s %s", c.kind, c.pay.ID, c.amount, final.Phase, final.How, final.Error)
	}
	t.Logf("hostile timing end to end in %s", time.Since(start).Round(time.Millisecond))
}

// Killed between sending a refund and reading its answer: the next start
// finds out what the service did, says so, and writes it in the journal;
// the service holds one refund. A SIGTERM in the same window waits for
// the answer instead.
func TestEndToEndKillBetweenSendingARefundAndItsAnswer(t *testing.T) {
	const latency = 2400 * time.Millisecond // on the refund: half before it is made, half before its answer
	s := newFaultSession(t, false)
	used := map[string]bool{}
	settled := s.payments(v2.PaymentStatusSettled, 2, used)

	refundUntilSent := func(tm *terminal, p v2.PaymentListItem) (journal.Entry, money.Amount) {
		t.Helper()
		tm.open(t, p.ID, "Settled")
		sc := tm.dialog(t, "R", "Refund payment "+p.ID)
		shown := shownAmount(t, sc)
		pauseForGuard()
		tm.digitsIfAsked(t, p.ID)
		s.setFaults("latency=" + latency.String())
		tm.send(t, "y")
		return s.sentLine(tm, p.ID), shown
	}

	// SIGTERM while the refund's answer is awaited: paydash waits for it.
	p := settled[0]
	before := s.refunds(p)
	tm := s.start(s.merchant)
	sent, _ := refundUntilSent(tm, p)
	require.NoError(t, tm.cmd.Process.Signal(syscall.SIGTERM))
	assert.Equal(t, 0, tm.wait(t, 20*time.Second), "it quits once the answer came")
	s.setFaults("")
	final := finalLine(s.entries(), sent.ActionID)
	require.NotNil(t, final, "the answer was journaled before quitting")
	assert.Equal(t, journal.PhaseDone, final.Phase)
	assert.Len(t, newRefunds(before, s.refunds(p)), 1)

	// SIGKILL while the refund's answer is awaited: after the request was
	// served, before its answer is written.
	p = settled[1]
	before = s.refunds(p)
	tm = s.start(s.merchant)
	made0 := s.storeRefunds(p)
	sent, shown := refundUntilSent(tm, p)
	tm.poll(t, "the service to make the refund", e2eWait, 10*time.Millisecond, func() (bool, string) {
		n := s.storeRefunds(p)
		return n > made0, fmt.Sprintf("%d refunds in the store", n)
	})
	require.NoError(t, tm.cmd.Process.Kill())
	tm.wait(t, 10*time.Second)
	s.setFaults("")
	assert.Nil(t, finalLine(s.entries(), sent.ActionID), "killed before the answer: the journal holds only sent")
	made := newRefunds(before, s.refunds(p))
	require.Len(t, made, 1, "the service made the refund before the kill")

	// The next start: a notice says what became of it, the journal gets
	// its outcome, and the service still holds one refund.
	tm = startInTerminal(t, s.bin, []string{"--base-url", s.info.BaseURL, "--ca-file", s.info.CAFile,
		"--merchant", s.merchant, "--journal", s.journal}, s.env, s.dir)
	want := fmt.Sprintf("Refund %s of %s made for payment %s", made[0].ID, money.Group(shown.Value, shown.Currency)+" "+shown.Currency, p.ID)
	sc := tm.waitFor(t, "the notice saying the refund was made", func(sc string) bool {
		return strings.Contains(unwrappedScreen(sc), want)
	})
	assert.Contains(t, unwrappedScreen(sc), "Actions left without an outcome when paydash last stopped")
	final = finalLine(s.entries(), sent.ActionID)
	require.NotNil(t, final)
	assert.Equal(t, journal.PhaseDone, final.Phase)
	assert.Equal(t, action.HowAskedAgain, final.How)
	assert.Contains(t, final.Result, made[0].ID)
	assert.Len(t, newRefunds(before, s.refunds(p)), 1, "one refund: finding out made no second")
	tm.send(t, "\r")
	tm.settle()
	tm.send(t, "q")
	assert.Equal(t, 0, tm.wait(t, 15*time.Second))
}

func finalLine(entries []journal.Entry, actionID string) *journal.Entry {
	for i, e := range entries {
		if e.ActionID == actionID && journal.Final(e.Phase) {
			return &entries[i]
		}
	}
	return nil
}

// unwrappedScreen is a screen as one line of words, borders left out, so
// that a message wrapped inside a box reads whole.
func unwrappedScreen(s string) string {
	for _, b := range []string{"│", "╭", "╮", "╰", "╯", "─"} {
		s = strings.ReplaceAll(s, b, " ")
	}
	return strings.Join(strings.Fields(s), " ")
}
