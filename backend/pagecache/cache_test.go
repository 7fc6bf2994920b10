package pagecache

import (
	"context"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend"
)

var bg = context.Background()

func collect(t *testing.T, p backend.Pager[backend.Payment]) []backend.Payment {
	t.Helper()
	rows, err := backend.Collect(bg, p)
	require.NoError(t, err)
	return rows
}

func TestTwoSessionsShareEachPageWithinAnEpoch(t *testing.T) {
	f := newFake("m1")
	c, clk := newCache(f, 0)
	a := collect(t, c.ListPayments(today("m1", clk.Now())))
	clk.add(3 * time.Second) // the other session refreshes later in the epoch: its End differs
	b := collect(t, c.ListPayments(today("m1", clk.Now())))
	assert.Len(t, a, 5)
	assert.Equal(t, a, b)
	assert.Equal(t, 3, f.count(), "one request a page (5 rows, 2 a page)")
	s := c.Stats()
	assert.Equal(t, int64(6), s.Asked)
	assert.Equal(t, int64(3), s.Service)
	assert.Equal(t, int64(3), s.Cached)
}

func TestDonePageIsKeptAndTheEndAsksNothing(t *testing.T) {
	f := newFake("m1")
	c, clk := newCache(f, 0)
	p := c.ListPayments(today("m1", clk.Now()))
	collect(t, p)
	page, err := p.Next(bg)
	require.NoError(t, err)
	assert.Equal(t, backend.Page[backend.Payment]{Done: true}, page)
	assert.Equal(t, 3, f.count())
}

func TestANewEpochReadsAgain(t *testing.T) {
	f := newFake("m1")
	c, clk := newCache(f, 0)
	collect(t, c.ListPayments(today("m1", clk.Now())))
	clk.add(epoch)
	collect(t, c.ListPayments(today("m1", clk.Now())))
	assert.Equal(t, 6, f.count())
}

func TestALaterPageOfAnOlderWalkIsReadOnceAndSharedWithItsSessions(t *testing.T) {
	f := newFake("m1")
	c, clk := newCache(f, 0)
	q := today("m1", clk.Now())
	a, b := c.ListPayments(q), c.ListPayments(q)
	for _, p := range []backend.Pager[backend.Payment]{a, b} {
		_, err := p.Next(bg)
		require.NoError(t, err)
	}
	clk.add(epoch)
	// Both go on with their walk: the second page is the walk's next page,
	// read once, whatever the epoch.
	for _, p := range []backend.Pager[backend.Payment]{a, b} {
		page, err := p.Next(bg)
		require.NoError(t, err)
		assert.Equal(t, "m1-2", page.Items[0].ID)
	}
	assert.Equal(t, 2, f.count())
}

func TestErrorsAreNotCached(t *testing.T) {
	f := newFake("m1")
	f.fail = 1
	c, clk := newCache(f, 0)
	p := c.ListPayments(today("m1", clk.Now()))
	_, err := p.Next(bg)
	require.Error(t, err)
	// The same pager asks again, and so does another session: one new request.
	page, err := p.Next(bg)
	require.NoError(t, err)
	assert.Equal(t, "m1-0", page.Items[0].ID)
	other, err := c.ListPayments(today("m1", clk.Now())).Next(bg)
	require.NoError(t, err)
	assert.Equal(t, page.Items, other.Items)
	assert.Equal(t, 2, f.count())
}

func TestConcurrentSessionsReadEachPageOnce(t *testing.T) {
	f := newFake("m1", "m2")
	c, clk := newCache(f, 0)
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Go(func() {
			m := []string{"m1", "m2"}[i%2]
			rows, err := backend.Collect(bg, c.ListPayments(today(m, clk.Now())))
			assert.NoError(t, err)
			assert.Len(t, rows, 5)
		})
	}
	wg.Wait()
	assert.Equal(t, 6, f.count(), "3 pages of each merchant, once")
}

func TestASessionThatGivesUpDoesNotFailTheOthers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFake("m1")
		f.gate = make(chan struct{})
		c, clk := newCache(f, 0)
		q := today("m1", clk.Now())
		ctx, cancel := context.WithCancel(bg)
		var quitter, stayer error
		var got backend.Page[backend.Payment]
		var wg sync.WaitGroup
		wg.Go(func() { _, quitter = c.ListPayments(q).Next(ctx) })
		synctest.Wait() // the first session's request is out
		wg.Go(func() { got, stayer = c.ListPayments(q).Next(bg) })
		synctest.Wait() // the second waits on it
		cancel()
		synctest.Wait()
		assert.ErrorIs(t, quitter, context.Canceled, "the session that gave up returns at once")
		close(f.gate)
		wg.Wait()
		require.NoError(t, stayer)
		assert.Len(t, got.Items, 2)
		assert.Equal(t, 1, f.count())
	})
}

func TestMaxItemsEvictsTheLeastRecentlyUsedQuery(t *testing.T) {
	f := newFake("m1", "m2", "m3")
	c, clk := newCache(f, 10)
	for _, m := range []string{"m1", "m2"} {
		collect(t, c.ListPayments(today(m, clk.Now())))
	}
	collect(t, c.ListPayments(today("m1", clk.Now()))) // m1 is used again: m2 is the oldest
	require.Equal(t, 6, f.count())
	collect(t, c.ListPayments(today("m3", clk.Now())))
	assert.Equal(t, 9, f.count())
	s := c.Stats()
	assert.LessOrEqual(t, s.Items, 10)
	assert.Equal(t, 2, s.Queries)
	collect(t, c.ListPayments(today("m1", clk.Now())))
	assert.Equal(t, 9, f.count(), "m1 stays")
	collect(t, c.ListPayments(today("m2", clk.Now())))
	assert.Equal(t, 12, f.count(), "m2 was evicted: read again")
}

