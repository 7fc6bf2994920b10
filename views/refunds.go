package views

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
)

// Refunds is the Refunds tab: the refunds of the period, a detail pane, and
// a way to the refunded payment. It has no actions.
type Refunds struct {
	src   refundSource
	keys  keys.Map
	theme ui.Theme
	now   func() time.Time

	list   *pagedList[backend.Refund]
	detail *detail[backend.Refund]
	// facts are the payments' order numbers and customers, shared with
	// the Payments tab; reads reads those of the refunds on screen.
	facts *PaymentFacts
	reads *factReads
	route keyRoute[backend.Refund] // the keys every list tab handles alike
	scope ui.Scope
	w, h  int

	// dialogs holds the dialog a key opens, for the shell to open at once
	// (ui.DialogOpener).
	dialogs dialogSlot
}

// refundSource is what the Refunds tab asks of the backend.
type refundSource interface {
	ListRefunds(q backend.PeriodQuery) backend.Pager[backend.Refund]
	GetRefund(ctx context.Context, id string) (backend.Refund, error)
	GetPayment(ctx context.Context, id string) (backend.Payment, error)
}

// NewRefunds makes the Refunds tab.
func NewRefunds(d Deps) ui.Tab {
	t := &Refunds{src: d.Backend, keys: d.Keys, theme: d.Theme, now: d.timeNow, facts: d.Facts}
	if t.facts == nil {
		t.facts = NewPaymentFacts()
	}
	withCustomer := d.Backend != nil && slices.Contains(d.Backend.Describe().Interfaces, backend.V1)
	var reader paymentReader
	if d.Backend != nil {
		reader = d.Backend
	}
	t.reads = newFactReads(reader, t.facts, withCustomer)
	cfg := datatable.Config[backend.Refund]{
		ID:          func(r backend.Refund) string { return r.ID },
		Columns:     refundColumnsWith(t.facts),
		LoadingText: "Loading more refunds…",
		EndText:     "— end of the period —",
		EmptyText:   "No refunds in this period",
	}
	t.list = newPagedList(cfg, d.Keys, d.Theme, refundTime)
	t.list.search = refundSearch()
	t.list.dialogs = &t.dialogs
	t.list.failText = "Could not load this period (the reason is below); press r to try again"
	t.detail = newDetail(t.readRefund, t.detailLines, func(r backend.Refund) []string { return t.rawDetailLines(r) })
	t.route = keyRoute[backend.Refund]{km: t.keys, list: t.list, pane: t.detail, context: t.Context, available: t.Available, enterPane: t.openPayment}
	return t
}

func refundTime(r backend.Refund) time.Time {
	if r.Created.IsZero() {
		return r.Updated
	}
	return r.Created
}

// refundColumns are the list's columns, the payments' facts left empty.
func refundColumns() []datatable.Column[backend.Refund] { return refundColumnsWith(nil) }

// refundColumnsWith are the list's columns, the order number and the
// customer of each refund's payment from facts: empty while unknown, and
// the first to go on a narrow screen.
func refundColumnsWith(facts *PaymentFacts) []datatable.Column[backend.Refund] {
	fact := func(r backend.Refund) paymentFact {
		pf, _ := facts.get(r.PaymentID)
		return pf
	}
	return []datatable.Column[backend.Refund]{
		{Key: "id", Title: "ID", Width: 8, MaxWidth: 24, Priority: 100,
			Text: func(r backend.Refund) string { return r.ID },
			Less: func(a, b backend.Refund) int { return cmpIDs(a.ID, b.ID) }},
		{Key: "created", Title: "Created", Width: 12, Priority: 60,
			Text: func(r backend.Refund) string { return fmtListTime(refundTime(r)) },
			Less: func(a, b backend.Refund) int { return refundTime(a).Compare(refundTime(b)) }},
		{Key: "status", Title: "Status", Width: 8, MaxWidth: 14, Priority: 90,
			Text: func(r backend.Refund) string { return refundStatusText(r.Status) },
			Tone: func(r backend.Refund) datatable.Tone { return refundTone(r.Status) },
			Less: func(a, b backend.Refund) int { return cmp.Compare(a.Status, b.Status) }},
		{Key: "amount", Title: "Amount", Width: 10, MaxWidth: 18, Priority: 90, Align: lipgloss.Right,
			Text:  func(r backend.Refund) string { return fmtAmount(r.Amount) },
			Less:  func(a, b backend.Refund) int { return cmpAmounts(a.Amount, b.Amount) },
			Group: func(r backend.Refund) string { return r.Amount.Currency }},
		{Key: "payment", Title: "Payment", Width: 10, MaxWidth: 24, Priority: 80,
			Text: func(r backend.Refund) string { return r.PaymentID },
			Less: func(a, b backend.Refund) int { return cmpIDs(a.PaymentID, b.PaymentID) }},
		{Key: "order", Title: "Order", Width: 10, MaxWidth: 24, Priority: 30,
			Text: func(r backend.Refund) string { return fact(r).order },
			Less: func(a, b backend.Refund) int { return cmpIDs(fact(a).order, fact(b).order) }},
		{Key: "customer", Title: "Customer", Width: 16, Flex: 3, Priority: 20,
			Text: func(r backend.Refund) string { return fact(r).customer },
			Less: func(a, b backend.Refund) int { return cmp.Compare(fact(a).customer, fact(b).customer) }},
	}
}

