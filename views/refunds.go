package views

import (
	"cmp"
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
	listTab[backend.Refund, *refundDetail]
}

type refundDetail struct {
	r       backend.Refund
	loading bool
	err     error
	paneView
}

func (d *refundDetail) pane() *paneView     { return &d.paneView }
func (d *refundDetail) row() backend.Refund { return d.r }
func (d *refundDetail) busy() bool          { return d.loading }

type refundDetailMsg struct {
	owner, gen uint64
	r          backend.Refund
	err        error
}

// NewRefunds makes the Refunds tab.
func NewRefunds(d Deps) ui.Tab {
	t := &Refunds{}
	cfg := datatable.Config[backend.Refund]{
		ID:          func(r backend.Refund) string { return r.ID },
		Columns:     refundColumns(),
		LoadingText: "Loading more refunds…",
		EndText:     "— end of the period —",
		EmptyText:   "No refunds in this period",
	}
	t.listTab = newListTab[backend.Refund, *refundDetail](d, cfg, d.Backend.ListRefunds, refundTime, t)
	return t
}

func refundTime(r backend.Refund) time.Time {
	if r.Created.IsZero() {
		return r.Updated
	}
	return r.Created
}

func refundColumns() []datatable.Column[backend.Refund] {
	return []datatable.Column[backend.Refund]{
		{Key: "id", Title: "ID", Width: 8, Priority: 100,
			Text: func(r backend.Refund) string { return r.ID },
			Less: func(a, b backend.Refund) int { return cmpIDs(a.ID, b.ID) }},
		{Key: "created", Title: "Created", Width: 12, Priority: 60,
			Text: func(r backend.Refund) string { return fmtListTime(refundTime(r)) },
			Less: func(a, b backend.Refund) int { return refundTime(a).Compare(refundTime(b)) }},
		{Key: "status", Title: "Status", Width: 11, Priority: 90,
			Text: func(r backend.Refund) string { return refundStatusText(r.Status) },
			Less: func(a, b backend.Refund) int { return cmp.Compare(a.Status, b.Status) }},
		{Key: "amount", Title: "Amount", Width: 15, Priority: 90, Align: lipgloss.Right,
			Text: func(r backend.Refund) string { return fmtAmount(r.Amount) },
			Less: func(a, b backend.Refund) int { return cmp.Compare(a.Amount.Value, b.Amount.Value) }},
		{Key: "payment", Title: "Payment", Width: 10, Flex: 1, Priority: 80,
			Text: func(r backend.Refund) string { return r.PaymentID },
			Less: func(a, b backend.Refund) int { return cmpIDs(a.PaymentID, b.PaymentID) }},
	}
}

// Title implements ui.Tab.
func (t *Refunds) Title() string { return "Refunds" }

func (t *Refunds) startScope(s ui.Scope) tea.Cmd {
	t.closeDetail()
	return t.list.start(s)
}

// Available implements ui.Tab: the tab has no actions.
func (t *Refunds) Available(action keys.Action) (bool, string) {
	switch action {
	case keys.ActCapture, keys.ActCancelHold, keys.ActRefund, keys.ActRevoke, keys.ActToggleSticker,
		keys.ActNew, keys.ActExport:
		return false, ""
	case keys.ActOpen, keys.ActRaw, keys.ActCopyID:
		if _, ok := t.target(); !ok {
			return false, "no refund is selected"
		}
	}
	return true, ""
}

// Update implements ui.Tab.
func (t *Refunds) Update(msg tea.Msg) (ui.Tab, tea.Cmd) {
	if msg, ok := msg.(refundDetailMsg); ok {
		t.onDetail(msg)
		return t, nil
	}
	return t, t.update(msg)
}

func (t *Refunds) onDetail(msg refundDetailMsg) {
	d, ok := t.detailAnswer(msg.owner, msg.gen)
	if !ok {
		return
	}
	d.loading = false
	switch {
	case backend.KindOf(msg.err) == backend.KindUnsupported, cancelled(msg.err):
		// v1 cannot read one refund: the list row is all there is.
	case msg.err != nil:
		d.err = msg.err
	default:
		d.err = nil
		keepMerchant := d.r.MerchantID
		d.r, d.rawLines = msg.r, nil
		if d.r.MerchantID == "" {
			d.r.MerchantID = keepMerchant
		}
	}
}

// detailKey: enter on the pane opens the refunded payment on the Payments
// tab.
func (t *Refunds) detailKey(action keys.Action) (tea.Cmd, bool) {
	if action != keys.ActOpen {
		return nil, false
	}
	if t.det.r.PaymentID == "" {
		return nil, true
	}
	return msgCmd(ui.SwitchTabMsg{Title: "Payments", Then: ui.JumpMsg{Query: t.det.r.PaymentID}}), true
}

// otherKey: the refresh key re-reads the list only (a RefreshMsg re-reads
// the open pane too).
func (t *Refunds) otherKey(action keys.Action) tea.Cmd {
	if action == keys.ActRefresh {
		return t.list.refresh()
	}
	return nil
}

func (t *Refunds) openDetail(r backend.Refund) tea.Cmd {
	t.det = &refundDetail{r: r}
	return t.loadDetail()
}

func (t *Refunds) reloadDetail() tea.Cmd { return t.loadDetail() }

// loadDetail reads the pane's refund in full (v2; v1 cannot).
func (t *Refunds) loadDetail() tea.Cmd {
	t.det.loading = true
	ctx, gen := t.newRead()
	owner, b, id := t.owner, t.d.Backend, t.det.r.ID
	return func() tea.Msg {
		r, err := b.GetRefund(ctx, id)
		return refundDetailMsg{owner: owner, gen: gen, r: r, err: err}
	}
}

func (t *Refunds) detailView(w, h int, border bool) []string {
	d := t.det
	return d.render(t.theme, "Refund "+textsafe.Clean(d.r.ID), w, h, border,
		func() []string { return t.rawDetailLines(d) },
		func() []string { return t.detailLines(d) })
}

// rawDetailLines is the raw view: the body the refund was read with, if any.
func (t *Refunds) rawDetailLines(d *refundDetail) []string {
	if len(d.r.Raw) == 0 {
		msg := "no body: the list does not keep one"
		if d.loading {
			msg = "no body yet: the refund is being read"
		}
		return []string{t.theme.Muted.Render(msg)}
	}
	return rawLines(d.r.Raw)
}

// detailLines is everything about the refund, one fact a line.
func (t *Refunds) detailLines(d *refundDetail) []string {
	th := t.theme
	r := d.r
	c := textsafe.Clean
	f := &fields{theme: th, labelW: 14}
	if d.loading && len(r.Raw) == 0 {
		f.line(th.Muted.Render("reading the full refund…"))
	}
	if d.err != nil {
		f.failure("", d.err)
	}
	f.addAlways("Status", refundStyle(th, r.Status).Render(refundStatusText(r.Status)))
	f.add("Result", resultText(r.ResultCode, r.Source))
	f.add("Amount", fmtAmount(r.Amount))
	f.add("Payment", c(r.PaymentID))
	f.add("Merchant", c(r.MerchantID))
	f.add("Created", fmtTime(r.Created))
	f.add("Updated", fmtTime(r.Updated))
	f.add("External id", c(r.ExternalID))
	f.add("Read through", string(r.Source))
	if r.PaymentID != "" {
		f.line("")
		open := "enter"
		if b, ok := t.d.Keys.Binding(keys.ActOpen); ok && len(b.Keys()) > 0 {
			open = b.Keys()[0]
		}
		f.line(th.Muted.Render(open + ": open payment " + c(r.PaymentID)))
	}
	return f.lines
}
