package ui

import (
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"paydash/backend/money"
	"paydash/backend/textsafe"
	"paydash/keys"
)

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
// ignoredKeys implements the shell's ignoredCounter.
func (c *confirmModal) ignoredKeys() (int, string) { return c.swallowed, c.why }

func (c *confirmModal) ignore(msg tea.Msg, why string) {
	if c.wouldEdit(msg) {
		c.lostEdit = true
	}
	c.swallow(why)
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

// markLive tells the open confirmation whether the service is live, from
// the shell's description of it (LIVE unless the sandbox said it is one):
// every confirmation acts on the service, and on a live one its title says
// so again. It runs after every Update, so it reaches a confirmation
// however it opened (OpenDialogMsg with a Confirm, or a dialog that became one, such as
// a create form) before it is first drawn.
func (app *App) markLive() {
	if c, ok := app.modal.(*confirmModal); ok {
		c.live = !app.desc.Sandbox
	}
}
