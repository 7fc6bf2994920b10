package registers

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"paydash/backend"
	"paydash/backend/money"
	"paydash/backend/textsafe"
	"paydash/keys"
	"paydash/ui"
	"paydash/ui/datatable"
	"paydash/ui/xmlview"
	"paydash/views/tab"
)

// registerPane is the viewer of one transfer's register, in two views that
// w switches: its operations, with their totals checked against the
// transfer, and its XML as received, laid out one element a line,
// highlighted and searchable. Everything heavy (the read, the layout of
// the XML, the totals) happens in the command that reads it; Update only
// adopts the result, so a register of 50,000 operations opens without the
// screen stalling.
type registerPane struct {
	src   registerSource
	km    keys.Map
	theme ui.Theme

	open     bool
	transfer backend.Transfer // the list's row: what the register is checked against
	reads    tab.Reader       // the register's read: older answers are dropped
	loading  bool
	data     *registerData // nil until read
	showXML  bool

	ops    datatable.Model[int32] // the operations, by index into data.reg.Operations
	xmlTop int                    // the first XML line shown
	styles xmlview.Styles

	searchInput textinput.Model
	searching   bool // the search input has the focus
	matches     *xmlview.Matches
	cur         int    // the current match, -1: none
	searchNote  string // "no match for …", shown where the match count goes

	w, h    int
	dialogs *tab.DialogSlot // the tab's: the save dialog opens through it at once
}

// registerData is a register as read, made ready for the screen in the
// command that read it.
type registerData struct {
	reg    backend.Register
	err    error        // the read failed; reg.Raw may still hold the answer
	doc    *xmlview.Doc // the XML laid out; nil when there is no body
	totals registerTotals
}

type registerMsg struct {
	stamp tab.Stamp
	data  *registerData
}

// operationTargetMsg is where enter on a refund's row leads, found in a
// command: its payment, or its order number when the payment is unknown.
type operationTargetMsg struct {
	stamp tab.Stamp
	jump  string
	toast string
	err   error
}

func newRegisterPane(src registerSource, km keys.Map, th ui.Theme) *registerPane {
	p := &registerPane{src: src, km: km, cur: -1}
	p.searchInput = textinput.New()
	p.searchInput.Prompt = "/ "
	p.searchInput.Placeholder = "search the XML"
	p.searchInput.CharLimit = 200
	p.ops = newOperationsTable(nil, km, th)
	p.setTheme(th)
	return p
}

func (p *registerPane) setTheme(th ui.Theme) {
	p.theme = th
	p.styles = xmlStyles(th)
	p.ops.SetStyles(th.Table)
	st := textinput.DefaultStyles(th.Dark)
	if th.NoColor {
		st = textinput.Styles{}
	}
	st.Focused.Prompt = th.Accent
	st.Cursor.Blink = false
	p.searchInput.SetStyles(st)
}

// xmlStyles colours the XML from the theme, so NO_COLOR stays plain; the
// matches are reversed, which needs no colour.
func xmlStyles(th ui.Theme) xmlview.Styles {
	return xmlview.Styles{
		Tag: th.Muted, Name: th.Accent.UnsetBold(), AttrName: th.Warning, AttrValue: th.Success,
		Text: th.Text, Comment: th.Muted.Italic(true), Punct: th.Muted, Entity: th.Warning, Error: th.Danger,
		Match: lipgloss.NewStyle().Reverse(true), Current: lipgloss.NewStyle().Reverse(true).Bold(true).Underline(true),
	}
}

func (p *registerPane) IsOpen() bool { return p.open }
func (p *registerPane) busy() bool   { return p.open && p.loading }

// show opens the pane on a transfer's register (in the XML view when xml).
func (p *registerPane) show(tr backend.Transfer, xml bool) tea.Cmd {
	p.open, p.transfer, p.showXML, p.data = true, tr, xml, nil
	p.xmlTop = 0
	p.clearSearch()
	return p.reload()
}

// reload reads the register again (r); nothing when the pane is closed.
func (p *registerPane) reload() tea.Cmd {
	if !p.open {
		return nil
	}
	ctx, st := p.reads.Next()
	p.loading = true
	src, id := p.src, p.transfer.RegisterID
	return func() tea.Msg {
		return registerMsg{stamp: st, data: readRegister(ctx, src, id)}
	}
}

