package views

import (
	"cmp"
	"context"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"paydash/backend"
	"paydash/backend/textsafe"
	"paydash/keys"
	"paydash/ui"
	"paydash/ui/datatable"
)

// Payments is the Payments tab: a merchant's payments of the period, a
// detail pane, jump by id or order number, and the actions capture, cancel
// hold and refund, each behind a confirmation and written to the journal.
type Payments struct {
	listTab[backend.Payment, *payDetail]
	// orders finds a loaded payment by its order number (lower-cased), the
	// newest when several share one.
	orders map[string]string

	jgen       uint64
	jumping    bool
	jumpCancel context.CancelFunc // cancels a search through the period

	// actions are the actions of this tab not yet over (being sent, or
	// their outcome being found out), by action id; at most one per
	// payment, which no other action may touch meanwhile.
	actions map[string]*tracked
}

// payDetail is the detail pane of one payment.
type payDetail struct {
	p        backend.Payment
	loading  bool // the full payment is being read
	err      error
	refunds  []backend.Refund
	rLoading bool
	rLoaded  bool
	rErr     error
	paneView
}

func (d *payDetail) pane() *paneView      { return &d.paneView }
func (d *payDetail) row() backend.Payment { return d.p }
func (d *payDetail) busy() bool           { return d.loading || d.rLoading }

// Messages of the Payments tab.
type (
	payDetailMsg struct {
		owner, gen uint64
		p          backend.Payment
		err        error
	}
	payRefundsMsg struct {
		owner, gen uint64
		refunds    []backend.Refund
		err        error
	}
	jumpResultMsg struct {
		owner, gen uint64
		query      string
		p          backend.Payment
		found      bool
		err        error
	}
)

// NewPayments makes the Payments tab.
func NewPayments(d Deps) ui.Tab {
	t := &Payments{
		orders:  map[string]string{},
		actions: map[string]*tracked{},
	}
	cfg := datatable.Config[backend.Payment]{
		ID:          func(p backend.Payment) string { return p.ID },
		Columns:     paymentColumns(t.rowAction),
		LoadingText: "Loading more payments…",
		EndText:     "— end of the period —",
		EmptyText:   "No payments in this period",
	}
	t.listTab = newListTab[backend.Payment, *payDetail](d, cfg, d.Backend.ListPayments, paymentTime, t)
	t.adopt(d.Pending)
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
func (t *Payments) rowAction(p backend.Payment) string {
	tr := t.trackedOn(p.ID)
	switch {
	case tr == nil:
		return ""
	case tr.state == stateSending:
		for _, ai := range actionInfos {
			if ai.kind == tr.req.Kind {
				return "→ " + ai.doing
			}
		}
		return "→ sending"
	case tr.state == stateChecking:
		return "? checking"
	}
	return "? unknown"
}

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
		{Key: "id", Title: "ID", Width: 8, Priority: 100,
			Text: func(p backend.Payment) string { return p.ID },
			Less: func(a, b backend.Payment) int { return cmpIDs(a.ID, b.ID) }},
		{Key: "created", Title: "Created", Width: 12, Priority: 60,
			Text: func(p backend.Payment) string { return fmtListTime(paymentTime(p)) },
			Less: func(a, b backend.Payment) int { return paymentTime(a).Compare(paymentTime(b)) }},
		{Key: "status", Title: "Status", Width: 14, Priority: 90,
			Text: status,
			Less: func(a, b backend.Payment) int { return cmp.Compare(a.Status, b.Status) }},
		{Key: "amount", Title: "Amount", Width: 15, Priority: 90, Align: lipgloss.Right,
			Text: func(p backend.Payment) string { return fmtAmount(p.Amount) },
			Less: func(a, b backend.Payment) int { return cmp.Compare(a.Amount.Value, b.Amount.Value) }},
		{Key: "order", Title: "Order", Width: 10, Priority: 50,
			Text: func(p backend.Payment) string { return p.OrderNo },
			Less: func(a, b backend.Payment) int { return cmp.Compare(a.OrderNo, b.OrderNo) }},
		{Key: "description", Title: "Description", Width: 12, Flex: 1, Priority: 80,
			Text: func(p backend.Payment) string { return p.Description },
			Less: func(a, b backend.Payment) int { return cmp.Compare(a.Description, b.Description) }},
		{Key: "instrument", Title: "Instrument", Width: 16, Priority: 40,
			Text: func(p backend.Payment) string { return p.InstrumentTitle },
			Less: func(a, b backend.Payment) int { return cmp.Compare(a.InstrumentTitle, b.InstrumentTitle) }},
	}
}