// ID implements ui.Tab.
func (t *Refunds) ID() ui.TabID { return ui.TabRefunds }

// Title implements ui.Tab.
func (t *Refunds) Title() string { return "Refunds" }

// Init implements ui.Tab: the first load of the scope.
func (t *Refunds) Init(s ui.Scope) tea.Cmd { return t.start(s) }

// start drops the old scope's list and pane and loads the new scope.
func (t *Refunds) start(s ui.Scope) tea.Cmd {
	t.scope = s
	t.detail.close()
	t.layout()
	t.list.span = [2]time.Time{s.Start, s.End}
	cmd := t.list.start(t.listOf(s), nil)
	t.reads.reset() // the old scope's reads end with its context
	return cmd
}

// listOf is the list of the scope's refunds.
func (t *Refunds) listOf(s ui.Scope) Loader[backend.Refund] {
	q := periodQuery(s)
	return func() backend.Pager[backend.Refund] { return t.src.ListRefunds(q) }
}

// roll moves a rolling period on to the service's now (a refresh's): the
// list reads up to now from here on, and rows older than its start leave.
func (t *Refunds) roll(now time.Time) {
	s, moved, startMoved := rolled(t.scope, now)
	if !moved {
		return
	}
	t.scope = s
	t.list.rescope(t.listOf(s), nil, [2]time.Time{s.Start, s.End}, startMoved)
}

// Context implements ui.Tab.
func (t *Refunds) Context() keys.Context { return listContext(t.list.filtering, t.detail.isOpen()) }

// Status implements ui.Tab.
func (t *Refunds) Status() ui.TabStatus {
	st := t.list.status()
	st.Loading = st.Loading || t.detail.loading
	return st
}

// Available implements ui.Tab: the tab has no actions.
func (t *Refunds) Available(action keys.Action) (bool, string) {
	switch action {
	case keys.ActCapture, keys.ActCancelHold, keys.ActRefund, keys.ActRevoke, keys.ActToggleSticker,
		keys.ActNew, keys.ActDocuments:
		return false, ""
	case keys.ActExport:
		return exportable(t.list)
	case keys.ActOpen, keys.ActRaw, keys.ActCopyID, keys.ActCopyMore:
		if _, ok := t.target(); !ok {
			return false, "no refund is selected"
		}
	}
	return true, ""
}

// target is the refund copy id acts on: the pane's, else the selected row.
func (t *Refunds) target() (backend.Refund, bool) {
	if t.detail.isOpen() {
		return t.detail.obj, true
	}
	return t.list.selected()
}

// Update implements ui.Tab: each message to the part it is for.
func (t *Refunds) Update(msg tea.Msg) (ui.Tab, tea.Cmd) {
	if cmd, rows, ok := t.list.update(msg, t.now()); ok {
		t.layout() // the bottom line comes or goes with the "↑ new" mark
		t.reads.noteRows(rows)
		return t, tea.Batch(cmd, t.readFacts())
	}
	if redraw, ok := t.reads.update(msg); ok {
		for _, id := range redraw {
			t.list.table.Redraw(id)
		}
		return t, t.readFacts() // a read is over: room for another
	}
	if _, ok := t.detail.update(msg); ok {
		return t, t.readFacts()
	}
	switch msg := msg.(type) {
	case ui.MouseMsg:
		cmd := t.route.mouse(msg)
		t.layout() // a double click may open the pane
		return t, tea.Batch(cmd, t.readFacts())
	case tea.KeyPressMsg:
		cmd := t.key(msg)
		t.layout() // a key may open or close the pane or the filter line
		return t, tea.Batch(cmd, t.readFacts())
	case ui.ScopeMsg:
		return t, t.start(msg.Scope)
	case ui.RefreshMsg:
		t.roll(msg.Now)
		t.reads.retryFailed()
		return t, tea.Batch(t.list.refresh(), t.detail.reload(), t.readFacts())
	case ui.SizeMsg:
		t.w, t.h = msg.Width, msg.Height
		t.layout()
		return t, t.readFacts()
	case ui.ThemeMsg:
		t.theme = msg.Theme
	case changedMsg:
		return t, t.onChanged(msg)
	}
	return t, nil
}

