package ui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend/money"
	"paydash/keys"
)

type confirmProbe struct {
	calls   int
	amounts []money.Amount
}

type confirmedMsg struct{ amount money.Amount }

func (p *confirmProbe) confirm(a money.Amount) tea.Cmd {
	p.calls++
	p.amounts = append(p.amounts, a)
	return func() tea.Msg { return confirmedMsg{a} }
}

func rub(v string) money.Amount { return money.Amount{Value: money.MustParse(v), Currency: "RUB"} }

func refundSpec(p *confirmProbe) ConfirmSpec {
	return ConfirmSpec{
		Title:  "Refund payment 43149010",
		Lines:  []string{"Payment 43149010, order 5561, settled 1,250.00 RUB", "Customer ivan@example.com", "Interface v2"},
		Verb:   "Refund",
		Danger: true,
		Amount: &AmountField{
			Label:    "Amount to refund",
			Value:    rub("500"),
			Max:      money.MustParse("500"),
			MaxLabel: "still refundable",
		},
		Confirm: p.confirm,
	}
}

// dialog drives a confirmation on its own clock: it opened at t0, and the
// clock stands after the guard unless a test moves it.
type dialog struct {
	t      *testing.T
	m      Modal
	now    time.Time
	closed bool
	cmds   []tea.Cmd
}

func openDialog(t *testing.T, spec ConfirmSpec) *dialog {
	return &dialog{t: t, m: NewConfirm(spec, t0, keys.Default(), NewTheme(true, true)), now: t0.Add(time.Second)}
}

func (d *dialog) c() *confirmModal { return d.m.(*confirmModal) }

func (d *dialog) press(ks ...string) {
	for _, k := range ks {
		m, cmd, closed := d.m.Update(keyPress(k), d.now)
		d.m, d.closed = m, closed
		if cmd != nil {
			d.cmds = append(d.cmds, cmd)
		}
	}
}

func (d *dialog) typeText(s string) {
	for _, r := range s {
		d.press(string(r))
	}
}

func (d *dialog) clear() {
	for range 30 {
		d.press("backspace")
	}
}

func (d *dialog) view() string { return unwrapped(d.m.View(76, 21)) }

// wait moves the dialog's clock on by dt.
func (d *dialog) wait(dt time.Duration) { d.now = d.now.Add(dt) }

// pause is the least pause the dialog wants before a confirming key.
func (d *dialog) pause() { d.wait(ConfirmGuard) }

// paste sends text as a terminal's bracketed paste.
func (d *dialog) paste(text string) {
	m, cmd, closed := d.m.Update(tea.PasteMsg{Content: text}, d.now)
	d.m, d.closed = m, closed
	if cmd != nil {
		d.cmds = append(d.cmds, cmd)
	}
}

func TestConfirmCancelIsFocusedByDefault(t *testing.T) {
	p := &confirmProbe{}
	d := openDialog(t, refundSpec(p))
	assert.Contains(t, d.view(), "[ Cancel ]")
	assert.NotContains(t, d.view(), "[ Refund")
	d.press("enter")
	assert.True(t, d.closed, "enter on Cancel cancels")
	assert.Zero(t, p.calls)
	d.press("y")
	assert.Zero(t, p.calls, "a closed dialog cannot confirm")
}

func TestConfirmNoAndEscCancel(t *testing.T) {
	for _, k := range []string{"n", "esc"} {
		p := &confirmProbe{}
		d := openDialog(t, refundSpec(p))
		d.press(k)
		assert.True(t, d.closed, k)
		assert.Zero(t, p.calls, k)
	}
}

// The prefill is in the screens' one number format, and the button names
// what y sends.
func TestConfirmYSendsExactlyOnceWhatTheButtonNames(t *testing.T) {
	p := &confirmProbe{}
	spec := refundSpec(p)
	spec.Amount.Value, spec.Amount.Max = rub("39840"), money.MustParse("39840")
	d := openDialog(t, spec)
	assert.Equal(t, keys.ContextModal, d.m.Context(), "the amount is not focused")
	v := d.view()
	assert.Contains(t, v, "[39,840.00", "grouped as in the list")
	assert.Contains(t, v, "at most 39,840.00 RUB")
	assert.Contains(t, v, "Refund 39,840.00 RUB", "the button names the amount")
	assert.Contains(t, v, "y refund 39,840.00 RUB")
	d.press("y")
	require.True(t, d.closed)
	require.Equal(t, 1, p.calls)
	assert.Equal(t, rub("39840"), p.amounts[0])
	require.Len(t, d.cmds, 1, "Confirm's command is returned")
	assert.Equal(t, confirmedMsg{p.amounts[0]}, d.cmds[0]())

	d.press("y", "y", "enter")
	assert.Equal(t, 1, p.calls, "a second y can never confirm again")
}

