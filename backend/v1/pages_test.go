package v1_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"net/http"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	v1 "paydash/backend/v1"
)

// item is a payment or refund of the fake service.
type item struct {
	id      int
	created time.Time
	state   string
}

// listService answers listPaymentsFilter and listRefunds as the contract
// says: inclusive UTC days, the state filter, newest first, at most 1,000
// and Overflow beyond. fail, when set, can fail a request by its number.
type listService struct {
	mu       sync.Mutex
	items    []item
	requests int
	windows  []string // "from..to/state" of every request, in order
	fail     func(n int) bool
	mutate   func(n int, items []item) // may change items before request n is answered
}

func (ls *listService) handler(t *testing.T) func(http.ResponseWriter, *http.Request, int) {
	return func(w http.ResponseWriter, r *http.Request, _ int) {
		ls.mu.Lock()
		defer ls.mu.Unlock()
		n := ls.requests
		ls.requests++
		q := r.URL.Query()
		ls.windows = append(ls.windows, q.Get("periodFrom")+".."+q.Get("periodTo")+"/"+q.Get("state"))
		if ls.fail != nil && ls.fail(n) {
			http.Error(w, "boom", http.StatusInternalServerError)
			return
		}
		if ls.mutate != nil {
			ls.mutate(n, ls.items)
		}
		from, err := v1.ParseDate(q.Get("periodFrom"))
		require.NoError(t, err)
		to, err := v1.ParseDate(q.Get("periodTo"))
		require.NoError(t, err)
		var match []item
		for _, it := range ls.items {
			d := v1.DateOf(it.created)
			if (!from.IsZero() && d.Before(from)) || (!to.IsZero() && d.After(to)) {
				continue
			}
			if s := q.Get("state"); s != "" && s != it.state {
				continue
			}
			match = append(match, it)
		}
		sort.Slice(match, func(i, j int) bool {
			if !match[i].created.Equal(match[j].created) {
				return match[i].created.After(match[j].created)
			}
			return match[i].id > match[j].id
		})
		overflow := len(match) > 1000
		if overflow {
			match = match[:1000]
		}
		type wireItem struct {
			PaymentID      int    `json:",omitempty"`
			RefundID       int    `json:",omitempty"`
			LastUpdateTime string `json:",omitempty"`
			LastUpdate     string `json:",omitempty"`
			State          string
		}
		refunds := r.URL.Path == "/api/v1/listRefunds"
		list := make([]wireItem, len(match))
		for i, it := range match {
			at := it.created.Format("2006-01-02T15:04:05")
			if refunds {
				list[i] = wireItem{RefundID: it.id, LastUpdate: at, State: it.state}
			} else {
				list[i] = wireItem{PaymentID: it.id, LastUpdateTime: at, State: it.state}
			}
		}
		key := "Payments"
		if refunds {
			key = "Refunds"
		}
		body, _ := json.Marshal(map[string]any{"ErrorCode": 0, "Response": map[string]any{"Overflow": overflow, key: list}})
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	}
}

// spread makes n items over the days [from, from+days), more on later
// days (a growing shop: the density rises linearly), in the five states.
func spread(rng *rand.Rand, n int, from v1.Date, days int, firstID int) []item {
	out := make([]item, 0, n)
	states := v1.PaymentStates()
	for i := range n {
		day := int(float64(days) * math.Sqrt(rng.Float64()))
		day = min(day, days-1)
		at := from.AddDays(day).Start().Add(time.Duration(rng.Int64N(int64(24 * time.Hour))))
		out = append(out, item{id: firstID + i, created: at, state: states[rng.IntN(len(states))]})
	}
	return out
}

// drain calls Next until done, collecting items and errors.
func drain[T any](t *testing.T, p *v1.Pages[T]) ([]T, []error) {
	t.Helper()
	var all []T
	var errs []error
	for range 10000 {
		items, done, err := p.Next(context.Background())
		all = append(all, items...)
		if err != nil {
			errs = append(errs, err)
		}
		if done {
			return all, errs
		}
	}
	t.Fatal("Next never said done")
	return nil, nil
}

func TestPaymentPagesListEveryPaymentOnceWithinTheBound(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	from := v1.NewDate(2024, 4, 1)
	const days = 30
	ls := &listService{items: spread(rng, 9000, from, days, 1)}
	// Items just outside the period, which must not be listed.
	ls.items = append(ls.items,
		item{id: 900001, created: from.Start().Add(-time.Second), state: v1.StateComplete},
		item{id: 900002, created: from.AddDays(days).Start(), state: v1.StateComplete})
	s := newServer(t, ls.handler(t))
	c := newClient(t, s)

	p := c.PaymentPages(v1.PaymentFilter{SiteAlias: "1001", PeriodFrom: from, PeriodTo: from.AddDays(days - 1)})
	got, errs := drain(t, p)
	require.Empty(t, errs)

	count := map[string]int{}
	for _, x := range got {
		count[x.PaymentID]++
	}
	require.Len(t, got, 9000)
	for i := 1; i <= 9000; i++ {
		require.Equal(t, 1, count[fmt.Sprint(i)], "payment %d", i)
	}
	// Newest window first, newest first inside: the whole list is newest first.
	for i := 1; i < len(got); i++ {
		require.False(t, got[i].LastUpdateTime.After(got[i-1].LastUpdateTime), "item %d is newer than the one before", i)
	}
	assert.LessOrEqual(t, ls.requests, 2*days-1, "the bound for a period without an overflowing day")
	assert.Equal(t, ls.requests, p.Requests())
	assert.Greater(t, ls.requests, 9, "the period did overflow and was split")
	for _, r := range s.requests() {
		assert.Equal(t, "1001", r.Form.Get("siteAlias"), "the filter goes with every window")
	}
	// A further Next is harmless.
	items, done, err := p.Next(context.Background())
	assert.Empty(t, items)
	assert.True(t, done)
	assert.NoError(t, err)
}

