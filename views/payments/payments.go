package payments

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"paydash/backend"
	"paydash/backend/action"
	"paydash/backend/known"
	"paydash/backend/textsafe"
	"paydash/keys"
	"paydash/ui"
	"paydash/ui/datatable"
	"paydash/views/search"
	"paydash/views/tab"
)

// Payments is the Payments tab: a merchant's payments of the period, a
// detail pane, jump by id or order number, and the actions capture, cancel
// hold and refund, each behind a confirmation and written to the journal
// (actions.go).
type Payments struct {
	tab.ListTab[backend.Payment] // the list, the pane, the actions and the keys
	src                          paymentSource

	// refunds are the refunds of the payment in the pane, read beside it.
	refunds paneRefunds

	// orders finds a loaded payment by its order number (lower-cased), the
	// newest when several share one.
	orders map[string]string

	// jump is the search for a payment (":", jump.go).
	jump jumpState

	// via is the interface that carries the actions.
	via backend.Interface
	// memo remembers the tokens the payments read used, for the Tokens tab;
	// tokenMerchant is the merchant of a token revoked from the pane.
	memo          tab.TokenMemo
	tokenMerchant map[string]string
	// paneToken is the read of the pane's payment's token: its id, and
	// what went wrong (its state goes to memo).
	paneToken struct {
		id  string
		err error
	}
}

// paymentSource is what the Payments tab asks of the backend (the actions
// go through action.Runner).
type paymentSource interface {
	Can(a backend.ActionName) (bool, string)
	GetToken(ctx context.Context, id string) (backend.Token, error)
	ListPayments(q backend.PeriodQuery) backend.Pager[backend.Payment]
	FilterPayments(q backend.PeriodQuery, f backend.PaymentFilter) (backend.Pager[backend.Payment], bool)
	GetPayment(ctx context.Context, id string) (backend.Payment, error)
	RefundsOfPayment(ctx context.Context, p backend.Payment) ([]backend.Refund, error)
}

// paneRefunds are the refunds of the payment in the pane.
type paneRefunds struct {
	items   []backend.Refund
	loading bool
	loaded  bool
	err     error
}

// payRefundsMsg brings the refunds of the payment in the pane; gen is the
// pane's read generation.
type payRefundsMsg struct {
	stamp   tab.Stamp // the pane's read it was asked in
	refunds []backend.Refund
	err     error
}

// New makes the Payments tab.
func New(d tab.Deps) ui.Tab {
	t := &Payments{
		src:           d.Backend,
		orders:        map[string]string{},
		via:           action.Carrier(d.Backend),
		memo:          tab.NewTokenMemo(d),
		tokenMerchant: map[string]string{},
	}
	cols := PaymentColumns(t.rowAction)
	cfg := datatable.Config[backend.Payment]{
		ID:          func(p backend.Payment) string { return p.ID },
		Columns:     cols,
		FilterText:  paymentHaystack(cols),
		LoadingText: "Loading more payments…",
		EndText:     "— end of the period —",
		EmptyText:   "No payments in this period",
		// Where else to look when a search finds nothing: a payment of
		// another period, by its id or order number, or a longer period.
		NoMatchText: "No match · " + tab.KeyName(d.Keys, keys.ActJump, ":") + " finds an id or order number in any period · " +
			tab.KeyName(d.Keys, keys.ActPeriod, "p") + " a longer period",
	}
	list := tab.NewPagedList(cfg, d.Keys, d.Theme, tab.PaymentTime)
	list.Search = paymentSearch()
	if !slices.Contains(d.Backend.Describe().Interfaces, backend.V1) {
		why := "only the legacy interface (v1) gives a payment's customer, and it is not configured"
		list.Search.Unavailable = map[string]string{"email": why, "phone": why}
	}
	list.Narrow = t.narrowed
	list.FailText = "Could not load this period (the reason is below); press r to try again"
	pane := tab.NewDetail(t.readPayment, t.DetailLines, func(p backend.Payment) []string { return paymentRawLines(p, t.Theme) })
	t.ListTab = tab.NewListTab(d, list, pane)
	t.Acts = tab.NewTracker(t.Owner, d, func(ref tab.ObjectRef) {
		if ref.Kind == "payment" {
			t.List.Table.Redraw(ref.ID)
		}
	})
	t.Keys = t.keyTable()
	t.Hooks = tab.ListHooks[backend.Payment]{Rows: t.rowsCame, Pane: t.paneRead, ReadAgain: t.onTokenRead,
		Outcome: func(over tab.OutcomeMsg) tea.Cmd { return tea.Batch(t.showOutcome(over), tab.Changed(t.Owner, over)) }}
	t.Wire(tab.KeyRoute[backend.Payment]{Open: t.openDetail, ClosePane: t.closeDetail})
	t.Acts.Adopt(d.Pending, backend.ActionCapture, backend.ActionCancelHold, backend.ActionRefund,
		backend.ActionCreateInvoice)
	return t
}

