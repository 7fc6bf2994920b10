package ui

import (
	"cmp"
	"time"
)

// ConfirmGuard is how long what a confirmation shows must stay unchanged,
// with no key pressed, before a key may confirm it (README, Money
// actions): a key typed for the screen behind, or for what the dialog
// showed a moment ago, cannot act on it. Keys within ConfirmGuard of the
// dialog appearing (again, after a resize hid it) are ignored; after any
// ignored key, every key within ConfirmGuard of the one before is ignored
// too.
const ConfirmGuard = 400 * time.Millisecond

// Why keys were ignored, for the dialog's note.
const (
	whyOpened     = "the dialog opened while you typed"
	whyReappeared = "the dialog reappeared while you typed"
	whyHidden     = "the dialog was not fully on screen"
	whyPreparing  = "the dialog was being prepared"
	whyAfterKey   = "it came less than " + guardText + " after the key before it"
	whyAfterShow  = "it came less than " + guardText + " after the dialog changed"
)

// guardText is ConfirmGuard in words, for the notes.
const guardText = "0.4 s"

// What the user could see, the shell's gate: the shell tells the dialog
// whether it is on screen in full (fits, setShown), and a key reaches it
// only once what it shows has stood still for ConfirmGuard (held).

// fits reports whether the dialog is drawn in full in maxWidth × maxHeight.
func (c *confirmModal) fits(maxWidth, maxHeight int) bool {
	_, complete := c.layout(maxWidth, maxHeight)
	return complete
}

// setShown tells the dialog whether it is on screen in full now. Showing
// again after being hidden is a change of what the user sees.
func (c *confirmModal) setShown(shown bool, now time.Time) {
	switch {
	case shown && c.shownAt.IsZero():
		c.shownAt, c.changedAt = now, now
	case !shown:
		c.shownAt, c.wasHidden = time.Time{}, true
	}
}

// swallow counts a key the dialog did not take; why is why, or "" for a
// key that only came too soon after another ignored one (the run keeps
// the reason it started with). The shell calls it for keys that came
// while the window was too small to show the dialog. Keys ignored before
// an acknowledging y still count: the note says how many were ignored in
// all since the last y that was taken as confirming nothing.
func (c *confirmModal) swallow(why string) {
	c.swallowed += c.seen + 1
	if why != "" || c.why == "" {
		c.why = cmp.Or(why, whyAfterKey)
	}
	c.seen = 0
	c.ignoring = true
}

// held says why a key must be ignored now, or "" when it may be taken:
// the dialog is not drawn in full, it appeared within ConfirmGuard, or a
// key was ignored and no pause of ConfirmGuard has come since.
func (c *confirmModal) held(now time.Time) (string, bool) {
	switch {
	case c.shownAt.IsZero():
		return whyHidden, true
	case now.Sub(c.shownAt) < ConfirmGuard && c.wasHidden:
		return whyReappeared, true
	case now.Sub(c.shownAt) < ConfirmGuard:
		return whyOpened, true
	case c.ignoring && now.Sub(c.lastKey) < ConfirmGuard:
		return "", true
	}
	return "", false
}

// tooSoon says why a confirming key must not act now, or "": a key or a
// change of what the dialog shows came within ConfirmGuard before it.
func (c *confirmModal) tooSoon(now time.Time) string {
	switch {
	case !c.lastKey.IsZero() && now.Sub(c.lastKey) < ConfirmGuard:
		return whyAfterKey
	case now.Sub(c.changedAt) < ConfirmGuard:
		return whyAfterShow
	}
	return ""
}

// showing is what the dialog shows, as far as a key can change it: when it
// changes, the time starts again before a key may confirm.
type showing struct {
	value              string
	pos                int
	editing, selected  bool
	onVerb             bool
	typed, note, why   string
	swallowed, seen    int
	lostEdit, ignoring bool
}

func (c *confirmModal) showing() showing {
	return showing{value: c.input.Value(), pos: c.input.Position(), editing: c.editing, selected: c.selected,
		onVerb: c.onVerb, typed: c.typed, note: c.note, why: c.why, swallowed: c.swallowed, seen: c.seen,
		lostEdit: c.lostEdit, ignoring: c.ignoring}
}