// Keys in the first 400 ms are ignored and shown as ignored; after any
// was, every key less than 400 ms after the one before is ignored too; the
// first y after a pause only says "seen", and the y that sends must come
// after another pause.
func TestConfirmGuardIgnoresAndCountsKeysThenWantsSeenAndAPause(t *testing.T) {
	p := &confirmProbe{}
	d := openDialog(t, refundSpec(p))
	d.now = t0.Add(100 * time.Millisecond)
	d.press("y")
	d.now = t0.Add(399 * time.Millisecond)
	d.press("right", "enter", "esc")
	assert.False(t, d.closed, "even esc is ignored")
	assert.Zero(t, p.calls)
	v := d.view()
	assert.Contains(t, v, "4 keys ignored — the dialog opened while you typed")
	assert.Contains(t, v, "Pause, y to say you saw it, pause, y to refund 500.00 RUB.")
	assert.NotContains(t, v, "what you typed was not taken", "none of these keys edits the amount")
	assert.Contains(t, v, "[ Cancel ]", "the focus did not move")

	d.now = t0.Add(400 * time.Millisecond)
	d.press("y")
	assert.Zero(t, p.calls, "the guard is over, but the y came 1 ms after an ignored key")
	assert.Contains(t, d.view(), "5 keys ignored — the dialog opened while you typed")

	d.now = t0.Add(799 * time.Millisecond)
	d.press("y")
	assert.False(t, d.closed, "399 ms is no pause")
	assert.Contains(t, d.view(), "6 keys ignored")

	d.now = t0.Add(1199 * time.Millisecond)
	d.press("y")
	assert.False(t, d.closed, "the first y after a pause says seen")
	assert.Zero(t, p.calls)
	assert.Contains(t, d.view(), "6 keys were ignored. After a pause, press y again to refund 500.00 RUB, as shown.")

	d.wait(ConfirmGuard - time.Millisecond)
	d.press("y")
	assert.Zero(t, p.calls, "the y that sends wants a pause too")
	assert.Contains(t, d.view(), "7 keys ignored — it came less than 0.4 s after the key before it",
		"the keys ignored before the y that said seen still count")
	d.pause()
	d.press("y")
	assert.Zero(t, p.calls, "seen again")
	d.pause()
	d.press("y")
	require.True(t, d.closed)
	assert.Equal(t, []money.Amount{rub("500")}, p.amounts)
}

// spec574 is a refund with 574.00 RUB left on a Settled payment.
func spec574(p *confirmProbe) ConfirmSpec {
	spec := refundSpec(p)
	spec.Amount.Value, spec.Amount.Max = rub("574"), money.MustParse("574")
	return spec
}

// Reported: with latency, R; as soon as the dialog showed, e, seven
// backspaces, 15, enter (all ignored: "11 keys ignored", the field still
// 574.00); 0.65 s later y y in one burst refunded 574.00. Now the first y
// of the burst says seen, the second is too soon, nothing is sent, and the
// dialog says in words that the typing was not taken.
func TestConfirmYYBurstAfterIgnoredTypingSendsNothing(t *testing.T) {
	p := &confirmProbe{}
	d := openDialog(t, spec574(p))
	d.now = t0.Add(20 * time.Millisecond)
	d.press("e")
	for range 7 {
		d.wait(10 * time.Millisecond)
		d.press("backspace")
	}
	d.wait(10 * time.Millisecond)
	d.typeText("15")
	d.press("enter")
	v := d.view()
	assert.Contains(t, v, "11 keys ignored — the dialog opened while you typed; what you typed was not taken: "+
		"the amount is still 574.00 RUB — press tab/e to change it.")
	assert.Contains(t, v, "[574.00 ", "the field is as it was")
	assert.Equal(t, keys.ContextModal, d.m.Context(), "the field was not entered")

	d.wait(650 * time.Millisecond)
	d.press("y", "y")
	assert.False(t, d.closed)
	assert.Zero(t, p.calls, "a burst of y never sends")
	v = d.view()
	assert.Contains(t, v, "12 keys ignored — it came less than 0.4 s after the key before it; what you typed was not taken: "+
		"the amount is still 574.00 RUB — press tab/e to change it.", "the warning stays until the user acts")

	d.pause()
	d.press("y")
	assert.Zero(t, p.calls)
	assert.Contains(t, d.view(), "12 keys were ignored; what you typed was not taken: the amount is still 574.00 RUB — "+
		"press tab/e to change it. After a pause, press y again to refund 574.00 RUB, as shown.")
	d.pause()
	d.press("y")
	require.True(t, d.closed)
	assert.Equal(t, []money.Amount{rub("574")}, p.amounts, "what the dialog showed all along")
}

