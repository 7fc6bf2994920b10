// Package registers is the Registers tab: the transfers to the merchant
// and their registers (XML) in a viewer pane, and the merchant's documents,
// through the legacy interface.
package registers

import (
	"context"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"paydash/backend"
	"paydash/backend/money"
	"paydash/backend/textsafe"
	"paydash/keys"
	"paydash/ui"
	"paydash/ui/datatable"
	"paydash/views/tab"
)

// Registers is the Registers tab (key 5): what exists only in the legacy
// interface. Its first list is the account's transfers of a period, whole
// UTC days, newest first; enter opens a transfer's register in the viewer
// pane (its operations with their totals, or its XML). d switches to the
// second list, the account's documents; enter opens one (a CSV as a
// table). ctrl+s on a list exports its rows (export.go); in a pane it saves
// the register or the document to a file.
//
// The tab keeps a period of its own (ui.PeriodKeeper): transfers come once
// a day, so it opens on the last 30 days whatever the other tabs show, and
// "p" here chooses its period alone. Transfers are the v1 account's, not
// one merchant's, so the merchant switcher does not touch it.
type Registers struct {
	src   registerSource
	keys  keys.Map
	table tab.KeyTable // every key of the tab, and when it works (keyTable)
	theme ui.Theme
	now   func() time.Time

	scope ui.Scope // the tab's own period; MerchantID is empty (the account)
	docs  bool     // the documents list is shown instead of the transfers
	// docsStarted: the documents of this period are loaded or loading;
	// they are asked for the first time d shows them, not at start.
	docsStarted bool

	transfers *tab.PagedList[backend.Transfer]
	Documents *tab.PagedList[backend.Document]
	trRoute   tab.KeyRoute[backend.Transfer]
	docRoute  tab.KeyRoute[backend.Document]

	Register *registerPane
	document *documentPane
	w, h     int

	// dialogs holds the dialog a key opens, for the shell to open at once
	// (ui.DialogOpener).
	dialogs tab.DialogSlot
}

// registerSource is what the Registers tab asks of the backend.
type registerSource interface {
	Describe() backend.Description
	Can(a backend.ActionName) (bool, string)
	ListTransfers(ctx context.Context, q backend.DayQuery) ([]backend.Transfer, error)
	GetRegister(ctx context.Context, registerID string) (backend.Register, error)
	ListDocuments(ctx context.Context, q backend.DayQuery) ([]backend.Document, error)
	GetDocument(ctx context.Context, documentID string) (backend.DocumentContent, error)
	GetRefund(ctx context.Context, id string) (backend.Refund, error)
}

// New makes the Registers tab.
func New(d tab.Deps) ui.Tab {
	t := &Registers{src: d.Backend, keys: d.Keys, theme: d.Theme, now: d.TimeNow}
	t.table = t.keyTable()
	t.transfers = tab.NewPagedList(datatable.Config[backend.Transfer]{
		ID:          func(tr backend.Transfer) string { return tr.RegisterID },
		Columns:     TransferColumns(),
		LoadingText: "Loading transfers…",
		EndText:     "— end of the period —",
		EmptyText:   "No transfers in this period (p chooses another)",
	}, d.Keys, d.Theme, func(tr backend.Transfer) time.Time { return tr.Created })
	t.transfers.FailText = "Could not load the transfers (the reason is below); press r to try again"
	t.transfers.Search = transferSearch()
	t.Documents = tab.NewPagedList(datatable.Config[backend.Document]{
		ID:          func(doc backend.Document) string { return doc.ID },
		Columns:     DocumentColumns(),
		LoadingText: "Loading documents…",
		EndText:     "— end of the period —",
		EmptyText:   "No documents in this period (p chooses another)",
	}, d.Keys, d.Theme, func(doc backend.Document) time.Time { return doc.Created })
	t.Documents.FailText = "Could not load the documents (the reason is below); press r to try again"
	t.Register = newRegisterPane(d.Backend, d.Keys, d.Theme)
	t.document = newDocumentPane(d.Backend, d.Keys, d.Theme)
	t.transfers.Dialogs, t.Documents.Dialogs = &t.dialogs, &t.dialogs
	t.Register.dialogs, t.document.dialogs = &t.dialogs, &t.dialogs
	t.trRoute = tab.KeyRoute[backend.Transfer]{Km: d.Keys, List: t.transfers, Context: t.Context, Available: t.Available,
		Open: func(tr backend.Transfer, raw bool) tea.Cmd { return t.Register.show(tr, raw) }}
	t.docRoute = tab.KeyRoute[backend.Document]{Km: d.Keys, List: t.Documents, Context: t.Context, Available: t.Available,
		Open: func(doc backend.Document, raw bool) tea.Cmd { return t.document.show(doc, raw) }}
	return t
}

