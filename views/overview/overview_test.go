package overview

import (
	"context"
	"errors"
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
	"paydash/backend/known"
	"paydash/backend/sandbox"
	"paydash/ui"
	"paydash/views/internal/viewtest"
	"paydash/views/payments"
	"paydash/views/tab"
)

func TestMain(m *testing.M) { viewtest.Main(m, New) }

type env struct{ *viewtest.Env }

// started is a fresh env with the Overview, sized w × h, started and
// shown: the shell's first refresh of the tab on screen.
func started(t *testing.T, o viewtest.Opts, w, h int) (*env, *Overview) {
	e := &env{viewtest.New(t, o).Start(w, h)}
	e.Send(ui.RefreshMsg{Now: e.Now()})
	return e, e.Tab.(*Overview)
}

// The Overview of the sandbox's seeded day, on a fixed clock, at the
// smallest window and a large one, with and without colour.
func TestGoldenOverview(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{80, 21}, {200, 47}} {
		for _, colour := range []bool{false, true} {
			e, _ := started(t, viewtest.Opts{Fixed: viewtest.GoldenNow}, size[0], size[1])
			name := strconv.Itoa(size[0]) + "x" + strconv.Itoa(size[1])
			if colour {
				e.Send(ui.ThemeMsg{Theme: ui.NewTheme(true, false)})
				name += "-colour"
			}
			view := e.View(size[0], size[1])
			lines := strings.Split(view, "\n")
			require.Len(t, lines, size[1])
			for i, l := range lines {
				require.Equal(t, size[0], ansi.StringWidth(l), "line %d: %q", i, ansi.Strip(l))
			}
			viewtest.GoldenCheck(t, name, view)
		}
	}
}

// A decline spike, made with the sandbox's scenario, stands out after one
// refresh, names its code, and enter on it opens exactly the payments the
// sandbox declined with it in that hour.
func TestADeclineSpikeStandsOutAndEnterOpensItsRows(t *testing.T) {
	t.Parallel()
	e, o := started(t, viewtest.Opts{Changes: true, Fixed: viewtest.GoldenNow}, 120, 40)
	require.Empty(t, o.findings, "the seeded day is ordinary")
	st := e.Sandbox().Store()
	_, err := st.SetScenario(sandbox.ScenarioRequest{Kind: "decline_spike", ResultCode: "IssuerUnavailable",
		Rate: 0.6, Duration: 30 * time.Minute})
	require.NoError(t, err)
	for range 60 {
		e.NewPayment(false, "100")
	}
	e.Send(ui.RefreshMsg{Now: st.Now()})

	require.NotEmpty(t, o.findings)
	f := o.findings[0]
	assert.Equal(t, backend.PaymentRejected, f.Status)
	assert.Equal(t, "IssuerUnavailable", f.Code)
	view := viewtest.Flat(e.View(120, 40))
	assert.Contains(t, view, "! Declines ")
	assert.Contains(t, view, "IssuerUnavailable")
	assert.Equal(t, 1, o.Status().StandsOut)

	o.sel = 0 // the finding is the first line
	e.Press("enter")
	switches := viewtest.Take[ui.SwitchTabMsg](e.Env)
	require.Len(t, switches, 1)
	sw := switches[0]
	assert.Equal(t, ui.TabPayments, sw.Tab)
	require.NotNil(t, sw.Scope)
	assert.Equal(t, f.From, sw.Scope.Start)
	assert.Equal(t, f.To, sw.Scope.End)
	assert.Equal(t, ui.SearchMsg{Query: "status:rejected code:IssuerUnavailable", Exact: true}, sw.Then)

	// The Payments tab, given that scope and search, shows exactly what
	// the service declined with that code in the hour.
	pe := &env{e.Another(t, nil)}
	pe.Tab = payments.New(e.Deps)
	pe.Scope = *sw.Scope
	pe.Start(120, 40)
	pe.Send(sw.Then)
	pt := pe.Tab.(*payments.Payments)
	shown := map[string]bool{}
	for _, r := range pt.List.Table.Shown() {
		shown[r.ID] = true
	}
	declined, _ := st.FilterPayments(sandbox.PaymentFilter{MerchantIDs: []string{e.Scope.MerchantID},
		Start: f.From, End: f.To, Statuses: []sandbox.PaymentStatus{sandbox.PaymentRejected}})
	want := map[string]bool{}
	for _, p := range declined {
		if p.ResultCode == "IssuerUnavailable" {
			want[p.ID] = true
		}
	}
	require.NotEmpty(t, want)
	assert.Equal(t, want, shown)
	assert.Equal(t, f.CodeHits, len(want), "the figure counts exactly those rows")
}

