package tab

import (
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"paydash/backend/action"
	"paydash/backend/money"
	"paydash/backend/textsafe"
	"paydash/keys"
	"paydash/ui"
	"paydash/ui/qr"
	"paydash/views/forms"
)

// The creates (n): a payment link on the Payments tab, a sticker on the
// Stickers tab, a card-saving (tokenization) link on the Tokens tab.
//
//	n        the shell shows the preparing dialog; the tab answers with the
//	         form in its place (ui.OpenDialogMsg);
//	submit   every field is checked (views/forms); the form becomes the
//	         confirmation of exactly the request it built, with its
//	         idempotency key fixed, so that what is sent is what was shown;
//	y        the tracker journals and sends it (track.go); a lost answer is
//	         found out by sending the same key again;
//	done     a dialog shows the address made and its QR code; y copies it.

// createKind is what one tab creates.
type createKind struct {
	form  func(forms.Defaults) *forms.Form
	Build func(*forms.Form) (action.Request, bool) // the request of a submitted form
	what  string                                   // "payment link", for the dialog's title
}

var (
	CreateInvoice = createKind{forms.NewInvoiceLink, func(f *forms.Form) (action.Request, bool) {
		r, ok := f.Invoice()
		return action.NewCreateInvoice(r), ok
	}, "payment link"}
	CreateSticker = createKind{forms.NewSticker, func(f *forms.Form) (action.Request, bool) {
		r, ok := f.Sticker()
		return action.NewCreateSticker(r), ok
	}, "sticker"}
	CreateTokenization = createKind{forms.NewTokenizationLink, func(f *forms.Form) (action.Request, bool) {
		r, ok := f.Tokenization()
		return action.NewCreateTokenization(r), ok
	}, "card-saving link"}
)

// OpenCreate answers the n key's ActionMsg with the form in place of the
// preparing dialog.
func OpenCreate(ticket int, k createKind, d forms.Defaults, km keys.Map, acts *Tracker) tea.Cmd {
	m := &FormModal{Form: k.form(d), Kind: k, km: km, th: d.Theme, acts: acts}
	return MsgCmd(ui.OpenDialogMsg{Ticket: ticket, Modal: m})
}

// FormDefaults are what a create form starts from in scope s.
func FormDefaults(s ui.Scope, th ui.Theme, now func() time.Time) forms.Defaults {
	return forms.Defaults{MerchantID: s.MerchantID, Now: now, Theme: th}
}

// FormModal is a create form in a dialog. It takes every key (the fields
// are typed into) until it is submitted, then becomes the confirmation.
type FormModal struct {
	Form *forms.Form
	Kind createKind
	km   keys.Map
	th   ui.Theme
	acts *Tracker
}

func (m *FormModal) Init() tea.Cmd { return m.Form.Init() }

// Context implements ui.Modal: the form's fields take the keys.
func (m *FormModal) Context() keys.Context { return keys.ContextForm }

// Update implements ui.Modal.
func (m *FormModal) Update(msg tea.Msg, now time.Time) (ui.Modal, tea.Cmd, bool) {
	cmd := m.Form.Update(msg)
	switch m.Form.State() {
	case forms.Aborted:
		return m, nil, true
	case forms.Submitted:
		req, ok := m.Kind.Build(m.Form)
		if !ok {
			return m, nil, true
		}
		// The form submits within the Update of the key that submits it
		// (views/forms/nav.go), so the confirmation is the dialog from the
		// very next key on: keys typed in the same burst reach it as it
		// appears, and it ignores and counts them; no field takes them.
		return ui.NewConfirm(m.ConfirmSpec(req), now, m.km, m.th), nil, false
	}
	return m, cmd, false
}

// ConfirmSpec is the confirmation of a create: the form's summary of the
// request, and a Confirm that sends that very request.
func (m *FormModal) ConfirmSpec(req action.Request) ui.ConfirmSpec {
	lines := append(m.Form.Summary(),
		"Sent through: v2 (the current interface), once: a retry sends the same idempotency key")
	spec := ui.ConfirmSpec{
		Title: "Create this " + m.Kind.what + "?",
		Lines: lines,
		Verb:  "Create",
	}
	if req.Amount.Value.IsPositive() {
		amount := req.Amount
		spec.Fixed = &amount
	}
	acts := m.acts
	spec.Confirm = func(money.Amount) tea.Cmd { return acts.Send(req) }
	spec.Approval = acts.ApprovalNote(req.Kind)
	return spec
}

// formWidth is the widest a form is drawn: room for a long address in a
// field, and no wider, so that a field's title stays near its value.
const formWidth = 96