// transferDay is a transfer's date: the service gives it as a UTC time.
func transferDay(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format("2006-01-02")
}

func TransferColumns() []datatable.Column[backend.Transfer] {
	return []datatable.Column[backend.Transfer]{
		{Key: "date", Title: "Date", Width: 10, Priority: 100,
			Text: func(tr backend.Transfer) string { return transferDay(tr.Created) },
			Less: func(a, b backend.Transfer) int { return a.Created.Compare(b.Created) }},
		{Key: "amount", Title: "Amount", Width: 14, Priority: 95, Align: lipgloss.Right,
			Text:  func(tr backend.Transfer) string { return money.Group(tr.Amount.Value, tr.Amount.Currency) },
			Less:  func(a, b backend.Transfer) int { return tab.CmpAmounts(a.Amount, b.Amount) },
			Group: func(tr backend.Transfer) string { return tr.Amount.Currency }},
		{Key: "currency", Title: "Cur", Width: 3, Priority: 90,
			Text: func(tr backend.Transfer) string { return tr.Amount.Currency }},
		{Key: "order", Title: "Payment order", Width: 13, MaxWidth: 24, Priority: 80,
			Text: func(tr backend.Transfer) string { return tr.PaymentOrderID },
			Less: func(a, b backend.Transfer) int { return tab.CmpIDs(a.PaymentOrderID, b.PaymentOrderID) }},
		{Key: "register", Title: "Register", Width: 10, Flex: 1, Priority: 85,
			Text: func(tr backend.Transfer) string { return tr.RegisterID },
			Less: func(a, b backend.Transfer) int { return tab.CmpIDs(a.RegisterID, b.RegisterID) }},
	}
}

func DocumentColumns() []datatable.Column[backend.Document] {
	return []datatable.Column[backend.Document]{
		{Key: "date", Title: "Created", Width: 10, Priority: 100,
			Text: func(doc backend.Document) string { return transferDay(doc.Created) },
			Less: func(a, b backend.Document) int { return a.Created.Compare(b.Created) }},
		{Key: "name", Title: "File", Width: 36, Priority: 95,
			Text: func(doc backend.Document) string { return doc.FileName }},
		{Key: "description", Title: "Description", Width: 16, Flex: 1, Priority: 80,
			Text: func(doc backend.Document) string { return doc.Description }},
		{Key: "id", Title: "ID", Width: 10, MaxWidth: 40, Priority: 60,
			Text: func(doc backend.Document) string { return doc.ID }},
	}
}

// ID implements ui.Tab.
func (rg *Registers) ID() ui.TabID { return ui.TabRegisters }

// Title implements ui.Tab.
func (rg *Registers) Title() string { return "Registers" }

// OwnScope implements ui.PeriodKeeper: the tab's own period.
func (rg *Registers) OwnScope() ui.Scope { return rg.scope }

// Init implements ui.Tab: the last 30 days, whatever the others show.
func (rg *Registers) Init(ui.Scope) tea.Cmd {
	return rg.start(ui.PresetScope("", ui.Preset30Days, rg.now().Local()))
}

// start drops what the tab shows and loads the period s.
func (rg *Registers) start(s ui.Scope) tea.Cmd {
	rg.scope = s
	rg.Register.close()
	rg.document.close()
	rg.layout()
	if rg.unavailable() != "" {
		rg.transfers.Stop()
		rg.Documents.Stop()
		return nil
	}
	rg.Documents.Stop()
	rg.docsStarted = false
	cmd := rg.transfers.Start(rg.transfersOf(dayQuery(s)), nil)
	if rg.docs {
		return tea.Batch(cmd, rg.startDocuments())
	}
	return cmd
}

// transfersOf is the list of the transfers of the days q.
func (rg *Registers) transfersOf(q backend.DayQuery) tab.Loader[backend.Transfer] {
	src := rg.src
	return func() backend.Pager[backend.Transfer] {
		return tab.OneCall(func(ctx context.Context) ([]backend.Transfer, error) {
			list, err := src.ListTransfers(ctx, q)
			sortNewestFirst(list)
			return list, err
		})
	}
}

// documentsOf is the list of the documents of the days q.
func (rg *Registers) documentsOf(q backend.DayQuery) tab.Loader[backend.Document] {
	src := rg.src
	return func() backend.Pager[backend.Document] {
		return tab.OneCall(func(ctx context.Context) ([]backend.Document, error) { return src.ListDocuments(ctx, q) })
	}
}