// What counts as typing that was not taken: the edit key, digits and
// deletions typed for the field, a paste; not buttons, y or esc.
func TestConfirmSaysWhenIgnoredKeysWouldHaveEditedTheAmount(t *testing.T) {
	for name, tc := range map[string]struct {
		keys  []string
		paste string
		lost  bool
	}{
		"tab":            {keys: []string{"tab"}, lost: true},
		"digits":         {keys: []string{"1", "5"}, lost: true},
		"a point":        {keys: []string{"."}, lost: true},
		"ctrl+u":         {keys: []string{"ctrl+u"}, lost: true},
		"backspace":      {keys: []string{"backspace"}, lost: true},
		"a paste":        {paste: "15", lost: true},
		"buttons":        {keys: []string{"right", "left", "enter"}},
		"y and esc":      {keys: []string{"y", "esc"}},
		"other letters":  {keys: []string{"j", "q"}},
		"e among others": {keys: []string{"j", "e", "y"}, lost: true},
	} {
		p := &confirmProbe{}
		d := openDialog(t, spec574(p))
		d.now = t0.Add(50 * time.Millisecond)
		d.press(tc.keys...)
		if tc.paste != "" {
			d.paste(tc.paste)
		}
		v := d.view()
		assert.Contains(t, v, "ignored — the dialog opened while you typed", name)
		if tc.lost {
			assert.Contains(t, v, "what you typed was not taken: the amount is still 574.00 RUB — press tab/e to change it", name)
		} else {
			assert.NotContains(t, v, "what you typed was not taken", name)
		}
		assert.Contains(t, v, "[574.00 ", name)
	}

	// With e remapped, the note names the keys of the keymap.
	km := keys.Default()
	km.Modal.EditField.SetKeys("ctrl+e")
	d := &dialog{t: t, m: NewConfirm(spec574(&confirmProbe{}), t0, km, NewTheme(true, true)), now: t0}
	d.press("ctrl+e")
	assert.Contains(t, d.view(), "the amount is still 574.00 RUB — press ctrl+e to change it")
}

// Typing, leaving the field with enter and y within 400 ms: the y came
// too soon after what the dialog showed changed, so it is ignored and
// counted, and from then on the dialog wants a pause, a y, a pause, a y.
func TestConfirmYRightAfterAnEditIsIgnored(t *testing.T) {
	p := &confirmProbe{}
	d := openDialog(t, spec574(p))
	d.press("e")
	d.wait(50 * time.Millisecond)
	d.typeText("15")
	d.wait(50 * time.Millisecond)
	d.press("enter")
	assert.Contains(t, d.view(), "Refund 15.00 RUB")
	d.wait(150 * time.Millisecond)
	d.press("y")
	assert.Zero(t, p.calls, "150 ms after enter")
	assert.Contains(t, d.view(), "1 key ignored — it came less than 0.4 s after the key before it. "+
		"Pause, y to say you saw it, pause, y to refund 15.00 RUB.")
	d.wait(300 * time.Millisecond)
	d.press("y")
	assert.Zero(t, p.calls, "300 ms after the ignored y: still ignored")
	assert.Contains(t, d.view(), "2 keys ignored")
	d.pause()
	d.press("y")
	assert.Zero(t, p.calls, "seen")
	d.pause()
	d.press("y")
	assert.Equal(t, []money.Amount{rub("15")}, p.amounts)
}

