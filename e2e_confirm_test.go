package main

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend/money"
	v2 "paydash/backend/v2"
)

// The confirmation's timing rules in the built binary, in a pseudo-terminal,
// against a sandbox with a latency that makes the dialog appear
// while the user is still typing: typing the dialog ignored never turns into
// another amount, a burst of y never confirms, and y confirms what the
// dialog showed, unchanged, for a pause before it. Then the amount field:
// the prefill is selected, so typed digits replace it.
//
// Every wait is "until the screen shows it" with a generous deadline; the
// sleeps only make a pause the dialog requires longer than its guard, so a
// slow machine cannot make this test fail.
func TestEndToEndConfirmIgnoredTypingThenYYBurst(t *testing.T) {
	s := newFaultSession(t, false)
	used := map[string]bool{}
	var refundable []v2.PaymentListItem
	for _, p := range s.payments(v2.PaymentStatusSettled, 12, used) {
		// Roubles below the typed-digits threshold (50,000 RUB), above
		// what the second refund types: no check digits to type.
		if p.Amount.Currency == "RUB" && p.Amount.Value > money.MustParse("200") && p.Amount.Value <= money.MustParse("50000") {
			refundable = append(refundable, p)
		}
	}
	require.GreaterOrEqual(t, len(refundable), 2, "two Settled payments in roubles between 200 and 50,000")
	s.setFaults("latency=2s") // on everything paydash does
	tm := s.start(s.merchant)

	// 1. As soon as the dialog shows: e, seven backspaces, 15, enter — in
	// one burst, inside the guard. Every key is ignored and counted, and
	// the dialog says the amount is still what it was.
	p := refundable[0]
	before := s.refunds(p)
	tm.open(t, p.ID, "Settled")
	var shown money.Amount
	for attempt := 0; ; attempt++ {
		sc := tm.dialog(t, "R", "Refund payment "+p.ID)
		shown = shownAmount(t, sc)
		tm.send(t, "e"+strings.Repeat("\x7f", 7)+"15\r")
		sc = tm.waitFor(t, "the burst ignored, or taken", func(sc string) bool {
			u := dialogText(sc)
			return strings.Contains(u, "11 keys ignored") || strings.Contains(u, "Refund 15.00 RUB")
		})
		if strings.Contains(dialogText(sc), "11 keys ignored") {
			break
		}
		// The machine was so slow that the burst came after the guard:
		// the dialog took it as typed. Nothing was sent; start again.
		require.Less(t, attempt, 4, "the burst never came within the guard of the dialog appearing")
		t.Logf("the burst came after the guard (attempt %d); cancelling and trying again", attempt+1)
		tm.send(t, "\x1b")
		tm.waitFor(t, "the dialog gone", func(sc string) bool { return !strings.Contains(sc, "Refund payment "+p.ID) })
		tm.settle()
	}
	amount := money.Group(shown.Value, shown.Currency) + " " + shown.Currency
	sc := dialogText(tm.vt.Screen())
	assert.Contains(t, sc, "what you typed was not taken: the amount is still "+amount+" — press tab/e to change it")
	assert.Equal(t, shown, shownAmount(t, tm.vt.Screen()), "the button names the amount it named before")

	// 2. After a pause, y y in one burst: the first says "seen", the second
	// is too soon after it. Nothing is sent; the dialog still says why.
	pauseForGuard()
	tm.send(t, "yy")
	tm.waitFor(t, "the second y ignored", func(sc string) bool {
		u := dialogText(sc)
		return regexp.MustCompile(`\b[0-9]+ keys ignored — it came less than 0\.4 s after the key before it`).MatchString(u) &&
			strings.Contains(u, "what you typed was not taken: the amount is still "+amount)
	})
	require.Contains(t, tm.vt.Screen(), "Refund payment "+p.ID, "the dialog is still open: nothing was confirmed")

	// 3. A pause, y: seen. A pause, y: the refund of the amount shown.
	pauseForGuard()
	tm.send(t, "y")
	tm.waitFor(t, "the dialog asking for y after a pause", func(sc string) bool {
		return strings.Contains(dialogText(sc), "After a pause, press y again to refund "+amount+", as shown.")
	})
	require.Contains(t, tm.vt.Screen(), "Refund payment "+p.ID, "seen is not confirmed")
	pauseForGuard()
	tm.send(t, "y")
	tm.waitFor(t, "the dialog gone", func(sc string) bool { return !strings.Contains(sc, "Refund payment "+p.ID) })
	var added []v2.Refund
	waitForService(t, tm, "the refund", func() (bool, string) {
		added = newRefunds(before, s.refunds(p))
		return len(added) >= 1, strings.Repeat("·", len(added))
	})
	require.Len(t, added, 1, "exactly one refund")
	assert.Equal(t, shown.Value, added[0].Amount.Value, "of the amount the dialog showed all along, never 15")

	// 4. The prefill is selected: R, e, 106, enter shows 106.00, not
	// "574.00106"; y after a pause refunds 106.00.
	p = refundable[1]
	before = s.refunds(p)
	tm.settle()
	tm.open(t, p.ID, "Settled")
	sc = tm.dialog(t, "R", "Refund payment "+p.ID)
	require.Greater(t, shownAmount(t, sc).Value, money.MustParse("106"), "more than 106 is left to refund")
	pauseForGuard()
	tm.send(t, "e")
	tm.waitFor(t, "the amount selected", func(sc string) bool {
		return strings.Contains(dialogText(sc), "typing replaces "+money.Group(shownAmount(t, sc).Value, "RUB")+" • backspace clears")
	})
	tm.send(t, "106\r")
	sc = tm.waitFor(t, "the button naming 106.00", func(sc string) bool {
		return strings.Contains(sc, "Refund 106.00 RUB") && !strings.Contains(sc, "typing replaces")
	})
	assert.NotContains(t, dialogText(sc), "only one decimal point")
	assert.Contains(t, sc, "[106 ", "the field has what was typed, alone")
	pauseForGuard()
	tm.send(t, "y")
	tm.waitFor(t, "the dialog gone", func(sc string) bool { return !strings.Contains(sc, "Refund payment "+p.ID) })
	waitForService(t, tm, "the refund of 106.00", func() (bool, string) {
		added = newRefunds(before, s.refunds(p))
		return len(added) >= 1, strings.Repeat("·", len(added))
	})
	require.Len(t, added, 1)
	assert.Equal(t, money.MustParse("106"), added[0].Amount.Value)

	tm.settle()
	tm.send(t, "q")
	assert.Equal(t, 0, tm.wait(t, 20*time.Second), "paydash quits once the answers came")
}