// readRegister reads a register and prepares it: the XML laid out and the
// operations added up. It runs in a command.
func readRegister(ctx context.Context, src registerSource, id string) *registerData {
	reg, err := src.GetRegister(ctx, id)
	d := &registerData{reg: reg, err: err, totals: totalsOf(reg.Operations)}
	if len(reg.Raw) > 0 {
		d.doc = xmlview.Parse(reg.Raw)
	}
	return d
}

func (p *registerPane) close() {
	p.reads.Stop()
	p.open, p.loading, p.data = false, false, nil
	p.ops = newOperationsTable(nil, p.km, p.theme)
	p.clearSearch()
}

// update takes the pane's answers; ok is false for other messages.
func (p *registerPane) update(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case registerMsg:
		if !p.reads.Owns(msg.stamp) {
			return nil, false
		}
		if !p.open || !p.reads.Fresh(msg.stamp) {
			return nil, true
		}
		p.loading = false
		p.adopt(msg.data)
		return nil, true
	case operationTargetMsg:
		if !p.reads.Owns(msg.stamp) {
			return nil, false
		}
		return p.onTarget(msg), true
	}
	return nil, false
}

// adopt shows a register read. One whose operations could not be read
// opens on its XML, which shows how far it parses and where it breaks.
func (p *registerPane) adopt(d *registerData) {
	if d.err != nil && tab.Cancelled(d.err) {
		return
	}
	keepTop := p.data != nil && d.doc != nil // a reload keeps the reader's place
	p.data = d
	if !keepTop {
		p.xmlTop = 0
	}
	if d.err != nil && d.doc != nil && len(d.reg.Operations) == 0 {
		p.showXML = true
	}
	cursor := p.ops.Cursor()
	p.ops = newOperationsTable(d.reg.Operations, p.km, p.theme)
	if keepTop {
		p.ops.SetCursor(cursor) // r read the same register again: stay on the row
	}
	if p.matches != nil && d.doc != nil {
		p.runSearch(p.matches.Query())
	}
	p.layout()
}

func newOperationsTable(ops []backend.Operation, km keys.Map, th ui.Theme) datatable.Model[int32] {
	text := func(f func(*backend.Operation) string) func(int32) string {
		return func(i int32) string { return f(&ops[i]) }
	}
	cols := []datatable.Column[int32]{
		{Key: "id", Title: "Operation", Width: 10, MaxWidth: 24, Priority: 100, Text: text(func(o *backend.Operation) string { return o.ID })},
		{Key: "kind", Title: "Kind", Width: 7, Priority: 92, Text: text(operationKind)},
		{Key: "site", Title: "Site", Width: 6, Priority: 40, Text: text(func(o *backend.Operation) string { return o.SiteAlias })},
		{Key: "invoice", Title: "Invoice", Width: 16, MaxWidth: 32, Priority: 70,
			Text: text(func(o *backend.Operation) string { return o.InvoiceID })},
		{Key: "time", Title: "Time (UTC)", Width: 12, Priority: 80, Text: text(func(o *backend.Operation) string {
			if o.Stamp.IsZero() {
				return ""
			}
			// The year is the register's; the seconds are in the XML and the CSV.
			return o.Stamp.UTC().Format(tab.ListTimeLayout)
		})},
		{Key: "currency", Title: "Cur", Width: 3, Priority: 50, Text: text(func(o *backend.Operation) string { return o.Currency })},
		{Key: "amount", Title: "Amount", Width: 13, Priority: 95, Align: lipgloss.Right,
			Text: text(func(o *backend.Operation) string { return money.Group(o.OperationAmount, o.Currency) })},
		{Key: "transfer", Title: "To transfer", Width: 13, Priority: 90, Align: lipgloss.Right,
			Text: text(func(o *backend.Operation) string { return money.Group(o.TransferAmount, o.Currency) })},
	}
	m := datatable.New(datatable.Config[int32]{
		ID:      func(i int32) string { return strconv.Itoa(int(i)) },
		Columns: cols,
		// The XML view is where a register is searched; the table keeps no
		// text to filter, so 50,000 rows cost only their index.
		FilterText: func(int32) string { return "" },
		Styles:     th.Table,
		EmptyText:  "The register lists no operations",
		EndText:    "— end of the register —",
	})
	m.KeyMap = tab.TableKeys(km)
	rows := make([]int32, len(ops))
	for i := range rows {
		rows[i] = int32(i)
	}
	m.SetRows(rows)
	m.SetEnd(true)
	return m
}