// rowAction is what the status column shows instead of the status while
// an action is under way on the payment ("→ refunding", "? checking"), ""
// when none is.
func (t *Payments) rowAction(p backend.Payment) string { return t.Acts.RowMark(tab.PaymentRef(p.ID)) }

// PaymentColumns are the list's columns; rowAction (nil: none) overrides
// the status while an action is under way on a payment.
func PaymentColumns(rowAction func(backend.Payment) string) []datatable.Column[backend.Payment] {
	status := func(p backend.Payment) string {
		if rowAction != nil {
			if a := rowAction(p); a != "" {
				return a
			}
		}
		return paymentStatusText(p.Status)
	}
	return []datatable.Column[backend.Payment]{
		{Key: "id", Title: "ID", Width: 8, MaxWidth: 24, Priority: 100,
			Text: func(p backend.Payment) string { return p.ID },
			Less: func(a, b backend.Payment) int { return tab.CmpIDs(a.ID, b.ID) }},
		{Key: "created", Title: "Created", Width: 12, Priority: 60,
			Text: func(p backend.Payment) string { return tab.FmtListTime(tab.PaymentTime(p)) },
			Less: func(a, b backend.Payment) int { return tab.PaymentTime(a).Compare(tab.PaymentTime(b)) }},
		{Key: "status", Title: "Status", Width: 10, MaxWidth: 16, Priority: 90,
			Text: status,
			Tone: func(p backend.Payment) datatable.Tone {
				if rowAction != nil {
					return tab.MarkedTone(rowAction(p), tab.PaymentTone(p.Status))
				}
				return tab.PaymentTone(p.Status)
			},
			Less: func(a, b backend.Payment) int { return cmp.Compare(a.Status, b.Status) }},
		{Key: "amount", Title: "Amount", Width: 10, MaxWidth: 18, Priority: 90, Align: lipgloss.Right,
			Text:  func(p backend.Payment) string { return tab.FmtAmount(p.Amount) },
			Less:  func(a, b backend.Payment) int { return tab.CmpAmounts(a.Amount, b.Amount) },
			Group: func(p backend.Payment) string { return p.Amount.Currency }},
		{Key: "order", Title: "Order", Width: 10, MaxWidth: 24, Priority: 50,
			Text: func(p backend.Payment) string { return p.OrderNo },
			Less: func(a, b backend.Payment) int { return cmp.Compare(a.OrderNo, b.OrderNo) }},
		{Key: "description", Title: "Description", Width: 8, Flex: 1, Priority: 80,
			Text: func(p backend.Payment) string { return p.Description },
			Less: func(a, b backend.Payment) int { return cmp.Compare(a.Description, b.Description) }},
		{Key: "instrument", Title: "Instrument", Width: 16, Priority: 40,
			Text: func(p backend.Payment) string { return p.InstrumentTitle },
			Less: func(a, b backend.Payment) int { return cmp.Compare(a.InstrumentTitle, b.InstrumentTitle) }},
	}
}

