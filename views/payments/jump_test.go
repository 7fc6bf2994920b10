package payments

import (
	"context"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend"
	"paydash/backend/sandbox"
	"paydash/ui"
	"paydash/views/internal/viewtest"
	"paydash/views/tab"
)

// lookups is a backend between the tab and the sandbox that counts the
// service's lookups by order number and keeps the list queries asked.
type lookups struct {
	backend.Backend
	finds atomic.Int64
	mu    sync.Mutex
	lists []backend.PeriodQuery
}

func (l *lookups) FindPaymentByOrderNo(ctx context.Context, merchantID, orderNo string) (backend.Payment, bool, error) {
	l.finds.Add(1)
	return l.Backend.FindPaymentByOrderNo(ctx, merchantID, orderNo)
}

func (l *lookups) ListPayments(q backend.PeriodQuery) backend.Pager[backend.Payment] {
	l.mu.Lock()
	l.lists = append(l.lists, q)
	l.mu.Unlock()
	return l.Backend.ListPayments(q)
}

// windows are the list queries that were not the list's own (the scope's).
func (l *lookups) windows(scopes ...ui.Scope) []backend.PeriodQuery {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []backend.PeriodQuery
next:
	for _, q := range l.lists {
		for _, s := range scopes {
			if q == tab.PeriodQuery(s) {
				continue next
			}
		}
		out = append(out, q)
	}
	return out
}

func newLookupEnv(t *testing.T, o viewtest.Opts) (*env, *lookups) {
	t.Helper()
	l := &lookups{}
	o.Wrap = func(b backend.Backend) backend.Backend { l.Backend = b; return l }
	e := startedEnv(t, o, 120, 30)
	return e, l
}

// oldPayment is a payment of the merchant with an order number made days
// ago, the newest with that number (what a lookup answers).
func (e *env) oldPayment(merchant string, daysAgo int) sandbox.Payment {
	e.T.Helper()
	st := e.Store()
	now := e.Now()
	ps, _ := st.FilterPayments(sandbox.PaymentFilter{MerchantIDs: []string{merchant},
		Start: now.AddDate(0, 0, -daysAgo), End: now.AddDate(0, 0, -daysAgo+3), Limit: 100})
	for _, p := range ps {
		if p.Invoice.OrderNo == "" {
			continue
		}
		newest, err := st.PaymentByOrderNo(merchant, p.Invoice.OrderNo)
		require.NoError(e.T, err)
		if newest.Created.Before(now.AddDate(0, 0, -daysAgo+4)) {
			return newest
		}
	}
	e.T.Fatalf("no payment of merchant %s with an order number %d days old", merchant, daysAgo)
	return sandbox.Payment{}
}

// scopeShows checks that the tab's scope is s widened to hold p's day.
func scopeShows(t *testing.T, p *Payments, was ui.Scope, merchant string, when time.Time) {
	t.Helper()
	s := p.Scope
	assert.Equal(t, merchant, s.MerchantID)
	assert.Equal(t, "custom", s.Preset)
	assert.True(t, tab.InScope(s, merchant, when), "%v is in %s", when, tab.ScopeText(s))
	assert.False(t, s.Start.After(was.Start), "only widened")
	assert.False(t, s.End.Before(was.End), "only widened")
}

func (e *env) stickyErrors() []ui.ErrorMsg {
	var out []ui.ErrorMsg
	for _, m := range viewtest.Take[ui.ErrorMsg](e.Env) {
		require.True(e.T, m.Sticky, "not found stays until dismissed")
		out = append(out, m)
	}
	return out
}