// Without a result code in the list, the declines are read one by one,
// newest first, each once, and the view says how many of how many.
func TestDeclinesWithoutACodeAreReadForIt(t *testing.T) {
	t.Parallel()
	strip := &codelessBackend{}
	e, o := started(t, viewtest.Opts{Fixed: viewtest.GoldenNow, Wrap: func(b backend.Backend) backend.Backend {
		strip.Backend = b
		return strip
	}}, 120, 40)
	require.Positive(t, o.codes.lacking, "the list gave declines without a code")
	assert.Equal(t, o.codes.lacking, o.codes.read, "each was read")
	assert.Equal(t, o.codes.lacking, int(strip.reads.Load()), "once")
	assert.Contains(t, viewtest.Flat(e.View(120, 40)), "Result codes read for")
	sum := o.day.Sum()
	assert.Zero(t, sum.Codes[""], "every decline has its code now")

	e.Send(ui.RefreshMsg{Now: viewtest.GoldenNow})
	assert.Equal(t, o.codes.lacking, int(strip.reads.Load()), "a refresh reads none again")
	assert.Zero(t, o.day.Sum().Codes[""], "and keeps the codes read")
}

// codelessBackend is a service whose list items carry no result code, as
// the real one's may not; it counts the payments read one by one.
type codelessBackend struct {
	backend.Backend
	reads atomic.Int64
	down  atomic.Bool // reads of one payment fail
}

func (c *codelessBackend) ListPayments(q backend.PeriodQuery) backend.Pager[backend.Payment] {
	return codelessPager{c.Backend.ListPayments(q)}
}

func (c *codelessBackend) GetPayment(ctx context.Context, id string) (backend.Payment, error) {
	c.reads.Add(1)
	if c.down.Load() {
		return backend.Payment{}, errors.New("the service is down")
	}
	return c.Backend.GetPayment(ctx, id)
}

type codelessPager struct{ backend.Pager[backend.Payment] }

func (p codelessPager) Next(ctx context.Context) (backend.Page[backend.Payment], error) {
	page, err := p.Pager.Next(ctx)
	for i := range page.Items {
		page.Items[i].ResultCode = ""
	}
	return page, err
}

// "m" → every merchant: the figures are every merchant's, and a merchant
// chosen again shows its own.
func TestEveryMerchant(t *testing.T) {
	t.Parallel()
	e, o := started(t, viewtest.Opts{Fixed: viewtest.GoldenNow}, 120, 40)
	one := o.day.Sum().Total()
	require.Positive(t, one)
	e.Send(ui.EveryMerchantMsg{On: true})
	assert.True(t, o.EveryMerchant())
	assert.Greater(t, o.day.Sum().Total(), one, "every merchant's payments")
	assert.Contains(t, viewtest.Flat(e.View(120, 40)), "Last 24 hours · every merchant ·")

	e.Send(ui.EveryMerchantMsg{On: false})
	assert.Equal(t, one, o.day.Sum().Total())
	e.Send(ui.EveryMerchantMsg{On: true})
	other := e.Scope
	other.MerchantID = e.Info().MerchantIDs[1]
	e.Send(ui.ScopeMsg{Scope: other})
	assert.False(t, o.EveryMerchant(), "a merchant chosen is shown alone")
	assert.Contains(t, viewtest.Flat(e.View(120, 40)), "merchant "+other.MerchantID)
}