// View implements ui.Modal: the form in a box as tall as the screen allows
// (the form puts as many fields on a page as fit there, all of them where
// it can, and is then only as tall as they are) and up to formWidth wide.
func (m *FormModal) View(maxWidth, maxHeight int) string {
	w := max(min(maxWidth-4, formWidth), 20)
	h := max(maxHeight-2, 4)
	return ui.Box(m.th, strings.Split(m.Form.View(w, h), "\n"))
}

// --- the result -------------------------------------------------------------

// CreatedDialog opens, after a create was made, the dialog that shows the
// address and its QR code; nil when the outcome has no address.
// What it shows is the kind's (action.Kind.Created).
func CreatedDialog(req action.Request, out action.Outcome, km keys.Map, th ui.Theme) tea.Cmd {
	c, ok := action.KindOf(req.Kind).Created(req, out)
	if !ok || c.Link == "" {
		return nil
	}
	return MsgCmd(ui.OpenDialogMsg{Modal: &ResultModal{Title: c.Title, Facts: c.Facts, Link: c.Link, Km: km, Th: th}})
}

// ResultModal shows what a create made: the address, and its QR code for
// a phone; y copies the address, esc or enter closes it.
type ResultModal struct {
	Title  string
	Facts  []string
	Link   string
	Km     keys.Map
	Th     ui.Theme
	copied bool
}

func (m *ResultModal) Context() keys.Context { return keys.ContextResult }

func (m *ResultModal) Update(msg tea.Msg, _ time.Time) (ui.Modal, tea.Cmd, bool) {
	press, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return m, nil, false
	}
	act, _, _ := m.Km.Lookup(press, keys.ContextResult)
	switch {
	case act == keys.ActModalConfirm:
		m.copied = true
		return m, tea.SetClipboard(m.Link), false
	case act == keys.ActModalCancel, press.String() == "enter", press.String() == "q":
		return m, nil, true
	}
	return m, nil, false
}

// View implements ui.Modal: the facts, the address (wrapped, never cut),
// the QR code and the keys. When the screen is short (80×24) the code gets
// the narrower quiet zone phones still read, then the facts and the keys
// share the title's line; only if even that does not fit does the dialog
// say how much taller the window must be. (A sticker's SBP link of about
// 100 bytes needs 24 lines even so: at 80×24 it asks for 3 more.)
func (m *ResultModal) View(maxWidth, maxHeight int) string {
	th := m.Th
	inner := max(maxWidth-4, 20)
	room := maxHeight - 2 // the border
	var link []string
	for _, l := range strings.Split(ansi.Hardwrap(textsafe.Clean(m.Link), inner, false), "\n") {
		link = append(link, th.Accent.Render(l))
	}
	hint := "y copy the address · esc close"
	if m.copied {
		hint = "sent to the terminal's clipboard · esc close"
	}
	head := []string{th.Title.Render(m.Title)}
	for _, f := range m.Facts {
		head = append(head, ansi.Truncate(f, inner, "…"))
	}
	head = append(head, link...)
	tail := []string{th.Muted.Render(hint)}

	c, err := qr.Encode(m.Link)
	if err != nil {
		return ui.Box(th, concat(head, []string{th.Danger.Render("no QR code: " + ErrText(err))}, tail))
	}
	full, narrow := qr.Options{}, qr.Options{Quiet: 2}
	for _, o := range []qr.Options{full, narrow} {
		if len(head)+c.HeightWith(o)+len(tail) <= room && c.WidthWith(o) <= inner {
			return ui.Box(th, concat(head, c.Draw(o, QRLook(th)), tail))
		}
	}
	if small, err := qr.EncodeCompact(m.Link); err == nil {
		c = small
	}
	short := append([]string{ansi.Truncate(th.Title.Render(m.Title)+th.Muted.Render(" · "+hint), inner, "…")}, link...)
	if len(short)+c.HeightWith(narrow) <= room && c.WidthWith(narrow) <= inner {
		return ui.Box(th, concat(short, c.Draw(narrow, QRLook(th))))
	}
	need := len(short) + c.HeightWith(narrow) - room
	warn := th.Warning.Render(ansi.Truncate("The QR code needs "+strconv.Itoa(need)+" more lines: make the window taller.", inner, "…"))
	return ui.Box(th, concat(head, []string{warn}, tail))
}

func concat(parts ...[]string) []string {
	var out []string
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// QRLook is what the theme knows of the terminal, for drawing a QR code
// (ui/qr, Code.Draw): black on white where colours may be used, else in the
// terminal's own colours the right way round for its background.
func QRLook(th ui.Theme) qr.Look { return qr.Look{Colour: !th.NoColor, Dark: th.Dark} }