// roll moves a rolling period on to the service's now (a refresh's). The
// tab asks by whole days: only a new day changes what it reads, and the
// refresh then takes out what left.
func (rg *Registers) roll(now time.Time) {
	s, moved, _ := tab.Rolled(rg.scope, now)
	if !moved {
		return
	}
	before := dayQuery(rg.scope)
	rg.scope = s
	q := dayQuery(s)
	if q == before || rg.unavailable() != "" {
		return
	}
	rg.transfers.Rescope(rg.transfersOf(q), nil, [2]time.Time{}, false)
	if rg.docsStarted {
		rg.Documents.Rescope(rg.documentsOf(q), nil, [2]time.Time{}, false)
	}
}

// startDocuments loads the period's documents, once per period: they are
// asked for when d first shows them.
func (rg *Registers) startDocuments() tea.Cmd {
	if rg.docsStarted || rg.unavailable() != "" {
		return nil
	}
	rg.docsStarted = true
	return rg.Documents.Start(rg.documentsOf(dayQuery(rg.scope)), nil)
}

// dayQuery is the tab's period as the whole days it covers: the calendar
// days of its first and last instant, asked for as UTC days (the v1
// interface's dates are UTC).
func dayQuery(s ui.Scope) backend.DayQuery {
	day := func(t time.Time) time.Time {
		y, m, d := t.Date()
		return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	}
	return backend.DayQuery{From: day(s.Start), To: day(s.End.Add(-time.Nanosecond))}
}

// sortNewestFirst orders transfers newest first, as the tab shows them
// whatever order the service answered in.
func sortNewestFirst(list []backend.Transfer) {
	slices.SortStableFunc(list, func(a, b backend.Transfer) int {
		if c := b.Created.Compare(a.Created); c != 0 {
			return c
		}
		return tab.CmpIDs(b.RegisterID, a.RegisterID)
	})
}

// unavailable is why the tab cannot show anything ("" when it can): the
// legacy interface is not configured, or its login may not read registers
// (a Cashier; learned when the shell probes the login).
func (rg *Registers) unavailable() string {
	if rg.src == nil {
		return "no service is configured"
	}
	if !slices.Contains(rg.src.Describe().Interfaces, backend.V1) {
		return "Transfers, registers and documents exist only in the service's legacy (v1) interface, and paydash " +
			"has only the v2 token. Set PAYDASH_V1_LOGIN and PAYDASH_V1_PASSWORD (or v1_login and v1_password " +
			"in the config file) to an Accountant's login to see them."
	}
	if ok, why := rg.src.Can(backend.ReadRegisters); !ok {
		return "Transfers, registers and documents cannot be read with this login: " + strings.TrimSuffix(why, ".") +
			". Set PAYDASH_V1_LOGIN and PAYDASH_V1_PASSWORD (or v1_login and v1_password in the config file) " +
			"to an Accountant's login to see them."
	}
	return ""
}

// Context implements ui.Tab.
func (rg *Registers) Context() keys.Context {
	switch {
	case rg.Register.IsOpen():
		return rg.Register.context()
	case rg.document.isOpen():
		return rg.document.context()
	case rg.docs:
		return tab.ListContext(rg.Documents.Filtering, false)
	}
	return tab.ListContext(rg.transfers.Filtering, false)
}

// Status implements ui.Tab.
func (rg *Registers) Status() ui.TabStatus {
	var st ui.TabStatus
	if rg.docs {
		st = rg.Documents.Status()
	} else {
		st = rg.transfers.Status()
	}
	st.Loading = st.Loading || rg.Register.busy() || rg.document.busy()
	return st
}

// registerKeys are every key of the Registers tab: it has no actions. What
// a key does depends on the view open (the lists, a register, a
// document); keyState asks that view.
var registerKeys = []keys.Action{
	keys.ActUp, keys.ActDown, keys.ActPageUp, keys.ActPageDown, keys.ActTop, keys.ActBottom,
	keys.ActClose, keys.ActFilter, keys.ActSort, keys.ActSortReverse, keys.ActNextMatch, keys.ActPrevMatch,
	keys.ActOpen, keys.ActRaw, keys.ActCopyID, keys.ActCopyMore, keys.ActExport, keys.ActDocuments,
	keys.ActRefresh, keys.ActPeriod,
}

