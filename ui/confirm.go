package ui

import (
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

// ConfirmGuard is how long after a confirmation appears its keys are
// ignored, so that a key typed for the screen behind cannot act on it
// (design §7). It starts again whenever the dialog reappears in full after
// a resize hid it.
const ConfirmGuard = 400 * time.Millisecond

// Why keys were ignored, for the dialog's note.
const (
	whyOpened     = "the dialog opened while you typed"
	whyReappeared = "the dialog reappeared while you typed"
	whyHidden     = "the dialog was not fully on screen"
	whyPreparing  = "the dialog was being prepared"
)

// confirmModal is the confirmation dialog of design §7 and issue 7; see
// NewConfirm.
type confirmModal struct {
	spec  ConfirmSpec
	title string
	lines []string
	verb  string
	km    keys.Map
	th    Theme

	onVerb bool // the verb button has the focus (Cancel has it by default)

	// The amount field keeps what the user typed, as typed; value is what
	// that text means while problem is "".
	field    bool
	currency string
	input    textinput.Model
	editing  bool
	value    money.Decimal
	problem  string

	typed string // the digits typed for the large-amount check (spec.Check)
	note  string // why the last key did nothing

	// What the user could see. The dialog acts only while it is drawn in
	// full and not within ConfirmGuard of appearing; keys that come
	// otherwise are ignored and counted, and after any was ignored the
	// next y only says "seen": the one after it confirms.
	shownAt   time.Time // when it last appeared in full; zero while it is not
	wasHidden bool      // a resize hid it once (for the note's wording)
	swallowed int       // keys ignored since the user last pressed y
	why       string    // why the last of them was ignored
	seen      int       // a y was taken as "seen" after this many ignored keys: the note asks for the next

	done bool // confirmed or cancelled: nothing can confirm again
}

// NewConfirm builds the confirmation dialog for spec, on screen from
// opened (the shell's clock): the title, the facts, the amount (prefilled
// in the screens' number format, not focused) and the buttons Cancel
// (focused) and the verb with the amount it sends ("Refund 500.00 RUB").
// y confirms, calling spec.Confirm exactly once with the amount the dialog
// shows at that moment; n or esc cancels; tab or e edits the amount, enter
// or tab leaves the field; left and right move between the buttons and
// enter presses the focused one. Keys within ConfirmGuard of the dialog
// appearing are ignored and counted; after any was ignored, y must be
// pressed twice. Above spec.Check's threshold y waits for the digits it
// asks for.
func NewConfirm(spec ConfirmSpec, opened time.Time, km keys.Map, th Theme) Modal {
	c := &confirmModal{
		spec:    spec,
		title:   textsafe.Line(spec.Title, 200),
		verb:    textsafe.Line(spec.Verb, 40),
		km:      km,
		th:      th,
		shownAt: opened,
	}
	if c.verb == "" {
		c.verb = "Confirm"
	}
	for _, l := range spec.Lines {
		c.lines = append(c.lines, textsafe.Clean(l))
	}
	if spec.Amount != nil {
		c.field = true
		c.currency = spec.Amount.Value.Currency
		c.input = newInput(th, "", 64)
		c.input.SetWidth(18)
		c.input.KeyMap.Paste = key.NewBinding() // no clipboard reads from a dialog
		c.input.SetValue(money.Group(spec.Amount.Value.Value, c.currency))
		c.revalidate()
	}
	return c
}

func (c *confirmModal) Context() keys.Context {
	if c.editing {
		return keys.ContextModalField
	}
	return keys.ContextModal
}

// Available greys out y while it cannot send, with the reason.
func (c *confirmModal) Available(action keys.Action) (bool, string) {
	switch action {
	case keys.ActModalEditField:
		return c.field, ""
	case keys.ActModalConfirm:
		return c.canSend()
	}
	return true, ""
}

// canSend says whether y would send now, and if not, why.
func (c *confirmModal) canSend() (bool, string) {
	switch {
	case c.editing:
		return false, "finish editing the amount first (" + keys.Label(c.km.Modal.LeaveField.Keys()) + ")"
	case c.field && c.problem != "":
		return false, "the amount is not valid: " + c.problem
	case c.checkNeeded() && c.typed != c.spec.Check.Digits:
		return false, "type " + c.spec.Check.Digits + ", the last digits of " + textsafe.Line(c.spec.Check.Of, 60) + ", first"
	}
	return true, ""
}

// amount is what y sends now: the field's amount, the fixed amount, or
// none.
func (c *confirmModal) amount() (money.Amount, bool) {
	switch {
	case c.field && c.problem == "":
		return money.Amount{Value: c.value, Currency: c.currency}, true
	case c.field:
		return money.Amount{}, false
	case c.spec.Fixed != nil:
		return *c.spec.Fixed, true
	}
	return money.Amount{}, false
}

// checkNeeded: the amount is above spec.Check's threshold.
func (c *confirmModal) checkNeeded() bool {
	a, ok := c.amount()
	return c.spec.Check != nil && ok && a.Value > c.spec.Check.Over
}

// --- what the user could see (the shell's gate) ---------------------------

// fits reports whether the dialog is drawn in full in maxWidth × maxHeight.
func (c *confirmModal) fits(maxWidth, maxHeight int) bool {
	_, complete := c.layout(maxWidth, maxHeight)
	return complete
}

// setShown tells the dialog whether it is on screen in full now.
func (c *confirmModal) setShown(shown bool, now time.Time) {
	switch {
	case shown && c.shownAt.IsZero():
		c.shownAt = now
	case !shown:
		c.shownAt, c.wasHidden = time.Time{}, true
	}
}

// swallow counts a key the dialog did not take, and why.
func (c *confirmModal) swallow(why string) {
	c.swallowed++
	c.why = why
	c.seen = 0
}

// live reports whether a key may act now.
func (c *confirmModal) live(now time.Time) (bool, string) {
	switch {
	case c.shownAt.IsZero():
		return false, whyHidden
	case now.Sub(c.shownAt) < ConfirmGuard && c.wasHidden:
		return false, whyReappeared
	case now.Sub(c.shownAt) < ConfirmGuard:
		return false, whyOpened
	}
	return true, ""
}

// --- keys --------------------------------------------------------------------

func (c *confirmModal) Update(msg tea.Msg, now time.Time) (Modal, tea.Cmd, bool) {
	if c.done {
		return c, nil, true
	}
	var press tea.KeyPressMsg
	switch m := msg.(type) {
	case tea.KeyPressMsg:
		press = m
	case tea.PasteMsg:
		if ok, why := c.live(now); !ok {
			c.swallow(why)
		} else if c.editing {
			c.input, _ = c.input.Update(tea.PasteMsg{Content: textsafe.Line(m.Content, 64)})
			c.revalidate()
		}
		return c, nil, false
	default:
		return c, nil, false
	}
	if ok, why := c.live(now); !ok {
		c.swallow(why)
		return c, nil, false
	}
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
	case "backspace":
		if c.typed != "" {
			c.typed = c.typed[:len(c.typed)-1]
		}
	default:
		c.typeCheck(press.Text)
	}
	return c, nil, false
}

