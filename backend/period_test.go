package backend

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend/transport"
)

// A fake period list: rows by creation time, read newest first in pages of
// size, [Start, End) as the service reads a period.
type fakePeriod struct {
	rows []Payment // oldest first
	size int

	mu       sync.Mutex
	out, max int                                            // requests out now, and at most
	calls    int                                            // pages asked for
	hook     func(ctx context.Context, q PeriodQuery) error // before each page; nil: none
}

func (f *fakePeriod) list(q PeriodQuery) Pager[Payment] {
	var sel []Payment
	for _, p := range f.rows {
		if !p.Created.Before(q.Start) && p.Created.Before(q.End) {
			sel = append(sel, p)
		}
	}
	slices.Reverse(sel)
	at := 0
	return pagerFunc[Payment](func(ctx context.Context) (Page[Payment], error) {
		f.mu.Lock()
		f.out++
		f.calls++
		f.max = max(f.max, f.out)
		f.mu.Unlock()
		defer func() { f.mu.Lock(); f.out--; f.mu.Unlock() }()
		if f.hook != nil {
			if err := f.hook(ctx, q); err != nil {
				return Page[Payment]{}, err
			}
		}
		end := min(at+f.size, len(sel))
		page := Page[Payment]{Items: sel[at:end], Done: end == len(sel)}
		at = end
		return page, nil
	})
}

var periodStart = time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)

// period is March 2026, [1 Mar, 1 Apr).
func period() PeriodQuery {
	return PeriodQuery{MerchantID: "m", Start: periodStart, End: periodStart.AddDate(0, 1, 0)}
}

// edgeRows are rows on every slice's edge (n readers: n·slicesPerReader
// slices of equal width), three on each, one a nanosecond either side,
// the period's first instant, its last, and rows just outside it.
func edgeRows(q PeriodQuery, n int) []Payment {
	var rows []Payment
	add := func(t time.Time) {
		rows = append(rows, Payment{ID: fmt.Sprintf("p%04d", len(rows)), Created: t})
	}
	count := n * slicesPerReader
	width := q.End.Sub(q.Start) / time.Duration(count)
	add(q.Start.Add(-time.Nanosecond))
	for i := range count + 1 {
		edge := q.End.Add(-width * time.Duration(i))
		if i == count {
			edge = q.Start
		}
		add(edge.Add(-time.Nanosecond))
		add(edge)
		add(edge)
		add(edge)
		add(edge.Add(time.Nanosecond))
	}
	slices.SortStableFunc(rows, func(a, b Payment) int { return a.Created.Compare(b.Created) })
	return rows
}

func ids(ps []Payment) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.ID
	}
	return out
}

// readAll reads r to its end, asking it to read ahead after the first
// `before` pages.
func readAll(t *testing.T, p Pager[Payment], before int) []Payment {
	t.Helper()
	var all []Payment
	for i := 0; ; i++ {
		if i == before {
			p.(ReadAheader).ReadAhead(true)
		}
		page, err := p.Next(context.Background())
		require.NoError(t, err)
		all = append(all, page.Items...)
		if page.Done {
			return all
		}
		require.Less(t, i, 10000, "the reader never ends")
	}
}

func TestPeriodReaderKeepsEveryRowOnTheSlicesEdgesOnce(t *testing.T) {
	q := period()
	f := &fakePeriod{rows: edgeRows(q, 4), size: 3}
	want := ids(Collect2(t, f.list(q)))
	require.NotEmpty(t, want)
	for before := range 6 { // the split after 0..5 pages: inside groups of equal times too
		got := ids(readAll(t, ReadPeriod(q, 4, f.list, paymentCreated), before))
		assert.Equal(t, want, got, "read ahead after %d pages", before)
	}
}

func Collect2(t *testing.T, p Pager[Payment]) []Payment {
	t.Helper()
	all, err := Collect(context.Background(), p)
	require.NoError(t, err)
	return all
}

func paymentCreated(p Payment) time.Time { return p.Created }

func TestPeriodReaderOnePageAtATimeUntilAskedToReadAhead(t *testing.T) {
	q := period()
	f := &fakePeriod{rows: edgeRows(q, 4), size: 3}
	r := ReadPeriod(q, 4, f.list, paymentCreated)
	for range 3 {
		_, err := r.Next(context.Background())
		require.NoError(t, err)
	}
	assert.Equal(t, 3, f.calls, "one request per page, as before")
}

// Each request takes a second of the bubble's clock: the slices' requests
// overlap, n of them and never more.
func TestPeriodReaderHasAtMostNRequestsOut(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		q := period()
		f := &fakePeriod{rows: edgeRows(q, 3), size: 2}
		f.hook = func(ctx context.Context, _ PeriodQuery) error {
			time.Sleep(time.Second) // a request's time, on the bubble's clock
			return nil
		}
		want := ids(Collect2(t, f.list(q)))
		f.max = 0
		got := ids(readAll(t, ReadPeriod(q, 3, f.list, paymentCreated), 0))
		assert.Equal(t, want, got)
		assert.Equal(t, 3, f.max, "3 requests out at once, not more")
	})
}