// Nothing but a change of what the dialog shows (a check digit typed) is
// enough to hold y back as well.
func TestConfirmYRightAfterTheCheckDigitsIsIgnored(t *testing.T) {
	p := &confirmProbe{}
	spec := refundSpec(p)
	spec.Check = &TypedCheck{Over: money.MustParse("100"), Digits: "9010", Of: "payment 43149010"}
	d := openDialog(t, spec)
	d.typeText("9010")
	d.wait(ConfirmGuard - time.Millisecond)
	d.press("y")
	assert.Zero(t, p.calls)
	assert.Contains(t, d.view(), "1 key ignored — it came less than 0.4 s after the key before it")
	d.pause()
	d.press("y")
	d.pause()
	d.press("y")
	assert.Equal(t, 1, p.calls)
}

// y y at once as soon as the guard is over, with no key before: what the
// dialog showed stood for 400 ms, so the first y sends it, once.
func TestConfirmYYBurstRightAfterTheGuardSendsOnce(t *testing.T) {
	p := &confirmProbe{}
	d := openDialog(t, refundSpec(p))
	d.now = t0.Add(ConfirmGuard)
	d.press("y", "y", "y")
	require.True(t, d.closed)
	assert.Equal(t, []money.Amount{rub("500")}, p.amounts)
}

// enter on the verb button is a confirming key like y: right then enter
// in one burst sends nothing.
func TestConfirmEnterRightAfterMovingToTheVerbIsIgnored(t *testing.T) {
	p := &confirmProbe{}
	d := openDialog(t, refundSpec(p))
	d.press("right", "enter")
	assert.False(t, d.closed)
	assert.Zero(t, p.calls)
	assert.Contains(t, d.view(), "1 key ignored — it came less than 0.4 s after the key before it")
	d.pause()
	d.press("enter")
	assert.Zero(t, p.calls, "the first after the pause says seen")
	d.pause()
	d.press("enter")
	assert.Equal(t, []money.Amount{rub("500")}, p.amounts)
}

// Reported: "R, e, 106 gives [900.00106] and only one decimal point". The
// prefilled amount is selected when the field is entered: the first typed
// character replaces it, and the hint line says so.
func TestConfirmTypingReplacesTheSelectedPrefill(t *testing.T) {
	p := &confirmProbe{}
	spec := refundSpec(p)
	spec.Amount.Value, spec.Amount.Max = rub("900"), money.MustParse("900")
	d := openDialog(t, spec)
	d.press("e")
	v := d.view()
	assert.Contains(t, v, "typing replaces 900.00 • backspace clears • enter/tab done")
	assert.Contains(t, d.m.View(76, 21), NewTheme(true, true).Text.Reverse(true).Render("900.00"),
		"the selection is drawn in reverse video")
	d.typeText("106")
	v = d.view()
	assert.Contains(t, v, "[106 ")
	assert.NotContains(t, v, "900.00106")
	assert.NotContains(t, v, "only one decimal point")
	assert.Contains(t, v, "enter/tab done editing", "no selection once typed over")
	d.press("enter")
	assert.Contains(t, d.view(), "Refund 106.00 RUB")
	d.pause()
	d.press("y")
	assert.Equal(t, []money.Amount{rub("106")}, p.amounts)
}

// backspace (or delete, ctrl+u…) clears a selected amount; arrows, home
// and end keep the text and only end the selection; entering the field
// again selects what is there, typed or prefilled; a paste replaces it.
func TestConfirmSelectedAmountClearsMovesAndSelectsAgain(t *testing.T) {
	for _, k := range []string{"backspace", "delete", "ctrl+u", "ctrl+w", "ctrl+k"} {
		d := openDialog(t, refundSpec(&confirmProbe{}))
		d.press("tab", k)
		v := d.view()
		assert.Contains(t, v, "Amount to refund: [ ", k)
		assert.Contains(t, v, "enter the amount", k)
		d.typeText("7")
		assert.Contains(t, d.view(), "[7 ", k)
	}
	for _, k := range []string{"left", "right", "home", "end"} {
		d := openDialog(t, refundSpec(&confirmProbe{}))
		d.press("tab", k)
		v := d.view()
		assert.Contains(t, v, "[500.00", k)
		assert.NotContains(t, v, "typing replaces", k)
		d.typeText("1")
		assert.Contains(t, d.view(), map[string]string{"left": "[500.010", "right": "[500.001", "home": "[1500.00", "end": "[500.001"}[k], k)
	}

	d := openDialog(t, refundSpec(&confirmProbe{}))
	d.press("e")
	d.typeText("12")
	d.press("enter", "e")
	assert.Contains(t, d.view(), "typing replaces 12 • backspace clears", "the typed amount is selected again")
	d.paste("250")
	assert.Contains(t, d.view(), "[250 ", "a paste replaces it")
	d.press("tab")
	assert.Contains(t, d.view(), "Refund 250.00 RUB")
}