func TestJumpByIDAndOrderNumber(t *testing.T) {
	t.Parallel()
	e, p := started(t, viewtest.Opts{}, 80, 24)

	// A payment far down the period, not loaded yet.
	all, _ := e.Store().FilterPayments(sandbox.PaymentFilter{
		MerchantIDs: []string{e.Scope.MerchantID}, Start: e.Scope.Start, End: e.Scope.End, Limit: 1000})
	require.Greater(t, len(all), 250)
	far := all[len(all)-10]

	// By order number, not loaded: found by searching back.
	want, err := e.Store().PaymentByOrderNo(e.Scope.MerchantID, far.Invoice.OrderNo)
	require.NoError(t, err)
	before := e.Count.Pages.Load()
	e.Send(ui.JumpMsg{Query: far.Invoice.OrderNo})
	require.True(t, p.Pane.IsOpen())
	assert.Equal(t, want.ID, p.Pane.Obj.ID, "the newest with that number")
	assert.Greater(t, e.Count.Pages.Load(), before+1)
	assert.False(t, p.Status().Loading)
	assert.Empty(t, p.Status().Progress)
	// The list read on to its row: closing the pane leaves it selected.
	e.Press("esc")
	assert.Equal(t, want.ID, p.List.Table.SelectedID())
	assert.Equal(t, viewtest.SelectedLine(e.View(80, 24)), rowLine(e.View(80, 24), want.ID))

	// By id, not loaded (the list loaded afresh): the pane opens at once,
	// and the row is selected once the list has read on to it.
	e.Send(ui.ScopeMsg{Scope: e.Scope})
	require.Less(t, p.List.Table.Len(), len(all)-10)
	e.Send(ui.JumpMsg{Query: far.ID})
	require.True(t, p.Pane.IsOpen())
	assert.Equal(t, far.ID, p.Pane.Obj.ID)
	assert.True(t, p.Pane.Obj.Detailed)
	assert.Equal(t, e.Scope, p.Scope, "in the scope: the scope stays")
	assert.Contains(t, ansi.Strip(e.View(80, 24)), "Payment "+far.ID)
	e.Press("esc")
	assert.Equal(t, far.ID, p.List.Table.SelectedID())

	// By order number, loaded: selected in the list.
	loaded := p.List.Table.Rows()[5]
	require.NotEmpty(t, loaded.OrderNo)
	e.Send(ui.JumpMsg{Query: strings.ToLower(loaded.OrderNo)})
	require.True(t, p.Pane.IsOpen())
	assert.Equal(t, loaded.ID, p.Pane.Obj.ID)
	assert.Equal(t, loaded.ID, p.List.Table.SelectedID())
	e.Press("esc")

	// Nothing: a sticky error saying where it looked.
	e.Shell = nil
	e.Send(ui.JumpMsg{Query: "NO-SUCH-ORDER"})
	assert.False(t, p.Pane.IsOpen())
	errs := e.stickyErrors()
	require.Len(t, errs, 1)
	text := errs[0].Err.Error()
	assert.Contains(t, text, "No payment with order number NO-SUCH-ORDER for merchant "+e.Scope.MerchantID)
	assert.Regexp(t, `none in \d\d \w{3} – \d\d \w{3} \(the last 90 days\)`, text)
	assert.Contains(t, errs[0].Hint, "(m)")
	assert.Empty(t, e.Toasts())

	e.Send(ui.JumpMsg{Query: "999999999999"})
	errs = e.stickyErrors()
	require.Len(t, errs, 1)
	assert.Contains(t, errs[0].Err.Error(), "No payment with id or order number 999999999999 for merchant "+e.Scope.MerchantID+
		": the service has no payment with that id; none in ")
}