// ID implements ui.Tab.
func (t *Payments) ID() ui.TabID { return ui.TabPayments }

// Title implements ui.Tab.
func (t *Payments) Title() string { return "Payments" }

// Init implements ui.Tab: the first load, and the finding out of what an
// earlier run left without an outcome.
func (t *Payments) Init(s ui.Scope) tea.Cmd {
	return tea.Batch(t.start(s), t.Acts.Resume())
}

// start drops the old scope's list, pane and search and loads the new one.
func (t *Payments) start(s ui.Scope) tea.Cmd {
	t.Scope = s
	t.closeDetail()
	t.stopJump()
	clear(t.orders)
	t.Layout()
	t.List.Span = [2]time.Time{s.Start, s.End}
	return t.List.Start(t.listOf(s))
}

// listOf is the list of the scope's payments, and which rows read
// elsewhere belong to it.
func (t *Payments) listOf(s ui.Scope) (tab.Loader[backend.Payment], func(backend.Payment) bool) {
	q := tab.PeriodQuery(s)
	return func() backend.Pager[backend.Payment] { return t.src.ListPayments(q) },
		func(p backend.Payment) bool { return tab.InScope(s, p.MerchantID, tab.PaymentTime(p)) }
}

// roll moves a rolling period on to the service's now (a refresh's): the
// list reads up to now from here on, and rows older than its start leave.
func (t *Payments) roll(now time.Time) {
	s, moved, startMoved := tab.Rolled(t.Scope, now)
	if !moved {
		return
	}
	t.Scope = s
	load, belongs := t.listOf(s)
	t.List.Rescope(load, belongs, [2]time.Time{s.Start, s.End}, startMoved)
}

// narrowed is the list the service selects for a search, when it can
// (the legacy interface's listPaymentsFilter: one state, one order
// number), with the key that tells one such list from another; "" when it
// cannot, and the list reads the whole period.
func (t *Payments) narrowed(q search.Query) (tab.Loader[backend.Payment], string) {
	var f backend.PaymentFilter
	if c, ok := q.Cond("status"); ok {
		for _, v := range c.Values {
			f.Statuses = append(f.Statuses, paymentStatusOf(v))
		}
	}
	if c, ok := q.Cond("order"); ok {
		f.OrderNo = c.Value // as typed: the service compares it
	}
	_, email := q.Cond("email")
	_, phone := q.Cond("phone")
	f.Customer = email || phone
	pq := tab.PeriodQuery(t.Scope)
	first, ok := t.src.FilterPayments(pq, f)
	if !ok {
		return nil, ""
	}
	key := fmt.Sprintf("%v|%s|%t", f.Statuses, f.OrderNo, f.Customer)
	return func() backend.Pager[backend.Payment] {
		if p := first; p != nil { // the load: the pager asked for above
			first = nil
			return p
		}
		p, _ := t.src.FilterPayments(pq, f) // a refresh
		return p
	}, key
}

// paymentStatusOf is the status a search value names ("authorized").
func paymentStatusOf(v string) backend.PaymentStatus {
	for _, s := range paymentStatuses {
		if strings.EqualFold(string(s), v) {
			return s
		}
	}
	return backend.PaymentStatus(v)
}

// Status implements ui.Tab: the list's, the pane's reads and a jump
// under way.
func (t *Payments) Status() ui.TabStatus {
	st := t.ListTab.Status()
	st.Loading = st.Loading || t.refunds.loading || t.jump.active
	if t.jump.active {
		st.Progress = t.jump.progress
	}
	return st
}

