package ui

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"paydash/backend/money"
	"paydash/backend/textsafe"
	"paydash/keys"
)

// ConfirmGuard is how long after a confirmation opens its keys are ignored,
// so that a key typed for the screen behind cannot confirm it (design §7).
const ConfirmGuard = 400 * time.Millisecond

// guardHint is shown when a key was ignored by the guard.
const guardHint = "keys are ignored for a moment so a stray key cannot confirm"

// confirmModal is the confirmation dialog of design §7; see NewConfirm.
type confirmModal struct {
	spec   ConfirmSpec
	title  string
	lines  []string
	verb   string
	opened time.Time
	km     keys.Map
	th     Theme

	onVerb bool // the verb button has the focus (Cancel has it by default)

	field    bool // there is an amount field
	input    textinput.Model
	editing  bool
	decimals int
	value    money.Decimal // the last validated amount
	valid    bool
	problem  string // what is wrong with the amount
	note     string // why a key did nothing

	guarded bool // a key was ignored by the guard
	done    bool // confirmed or cancelled: nothing can confirm again
}

// NewConfirm builds the confirmation dialog for spec, opened at opened (the
// shell's clock): the title, the facts, the amount (prefilled, not
// focused) and the buttons Cancel (focused) and spec.Verb. y confirms,
// calling spec.Confirm exactly once; n or esc cancels; tab or e edits the
// amount, enter or tab leaves the field and validates it; left and right
// move between the buttons and enter presses the focused one. Keys in the
// first 400 ms (ConfirmGuard) are ignored.
func NewConfirm(spec ConfirmSpec, opened time.Time, km keys.Map, th Theme) Modal {
	c := &confirmModal{
		spec:   spec,
		title:  textsafe.Line(spec.Title, 200),
		verb:   textsafe.Line(spec.Verb, 40),
		opened: opened,
		km:     km,
		th:     th,
	}
	if c.verb == "" {
		c.verb = "Confirm"
	}
	for _, l := range spec.Lines {
		c.lines = append(c.lines, textsafe.Clean(l))
	}
	if spec.Amount != nil {
		c.field = true
		c.decimals = money.Decimals(spec.Amount.Value.Currency)
		c.input = newInput(th, "", 20)
		c.input.SetWidth(16)
		c.input.KeyMap.Paste = key.NewBinding() // no clipboard reads from a dialog
		c.input.SetValue(spec.Amount.Value.Value.StringFixed(c.decimals))
		c.validate()
	}
	return c
}

func (c *confirmModal) Context() keys.Context {
	if c.editing {
		return keys.ContextModalField
	}
	return keys.ContextModal
}

// Available greys out y while the amount is being edited or is invalid,
// and hides the edit key when there is no amount.
func (c *confirmModal) Available(action string) (bool, string) {
	switch action {
	case keys.ActModalEditField:
		return c.field, ""
	case keys.ActModalConfirm:
		if c.editing {
			return false, "finish editing the amount first"
		}
		if c.field && !c.valid {
			return false, "the amount is not valid"
		}
	}
	return true, ""
}

func (c *confirmModal) Update(msg tea.Msg, now time.Time) (Modal, tea.Cmd, bool) {
	if c.done {
		return c, nil, true
	}
	var press tea.KeyPressMsg
	switch m := msg.(type) {
	case tea.KeyPressMsg:
		press = m
	case tea.PasteMsg:
		if c.editing && now.Sub(c.opened) >= ConfirmGuard {
			c.typeText(m.Content)
		}
		return c, nil, false
	default:
		return c, nil, false
	}
	if now.Sub(c.opened) < ConfirmGuard {
		c.guarded = true
		return c, nil, false
	}
	c.guarded = false
	c.note = ""
	if c.editing {
		return c.updateField(press)
	}
	action, _, _ := c.km.Lookup(press, keys.ContextModal)
	switch action {
	case keys.ActModalConfirm:
		return c.confirm()
	case keys.ActModalCancel:
		return c.cancel()
	case keys.ActModalEditField:
		if c.field {
			c.editing = true
			c.input.CursorEnd()
			return c, c.input.Focus(), false
		}
		c.onVerb = !c.onVerb
		return c, nil, false
	}
	switch press.String() {
	case "left", "h", "shift+tab":
		c.onVerb = false
	case "right", "l":
		c.onVerb = true
	case "enter":
		if c.onVerb {
			return c.confirm()
		}
		return c.cancel()
	}
	return c, nil, false
}