// onChanged shows a refund made in the Payments tab at once, selected, as
// the service answered it: the user sees their own refund when they next
// look here, not behind "↑ 1 new".
//
// A rolling period this tab has not moved on since it was last shown may
// end before the refund was made: the refresh that moves it brings the
// refund, selected then.
func (t *Refunds) onChanged(msg changedMsg) tea.Cmd {
	r, ok := msg.madeRefund()
	if !ok {
		return nil
	}
	if r.MerchantID == "" {
		r.MerchantID = msg.over.out.Payment.MerchantID
	}
	shown := inScope(t.scope, r.MerchantID, refundTime(r))
	later := t.scope.Rolling() && (r.MerchantID == "" || r.MerchantID == t.scope.MerchantID)
	if !shown && !later {
		return nil
	}
	t.list.own(r.ID)
	if !shown {
		return nil
	}
	t.list.upsert(r, t.now())
	t.layout()
	return t.readFacts()
}

func (t *Refunds) layout() { arrange(t.list, t.detail, t.w, t.h) }

// readFacts reads the payments of the refunds on screen (and in the pane)
// that are not known yet, as many as may be out at once. It costs the rows
// on screen at most, and nothing while the reads out are all it may have.
func (t *Refunds) readFacts() tea.Cmd {
	free := t.reads.free()
	if free <= 0 {
		return nil
	}
	var ids []string
	want := func(id string) bool {
		if t.reads.wanted(id) && !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
		return len(ids) < free
	}
	if t.detail.isOpen() && !want(t.detail.obj.PaymentID) {
		return t.reads.read(t.list.context(), ids)
	}
	t.list.table.OnScreen(func(r backend.Refund) bool { return want(r.PaymentID) })
	if len(ids) == 0 {
		return nil
	}
	return t.reads.read(t.list.context(), ids)
}

func (t *Refunds) key(msg tea.KeyPressMsg) tea.Cmd {
	a, cmd, handled := t.route.handle(msg)
	if handled {
		return cmd
	}
	if a == keys.ActCopyMore {
		return t.copyMore()
	}
	if a == keys.ActRefresh {
		// The refresh key re-reads the list only (a RefreshMsg re-reads
		// the open pane too), and tries the payments that failed again.
		t.reads.retryFailed()
		return t.list.refresh()
	}
	if a == keys.ActExport {
		return t.export()
	}
	return nil
}

// openPayment opens the refunded payment on the Payments tab (enter on
// the pane).
func (t *Refunds) openPayment() tea.Cmd {
	if id := t.detail.obj.PaymentID; id != "" {
		return msgCmd(ui.SwitchTabMsg{Tab: ui.TabPayments, Then: ui.JumpMsg{Query: id}})
	}
	return nil
}

// readRefund reads a refund in full (v2; v1 cannot: the list row is all
// there is).
func (t *Refunds) readRefund(ctx context.Context, r backend.Refund) (backend.Refund, error) {
	got, err := t.src.GetRefund(ctx, r.ID)
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

// View implements ui.Tab.
func (t *Refunds) View(w, h int) string {
	var pane []string
	if t.detail.isOpen() {
		pane = t.detail.lines(t.theme, "Refund "+textsafe.Clean(t.detail.obj.ID))
	}
	return frame(t.theme, t.list, pane, w, h)
}

// rawDetailLines is the raw view: the body the refund was read with, if any.
func (t *Refunds) rawDetailLines(r backend.Refund) []string {
	if len(r.Raw) == 0 {
		msg := "no body: the list does not keep one"
		if t.detail.loading {
			msg = "no body yet: the refund is being read"
		}
		return []string{t.theme.Muted.Render(msg)}
	}
	return rawLines(r.Raw)
}

// detailLines is everything about the refund, one fact a line.
func (t *Refunds) detailLines() []string {
	th := t.theme
	d := t.detail
	r := d.obj
	c := textsafe.Clean
	f := &fields{theme: th, labelW: 14, width: d.inner()}
	if d.loading && len(r.Raw) == 0 {
		f.line(th.Muted.Render("reading the full refund…"))
	}
	if d.err != nil {
		f.failure("", d.err)
	}
	f.addAlways("Status", refundStyle(th, r.Status).Render(refundStatusText(r.Status)))
	if r.Status != backend.RefundPending {
		// The service says Success while a refund is still pending
		// (nothing has failed yet); the status says it is not done.
		f.add("Result", resultText(r.ResultCode, r.Source))
	}
	f.add("Amount", fmtAmount(r.Amount))
	f.add("Payment", c(r.PaymentID))
	if pf, ok := t.facts.get(r.PaymentID); ok {
		f.add("Order", c(pf.order))
		f.add("Customer", c(pf.customer))
	}
	f.add("Merchant", c(r.MerchantID))
	f.add("Created", fmtTime(r.Created))
	f.add("Updated", fmtTime(r.Updated))
	f.add("External id", c(r.ExternalID))
	f.add("Read through", string(r.Source))
	if r.PaymentID != "" {
		f.line("")
		open := "enter"
		if b, ok := t.keys.Binding(keys.ActOpen); ok && len(b.Keys()) > 0 {
			open = b.Keys()[0]
		}
		f.line(th.Muted.Render(open + ": open payment " + c(r.PaymentID)))
	}
	return f.lines
}