func TestPeriodReaderReadsFasterThanPageAfterPage(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		q := period()
		f := &fakePeriod{rows: edgeRows(q, 4), size: 2}
		f.hook = func(context.Context, PeriodQuery) error { time.Sleep(time.Second); return nil }
		start := time.Now()
		Collect2(t, f.list(q))
		sequential := time.Since(start)
		start = time.Now()
		readAll(t, ReadPeriod(q, 4, f.list, paymentCreated), 0)
		assert.Less(t, time.Since(start), sequential/2, "4 at once, on the bubble's clock")
	})
}

// esc (ReadAhead(false)) ends every request out at once; after it nothing
// is asked of the service until the next page is asked for.
func TestPeriodReaderStopEndsEverySlice(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		q := period()
		f := &fakePeriod{rows: edgeRows(q, 4), size: 2}
		var mu sync.Mutex
		cancelled := 0
		f.hook = func(ctx context.Context, _ PeriodQuery) error {
			<-ctx.Done() // a request that never answers
			mu.Lock()
			cancelled++
			mu.Unlock()
			return ctx.Err()
		}
		r := ReadPeriod(q, 4, f.list, paymentCreated)
		r.(ReadAheader).ReadAhead(true)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		go func() { _, _ = r.Next(ctx) }()
		synctest.Wait()
		f.mu.Lock()
		require.Equal(t, 4, f.out, "4 slices out")
		f.mu.Unlock()
		r.(ReadAheader).ReadAhead(false)
		synctest.Wait()
		mu.Lock()
		assert.GreaterOrEqual(t, cancelled, 4, "every slice's request ended")
		mu.Unlock()
		f.mu.Lock()
		calls := f.calls
		f.mu.Unlock()
		time.Sleep(time.Minute)
		synctest.Wait()
		f.mu.Lock()
		defer f.mu.Unlock()
		// The Next out reads its own slice now, under its own context
		// (the page out still arrives, as a page read one at a time).
		assert.LessOrEqual(t, f.calls, calls+1, "no slice reads on after the stop")
		cancel()
	})
}

// A 429 with Retry-After for one slice holds every slice back: none of
// them sends again before the time the service asked for.
func TestPeriodReaderSlicesBackOffTogether(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		q := period()
		f := &fakePeriod{rows: edgeRows(q, 4), size: 2}
		var mu sync.Mutex
		var held time.Time
		var sent []time.Time
		f.hook = func(ctx context.Context, part PeriodQuery) error {
			time.Sleep(time.Second)
			mu.Lock()
			sent = append(sent, time.Now())
			first := held.IsZero() && part.Start.Equal(q.Start)
			if first {
				held = time.Now().Add(30 * time.Second)
			}
			mu.Unlock()
			if first { // as the v2 client does on a 429 with Retry-After: 30
				transport.HoldGate(ctx, 30*time.Second)
				time.Sleep(30 * time.Second)
			}
			return nil
		}
		readAll(t, ReadPeriod(q, 4, f.list, paymentCreated), 0)
		require.False(t, held.IsZero())
		var during []time.Time
		for _, at := range sent {
			// A request sent after the 429 came, before the hold ends
			// (those out when it came answer a second later).
			if at.After(held.Add(-30*time.Second+time.Second)) && at.Before(held) {
				during = append(during, at)
			}
		}
		assert.Empty(t, during, "no slice sent while the service asked to wait")
	})
}

func TestPeriodReaderDeliversASlicesErrorAndReadsOnAfterIt(t *testing.T) {
	q := period()
	f := &fakePeriod{rows: edgeRows(q, 2), size: 2}
	failed := false
	var mu sync.Mutex
	f.hook = func(_ context.Context, part PeriodQuery) error {
		mu.Lock()
		defer mu.Unlock()
		if !failed && part.Start.Equal(q.Start) {
			failed = true
			return errors.New("boom")
		}
		return nil
	}
	want := ids(Collect2(t, (&fakePeriod{rows: f.rows, size: 2}).list(q)))
	r := ReadPeriod(q, 2, f.list, paymentCreated)
	r.(ReadAheader).ReadAhead(true)
	var got []Payment
	errs := 0
	for range 1000 {
		page, err := r.Next(context.Background())
		if err != nil {
			errs++
			continue
		}
		got = append(got, page.Items...)
		if page.Done {
			break
		}
	}
	assert.Equal(t, 1, errs)
	assert.Equal(t, want, ids(got), "asked again, the failed slice reads on from where it was")
}

// A list read to its end page after page is at its end, whatever is asked
// after: read ahead then reads nothing again.
func TestPeriodReaderAtItsEndStaysThere(t *testing.T) {
	q := period()
	f := &fakePeriod{rows: edgeRows(q, 2), size: 1000}
	r := ReadPeriod(q, 2, f.list, paymentCreated)
	page, err := r.Next(context.Background())
	require.NoError(t, err)
	require.True(t, page.Done)
	r.(ReadAheader).ReadAhead(true)
	page, err = r.Next(context.Background())
	require.NoError(t, err)
	assert.True(t, page.Done)
	assert.Empty(t, page.Items)
	assert.Equal(t, 1, f.calls)
}