// A service may report what is left with more decimals than the
// currency has (82.989 RUB). The dialog shows it whole, prefilled and in
// the button, and takes it; other amounts with extra decimals are refused.
func TestConfirmTakesARemainderFinerThanTheCurrency(t *testing.T) {
	p := &confirmProbe{}
	spec := refundSpec(p)
	spec.Amount.Value, spec.Amount.Max = rub("82.989"), money.MustParse("82.989")
	d := openDialog(t, spec)
	v := d.view()
	assert.Contains(t, v, "[82.989 ")
	assert.Contains(t, v, "at most 82.989 RUB (still refundable)")
	assert.Contains(t, v, "Refund 82.989 RUB")
	assert.NotContains(t, v, "✗")
	d.press("y")
	require.True(t, d.closed)
	assert.Equal(t, []money.Amount{rub("82.989")}, p.amounts)

	d = openDialog(t, spec)
	d.press("e")
	d.typeText("10.001")
	assert.Contains(t, d.view(), "RUB amounts have at most 2 decimals (only 82.989 exactly, as the service gave it)")
	d.press("ctrl+u")
	d.typeText("82.99")
	assert.Contains(t, d.view(), "too much: at most 82.989 RUB")
	d.press("ctrl+u")
	d.typeText("82.9890")
	d.press("enter")
	assert.Contains(t, d.view(), "Refund 82.989 RUB", "typed back in full, it is taken")
	d.press("e", "backspace")
	d.typeText("82.98")
	d.press("enter")
	assert.Contains(t, d.view(), "Refund 82.98 RUB")
}

// A reported bug: "R, then quickly tab 106 enter (inside the guard), then
// y" refunded the whole 500.00 instead of 106.00. Now the typing is shown as
// ignored, the dialog still shows 500.00, and y sends nothing; what is
// sent later is what the dialog shows.
func TestTypingInsideTheGuardNeverBecomesAnotherAmount(t *testing.T) {
	p := &confirmProbe{}
	d := openDialog(t, refundSpec(p))
	d.now = t0.Add(50 * time.Millisecond)
	d.press("tab", "1", "0", "6", "enter")
	d.now = t0.Add(450 * time.Millisecond)
	d.press("y")
	assert.Zero(t, p.calls, "nothing is sent")
	v := d.view()
	assert.Contains(t, v, "[500.00", "the field is as it was")
	assert.Contains(t, v, "Refund 500.00 RUB")
	assert.Contains(t, v, "what you typed was not taken: the amount is still 500.00 RUB — press tab/e to change it")
	assert.NotContains(t, v, "106")

	// The user now types the amount they meant, after the guard: the
	// dialog shows it, and that is what y sends, after a pause.
	d.press("e")
	d.clear()
	d.typeText("106")
	d.press("enter")
	assert.Contains(t, d.view(), "[106 ", "kept as typed, not rewritten to 106.00")
	assert.Contains(t, d.view(), "Refund 106.00 RUB")
	assert.NotContains(t, d.view(), "what you typed was not taken", "the user acted on the dialog since")
	d.pause()
	d.press("y")
	require.Equal(t, 1, p.calls)
	assert.Equal(t, rub("106"), p.amounts[0])
}

func TestConfirmShowsTheAmountAsTypedAndRefusesWhatIsNotOne(t *testing.T) {
	for typed, want := range map[string]string{
		"-5":               "no sign",
		"15O":              "“O” is a letter, not the digit 0",
		"1e2":              "no exponent",
		"100.5.5":          "only one decimal point",
		"9999999999999999": "too many digits",
		"10.001":           "RUB amounts have at most 2 decimals",
		"":                 "enter the amount",
		"0":                "more than 0",
		"500.01":           "too much: at most 500.00 RUB (still refundable)",
	} {
		p := &confirmProbe{}
		d := openDialog(t, refundSpec(p))
		d.press("e")
		d.clear()
		d.typeText(typed)
		assert.Contains(t, d.view(), want, "typed %q: said while typing", typed)
		d.press("enter")
		v := d.view()
		assert.Contains(t, v, want, "typed %q", typed)
		if typed != "" {
			assert.Contains(t, v, "["+typed, "typed %q stays as typed", typed)
		}
		assert.Contains(t, v, "Refund —", "typed %q: the button names no amount", typed)
		d.pause()
		d.press("y")
		assert.Zero(t, p.calls, "typed %q", typed)
		assert.Contains(t, d.view(), "cannot confirm: the amount is not valid")
		ok, why := d.c().Available(keys.ActModalConfirm)
		assert.False(t, ok)
		assert.Contains(t, why, want)
	}
}

