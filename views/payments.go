package views

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
)

// Payments is the Payments tab: a merchant's payments of the period, a
// detail pane, jump by id or order number, and the actions capture, cancel
// hold and refund, each behind a confirmation and written to the journal
// (actions.go).
type Payments struct {
	src   paymentSource
	deps  Deps // the journal, the clock, the keys and the typed-check thresholds
	owner uint64
	theme ui.Theme
	prep  preparation // the read before an action's confirmation (actions.go)

	list   *pagedList[backend.Payment]
	detail *detail[backend.Payment]
	route  keyRoute[backend.Payment] // the keys every list tab handles alike
	// refunds are the refunds of the payment in the pane, read beside it.
	refunds paneRefunds
	scope   ui.Scope
	w, h    int

	// orders finds a loaded payment by its order number (lower-cased), the
	// newest when several share one.
	orders map[string]string

	// jump is the search for a payment (":", jump.go).
	jump jumpState

	// acts sends the actions and follows them to their outcomes; via is
	// the interface that carries them.
	acts *tracker
	via  backend.Interface
	// memo remembers the tokens the payments read used, for the Tokens tab;
	// tokenMerchant is the merchant of a token revoked from the pane.
	memo          tokenMemo
	tokenMerchant map[string]string
	// paneToken is the read of the pane's payment's token: its id, and
	// what went wrong (its state goes to memo).
	paneToken struct {
		id  string
		err error
	}

	// dialogs holds the dialog a key opens, for the shell to open at once
	// (ui.DialogOpener).
	dialogs dialogSlot
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
	stamp   stamp // the pane's read it was asked in
	refunds []backend.Refund
	err     error
}

// NewPayments makes the Payments tab.
func NewPayments(d Deps) ui.Tab {
	t := &Payments{
		src:    d.Backend,
		deps:   d,
		owner:  newOwner(),
		theme:  d.Theme,
		orders: map[string]string{},
		via:    action.Carrier(d.Backend),
		memo:   newTokenMemo(d),

		tokenMerchant: map[string]string{},
	}
	t.acts = newTracker(t.owner, d, func(ref objectRef) {
		if ref.kind == "payment" && t.list != nil {
			t.list.table.Redraw(ref.id)
		}
	})
	cols := paymentColumns(t.rowAction)
	cfg := datatable.Config[backend.Payment]{
		ID:          func(p backend.Payment) string { return p.ID },
		Columns:     cols,
		FilterText:  paymentHaystack(cols),
		LoadingText: "Loading more payments…",
		EndText:     "— end of the period —",
		EmptyText:   "No payments in this period",
		// Where else to look when a search finds nothing: a payment of
		// another period, by its id or order number, or a longer period.
		NoMatchText: "No match · " + keyName(d.Keys, keys.ActJump, ":") + " finds an id or order number in any period · " +
			keyName(d.Keys, keys.ActPeriod, "p") + " a longer period",
	}
	t.list = newPagedList(cfg, d.Keys, d.Theme, paymentTime)
	t.list.search = paymentSearch()
	if !slices.Contains(d.Backend.Describe().Interfaces, backend.V1) {
		why := "only the legacy interface (v1) gives a payment's customer, and it is not configured"
		t.list.search.unavailable = map[string]string{"email": why, "phone": why}
	}
	t.list.narrow = t.narrowed
	t.list.dialogs = &t.dialogs
	t.list.failText = "Could not load this period (the reason is below); press r to try again"
	t.detail = newDetail(t.readPayment, t.detailLines, func(p backend.Payment) []string { return paymentRawLines(p, t.theme) })
	t.route = keyRoute[backend.Payment]{km: t.deps.Keys, list: t.list, pane: t.detail, context: t.Context, available: t.Available, open: t.openDetail, closePane: t.closeDetail}
	t.acts.adopt(d.Pending, backend.ActionCapture, backend.ActionCancelHold, backend.ActionRefund,
		backend.ActionCreateInvoice)
	return t
}

// paymentTime orders payments: created, or the last update for v1-only rows.
func paymentTime(p backend.Payment) time.Time {
	if p.Created.IsZero() {
		return p.Updated
	}
	return p.Created
}

func cmpIDs(a, b string) int {
	if len(a) != len(b) && isDigits(a) && isDigits(b) {
		return cmp.Compare(len(a), len(b))
	}
	return cmp.Compare(a, b)
}