// confirmAfterIgnored confirms a dialog that ignored keys, as the user
// must: a pause, y, which says "seen", then another pause and y. When a
// key the user chose since (the check digits) already ended the ignoring
// (seen is false), the first y confirms. It returns once the dialog titled
// title is gone.
func (tm *terminal) confirmAfterIgnored(t *testing.T, title, verb string, seen bool) {
	t.Helper()
	pauseForGuard()
	tm.send(t, "y")
	if seen {
		tm.waitFor(t, "the dialog asking for y again after a pause", func(sc string) bool {
			return strings.Contains(dialogText(sc), "After a pause, press y again to "+verb)
		})
		require.Contains(t, tm.vt.Screen(), title, "seen is not confirmed")
		pauseForGuard()
		tm.send(t, "y")
	}
	tm.waitFor(t, "the dialog gone", func(sc string) bool { return !strings.Contains(sc, title) })
}

// dialogText is the text inside the dialog box on a screen, as one line of
// words: a note wrapped inside the box reads whole, without the pane that
// shows beside the box on the same lines. "" when no box is drawn.
func dialogText(screen string) string {
	lines := strings.Split(screen, "\n")
	top, left, right := -1, -1, -1
	for i, l := range lines {
		r := []rune(l)
		for j, c := range r {
			switch c {
			case '╭':
				top, left = i, j
			case '╮':
				right = j
			}
		}
		if top >= 0 {
			break
		}
	}
	if top < 0 || right <= left {
		return ""
	}
	var words []string
	for _, l := range lines[top+1:] {
		r := []rune(l)
		if left < len(r) && r[left] == '╰' {
			break
		}
		if right >= len(r) {
			continue
		}
		words = append(words, strings.Fields(string(r[left+1:right]))...)
	}
	return strings.Join(words, " ")
}
