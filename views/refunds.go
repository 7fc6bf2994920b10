package views

import (
	"cmp"
	"context"
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
	d     Deps
	owner uint64
	theme ui.Theme
	list  *pagedList[backend.Refund]

	w, h int // the tab area, from SizeMsg

	det       *refundDetail
	dgen      uint64
	detCancel context.CancelFunc
}

type refundDetail struct {
	r        backend.Refund
	loading  bool
	err      error
	raw      bool
	rawLines []string
	sc, rsc  scroller
}

type refundDetailMsg struct {
	owner, gen uint64
	r          backend.Refund
	err        error
}

// NewRefunds makes the Refunds tab.
func NewRefunds(d Deps) ui.Tab {
	t := &Refunds{d: d, owner: newOwner(), theme: d.Theme}
	cfg := datatable.Config[backend.Refund]{
		ID:          func(r backend.Refund) string { return r.ID },
		Columns:     refundColumns(),
		LoadingText: "Loading more refunds…",
		EndText:     "— end of the period —",
		EmptyText:   "No refunds in this period",
	}
	t.list = newPagedList(t.owner, cfg, d.Keys, d.Theme, d.Backend.ListRefunds, refundTime)
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

// Init implements ui.Tab.
func (t *Refunds) Init(s ui.Scope) tea.Cmd { return t.startScope(s) }

func (t *Refunds) startScope(s ui.Scope) tea.Cmd {
	t.closeDetail()
	return t.list.start(s)
}

// closeDetail closes the pane and abandons what it was reading.
func (t *Refunds) closeDetail() {
	t.det = nil
	t.dgen++
	if t.detCancel != nil {
		t.detCancel()
		t.detCancel = nil
	}
}

// Context implements ui.Tab.
func (t *Refunds) Context() keys.Context {
	switch {
	case t.list.filtering:
		return keys.ContextFilter
	case t.det != nil:
		return keys.ContextDetail
	}
	return keys.ContextList
}

// Available implements ui.Tab: the tab has no actions.
func (t *Refunds) Available(action string) (bool, string) {
	switch action {
	case keys.ActCapture, keys.ActCancelHold, keys.ActRefund, keys.ActRevoke, keys.ActToggleSticker,
		keys.ActNew, keys.ActExport:
		return false, ""
	case keys.ActOpen, keys.ActRaw, keys.ActCopyID:
		if t.det == nil {
			if _, ok := t.list.table.Selected(); !ok {
				return false, "no refund is selected"
			}
		}
	}
	return true, ""
}

// Status implements ui.Tab.
func (t *Refunds) Status() ui.TabStatus {
	st := t.list.status()
	st.Loading = st.Loading || (t.det != nil && t.det.loading)
	return st
}

// Update implements ui.Tab.
func (t *Refunds) Update(msg tea.Msg) (ui.Tab, tea.Cmd) {
	now := t.d.now()
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		cmd := t.key(msg)
		if t.w > 0 && t.h > 0 {
			t.list.layout(t.w, t.h, t.det != nil)
		}
		return t, cmd
	case ui.ScopeMsg:
		return t, t.startScope(msg.Scope)
	case ui.RefreshMsg:
		cmd := t.list.refresh()
		if t.det != nil {
			cmd = tea.Batch(cmd, t.loadDetail())
		}
		return t, cmd
	case ui.SizeMsg:
		t.w, t.h = msg.Width, msg.Height
		t.list.layout(t.w, t.h, t.det != nil)
	case tea.PasteMsg:
		return t, t.list.paste(msg)
	case ui.TickMsg:
		t.list.table.Tick(msg.Now)
	case ui.ThemeMsg:
		t.theme = msg.Theme
		t.list.setTheme(msg.Theme)
	case pageMsg[backend.Refund]:
		return t, t.list.onPage(msg, now)
	case refreshMsg[backend.Refund]:
		return t, t.list.onRefresh(msg, now)
	case refundDetailMsg:
		if msg.owner != t.owner || msg.gen != t.dgen || t.det == nil {
			return t, nil
		}
		t.det.loading = false
		switch {
		case backend.KindOf(msg.err) == backend.KindUnsupported, cancelled(msg.err):
			// v1 cannot read one refund: the list row is all there is.
		case msg.err != nil:
			t.det.err = msg.err
		default:
			t.det.err = nil
			keepMerchant := t.det.r.MerchantID
			t.det.r, t.det.rawLines = msg.r, nil
			if t.det.r.MerchantID == "" {
				t.det.r.MerchantID = keepMerchant
			}
		}
	}
	return t, nil
}