// A single day of more than 1,000 payments is narrowed by state, 5 requests.
func TestPaymentPagesNarrowABusyDayByState(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	from := v1.NewDate(2024, 4, 1)
	const days = 10
	ls := &listService{items: spread(rng, 3000, from, days, 1)}
	busy := from.AddDays(6)
	ls.items = append(ls.items, spread(rng, 2500, busy, 1, 10001)...) // 2,500 on one day, ~500 a state
	s := newServer(t, ls.handler(t))
	c := newClient(t, s)

	p := c.PaymentPages(v1.PaymentFilter{PeriodFrom: from, PeriodTo: from.AddDays(days - 1)})
	got, errs := drain(t, p)
	require.Empty(t, errs)
	ids := map[string]int{}
	for _, x := range got {
		ids[x.PaymentID]++
	}
	assert.Len(t, ids, 5500)
	assert.Len(t, got, 5500, "no duplicates")
	overflowingDays := 1
	assert.LessOrEqual(t, ls.requests, 2*days-1+5*overflowingDays)
	var stateWindows []string
	for _, w := range ls.windows {
		if w[len(w)-1] != '/' {
			stateWindows = append(stateWindows, w)
		}
	}
	d := busy.String()
	assert.Equal(t, []string{d + ".." + d + "/INITIATED", d + ".." + d + "/PROCESSING", d + ".." + d + "/COMPLETE",
		d + ".." + d + "/CANCELLED", d + ".." + d + "/HOLD"}, stateWindows)
}

// A (day, state) that still overflows is returned as far as it goes, with
// an error naming it, and paging goes on with the rest.
func TestPaymentPagesReportWhatCannotBeNarrowed(t *testing.T) {
	from := v1.NewDate(2024, 4, 1)
	busy := from.AddDays(2)
	var items []item
	for i := range 1200 {
		items = append(items, item{id: i + 1, created: busy.Start().Add(time.Duration(i) * time.Second), state: v1.StateComplete})
	}
	for i := range 300 {
		items = append(items, item{id: 5000 + i, created: busy.Start().Add(time.Duration(i) * time.Minute), state: v1.StateHold})
	}
	items = append(items, item{id: 9001, created: from.Start(), state: v1.StateCancelled}, item{id: 9002, created: from.AddDays(4).Start(), state: v1.StateComplete})
	ls := &listService{items: items}
	s := newServer(t, ls.handler(t))
	c := newClient(t, s)

	p := c.PaymentPages(v1.PaymentFilter{PeriodFrom: from, PeriodTo: from.AddDays(4)})
	got, errs := drain(t, p)
	require.Len(t, errs, 1)
	var inc *v1.IncompleteError
	require.ErrorAs(t, errs[0], &inc)
	assert.Equal(t, busy, inc.Day)
	assert.Equal(t, v1.StateComplete, inc.State)
	assert.Equal(t, "payments", inc.What)
	assert.True(t, v1.IsIncomplete(errs[0]))
	assert.Contains(t, errs[0].Error(), "2024-04-03")
	assert.Contains(t, errs[0].Error(), "COMPLETE")
	assert.Len(t, got, 1000+300+2, "the 1,000 COMPLETE payments that came, and everything else")

	// With State in the filter there is nothing to narrow by.
	ls.requests = 0
	p = c.PaymentPages(v1.PaymentFilter{PeriodFrom: busy, PeriodTo: busy, State: v1.StateComplete})
	got, errs = drain(t, p)
	require.Len(t, errs, 1)
	require.ErrorAs(t, errs[0], &inc)
	assert.Equal(t, v1.IncompleteError{What: "payments", Day: busy, State: v1.StateComplete}, *inc)
	assert.Len(t, got, 1000)
	assert.Equal(t, 1, ls.requests)
}

