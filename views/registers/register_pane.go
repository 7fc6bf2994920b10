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

func (rp *registerPane) setTheme(th ui.Theme) {
	rp.theme = th
	rp.styles = xmlStyles(th)
	rp.ops.SetStyles(th.Table)
	st := textinput.DefaultStyles(th.Dark)
	if th.NoColor {
		st = textinput.Styles{}
	}
	st.Focused.Prompt = th.Accent
	st.Cursor.Blink = false
	rp.searchInput.SetStyles(st)
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

func (rp *registerPane) IsOpen() bool { return rp.open }
func (rp *registerPane) busy() bool   { return rp.open && rp.loading }

// show opens the pane on a transfer's register (in the XML view when xml).
func (rp *registerPane) show(tr backend.Transfer, xml bool) tea.Cmd {
	rp.open, rp.transfer, rp.showXML, rp.data = true, tr, xml, nil
	rp.xmlTop = 0
	rp.clearSearch()
	return rp.reload()
}

// reload reads the register again (r); nothing when the pane is closed.
func (rp *registerPane) reload() tea.Cmd {
	if !rp.open {
		return nil
	}
	ctx, st := rp.reads.Next()
	rp.loading = true
	src, id := rp.src, rp.transfer.RegisterID
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

func (rp *registerPane) close() {
	rp.reads.Stop()
	rp.open, rp.loading, rp.data = false, false, nil
	rp.ops = newOperationsTable(nil, rp.km, rp.theme)
	rp.clearSearch()
}

// update takes the pane's answers; ok is false for other messages.
func (rp *registerPane) update(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case registerMsg:
		if !rp.reads.Owns(msg.stamp) {
			return nil, false
		}
		if !rp.open || !rp.reads.Fresh(msg.stamp) {
			return nil, true
		}
		rp.loading = false
		rp.adopt(msg.data)
		return nil, true
	case operationTargetMsg:
		if !rp.reads.Owns(msg.stamp) {
			return nil, false
		}
		return rp.onTarget(msg), true
	}
	return nil, false
}

// adopt shows a register read. One whose operations could not be read
// opens on its XML, which shows how far it parses and where it breaks.
func (rp *registerPane) adopt(d *registerData) {
	if d.err != nil && tab.Cancelled(d.err) {
		return
	}
	keepTop := rp.data != nil && d.doc != nil // a reload keeps the reader's place
	rp.data = d
	if !keepTop {
		rp.xmlTop = 0
	}
	if d.err != nil && d.doc != nil && len(d.reg.Operations) == 0 {
		rp.showXML = true
	}
	cursor := rp.ops.Cursor()
	rp.ops = newOperationsTable(d.reg.Operations, rp.km, rp.theme)
	if keepTop {
		rp.ops.SetCursor(cursor) // r read the same register again: stay on the row
	}
	if rp.matches != nil && d.doc != nil {
		rp.runSearch(rp.matches.Query())
	}
	rp.layout()
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

func (rp *registerPane) context() keys.Context {
	if rp.searching {
		return keys.ContextSearch
	}
	return keys.ContextViewer
}

// available says what the pane's keys can do now.
func (rp *registerPane) available(a keys.Action) (bool, string) {
	d := rp.data
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
		case !rp.showXML && d.err != nil:
			return false, "the operations could not be read: w shows the XML, which ctrl+s saves"
		}
	case keys.ActFilter:
		if d == nil || d.doc == nil {
			return false, "there is no XML to search"
		}
	case keys.ActNextMatch, keys.ActPrevMatch:
		if rp.matches == nil || rp.matches.Len() == 0 {
			return false, "search first (/)"
		}
	case keys.ActOpen:
		if rp.showXML {
			return false, "enter opens an operation's payment from the operations view (w)"
		}
		if _, ok := rp.ops.Selected(); !ok || d == nil {
			return false, "no operation is selected"
		}
	}
	return true, ""
}