// A code read that fails is asked again after the next read of the day,
// and counted as read only once it answered.
func TestACodeReadThatFailedIsAskedAgain(t *testing.T) {
	t.Parallel()
	strip := &codelessBackend{}
	strip.down.Store(true)
	e, o := started(t, viewtest.Opts{Fixed: viewtest.GoldenNow, Wrap: func(b backend.Backend) backend.Backend {
		strip.Backend = b
		return strip
	}}, 120, 40)
	// Two reads of the day so far (at start, and when shown): each decline
	// without a code was asked once at each.
	calls := int(strip.reads.Load())
	failed := o.day.Sum().Codes[""]
	require.Positive(t, failed, "their codes are not known")
	assert.Equal(t, 2*failed, calls, "each was asked, again at each read of the day")
	assert.Zero(t, o.codes.read)

	strip.down.Store(false)
	e.Send(ui.RefreshMsg{Manual: true, Now: viewtest.GoldenNow})
	assert.Equal(t, failed, o.codes.read, "each asked again, and read")
	assert.Equal(t, o.codes.lacking, o.codes.read)
	assert.Zero(t, o.day.Sum().Codes[""])
	assert.Equal(t, calls+failed, int(strip.reads.Load()))
}

// Refunds, holds and stickers are counted beside the payments, and each
// count opens its rows in its tab.
func TestRefundsHoldsAndStickersLeadToTheirTabs(t *testing.T) {
	t.Parallel()
	e, o := started(t, viewtest.Opts{Fixed: viewtest.GoldenNow}, 120, 40)
	require.True(t, o.also.read)
	assert.Equal(t, len(e.StickersOf(e.Scope.MerchantID)), o.also.stickers)
	holds, _ := e.Store().FilterPayments(sandbox.PaymentFilter{MerchantIDs: []string{e.Scope.MerchantID},
		Start: viewtest.GoldenNow.Add(-holdsBack), End: viewtest.GoldenNow.Add(-holdOld),
		Statuses: []sandbox.PaymentStatus{sandbox.PaymentAuthorized}})
	assert.Equal(t, len(holds), o.also.holds, "the service's own count")
	t.Logf("%d old holds, %d stickers", len(holds), o.also.stickers)
	view := viewtest.Flat(e.View(120, 40))
	assert.Contains(t, view, "stickers switched off")
	assert.Contains(t, view, "holds older than 3 days")

	openLine := func(k lineKind, nth int) ui.SwitchTabMsg {
		t.Helper()
		seen := 0
		for i, l := range o.lines() {
			if l.kind == k {
				if seen == nth {
					o.sel = i
					break
				}
				seen++
			}
		}
		e.Press("enter")
		sw := viewtest.Take[ui.SwitchTabMsg](e.Env)
		require.Len(t, sw, 1)
		return sw[0]
	}
	sw := openLine(lineStickers, 0)
	assert.Equal(t, ui.TabStickers, sw.Tab)
	assert.Nil(t, sw.Scope, "a sticker has no period")
	assert.Equal(t, ui.SearchMsg{Query: "status:inactive", Exact: true}, sw.Then)

	sw = openLine(lineHolds, 0)
	assert.Equal(t, ui.TabPayments, sw.Tab)
	require.NotNil(t, sw.Scope)
	assert.Equal(t, viewtest.GoldenNow.Add(-holdOld), sw.Scope.End)
	assert.Equal(t, ui.SearchMsg{Query: "status:authorized", Exact: true}, sw.Then)

	sw = openLine(lineRefunds, 1)
	assert.Equal(t, ui.TabRefunds, sw.Tab)
	assert.Equal(t, ui.SearchMsg{Query: "status:rejected", Exact: true}, sw.Then)
}

// The tokens paydash saw revoked today are counted, and lead to the
// Tokens tab.
func TestTokensSeenRevokedToday(t *testing.T) {
	t.Parallel()
	e, o := started(t, viewtest.Opts{}, 120, 40)
	assert.Zero(t, o.revoked)
	host := e.B.Describe().Host
	require.True(t, e.Deps.Known.Note(host, e.Scope.MerchantID, known.Token{ID: "9000001", Status: backend.TokenRevoked, Source: known.LookedUp}))
	require.True(t, e.Deps.Known.Note(host, e.Scope.MerchantID, known.Token{ID: "9000002", Status: backend.TokenActive, Source: known.LookedUp}))
	e.Send(tab.KnownSavedMsg{})
	assert.Equal(t, 1, o.revoked)
	assert.Contains(t, viewtest.Flat(e.View(120, 40)), "tokens revoked today 1 of 2 known")

	for i, l := range o.lines() {
		if l.kind == lineTokens {
			o.sel = i
		}
	}
	e.Press("enter")
	sw := viewtest.Take[ui.SwitchTabMsg](e.Env)
	require.Len(t, sw, 1)
	assert.Equal(t, ui.TabTokens, sw[0].Tab)
	assert.Equal(t, ui.SearchMsg{Query: "status:revoked", Exact: true}, sw[0].Then)
}

