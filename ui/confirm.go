package ui

import (
	"cmp"
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

// confirmModal is the confirmation dialog (docs/confirmation.md); see
// NewConfirm.
type confirmModal struct {
	spec  ConfirmSpec
	title string
	// live: the service is live, real money (the shell's description of
	// it, markLive): the title starts with LIVE.
	live  bool
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
	selected bool // the field's whole text is selected: typing replaces it, backspace clears it
	value    money.Decimal
	problem  string

	typed string // the digits typed for the large-amount check (spec.Check)
	note  string // why the last key did nothing

	// What the user could see, and when. A confirming key acts only when
	// the dialog is drawn in full and neither a key nor a change of what
	// it shows came within ConfirmGuard before it. Keys that come
	// otherwise are ignored and counted; after one is, the dialog ignores
	// every key until ConfirmGuard passes with none, and the first y
	// after that pause only says "seen".
	shownAt   time.Time // when it last appeared in full; zero while it is not
	wasHidden bool      // a resize hid it once (for the note's wording)
	changedAt time.Time // when what it shows last changed (appearing included)
	lastKey   time.Time // the last key or paste it was given, taken or not
	ignoring  bool      // a key was ignored and no pause has come since
	swallowed int       // keys ignored since the user last acknowledged or acted
	why       string    // why they were ignored (a key too soon after an ignored one keeps the reason)
	lostEdit  bool      // an ignored key would have changed the amount
	seen      int       // a y said "seen" after this many ignored keys: the note asks for the next

	done bool // confirmed or cancelled: nothing can confirm again
}

// NewConfirm builds the confirmation dialog for spec, on screen from
// opened (the shell's clock): the title, the facts, the amount (prefilled
// in the screens' number format, not focused) and the buttons Cancel
// (focused) and the verb with the amount it sends ("Refund 500.00 RUB").
// y confirms, calling spec.Confirm exactly once with the amount the dialog
// shows at that moment, once what it shows has stood still, with no key
// pressed, for ConfirmGuard; n or esc cancels; tab or e edits the amount
// (selected: the first typed character replaces it), enter or tab leaves
// the field; left and right move between the buttons and enter presses
// the focused one. Keys within ConfirmGuard of the dialog appearing are
// ignored and counted, and so is every key after an ignored one until a
// pause of ConfirmGuard; the first y after the pause says "seen", and y
// after another pause confirms. Above spec.Check's threshold y waits for
// the digits it asks for.
func NewConfirm(spec ConfirmSpec, opened time.Time, km keys.Map, th Theme) Modal {
	c := &confirmModal{
		spec:      spec,
		title:     textsafe.Line(spec.Title, 200),
		verb:      textsafe.Line(spec.Verb, 40),
		km:        km,
		th:        th,
		shownAt:   opened,
		changedAt: opened,
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

// --- keys --------------------------------------------------------------------

func (c *confirmModal) Update(msg tea.Msg, now time.Time) (Modal, tea.Cmd, bool) {
	if c.done {
		return c, nil, true
	}
	switch msg.(type) {
	case tea.KeyPressMsg, tea.PasteMsg:
	default:
		return c, nil, false
	}
	before := c.showing()
	m, cmd, closed := c.key(msg, now)
	c.lastKey = now
	if c.showing() != before {
		c.changedAt = now
	}
	return m, cmd, closed
}

// key handles a key press or a paste at now; lastKey is still the one
// before it.
func (c *confirmModal) key(msg tea.Msg, now time.Time) (Modal, tea.Cmd, bool) {
	if why, held := c.held(now); held {
		c.ignore(msg, why)
		return c, nil, false
	}
	confirming := c.confirming(msg)
	if c.ignoring {
		// The first key after a pause: a y says the user has seen the
		// dialog as it is now; it never confirms.
		c.ignoring = false
		if confirming {
			c.seen, c.swallowed, c.note = max(c.swallowed, 1), 0, ""
			return c, nil, false
		}
	} else if why := c.tooSoon(now); confirming && !c.editing && why != "" {
		c.ignore(msg, why)
		return c, nil, false
	}
	// A key the user chose after seeing the dialog: the notes about keys
	// ignored before it have served.
	c.note, c.swallowed, c.seen, c.lostEdit, c.why = "", 0, 0, false, ""
	press, ok := msg.(tea.KeyPressMsg)
	if !ok {
		if p := msg.(tea.PasteMsg); c.editing {
			c.replaceSelection()
			c.input, _ = c.input.Update(tea.PasteMsg{Content: textsafe.Line(p.Content, 64)})
			c.revalidate()
		}
		return c, nil, false
	}
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
			c.editing, c.selected = true, c.input.Value() != ""
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

// confirming reports whether msg is a key that confirms: y, or enter on
// the focused verb button. In the field y types nothing (updateField),
// so it is the same key there, for the acknowledgement.
func (c *confirmModal) confirming(msg tea.Msg) bool {
	press, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return false
	}
	if keys.Matches(press, c.km.Modal.Confirm) {
		return true
	}
	return !c.editing && c.onVerb && press.String() == "enter"
}

// ignore counts a key the dialog did not take, and notes whether it would
// have changed the amount, for the note that says so.
func (c *confirmModal) ignore(msg tea.Msg, why string) {
	if c.wouldEdit(msg) {
		c.lostEdit = true
	}
	c.swallow(why)
}

// wouldEdit reports whether msg, taken, would have been (part of) changing
// the amount: a paste, the edit key, a character or a deletion typed for
// the field, focused or not.
func (c *confirmModal) wouldEdit(msg tea.Msg) bool {
	if !c.field {
		return false
	}
	press, ok := msg.(tea.KeyPressMsg)
	if !ok {
		_, paste := msg.(tea.PasteMsg)
		return paste
	}
	if keys.Matches(press, c.km.Modal.Confirm) || keys.Matches(press, c.km.Modal.Cancel) && press.Text == "" {
		return false
	}
	if c.editing {
		return insertsText(press) || c.deletes(press)
	}
	if keys.Matches(press, c.km.Modal.EditField) || c.deletes(press) {
		return true
	}
	return len(press.Text) == 1 && strings.ContainsAny(press.Text, "0123456789.,")
}

// insertsText: the press inserts its text into a focused input.
func insertsText(press tea.KeyPressMsg) bool {
	return press.Text != "" && !press.Mod.Contains(tea.ModCtrl) && !press.Mod.Contains(tea.ModAlt)
}

// deletes: the press deletes text in the field (backspace, ctrl+u, …).
func (c *confirmModal) deletes(press tea.KeyPressMsg) bool {
	km := c.input.KeyMap
	return key.Matches(press, km.DeleteCharacterBackward, km.DeleteCharacterForward, km.DeleteWordBackward,
		km.DeleteWordForward, km.DeleteBeforeCursor, km.DeleteAfterCursor)
}

// moves: the press moves the field's cursor.
func (c *confirmModal) moves(press tea.KeyPressMsg) bool {
	km := c.input.KeyMap
	return key.Matches(press, km.CharacterForward, km.CharacterBackward, km.WordForward, km.WordBackward,
		km.LineStart, km.LineEnd)
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
		c.editing, c.selected = false, false
		c.input.Blur()
		return c, nil, false
	case keys.ActModalCancel:
		return c.cancel()
	}
	if press.Text != "" && keys.Matches(press, c.km.Modal.Confirm) {
		c.note = "finish editing the amount with " + keys.Label(c.km.Modal.LeaveField.Keys()) + ", then confirm"
		return c, nil, false
	}
	if c.selected {
		// The prefilled amount is selected: a deletion clears it, typing
		// replaces it, moving the cursor keeps it and ends the selection.
		switch {
		case c.deletes(press):
			c.replaceSelection()
			c.revalidate()
			return c, nil, false
		case insertsText(press):
			c.replaceSelection()
		case c.moves(press):
			c.selected = false
		}
	}
	before := c.input.Value()
	var cmd tea.Cmd
	c.input, cmd = c.input.Update(press)
	if c.input.Value() != before {
		c.revalidate()
	}
	return c, cmd, false
}

// replaceSelection empties the field when its text is selected, so that
// what comes next takes its place.
func (c *confirmModal) replaceSelection() {
	if c.selected {
		c.input.SetValue("")
		c.selected = false
	}
}

// revalidate reads the field's text: an amount in the currency's
// decimals, above zero, not above the maximum. The prefill and the
// maximum, which the service reported, are taken written in full even
// when they have more decimals than the currency. The text is never
// changed.
func (c *confirmModal) revalidate() {
	a := c.spec.Amount
	d, problem := ParseAmountAllowing(c.input.Value(), c.currency, a.Value.Value, a.Max)
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
	natural := max(ansi.StringWidth(c.titlePrefix()+c.title), ansi.StringWidth(buttons), ansi.StringWidth(c.hint()), 48)
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
	title := th.Title.Render(c.title)
	if c.live {
		title = liveStyle(th).Render(liveLabel) + th.Title.Render(liveTitleSep+c.title)
	}
	lines := []string{fitTail(title, inner), ""}
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
		out = append(out, fitTail(th.Title.Render(label+": ")+"["+c.fieldView()+"] "+th.Text.Render(c.currency), inner))
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

// fieldView is the amount field; while its text is selected, the text in
// reverse video (the hint line says what that means), as wide as the
// input draws it.
func (c *confirmModal) fieldView() string {
	view := c.input.View()
	if !c.editing || !c.selected {
		return view
	}
	text := c.input.Value()
	return c.th.Text.Reverse(true).Render(text) + strings.Repeat(" ", max(ansi.StringWidth(view)-ansi.StringWidth(text), 0))
}

// shownAmount is the amount as the field shows it, for a sentence: "574.00
// RUB", or the text as typed when it is not an amount.
func (c *confirmModal) shownAmount() string {
	if a, ok := c.amount(); ok {
		return textsafe.Line(a.Display(), 40)
	}
	return quote(textsafe.Line(c.input.Value(), 40)) + " " + c.currency
}

// noteLines: why keys were ignored, what that left as it was, what to
// press next; and why the last key did nothing.
func (c *confirmModal) noteLines(inner int) []string {
	th := c.th
	var out []string
	confirm := keys.Label(c.km.Modal.Confirm.Keys())
	send := ""
	if ok, _ := c.canSend(); ok {
		send = lowerFirst(c.buttonLabel())
	}
	lost := ""
	if c.lostEdit {
		lost = "; what you typed was not taken: the amount is still " + c.shownAmount() + " — press " +
			keys.Label(c.km.Modal.EditField.Keys()) + " to change it"
	}
	switch {
	case c.swallowed > 0:
		what := "1 key"
		if c.swallowed > 1 {
			what = fmt.Sprintf("%d keys", c.swallowed)
		}
		text := fmt.Sprintf("! %s ignored — %s%s. Pause, %s to say you saw it", what, c.why, lost, confirm)
		if send != "" {
			text += fmt.Sprintf(", pause, %s to %s", confirm, send)
		}
		out = append(out, wrapStyled(th.Warning, text+".", inner)...)
	case c.seen > 0:
		what := "1 key was"
		if c.seen > 1 {
			what = fmt.Sprintf("%d keys were", c.seen)
		}
		text := "! " + what + " ignored" + lost + "."
		if send != "" {
			text += " After a pause, press " + confirm + " again to " + send + ", as shown."
		}
		out = append(out, wrapStyled(th.Warning, text, inner)...)
	}
	if c.note != "" {
		out = append(out, wrapStyled(th.Warning, "! "+c.note, inner)...)
	}
	return out
}

func (c *confirmModal) hint() string {
	cancel := keys.Label(c.km.Modal.Cancel.Keys()) + " cancel"
	if c.editing {
		done := keys.Label(c.km.Modal.LeaveField.Keys())
		if c.selected {
			return "typing replaces " + textsafe.Line(c.input.Value(), 40) + " • backspace clears • " + done + " done"
		}
		return done + " done editing • " + keys.Label(untyped(c.km.Modal.Cancel.Keys())) + " cancel"
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

// liveTitleSep separates LIVE from a confirmation's title: "LIVE · Refund
// payment 43149010".
const liveTitleSep = " · "

// titlePrefix is what the title starts with before spec.Title.
func (c *confirmModal) titlePrefix() string {
	if c.live {
		return liveLabel + liveTitleSep
	}
	return ""
}

// markLive tells the open confirmation whether the service is live, from
// the shell's description of it (LIVE unless the sandbox said it is one):
// every confirmation acts on the service, and on a live one its title says
// so again. It runs after every Update, so it reaches a confirmation
// however it opened (OpenConfirmMsg, or a dialog that became one, such as
// a create form) before it is first drawn.
func (a *App) markLive() {
	if c, ok := a.modal.(*confirmModal); ok {
		c.live = !a.desc.Sandbox
	}
}