// Title implements ui.Tab.
func (t *Payments) Title() string { return "Payments" }

func (t *Payments) startScope(s ui.Scope) tea.Cmd {
	t.closeDetail()
	t.jgen++
	t.jumping = false
	if t.jumpCancel != nil {
		t.jumpCancel()
	}
	clear(t.orders)
	return t.list.start(s)
}

// Init implements ui.Tab: the first load, and the finding out of what an
// earlier run left without an outcome.
func (t *Payments) Init(s ui.Scope) tea.Cmd {
	return tea.Batch(t.listTab.Init(s), t.resume())
}

// Status implements ui.Tab.
func (t *Payments) Status() ui.TabStatus {
	st := t.listTab.Status()
	for _, tr := range t.actions {
		if tr.state == stateSending {
			st.Sending++
		} else {
			st.Checking++
		}
	}
	st.Loading = st.Loading || t.jumping || st.Sending > 0
	return st
}

// Update implements ui.Tab.
func (t *Payments) Update(msg tea.Msg) (ui.Tab, tea.Cmd) {
	switch msg := msg.(type) {
	case ui.JumpMsg:
		return t, t.jump(msg.Query)
	case pageMsg[backend.Payment]:
		// The order numbers are noted here; the list takes the page below.
		if msg.owner == t.owner && msg.gen == t.list.gen && msg.err == nil {
			t.noteOrders(msg.page.Items)
		}
	case refreshMsg[backend.Payment]:
		if msg.owner == t.owner && msg.gen == t.list.gen && msg.rgen == t.list.rgen && msg.err == nil {
			t.noteOrders(msg.rows)
		}
	case payDetailMsg:
		return t, t.onDetail(msg)
	case payRefundsMsg:
		t.onRefunds(msg)
		return t, nil
	case jumpResultMsg:
		return t, t.onJump(msg)
	case ui.ActionMsg:
		return t, t.startAction(msg.Action, msg.Ticket)
	case prepareMsg:
		return t, t.onPrepared(msg)
	case outcomeMsg:
		return t, t.onOutcome(msg)
	case checkDueMsg:
		return t, t.onCheckDue(msg)
	case ui.AbandonMsg:
		return t, t.abandon()
	}
	return t, t.update(msg)
}

func (t *Payments) noteOrders(rows []backend.Payment) {
	for _, p := range rows {
		if p.OrderNo == "" {
			continue
		}
		k := strings.ToLower(p.OrderNo)
		if id, ok := t.orders[k]; !ok || cmpIDs(p.ID, id) > 0 {
			t.orders[k] = p.ID
		}
	}
}

// detailKey: enter on an open pane does nothing (the payment is shown).
func (t *Payments) detailKey(action keys.Action) (tea.Cmd, bool) {
	return nil, action == keys.ActOpen
}

// otherKey handles refresh. The action keys come as ui.ActionMsg: the
// shell puts up the preparing dialog first.
func (t *Payments) otherKey(action keys.Action) tea.Cmd {
	if action == keys.ActRefresh {
		return t.refresh()
	}
	return nil
}

// --- detail ------------------------------------------------------------------

