package refunds

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend"
	"paydash/ui"
	"paydash/ui/datatable"
	"paydash/views/internal/viewtest"
	"paydash/views/payments"
	"paydash/views/tab"
)

// paymentReads counts the payments the tab reads, by id; fail makes every
// read fail as if the service were down.
type paymentReads struct {
	backend.Backend
	mu   sync.Mutex
	ids  map[string]int
	fail bool
}

func (p *paymentReads) GetPayment(ctx context.Context, id string) (backend.Payment, error) {
	p.mu.Lock()
	if p.ids == nil {
		p.ids = map[string]int{}
	}
	p.ids[id]++
	fail := p.fail
	p.mu.Unlock()
	if fail {
		return backend.Payment{}, &backend.Error{Kind: backend.KindUnavailable, Op: "read payment " + id, Message: "injected failure"}
	}
	return p.Backend.GetPayment(ctx, id)
}

func (p *paymentReads) counts() map[string]int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return maps(p.ids)
}

func maps(m map[string]int) map[string]int {
	out := make(map[string]int, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func newFactsEnv(t *testing.T, o viewtest.Opts) (*env, *paymentReads) {
	t.Helper()
	reads := &paymentReads{}
	if o.Tab == nil {
		o.Tab = New
	}
	o.Wrap = func(b backend.Backend) backend.Backend { reads.Backend = b; return reads }
	e := newEnv(t, o)
	if o.Fixed.IsZero() {
		e.Scope.Start = e.Scope.End.AddDate(0, 0, -180) // more refunds than one screen
	}
	return e, reads
}

// onScreenRefunds are the refunds drawn on screen, read the slow way.
func onScreenRefunds(r *Refunds) []backend.Refund {
	tb := r.List.Table
	shown := tb.Shown()
	off := tb.Offset()
	return shown[off:min(off+tb.Height()-1, len(shown))]
}

func refundPaymentIDs(rs []backend.Refund) []string {
	var ids []string
	for _, x := range rs {
		if x.PaymentID != "" && !slices.Contains(ids, x.PaymentID) {
			ids = append(ids, x.PaymentID)
		}
	}
	return ids
}

// lineOf is the screen line that shows refund id.
func lineOf(t *testing.T, view, id string) string {
	t.Helper()
	for _, l := range strings.Split(ansi.Strip(view), "\n") {
		if strings.Contains(l, " "+id+" ") {
			return l
		}
	}
	t.Fatalf("refund %s is not on screen:\n%s", id, ansi.Strip(view))
	return ""
}

func TestRefundsOrderColumnReadsOnlyTheRowsOnScreen(t *testing.T) {
	t.Parallel()
	e, reads := newFactsEnv(t, viewtest.Opts{})
	// Six lines: more refunds are loaded than the screen shows.
	e.Size(200, 6)
	e.Init()
	r := e.Tab.(*Refunds)
	require.Empty(t, e.Errors())
	assert.Contains(t, r.List.Table.ShownColumns(), "order")
	assert.Contains(t, r.List.Table.ShownColumns(), "customer")

	screen := onScreenRefunds(r)
	require.Greater(t, r.List.Table.Len(), len(screen), "more refunds are loaded than shown")
	want := refundPaymentIDs(screen)
	got := reads.counts()
	assert.ElementsMatch(t, want, keysOf(got), "exactly the payments of the refunds on screen are read")
	for id, n := range got {
		assert.Equal(t, 1, n, "payment %s is read once", id)
	}

	v := e.View(200, 6)
	for _, x := range screen {
		p, err := e.B.GetPayment(context.Background(), x.PaymentID)
		require.NoError(t, err)
		require.NotEmpty(t, p.OrderNo)
		assert.Contains(t, lineOf(t, v, x.ID), " "+p.OrderNo+" ", "refund %s shows its payment's order number", x.ID)
	}

	// Moving within the screen reads nothing again; a page down reads the
	// new rows' payments, each once.
	e.Press("down", "down", "up")
	assert.Equal(t, got, reads.counts())
	e.Press("pgdown")
	screen2 := onScreenRefunds(r)
	after := reads.counts()
	for _, id := range refundPaymentIDs(screen2) {
		assert.Equal(t, 1, after[id], "payment %s of a refund now on screen is read once", id)
	}
	for id, n := range after {
		assert.Equal(t, 1, n, "payment %s is read once", id)
		assert.True(t, slices.Contains(want, id) || slices.Contains(refundPaymentIDs(screen2), id),
			"payment %s belongs to no refund that was on screen", id)
	}
	v = e.View(200, 6)
	for _, x := range screen2 {
		p, err := e.B.GetPayment(context.Background(), x.PaymentID)
		require.NoError(t, err)
		assert.Contains(t, lineOf(t, v, x.ID), " "+p.OrderNo+" ")
	}
}

func keysOf(m map[string]int) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestRefundsFailedPaymentReadIsNotRepeated(t *testing.T) {
	t.Parallel()
	e, reads := newFactsEnv(t, viewtest.Opts{})
	reads.fail = true
	e.Size(200, 50)
	e.Init()
	r := e.Tab.(*Refunds)
	want := refundPaymentIDs(onScreenRefunds(r))
	require.NotEmpty(t, want)
	assert.ElementsMatch(t, want, keysOf(reads.counts()))
	assert.Empty(t, e.Errors(), "a failed read of a cell is not an error to show")

	// No read again on keys and frames; the cells stay empty.
	e.Press("down", "up", "down")
	e.View(200, 50)
	for _, n := range reads.counts() {
		assert.Equal(t, 1, n)
	}
	head := strings.Split(ansi.Strip(e.View(200, 50)), "\n")[0]
	at := strings.Index(head, "Order")
	require.Positive(t, at)
	for _, l := range strings.Split(ansi.Strip(e.View(200, 50)), "\n")[1:10] {
		assert.Empty(t, strings.TrimSpace(l[at:at+14]), "an unknown order number is an empty cell: %q", l)
	}

	// A refresh tries again, once.
	reads.mu.Lock()
	reads.fail = false
	reads.mu.Unlock()
	e.Send(ui.RefreshMsg{Manual: true})
	e.Press("down")
	for _, id := range want {
		assert.Equal(t, 2, reads.counts()[id], "payment %s", id)
	}
	x := onScreenRefunds(r)[0]
	p, err := e.B.GetPayment(context.Background(), x.PaymentID)
	require.NoError(t, err)
	assert.Contains(t, lineOf(t, e.View(200, 50), x.ID), p.OrderNo)
}

func TestRefundsAt80ColumnsKeepTheColumnsThatMatter(t *testing.T) {
	t.Parallel()
	e, _ := newFactsEnv(t, viewtest.Opts{})
	e.Size(80, 24)
	e.Init()
	r := e.Tab.(*Refunds)
	cols := r.List.Table.ShownColumns()
	for _, c := range []string{"id", "status", "amount"} {
		assert.Contains(t, cols, c)
	}
	assert.NotContains(t, cols, "customer", "the customer is the first to go")
	head := strings.Split(ansi.Strip(e.View(80, 24)), "\n")[0]
	for _, c := range []string{"ID", "Status", "Amount"} {
		assert.Contains(t, head, c)
	}
	// Both sort like the other columns.
	for _, key := range []string{"order", "customer"} {
		i := slices.IndexFunc(r.List.Cols, func(c datatable.Column[backend.Refund]) bool { return c.Key == key })
		require.GreaterOrEqual(t, i, 0)
		assert.NotNil(t, r.List.Cols[i].Less, key)
	}
}

func TestRefundPaneShowsOrderAndCustomer(t *testing.T) {
	t.Parallel()
	e, _ := newFactsEnv(t, viewtest.Opts{WithV1: true})
	e.Size(80, 24)
	e.Init()
	r := e.Tab.(*Refunds)
	sel, ok := r.List.Table.Selected()
	require.True(t, ok)
	p, err := e.B.GetPayment(context.Background(), sel.PaymentID)
	require.NoError(t, err)
	require.NotNil(t, p.V1)
	id, phone := tab.Customer(p)
	who := id
	if who == "" {
		who = phone
	}
	require.NotEmpty(t, who)
	e.Press("enter")
	require.True(t, r.Pane.IsOpen())
	d := ansi.Strip(e.View(80, 24))
	assert.Contains(t, d, fmt.Sprintf("%-14s %s", "Order", p.OrderNo))
	assert.Contains(t, d, fmt.Sprintf("%-14s %s", "Customer", who))
	// With the legacy view, the customer shows in the list at 200 columns.
	e.Press("esc")
	assert.Contains(t, lineOf(t, e.View(200, 50), sel.ID), who)
}

func TestRefundsUseThePaymentsTheOtherTabLoaded(t *testing.T) {
	t.Parallel()
	facts := tab.NewPaymentFacts()
	var pay *payments.Payments
	e, reads := newFactsEnv(t, viewtest.Opts{Tab: func(d tab.Deps) ui.Tab {
		d.Facts = facts
		pay = payments.New(d).(*payments.Payments)
		return New(d)
	}})
	// The Payments tab loads the payments of the first refunds (a page
	// of its list, as it would from the service).
	list := e.B.ListRefunds(tab.PeriodQuery(e.Scope))
	page, err := list.Next(context.Background())
	require.NoError(t, err)
	var ps []backend.Payment
	for _, x := range page.Items[:min(5, len(page.Items))] {
		p, err := e.B.GetPayment(context.Background(), x.PaymentID)
		require.NoError(t, err)
		ps = append(ps, p)
	}
	pay.Update(tab.PageMsg[backend.Payment]{Stamp: pay.List.Loads.Stamp(), Page: backend.Page[backend.Payment]{Items: ps}})
	for _, p := range ps {
		pf, ok := facts.Get(p.ID)
		require.True(t, ok)
		assert.Equal(t, p.OrderNo, pf.Order)
	}

	e.Size(200, 50)
	e.Init()
	got := reads.counts()
	require.NotEmpty(t, got)
	for _, p := range ps {
		assert.Zero(t, got[p.ID], "payment %s was known from the Payments tab", p.ID)
	}
}

func TestRefundFactReadsOfAnOldScopeAreDropped(t *testing.T) {
	t.Parallel()
	e, _ := newFactsEnv(t, viewtest.Opts{})
	e.Size(200, 50)
	e.Init()
	r := e.Tab.(*Refunds)
	old := r.reads.Scopes.Stamp()
	other := e.Scope
	other.MerchantID = e.Info().MerchantIDs[1]
	e.Send(ui.ScopeMsg{Scope: other})
	e.Deliver(tab.PaymentFactMsg{Stamp: old, ID: "x-old", P: backend.Payment{ID: "x-old", OrderNo: "OLD"}})
	_, known := r.facts.Get("x-old")
	assert.False(t, known)
	assert.LessOrEqual(t, r.reads.Out, tab.MaxFactReads)
}

// OnScreen gives the rows on screen without moving the screen or the
// selection, whatever the special row after the last one does.
func TestOnScreenLeavesTheScreenAlone(t *testing.T) {
	t.Parallel()
	cols := []datatable.Column[int]{{Key: "n", Title: "N", Width: 5, Text: strconv.Itoa}}
	for _, tc := range []struct {
		name         string
		loading, end bool
		at, ups      int // the row selected, then up presses
		rows         int
	}{
		{name: "top", rows: 30, end: true},
		{name: "middle", rows: 30, at: 15, end: true},
		{name: "bottom", rows: 30, at: 29, end: true},
		// From the bottom, up until the last row is on the bottom line
		// and the special row just below it.
		{name: "last row at the bottom, end below", rows: 30, at: 29, ups: 9, end: true},
		{name: "last row at the bottom, loading below", rows: 30, at: 29, ups: 9, loading: true},
		{name: "short list", rows: 4, at: 2, end: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := datatable.New(datatable.Config[int]{ID: strconv.Itoa, Columns: cols})
			m.SetSize(20, 11)
			rows := make([]int, tc.rows)
			for i := range rows {
				rows[i] = i
			}
			m.SetRows(rows)
			m.SetLoading(tc.loading)
			m.SetEnd(tc.end)
			m.SetCursor(tc.at)
			for range tc.ups {
				m, _ = m.Update(tea.KeyPressMsg{Code: tea.KeyUp})
			}
			if tc.ups > 0 {
				require.Equal(t, tc.rows-10, m.Offset(), "the last row is on the bottom line")
			}
			before, off, cur := m.View(), m.Offset(), m.Cursor()
			var got []int
			m.OnScreen(func(n int) bool { got = append(got, n); return true })
			want := m.Shown()[off:min(off+10, tc.rows)]
			assert.Equal(t, want, got)
			assert.Equal(t, off, m.Offset())
			assert.Equal(t, cur, m.Cursor())
			assert.Equal(t, tc.loading, m.Loading())
			assert.Equal(t, tc.end, m.End())
			assert.Equal(t, before, m.View())
		})
	}
}

func TestGoldenRefunds(t *testing.T) {
	t.Parallel()
	for _, sz := range [][2]int{{80, 24}, {200, 50}} {
		t.Run(fmt.Sprint(sz[0]), func(t *testing.T) {
			e, _ := newFactsEnv(t, viewtest.Opts{Fixed: viewtest.GoldenNow, WithV1: true})
			e.Size(sz[0], sz[1])
			e.Init()
			e.Press("j")
			viewtest.GoldenCheck(t, "refunds_"+strconv.Itoa(sz[0])+"x"+strconv.Itoa(sz[1]), ansi.Strip(e.View(sz[0], sz[1])))
		})
	}
}