func (c *confirmModal) updateField(press tea.KeyPressMsg) (Modal, tea.Cmd, bool) {
	action, _, _ := c.km.Lookup(press, keys.ContextModalField)
	switch action {
	case keys.ActModalLeaveField:
		c.leaveField()
		return c, nil, false
	case keys.ActModalCancel:
		return c.cancel()
	}
	if press.Text != "" {
		if keys.Matches(press, c.km.Modal.Confirm) {
			c.note = "finish editing the amount with " + keys.Label(c.km.Modal.LeaveField.Keys()) + " before confirming"
			return c, nil, false
		}
		c.typeText(press.Text)
		return c, nil, false
	}
	var cmd tea.Cmd
	c.input, cmd = c.input.Update(press)
	return c, cmd, false
}

// typeText inserts what was typed or pasted, keeping only digits and one
// decimal point (a comma is taken for the point).
func (c *confirmModal) typeText(s string) {
	hasPoint := strings.Contains(c.input.Value(), ".")
	var kept []rune
	refused := false
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			kept = append(kept, r)
		case (r == '.' || r == ',') && !hasPoint:
			kept = append(kept, '.')
			hasPoint = true
		default:
			refused = true
		}
	}
	if refused {
		c.note = "the amount takes digits and one decimal point only"
	}
	if len(kept) == 0 {
		return
	}
	c.input, _ = c.input.Update(tea.PasteMsg{Content: string(kept)})
}

func (c *confirmModal) leaveField() {
	c.editing = false
	c.input.Blur()
	if c.validate() {
		c.input.SetValue(c.value.StringFixed(c.decimals))
	}
}

// validate checks the field's text: a number above zero, with no more
// decimals than the currency has, not above the maximum.
func (c *confirmModal) validate() bool {
	c.valid, c.problem = false, ""
	a := c.spec.Amount
	cur := a.Value.Currency
	text := strings.TrimSpace(c.input.Value())
	d, err := money.Parse(text)
	switch {
	case text == "":
		c.problem = "enter the amount"
	case err != nil:
		if errors.Is(err, money.ErrPrecision) {
			c.problem = fmt.Sprintf("%s amounts have at most %d decimals", cur, c.decimals)
		} else {
			c.problem = "write the amount as digits with one decimal point, e.g. " + a.Value.Value.StringFixed(c.decimals)
		}
	case !d.IsPositive():
		c.problem = "the amount must be more than 0"
	case !fitsDecimals(d, c.decimals):
		c.problem = fmt.Sprintf("%s amounts have at most %d decimals", cur, c.decimals)
	case d > a.Max:
		c.problem = fmt.Sprintf("too much: the maximum is %s %s", a.Max.StringFixed(c.decimals), cur)
		if a.MaxLabel != "" {
			c.problem += " (" + textsafe.Line(a.MaxLabel, 60) + ")"
		}
	default:
		c.valid, c.value = true, d
	}
	return c.valid
}

func fitsDecimals(d money.Decimal, decimals int) bool {
	unit := int64(1)
	for i := decimals; i < money.Scale; i++ {
		unit *= 10
	}
	return int64(d)%unit == 0
}

func (c *confirmModal) confirm() (Modal, tea.Cmd, bool) {
	if c.field && !c.valid {
		c.note = "cannot confirm: " + c.problem
		return c, nil, false
	}
	c.done = true
	var amount money.Amount
	if c.field {
		amount = money.Amount{Value: c.value, Currency: c.spec.Amount.Value.Currency}
	}
	var cmd tea.Cmd
	if c.spec.Confirm != nil {
		cmd = c.spec.Confirm(amount)
	}
	return c, cmd, true
}

func (c *confirmModal) cancel() (Modal, tea.Cmd, bool) {
	c.done = true
	return c, nil, true
}