// A day of more than 1,000 refunds cannot be narrowed at all.
func TestRefundPagesReportABusyDay(t *testing.T) {
	from := v1.NewDate(2024, 4, 1)
	var items []item
	for i := range 1100 {
		items = append(items, item{id: i + 1, created: from.AddDays(1).Start().Add(time.Duration(i) * time.Second), state: v1.RefundSuccess})
	}
	for i := range 900 {
		items = append(items, item{id: 2000 + i, created: from.Start().Add(time.Duration(i) * time.Second), state: v1.RefundSuccess})
	}
	ls := &listService{items: items}
	s := newServer(t, ls.handler(t))
	c := newClient(t, s)
	p := c.RefundPages(v1.RefundFilter{PaymentID: "", PeriodFrom: from, PeriodTo: from.AddDays(1)})
	got, errs := drain(t, p)
	require.Len(t, errs, 1)
	var inc *v1.IncompleteError
	require.ErrorAs(t, errs[0], &inc)
	assert.Equal(t, v1.IncompleteError{What: "refunds", Day: from.AddDays(1)}, *inc)
	assert.Len(t, got, 1900)
	assert.Equal(t, 3, ls.requests, "the period, then each day")
	for _, r := range s.requests() {
		assert.Equal(t, "/api/v1/listRefunds", r.Path)
		assert.Empty(t, r.Form.Get("state"), "listRefunds has no state filter")
	}
}

// A failed request consumes nothing: Next can be called again.
func TestPagesResumeAfterAFailure(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	from := v1.NewDate(2024, 4, 1)
	ls := &listService{items: spread(rng, 4000, from, 20, 1)}
	failed := map[int]bool{}
	ls.fail = func(n int) bool {
		if (n == 2 || n == 5) && !failed[n] {
			failed[n] = true
			return true
		}
		return false
	}
	s := newServer(t, ls.handler(t))
	c := newClient(t, s, v1.WithRetries(0, 0))
	p := c.PaymentPages(v1.PaymentFilter{PeriodFrom: from, PeriodTo: from.AddDays(19)})
	got, errs := drain(t, p)
	require.Len(t, errs, 2)
	for _, err := range errs {
		assert.True(t, v1.IsServerFailure(err))
	}
	ids := map[string]bool{}
	for _, x := range got {
		ids[x.PaymentID] = true
	}
	assert.Len(t, ids, 4000)
	assert.Len(t, got, 4000)
}

// A payment that changes state between the state requests of a busy day
// appears in two answers; it is returned once. A state the spec does not
// list is asked for too.
func TestPagesNeverReturnAnItemTwice(t *testing.T) {
	day := v1.NewDate(2024, 4, 1)
	var items []item
	for i := range 1500 {
		st := v1.PaymentStates()[i%5]
		if i%100 == 0 {
			st = "REFUNDED" // not a state of the spec
		}
		items = append(items, item{id: i + 1, created: day.Start().Add(time.Duration(i) * time.Second), state: st})
	}
	ls := &listService{items: items}
	// Payment 2 (PROCESSING) completes after the PROCESSING request (the
	// 3rd) and before the COMPLETE one (the 4th).
	ls.mutate = func(n int, items []item) {
		if n == 3 {
			for i := range items {
				if items[i].id == 2 {
					items[i].state = v1.StateComplete
				}
			}
		}
	}
	s := newServer(t, ls.handler(t))
	c := newClient(t, s)
	got, errs := drain(t, c.PaymentPages(v1.PaymentFilter{PeriodFrom: day, PeriodTo: day}))
	require.Empty(t, errs)
	count := map[string]int{}
	for _, x := range got {
		count[x.PaymentID]++
	}
	assert.Len(t, count, 1500)
	assert.Equal(t, 1, count["2"])
	assert.Len(t, got, 1500)
	assert.Equal(t, 1+6, ls.requests, "the day, then five states and REFUNDED")
}

func TestPagesNeedAPeriod(t *testing.T) {
	c, err := v1.NewClient("https://example.com", "l", "p")
	require.NoError(t, err)
	for _, f := range []v1.PaymentFilter{{}, {PeriodFrom: may1}, {PeriodTo: may1}, {PeriodFrom: may31, PeriodTo: may1}} {
		items, done, err := c.PaymentPages(f).Next(context.Background())
		assert.Empty(t, items)
		assert.True(t, done)
		assert.Error(t, err)
		assert.False(t, v1.IsIncomplete(err))
	}
	_, _, err = c.RefundPages(v1.RefundFilter{PeriodFrom: may1}).Next(context.Background())
	assert.Error(t, err)
}

// The bound holds for every period length, with every day overflowing.
func TestPagesRequestBound(t *testing.T) {
	for _, days := range []int{1, 2, 3, 6, 13} {
		from := v1.NewDate(2024, 1, 1)
		var items []item
		for d := range days {
			for i := range 600 { // two days overflow together, one does not
				items = append(items, item{id: d*1000 + i, created: from.AddDays(d).Start().Add(time.Duration(i) * time.Second), state: v1.StateComplete})
			}
		}
		ls := &listService{items: items}
		s := newServer(t, ls.handler(t))
		c := newClient(t, s)
		got, errs := drain(t, c.PaymentPages(v1.PaymentFilter{PeriodFrom: from, PeriodTo: from.AddDays(days - 1)}))
		require.Empty(t, errs)
		assert.Len(t, got, 600*days)
		assert.LessOrEqual(t, ls.requests, 2*days-1, "days=%d", days)
	}
}