// typeCheck takes a digit typed for the large-amount check.
func (c *confirmModal) typeCheck(text string) {
	if !c.checkNeeded() || len(text) != 1 {
		return
	}
	if text[0] < '0' || text[0] > '9' {
		c.note = "type the digits " + c.spec.Check.Digits + " to confirm this amount"
		return
	}
	if len(c.typed) < len(c.spec.Check.Digits) {
		c.typed += text
	}
}

func (c *confirmModal) updateField(press tea.KeyPressMsg) (Modal, tea.Cmd, bool) {
	action, _, _ := c.km.Lookup(press, keys.ContextModalField)
	switch action {
	case keys.ActModalLeaveField:
		c.editing = false
		c.input.Blur()
		return c, nil, false
	case keys.ActModalCancel:
		return c.cancel()
	}
	if press.Text != "" && keys.Matches(press, c.km.Modal.Confirm) {
		c.note = "finish editing the amount with " + keys.Label(c.km.Modal.LeaveField.Keys()) + ", then confirm"
		return c, nil, false
	}
	before := c.input.Value()
	var cmd tea.Cmd
	c.input, cmd = c.input.Update(press)
	if c.input.Value() != before {
		c.revalidate()
	}
	return c, cmd, false
}

// revalidate reads the field's text: an amount in the currency's
// decimals, above zero, not above the maximum. The text is never changed.
func (c *confirmModal) revalidate() {
	a := c.spec.Amount
	d, problem := ParseAmount(c.input.Value(), c.currency)
	if problem == "" && d > a.Max {
		problem = "too much: at most " + money.Group(a.Max, c.currency) + " " + c.currency
		if a.MaxLabel != "" {
			problem += " (" + textsafe.Line(a.MaxLabel, 60) + ")"
		}
	}
	c.value, c.problem = d, problem
}

