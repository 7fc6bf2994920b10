// Package forms holds the create forms of the dashboard: a payment link
// (POST /api/v2/invoices), a sticker (POST /api/v2/stickers) and a
// tokenization link (POST /api/v2/tokenization). Each is a huh form made of
// sections, laid out on as few pages as the window allows: all on one page
// where it fits, a section a page in the dashboard's smallest (80×24), and
// planned again on every resize (layout.go); every field is checked before the form can be
// submitted and the problem written under the field, in words a support
// person can act on. A submitted form gives the request for the backend
// (without its idempotency key, which the action layer adds) and Summary,
// the lines the confirmation dialog shows before anything is sent.
//
// A Form is a component, not a tea.Model: the dashboard calls Init once,
// routes key presses, pastes and the form's own messages (Msg) to Update,
// and draws it with View inside its dialog (view.go). It watches State to
// know when the form is done:
//
//	case forms.Msg, tea.KeyPressMsg, tea.PasteMsg:
//		cmd := m.form.Update(msg)
//		switch m.form.State() {
//		case forms.Submitted: // m.form.Invoice() / Sticker() / Tokenization(), m.form.Summary()
//		case forms.Aborted: // close the dialog
//		}
//
// Update ignores every other message, so passing it more does no harm.
// huh's and its widgets' messages come back wrapped in Msg, tagged with
// the form (messages.go), so they cannot be mistaken for the dashboard's
// own (a spinner tick, another text input's blink) or reach a form opened
// later. The focus moves within Update (nav.go): a key read after enter
// goes to the next field, and a key read after the enter that submits
// reaches no field.
package forms

import (
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"

	"paydash/backend"
	"paydash/backend/money"
	"paydash/ui"
)

// Defaults are what a form starts from.
type Defaults struct {
	MerchantID string           // sent as merchantId; the forms do not ask for it
	Currency   string           // the payment link's preselected currency; "RUB" when empty or not an ISO code
	Now        func() time.Time // the clock (expiry checks and relative expiries); time.Now when nil
	Theme      ui.Theme
}

// State is where a form is.
type State int

const (
	Editing   State = iota // being filled in
	Submitted              // filled in and valid: the request is ready
	Aborted                // left with esc (or ctrl+c): nothing is to be sent
)

func (s State) String() string {
	switch s {
	case Editing:
		return "editing"
	case Submitted:
		return "submitted"
	case Aborted:
		return "aborted"
	}
	return "unknown"
}

type kind int

const (
	kindInvoice kind = iota
	kindSticker
	kindTokenization
)

var formIDs atomic.Uint64

// Form is one create form.
type Form struct {
	kind  kind
	id    uint64
	d     Defaults
	title string
	state State

	hf       *huh.Form
	sections []page        // the form's sections, as build made them
	plan     []pagePlan    // how the sections are laid out on pages (layout.go)
	pages    []page        // huh's groups: the plan's pages
	checks   []fieldCheck  // every field's check, in section order
	build    func() []page // makes the sections' fields, bound to the values below
	started  bool          // Init was called
	pending  tea.Cmd       // commands of a layout made in View, for the next Update

	width, height int // the size huh was last laid out for (body height)

	inv   invoiceValues
	stk   stickerValues
	tok   tokenizationValues
	done  any      // the request, once Submitted
	lines []string // Summary, once Submitted
}

// fieldCheck checks a field's current value.
type fieldCheck struct {
	key string
	run func() error
}

// page is a section of a form, or one huh group: a title and its fields.
type page struct {
	title  string
	fields []*field
}

// NewInvoiceLink is the form for a payment link.
func NewInvoiceLink(d Defaults) *Form {
	f := newForm(kindInvoice, "New payment link", d)
	f.inv.currency = f.d.Currency
	f.build = f.invoicePages
	f.rebuild()
	return f
}