// key handles a key while the pane is open.
func (rp *registerPane) key(msg tea.KeyPressMsg, avail keys.Availability) tea.Cmd {
	if rp.searching {
		return rp.searchKey(msg)
	}
	press, ok := rp.km.Resolve(msg, rp.context(), avail)
	switch {
	case !ok:
		return nil
	case !press.Enabled:
		return tab.RefusedKey(press)
	}
	switch a := press.Action; a {
	case keys.ActClose:
		rp.back()
	case keys.ActRaw:
		rp.showXML = !rp.showXML
		rp.layout()
	case keys.ActFilter:
		// A new search starts empty: n and N repeat the last one.
		rp.showXML, rp.searching, rp.searchNote = true, true, ""
		rp.searchInput.SetValue("")
		_ = rp.searchInput.Focus() // no blink: the command would only schedule blinking
		rp.layout()
	case keys.ActNextMatch:
		rp.step(+1)
	case keys.ActPrevMatch:
		rp.step(-1)
	case keys.ActOpen:
		return rp.openOperation()
	case keys.ActExport:
		if rp.showXML {
			return rp.saveXML(rp.transfer, rp.data)
		}
		return rp.saveCSV()
	case keys.ActCopyID:
		return tab.CopyID(rp.copyTarget())
	default:
		if tab.IsMove(a) {
			rp.move(a, msg)
		}
	}
	return nil
}