// rowAction is what the status column shows instead of the status while
// an action is under way on the payment ("→ refunding", "? checking"), ""
// when none is.
func (t *Payments) rowAction(p backend.Payment) string { return t.acts.rowMark(paymentRef(p.ID)) }

// paymentColumns are the list's columns; rowAction (nil: none) overrides
// the status while an action is under way on a payment.
func paymentColumns(rowAction func(backend.Payment) string) []datatable.Column[backend.Payment] {
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
			Less: func(a, b backend.Payment) int { return cmpIDs(a.ID, b.ID) }},
		{Key: "created", Title: "Created", Width: 12, Priority: 60,
			Text: func(p backend.Payment) string { return fmtListTime(paymentTime(p)) },
			Less: func(a, b backend.Payment) int { return paymentTime(a).Compare(paymentTime(b)) }},
		{Key: "status", Title: "Status", Width: 10, MaxWidth: 16, Priority: 90,
			Text: status,
			Tone: func(p backend.Payment) datatable.Tone {
				if rowAction != nil {
					return markedTone(rowAction(p), paymentTone(p.Status))
				}
				return paymentTone(p.Status)
			},
			Less: func(a, b backend.Payment) int { return cmp.Compare(a.Status, b.Status) }},
		{Key: "amount", Title: "Amount", Width: 10, MaxWidth: 18, Priority: 90, Align: lipgloss.Right,
			Text:  func(p backend.Payment) string { return fmtAmount(p.Amount) },
			Less:  func(a, b backend.Payment) int { return cmpAmounts(a.Amount, b.Amount) },
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
	return tea.Batch(t.start(s), t.acts.resume())
}

// start drops the old scope's list, pane and search and loads the new one.
func (t *Payments) start(s ui.Scope) tea.Cmd {
	t.scope = s
	t.closeDetail()
	t.stopJump()
	clear(t.orders)
	t.layout()
	t.list.span = [2]time.Time{s.Start, s.End}
	return t.list.start(t.listOf(s))
}

// listOf is the list of the scope's payments, and which rows read
// elsewhere belong to it.
func (t *Payments) listOf(s ui.Scope) (Loader[backend.Payment], func(backend.Payment) bool) {
	q := periodQuery(s)
	return func() backend.Pager[backend.Payment] { return t.src.ListPayments(q) },
		func(p backend.Payment) bool { return inScope(s, p.MerchantID, paymentTime(p)) }
}

// roll moves a rolling period on to the service's now (a refresh's): the
// list reads up to now from here on, and rows older than its start leave.
func (t *Payments) roll(now time.Time) {
	s, moved, startMoved := rolled(t.scope, now)
	if !moved {
		return
	}
	t.scope = s
	load, belongs := t.listOf(s)
	t.list.rescope(load, belongs, [2]time.Time{s.Start, s.End}, startMoved)
}

