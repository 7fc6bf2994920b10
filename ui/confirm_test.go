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
// was, the first y only says "seen" and the second sends.
func TestConfirmGuardIgnoresAndCountsKeysThenWantsYTwice(t *testing.T) {
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
	assert.Contains(t, v, "[ Cancel ]", "the focus did not move")

	d.now = t0.Add(400 * time.Millisecond)
	d.press("y")
	assert.False(t, d.closed, "the first y after ignored keys does not send")
	assert.Zero(t, p.calls)
	assert.Contains(t, d.view(), "Press y again to refund 500.00 RUB, as shown")
	d.press("y")
	require.True(t, d.closed)
	assert.Equal(t, []money.Amount{rub("500")}, p.amounts)
}

// Issue 7: "R, then quickly tab 106 enter (inside the guard), then y"
// refunded the whole 500.00 instead of 106.00. Now the typing is shown as
// ignored, the dialog still shows 500.00, and y sends nothing; what a
// second y sends is what the dialog shows.
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
	assert.NotContains(t, v, "106")

	// The user now types the amount they meant, after the guard: the
	// dialog shows it, and that is what y sends.
	d.press("e")
	d.clear()
	d.typeText("106")
	d.press("enter")
	assert.Contains(t, d.view(), "[106 ", "kept as typed, not rewritten to 106.00")
	assert.Contains(t, d.view(), "Refund 106.00 RUB")
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
	d.press("right", "enter")
	require.True(t, d.closed)
	assert.Equal(t, []money.Amount{hold}, p.amounts)
}

// A dialog that is not on screen in full acts on nothing; when it shows
// again the guard starts again and y is needed twice.
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
	d.now = d.now.Add(ConfirmGuard)
	c.setShown(true, d.now) // still shown: the guard does not restart
	d.press("y")
	assert.Zero(t, p.calls, "the first y after ignored keys only says seen")
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
	c.note = "a note about the last key that did nothing"
	assert.True(t, c.fits(76, 20), "everything at once fits 80x24 with an error line")

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