// openDetail opens the pane on p and reads it in full with its refunds.
func (t *Payments) openDetail(p backend.Payment) tea.Cmd {
	t.det = &payDetail{p: p}
	return t.loadDetail(p, !p.Detailed)
}

func (t *Payments) reloadDetail() tea.Cmd { return t.loadDetail(t.det.p, true) }

// loadDetail reads the pane's payment (if full) and its refunds again.
func (t *Payments) loadDetail(p backend.Payment, full bool) tea.Cmd {
	ctx, gen := t.newRead()
	d := t.det
	owner, b := t.owner, t.d.Backend
	var cmds []tea.Cmd
	if full {
		d.loading = true
		id := p.ID
		cmds = append(cmds, func() tea.Msg {
			fp, err := b.GetPayment(ctx, id)
			return payDetailMsg{owner: owner, gen: gen, p: fp, err: err}
		})
	} else {
		d.rawLines = nil
	}
	d.rLoading = true
	cmds = append(cmds, func() tea.Msg {
		rs, err := b.RefundsOfPayment(ctx, p)
		return payRefundsMsg{owner: owner, gen: gen, refunds: rs, err: err}
	})
	return tea.Batch(cmds...)
}

func (t *Payments) onDetail(msg payDetailMsg) tea.Cmd {
	d, ok := t.detailAnswer(msg.owner, msg.gen)
	if !ok {
		return nil
	}
	d.loading = false
	if msg.err != nil {
		if !cancelled(msg.err) {
			d.err = msg.err
		}
		return nil
	}
	d.err = nil
	d.p = msg.p
	d.rawLines = nil
	t.list.upsertOne(msg.p, msg.p.MerchantID, t.d.now())
	return nil
}

func (t *Payments) onRefunds(msg payRefundsMsg) {
	d, ok := t.detailAnswer(msg.owner, msg.gen)
	if !ok {
		return
	}
	d.rLoading = false
	if msg.err != nil {
		if !cancelled(msg.err) {
			d.rErr = msg.err
		}
		return
	}
	d.rErr = nil
	d.rLoaded = true
	d.refunds = msg.refunds
}

// --- jump --------------------------------------------------------------------

// jump finds a payment by id (all digits) or by order number: among the
// loaded rows first, then through the scope's whole period.
func (t *Payments) jump(query string) tea.Cmd {
	q := strings.TrimSpace(query)
	if q == "" {
		return nil
	}
	t.jgen++
	localID := t.orders[strings.ToLower(q)]
	if !isDigits(q) && localID != "" {
		if sel, ok := t.selectLoaded(localID); ok {
			return t.openDetail(sel)
		}
	}
	t.jumping = true
	if t.jumpCancel != nil {
		t.jumpCancel()
	}
	ctx, cancel := context.WithCancel(t.list.ctx)
	t.jumpCancel = cancel
	owner, gen, b, scope := t.owner, t.jgen, t.d.Backend, t.list.scope
	var notice tea.Cmd
	if !isDigits(q) {
		notice = toastCmd(ui.ToastInfo, "Looking for order number "+textsafe.Line(q, 60)+" in "+scopeText(scope)+"…")
	}
	return tea.Batch(notice, func() tea.Msg {
		res := jumpResultMsg{owner: owner, gen: gen, query: q}
		if isDigits(q) {
			p, err := b.GetPayment(ctx, q)
			if err == nil {
				res.p, res.found = p, true
				return res
			}
			if backend.KindOf(err) != backend.KindNotFound {
				res.err = err
				return res
			}
			if localID != "" {
				res.p, res.found = backend.Payment{ID: localID}, true
				return res
			}
		}
		pager := b.ListPayments(periodQuery(scope))
		for {
			page, err := pager.Next(ctx)
			if err != nil {
				res.err = err
				return res
			}
			for _, p := range page.Items {
				if strings.EqualFold(p.OrderNo, q) {
					res.p, res.found = p, true
					return res
				}
			}
			if page.Done {
				return res
			}
		}
	})
}