// queryLog records the starts of the periods of payments asked for that
// end after now (the day's reads; the holds' end days before).
type queryLog struct {
	backend.Backend
	mu     sync.Mutex
	starts []time.Time
}

func (q *queryLog) ListPayments(p backend.PeriodQuery) backend.Pager[backend.Payment] {
	q.mu.Lock()
	if p.End.After(viewtest.GoldenNow) {
		q.starts = append(q.starts, p.Start)
	}
	q.mu.Unlock()
	return q.Backend.ListPayments(p)
}

func (q *queryLog) take() []time.Time {
	q.mu.Lock()
	defer q.mu.Unlock()
	out := q.starts
	q.starts = nil
	return out
}

// The whole day is read at start, at r and every five minutes; a refresh
// in between reads the last two hours; while hidden, the Overview reads
// them every minute on the shell's tick.
func TestWhatARefreshReads(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	local := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return local }
	advance := func(d time.Duration) { mu.Lock(); local = local.Add(d); mu.Unlock() }
	ql := &queryLog{}
	e, _ := started(t, viewtest.Opts{Fixed: viewtest.GoldenNow,
		Wrap: func(b backend.Backend) backend.Backend { ql.Backend = b; return ql },
		Tab:  func(d tab.Deps) ui.Tab { d.Now = clock; return New(d) }}, 120, 40)
	now := viewtest.GoldenNow
	day := now.Truncate(time.Hour).Add(-23 * time.Hour)
	recent := now.Truncate(time.Hour).Add(-time.Hour)
	assert.Equal(t, []time.Time{day, day}, ql.take(), "the whole day at start, and again with the rest when first shown")

	advance(10 * time.Second)
	e.Send(ui.RefreshMsg{Now: now})
	assert.Equal(t, []time.Time{recent}, ql.take(), "the last two hours at a refresh")

	advance(5 * time.Minute)
	e.Send(ui.RefreshMsg{Now: now})
	assert.Equal(t, []time.Time{day}, ql.take(), "the whole day every five minutes")

	e.Send(ui.RefreshMsg{Now: now, Manual: true})
	assert.Equal(t, []time.Time{day}, ql.take(), "and at r")

	e.Send(ui.TickMsg{Now: clock()})
	assert.Empty(t, ql.take(), "a tick within the minute reads nothing")
	advance(time.Minute)
	e.Send(ui.TickMsg{Now: clock()})
	assert.Len(t, ql.take(), 1, "a minute on, the tick reads the recent hours")
}

// Before it is first shown, the Overview reads only the day's payments
// (for the status bar's "! N"), not the refunds, holds and stickers.
func TestHiddenTheOverviewReadsOnlyTheDaysPayments(t *testing.T) {
	t.Parallel()
	e := &env{viewtest.New(t, viewtest.Opts{Fixed: viewtest.GoldenNow}).Start(120, 40)}
	o := e.Tab.(*Overview)
	assert.Positive(t, o.tally.Len(), "the day's payments are counted")
	assert.False(t, o.also.read, "the refunds, holds and stickers are not read")
	e.Send(ui.RefreshMsg{Now: e.Now()})
	assert.True(t, o.also.read, "they are once it is shown")
}

// Until they are read, the refunds, holds and stickers say when they will
// be, rather than leaving a gap.
func TestTheRestSaysWhenItWillBeRead(t *testing.T) {
	t.Parallel()
	e := &env{viewtest.New(t, viewtest.Opts{Fixed: viewtest.GoldenNow}).Start(120, 40)}
	assert.Contains(t, viewtest.Flat(e.View(120, 40)), "refunds, holds, stickers: at the next refresh (r: now)")
	e.Send(ui.RefreshMsg{Now: e.Now()})
	view := viewtest.Flat(e.View(120, 40))
	assert.NotContains(t, view, "at the next refresh")
	assert.Contains(t, view, "stickers switched off")
}