// NewSticker is the form for a sticker.
func NewSticker(d Defaults) *Form {
	f := newForm(kindSticker, "New sticker", d)
	f.stk.stickerType = stickerTypeSbp
	f.build = f.stickerPages
	f.rebuild()
	return f
}

// NewTokenizationLink is the form for a tokenization link.
func NewTokenizationLink(d Defaults) *Form {
	f := newForm(kindTokenization, "New tokenization link", d)
	f.build = f.tokenizationPages
	f.rebuild()
	return f
}

func newForm(k kind, title string, d Defaults) *Form {
	if d.Now == nil {
		d.Now = time.Now
	}
	d.Currency = strings.ToUpper(strings.TrimSpace(d.Currency))
	if !money.ValidCurrency(d.Currency) {
		d.Currency = "RUB"
	}
	return &Form{kind: k, id: formIDs.Add(1), d: d, title: title}
}

// rebuild makes a fresh huh form over the current values, laid out on
// pages as planned (one page per section while no plan is made).
func (f *Form) rebuild() {
	f.checks = nil
	f.sections = f.build()
	if f.plan == nil {
		f.plan = sectionPlan(f.sections)
	}
	f.pages = f.planPages()
	groups := make([]*huh.Group, len(f.pages))
	for i, p := range f.pages {
		fields := make([]huh.Field, len(p.fields))
		for j, w := range p.fields {
			w.style, w.hintS = f.d.Theme.Danger, f.d.Theme.Muted
			fields[j] = w
		}
		groups[i] = huh.NewGroup(fields...).WithShowHelp(false).WithShowErrors(false)
	}
	f.hf = huh.NewForm(groups...).
		WithTheme(huhTheme(f.d.Theme)).
		WithKeyMap(keyMap()).
		WithShowHelp(false).
		WithShowErrors(false).
		WithAccessible(false) // huh turns it on for TERM=dumb; it matters only to huh's own Run
	f.width, f.height = 0, 0
}

// Title names the form for its dialog: "New payment link", …
func (f *Form) Title() string { return f.title }

// State tells whether the form is being edited, submitted or aborted.
func (f *Form) State() State { return f.state }

// Init focuses the first field. huh's request for the window size that
// comes with it is dropped (messages.go): the dashboard gives the form its
// size.
func (f *Form) Init() tea.Cmd {
	f.started = true
	return f.tag(f.hf.Init())
}

// Update takes key presses, pastes and the form's own messages; anything
// else is ignored. esc leaves the form (Aborted). When the last field is
// done the whole form is checked again (an expiry may have passed since it
// was typed): if all is well the form is Submitted, if not it stays open on
// the field at fault, with the reason under it.
func (f *Form) Update(msg tea.Msg) tea.Cmd {
	if f.state != Editing {
		return nil
	}
	if f.pending != nil {
		pending := f.tag(f.pending)
		f.pending = nil
		return tea.Batch(pending, f.Update(msg))
	}
	switch m := msg.(type) {
	case Msg:
		if m.form != f.id {
			return nil
		}
		msg = m.inner
	case tea.KeyPressMsg:
		if m.String() == "esc" {
			f.state = Aborted
			return nil
		}
	case tea.PasteMsg:
		content, ok := cleanPaste(m.Content)
		if !ok {
			if w := f.focused(); w != nil {
				w.ext = errPaste
				f.refresh()
			}
			return nil
		}
		msg = tea.PasteMsg{Content: content}
	default:
		return nil
	}
	_, cmd := f.hf.Update(msg)
	cmd = f.settle(cmd) // the focus moves now, before the next key (nav.go)
	switch f.hf.State {
	case huh.StateAborted: // huh's own quit key, ctrl+c
		f.state = Aborted
		return nil
	case huh.StateCompleted:
		return f.tag(tea.Batch(cmd, f.finish()))
	}
	return f.tag(cmd)
}