// narrowed is the list the service selects for a search, when it can
// (the legacy interface's listPaymentsFilter: one state, one order
// number), with the key that tells one such list from another; "" when it
// cannot, and the list reads the whole period.
func (t *Payments) narrowed(q search.Query) (Loader[backend.Payment], string) {
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
	pq := periodQuery(t.scope)
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

// inScope reports whether an object of merchant made at when belongs to s
// (an empty merchant or zero time: not known, so it may).
func inScope(s ui.Scope, merchant string, when time.Time) bool {
	if merchant != "" && merchant != s.MerchantID {
		return false
	}
	if when.IsZero() {
		return true
	}
	return (s.Start.IsZero() || !when.Before(s.Start)) && (s.End.IsZero() || when.Before(s.End))
}

// Context implements ui.Tab.
func (t *Payments) Context() keys.Context { return listContext(t.list.filtering, t.detail.isOpen()) }

// Status implements ui.Tab.
func (t *Payments) Status() ui.TabStatus {
	st := t.list.status()
	t.acts.counts(&st)
	st.Loading = st.Loading || t.detail.loading || t.refunds.loading || t.jump.active || st.Sending > 0
	if t.jump.active {
		st.Progress = t.jump.progress
	}
	return st
}

// target is the payment copy id and the actions act on: the one in the
// pane, else the selected row.
func (t *Payments) target() (backend.Payment, bool) {
	if t.detail.isOpen() {
		return t.detail.obj, true
	}
	return t.list.selected()
}

// Update implements ui.Tab: each message to the part it is for.
func (t *Payments) Update(msg tea.Msg) (ui.Tab, tea.Cmd) {
	if cmd, rows, ok := t.list.update(msg, t.deps.timeNow()); ok {
		t.layout() // the bottom line comes or goes with the "↑ new" mark
		// A jump's payment not loaded yet: the list reads on to it.
		found := t.noteOrders(rows)
		t.deps.Facts.notePayments(rows) // the Refunds tab shows their order numbers and customers
		return t, tea.Batch(cmd, found, t.memo.notePayments(t.scope.MerchantID, rows))
	}
	if loaded, ok := t.detail.update(msg); ok {
		if loaded {
			t.list.upsert(t.detail.obj, t.deps.timeNow())
			t.layout()
			var readToken tea.Cmd
			if tk := t.detail.obj.Token; tk != nil && tk.ID != t.paneToken.id {
				readToken = t.loadToken() // the list's row did not name it
			}
			return t, tea.Batch(t.memo.notePayments(t.scope.MerchantID, []backend.Payment{t.detail.obj}), readToken)
		}
		return t, nil
	}
	if cmd, over, ok := t.acts.update(msg); ok {
		if over != nil {
			cmd = tea.Batch(cmd, t.showOutcome(*over), changed(t.owner, *over))
		}
		return t, cmd
	}
	switch msg := msg.(type) {
	case ui.MouseMsg:
		cmd := t.route.mouse(msg)
		t.layout() // a double click may open the pane
		return t, cmd
	case tea.KeyPressMsg:
		cmd := t.key(msg)
		t.layout() // a key may open or close the pane or the filter line
		return t, cmd
	case ui.ScopeMsg:
		w := t.takeWiden(msg.Scope) // a payment a jump widened the scope for
		cmd := t.start(msg.Scope)
		return t, tea.Batch(cmd, t.openWidened(w))
	case ui.RefreshMsg:
		t.roll(msg.Now)
		return t, t.refresh()
	case ui.SizeMsg:
		t.w, t.h = msg.Width, msg.Height
		t.layout()
	case ui.ThemeMsg:
		t.theme = msg.Theme
	case ui.JumpMsg:
		cmd := t.startJump(msg.Query)
		t.layout()
		return t, cmd
	case jumpProgressMsg:
		return t, t.onJumpProgress(msg)
	case jumpResultMsg:
		cmd := t.onJump(msg)
		t.layout()
		return t, cmd
	case payRefundsMsg:
		t.onRefunds(msg)
	case ui.ActionMsg:
		return t, t.startAction(msg.Action, msg.Ticket)
	case prepareMsg:
		return t, t.onPrepared(msg)
	case ui.CancelActionMsg:
		t.prep.giveUp(msg.Ticket)
	case readAgainMsg:
		if t.prep.answered(msg.stamp) {
			return t, t.onTokenRead(msg)
		}
	case ui.AbandonMsg:
		return t, t.acts.abandon()
	case changedMsg:
		// A token revoked in the Tokens tab: the pane's token section
		// reads its state again.
		if id := msg.revokedToken(); msg.from != t.owner && id != "" && t.detail.isOpen() &&
			t.detail.obj.Token != nil && t.detail.obj.Token.ID == id {
			return t, t.reloadDetail()
		}
	case paneTokenMsg:
		return t, t.onPaneToken(msg)
	}
	return t, nil
}

func (t *Payments) layout() { arrange(t.list, t.detail, t.w, t.h) }

// refresh re-reads the newest pages and the open pane.
func (t *Payments) refresh() tea.Cmd {
	return tea.Batch(t.list.refresh(), t.reloadDetail())
}

func (t *Payments) key(msg tea.KeyPressMsg) tea.Cmd {
	a, cmd, handled := t.route.handle(msg)
	if handled {
		return cmd
	}
	if a == keys.ActCopyMore {
		return t.copyMore()
	}
	switch a {
	case keys.ActRefresh:
		return t.refresh()
	case keys.ActExport:
		return t.export()
	}
	// The action keys come as ui.ActionMsg: the shell puts up the
	// preparing dialog first.
	return nil
}

// --- detail ------------------------------------------------------------------

// openDetail opens the pane on p and reads it in full (unless the row is
// already) with its refunds.
func (t *Payments) openDetail(p backend.Payment, raw bool) tea.Cmd {
	t.refunds = paneRefunds{}
	// A row that is the whole payment (a jump's answer) is not read again.
	cmd := t.detail.show(p, raw, p.Detailed)
	t.paneToken.id, t.paneToken.err = "", nil
	return tea.Batch(cmd, t.loadRefunds(), t.loadToken(), t.memo.notePayments(t.scope.MerchantID, []backend.Payment{p}))
}

func (t *Payments) closeDetail() {
	t.detail.close()
	t.refunds = paneRefunds{}
}

// reloadDetail reads the pane's payment and its refunds again.
func (t *Payments) reloadDetail() tea.Cmd {
	if !t.detail.isOpen() {
		return nil
	}
	return tea.Batch(t.detail.reload(), t.loadRefunds(), t.loadToken())
}

// loadToken reads the token of the payment in the pane, if it names one.
func (t *Payments) loadToken() tea.Cmd {
	tk := t.detail.obj.Token
	if tk == nil || tk.ID == "" {
		return nil
	}
	t.paneToken.id = tk.ID
	ctx, st := t.detail.readStamp()
	src, id, merchant := t.src, tk.ID, t.paneMerchant()
	return func() tea.Msg {
		tok, err := src.GetToken(ctx, id)
		return paneTokenMsg{stamp: st, merchant: merchant, tok: tok, err: err}
	}
}

// onPaneToken keeps the state of the pane's token as just read.
func (t *Payments) onPaneToken(msg paneTokenMsg) tea.Cmd {
	if !t.detail.current(msg.stamp) {
		return nil
	}
	if msg.err != nil {
		if !cancelled(msg.err) {
			t.paneToken.err = msg.err
		}
		return nil
	}
	t.paneToken.err = nil
	t.tokenMerchant[msg.tok.ID] = msg.merchant
	return t.memo.note(msg.merchant, known.FromToken(msg.tok, known.LookedUp))
}

// readPayment reads a payment in full.
func (t *Payments) readPayment(ctx context.Context, p backend.Payment) (backend.Payment, error) {
	return t.src.GetPayment(ctx, p.ID)
}

// loadRefunds reads the refunds of the pane's payment, in the pane's
// current read generation.
func (t *Payments) loadRefunds() tea.Cmd {
	t.refunds.loading = true
	ctx, st := t.detail.readStamp()
	src, p := t.src, t.detail.obj
	return func() tea.Msg {
		rs, err := src.RefundsOfPayment(ctx, p)
		return payRefundsMsg{stamp: st, refunds: rs, err: err}
	}
}

func (t *Payments) onRefunds(msg payRefundsMsg) {
	if !t.detail.current(msg.stamp) {
		return
	}
	t.refunds.loading = false
	if msg.err != nil {
		if !cancelled(msg.err) {
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
	if t.detail.isOpen() {
		pane = t.detail.lines(t.theme, "Payment "+textsafe.Clean(t.detail.obj.ID))
	}
	return frame(t.theme, t.list, pane, w, h)
}

// detailLines is everything about the payment, one fact a line.
func (t *Payments) detailLines() []string {
	th := t.theme
	d, rf := t.detail, t.refunds
	p := d.obj
	f := &fields{theme: th, labelW: 16, width: d.inner()}
	c := textsafe.Clean
	if d.loading && !p.Detailed {
		f.line(th.Muted.Render("reading the full payment…"))
	}
	if d.err != nil {
		f.failure("", d.err)
	}
	for _, l := range t.acts.paneLines(th, paymentRef(p.ID)) {
		f.line(l)
	}

	f.addAlways("Status", statusStyle(th, p.Status).Render(paymentStatusText(p.Status)))
	f.add("Result", resultText(p.ResultCode, p.Source))
	f.add("Message", c(p.Message))
	f.add("Amount", fmtAmount(p.Amount))
	f.add("Merchant", c(p.MerchantID))
	f.add("Created", fmtTime(p.Created))
	f.add("Completed", fmtTime(p.Completed))
	f.add("Updated", fmtTime(p.Updated))
	if p.Detailed {
		f.add("Test mode", yesNo(p.TestMode))
	}
	f.add("Read through", string(p.Source))

	f.heading("Invoice")
	f.add("Order no", c(p.OrderNo))
	f.add("Description", c(p.Description))
	f.add("Expires", fmtTime(p.InvoiceExpires))
	for _, k := range sortedKeys(p.InvoiceParams) {
		f.add("  "+c(k), c(p.InvoiceParams[k]))
	}

	f.heading("Customer")
	f.add("IP", c(p.CustomerIP))
	if v := p.V1; v != nil {
		f.add("Identifier", c(v.UserIdentifier))
		f.add("Phone", c(v.UserPhoneNumber))
	}
	if p.CustomerIP == "" && (p.V1 == nil || (p.V1.UserIdentifier == "" && p.V1.UserPhoneNumber == "")) {
		f.line(th.Muted.Render("not known" + ifThen(!p.Detailed, " yet")))
	}

	f.heading("Payment method")
	f.add("Method", c(p.PaymentMethod))
	f.add("Instrument", c(p.InstrumentTitle))
	f.add("Agreement", c(p.Agreement))
	if cd := p.Card; cd != nil {
		f.add("Card brand", c(cd.Brand))
		f.add("Issuer", c(cd.Issuer))
		f.add("Country", c(cd.Country))
		f.add("Card type", c(cd.Type))
		f.add("Category", c(cd.Category))
	}
	if cf := p.Confirmation; cf != nil {
		f.heading("Confirmation")
		f.add("Type", c(cf.Type))
		f.add("Payment URL", c(cf.PaymentURL))
		if cf.PaymentURL != "" {
			f.add("Universal link", yesNo(cf.UniversalLink))
		}
		f.add("Instruction", c(cf.Instruction))
		f.add("Masked phone", c(cf.MaskedPhone))
		f.add("Method URL", c(cf.MethodURL))
		f.add("Transaction", c(cf.TransactionID))
		f.add("ACS URL", c(cf.AcsURL))
		f.add("CReq", c(cf.CReq))
		f.add("PAReq", c(cf.PAReq))
	}
	if tk := p.Token; tk != nil {
		f.heading("Token")
		f.add("ID", c(tk.ID))
		f.add("Title", c(tk.Title))
		f.add("Expires", fmtTime(tk.Expires))
		switch st := t.memo.status(t.paneMerchant(), tk.ID); {
		case st != "":
			f.addAlways("Status", tokenStatusStyle(th, st)(tokenStatusText(st)))
		case t.paneToken.err != nil:
			f.failure("status: cannot read it: ", t.paneToken.err)
		default:
			f.addAlways("Status", th.Muted.Render("reading…"))
		}
		for _, l := range t.acts.paneLines(th, tokenRef(tk.ID)) {
			f.line(l)
		}
	}

	f.heading("Refunds")
	switch {
	case rf.err != nil:
		f.failure("cannot read them: ", rf.err)
	case !rf.loaded:
		f.line(th.Muted.Render("reading…"))
	case len(rf.items) == 0:
		f.line(th.Muted.Render("none"))
	default:
		for _, r := range rf.items {
			when := fmtListTime(r.Created)
			if when == "" {
				when = fmtListTime(r.Updated)
			}
			f.line(fit(c(r.ID), 9) + " " + refundStyle(th, r.Status).Render(fit(refundStatusText(r.Status), 11)) +
				" " + fit(fmtAmount(r.Amount), 15) + " " + th.Muted.Render(when))
		}
	}
	if rf.loaded && rf.err == nil && p.Status == backend.PaymentSettled {
		refunded, left := refundable(p, rf.items)
		f.add("Captured", fmtAmount(p.Amount))
		f.add("Refunded", fmtAmount(refunded)+th.Muted.Render(" (pending included)"))
		f.addAlways("Refundable", th.Accent.Render(fmtAmount(left)))
	}

	if v := p.V1; v != nil {
		f.heading("v1 view")
		f.add("State", c(v.State))
		f.add("PaymentAmount", fmtAmount(v.PaymentAmount))
		f.add("UserIdentifier", c(v.UserIdentifier))
		f.add("UserPhoneNumber", c(v.UserPhoneNumber))
		f.add("LastUpdate", fmtTime(v.LastUpdate))
		if v.ErrorCode != 0 {
			f.add("ErrorCode", strconv.Itoa(v.ErrorCode))
		}
	}
	return f.lines
}

func statusStyle(th ui.Theme, s backend.PaymentStatus) lipgloss.Style {
	return toneStyle(th, paymentTone(s))
}

func refundStyle(th ui.Theme, s backend.RefundStatus) lipgloss.Style {
	return toneStyle(th, refundTone(s))
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func ifThen(b bool, s string) string {
	if b {
		return s
	}
	return ""
}
