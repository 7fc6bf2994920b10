package ui

import (
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

func refundSpec(p *confirmProbe) ConfirmSpec {
	return ConfirmSpec{
		Title:  "Refund payment 43149010",
		Lines:  []string{"Payment 43149010, order 5561, settled 1,250.00 RUB", "Customer ivan@example.com", "Interface v2"},
		Verb:   "Refund",
		Danger: true,
		Amount: &AmountField{
			Label:    "Amount to refund",
			Value:    money.Amount{Value: money.MustParse("150"), Currency: "RUB"},
			Max:      money.MustParse("150"),
			MaxLabel: "still refundable",
		},
		Confirm: p.confirm,
	}
}

// dialog drives a confirmation on its own clock.
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
		m, _, closed := d.m.Update(tea.KeyPressMsg{Code: r, Text: string(r)}, d.now)
		d.m, d.closed = m, closed
	}
}

func (d *dialog) clear() {
	for range 20 {
		d.press("backspace")
	}
}

func (d *dialog) view() string { return unwrapped(d.m.View(76, 21)) }

func TestConfirmCancelIsFocusedByDefault(t *testing.T) {
	p := &confirmProbe{}
	d := openDialog(t, refundSpec(p))
	assert.Contains(t, d.view(), "[ Cancel ]")
	assert.NotContains(t, d.view(), "[ Refund ]")
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

func TestConfirmYConfirmsExactlyOnceWithThePrefilledAmount(t *testing.T) {
	p := &confirmProbe{}
	d := openDialog(t, refundSpec(p))
	assert.Equal(t, keys.ContextModal, d.m.Context(), "the amount is not focused")
	assert.Contains(t, d.view(), "[150.00")
	d.press("y")
	require.True(t, d.closed)
	require.Equal(t, 1, p.calls)
	assert.Equal(t, money.Amount{Value: money.MustParse("150"), Currency: "RUB"}, p.amounts[0])
	require.Len(t, d.cmds, 1, "Confirm's command is returned")
	assert.Equal(t, confirmedMsg{p.amounts[0]}, d.cmds[0]())

	d.press("y", "y", "enter")
	assert.Equal(t, 1, p.calls, "a second y can never confirm again")
}

func TestConfirmIgnoresKeysInTheFirst400ms(t *testing.T) {
	p := &confirmProbe{}
	d := openDialog(t, refundSpec(p))
	d.now = t0.Add(100 * time.Millisecond)
	d.press("y")
	assert.False(t, d.closed)
	assert.Zero(t, p.calls)
	assert.Contains(t, d.view(), "keys are ignored for a moment so a stray key")
	d.now = t0.Add(399 * time.Millisecond)
	d.press("right", "enter", "esc")
	assert.False(t, d.closed, "even esc is ignored")
	assert.Contains(t, d.view(), "[ Cancel ]", "the focus did not move")

	d.now = t0.Add(400 * time.Millisecond)
	d.press("y")
	assert.True(t, d.closed)
	assert.Equal(t, 1, p.calls)
}

func TestConfirmRefusesAnAmountAboveTheMax(t *testing.T) {
	p := &confirmProbe{}
	d := openDialog(t, refundSpec(p))
	d.press("tab")
	require.Equal(t, keys.ContextModalField, d.m.Context())
	d.clear()
	d.typeText("150.01")
	d.press("enter")
	assert.Equal(t, keys.ContextModal, d.m.Context(), "enter leaves the field")
	assert.Contains(t, d.view(), "too much: the maximum is 150.00 RUB (still refundable)")
	d.press("y")
	assert.False(t, d.closed)
	assert.Zero(t, p.calls, "an invalid amount cannot be confirmed")
	assert.Contains(t, d.view(), "cannot confirm: too much")

	ok, why := d.m.(*confirmModal).Available(keys.ActModalConfirm)
	assert.False(t, ok)
	assert.NotEmpty(t, why)
}

func TestConfirmValidatesTheAmount(t *testing.T) {
	cases := map[string]string{
		"":       "enter the amount",
		"0":      "more than 0",
		"0.00":   "more than 0",
		"10.001": "RUB amounts have at most 2 decimals",
		".":      "write the amount as digits",
	}
	for typed, want := range cases {
		p := &confirmProbe{}
		d := openDialog(t, refundSpec(p))
		d.press("e")
		d.clear()
		d.typeText(typed)
		d.press("tab")
		assert.Contains(t, d.view(), want, "typed %q", typed)
		d.press("y")
		assert.Zero(t, p.calls, "typed %q", typed)
	}
}

func TestConfirmTakesAValidEditedAmount(t *testing.T) {
	p := &confirmProbe{}
	d := openDialog(t, refundSpec(p))
	d.press("e")
	d.clear()
	d.typeText("9a") // letters are refused
	assert.Contains(t, d.view(), "digits and one decimal point only")
	d.typeText("9,5.1") // the comma is the decimal point, a second point is refused
	d.press("y")
	assert.False(t, d.closed, "y does nothing while the field is focused")
	assert.Contains(t, d.view(), "finish editing the amount")
	d.press("tab")
	assert.Contains(t, d.view(), "[99.51", "reformatted with the currency's decimals")
	d.press("y")
	require.True(t, d.closed)
	require.Equal(t, 1, p.calls)
	assert.Equal(t, money.Amount{Value: money.MustParse("99.51"), Currency: "RUB"}, p.amounts[0])
}

func TestConfirmEscInTheFieldCancels(t *testing.T) {
	p := &confirmProbe{}
	d := openDialog(t, refundSpec(p))
	d.press("tab")
	d.typeText("n") // n types (and is refused), it does not cancel
	assert.False(t, d.closed)
	d.press("esc")
	assert.True(t, d.closed)
	assert.Zero(t, p.calls)
}

func TestConfirmButtonsMoveAndPress(t *testing.T) {
	p := &confirmProbe{}
	spec := refundSpec(p)
	spec.Amount = nil
	spec.Title, spec.Verb = "Cancel the hold of payment 43149009", "Cancel hold"
	d := openDialog(t, spec)
	assert.NotContains(t, d.view(), "Amount")
	ok, _ := d.m.(*confirmModal).Available(keys.ActModalEditField)
	assert.False(t, ok, "no field to edit")
	d.press("right")
	assert.Contains(t, d.view(), "[ Cancel hold ]")
	d.press("left")
	assert.Contains(t, d.view(), "[ Cancel ]")
	d.press("right", "enter")
	require.True(t, d.closed)
	assert.Equal(t, 1, p.calls)
	assert.Equal(t, money.Amount{}, p.amounts[0], "no amount: the zero Amount")
}

func TestConfirmDangerVerbIsStyled(t *testing.T) {
	th := NewTheme(true, false)
	spec := refundSpec(&confirmProbe{})
	danger := NewConfirm(spec, t0, keys.Default(), th).View(76, 21)
	spec.Danger = false
	plain := NewConfirm(spec, t0, keys.Default(), th).View(76, 21)
	assert.Contains(t, danger, th.Danger.Render("  Refund  "))
	assert.NotContains(t, plain, th.Danger.Render("  Refund  "))
}

func TestConfirmThroughTheShell(t *testing.T) {
	ta := newTestApp(t)
	p := &confirmProbe{}
	ta.send(OpenConfirmMsg{Spec: refundSpec(p)})
	require.Len(t, ta.modals, 1)
	ta.press("y")
	assert.Zero(t, p.calls, "too soon after opening")
	assert.Contains(t, ta.screen(), "keys are ignored for a moment")
	assert.Contains(t, ta.screen(), "y confirm • n/esc cancel • tab/e edit amount", "the modal's help bar")

	ta.clock.advance(500 * time.Millisecond)
	ta.press("tab")
	assert.Contains(t, ta.screen(), "enter/tab done editing", "the field's help bar")
	assert.Empty(t, keysOf(ta.tabs[0]), "the modal takes every key")
	ta.press("enter")
	cmd := ta.press("y")
	require.Equal(t, 1, p.calls)
	assert.Empty(t, ta.modals)
	assert.Contains(t, run(cmd), tea.Msg(confirmedMsg{p.amounts[0]}))
}

func TestConfirmFitsSmallAndLongContent(t *testing.T) {
	spec := refundSpec(&confirmProbe{})
	for range 30 {
		spec.Lines = append(spec.Lines, "a long fact about the payment that has to wrap inside the dialog box somewhere")
	}
	m := NewConfirm(spec, t0, keys.Default(), NewTheme(true, true))
	for _, size := range [][2]int{{76, 21}, {40, 12}, {196, 47}} {
		out := m.View(size[0], size[1])
		lines := splitLines(out)
		assert.LessOrEqual(t, len(lines), size[1], "%v", size)
		for _, l := range lines {
			assert.LessOrEqual(t, ansi.StringWidth(l), size[0], "%v", size)
		}
		s := ansi.Strip(out)
		assert.Contains(t, s, "Refund payment 43149010", "%v: title kept", size)
		assert.Contains(t, s, "[ Cancel ]", "%v: buttons kept", size)
		assert.Contains(t, s, "Amount to refund", "%v: amount kept", size)
	}
}