// Update implements ui.Tab: the shared part takes what every list tab
// handles alike; the rest is the tab's.
func (t *Payments) Update(msg tea.Msg) (ui.Tab, tea.Cmd) {
	if cmd, ok := t.ListTab.Update(msg); ok {
		return t, cmd
	}
	switch msg := msg.(type) {
	case ui.ScopeMsg:
		w := t.takeWiden(msg.Scope) // a payment a jump widened the scope for
		cmd := t.start(msg.Scope)
		return t, tea.Batch(cmd, t.openWidened(w))
	case ui.RefreshMsg:
		t.roll(msg.Now)
		return t, t.refresh()
	case ui.JumpMsg:
		cmd := t.startJump(msg.Query)
		t.Layout()
		return t, cmd
	case jumpProgressMsg:
		return t, t.onJumpProgress(msg)
	case jumpResultMsg:
		cmd := t.onJump(msg)
		t.Layout()
		return t, cmd
	case payRefundsMsg:
		t.onRefunds(msg)
	case prepareMsg:
		return t, t.onPrepared(msg)
	case tab.ChangedMsg:
		// A token revoked in the Tokens tab: the pane's token section
		// reads its state again.
		if id := msg.RevokedToken(); msg.From != t.Owner && id != "" && t.Pane.IsOpen() &&
			t.Pane.Obj.Token != nil && t.Pane.Obj.Token.ID == id {
			return t, t.reloadDetail()
		}
	case tab.PaneTokenMsg:
		return t, t.onPaneToken(msg)
	}
	return t, nil
}

// rowsCame notes what the rows that came into the list tell: a jump's
// payment not loaded yet (the list reads on to it), and the order numbers,
// customers and tokens the other tabs show.
func (t *Payments) rowsCame(rows []backend.Payment) tea.Cmd {
	found := t.noteOrders(rows)
	t.Deps.Facts.NotePayments(rows) // the Refunds tab shows their order numbers and customers
	return tea.Batch(found, t.memo.NotePayments(t.Scope.MerchantID, rows))
}

// paneRead puts the payment the pane read in full into its row, and reads
// its token if the row did not name it.
func (t *Payments) paneRead(read bool) tea.Cmd {
	if !read {
		return nil
	}
	t.List.Upsert(t.Pane.Obj, t.Deps.TimeNow())
	t.Layout()
	var readToken tea.Cmd
	if tk := t.Pane.Obj.Token; tk != nil && tk.ID != t.paneToken.id {
		readToken = t.loadToken() // the list's row did not name it
	}
	return tea.Batch(t.memo.NotePayments(t.Scope.MerchantID, []backend.Payment{t.Pane.Obj}), readToken)
}

// refresh re-reads the newest pages and the open pane.
func (t *Payments) refresh() tea.Cmd {
	return tea.Batch(t.List.Refresh(), t.reloadDetail())
}

// --- detail ------------------------------------------------------------------

// openDetail opens the pane on p and reads it in full (unless the row is
// already) with its refunds.
func (t *Payments) openDetail(p backend.Payment, raw bool) tea.Cmd {
	t.refunds = paneRefunds{}
	// A row that is the whole payment (a jump's answer) is not read again.
	cmd := t.Pane.Show(p, raw, p.Detailed)
	t.paneToken.id, t.paneToken.err = "", nil
	return tea.Batch(cmd, t.loadRefunds(), t.loadToken(), t.memo.NotePayments(t.Scope.MerchantID, []backend.Payment{p}))
}

func (t *Payments) closeDetail() {
	t.Pane.Close()
	t.refunds = paneRefunds{}
}

// reloadDetail reads the pane's payment and its refunds again.
func (t *Payments) reloadDetail() tea.Cmd {
	if !t.Pane.IsOpen() {
		return nil
	}
	return tea.Batch(t.Pane.Reload(), t.loadRefunds(), t.loadToken())
}

// loadToken reads the token of the payment in the pane, if it names one.
func (t *Payments) loadToken() tea.Cmd {
	tk := t.Pane.Obj.Token
	if tk == nil || tk.ID == "" {
		return nil
	}
	t.paneToken.id = tk.ID
	ctx, st := t.Pane.ReadStamp()
	src, id, merchant := t.src, tk.ID, t.paneMerchant()
	return func() tea.Msg {
		tok, err := src.GetToken(ctx, id)
		return tab.PaneTokenMsg{Stamp: st, Merchant: merchant, Tok: tok, Err: err}
	}
}

