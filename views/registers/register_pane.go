package registers

import (
	"context"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"paydash/backend"
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
//
// This file reads and holds the register; the rest of the pane is in
// register_operations.go (the operations table, and where enter on one
// leads), register_keys.go (keys and mouse), register_search.go (the XML
// view's search), register_save.go (ctrl+s) and register_view.go
// (drawing).
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