func TestConfirmTakesAGroupedEditedAmount(t *testing.T) {
	p := &confirmProbe{}
	spec := refundSpec(p)
	spec.Amount.Max = money.MustParse("5000")
	d := openDialog(t, spec)
	d.press("e")
	d.clear()
	d.typeText("1,000.5")
	d.press("y")
	assert.False(t, d.closed, "y does nothing while the field is focused")
	assert.Contains(t, d.view(), "finish editing the amount")
	d.press("tab")
	assert.Contains(t, d.view(), "[1,000.5 ")
	assert.Contains(t, d.view(), "Refund 1,000.50 RUB")
	d.pause()
	d.press("y")
	require.True(t, d.closed)
	assert.Equal(t, []money.Amount{rub("1000.5")}, p.amounts)
}

func TestConfirmEscInTheFieldCancels(t *testing.T) {
	p := &confirmProbe{}
	d := openDialog(t, refundSpec(p))
	d.press("tab")
	d.typeText("n") // n types, it does not cancel
	assert.False(t, d.closed)
	d.press("esc")
	assert.True(t, d.closed)
	assert.Zero(t, p.calls)
}

func TestConfirmButtonsMoveAndPress(t *testing.T) {
	p := &confirmProbe{}
	spec := refundSpec(p)
	spec.Amount = nil
	hold := rub("1250")
	spec.Title, spec.Verb, spec.Fixed = "Cancel the hold of payment 43149009", "Release", &hold
	d := openDialog(t, spec)
	assert.NotContains(t, d.view(), "Amount")
	ok, _ := d.c().Available(keys.ActModalEditField)
	assert.False(t, ok, "no field to edit")
	d.press("right")
	assert.Contains(t, d.view(), "[ Release 1,250.00 RUB ]", "the fixed amount is named")
	d.press("left")
	assert.Contains(t, d.view(), "[ Cancel ]")
	d.press("right")
	d.pause()
	d.press("enter")
	require.True(t, d.closed)
	assert.Equal(t, []money.Amount{hold}, p.amounts)
}

// A dialog that is not on screen in full acts on nothing; when it shows
// again the guard starts again, and after keys were ignored it wants a
// pause, y (seen), a pause, y.
func TestConfirmActsOnlyWhileShown(t *testing.T) {
	p := &confirmProbe{}
	d := openDialog(t, refundSpec(p))
	c := d.c()
	c.setShown(false, d.now)
	d.press("y", "y", "enter")
	assert.Zero(t, p.calls)
	c.setShown(true, d.now)
	d.press("y")
	assert.Zero(t, p.calls, "within the guard after reappearing")
	assert.Contains(t, d.view(), "4 keys ignored — the dialog reappeared while you typed")
	d.pause()
	c.setShown(true, d.now) // still shown: the guard does not restart
	d.press("y")
	assert.Zero(t, p.calls, "the first y after ignored keys only says seen")
	d.pause()
	d.press("y")
	assert.Equal(t, 1, p.calls)
}

// A resize below the minimum and back, with no key pressed meanwhile:
// the dialog reappeared, so y acts only 400 ms after that; one too soon
// is ignored, and then it wants the pause, y, pause, y of ignored keys.
func TestConfirmReappearingAfterAResizeRestartsTheGuard(t *testing.T) {
	p := &confirmProbe{}
	d := openDialog(t, refundSpec(p))
	c := d.c()
	c.setShown(false, d.now)
	d.wait(300 * time.Millisecond)
	c.setShown(true, d.now)
	d.wait(ConfirmGuard - time.Millisecond)
	d.press("y")
	assert.Zero(t, p.calls)
	assert.Contains(t, d.view(), "1 key ignored — the dialog reappeared while you typed")
	d.pause()
	d.press("y")
	d.pause()
	d.press("y")
	assert.Equal(t, 1, p.calls)

	// Without a key too soon, y after the guard sends at once.
	p = &confirmProbe{}
	d = openDialog(t, refundSpec(p))
	d.c().setShown(false, d.now)
	d.c().setShown(true, d.now)
	d.pause()
	d.press("y")
	assert.Equal(t, 1, p.calls)
}

