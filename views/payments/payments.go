// Package payments is the Payments tab: a merchant's payments of the
// period, their detail pane with the payment's refunds and token, the jump
// to a payment by id or order number (jump.go), and the actions capture,
// cancel hold, refund, revoke the payment's saved card and a new payment
// link (actions.go), each behind a confirmation.
package payments

import (
	"cmp"
	"context"
	"fmt"
	"slices"
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
	cfg := TableConfig(t.rowAction)
	cfg.LoadingText = "Loading more payments…"
	cfg.EndText = "— end of the period —"
	cfg.EmptyText = "No payments in this period"
	// Where else to look when a search finds nothing: a payment of
	// another period, by its id or order number, or a longer period.
	cfg.NoMatchText = "No match · " + tab.KeyName(d.Keys, keys.ActJump, ":") + " finds an id or order number in any period · " +
		tab.KeyName(d.Keys, keys.ActPeriod, "p") + " a longer period"
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
	t.PaneTitle = func(o backend.Payment) string { return "Payment " + textsafe.Clean(o.ID) }
	t.Acts = tab.NewTracker(d, func(ref tab.ObjectRef) {
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
func (ps *Payments) rowAction(p backend.Payment) string { return ps.Acts.RowMark(tab.PaymentRef(p.ID)) }

// TableConfig is the list's table as the tab makes it, its texts aside:
// the columns (rowAction as in PaymentColumns), the filter's text and the
// packed rows (packed.go).
func TableConfig(rowAction func(backend.Payment) string) datatable.Config[backend.Payment] {
	cols := PaymentColumns(rowAction)
	return datatable.Config[backend.Payment]{
		ID:         func(p backend.Payment) string { return p.ID },
		Columns:    cols,
		FilterText: paymentHaystack(cols),
		NewStore:   newPaymentStore,
	}
}

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
func (ps *Payments) ID() ui.TabID { return ui.TabPayments }

// Title implements ui.Tab.
func (ps *Payments) Title() string { return "Payments" }

// Init implements ui.Tab: the first load, and the finding out of what an
// earlier run left without an outcome.
func (ps *Payments) Init(s ui.Scope) tea.Cmd {
	return tea.Batch(ps.start(s), ps.Acts.Resume())
}

// start drops the old scope's list, pane and search and loads the new one.
func (ps *Payments) start(s ui.Scope) tea.Cmd {
	ps.Scope = s
	ps.closeDetail()
	ps.stopJump()
	clear(ps.orders)
	ps.Layout()
	ps.List.Span = [2]time.Time{s.Start, s.End}
	return ps.List.Start(ps.listOf(s))
}

// listOf is the list of the scope's payments, and which rows read
// elsewhere belong to it.
func (ps *Payments) listOf(s ui.Scope) (tab.Loader[backend.Payment], func(backend.Payment) bool) {
	q := tab.PeriodQuery(s)
	return func() backend.Pager[backend.Payment] { return ps.src.ListPayments(q) },
		func(p backend.Payment) bool { return tab.InScope(s, p.MerchantID, tab.PaymentTime(p)) }
}

// roll moves a rolling period on to the service's now (a refresh's): the
// list reads up to now from here on, and rows older than its start leave.
func (ps *Payments) roll(now time.Time) {
	s, moved, startMoved := tab.Rolled(ps.Scope, now)
	if !moved {
		return
	}
	ps.Scope = s
	load, belongs := ps.listOf(s)
	ps.List.Rescope(load, belongs, [2]time.Time{s.Start, s.End}, startMoved)
}

// narrowed is the list the service selects for a search, when it can
// (the legacy interface's listPaymentsFilter: one state, one order
// number), with the key that tells one such list from another; "" when it
// cannot, and the list reads the whole period.
func (ps *Payments) narrowed(q search.Query) (tab.Loader[backend.Payment], string) {
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
	pq := tab.PeriodQuery(ps.Scope)
	first, ok := ps.src.FilterPayments(pq, f)
	if !ok {
		return nil, ""
	}
	key := fmt.Sprintf("%v|%s|%t", f.Statuses, f.OrderNo, f.Customer)
	return func() backend.Pager[backend.Payment] {
		if p := first; p != nil { // the load: the pager asked for above
			first = nil
			return p
		}
		p, _ := ps.src.FilterPayments(pq, f) // a refresh
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
func (ps *Payments) Status() ui.TabStatus {
	st := ps.ListTab.Status()
	st.Loading = st.Loading || ps.refunds.loading || ps.jump.active
	if ps.jump.active {
		st.Progress = ps.jump.progress
	}
	return st
}

// Update implements ui.Tab: the shared part takes what every list tab
// handles alike; the rest is the tab's.
func (ps *Payments) Update(msg tea.Msg) (ui.Tab, tea.Cmd) {
	if cmd, ok := ps.ListTab.Update(msg); ok {
		return ps, cmd
	}
	switch msg := msg.(type) {
	case ui.ScopeMsg:
		w := ps.takeWiden(msg.Scope) // a payment a jump widened the scope for
		cmd := ps.start(msg.Scope)
		return ps, tea.Batch(cmd, ps.openWidened(w))
	case ui.RefreshMsg:
		ps.roll(msg.Now)
		return ps, ps.refresh()
	case ui.JumpMsg:
		cmd := ps.startJump(msg.Query)
		ps.Layout()
		return ps, cmd
	case jumpProgressMsg:
		return ps, ps.onJumpProgress(msg)
	case jumpResultMsg:
		cmd := ps.onJump(msg)
		ps.Layout()
		return ps, cmd
	case payRefundsMsg:
		ps.onRefunds(msg)
	case prepareMsg:
		return ps, ps.onPrepared(msg)
	case tab.ChangedMsg:
		// A token revoked in the Tokens tab: the pane's token section
		// reads its state again.
		if id := msg.RevokedToken(); msg.From != ps.Owner && id != "" && ps.Pane.IsOpen() &&
			ps.Pane.Obj.Token != nil && ps.Pane.Obj.Token.ID == id {
			return ps, ps.reloadDetail()
		}
	case tab.PaneTokenMsg:
		return ps, ps.onPaneToken(msg)
	}
	return ps, nil
}

// rowsCame notes what the rows that came into the list tell: a jump's
// payment not loaded yet (the list reads on to it), and the order numbers,
// customers and tokens the other tabs show.
func (ps *Payments) rowsCame(rows []backend.Payment) tea.Cmd {
	found := ps.noteOrders(rows)
	ps.Deps.Facts.NotePayments(rows) // the Refunds tab shows their order numbers and customers
	return tea.Batch(found, ps.memo.NotePayments(ps.Scope.MerchantID, rows))
}

// paneRead puts the payment the pane read in full into its row, and reads
// its token if the row did not name it.
func (ps *Payments) paneRead(read bool) tea.Cmd {
	if !read {
		return nil
	}
	ps.List.Upsert(ps.Pane.Obj, ps.Deps.TimeNow())
	ps.Layout()
	var readToken tea.Cmd
	if tk := ps.Pane.Obj.Token; tk != nil && tk.ID != ps.paneToken.id {
		readToken = ps.loadToken() // the list's row did not name it
	}
	return tea.Batch(ps.memo.NotePayments(ps.Scope.MerchantID, []backend.Payment{ps.Pane.Obj}), readToken)
}

// refresh re-reads the newest pages and the open pane.
func (ps *Payments) refresh() tea.Cmd {
	return tea.Batch(ps.List.Refresh(), ps.reloadDetail())
}

// --- detail ------------------------------------------------------------------

// openDetail opens the pane on p and reads it in full (unless the row is
// already) with its refunds.
func (ps *Payments) openDetail(p backend.Payment, raw bool) tea.Cmd {
	ps.refunds = paneRefunds{}
	// A row that is the whole payment (a jump's answer) is not read again.
	cmd := ps.Pane.Show(p, raw, p.Detailed)
	ps.paneToken.id, ps.paneToken.err = "", nil
	return tea.Batch(cmd, ps.loadRefunds(), ps.loadToken(), ps.memo.NotePayments(ps.Scope.MerchantID, []backend.Payment{p}))
}

func (ps *Payments) closeDetail() {
	ps.Pane.Close()
	ps.refunds = paneRefunds{}
}

// reloadDetail reads the pane's payment and its refunds again.
func (ps *Payments) reloadDetail() tea.Cmd {
	if !ps.Pane.IsOpen() {
		return nil
	}
	return tea.Batch(ps.Pane.Reload(), ps.loadRefunds(), ps.loadToken())
}

// loadToken reads the token of the payment in the pane, if it names one.
func (ps *Payments) loadToken() tea.Cmd {
	tk := ps.Pane.Obj.Token
	if tk == nil || tk.ID == "" {
		return nil
	}
	ps.paneToken.id = tk.ID
	ctx, st := ps.Pane.ReadStamp()
	src, id, merchant := ps.src, tk.ID, ps.paneMerchant()
	return func() tea.Msg {
		tok, err := src.GetToken(ctx, id)
		return tab.PaneTokenMsg{Stamp: st, Merchant: merchant, Tok: tok, Err: err}
	}
}

// onPaneToken keeps the state of the pane's token as just read.
func (ps *Payments) onPaneToken(msg tab.PaneTokenMsg) tea.Cmd {
	if !ps.Pane.Current(msg.Stamp) {
		return nil
	}
	if msg.Err != nil {
		if !tab.Cancelled(msg.Err) {
			ps.paneToken.err = msg.Err
		}
		return nil
	}
	ps.paneToken.err = nil
	ps.tokenMerchant[msg.Tok.ID] = msg.Merchant
	return ps.memo.Note(msg.Merchant, known.FromToken(msg.Tok, known.LookedUp))
}

// readPayment reads a payment in full.
func (ps *Payments) readPayment(ctx context.Context, p backend.Payment) (backend.Payment, error) {
	return ps.src.GetPayment(ctx, p.ID)
}

// loadRefunds reads the refunds of the pane's payment, in the pane's
// current read generation.
func (ps *Payments) loadRefunds() tea.Cmd {
	ps.refunds.loading = true
	ctx, st := ps.Pane.ReadStamp()
	src, p := ps.src, ps.Pane.Obj
	return func() tea.Msg {
		rs, err := src.RefundsOfPayment(ctx, p)
		return payRefundsMsg{stamp: st, refunds: rs, err: err}
	}
}

func (ps *Payments) onRefunds(msg payRefundsMsg) {
	if !ps.Pane.Current(msg.stamp) {
		return
	}
	ps.refunds.loading = false
	if msg.err != nil {
		if !tab.Cancelled(msg.err) {
			ps.refunds.err = msg.err
		}
		return
	}
	ps.refunds = paneRefunds{items: msg.refunds, loaded: true}
}