// operationKind: a register lists payments with positive amounts and
// refunds with negative ones.
func operationKind(o *backend.Operation) string {
	if o.OperationAmount < 0 {
		return "refund"
	}
	return "payment"
}

// --- keys ----------------------------------------------------------------------

func (p *registerPane) context() keys.Context {
	if p.searching {
		return keys.ContextSearch
	}
	return keys.ContextViewer
}

// available says what the pane's keys can do now.
func (p *registerPane) available(a keys.Action) (bool, string) {
	d := p.data
	switch a {
	case keys.ActDocuments:
		return false, ""
	case keys.ActRaw, keys.ActExport, keys.ActCopyID:
		if d == nil {
			return false, "the register is being read"
		}
		switch {
		case a != keys.ActExport:
		case d.doc == nil && d.err != nil:
			return false, "the register could not be read; r reads it again"
		case !p.showXML && d.err != nil:
			return false, "the operations could not be read: w shows the XML, which ctrl+s saves"
		}
	case keys.ActFilter:
		if d == nil || d.doc == nil {
			return false, "there is no XML to search"
		}
	case keys.ActNextMatch, keys.ActPrevMatch:
		if p.matches == nil || p.matches.Len() == 0 {
			return false, "search first (/)"
		}
	case keys.ActOpen:
		if p.showXML {
			return false, "enter opens an operation's payment from the operations view (w)"
		}
		if _, ok := p.ops.Selected(); !ok || d == nil {
			return false, "no operation is selected"
		}
	}
	return true, ""
}

// key handles a key while the pane is open.
func (p *registerPane) key(msg tea.KeyPressMsg, avail keys.Availability) tea.Cmd {
	if p.searching {
		return p.searchKey(msg)
	}
	press, ok := p.km.Resolve(msg, p.context(), avail)
	switch {
	case !ok:
		return nil
	case !press.Enabled:
		return tab.RefusedKey(press)
	}
	switch a := press.Action; a {
	case keys.ActClose:
		p.back()
	case keys.ActRaw:
		p.showXML = !p.showXML
		p.layout()
	case keys.ActFilter:
		// A new search starts empty: n and N repeat the last one.
		p.showXML, p.searching, p.searchNote = true, true, ""
		p.searchInput.SetValue("")
		_ = p.searchInput.Focus() // no blink: the command would only schedule blinking
		p.layout()
	case keys.ActNextMatch:
		p.step(+1)
	case keys.ActPrevMatch:
		p.step(-1)
	case keys.ActOpen:
		return p.openOperation()
	case keys.ActExport:
		if p.showXML {
			return p.saveXML(p.transfer, p.data)
		}
		return p.saveCSV()
	case keys.ActCopyID:
		return tab.CopyID(p.copyTarget())
	default:
		if tab.IsMove(a) {
			p.move(a, msg)
		}
	}
	return nil
}

// mouse handles a mouse event over the pane (which fills the tab's area):
// in the operations view the wheel scrolls the table and a click selects
// an operation; in the XML view the wheel scrolls the lines. A double
// click is a click: it opens nothing (enter opens an operation's payment).
func (p *registerPane) mouse(msg ui.MouseMsg) tea.Cmd {
	if p.data == nil {
		return nil
	}
	if p.showXML {
		switch msg.Kind {
		case ui.MouseWheelUp:
			p.xmlTop -= datatable.WheelLines
		case ui.MouseWheelDown:
			p.xmlTop += datatable.WheelLines
		default:
			return nil
		}
		p.xmlTop = tab.ClampOffset(p.xmlTop, p.xmlCount(), p.xmlBody())
		return nil
	}
	p.ops = tableMouse(p.ops, msg.Shift(0, -len(p.opsHead())))
	return nil
}

