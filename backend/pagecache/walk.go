package pagecache

import (
	"context"
	"slices"
	"strconv"
	"time"

	"golang.org/x/sync/singleflight"

	"paydash/backend"
)

// walk is a query's shared walk: the pages one underlying pager has read
// so far, in order, each with the time its request went out.
type walk[T any] struct {
	k       key
	pager   backend.Pager[T] // not safe for concurrent use: flights take turns
	started time.Time
	pages   []read[T] // guarded by the cache's mutex
	items   int
	done    bool
	flights singleflight.Group // by page index: one request per page at a time
}

type read[T any] struct {
	items []T
	done  bool
	at    time.Time
}

func (w *walk[T]) key() key   { return w.k }
func (w *walk[T]) count() int { return w.items }

// startedIn reports whether the walk's first page belongs to epoch: read
// in it, or, before it is read, the walk begun in it.
func (w *walk[T]) startedIn(epoch time.Time, d time.Duration) bool {
	at := w.started
	if len(w.pages) > 0 {
		at = w.pages[0].at
	}
	return at.Truncate(d).Equal(epoch)
}

// pager is one session's pager over a query: it binds to the query's walk
// at its first page and then takes every page from that walk, so that its
// pages follow each other (one cursor) whatever the other sessions do.
type pager[T any] struct {
	c     *Backend
	keyAt func(now time.Time) key
	open  func() backend.Pager[T] // the underlying pager, for a new walk
	w     *walk[T]
	i     int
	done  bool
}

func newPager[T any](c *Backend, keyAt func(time.Time) key, open func() backend.Pager[T]) *pager[T] {
	return &pager[T]{c: c, keyAt: keyAt, open: open}
}

// Next answers page i of the walk: from the walk when it was read in this
// epoch (or when it is a later page of a walk this pager began in an
// earlier epoch: the service can only be asked for the page after the last
// one read); else by one request, shared with the sessions that ask for
// the same page meanwhile.
func (p *pager[T]) Next(ctx context.Context) (backend.Page[T], error) {
	if p.done {
		return backend.Page[T]{Done: true}, nil
	}
	c := p.c
	c.mu.Lock()
	c.stats.Asked++
	epoch, now := c.epochLocked()
	if p.w == nil {
		p.w = p.bindLocked(epoch, now)
	}
	w := p.w
	c.usedLocked(w)
	if p.i < len(w.pages) {
		r := w.pages[p.i]
		c.stats.Cached++
		c.mu.Unlock()
		return p.hand(r), nil
	}
	if w.done {
		c.mu.Unlock()
		p.done = true
		return backend.Page[T]{Done: true}, nil
	}
	c.mu.Unlock()
	if err := ctx.Err(); err != nil {
		return backend.Page[T]{}, err
	}
	r, err := w.fetch(ctx, c, p.i)
	if err != nil {
		return backend.Page[T]{}, err
	}
	return p.hand(r), nil
}

// bindLocked is the walk a pager starting at its first page takes: the
// query's walk when its first page belongs to this epoch, else a new one.
func (p *pager[T]) bindLocked(epoch, now time.Time) *walk[T] {
	k := p.keyAt(now)
	if cur, ok := p.c.currentLocked(k).(*walk[T]); ok && cur.startedIn(epoch, p.c.o.Epoch) {
		return cur
	}
	w := &walk[T]{k: k, pager: p.open(), started: now}
	p.c.keepLocked(w)
	return w
}

// hand gives the session its own copy of a page's items and moves on.
func (p *pager[T]) hand(r read[T]) backend.Page[T] {
	p.i++
	p.done = r.done
	return backend.Page[T]{Items: slices.Clone(r.items), Done: r.done}
}

// fetch reads page i, the page after the last one read, by one request
// that the sessions asking for it meanwhile share. The request runs on its
// own (without the asker's cancellation, bounded by the service's own
// timeout): a session that gives up returns at once and the others still
// get the page. An error is not kept: the next ask tries again.
func (w *walk[T]) fetch(ctx context.Context, c *Backend, i int) (read[T], error) {
	own := context.WithoutCancel(ctx)
	ch := w.flights.DoChan(strconv.Itoa(i), func() (any, error) {
		c.mu.Lock()
		if i < len(w.pages) {
			// Read by a request that ended as this one was asked for.
			r := w.pages[i]
			c.mu.Unlock()
			return r, nil
		}
		c.stats.Service++
		_, at := c.epochLocked()
		c.mu.Unlock()
		page, err := w.pager.Next(own)
		if err != nil {
			return nil, err
		}
		r := read[T]{items: page.Items, done: page.Done, at: at}
		c.mu.Lock()
		w.pages = append(w.pages, r)
		w.items += len(page.Items)
		w.done = page.Done
		c.grewLocked(w, len(page.Items))
		c.mu.Unlock()
		return r, nil
	})
	select {
	case res := <-ch:
		if res.Err != nil {
			return read[T]{}, res.Err
		}
		return res.Val.(read[T]), nil
	case <-ctx.Done():
		return read[T]{}, ctx.Err()
	}
}