func (c *confirmModal) View(maxWidth, maxHeight int) string {
	th := c.th
	innerMax := max(min(maxWidth-boxFrame, 72), 10)
	buttons := c.buttons()
	natural := max(ansi.StringWidth(c.title), ansi.StringWidth(buttons), 44)
	for _, l := range c.lines {
		natural = max(natural, ansi.StringWidth(l))
	}
	inner := min(natural, innerMax)

	var facts []string
	for _, l := range c.lines {
		for _, wl := range wrapWords(l, inner) {
			facts = append(facts, th.Text.Render(wl))
		}
	}
	var amount []string
	if c.field {
		a := c.spec.Amount
		label := textsafe.Line(a.Label, 40)
		if label == "" {
			label = "Amount"
		}
		field := "[" + c.input.View() + "]"
		amount = append(amount, fitTail(th.Title.Render(label+": ")+field+" "+th.Text.Render(a.Value.Currency), inner))
		limit := "at most " + a.Max.StringFixed(c.decimals) + " " + a.Value.Currency
		if a.MaxLabel != "" {
			limit += " (" + textsafe.Line(a.MaxLabel, 60) + ")"
		}
		amount = append(amount, wrapStyled(th.Muted, limit, inner)...)
		if c.problem != "" {
			amount = append(amount, wrapStyled(th.Danger, "✗ "+c.problem, inner)...)
		}
	}
	var notes []string
	if c.note != "" {
		notes = append(notes, wrapStyled(th.Warning, "! "+c.note, inner)...)
	}
	if c.guarded {
		notes = append(notes, wrapStyled(th.Muted.Faint(true), guardHint, inner)...)
	}
	hint := fmt.Sprintf("%s %s • %s cancel", keys.Label(c.km.Modal.Confirm.Keys()), strings.ToLower(c.verb),
		keys.Label(c.km.Modal.Cancel.Keys()))
	switch {
	case c.editing:
		hint = fmt.Sprintf("%s done editing • %s cancel", keys.Label(c.km.Modal.LeaveField.Keys()),
			keys.Label(untyped(c.km.Modal.Cancel.Keys())))
	case c.field:
		hint += " • " + keys.Label(c.km.Modal.EditField.Keys()) + " edit amount"
	}
	hint = th.Muted.Render(fitTail(hint, inner))

	// Room: the border takes two lines; title, buttons and hint always show.
	room := maxHeight - 2
	fixed := 1 + len(amount) + len(notes) + 1 + 1
	blanks := 3 // after the title, after the facts, before the buttons
	if len(amount) == 0 {
		blanks = 2
	}
	if len(facts) > room-fixed-blanks {
		keep := max(room-fixed-blanks-1, 0)
		facts = append(facts[:min(keep, len(facts))], th.Muted.Render("…"))
	}
	lines := []string{fitTail(th.Title.Render(c.title), inner), ""}
	lines = append(lines, facts...)
	if len(amount) > 0 {
		lines = append(lines, "")
		lines = append(lines, amount...)
	}
	lines = append(lines, notes...)
	lines = append(lines, "", buttons, hint)
	for i, l := range lines {
		lines[i] = fit(l, inner)
	}
	return box(th, lines)
}

func (c *confirmModal) buttons() string {
	th := c.th
	button := func(label string, focused bool, st lipgloss.Style) string {
		if focused {
			return st.Reverse(true).Bold(true).Render("[ " + label + " ]")
		}
		return st.Render("  " + label + "  ")
	}
	verbStyle := th.Text
	if c.spec.Danger {
		verbStyle = th.Danger
	}
	return button("Cancel", !c.onVerb, th.Text) + "   " + button(c.verb, c.onVerb, verbStyle)
}

func wrapStyled(st lipgloss.Style, s string, width int) []string {
	var out []string
	for _, l := range wrapWords(s, width) {
		out = append(out, st.Render(l))
	}
	return out
}

// newInput is a one-line text input in the theme, with a steady cursor (a
// blinking one would keep a timer running while the dialog is open).
func newInput(th Theme, placeholder string, limit int) textinput.Model {
	in := textinput.New()
	in.Prompt = ""
	in.Placeholder = placeholder
	in.CharLimit = limit
	st := textinput.DefaultStyles(th.Dark)
	if th.NoColor {
		plain := lipgloss.NewStyle()
		st.Focused = textinput.StyleState{Text: plain, Placeholder: plain, Suggestion: plain, Prompt: plain}
		st.Blurred = st.Focused
		st.Cursor.Color = nil
	}
	st.Cursor.Blink = false
	in.SetStyles(st)
	return in
}

// untyped leaves out the keys that type text (they go into a focused field).
func untyped(ks []string) []string {
	var out []string
	for _, k := range ks {
		if len([]rune(k)) > 1 {
			out = append(out, k)
		}
	}
	return out
}
