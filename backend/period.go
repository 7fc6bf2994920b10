package backend

import (
	"context"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"paydash/backend/transport"
)

// A period read whole (a sort, a committed search: docs/sorting.md,
// "Reading the whole period in slices") is read in several slices at once.
//
// periodReader is the Pager of a period list [Start, End) that comes
// newest first by its rows' creation times. It pages like any other
// (one request per Next) until ReadAhead(true): the next Next then splits
// what is left of the period and reads it with at most n requests out,
// delivering the pages in period order, newest first, one per Next.
//
// Nothing is lost or read twice at a split: the rows already delivered
// reach back to time t (the oldest created time delivered). The pager in
// use reads on, keeping only rows created at or after t (the rows at t
// not yet delivered come before any older row, newest first) and ends at
// the first older one; [Start, t) is cut into half-open slices [a, b),
// as the service reads its period (start included, end excluded), each
// read by its own pager.
type periodReader[T any] struct {
	q    PeriodQuery
	list func(PeriodQuery) Pager[T]
	when func(T) time.Time
	n    int // at most n requests out

	head   Pager[T]  // the whole period's pager, before the split
	oldest time.Time // the oldest creation time delivered
	ended  bool      // head said Done before any split: nothing is left

	mu      sync.Mutex
	eager   bool            // ReadAhead(true): read ahead at the next Next
	slices  []*slice[T]     // nil before the split; in delivery order
	cur     int             // the slice being delivered
	stop    func()          // cancels the slices' readers; nil when none run
	changed chan struct{}   // closed and replaced when a slice has news
	gate    *transport.Gate // the slices wait on it together (429)
}

// slice is one part of the period, read by its own pager.
type slice[T any] struct {
	p      Pager[T]
	reader sync.Mutex // held while p.Next runs
	pages  []Page[T]  // read, not yet delivered (under periodReader.mu)
	done   bool       // p said Done; its last page is in pages
	err    error      // a page that could not be read; delivered once
	queued bool       // a reader is started or waiting for its turn
}

// slicesPerReader: the period is cut in this many slices per request out,
// so that a busy part of the period (a sale's day) does not leave the
// others idle: each request slot takes the next slice when its own ends.
const slicesPerReader = 4

// ReadPeriod is the pager of q's list (list makes the pager of any part
// of the period), read in slices with at most n requests out once
// ReadAhead is asked (Reader). when is a row's creation time, by which
// the list comes newest first. n < 2 reads it page after page.
func ReadPeriod[T any](q PeriodQuery, n int, list func(PeriodQuery) Pager[T], when func(T) time.Time) Pager[T] {
	if n < 2 || q.Start.IsZero() || q.End.IsZero() || !q.End.After(q.Start) {
		return list(q)
	}
	return &periodReader[T]{q: q, list: list, when: when, n: n, head: list(q),
		changed: make(chan struct{}), gate: transport.NewGate(nil)}
}

// ReadAheader is a Pager that can read the rest of its list ahead, several
// requests at once (a period read in slices): ReadAhead(true) when the
// whole list is wanted, false to stop every request it has out at once
// (esc). The pages keep coming one per Next, in the list's order.
type ReadAheader interface {
	ReadAhead(on bool)
}

func (r *periodReader[T]) ReadAhead(on bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.eager = on
	if !on && r.stop != nil {
		r.stop()
		r.stop = nil
	}
}

func (r *periodReader[T]) Next(ctx context.Context) (Page[T], error) {
	r.mu.Lock()
	if r.slices == nil && (!r.eager || r.ended) {
		r.mu.Unlock()
		if r.ended {
			return Page[T]{Done: true}, nil
		}
		page, err := r.head.Next(ctx)
		if err == nil {
			r.note(page.Items)
			r.ended = page.Done
		}
		return page, err
	}
	if r.slices == nil {
		r.split()
	}
	if r.eager && r.stop == nil {
		r.start(ctx)
	}
	r.mu.Unlock()
	return r.deliver(ctx)
}

// note keeps the oldest creation time delivered (before the split).
func (r *periodReader[T]) note(rows []T) {
	for _, row := range rows {
		if t := r.when(row); !t.IsZero() && (r.oldest.IsZero() || t.Before(r.oldest)) {
			r.oldest = t
		}
	}
}

// split cuts what is left of the period in slices (under mu).
func (r *periodReader[T]) split() {
	end := r.q.End
	if !r.oldest.IsZero() {
		end = r.oldest
		r.slices = append(r.slices, &slice[T]{p: &untilPager[T]{p: r.head, when: r.when, t: end}})
	}
	count := r.n * slicesPerReader
	width := end.Sub(r.q.Start) / time.Duration(count)
	if width < time.Second {
		count, width = 1, end.Sub(r.q.Start)
	}
	for i := range count {
		b := end.Add(-width * time.Duration(i))
		a := b.Add(-width)
		if i == count-1 {
			a = r.q.Start
		}
		if !b.After(a) {
			continue
		}
		part := r.q
		part.Start, part.End = a, b
		r.slices = append(r.slices, &slice[T]{p: r.list(part)})
	}
}