// onPaneToken keeps the state of the pane's token as just read.
func (t *Payments) onPaneToken(msg tab.PaneTokenMsg) tea.Cmd {
	if !t.Pane.Current(msg.Stamp) {
		return nil
	}
	if msg.Err != nil {
		if !tab.Cancelled(msg.Err) {
			t.paneToken.err = msg.Err
		}
		return nil
	}
	t.paneToken.err = nil
	t.tokenMerchant[msg.Tok.ID] = msg.Merchant
	return t.memo.Note(msg.Merchant, known.FromToken(msg.Tok, known.LookedUp))
}

// readPayment reads a payment in full.
func (t *Payments) readPayment(ctx context.Context, p backend.Payment) (backend.Payment, error) {
	return t.src.GetPayment(ctx, p.ID)
}

// loadRefunds reads the refunds of the pane's payment, in the pane's
// current read generation.
func (t *Payments) loadRefunds() tea.Cmd {
	t.refunds.loading = true
	ctx, st := t.Pane.ReadStamp()
	src, p := t.src, t.Pane.Obj
	return func() tea.Msg {
		rs, err := src.RefundsOfPayment(ctx, p)
		return payRefundsMsg{stamp: st, refunds: rs, err: err}
	}
}

func (t *Payments) onRefunds(msg payRefundsMsg) {
	if !t.Pane.Current(msg.stamp) {
		return
	}
	t.refunds.loading = false
	if msg.err != nil {
		if !tab.Cancelled(msg.err) {
			t.refunds.err = msg.err
		}
		return
	}
	t.refunds = paneRefunds{items: msg.refunds, loaded: true}
}

// --- view --------------------------------------------------------------------

// View implements ui.Tab.
func (t *Payments) View(w, h int) string {
	var pane []string
	if t.Pane.IsOpen() {
		pane = t.Pane.Lines(t.Theme, "Payment "+textsafe.Clean(t.Pane.Obj.ID))
	}
	return tab.Frame(t.Theme, t.List, pane, w, h)
}