// tableMouse gives a table of a pane a mouse event at its own coordinates
// (its header is line 0): the wheel scrolls it wherever the pointer is in
// the pane, a click selects the row under it.
func tableMouse[T any](tb datatable.Model[T], msg ui.MouseMsg) datatable.Model[T] {
	switch msg.Kind {
	case ui.MouseClick, ui.MouseDoubleClick:
		if msg.X < 0 || msg.X >= tb.Width() || msg.Y < 0 || msg.Y >= tb.Height() {
			return tb
		}
	}
	tb, _ = tb.Update(msg.Tea())
	return tb
}

// back is esc: it backs out one step at a time: the search's matches, the
// XML view, then the pane.
func (p *registerPane) back() {
	switch {
	case p.matches != nil || p.searchNote != "":
		p.clearSearch()
	case p.showXML && p.data != nil && p.data.err == nil:
		p.showXML = false
	default:
		p.close()
	}
	p.layout()
}

func (p *registerPane) copyTarget() string {
	if !p.showXML {
		if i, ok := p.ops.Selected(); ok && int(i) < len(p.data.reg.Operations) {
			return p.data.reg.Operations[i].ID
		}
	}
	return p.transfer.RegisterID
}

// move scrolls the view shown: the operations table moves its selection,
// the XML view its first line.
func (p *registerPane) move(a keys.Action, msg tea.KeyPressMsg) {
	if !p.showXML {
		p.ops, _ = p.ops.Update(msg)
		return
	}
	body := p.xmlBody()
	switch a {
	case keys.ActUp:
		p.xmlTop--
	case keys.ActDown:
		p.xmlTop++
	case keys.ActPageUp:
		p.xmlTop -= max(body-1, 1)
	case keys.ActPageDown:
		p.xmlTop += max(body-1, 1)
	case keys.ActTop:
		p.xmlTop = 0
	case keys.ActBottom:
		p.xmlTop = p.xmlCount()
	}
	p.xmlTop = tab.ClampOffset(p.xmlTop, p.xmlCount(), body)
}

// --- search ----------------------------------------------------------------------

// searchKey handles a key while the search input has the focus: enter
// searches, esc leaves the input (the last search stays), text edits it.
func (p *registerPane) searchKey(msg tea.KeyPressMsg) tea.Cmd {
	if a, _, ok := p.km.Lookup(msg, keys.ContextSearch); ok {
		switch a {
		case keys.ActOpen:
			p.searching = false
			p.searchInput.Blur()
			p.runSearch(p.searchInput.Value())
			p.layout()
			return nil
		case keys.ActClose:
			p.searching = false
			p.searchInput.Blur()
			p.layout()
			return nil
		case keys.ActQuit:
			return nil // the shell's
		}
	}
	var cmd tea.Cmd
	p.searchInput, cmd = p.searchInput.Update(msg)
	return cmd
}

// paste types pasted text into the search input when it has the focus.
func (p *registerPane) paste(msg tea.PasteMsg) tea.Cmd {
	if !p.open || !p.searching {
		return nil
	}
	var cmd tea.Cmd
	p.searchInput, cmd = p.searchInput.Update(msg)
	return cmd
}

// runSearch finds query in the laid-out XML (within the 20 ms allowed for
// 50,000 operations, so it runs here) and shows the first match
// from the top of the view.
func (p *registerPane) runSearch(query string) {
	p.matches, p.cur, p.searchNote = nil, -1, ""
	if strings.TrimSpace(query) == "" || p.data == nil || p.data.doc == nil {
		return
	}
	m := p.data.doc.Search(query)
	if m.Len() == 0 {
		p.searchNote = "no match for \"" + textsafe.Line(query, 40) + "\""
		return
	}
	p.matches = m
	p.cur = m.First(p.xmlTop)
	p.reveal(m.Line(p.cur))
}

// step goes to the next (+1) or previous (-1) match: from the current one
// while it is on screen, else from the lines shown.
func (p *registerPane) step(dir int) {
	m := p.matches
	if m == nil || m.Len() == 0 {
		return
	}
	p.showXML = true
	top, body := p.xmlTop, p.xmlBody()
	onScreen := p.cur >= 0 && m.Line(p.cur) >= top && m.Line(p.cur) < top+body
	switch {
	case onScreen && dir > 0:
		p.cur = (p.cur + 1) % m.Len()
	case onScreen:
		p.cur = (p.cur - 1 + m.Len()) % m.Len()
	case dir > 0:
		p.cur = m.First(top)
	default:
		p.cur = m.Before(top + body)
	}
	p.reveal(m.Line(p.cur))
}