// mouse handles a mouse event over the pane (which fills the tab's area):
// in the operations view the wheel scrolls the table and a click selects
// an operation; in the XML view the wheel scrolls the lines. A double
// click is a click: it opens nothing (enter opens an operation's payment).
func (rp *registerPane) mouse(msg ui.MouseMsg) tea.Cmd {
	if rp.data == nil {
		return nil
	}
	if rp.showXML {
		switch msg.Kind {
		case ui.MouseWheelUp:
			rp.xmlTop -= datatable.WheelLines
		case ui.MouseWheelDown:
			rp.xmlTop += datatable.WheelLines
		default:
			return nil
		}
		rp.xmlTop = tab.ClampOffset(rp.xmlTop, rp.xmlCount(), rp.xmlBody())
		return nil
	}
	rp.ops = tableMouse(rp.ops, msg.Shift(0, -len(rp.opsHead())))
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
func (rp *registerPane) back() {
	switch {
	case rp.matches != nil || rp.searchNote != "":
		rp.clearSearch()
	case rp.showXML && rp.data != nil && rp.data.err == nil:
		rp.showXML = false
	default:
		rp.close()
	}
	rp.layout()
}

func (rp *registerPane) copyTarget() string {
	if !rp.showXML {
		if i, ok := rp.ops.Selected(); ok && int(i) < len(rp.data.reg.Operations) {
			return rp.data.reg.Operations[i].ID
		}
	}
	return rp.transfer.RegisterID
}

// move scrolls the view shown: the operations table moves its selection,
// the XML view its first line.
func (rp *registerPane) move(a keys.Action, msg tea.KeyPressMsg) {
	if !rp.showXML {
		rp.ops, _ = rp.ops.Update(msg)
		return
	}
	body := rp.xmlBody()
	switch a {
	case keys.ActUp:
		rp.xmlTop--
	case keys.ActDown:
		rp.xmlTop++
	case keys.ActPageUp:
		rp.xmlTop -= max(body-1, 1)
	case keys.ActPageDown:
		rp.xmlTop += max(body-1, 1)
	case keys.ActTop:
		rp.xmlTop = 0
	case keys.ActBottom:
		rp.xmlTop = rp.xmlCount()
	}
	rp.xmlTop = tab.ClampOffset(rp.xmlTop, rp.xmlCount(), body)
}

// --- search ----------------------------------------------------------------------

// searchKey handles a key while the search input has the focus: enter
// searches, esc leaves the input (the last search stays), text edits it.
func (rp *registerPane) searchKey(msg tea.KeyPressMsg) tea.Cmd {
	if a, _, ok := rp.km.Lookup(msg, keys.ContextSearch); ok {
		switch a {
		case keys.ActOpen:
			rp.searching = false
			rp.searchInput.Blur()
			rp.runSearch(rp.searchInput.Value())
			rp.layout()
			return nil
		case keys.ActClose:
			rp.searching = false
			rp.searchInput.Blur()
			rp.layout()
			return nil
		case keys.ActQuit:
			return nil // the shell's
		}
	}
	var cmd tea.Cmd
	rp.searchInput, cmd = rp.searchInput.Update(msg)
	return cmd
}

// paste types pasted text into the search input when it has the focus.
func (rp *registerPane) paste(msg tea.PasteMsg) tea.Cmd {
	if !rp.open || !rp.searching {
		return nil
	}
	var cmd tea.Cmd
	rp.searchInput, cmd = rp.searchInput.Update(msg)
	return cmd
}

// runSearch finds query in the laid-out XML (within the 20 ms allowed for
// 50,000 operations, so it runs here) and shows the first match
// from the top of the view.
func (rp *registerPane) runSearch(query string) {
	rp.matches, rp.cur, rp.searchNote = nil, -1, ""
	if strings.TrimSpace(query) == "" || rp.data == nil || rp.data.doc == nil {
		return
	}
	m := rp.data.doc.Search(query)
	if m.Len() == 0 {
		rp.searchNote = "no match for \"" + textsafe.Line(query, 40) + "\""
		return
	}
	rp.matches = m
	rp.cur = m.First(rp.xmlTop)
	rp.reveal(m.Line(rp.cur))
}

// step goes to the next (+1) or previous (-1) match: from the current one
// while it is on screen, else from the lines shown.
func (rp *registerPane) step(dir int) {
	m := rp.matches
	if m == nil || m.Len() == 0 {
		return
	}
	rp.showXML = true
	top, body := rp.xmlTop, rp.xmlBody()
	onScreen := rp.cur >= 0 && m.Line(rp.cur) >= top && m.Line(rp.cur) < top+body
	switch {
	case onScreen && dir > 0:
		rp.cur = (rp.cur + 1) % m.Len()
	case onScreen:
		rp.cur = (rp.cur - 1 + m.Len()) % m.Len()
	case dir > 0:
		rp.cur = m.First(top)
	default:
		rp.cur = m.Before(top + body)
	}
	rp.reveal(m.Line(rp.cur))
}

// reveal scrolls the XML view so that line is shown, a third down the
// view when it had to move.
func (rp *registerPane) reveal(line int) {
	body := rp.xmlBody()
	if line >= rp.xmlTop && line < rp.xmlTop+body {
		return
	}
	rp.xmlTop = tab.ClampOffset(line-body/3, rp.xmlCount(), body)
}

func (rp *registerPane) clearSearch() {
	rp.matches, rp.cur, rp.searchNote, rp.searching = nil, -1, "", false
	rp.searchInput.Blur()
}

// --- operations ------------------------------------------------------------------

// openOperation opens the selected operation's payment in the Payments
// tab. A payment's operation id is the payment's; a refund's is the
// refund's, whose payment is read first (v2), or found by the order
// number when it cannot be read.
func (rp *registerPane) openOperation() tea.Cmd {
	i, ok := rp.ops.Selected()
	if !ok || rp.data == nil || int(i) >= len(rp.data.reg.Operations) {
		return nil
	}
	op := rp.data.reg.Operations[i]
	if op.OperationAmount >= 0 {
		return tab.MsgCmd(ui.SwitchTabMsg{Tab: ui.TabPayments, Then: ui.JumpMsg{Query: op.ID}})
	}
	ctx, st := rp.reads.Current()
	src := rp.src
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
func (rp *registerPane) onTarget(msg operationTargetMsg) tea.Cmd {
	if !rp.open || !rp.reads.Fresh(msg.stamp) || tab.Cancelled(msg.err) {
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
func (rp *registerPane) saveXML(tr backend.Transfer, d *registerData) tea.Cmd {
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
		src, id := rp.src, tr.RegisterID
		spec.What = "the XML as received (it is read first)"
		spec.Data = func(ctx context.Context) ([]byte, error) {
			reg, err := src.GetRegister(ctx, id)
			if len(reg.Raw) > 0 {
				return reg.Raw, nil // saved as received, even when it cannot be read
			}
			return nil, err
		}
	}
	return rp.dialogs.Open(ui.NewSave(spec, rp.km, rp.theme))
}

// saveCSV asks where to save the operations as CSV.
func (rp *registerPane) saveCSV() tea.Cmd {
	d := rp.data
	if d == nil {
		return nil
	}
	name := d.reg.Number
	if name == "" {
		name = rp.transfer.RegisterID
	}
	reg := d.reg
	spec := ui.SaveSpec{
		Title:       "Save the operations of register " + cleanName(name),
		What:        "the operations as CSV (" + money.Count(len(reg.Operations)) + " rows, amounts exact, times UTC)",
		DefaultPath: ui.SafeFileName("register-"+name+".csv", "register.csv"),
		Data:        func(context.Context) ([]byte, error) { return operationsCSV(reg), nil },
	}
	return rp.dialogs.Open(ui.NewSave(spec, rp.km, rp.theme))
}

// --- drawing ------------------------------------------------------------------------

func (rp *registerPane) setSize(w, h int) {
	rp.w, rp.h = max(w, 0), max(h, 0)
	rp.layout()
}

// layout sizes the operations table under the pane's heading lines and the
// search input; called whenever they may change, never while drawing.
func (rp *registerPane) layout() {
	rp.ops.SetSize(rp.w, max(rp.h-len(rp.opsHead()), 0))
	rp.searchInput.SetWidth(max(rp.w-len(rp.searchInput.Prompt)-1, 1))
	if rp.data != nil {
		rp.xmlTop = tab.ClampOffset(rp.xmlTop, rp.xmlCount(), rp.xmlBody())
	}
}

// lines draws the pane: exactly h lines (block pads them).
func (rp *registerPane) lines() []string {
	th := rp.theme
	if rp.data == nil {
		out := []string{rp.titleLine("", "")}
		if rp.loading {
			out = append(out, th.Muted.Render("reading register "+cleanName(rp.transfer.RegisterID)+"…"))
		}
		return out
	}
	if rp.showXML {
		return rp.xmlView()
	}
	return append(rp.opsHead(), strings.Split(rp.ops.View(), "\n")...)
}

// titleLine is the pane's first line: the register, then the transfer
// (the operations view, whose check is against it) or what the view is
// (the XML's size), and right of it the other view's key or the position.
func (rp *registerPane) titleLine(view, right string) string {
	th := rp.theme
	name := rp.transfer.RegisterID
	if rp.data != nil && rp.data.reg.Number != "" {
		name = rp.data.reg.Number
	}
	left := th.Title.Render("Register " + cleanName(name))
	if view == "" {
		left += th.Muted.Render(" · transfer of " + transferDay(rp.transfer.Created) + ", " + tab.FmtAmount(rp.transfer.Amount))
	} else {
		left += th.Muted.Render(" · ") + th.Accent.Render(view)
	}
	return spread(left, th.Muted.Render(right), rp.w)
}

// opsHead is the operations view's heading: the title, the totals check,
// and the totals of each currency.
func (rp *registerPane) opsHead() []string {
	if rp.data == nil {
		return nil
	}
	th, d := rp.theme, rp.data
	w := tab.KeyName(rp.km, keys.ActRaw, "w")
	out := []string{rp.titleLine("", w+": XML")}
	if d.err != nil {
		out = append(out, th.Danger.Render(tab.Fit("✗ Could not read the operations: "+tab.ErrText(d.err), rp.w)))
		if h := tab.HintOf(d.err); h != "" {
			out = append(out, th.Muted.Render(tab.Fit("  "+h, rp.w)))
		}
		if d.doc != nil {
			out = append(out, th.Muted.Render(tab.Fit("  "+w+" shows the answer as far as it parses", rp.w)))
		}
		return out
	}
	ok, text := d.totals.check(rp.transfer)
	style := th.Success
	if !ok {
		style = th.Danger.Bold(true)
	}
	for i, l := range ui.WrapWords(text, rp.w) {
		if i == 2 {
			break
		}
		out = append(out, style.Render(tab.Fit(l, rp.w)))
	}
	for _, total := range d.totals.lines(3) {
		for i, l := range ui.WrapWords(total, rp.w) {
			if i == 2 {
				break
			}
			out = append(out, th.Muted.Render(tab.Fit(l, rp.w)))
		}
	}
	return out
}

// xmlView draws the XML view: the title, the error and notes, the lines
// shown, and the search line.
func (rp *registerPane) xmlView() []string {
	th, d := rp.theme, rp.data
	total, body := rp.xmlCount(), rp.xmlBody()
	pos := ""
	if total > 0 {
		pos = fmt.Sprintf("lines %s–%s of %s", money.Count(rp.xmlTop+1), money.Count(min(rp.xmlTop+body, total)), money.Count(total))
	}
	size := ""
	if d.doc != nil {
		size = "XML as received, " + ui.HumanBytes(int64(len(d.doc.Raw())))
		if rp.w < 100 {
			size = "XML, " + ui.HumanBytes(int64(len(d.doc.Raw())))
		}
	}
	out := []string{rp.titleLine(size, pos)}
	out = append(out, rp.xmlNotes()...)
	if d.doc == nil {
		msg := "no XML: the service's answer had no body"
		if d.err != nil {
			msg = "✗ " + tab.ErrText(d.err)
		}
		return append(out, th.Danger.Render(tab.Fit(msg, rp.w)))
	}
	end := min(rp.xmlTop+body, total)
	out = append(out, d.doc.Lines(rp.xmlTop, end, rp.w, rp.styles, rp.matches, rp.cur)...)
	if end > d.doc.Len() { // the line after the last one laid out
		out = append(out, th.Danger.Render(tab.Fit("✗ the XML breaks off here: "+d.doc.Err().Error(), rp.w)))
	}
	for len(out) < rp.h-1 {
		out = append(out, "")
	}
	return append(out, rp.searchLine())
}

// xmlNotes are the lines above the XML: where it breaks, and what was not
// done with it (entities are never expanded).
func (rp *registerPane) xmlNotes() []string {
	d := rp.data
	if d == nil || d.doc == nil {
		return nil
	}
	var out []string
	if e := d.doc.Err(); e != nil {
		out = append(out, rp.theme.Danger.Render(tab.Fit("✗ Malformed XML, shown as far as it parses: "+e.Error(), rp.w)))
	}
	for i, n := range d.doc.Notes() {
		if i == 2 {
			break
		}
		out = append(out, rp.theme.Muted.Render(tab.Fit(n, rp.w)))
	}
	return out
}

// searchLine is the XML view's last line: the search input, the current
// match, or the keys to search.
func (rp *registerPane) searchLine() string {
	th := rp.theme
	switch {
	case rp.searching:
		return tab.Fit(rp.searchInput.View(), rp.w)
	case rp.searchNote != "":
		return th.Warning.Render(tab.Fit(rp.searchNote, rp.w))
	case rp.matches != nil && rp.cur >= 0:
		n := tab.KeyName(rp.km, keys.ActNextMatch, "n")
		prev := tab.KeyName(rp.km, keys.ActPrevMatch, "N")
		text := fmt.Sprintf("match %s of %s for \"%s\"", money.Count(rp.cur+1), money.Count(rp.matches.Len()),
			textsafe.Line(rp.matches.Query(), 40))
		return tab.Fit(th.Accent.Render(text)+th.Muted.Render(" · "+n+" next · "+prev+" previous · esc clears"), rp.w)
	}
	return th.Muted.Render(tab.Fit(tab.KeyName(rp.km, keys.ActFilter, "/")+" search · "+tab.KeyName(rp.km, keys.ActRaw, "w")+
		": operations · "+tab.KeyName(rp.km, keys.ActExport, "ctrl+s")+" save the XML", rp.w))
}

// xmlCount is how many lines the XML view scrolls through: the laid-out
// lines and, when the XML breaks off, the line that says where.
func (rp *registerPane) xmlCount() int {
	if rp.data == nil || rp.data.doc == nil {
		return 0
	}
	n := rp.data.doc.Len()
	if rp.data.doc.Err() != nil {
		n++
	}
	return n
}

// xmlBody is how many XML lines the view shows.
func (rp *registerPane) xmlBody() int {
	return max(rp.h-2-len(rp.xmlNotes()), 1)
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