func (c *confirmModal) confirm() (Modal, tea.Cmd, bool) {
	if ok, why := c.canSend(); !ok {
		c.note = "cannot confirm: " + why
		return c, nil, false
	}
	if c.swallowed > 0 {
		// Keys were typed at a dialog the user had not seen: this y says
		// "I have seen it"; the next one sends what it shows.
		c.swallowed, c.seen = 0, c.swallowed
		return c, nil, false
	}
	c.done = true
	amount, _ := c.amount()
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

// --- drawing -----------------------------------------------------------------

func (c *confirmModal) View(maxWidth, maxHeight int) string {
	lines, _ := c.layout(maxWidth, maxHeight)
	return box(c.th, lines)
}

// buttonLabel is the verb with what it sends: "Refund 500.00 RUB".
func (c *confirmModal) buttonLabel() string {
	a, ok := c.amount()
	switch {
	case ok:
		return c.verb + " " + textsafe.Line(a.Display(), 40)
	case c.field:
		return c.verb + " —"
	}
	return c.verb
}

// layout is the dialog's content lines for a box of at most maxWidth ×
// maxHeight cells, and whether all of it is there. Title, amount, notes,
// buttons and hint always show; facts that do not fit are cut, and then
// the dialog is not complete: the shell holds its keys until it is.
func (c *confirmModal) layout(maxWidth, maxHeight int) ([]string, bool) {
	th := c.th
	innerMax := max(min(maxWidth-boxFrame, 72), 10)
	buttons := c.buttons()
	natural := max(ansi.StringWidth(c.title), ansi.StringWidth(buttons), ansi.StringWidth(c.hint()), 48)
	for _, l := range c.lines {
		natural = max(natural, ansi.StringWidth(l))
	}
	inner := min(natural, innerMax)

	var facts []string
	for _, l := range c.lines {
		facts = append(facts, wrapStyled(th.Text, l, inner)...)
	}
	amount := c.amountLines(inner)
	notes := c.noteLines(inner)
	hint := th.Muted.Render(fitTail(c.hint(), inner))

	// Room: the border takes two lines; title, buttons and hint always show.
	room := maxHeight - 2
	fixed := 1 + len(amount) + len(notes) + 1 + 1
	blanks := 2 // after the title, before the buttons
	if len(amount) > 0 {
		blanks++ // before the amount
	}
	complete := len(facts) <= room-fixed-blanks
	if !complete {
		keep := max(room-fixed-blanks-1, 0)
		facts = append(facts[:min(keep, len(facts))],
			th.Warning.Render(fitTail("… make the window taller to see all of it; keys wait until then", inner)))
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
	return lines, complete && len(lines)+2 <= maxHeight
}

// amountLines: the field with its currency and limit, what is wrong with
// it, and the large-amount check.
func (c *confirmModal) amountLines(inner int) []string {
	th := c.th
	var out []string
	if c.field {
		a := c.spec.Amount
		label := textsafe.Line(a.Label, 40)
		if label == "" {
			label = "Amount"
		}
		out = append(out, fitTail(th.Title.Render(label+": ")+"["+c.input.View()+"] "+th.Text.Render(c.currency), inner))
		if c.problem != "" {
			out = append(out, wrapStyled(th.Danger, "✗ "+c.problem, inner)...)
		} else {
			limit := "at most " + money.Group(a.Max, c.currency) + " " + c.currency
			if a.MaxLabel != "" {
				limit += " (" + textsafe.Line(a.MaxLabel, 60) + ")"
			}
			out = append(out, wrapStyled(th.Muted, limit, inner)...)
		}
	}
	if c.checkNeeded() {
		ck := c.spec.Check
		shown := c.typed + strings.Repeat("_", max(len(ck.Digits)-len(c.typed), 0))
		mark := ""
		if c.typed == ck.Digits {
			mark = " ✓"
		}
		text := fmt.Sprintf("Over %s %s: type %s, the end of the %s id: [%s]%s",
			money.Group(ck.Over, c.sentCurrency()), c.sentCurrency(), ck.Digits, kindOf(ck.Of), shown, mark)
		out = append(out, wrapStyled(th.Warning, text, inner)...)
	}
	return out
}

// kindOf is the first word of "payment 43149010": what the digits end.
func kindOf(of string) string {
	kind, _, _ := strings.Cut(textsafe.Line(of, 60), " ")
	if kind == "" {
		return "object"
	}
	return kind
}

// sentCurrency is the currency of the amount sent, field or fixed.
func (c *confirmModal) sentCurrency() string {
	if c.field {
		return c.currency
	}
	if c.spec.Fixed != nil {
		return c.spec.Fixed.Currency
	}
	return ""
}

// noteLines: why keys were ignored, and why the last key did nothing.
func (c *confirmModal) noteLines(inner int) []string {
	th := c.th
	var out []string
	confirm := keys.Label(c.km.Modal.Confirm.Keys())
	switch {
	case c.swallowed > 0:
		what := "1 key"
		if c.swallowed > 1 {
			what = fmt.Sprintf("%d keys", c.swallowed)
		}
		out = append(out, wrapStyled(th.Warning, fmt.Sprintf("! %s ignored — %s. Check the dialog: %s is then needed twice.",
			what, c.why, confirm), inner)...)
	case c.seen > 0:
		what := "1 key was"
		if c.seen > 1 {
			what = fmt.Sprintf("%d keys were", c.seen)
		}
		out = append(out, wrapStyled(th.Warning, "! "+what+" ignored. Press "+confirm+" again to "+lowerFirst(c.buttonLabel())+
			", as shown.", inner)...)
	}
	if c.note != "" {
		out = append(out, wrapStyled(th.Warning, "! "+c.note, inner)...)
	}
	return out
}

func (c *confirmModal) hint() string {
	cancel := keys.Label(c.km.Modal.Cancel.Keys()) + " cancel"
	if c.editing {
		return keys.Label(c.km.Modal.LeaveField.Keys()) + " done editing • " +
			keys.Label(untyped(c.km.Modal.Cancel.Keys())) + " cancel"
	}
	first := keys.Label(c.km.Modal.Confirm.Keys()) + " " + lowerFirst(c.buttonLabel())
	if ok, _ := c.canSend(); !ok {
		if c.checkNeeded() && c.typed != c.spec.Check.Digits {
			first = "type " + c.spec.Check.Digits
		} else {
			first = ""
		}
	}
	parts := []string{}
	if first != "" {
		parts = append(parts, first)
	}
	parts = append(parts, cancel)
	if c.field {
		parts = append(parts, keys.Label(c.km.Modal.EditField.Keys())+" edit amount")
	}
	return strings.Join(parts, " • ")
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
	return button("Cancel", !c.onVerb, th.Text) + "   " + button(c.buttonLabel(), c.onVerb, verbStyle)
}

// lowerFirst lower-cases the first letter: "Refund 5.00 RUB" in a sentence.
func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	r := []rune(s)
	return strings.ToLower(string(r[0])) + string(r[1:])
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