// keyTable is the tab's table of keys (registerKeys), each asking keyState.
func (rg *Registers) keyTable() tab.KeyTable {
	kt := make(tab.KeyTable, 0, len(registerKeys))
	for _, a := range registerKeys {
		kt = append(kt, tab.KeyAction{Key: a, When: func() (bool, string) { return rg.keyState(a) }})
	}
	return kt
}

// Available implements ui.Tab: the tab's table of keys decides.
func (rg *Registers) Available(action keys.Action) (bool, string) { return rg.table.Available(action) }

// keyState says whether a key of registerKeys works in the view open now.
func (rg *Registers) keyState(action keys.Action) (bool, string) {
	if why := rg.unavailable(); why != "" {
		switch action {
		case keys.ActPeriod, keys.ActRefresh:
			return true, ""
		case keys.ActOpen, keys.ActRaw, keys.ActCopyID, keys.ActCopyMore, keys.ActExport, keys.ActFilter, keys.ActDocuments,
			keys.ActSort, keys.ActSortReverse:
			return false, "the legacy interface is not available (see the tab)"
		}
	}
	if action == keys.ActSort || action == keys.ActSortReverse {
		if rg.Register.IsOpen() || rg.document.isOpen() {
			return false, "" // the lists sort; a pane's rows keep the service's order
		}
		return true, ""
	}
	switch {
	case rg.Register.IsOpen():
		return rg.Register.available(action)
	case rg.document.isOpen():
		return rg.document.available(action)
	}
	switch action {
	case keys.ActNextMatch, keys.ActPrevMatch:
		return false, ""
	case keys.ActExport:
		if rg.docs {
			return tab.Exportable(rg.Documents)
		}
		return tab.Exportable(rg.transfers)
	case keys.ActOpen, keys.ActRaw, keys.ActCopyID, keys.ActCopyMore:
		if !rg.hasSelection() {
			if rg.docs {
				return false, "no document is selected"
			}
			return false, "no transfer is selected"
		}
	}
	return true, ""
}

func (rg *Registers) hasSelection() bool {
	if rg.docs {
		_, ok := rg.Documents.Selected()
		return ok
	}
	_, ok := rg.transfers.Selected()
	return ok
}

// Update implements ui.Tab: each message to the part it is for.
func (rg *Registers) Update(msg tea.Msg) (ui.Tab, tea.Cmd) {
	now := rg.now()
	if paste, ok := msg.(tea.PasteMsg); ok {
		return rg, rg.paste(paste)
	}
	if cmd, _, ok := rg.transfers.Update(msg, now); ok {
		return rg, cmd
	}
	if cmd, _, ok := rg.Documents.Update(msg, now); ok {
		return rg, cmd
	}
	if cmd, ok := rg.Register.update(msg); ok {
		rg.layout()
		return rg, cmd
	}
	if cmd, ok := rg.document.update(msg); ok {
		rg.layout()
		return rg, cmd
	}
	switch msg := msg.(type) {
	case ui.MouseMsg:
		cmd := rg.mouse(msg)
		rg.layout() // a double click may open a pane
		return rg, cmd
	case tea.KeyPressMsg:
		cmd := rg.key(msg)
		rg.layout()
		return rg, cmd
	case ui.OwnScopeMsg:
		return rg, rg.start(msg.Scope)
	case ui.RefreshMsg:
		rg.roll(msg.Now)
		return rg, rg.refresh(msg.Manual)
	case ui.SizeMsg:
		rg.w, rg.h = msg.Width, msg.Height
		rg.layout()
	case ui.ThemeMsg:
		rg.theme = msg.Theme
		rg.Register.setTheme(msg.Theme)
		rg.document.setTheme(msg.Theme)
	}
	return rg, nil
}

// paste types pasted text where the focus is: the register's search,
// or the filter of the list shown.
func (rg *Registers) paste(msg tea.PasteMsg) tea.Cmd {
	switch {
	case rg.Register.IsOpen():
		return rg.Register.paste(msg)
	case rg.document.isOpen():
		return nil
	case rg.docs:
		return rg.Documents.Paste(msg)
	}
	return rg.transfers.Paste(msg)
}

// refresh reads the list shown again. A register never changes once made,
// so the periodic refresh leaves an open one alone; r reads it again.
func (rg *Registers) refresh(manual bool) tea.Cmd {
	if rg.unavailable() != "" {
		return nil
	}
	var cmds []tea.Cmd
	if rg.docs {
		cmds = append(cmds, rg.Documents.Refresh())
	} else {
		cmds = append(cmds, rg.transfers.Refresh())
	}
	if manual {
		cmds = append(cmds, rg.Register.reload(), rg.document.reload())
	}
	return tea.Batch(cmds...)
}

