package main

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// The end-to-end test of keys typed in a burst into a create form: the
// built binary in a pseudo-terminal against `paydash sandbox`, the
// Payments tab, n, then keys written to the terminal in one write, so that
// they all wait in the program's input before it reads the first. Each key
// must go to the field that has the focus when it is read: after enter,
// the next field; after the enter that submits, the confirmation, which
// ignores keys typed before it was on screen.

func TestEndToEndFormKeysInABurst(t *testing.T) {
	s := newReadOnlySession(t, false)
	tm := s.start(s.merchant)
	tm.settle()
	tm.send(t, "n")
	tm.waitFor(t, "the payment link form", func(sc string) bool {
		return strings.Contains(sc, "New payment link") && strings.Contains(sc, "┃ Amount")
	})

	// The amount, enter, 50 — which the currency after the amount does not
	// take (a choice: ← →) — then enter and 50 again, for the description.
	tm.send(t, "100\r50\r50")
	sc := tm.waitFor(t, "the burst typed", func(sc string) bool {
		// Either where it belongs, or (wrongly) with the amount grown
		// past 100 (an empty field shows its "e.g." hint).
		amount := formField(sc, "Amount")
		return formField(sc, "Description") == "50" || (!strings.HasPrefix(amount, "e.g.") && len(amount) > len("100"))
	})
	assert.Equal(t, "100", formField(sc, "Amount"), "no key after enter went into the amount:\n%s", sc)
	assert.Equal(t, "RUB", formField(sc, "Currency"), "the currency took no digits:\n%s", sc)
	assert.Equal(t, "50", formField(sc, "Description"), "the keys after the second enter are the description:\n%s", sc)

	// Across both other pages to the last field in one write, then in
	// another the callback address, the enter that submits, and y y: the
	// y's were typed before the confirmation was on screen.
	tm.send(t, strings.Repeat("\r", 7))
	tm.waitFor(t, "the focus on the callback address", func(sc string) bool {
		return strings.Contains(sc, "┃ Callback address")
	})
	tm.send(t, "https://shop.example.com/notify\ryy")
	sc = tm.waitFor(t, "the confirmation, the y's ignored", func(sc string) bool {
		u := unwrappedScreen(sc)
		return strings.Contains(u, "Create this payment link?") && strings.Contains(u, "ignored")
	})
	u := unwrappedScreen(sc)
	assert.Contains(t, u, "Amount: 100.00 RUB")
	assert.Contains(t, u, "Description: 50")
	assert.Contains(t, u, "Callback address: https://shop.example.com/notify ", "no y in the callback address:\n%s", sc)
	assert.NotContains(t, u, "yy")
}

// formField is what a form on screen shows in the field titled title: the
// line under the title, without the "> " of a text field. Only the inside
// of the dialog's box counts (the list shows at its sides), without the
// focus bar.
func formField(screen, title string) string {
	lines := strings.Split(screen, "\n")
	strip := func(l string) string {
		i, j := strings.Index(l, "│"), strings.LastIndex(l, "│")
		if i < 0 || j <= i {
			return ""
		}
		return strings.Trim(l[i+len("│"):j], " ┃")
	}
	for i, l := range lines {
		if strip(l) == title && i+1 < len(lines) {
			v := strip(lines[i+1])
			if rest, ok := strings.CutPrefix(v, ">"); ok {
				return strings.TrimSpace(rest)
			}
			return v
		}
	}
	return ""
}