func (t *Refunds) key(msg tea.KeyPressMsg) tea.Cmd {
	if t.list.filtering {
		return t.list.filterKey(msg, t.d.Keys)
	}
	p, ok := t.d.Keys.Resolve(msg, t.Context(), t.Available)
	if !ok {
		return nil
	}
	if !p.Enabled {
		if p.Reason != "" && p.Reason != keys.NotHere {
			return toastCmd(ui.ToastWarning, p.Reason)
		}
		return nil
	}
	if d := t.det; d != nil {
		switch p.Action {
		case keys.ActClose:
			if d.raw {
				d.raw = false
			} else {
				t.closeDetail()
			}
			return nil
		case keys.ActRaw:
			d.raw = !d.raw
			return nil
		case keys.ActOpen:
			// Open the refunded payment on the Payments tab.
			if d.r.PaymentID == "" {
				return nil
			}
			return msgCmd(ui.SwitchTabMsg{Title: "Payments", Then: ui.JumpMsg{Query: d.r.PaymentID}})
		case keys.ActCopyID:
			return copyID(d.r.ID)
		}
		sc := &d.sc
		if d.raw {
			sc = &d.rsc
		}
		if sc.key(p.Action) {
			return nil
		}
	}
	switch p.Action {
	case keys.ActUp, keys.ActDown, keys.ActPageUp, keys.ActPageDown, keys.ActTop, keys.ActBottom:
		var cmd tea.Cmd
		t.list.table, cmd = t.list.table.Update(msg)
		return tea.Batch(cmd, t.list.maybeNext())
	case keys.ActOpen, keys.ActRaw:
		if sel, ok := t.list.table.Selected(); ok {
			t.det = &refundDetail{r: sel, raw: p.Action == keys.ActRaw}
			return t.loadDetail()
		}
	case keys.ActClose:
		if t.list.table.FilterText() != "" {
			t.list.clearFilter()
		}
	case keys.ActFilter:
		t.closeDetail() // the filter works on the list: show it
		t.list.focusFilter()
	case keys.ActRefresh:
		return t.list.refresh()
	case keys.ActCopyID:
		if sel, ok := t.list.table.Selected(); ok {
			return copyID(sel.ID)
		}
	}
	return nil
}

// loadDetail reads the pane's refund in full (v2; v1 cannot).
func (t *Refunds) loadDetail() tea.Cmd {
	t.dgen++
	t.det.loading = true
	if t.detCancel != nil {
		t.detCancel()
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.detCancel = cancel
	owner, gen, b, id := t.owner, t.dgen, t.d.Backend, t.det.r.ID
	return func() tea.Msg {
		r, err := b.GetRefund(ctx, id)
		return refundDetailMsg{owner: owner, gen: gen, r: r, err: err}
	}
}

// View implements ui.Tab.
func (t *Refunds) View(w, h int) string {
	if t.det == nil {
		return t.list.view(t.theme, w, h, nil)
	}
	return t.list.view(t.theme, w, h, t.detailView)
}

func (t *Refunds) detailView(w, h int, border bool) []string {
	d := t.det
	th := t.theme
	title := "Refund " + textsafe.Clean(d.r.ID)
	if d.raw {
		title += " · raw"
		if d.rawLines == nil {
			if len(d.r.Raw) == 0 {
				msg := "no body: the list does not keep one"
				if d.loading {
					msg = "no body yet: the refund is being read"
				}
				d.rawLines = []string{th.Muted.Render(msg)}
			} else {
				d.rawLines = rawLines(d.r.Raw)
			}
		}
		return d.rsc.render(th, title, d.rawLines, w, h, border)
	}
	r := d.r
	c := textsafe.Clean
	f := &fields{theme: th, labelW: 14}
	if d.loading && len(r.Raw) == 0 {
		f.line(th.Muted.Render("reading the full refund…"))
	}
	if d.err != nil {
		f.line(th.Danger.Render("✗ " + errText(d.err)))
		if h := hintOf(d.err); h != "" {
			f.line(th.Muted.Render("  " + h))
		}
	}
	f.addAlways("Status", refundStyle(th, r.Status).Render(refundStatusText(r.Status)))
	if rc := c(r.ResultCode); rc != "" && r.Source == backend.V2 {
		if m := backend.ResultMeaning(r.ResultCode); m != "" {
			rc += " — " + c(m)
		}
		f.add("Result", rc)
	} else {
		f.add("Result", rc)
	}
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
	return d.sc.render(th, title, f.lines, w, h, border)
}