// selectLoaded selects a loaded row, clearing a filter that hides it.
func (t *Payments) selectLoaded(id string) (backend.Payment, bool) {
	tb := &t.list.table
	if !tb.SelectByID(id) && tb.FilterText() != "" {
		t.list.clearFilter()
		tb.SelectByID(id)
	}
	if sel, ok := tb.Selected(); ok && sel.ID == id {
		return sel, true
	}
	return backend.Payment{}, false
}

func (t *Payments) onJump(msg jumpResultMsg) tea.Cmd {
	if msg.owner != t.owner || msg.gen != t.jgen {
		return nil
	}
	t.jumping = false
	if t.jumpCancel != nil {
		t.jumpCancel()
		t.jumpCancel = nil
	}
	q := textsafe.Line(msg.query, 60)
	switch {
	case msg.err != nil && cancelled(msg.err):
		return nil
	case msg.err != nil:
		text := "Could not look for " + q + ": " + errText(msg.err)
		if h := hintOf(msg.err); h != "" {
			text += " — " + h
		}
		return toastCmd(ui.ToastError, text)
	case !msg.found:
		return toastCmd(ui.ToastWarning, "no payment with id or order number "+q+" in "+scopeText(t.list.scope))
	}
	if sel, ok := t.selectLoaded(msg.p.ID); ok && !msg.p.Detailed {
		return t.openDetail(sel)
	}
	return t.openDetail(msg.p)
}

// --- view --------------------------------------------------------------------

func (t *Payments) detailView(w, h int, border bool) []string {
	d := t.det
	return d.render(t.theme, "Payment "+textsafe.Clean(d.p.ID), w, h, border,
		func() []string { return paymentRawLines(d.p, t.theme) },
		func() []string { return t.detailLines(d) })
}

// detailLines is everything about the payment, one fact a line.
func (t *Payments) detailLines(d *payDetail) []string {
	th := t.theme
	p := d.p
	f := &fields{theme: th, labelW: 16}
	c := textsafe.Clean
	if d.loading && !p.Detailed {
		f.line(th.Muted.Render("reading the full payment…"))
	}
	if d.err != nil {
		f.failure("", d.err)
	}
	if tr := t.trackedOn(p.ID); tr != nil {
		st := th.Warning
		if tr.state == stateStuck {
			st = th.Danger
		}
		for _, l := range actionLines(tr) {
			f.line(st.Render(l))
		}
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
	}

	f.heading("Refunds")
	switch {
	case d.rErr != nil:
		f.failure("cannot read them: ", d.rErr)
	case !d.rLoaded:
		f.line(th.Muted.Render("reading…"))
	case len(d.refunds) == 0:
		f.line(th.Muted.Render("none"))
	default:
		for _, r := range d.refunds {
			when := fmtListTime(r.Created)
			if when == "" {
				when = fmtListTime(r.Updated)
			}
			f.line(fit(c(r.ID), 9) + " " + refundStyle(th, r.Status).Render(fit(refundStatusText(r.Status), 11)) +
				" " + fit(fmtAmount(r.Amount), 15) + " " + th.Muted.Render(when))
		}
	}
	if d.rLoaded && d.rErr == nil && p.Status == backend.PaymentSettled {
		refunded, left := refundable(p, d.refunds)
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
	switch s {
	case backend.PaymentSettled:
		return th.Success
	case backend.PaymentPending, backend.PaymentConfirmation, backend.PaymentAuthorized:
		return th.Warning
	case backend.PaymentCancelled, backend.PaymentRejected:
		return th.Danger
	}
	return th.Text
}

func refundStyle(th ui.Theme, s backend.RefundStatus) lipgloss.Style {
	switch s {
	case backend.RefundSuccess:
		return th.Success
	case backend.RefundPending:
		return th.Warning
	case backend.RefundRejected:
		return th.Danger
	}
	return th.Text
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