// reveal scrolls the XML view so that line is shown, a third down the
// view when it had to move.
func (p *registerPane) reveal(line int) {
	body := p.xmlBody()
	if line >= p.xmlTop && line < p.xmlTop+body {
		return
	}
	p.xmlTop = tab.ClampOffset(line-body/3, p.xmlCount(), body)
}

func (p *registerPane) clearSearch() {
	p.matches, p.cur, p.searchNote, p.searching = nil, -1, "", false
	p.searchInput.Blur()
}

// --- operations ------------------------------------------------------------------

// openOperation opens the selected operation's payment in the Payments
// tab. A payment's operation id is the payment's; a refund's is the
// refund's, whose payment is read first (v2), or found by the order
// number when it cannot be read.
func (p *registerPane) openOperation() tea.Cmd {
	i, ok := p.ops.Selected()
	if !ok || p.data == nil || int(i) >= len(p.data.reg.Operations) {
		return nil
	}
	op := p.data.reg.Operations[i]
	if op.OperationAmount >= 0 {
		return tab.MsgCmd(ui.SwitchTabMsg{Tab: ui.TabPayments, Then: ui.JumpMsg{Query: op.ID}})
	}
	ctx, st := p.reads.Current()
	src := p.src
	return func() tea.Msg {
		r, err := src.GetRefund(ctx, op.ID)
		switch {
		case err == nil && r.PaymentID != "":
			return operationTargetMsg{stamp: st, jump: r.PaymentID}
		case op.InvoiceID != "":
			return operationTargetMsg{stamp: st, jump: op.InvoiceID,
				toast: "Refund " + textsafe.Line(op.ID, 30) + " cannot be read here; looking for its payment by order number " +
					textsafe.Line(op.InvoiceID, 40)}
		case err == nil:
			err = fmt.Errorf("refund %s names no payment", textsafe.Line(op.ID, 30))
		}
		return operationTargetMsg{stamp: st, err: err}
	}
}

// onTarget goes to the refund's payment, unless the register was closed
// or read again meanwhile: then the user has moved on.
func (p *registerPane) onTarget(msg operationTargetMsg) tea.Cmd {
	if !p.open || !p.reads.Fresh(msg.stamp) || tab.Cancelled(msg.err) {
		return nil
	}
	if msg.err != nil {
		return tab.ToastCmd(ui.ToastError, "Could not find the refund's payment: "+tab.ErrText(msg.err))
	}
	var note tea.Cmd
	if msg.toast != "" {
		note = tab.ToastCmd(ui.ToastInfo, msg.toast)
	}
	return tea.Batch(note, tab.MsgCmd(ui.SwitchTabMsg{Tab: ui.TabPayments, Then: ui.JumpMsg{Query: msg.jump}}))
}

// --- saving ------------------------------------------------------------------------

// saveXML asks where to save a register's XML as received: the one read
// (d) or, from the list, read for the purpose.
func (p *registerPane) saveXML(tr backend.Transfer, d *registerData) tea.Cmd {
	name := tr.RegisterID
	if d != nil && d.reg.Number != "" {
		name = d.reg.Number
	}
	spec := ui.SaveSpec{
		Title:       "Save register " + cleanName(name),
		DefaultPath: ui.SafeFileName("register-"+name+".xml", "register.xml"),
	}
	if d != nil && len(d.reg.Raw) > 0 {
		raw := d.reg.Raw
		spec.What = "the XML as received, " + ui.HumanBytes(int64(len(raw)))
		spec.Data = func(context.Context) ([]byte, error) { return raw, nil }
	} else {
		src, id := p.src, tr.RegisterID
		spec.What = "the XML as received (it is read first)"
		spec.Data = func(ctx context.Context) ([]byte, error) {
			reg, err := src.GetRegister(ctx, id)
			if len(reg.Raw) > 0 {
				return reg.Raw, nil // saved as received, even when it cannot be read
			}
			return nil, err
		}
	}
	return p.dialogs.Open(ui.NewSave(spec, p.km, p.theme))
}

