// Package refunds is the Refunds tab: the refunds of the period with the
// order number and customer of each refund's payment, a detail pane, and a
// way to the refunded payment. It has no actions.
package refunds

import (
	"cmp"
	"context"
	"slices"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"paydash/backend"
	"paydash/backend/textsafe"
	"paydash/keys"
	"paydash/ui"
	"paydash/ui/datatable"
	"paydash/views/tab"
)

// Refunds is the Refunds tab: the refunds of the period, a detail pane, and
// a way to the refunded payment. It has no actions.
type Refunds struct {
	tab.ListTab[backend.Refund] // the list, the pane and the keys
	src                         refundSource

	// facts are the payments' order numbers and customers, shared with
	// the Payments tab; reads reads those of the refunds on screen.
	facts *tab.PaymentFacts
	reads *tab.FactReads
}

// refundSource is what the Refunds tab asks of the backend.
type refundSource interface {
	ListRefunds(q backend.PeriodQuery) backend.Pager[backend.Refund]
	GetRefund(ctx context.Context, id string) (backend.Refund, error)
	GetPayment(ctx context.Context, id string) (backend.Payment, error)
}

// New makes the Refunds tab.
func New(d tab.Deps) ui.Tab {
	t := &Refunds{src: d.Backend, facts: d.Facts}
	if t.facts == nil {
		t.facts = tab.NewPaymentFacts()
	}
	withCustomer := d.Backend != nil && slices.Contains(d.Backend.Describe().Interfaces, backend.V1)
	var reader tab.PaymentReader
	if d.Backend != nil {
		reader = d.Backend
	}
	t.reads = tab.NewFactReads(reader, t.facts, withCustomer)
	cfg := datatable.Config[backend.Refund]{
		ID:          func(r backend.Refund) string { return r.ID },
		Columns:     refundColumnsWith(t.facts),
		LoadingText: "Loading more refunds…",
		EndText:     "— end of the period —",
		EmptyText:   "No refunds in this period",
	}
	list := tab.NewPagedList(cfg, d.Keys, d.Theme, tab.RefundTime)
	list.Search = refundSearch()
	list.FailText = "Could not load this period (the reason is below); press r to try again"
	pane := tab.NewDetail(t.readRefund, t.detailLines, func(r backend.Refund) []string { return t.rawDetailLines(r) })
	t.ListTab = tab.NewListTab(d, list, pane)
	t.PaneTitle = func(o backend.Refund) string { return "Refund " + textsafe.Clean(o.ID) }
	// The refresh key re-reads the list only (a RefreshMsg re-reads the
	// open pane too), and tries the payments that failed again.
	refresh := func() tea.Cmd {
		t.reads.RetryFailed()
		return t.List.Refresh()
	}
	t.Keys = t.ListKeys("refund", refresh, t.copyMore, t.export) // the tab has no actions
	t.Hooks = tab.ListHooks[backend.Refund]{
		Rows: func(rows []backend.Refund) tea.Cmd { t.reads.NoteRows(rows); return t.readFacts() },
		Pane: func(bool) tea.Cmd { return t.readFacts() },
	}
	t.Wire(tab.KeyRoute[backend.Refund]{EnterPane: t.openPayment})
	return t
}

// RefundColumns are the list's columns, the payments' facts left empty.
func RefundColumns() []datatable.Column[backend.Refund] { return refundColumnsWith(nil) }