// DetailLines is everything about the payment, one fact a line.
func (t *Payments) DetailLines() []string {
	th := t.Theme
	d, rf := t.Pane, t.refunds
	p := d.Obj
	f := &tab.Fields{Theme: th, LabelW: 16, Width: d.Inner()}
	c := textsafe.Clean
	if d.Loading && !p.Detailed {
		f.Line(th.Muted.Render("reading the full payment…"))
	}
	if d.Err != nil {
		f.Failure("", d.Err)
	}
	for _, l := range t.Acts.PaneLines(th, tab.PaymentRef(p.ID)) {
		f.Line(l)
	}

	f.AddAlways("Status", tab.StatusStyle(th, p.Status).Render(paymentStatusText(p.Status)))
	f.Add("Result", tab.ResultText(p.ResultCode, p.Source))
	f.Add("Message", c(p.Message))
	f.Add("Amount", tab.FmtAmount(p.Amount))
	f.Add("Merchant", c(p.MerchantID))
	f.Add("Created", tab.FmtTime(p.Created))
	f.Add("Completed", tab.FmtTime(p.Completed))
	f.Add("Updated", tab.FmtTime(p.Updated))
	if p.Detailed {
		f.Add("Test mode", tab.YesNo(p.TestMode))
	}
	f.Add("Read through", string(p.Source))

	f.Heading("Invoice")
	f.Add("Order no", c(p.OrderNo))
	f.Add("Description", c(p.Description))
	f.Add("Expires", tab.FmtTime(p.InvoiceExpires))
	for _, k := range sortedKeys(p.InvoiceParams) {
		f.Add("  "+c(k), c(p.InvoiceParams[k]))
	}

	f.Heading("Customer")
	f.Add("IP", c(p.CustomerIP))
	if v := p.V1; v != nil {
		f.Add("Identifier", c(v.UserIdentifier))
		f.Add("Phone", c(v.UserPhoneNumber))
	}
	if p.CustomerIP == "" && (p.V1 == nil || (p.V1.UserIdentifier == "" && p.V1.UserPhoneNumber == "")) {
		f.Line(th.Muted.Render("not known" + tab.IfThen(!p.Detailed, " yet")))
	}

	f.Heading("Payment method")
	f.Add("Method", c(p.PaymentMethod))
	f.Add("Instrument", c(p.InstrumentTitle))
	f.Add("Agreement", c(p.Agreement))
	if cd := p.Card; cd != nil {
		f.Add("Card brand", c(cd.Brand))
		f.Add("Issuer", c(cd.Issuer))
		f.Add("Country", c(cd.Country))
		f.Add("Card type", c(cd.Type))
		f.Add("Category", c(cd.Category))
	}
	if cf := p.Confirmation; cf != nil {
		f.Heading("Confirmation")
		f.Add("Type", c(cf.Type))
		f.Add("Payment URL", c(cf.PaymentURL))
		if cf.PaymentURL != "" {
			f.Add("Universal link", tab.YesNo(cf.UniversalLink))
		}
		f.Add("Instruction", c(cf.Instruction))
		f.Add("Masked phone", c(cf.MaskedPhone))
		f.Add("Method URL", c(cf.MethodURL))
		f.Add("Transaction", c(cf.TransactionID))
		f.Add("ACS URL", c(cf.AcsURL))
		f.Add("CReq", c(cf.CReq))
		f.Add("PAReq", c(cf.PAReq))
	}
	if tk := p.Token; tk != nil {
		f.Heading("Token")
		f.Add("ID", c(tk.ID))
		f.Add("Title", c(tk.Title))
		f.Add("Expires", tab.FmtTime(tk.Expires))
		switch st := t.memo.Status(t.paneMerchant(), tk.ID); {
		case st != "":
			f.AddAlways("Status", tab.TokenStatusStyle(th, st)(tab.TokenStatusText(st)))
		case t.paneToken.err != nil:
			f.Failure("status: cannot read it: ", t.paneToken.err)
		default:
			f.AddAlways("Status", th.Muted.Render("reading…"))
		}
		for _, l := range t.Acts.PaneLines(th, tab.TokenRef(tk.ID)) {
			f.Line(l)
		}
	}

	f.Heading("Refunds")
	switch {
	case rf.err != nil:
		f.Failure("cannot read them: ", rf.err)
	case !rf.loaded:
		f.Line(th.Muted.Render("reading…"))
	case len(rf.items) == 0:
		f.Line(th.Muted.Render("none"))
	default:
		for _, r := range rf.items {
			when := tab.FmtListTime(r.Created)
			if when == "" {
				when = tab.FmtListTime(r.Updated)
			}
			f.Line(tab.Fit(c(r.ID), 9) + " " + tab.RefundStyle(th, r.Status).Render(tab.Fit(tab.RefundStatusText(r.Status), 11)) +
				" " + tab.Fit(tab.FmtAmount(r.Amount), 15) + " " + th.Muted.Render(when))
		}
	}
	if rf.loaded && rf.err == nil && p.Status == backend.PaymentSettled {
		refunded, left := refundable(p, rf.items)
		f.Add("Captured", tab.FmtAmount(p.Amount))
		f.Add("Refunded", tab.FmtAmount(refunded)+th.Muted.Render(" (pending included)"))
		f.AddAlways("Refundable", th.Accent.Render(tab.FmtAmount(left)))
	}

	if v := p.V1; v != nil {
		f.Heading("v1 view")
		f.Add("State", c(v.State))
		f.Add("PaymentAmount", tab.FmtAmount(v.PaymentAmount))
		f.Add("UserIdentifier", c(v.UserIdentifier))
		f.Add("UserPhoneNumber", c(v.UserPhoneNumber))
		f.Add("LastUpdate", tab.FmtTime(v.LastUpdate))
		if v.ErrorCode != 0 {
			f.Add("ErrorCode", strconv.Itoa(v.ErrorCode))
		}
	}
	return f.Lines
}