// saveCSV asks where to save the operations as CSV.
func (p *registerPane) saveCSV() tea.Cmd {
	d := p.data
	if d == nil {
		return nil
	}
	name := d.reg.Number
	if name == "" {
		name = p.transfer.RegisterID
	}
	reg := d.reg
	spec := ui.SaveSpec{
		Title:       "Save the operations of register " + cleanName(name),
		What:        "the operations as CSV (" + money.Count(len(reg.Operations)) + " rows, amounts exact, times UTC)",
		DefaultPath: ui.SafeFileName("register-"+name+".csv", "register.csv"),
		Data:        func(context.Context) ([]byte, error) { return operationsCSV(reg), nil },
	}
	return p.dialogs.Open(ui.NewSave(spec, p.km, p.theme))
}

// --- drawing ------------------------------------------------------------------------

func (p *registerPane) setSize(w, h int) {
	p.w, p.h = max(w, 0), max(h, 0)
	p.layout()
}

// layout sizes the operations table under the pane's heading lines and the
// search input; called whenever they may change, never while drawing.
func (p *registerPane) layout() {
	p.ops.SetSize(p.w, max(p.h-len(p.opsHead()), 0))
	p.searchInput.SetWidth(max(p.w-len(p.searchInput.Prompt)-1, 1))
	if p.data != nil {
		p.xmlTop = tab.ClampOffset(p.xmlTop, p.xmlCount(), p.xmlBody())
	}
}

// lines draws the pane: exactly h lines (block pads them).
func (p *registerPane) lines() []string {
	th := p.theme
	if p.data == nil {
		out := []string{p.titleLine("", "")}
		if p.loading {
			out = append(out, th.Muted.Render("reading register "+cleanName(p.transfer.RegisterID)+"…"))
		}
		return out
	}
	if p.showXML {
		return p.xmlView()
	}
	return append(p.opsHead(), strings.Split(p.ops.View(), "\n")...)
}

// titleLine is the pane's first line: the register, then the transfer
// (the operations view, whose check is against it) or what the view is
// (the XML's size), and right of it the other view's key or the position.
func (p *registerPane) titleLine(view, right string) string {
	th := p.theme
	name := p.transfer.RegisterID
	if p.data != nil && p.data.reg.Number != "" {
		name = p.data.reg.Number
	}
	left := th.Title.Render("Register " + cleanName(name))
	if view == "" {
		left += th.Muted.Render(" · transfer of " + transferDay(p.transfer.Created) + ", " + tab.FmtAmount(p.transfer.Amount))
	} else {
		left += th.Muted.Render(" · ") + th.Accent.Render(view)
	}
	return spread(left, th.Muted.Render(right), p.w)
}

// opsHead is the operations view's heading: the title, the totals check,
// and the totals of each currency.
func (p *registerPane) opsHead() []string {
	if p.data == nil {
		return nil
	}
	th, d := p.theme, p.data
	w := tab.KeyName(p.km, keys.ActRaw, "w")
	out := []string{p.titleLine("", w+": XML")}
	if d.err != nil {
		out = append(out, th.Danger.Render(tab.Fit("✗ Could not read the operations: "+tab.ErrText(d.err), p.w)))
		if h := tab.HintOf(d.err); h != "" {
			out = append(out, th.Muted.Render(tab.Fit("  "+h, p.w)))
		}
		if d.doc != nil {
			out = append(out, th.Muted.Render(tab.Fit("  "+w+" shows the answer as far as it parses", p.w)))
		}
		return out
	}
	ok, text := d.totals.check(p.transfer)
	style := th.Success
	if !ok {
		style = th.Danger.Bold(true)
	}
	for i, l := range ui.WrapWords(text, p.w) {
		if i == 2 {
			break
		}
		out = append(out, style.Render(tab.Fit(l, p.w)))
	}
	for _, total := range d.totals.lines(3) {
		for i, l := range ui.WrapWords(total, p.w) {
			if i == 2 {
				break
			}
			out = append(out, th.Muted.Render(tab.Fit(l, p.w)))
		}
	}
	return out
}