// refundColumnsWith are the list's columns, the order number and the
// customer of each refund's payment from facts: empty while unknown, and
// the first to go on a narrow screen.
func refundColumnsWith(facts *tab.PaymentFacts) []datatable.Column[backend.Refund] {
	fact := func(r backend.Refund) tab.PaymentFact {
		pf, _ := facts.Get(r.PaymentID)
		return pf
	}
	return []datatable.Column[backend.Refund]{
		{Key: "id", Title: "ID", Width: 8, MaxWidth: 24, Priority: 100,
			Text: func(r backend.Refund) string { return r.ID },
			Less: func(a, b backend.Refund) int { return tab.CmpIDs(a.ID, b.ID) }},
		{Key: "created", Title: "Created", Width: 12, Priority: 60,
			Text: func(r backend.Refund) string { return tab.FmtListTime(tab.RefundTime(r)) },
			Less: func(a, b backend.Refund) int { return tab.RefundTime(a).Compare(tab.RefundTime(b)) }},
		{Key: "status", Title: "Status", Width: 8, MaxWidth: 14, Priority: 90,
			Text: func(r backend.Refund) string { return tab.RefundStatusText(r.Status) },
			Tone: func(r backend.Refund) datatable.Tone { return tab.RefundTone(r.Status) },
			Less: func(a, b backend.Refund) int { return cmp.Compare(a.Status, b.Status) }},
		{Key: "amount", Title: "Amount", Width: 10, MaxWidth: 18, Priority: 90, Align: lipgloss.Right,
			Text:  func(r backend.Refund) string { return tab.FmtAmount(r.Amount) },
			Less:  func(a, b backend.Refund) int { return tab.CmpAmounts(a.Amount, b.Amount) },
			Group: func(r backend.Refund) string { return r.Amount.Currency }},
		{Key: "payment", Title: "Payment", Width: 10, MaxWidth: 24, Priority: 80,
			Text: func(r backend.Refund) string { return r.PaymentID },
			Less: func(a, b backend.Refund) int { return tab.CmpIDs(a.PaymentID, b.PaymentID) }},
		{Key: "order", Title: "Order", Width: 10, MaxWidth: 24, Priority: 30,
			Text: func(r backend.Refund) string { return fact(r).Order },
			Less: func(a, b backend.Refund) int { return tab.CmpIDs(fact(a).Order, fact(b).Order) }},
		{Key: "customer", Title: "Customer", Width: 16, Flex: 3, Priority: 20,
			Text: func(r backend.Refund) string { return fact(r).Customer },
			Less: func(a, b backend.Refund) int { return cmp.Compare(fact(a).Customer, fact(b).Customer) }},
	}
}

// ID implements ui.Tab.
func (rs *Refunds) ID() ui.TabID { return ui.TabRefunds }

// Title implements ui.Tab.
func (rs *Refunds) Title() string { return "Refunds" }

// Init implements ui.Tab: the first load of the scope.
func (rs *Refunds) Init(s ui.Scope) tea.Cmd { return rs.start(s) }

// start drops the old scope's list and pane and loads the new scope.
func (rs *Refunds) start(s ui.Scope) tea.Cmd {
	rs.Scope = s
	rs.Pane.Close()
	rs.Layout()
	rs.List.Span = [2]time.Time{s.Start, s.End}
	cmd := rs.List.Start(rs.listOf(s), nil)
	rs.reads.Reset() // the old scope's reads end with its context
	return cmd
}

// listOf is the list of the scope's refunds.
func (rs *Refunds) listOf(s ui.Scope) tab.Loader[backend.Refund] {
	q := tab.PeriodQuery(s)
	return func() backend.Pager[backend.Refund] { return rs.src.ListRefunds(q) }
}

// roll moves a rolling period on to the service's now (a refresh's): the
// list reads up to now from here on, and rows older than its start leave.
func (rs *Refunds) roll(now time.Time) {
	s, moved, startMoved := tab.Rolled(rs.Scope, now)
	if !moved {
		return
	}
	rs.Scope = s
	rs.List.Rescope(rs.listOf(s), nil, [2]time.Time{s.Start, s.End}, startMoved)
}

// Update implements ui.Tab: the payments' reads, then the shared part
// (what every list tab handles alike), then the tab's own messages.
func (rs *Refunds) Update(msg tea.Msg) (ui.Tab, tea.Cmd) {
	if redraw, ok := rs.reads.Update(msg); ok {
		for _, id := range redraw {
			rs.List.Table.Redraw(id)
		}
		return rs, rs.readFacts() // a read is over: room for another
	}
	if cmd, ok := rs.ListTab.Update(msg); ok {
		switch msg.(type) {
		case ui.MouseMsg, tea.KeyPressMsg, ui.SizeMsg:
			// Other rows may be on screen: their payments are read.
			cmd = tea.Batch(cmd, rs.readFacts())
		}
		return rs, cmd
	}
	switch msg := msg.(type) {
	case ui.ScopeMsg:
		return rs, rs.start(msg.Scope)
	case ui.RefreshMsg:
		rs.roll(msg.Now)
		rs.reads.RetryFailed()
		return rs, tea.Batch(rs.List.Refresh(), rs.Pane.Reload(), rs.readFacts())
	case tab.ChangedMsg:
		return rs, rs.onChanged(msg)
	}
	return rs, nil
}