func TestConfirmLargeAmountWantsTheLastDigitsTyped(t *testing.T) {
	p := &confirmProbe{}
	spec := refundSpec(p)
	spec.Check = &TypedCheck{Over: money.MustParse("100"), Digits: "9010", Of: "payment 43149010"}
	d := openDialog(t, spec)
	v := d.view()
	assert.Contains(t, v, "Over 100.00 RUB: type 9010, the end of the payment id: [____]")
	assert.Contains(t, v, "type 9010 • n/esc cancel", "the hint says what to do")
	d.press("y")
	assert.Zero(t, p.calls, "y waits for the digits")
	assert.Contains(t, d.view(), "cannot confirm: type 9010")

	d.typeText("91")
	assert.Contains(t, d.view(), "[91__]")
	d.press("backspace")
	d.typeText("010")
	assert.Contains(t, d.view(), "[9010] ✓")
	d.pause()
	d.press("y")
	require.Equal(t, 1, p.calls)
	assert.Equal(t, rub("500"), p.amounts[0])

	// Below the threshold no digits are asked for.
	p = &confirmProbe{}
	spec = refundSpec(p)
	spec.Check = &TypedCheck{Over: money.MustParse("100"), Digits: "9010", Of: "payment 43149010"}
	d = openDialog(t, spec)
	d.press("e")
	d.clear()
	d.typeText("100")
	d.press("enter")
	assert.NotContains(t, d.view(), "type 9010")
	d.pause()
	d.press("y")
	assert.Equal(t, []money.Amount{rub("100")}, p.amounts)
}

func TestConfirmDangerVerbIsStyled(t *testing.T) {
	th := NewTheme(true, false)
	spec := refundSpec(&confirmProbe{})
	danger := NewConfirm(spec, t0, keys.Default(), th).View(76, 21)
	spec.Danger = false
	plain := NewConfirm(spec, t0, keys.Default(), th).View(76, 21)
	assert.Contains(t, danger, th.Danger.Render("  Refund 500.00 RUB  "))
	assert.NotContains(t, plain, th.Danger.Render("  Refund 500.00 RUB  "))
}

func TestConfirmFitsOrSaysItDoesNot(t *testing.T) {
	spec := refundSpec(&confirmProbe{})
	spec.Check = &TypedCheck{Over: money.MustParse("100"), Digits: "9010", Of: "payment 43149010"}
	c := NewConfirm(spec, t0, keys.Default(), NewTheme(true, true)).(*confirmModal)
	c.swallow(whyOpened)
	c.lostEdit = true
	c.note = "a note about the last key that did nothing"
	assert.True(t, c.fits(76, 20), "everything at once fits 80x24 with an error line")
	c.seen, c.swallowed = 11, 0
	assert.True(t, c.fits(76, 20), "and once the ignored keys were acknowledged")

	for range 30 {
		spec.Lines = append(spec.Lines, "a long fact about the payment that has to wrap inside the dialog box somewhere")
	}
	m := NewConfirm(spec, t0, keys.Default(), NewTheme(true, true)).(*confirmModal)
	assert.False(t, m.fits(76, 21))
	assert.True(t, m.fits(196, 100))
	for _, size := range [][2]int{{76, 21}, {76, 16}, {56, 20}, {196, 47}} {
		out := m.View(size[0], size[1])
		lines := strings.Split(out, "\n")
		assert.LessOrEqual(t, len(lines), size[1], "%v", size)
		for _, l := range lines {
			assert.LessOrEqual(t, ansi.StringWidth(l), size[0], "%v", size)
		}
		s := ansi.Strip(out)
		assert.Contains(t, s, "Refund payment 43149010", "%v: title kept", size)
		assert.Contains(t, s, "[ Cancel ]", "%v: buttons kept", size)
		assert.Contains(t, s, "Amount to refund", "%v: amount kept", size)
		assert.Contains(t, unwrapped(s), "make the window taller", "%v: says it is cut", size)
	}
}