func TestJumpByIDWidensThePeriod(t *testing.T) {
	t.Parallel()
	e, l := newLookupEnv(t, viewtest.Opts{})
	p := e.Tab.(*Payments)
	merchants := e.Info().MerchantIDs

	// Of the merchant, 60 days old: the period starts on its UTC day.
	old := e.oldPayment(e.Scope.MerchantID, 60)
	e.Send(ui.JumpMsg{Query: old.ID})
	scopeShows(t, p, e.Scope, e.Scope.MerchantID, old.Created)
	assert.Equal(t, old.Created.UTC().Truncate(24*time.Hour), p.Scope.Start)
	assert.Equal(t, e.Scope.End, p.Scope.End)
	require.True(t, p.Pane.IsOpen(), "opened once the wider scope came")
	assert.Equal(t, old.ID, p.Pane.Obj.ID)
	assert.Contains(t, ansi.Strip(e.View(120, 30)), "Payment "+old.ID)
	ts := e.Toasts()
	require.Len(t, ts, 1)
	assert.Equal(t, "Period widened to "+periodWords(p.Scope)+" to show payment "+old.ID, ts[0].Text)
	assert.Zero(t, l.finds.Load(), "an id needs no lookup")
	e.Press("esc")

	// Another merchant's, in the period: that merchant, and its row selected once loaded.
	wider := p.Scope
	other := e.Store()
	ps, _ := other.FilterPayments(sandbox.PaymentFilter{MerchantIDs: []string{merchants[1]}, Start: e.Now().AddDate(0, 0, -3), Limit: 5})
	require.NotEmpty(t, ps)
	e.Send(ui.JumpMsg{Query: ps[2].ID})
	assert.Equal(t, merchants[1], p.Scope.MerchantID)
	assert.Equal(t, wider.Start, p.Scope.Start, "already wide enough")
	require.True(t, p.Pane.IsOpen())
	assert.Equal(t, ps[2].ID, p.Pane.Obj.ID)
	assert.Equal(t, ps[2].ID, p.List.Table.SelectedID(), "selected when its page came")
	ts = e.Toasts()
	require.Len(t, ts, 1)
	assert.Equal(t, "Payment "+ps[2].ID+" is merchant "+merchants[1]+"'s: switched to it, "+periodWords(p.Scope), ts[0].Text)
	assert.Empty(t, e.Errors())
}

func TestJumpByOrderNumberAsksV1(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		o    viewtest.Opts
		src  backend.Interface
	}{
		{"v1 only", viewtest.Opts{V1Only: true}, backend.V1},
		{"both", viewtest.Opts{WithV1: true}, backend.V2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, l := newLookupEnv(t, tc.o)
			p := e.Tab.(*Payments)
			old := e.oldPayment(e.Scope.MerchantID, 60)
			e.Send(ui.JumpMsg{Query: old.Invoice.OrderNo})
			assert.Equal(t, int64(1), l.finds.Load(), "getPaymentByInvoiceID answered")
			assert.Empty(t, l.windows(e.Scope, p.Scope), "no search back")
			require.True(t, p.Pane.IsOpen())
			got := p.Pane.Obj
			assert.Equal(t, old.ID, got.ID)
			assert.Equal(t, tc.src, got.Source)
			require.NotNil(t, got.V1, "v1's view in the pane")
			assert.Equal(t, old.Invoice.OrderNo, got.V1.SiteInvoiceID)
			scopeShows(t, p, e.Scope, e.Scope.MerchantID, tab.PaymentTime(got))
			assert.Contains(t, ansi.Strip(e.View(120, 30)), "Payment "+old.ID)
			e.Press("esc")

			// Not found: said where it looked, and the lists were not searched.
			e.Shell = nil
			e.Send(ui.JumpMsg{Query: "NO-SUCH-ORDER"})
			assert.Equal(t, int64(2), l.finds.Load())
			assert.False(t, p.Pane.IsOpen())
			errs := e.stickyErrors()
			require.Len(t, errs, 1)
			assert.Equal(t, "No payment with order number NO-SUCH-ORDER for merchant "+p.Scope.MerchantID+
				": the service's lookup by order number (v1) found none", errs[0].Err.Error())
			assert.Empty(t, l.windows(e.Scope, p.Scope))
			assert.False(t, p.Status().Loading)
		})
	}
}

// stepJump runs a search one command at a time, as the runtime would,
// and returns the progress the tab reported after each step.
func stepJump(e *env, query string) []string {
	e.T.Helper()
	cmd := e.SendHold(ui.JumpMsg{Query: query})
	p := e.Tab.(*Payments)
	var progress []string
	for steps := 0; cmd != nil; steps++ {
		require.Less(e.T, steps, 1000)
		msg := cmd()
		if _, ok := msg.(jumpProgressMsg); !ok {
			e.Deliver(msg)
			return progress
		}
		cmd = e.Update(msg)
		st := p.Status()
		require.True(e.T, st.Loading, "the spinner turns while it searches")
		progress = append(progress, st.Progress)
	}
	return progress
}