// xmlView draws the XML view: the title, the error and notes, the lines
// shown, and the search line.
func (p *registerPane) xmlView() []string {
	th, d := p.theme, p.data
	total, body := p.xmlCount(), p.xmlBody()
	pos := ""
	if total > 0 {
		pos = fmt.Sprintf("lines %s–%s of %s", money.Count(p.xmlTop+1), money.Count(min(p.xmlTop+body, total)), money.Count(total))
	}
	size := ""
	if d.doc != nil {
		size = "XML as received, " + ui.HumanBytes(int64(len(d.doc.Raw())))
		if p.w < 100 {
			size = "XML, " + ui.HumanBytes(int64(len(d.doc.Raw())))
		}
	}
	out := []string{p.titleLine(size, pos)}
	out = append(out, p.xmlNotes()...)
	if d.doc == nil {
		msg := "no XML: the service's answer had no body"
		if d.err != nil {
			msg = "✗ " + tab.ErrText(d.err)
		}
		return append(out, th.Danger.Render(tab.Fit(msg, p.w)))
	}
	end := min(p.xmlTop+body, total)
	out = append(out, d.doc.Lines(p.xmlTop, end, p.w, p.styles, p.matches, p.cur)...)
	if end > d.doc.Len() { // the line after the last one laid out
		out = append(out, th.Danger.Render(tab.Fit("✗ the XML breaks off here: "+d.doc.Err().Error(), p.w)))
	}
	for len(out) < p.h-1 {
		out = append(out, "")
	}
	return append(out, p.searchLine())
}

// xmlNotes are the lines above the XML: where it breaks, and what was not
// done with it (entities are never expanded).
func (p *registerPane) xmlNotes() []string {
	d := p.data
	if d == nil || d.doc == nil {
		return nil
	}
	var out []string
	if e := d.doc.Err(); e != nil {
		out = append(out, p.theme.Danger.Render(tab.Fit("✗ Malformed XML, shown as far as it parses: "+e.Error(), p.w)))
	}
	for i, n := range d.doc.Notes() {
		if i == 2 {
			break
		}
		out = append(out, p.theme.Muted.Render(tab.Fit(n, p.w)))
	}
	return out
}

// searchLine is the XML view's last line: the search input, the current
// match, or the keys to search.
func (p *registerPane) searchLine() string {
	th := p.theme
	switch {
	case p.searching:
		return tab.Fit(p.searchInput.View(), p.w)
	case p.searchNote != "":
		return th.Warning.Render(tab.Fit(p.searchNote, p.w))
	case p.matches != nil && p.cur >= 0:
		n := tab.KeyName(p.km, keys.ActNextMatch, "n")
		prev := tab.KeyName(p.km, keys.ActPrevMatch, "N")
		text := fmt.Sprintf("match %s of %s for \"%s\"", money.Count(p.cur+1), money.Count(p.matches.Len()),
			textsafe.Line(p.matches.Query(), 40))
		return tab.Fit(th.Accent.Render(text)+th.Muted.Render(" · "+n+" next · "+prev+" previous · esc clears"), p.w)
	}
	return th.Muted.Render(tab.Fit(tab.KeyName(p.km, keys.ActFilter, "/")+" search · "+tab.KeyName(p.km, keys.ActRaw, "w")+
		": operations · "+tab.KeyName(p.km, keys.ActExport, "ctrl+s")+" save the XML", p.w))
}

// xmlCount is how many lines the XML view scrolls through: the laid-out
// lines and, when the XML breaks off, the line that says where.
func (p *registerPane) xmlCount() int {
	if p.data == nil || p.data.doc == nil {
		return 0
	}
	n := p.data.doc.Len()
	if p.data.doc.Err() != nil {
		n++
	}
	return n
}

// xmlBody is how many XML lines the view shows.
func (p *registerPane) xmlBody() int {
	return max(p.h-2-len(p.xmlNotes()), 1)
}

// spread puts left and right on one line of w cells, right right-aligned;
// left is cut to leave right room, unless that would leave left too
// little (then right goes).
func spread(left, right string, w int) string {
	rw := ansi.StringWidth(right)
	if right == "" || w-rw-2 < 24 {
		return tab.Fit(left, w)
	}
	if ansi.StringWidth(left) > w-rw-2 {
		left = tab.Fit(left, w-rw-2)
	}
	return left + strings.Repeat(" ", w-ansi.StringWidth(left)-rw) + right
}