// onChanged shows a refund made in the Payments tab at once, selected, as
// the service answered it: the user sees their own refund when they next
// look here, not behind "↑ 1 new".
//
// A rolling period this tab has not moved on since it was last shown may
// end before the refund was made: the refresh that moves it brings the
// refund, selected then.
func (rs *Refunds) onChanged(msg tab.ChangedMsg) tea.Cmd {
	r, ok := msg.MadeRefund()
	if !ok {
		return nil
	}
	if r.MerchantID == "" {
		r.MerchantID = msg.Over.Out.Payment.MerchantID
	}
	shown := tab.InScope(rs.Scope, r.MerchantID, tab.RefundTime(r))
	later := rs.Scope.Rolling() && (r.MerchantID == "" || r.MerchantID == rs.Scope.MerchantID)
	if !shown && !later {
		return nil
	}
	rs.List.Own(r.ID)
	if !shown {
		return nil
	}
	rs.List.Upsert(r, rs.Deps.TimeNow())
	rs.Layout()
	return rs.readFacts()
}

// readFacts reads the payments of the refunds on screen (and in the pane)
// that are not known yet, as many as may be out at once. It costs the rows
// on screen at most, and nothing while the reads out are all it may have.
func (rs *Refunds) readFacts() tea.Cmd {
	free := rs.reads.Free()
	if free <= 0 {
		return nil
	}
	var ids []string
	want := func(id string) bool {
		if rs.reads.Wanted(id) && !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
		return len(ids) < free
	}
	if rs.Pane.IsOpen() && !want(rs.Pane.Obj.PaymentID) {
		return rs.reads.Read(rs.List.Context(), ids)
	}
	rs.List.Table.OnScreen(func(r backend.Refund) bool { return want(r.PaymentID) })
	if len(ids) == 0 {
		return nil
	}
	return rs.reads.Read(rs.List.Context(), ids)
}

// openPayment opens the refunded payment on the Payments tab (enter on
// the pane).
func (rs *Refunds) openPayment() tea.Cmd {
	if id := rs.Pane.Obj.PaymentID; id != "" {
		return tab.MsgCmd(ui.SwitchTabMsg{Tab: ui.TabPayments, Then: ui.JumpMsg{Query: id}})
	}
	return nil
}

// readRefund reads a refund in full (v2; v1 cannot: the list row is all
// there is).
func (rs *Refunds) readRefund(ctx context.Context, r backend.Refund) (backend.Refund, error) {
	got, err := rs.src.GetRefund(ctx, r.ID)
	switch {
	case backend.KindOf(err) == backend.KindUnsupported:
		return r, nil
	case err != nil:
		return r, err
	}
	if got.MerchantID == "" {
		got.MerchantID = r.MerchantID
	}
	return got, nil
}

// rawDetailLines is the raw view: the body the refund was read with, if any.
func (rs *Refunds) rawDetailLines(r backend.Refund) []string {
	if len(r.Raw) == 0 {
		msg := "no body: the list does not keep one"
		if rs.Pane.Loading {
			msg = "no body yet: the refund is being read"
		}
		return []string{rs.Theme.Muted.Render(msg)}
	}
	return tab.RawLines(r.Raw)
}

// detailLines is everything about the refund, one fact a line.
func (rs *Refunds) detailLines() []string {
	th := rs.Theme
	d := rs.Pane
	r := d.Obj
	c := textsafe.Clean
	f := &tab.Fields{Theme: th, LabelW: 14, Width: d.Inner()}
	if d.Loading && len(r.Raw) == 0 {
		f.Line(th.Muted.Render("reading the full refund…"))
	}
	if d.Err != nil {
		f.Failure("", d.Err)
	}
	f.AddAlways("Status", tab.RefundStyle(th, r.Status).Render(tab.RefundStatusText(r.Status)))
	if r.Status != backend.RefundPending {
		// The service says Success while a refund is still pending
		// (nothing has failed yet); the status says it is not done.
		f.Add("Result", tab.ResultText(r.ResultCode, r.Source))
	}
	f.Add("Amount", tab.FmtAmount(r.Amount))
	f.Add("Payment", c(r.PaymentID))
	if pf, ok := rs.facts.Get(r.PaymentID); ok {
		f.Add("Order", c(pf.Order))
		f.Add("Customer", c(pf.Customer))
	}
	f.Add("Merchant", c(r.MerchantID))
	f.Add("Created", tab.FmtTime(r.Created))
	f.Add("Updated", tab.FmtTime(r.Updated))
	f.Add("External id", c(r.ExternalID))
	f.Add("Read through", string(r.Source))
	if r.PaymentID != "" {
		f.Line("")
		open := "enter"
		if b, ok := rs.Deps.Keys.Binding(keys.ActOpen); ok && len(b.Keys()) > 0 {
			open = b.Keys()[0]
		}
		f.Line(th.Muted.Render(open + ": open payment " + c(r.PaymentID)))
	}
	return f.Lines
}