func TestInvalidateSendsTheNextReadToTheService(t *testing.T) {
	f := newFake("m1", "m2")
	c, clk := newCache(f, 0)
	for _, m := range []string{"m1", "m2"} {
		collect(t, c.ListPayments(today(m, clk.Now())))
	}
	c.Invalidate("m1")
	collect(t, c.ListPayments(today("m1", clk.Now())))
	collect(t, c.ListPayments(today("m2", clk.Now())))
	assert.Equal(t, 9, f.count(), "m1 read again, m2 from the cache")
}

func TestAnActionInvalidatesItsMerchant(t *testing.T) {
	f := newFake("m1", "m2")
	c, clk := newCache(f, 0)
	for _, m := range []string{"m1", "m2"} {
		collect(t, c.ListPayments(today(m, clk.Now())))
	}
	_, err := c.CancelPayment(bg, "m2-1")
	require.NoError(t, err)
	collect(t, c.ListPayments(today("m1", clk.Now())))
	collect(t, c.ListPayments(today("m2", clk.Now())))
	assert.Equal(t, 9, f.count(), "m2 read again, m1 from the cache")
}

func TestEndsStillToComeShareAndPastEndsKeyExactly(t *testing.T) {
	f := newFake("m1")
	c, clk := newCache(f, 0)
	now := clk.Now()
	overview := backend.PeriodQuery{MerchantID: "m1", Start: day, End: now.Add(time.Hour)}
	custom := backend.PeriodQuery{MerchantID: "m1", Start: day, End: day.AddDate(0, 0, 1)}
	for _, q := range []backend.PeriodQuery{today("m1", now), overview, custom} {
		collect(t, c.ListPayments(q))
	}
	assert.Equal(t, 3, f.count(), "every end still to come shares one walk")
	past := backend.PeriodQuery{MerchantID: "m1", Start: day, End: now.Add(-time.Hour)}
	collect(t, c.ListPayments(past))
	collect(t, c.ListPayments(backend.PeriodQuery{MerchantID: "m1", Start: day, End: past.End.In(time.FixedZone("X", 3600))}))
	assert.Equal(t, 6, f.count(), "an end that is past keys as itself, in any location")
	collect(t, c.ListPayments(backend.PeriodQuery{MerchantID: "m1", Start: day.Add(time.Hour), End: overview.End}))
	assert.Equal(t, 9, f.count(), "another start is another query")
}

func TestItemsHandedOutAreEachSessionsOwn(t *testing.T) {
	f := newFake("m1")
	c, clk := newCache(f, 0)
	a, err := c.ListPayments(today("m1", clk.Now())).Next(bg)
	require.NoError(t, err)
	a.Items[0].Status = backend.PaymentCancelled
	a.Items = append(a.Items[:1], backend.Payment{ID: "mine"})
	b, err := c.ListPayments(today("m1", clk.Now())).Next(bg)
	require.NoError(t, err)
	assert.Equal(t, "m1-0", b.Items[0].ID)
	assert.Empty(t, b.Items[0].Status)
	assert.Equal(t, "m1-1", b.Items[1].ID)
}

func TestOtherCallsPassThrough(t *testing.T) {
	f := newFake("m1")
	c, _ := newCache(f, 0)
	p, err := c.CancelPayment(bg, "m1-3")
	require.NoError(t, err)
	assert.Equal(t, backend.PaymentCancelled, p.Status)
	assert.Zero(t, c.Stats().Asked)
}

func TestFiltersAreQueriesOfTheirOwn(t *testing.T) {
	f := newFake("m1")
	c, clk := newCache(f, 0)
	q := today("m1", clk.Now())
	_, ok := c.FilterPayments(q, backend.PaymentFilter{Statuses: []backend.PaymentStatus{backend.PaymentSettled}})
	assert.False(t, ok, "the wrapped backend's no")
	for _, no := range []string{"A-1", "A-2", "A-1"} {
		p, ok := c.FilterPayments(q, backend.PaymentFilter{OrderNo: no})
		require.True(t, ok)
		collect(t, p)
	}
	collect(t, c.ListPayments(q))
	assert.Equal(t, 9, f.count(), "A-1, A-2 and the whole list, each once")
}

func TestDayListsAreOnePageEachEpoch(t *testing.T) {
	f := newFake()
	c, clk := newCache(f, 0)
	q := backend.DayQuery{From: day, To: day.Add(5 * time.Hour)}
	for range 2 {
		got, err := c.ListTransfers(bg, q)
		require.NoError(t, err)
		assert.Equal(t, []backend.Transfer{{RegisterID: "2026-03-02"}}, got)
	}
	_, err := c.ListTransfers(bg, backend.DayQuery{From: day.AddDate(0, 0, -1), To: day})
	require.NoError(t, err)
	assert.Equal(t, 2, f.count())
	clk.add(epoch)
	_, err = c.ListTransfers(bg, q)
	require.NoError(t, err)
	assert.Equal(t, 3, f.count())
}