// On the golden clock: the scope ends an hour after now, so from 23:00
// UTC its end is tomorrow and the windows' days are counted from there
// (2026-01-01 23:59 UTC: "back to 27 Dec (6 of 90 days)").
func TestJumpByOrderNumberSearchesBackWithProgress(t *testing.T) {
	t.Parallel()
	e, l := newLookupEnv(t, viewtest.Opts{Fixed: viewtest.GoldenNow})
	p := e.Tab.(*Payments)
	old := e.oldPayment(e.Scope.MerchantID, 60)

	progress := stepJump(e, old.Invoice.OrderNo)
	assert.Equal(t, int64(1), l.finds.Load(), "v2 alone: the adapter says it cannot ask")
	require.GreaterOrEqual(t, len(progress), 8, "a window at a time: %q", progress)
	re := regexp.MustCompile(`^looking for ` + regexp.QuoteMeta(old.Invoice.OrderNo) + `(: back to \d\d \w{3} \((\d+) of 90 days\)| in the last 90 days)…$`)
	last := -1
	for _, pr := range progress {
		m := re.FindStringSubmatch(pr)
		require.NotNil(t, m, "%q", pr)
		if m[2] != "" {
			n, err := strconv.Atoi(m[2])
			require.NoError(t, err)
			assert.GreaterOrEqual(t, n, last, "it goes back")
			last = n
		}
	}
	assert.GreaterOrEqual(t, last, 50)
	assert.Contains(t, progress, "looking for "+old.Invoice.OrderNo+": back to "+
		e.Now().UTC().Truncate(24*time.Hour).AddDate(0, 0, -6).Format("02 Jan")+" (7 of 90 days)…")

	// The windows go back from today, 7 days each, newest first.
	ws := l.windows(e.Scope, p.Scope)
	require.NotEmpty(t, ws)
	for i, w := range ws {
		assert.Equal(t, e.Scope.MerchantID, w.MerchantID)
		assert.LessOrEqual(t, w.End.Sub(w.Start), 7*24*time.Hour)
		if i > 0 {
			assert.False(t, w.End.After(ws[i-1].Start), "window %d is older than the one before", i)
		}
	}

	require.True(t, p.Pane.IsOpen())
	assert.Equal(t, old.ID, p.Pane.Obj.ID)
	scopeShows(t, p, e.Scope, e.Scope.MerchantID, old.Created)
	assert.False(t, p.Status().Loading)
	assert.Empty(t, p.Status().Progress)
	assert.Contains(t, ansi.Strip(e.View(120, 30)), "Payment "+old.ID)
}

func TestJumpSearchStopsOnEsc(t *testing.T) {
	t.Parallel()
	e, _ := newLookupEnv(t, viewtest.Opts{})
	p := e.Tab.(*Payments)

	cmd := e.SendHold(ui.JumpMsg{Query: "NO-SUCH-ORDER"})
	cmd = e.Update(cmd()) // the lookup: v2 cannot; the first window next
	cmd = e.Update(cmd()) // a page read
	require.NotNil(t, cmd)
	require.True(t, p.Status().Loading)
	require.Contains(t, p.Status().Progress, "looking for NO-SUCH-ORDER")

	e.Press("esc")
	assert.False(t, p.Status().Loading)
	assert.Empty(t, p.Status().Progress)
	ts := e.Toasts()
	require.Len(t, ts, 1)
	assert.Equal(t, "Stopped looking for NO-SUCH-ORDER", ts[0].Text)

	// What the search was reading comes back, and is dropped.
	e.Run(cmd)
	assert.Empty(t, e.Errors(), "no \"not found\" after esc")
	assert.False(t, p.Pane.IsOpen())

	// esc with no search does what it did: nothing to stop.
	e.Press("esc")
	assert.Empty(t, e.Toasts())
}

