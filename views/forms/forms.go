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
// and draws it with View inside its dialog. It watches State to know when
// the form is done:
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
// the form, so they cannot be mistaken for the dashboard's own (a spinner
// tick, another text input's blink) or reach a form opened later. The
// focus moves within Update (nav.go): a key read after enter goes to the
// next field, and a key read after the enter that submits reaches no field.
package forms

import (
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"charm.land/bubbles/v2/help"
	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
	"github.com/charmbracelet/x/ansi"

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

// Msg carries one of a form's own messages (the cursor's blink, a field's
// refresh) back to it. Route every Msg to the open form's Update; a Msg of a
// form that is no longer open is ignored by the next one.
type Msg struct {
	form  uint64
	inner tea.Msg
}

// ForModal implements ui.ModalMsg: the shell gives a form's messages to
// the open dialog.
func (Msg) ForModal() {}

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

// Init focuses the first field. Its command also asks the runtime for the
// window size (huh does); the WindowSizeMsg goes to the dashboard as usual.
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

// View draws the form in width×height cells, never more: which page of
// how many (or the form's title, when it is all on one page), the page's
// fields, and the keys that work on the focused field (below 6 lines, the
// fields only). When the size changes it plans the pages again (as many
// fields a page as fit: layout.go) and lays huh out again. A form on
// several pages takes the whole height, so that its size does not change
// from page to page; a form on one page takes only the lines it needs. A
// form that is no longer being edited draws nothing.
func (f *Form) View(width, height int) string {
	if width <= 0 || height <= 0 || f.state != Editing {
		return ""
	}
	chrome := 3 // header, a blank line, the help line
	if height < 6 {
		chrome = 0
	}
	bodyH := height - chrome
	if width != f.width || bodyH != f.height {
		f.repage(width, bodyH)
		f.layout(width, bodyH)
	}
	body := f.hf.View()
	if len(f.pages) == 1 { // its lines and a blank one above the keys
		bodyH = min(bodyH, f.contentHeight(0)+1)
	}
	var lines []string
	if chrome > 0 {
		lines = append(lines, f.header(), "")
	}
	bl := strings.Split(body, "\n")
	for i := range bodyH {
		line := ""
		if i < len(bl) {
			line = bl[i]
		}
		lines = append(lines, line)
	}
	if chrome > 0 {
		lines = append(lines, f.helpLine(width))
	}
	for i, l := range lines {
		if f.d.Theme.NoColor {
			l = dropColours(l)
		}
		if ansi.StringWidth(l) > width {
			l = ansi.Truncate(l, width, "")
		}
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}

// layout sizes huh's groups and fields and redraws their content.
func (f *Form) layout(width, bodyH int) {
	f.width, f.height = width, bodyH
	f.hf.WithWidth(width).WithHeight(bodyH)
	f.refresh()
}

// refresh redraws the page's content: huh rebuilds it only in Update.
func (f *Form) refresh() { f.hf.Update(relayoutMsg{}) }

type relayoutMsg struct{}

func (f *Form) header() string {
	t := f.d.Theme
	i := f.pageIndex()
	title := f.pages[i].title
	if title == "" { // a page of several sections, each under its heading
		title = f.title
	}
	if len(f.pages) == 1 {
		return t.Title.Render(title)
	}
	return t.Title.Render(title) + t.Muted.Render(" · page "+itoa(i+1)+" of "+itoa(len(f.pages)))
}

// helpLine lists the focused field's keys (huh's, as enabled for its
// position) and esc; keys are dropped from the end to fit, esc never.
func (f *Form) helpLine(width int) string {
	st := f.d.Theme.Help
	var items []string
	for _, b := range f.hf.KeyBinds() {
		h := b.Help()
		if !b.Enabled() || h.Key == "" {
			continue
		}
		items = append(items, st.Key.Render(h.Key)+" "+st.Desc.Render(h.Desc))
	}
	esc := st.Key.Render("esc") + " " + st.Desc.Render("cancel")
	sep := st.Separator.Render(" • ")
	for {
		line := strings.Join(append(items[:len(items):len(items)], esc), sep)
		if ansi.StringWidth(line) <= width || len(items) == 0 {
			return line
		}
		items = items[:len(items)-1]
	}
}

func helpStyles(t ui.Theme) help.Styles {
	return help.Styles{
		Ellipsis: t.Help.Ellipsis,
		ShortKey: t.Help.Key, ShortDesc: t.Help.Desc, ShortSeparator: t.Help.Separator,
		FullKey: t.Help.Key, FullDesc: t.Help.Desc, FullSeparator: t.Help.Separator,
	}
}

// dropColours removes the colour parameters from the SGR sequences in s
// and keeps the attributes (bold, reverse, …). huh gives a blurred text
// input the text input's own default colours, which no huh theme reaches;
// with NoColor they must go.
func dropColours(s string) string {
	if !strings.Contains(s, "\x1b[") {
		return s
	}
	return sgrSeq.ReplaceAllStringFunc(s, func(seq string) string {
		params := seq[2 : len(seq)-1]
		if params == "" {
			return seq
		}
		var keep []string
		ps := strings.Split(params, ";")
		for i := 0; i < len(ps); i++ {
			p := ps[i]
			n, err := strconv.Atoi(p)
			switch {
			case err != nil: // "38:5:240" and other colon forms: a colour
				if !strings.HasPrefix(p, "38:") && !strings.HasPrefix(p, "48:") && !strings.HasPrefix(p, "58:") {
					keep = append(keep, p)
				}
			case n == 38 || n == 48 || n == 58:
				if i+1 < len(ps) && ps[i+1] == "5" {
					i += 2
				} else if i+1 < len(ps) && ps[i+1] == "2" {
					i += 4
				}
			case n >= 30 && n <= 49, n == 59, n >= 90 && n <= 107:
			default:
				keep = append(keep, p)
			}
		}
		if len(keep) == 0 {
			return ""
		}
		return "\x1b[" + strings.Join(keep, ";") + "m"
	})
}

var sgrSeq = regexp.MustCompile(`\x1b\[[0-9;:]*m`)

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

// --- the form's own messages ---------------------------------------------

// tag makes the messages of cmd come back as this form's Msg. Batches and
// sequences are tagged one command at a time, so that the runtime still
// runs them as batches and sequences. Messages that are not huh's or its
// widgets' (a request to the runtime, such as the window size huh asks for
// on Init) go out untagged.
func (f *Form) tag(cmd tea.Cmd) tea.Cmd {
	return tagCmd(f.id, cmd)
}

// skipCmd, when set (by tests), drops commands before they run.
var skipCmd func(tea.Cmd) bool

func tagCmd(id uint64, cmd tea.Cmd) tea.Cmd {
	if cmd == nil {
		return nil
	}
	return func() tea.Msg {
		if skipCmd != nil && skipCmd(cmd) {
			return nil
		}
		return tagMsg(id, cmd())
	}
}

func tagMsg(id uint64, msg tea.Msg) tea.Msg {
	switch m := msg.(type) {
	case nil:
		return nil
	case tea.BatchMsg:
		out := make(tea.BatchMsg, 0, len(m))
		for _, c := range m {
			if c != nil {
				out = append(out, tagCmd(id, c))
			}
		}
		return out
	}
	if cmds, ok := sequence(msg); ok {
		var out []tea.Cmd
		for _, c := range cmds {
			if c != nil {
				out = append(out, tagCmd(id, c))
			}
		}
		switch len(out) {
		case 0:
			return nil
		case 1:
			return out[0]()
		}
		return tea.Sequence(out...)()
	}
	if !owned(msg) {
		return msg
	}
	return Msg{form: id, inner: msg}
}

var cmdType = reflect.TypeFor[tea.Cmd]()

// sequence recognises tea.Sequence's message (its type is unexported): a
// slice of commands that is not a BatchMsg.
func sequence(msg tea.Msg) ([]tea.Cmd, bool) {
	v := reflect.ValueOf(msg)
	if v.Kind() != reflect.Slice || v.Type().Elem() != cmdType {
		return nil, false
	}
	return v.Convert(reflect.TypeFor[[]tea.Cmd]()).Interface().([]tea.Cmd), true
}

// owned: a message of huh or of the Bubbles widgets inside it.
func owned(msg tea.Msg) bool {
	t := reflect.TypeOf(msg)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	p := t.PkgPath()
	return strings.HasPrefix(p, "charm.land/huh/") || strings.HasPrefix(p, "charm.land/bubbles/")
}

func itoa(n int) string { return strconv.Itoa(n) }