// finish builds the request from the values, checked once more now.
func (f *Form) finish() tea.Cmd {
	for _, c := range f.checks {
		if err := c.run(); err != nil {
			return f.reopen(c.key, err)
		}
	}
	now := f.d.Now()
	var (
		bad string
		err error
	)
	switch f.kind {
	case kindInvoice:
		var r backend.InvoiceLinkRequest
		if r, bad, err = f.invoiceRequest(now); err == nil {
			f.done, f.lines = r, invoiceSummary(r)
		}
	case kindSticker:
		var r backend.StickerRequest
		if r, bad, err = f.stickerRequest(); err == nil {
			f.done, f.lines = r, stickerSummary(r)
		}
	case kindTokenization:
		r := f.tokenizationRequest()
		f.done, f.lines = r, tokenizationSummary(r)
	}
	if err != nil {
		return f.reopen(bad, err)
	}
	f.state = Submitted
	return nil
}

// reopen starts the form again over the same values, on the page and field
// with the given key, showing err under it.
func (f *Form) reopen(fieldKey string, err error) tea.Cmd {
	width, height := f.width, f.height
	f.rebuild()
	if width > 0 && height > 0 {
		f.layout(width, height)
	}
	cmd := f.restart(fieldKey)
	if target, _ := f.fieldByKey(fieldKey); target != nil {
		target.ext = err
		f.refresh()
	}
	return cmd
}

func keyOf(w *field) string {
	if w == nil {
		return ""
	}
	return w.key
}

func (f *Form) fieldByKey(k string) (*field, int) {
	for i, p := range f.pages {
		for _, w := range p.fields {
			if w.key == k {
				return w, i
			}
		}
	}
	return nil, -1
}

// focused is the field with the focus (huh's), nil if none.
func (f *Form) focused() *field {
	w, _ := f.hf.GetFocusedField().(*field)
	return w
}

// pageIndex is the page of the focused field.
func (f *Form) pageIndex() int {
	_, p := f.fieldByKey(keyOf(f.focused()))
	return max(p, 0)
}

// Invoice is the payment link request; ok only when the form is a
// submitted payment link form.
func (f *Form) Invoice() (backend.InvoiceLinkRequest, bool) {
	r, ok := f.done.(backend.InvoiceLinkRequest)
	return r, ok && f.state == Submitted
}

// Sticker is the sticker request; ok only when the form is a submitted
// sticker form.
func (f *Form) Sticker() (backend.StickerRequest, bool) {
	r, ok := f.done.(backend.StickerRequest)
	return r, ok && f.state == Submitted
}

// Tokenization is the tokenization link request; ok only when the form is
// a submitted tokenization form.
func (f *Form) Tokenization() (backend.TokenizationLinkRequest, bool) {
	r, ok := f.done.(backend.TokenizationLinkRequest)
	return r, ok && f.state == Submitted
}

// Summary is what will be sent, one "Label: value" a line, for the
// confirmation dialog: every member of the request as it goes out (amounts
// as "1,500.00 RUB", an expiry as local time and UTC). Members left empty
// are not sent and not listed. Nil until the form is Submitted.
func (f *Form) Summary() []string {
	if f.state != Submitted {
		return nil
	}
	return append([]string(nil), f.lines...)
}

// --- pastes ---------------------------------------------------------------

var errPaste = errString("paste one line of plain text, without line breaks or control codes")

type errString string

func (e errString) Error() string { return string(e) }

// cleanPaste drops the line breaks and tabs around a paste (a line copied
// from a terminal or a spreadsheet ends with one) and refuses a paste with
// control characters inside, rather than letting the text input quietly
// turn them into spaces or drop them. Spaces are kept: a paste may go into
// the middle of a value (the value is trimmed when it is checked).
func cleanPaste(s string) (string, bool) {
	s = strings.Trim(s, "\r\n\t")
	return s, plainText(s)
}

func itoa(n int) string { return strconv.Itoa(n) }