func TestJumpStaleResultAfterScopeChangeIsDropped(t *testing.T) {
	t.Parallel()
	e, _ := newLookupEnv(t, viewtest.Opts{})
	p := e.Tab.(*Payments)
	old := e.oldPayment(e.Scope.MerchantID, 60)
	other := ui.Scope{MerchantID: e.Info().MerchantIDs[1], Start: e.Scope.Start, End: e.Scope.End, Preset: e.Scope.Preset}

	// The answer comes after the user changed the scope.
	cmd := e.SendHold(ui.JumpMsg{Query: old.ID})
	msg := cmd()
	e.Send(ui.ScopeMsg{Scope: other})
	e.Deliver(msg)
	assert.False(t, p.Pane.IsOpen())
	assert.Equal(t, other, p.Scope)
	assert.Empty(t, e.Toasts())

	// The user changes the scope between the widening asked for and its
	// ScopeMsg: the payment does not open later.
	e.Send(ui.ScopeMsg{Scope: e.Scope})
	cmd = e.SendHold(ui.JumpMsg{Query: old.ID})
	widen := e.Update(cmd()) // the ScopeMsg asked for, and a toast
	e.Send(ui.ScopeMsg{Scope: other})
	assert.False(t, p.Pane.IsOpen(), "not in the user's scope")
	e.Run(widen)
	assert.Equal(t, "custom", p.Scope.Preset, "the shell applied the widening")
	assert.False(t, p.Pane.IsOpen(), "stale: not opened")
	assert.Empty(t, p.jump.selectID)

	// A search under way is stopped by a scope change too.
	cmd = e.SendHold(ui.JumpMsg{Query: "NO-SUCH-ORDER"})
	next := e.Update(cmd())
	require.True(t, p.Status().Loading)
	e.Send(ui.ScopeMsg{Scope: e.Scope})
	assert.Empty(t, p.Status().Progress)
	e.Run(next)
	assert.Empty(t, e.Errors())
}

func TestJumpSpansGoBackAndSkipTheLoadedPeriod(t *testing.T) {
	t.Parallel()
	top := time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC)
	bottom := top.AddDate(0, 0, -jumpBackDays)
	covered := func(spans []jumpSpan) time.Duration {
		var d time.Duration
		for i, s := range spans {
			require.True(t, s.start.Before(s.end))
			require.False(t, s.start.Before(bottom))
			require.False(t, s.end.After(top))
			require.LessOrEqual(t, s.end.Sub(s.start), jumpWindowDays*jumpDay)
			if i > 0 {
				require.False(t, s.end.After(spans[i-1].start), "newest first, no overlap")
			}
			d += s.end.Sub(s.start)
		}
		return d
	}

	all := jumpSpans(top, bottom, nil)
	assert.Equal(t, jumpBackDays*jumpDay, covered(all))
	assert.Equal(t, jumpSpan{top.AddDate(0, 0, -7), top}, all[0])
	assert.Len(t, all, 13)

	// A whole loaded scope of 10 days (less an hour) is not read again.
	skip := ui.Scope{Start: top.AddDate(0, 0, -12), End: top.AddDate(0, 0, -2).Add(-time.Hour)}
	spans := jumpSpans(top, bottom, &skip)
	assert.Equal(t, jumpBackDays*jumpDay-skip.End.Sub(skip.Start), covered(spans))
	for _, s := range spans {
		assert.False(t, s.start.Before(skip.End) && s.end.After(skip.Start), "%v overlaps the scope", s)
	}
	assert.Equal(t, jumpSpan{skip.End, top}, spans[0])
}

// rowLine is the screen line of the row with id, -1 if none.
func rowLine(view, id string) int {
	for i, l := range strings.Split(ansi.Strip(view), "\n") {
		if f := strings.Fields(strings.TrimPrefix(l, ">")); len(f) > 0 && f[0] == id {
			return i
		}
	}
	return -1
}

// periodWords is a scope's period as the widening toast names it.
func periodWords(s ui.Scope) string {
	return s.Start.Format("02 Jan 2006") + " – " + s.End.Add(-time.Nanosecond).Format("02 Jan 2006")
}
