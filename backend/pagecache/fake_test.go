package pagecache

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"time"

	"paydash/backend"
)

// fake is a service with one list of payments per merchant, pageSize a
// page, that counts the requests it answers. Its gate, when set, holds
// every request until a value comes (or its context ends); fail fails the
// next that many requests.
type fake struct {
	backend.Backend // nil: a call the cache should not make panics

	mu       sync.Mutex
	requests int
	fail     int
	gate     chan struct{}
	lists    map[string][]backend.Payment
	pageSize int
}

func newFake(merchants ...string) *fake {
	f := &fake{lists: map[string][]backend.Payment{}, pageSize: 2}
	for _, m := range merchants {
		for i := range 5 {
			f.lists[m] = append(f.lists[m], backend.Payment{ID: m + "-" + strconv.Itoa(i), MerchantID: m})
		}
	}
	return f
}

func (f *fake) count() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.requests
}

func (f *fake) page(ctx context.Context, merchant string, from int) ([]backend.Payment, bool, error) {
	f.mu.Lock()
	f.requests++
	gate := f.gate
	failing := f.fail > 0
	if failing {
		f.fail--
	}
	f.mu.Unlock()
	if gate != nil {
		select {
		case <-gate:
		case <-ctx.Done():
			return nil, false, ctx.Err()
		}
	}
	if failing {
		return nil, false, errors.New("service unavailable")
	}
	all := f.lists[merchant]
	to := min(from+f.pageSize, len(all))
	return append([]backend.Payment(nil), all[from:to]...), to == len(all), nil
}

type fakePager struct {
	f        *fake
	merchant string
	from     int
	done     bool
}

func (p *fakePager) Next(ctx context.Context) (backend.Page[backend.Payment], error) {
	if p.done {
		return backend.Page[backend.Payment]{Done: true}, nil
	}
	items, done, err := p.f.page(ctx, p.merchant, p.from)
	if err != nil {
		return backend.Page[backend.Payment]{}, err
	}
	p.from += len(items)
	p.done = done
	return backend.Page[backend.Payment]{Items: items, Done: done}, nil
}

func (f *fake) ListPayments(q backend.PeriodQuery) backend.Pager[backend.Payment] {
	return &fakePager{f: f, merchant: q.MerchantID}
}

func (f *fake) CancelPayment(_ context.Context, id string) (backend.Payment, error) {
	for m, l := range f.lists {
		for _, p := range l {
			if p.ID == id {
				return backend.Payment{ID: id, MerchantID: m, Status: backend.PaymentCancelled}, nil
			}
		}
	}
	return backend.Payment{}, errors.New("no such payment")
}

// clock is a test's clock, moved by hand.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

const epoch = 10 * time.Second

var day = time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC)

func newCache(f *fake, maxItems int) (*Backend, *clock) {
	clk := &clock{t: day.Add(12 * time.Hour)}
	return New(f, Options{Now: clk.Now, Epoch: epoch, MaxItems: maxItems}), clk
}

// today is the "today" preset of a session at now: it ends a minute after.
func today(merchant string, now time.Time) backend.PeriodQuery {
	return backend.PeriodQuery{MerchantID: merchant, Start: day, End: now.Add(time.Minute)}
}

func (f *fake) FilterPayments(q backend.PeriodQuery, pf backend.PaymentFilter) (backend.Pager[backend.Payment], bool) {
	if pf.OrderNo == "" {
		return nil, false
	}
	return &fakePager{f: f, merchant: q.MerchantID}, true
}

func (f *fake) ListTransfers(ctx context.Context, q backend.DayQuery) ([]backend.Transfer, error) {
	if _, _, err := f.page(ctx, "", 0); err != nil {
		return nil, err
	}
	return []backend.Transfer{{RegisterID: q.From.UTC().Format(time.DateOnly)}}, nil
}