func (rg *Registers) key(msg tea.KeyPressMsg) tea.Cmd {
	if cmd, ok := rg.paneCopyMore(msg); ok {
		return cmd
	}
	switch {
	case rg.Register.IsOpen():
		return rg.Register.key(msg, rg.Available)
	case rg.document.isOpen():
		return rg.document.key(msg, rg.Available)
	}
	var a keys.Action
	var cmd tea.Cmd
	var handled bool
	if rg.docs {
		a, cmd, handled = rg.docRoute.Handle(msg)
	} else {
		a, cmd, handled = rg.trRoute.Handle(msg)
	}
	if handled {
		return cmd
	}
	switch a {
	case keys.ActCopyMore:
		return rg.copyMore()
	case keys.ActRefresh:
		return rg.refresh(false)
	case keys.ActDocuments:
		rg.docs = !rg.docs
		if rg.docs {
			return rg.startDocuments()
		}
	case keys.ActExport:
		// The rows shown; a register or a document is saved from its
		// pane.
		return rg.exportList()
	}
	return nil
}

// mouse handles a mouse event in the tab's area: an open pane covers the
// tab, so it takes them all (the wheel scrolls it, a click selects a row
// of its table); otherwise the list shown takes them below its heading
// line, as every list does (KeyRoute.Mouse): the wheel scrolls, a click
// selects, a double click opens the transfer's register or the document
// as enter does, never while the filter prompt has the focus.
func (rg *Registers) mouse(msg ui.MouseMsg) tea.Cmd {
	switch {
	case rg.unavailable() != "":
		return nil
	case rg.Register.IsOpen():
		return rg.Register.mouse(msg)
	case rg.document.isOpen():
		return rg.document.mouse(msg)
	}
	msg = msg.Shift(0, -1) // the heading line
	if msg.Y < 0 {
		return nil
	}
	if rg.docs {
		return rg.docRoute.Mouse(msg)
	}
	return rg.trRoute.Mouse(msg)
}

// layout sizes the lists under their heading line, and the panes.
func (rg *Registers) layout() {
	listH := max(rg.h-1, 0)
	rg.transfers.SetSize(rg.w, listH, rg.w)
	rg.Documents.SetSize(rg.w, listH, rg.w)
	rg.Register.setSize(rg.w, rg.h)
	rg.document.setSize(rg.w, rg.h)
}

// View implements ui.Tab.
func (rg *Registers) View(w, h int) string {
	if w <= 0 || h <= 0 {
		return ""
	}
	if why := rg.unavailable(); why != "" {
		return strings.Join(tab.Block(rg.unavailableLines(why, w), w, h), "\n")
	}
	switch {
	case rg.Register.IsOpen():
		return strings.Join(tab.Block(rg.Register.lines(), w, h), "\n")
	case rg.document.isOpen():
		return strings.Join(tab.Block(rg.document.lines(), w, h), "\n")
	}
	head := rg.listHead(w)
	if h == 1 {
		return head
	}
	if rg.docs {
		return head + "\n" + tab.Frame(rg.theme, rg.Documents, nil, w, h-1)
	}
	return head + "\n" + tab.Frame(rg.theme, rg.transfers, nil, w, h-1)
}

// listHead names the list shown and the other one d switches to.
func (rg *Registers) listHead(w int) string {
	th := rg.theme
	name, other := "Transfers", "documents"
	if rg.docs {
		name, other = "Documents", "transfers"
	}
	days := dayQuery(rg.scope)
	period := days.From.Format("02 Jan") + " – " + days.To.Format("02 Jan 2006") + " (UTC days)"
	d := tab.KeyName(rg.keys, keys.ActDocuments, "d")
	head := th.Title.Render(name) + th.Muted.Render(" of the v1 account · "+period+" · "+d+": "+other)
	return tab.Fit(head, w)
}

func (rg *Registers) unavailableLines(why string, w int) []string {
	th := rg.theme
	out := []string{th.Title.Render("Transfers, registers and documents"), ""}
	for _, l := range ui.WrapWords(why, max(w-2, 10)) {
		out = append(out, th.Warning.Render(l))
	}
	return out
}

// cleanName is a server's name for a heading, one line.
func cleanName(s string) string { return textsafe.Line(s, 80) }

// TakeDialog implements ui.DialogOpener.
func (rg *Registers) TakeDialog() (ui.OpenDialogMsg, bool) { return rg.dialogs.Take() }