// start starts the readers of the slices not read yet, at most n at once,
// in delivery order (under mu).
func (r *periodReader[T]) start(ctx context.Context) {
	ctx, cancel := context.WithCancel(transport.WithGate(ctx, r.gate))
	r.stop = cancel
	var todo []*slice[T]
	for _, s := range r.slices[r.cur:] {
		if !s.done && !s.queued && s.err == nil {
			s.queued = true
			todo = append(todo, s)
		}
	}
	go func() {
		var g errgroup.Group
		g.SetLimit(r.n)
		for _, s := range todo {
			if ctx.Err() != nil {
				r.update(func() { s.queued = false })
				continue
			}
			g.Go(func() error { r.read(ctx, s); return nil })
		}
		_ = g.Wait()
	}()
}

// read reads the slice s to its end, or until ctx ends or a page fails.
func (r *periodReader[T]) read(ctx context.Context, s *slice[T]) {
	defer r.update(func() { s.queued = false })
	for ctx.Err() == nil {
		if transport.AwaitGate(ctx) != nil {
			return
		}
		s.reader.Lock()
		if r.finished(s) {
			s.reader.Unlock()
			return
		}
		page, err := s.p.Next(ctx)
		s.reader.Unlock()
		if err != nil {
			if ctx.Err() == nil {
				r.update(func() { s.err = err })
			}
			return
		}
		r.update(func() { s.pages = append(s.pages, page); s.done = page.Done })
	}
}

func (r *periodReader[T]) finished(s *slice[T]) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return s.done
}

// update changes the slices under mu and wakes a Next waiting for them.
func (r *periodReader[T]) update(f func()) {
	r.mu.Lock()
	defer r.mu.Unlock()
	f()
	close(r.changed)
	r.changed = make(chan struct{})
}

// deliver gives the next page in the period's order: read ahead, or read
// now when no reader has the slice (ReadAhead(false)). Slices that end
// empty are passed over.
func (r *periodReader[T]) deliver(ctx context.Context) (Page[T], error) {
	for {
		r.mu.Lock()
		if r.cur == len(r.slices) {
			r.mu.Unlock()
			return Page[T]{Done: true}, nil
		}
		s := r.slices[r.cur]
		switch {
		case len(s.pages) > 0:
			page := s.pages[0]
			s.pages = s.pages[1:]
			if page, ok := r.took(s, page); ok {
				r.mu.Unlock()
				return page, nil
			}
			r.mu.Unlock()
			continue
		case s.err != nil:
			err := s.err
			s.err = nil
			r.mu.Unlock()
			return Page[T]{}, err
		case s.queued:
			wait := r.changed
			r.mu.Unlock()
			select {
			case <-wait:
				continue
			case <-ctx.Done():
				return Page[T]{}, ctx.Err()
			}
		}
		r.mu.Unlock()
		if page, ok, err := r.readNow(ctx, s); err != nil || ok {
			return page, err
		}
	}
}

// took moves past a page of s being delivered (under mu): to the next
// slice when it was s's last. ok is false for an empty page that does not
// end the list: the next is delivered instead.
func (r *periodReader[T]) took(s *slice[T], page Page[T]) (Page[T], bool) {
	if page.Done && len(s.pages) == 0 {
		r.cur++
	}
	page.Done = r.cur == len(r.slices)
	return page, len(page.Items) > 0 || page.Done
}

// readNow reads the next page of s in the caller's request, when no reader
// has it; a page a reader put in meanwhile comes first.
func (r *periodReader[T]) readNow(ctx context.Context, s *slice[T]) (Page[T], bool, error) {
	s.reader.Lock()
	defer s.reader.Unlock()
	r.mu.Lock()
	ahead := len(s.pages) > 0 || s.queued || s.done
	r.mu.Unlock()
	if ahead {
		return Page[T]{}, false, nil
	}
	page, err := s.p.Next(ctx)
	if err != nil {
		return Page[T]{}, false, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	page, ok := r.took(s, page)
	return page, ok, nil
}

// untilPager reads p on, keeping the rows created at or after t, and ends
// at the first older row (p comes newest first).
type untilPager[T any] struct {
	p    Pager[T]
	when func(T) time.Time
	t    time.Time
}

func (u *untilPager[T]) Next(ctx context.Context) (Page[T], error) {
	page, err := u.p.Next(ctx)
	if err != nil {
		return page, err
	}
	for i, row := range page.Items {
		if u.when(row).Before(u.t) {
			return Page[T]{Items: page.Items[:i], Done: true}, nil
		}
	}
	return page, nil
}
