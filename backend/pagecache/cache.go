// Package pagecache shares the list pages read from the service among many
// sessions of the dashboard (paydash serve): when fifty people watch the
// same merchant and period, each page is read once per refresh period, not
// fifty times. docs/pagecache.md says what is shared, when a page is read
// again, and what the cache keys on.
package pagecache

import (
	"container/list"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"

	"paydash/backend"
)

// Options configure a cache.
type Options struct {
	// Now is the clock the epochs are counted on; nil = the service's clock
	// (the backend's ServiceNow), which the sessions count their periods on
	// too.
	Now func() time.Time
	// Epoch is the refresh period: pages read within the same epoch
	// (Now().Truncate(Epoch)) are shared; 0 = DefaultEpoch.
	Epoch time.Duration
	// MaxItems bounds the items the cache keeps, the least recently used
	// query's walk going first; 0 = DefaultMaxItems.
	MaxItems int
}

// DefaultEpoch is the dashboard's own refresh period (ui: RefreshEvery's
// default).
const DefaultEpoch = 10 * time.Second

// DefaultMaxItems keeps about a hundred merchants' days of payments.
const DefaultMaxItems = 100_000

// Stats count the pages the sessions asked for and the requests that went
// to the service for them.
type Stats struct {
	Asked   int64 // pages asked for by sessions (a Next, a ListTransfers, a ListDocuments)
	Service int64 // requests passed to the service
	Cached  int64 // pages answered from a page already read (Asked - Cached - Service waited on a request out)
	Items   int   // items kept now
	Queries int   // queries kept now
}

// Backend is a backend.Backend whose lists are served from the cache;
// every other call goes to the wrapped backend untouched, except that an
// action invalidates the lists of its merchant once it has returned.
type Backend struct {
	backend.Backend
	o Options

	mu    sync.Mutex
	walks map[key]*list.Element // of entry; front: the most recently used
	lru   *list.List
	items int
	stats Stats

	reads  singleflight.Group         // the probe and the reads of one payment (reads.go)
	probed time.Time                  // the epoch of the last probe that worked
	finals map[string]backend.Payment // declined payments, which cannot change
}

// entry is what the cache knows of a walk, whatever its item type.
type entry interface {
	key() key
	count() int
}

// New wraps b with a cache.
func New(b backend.Backend, o Options) *Backend {
	if o.Now == nil {
		o.Now = b.ServiceNow
	}
	if o.Epoch <= 0 {
		o.Epoch = DefaultEpoch
	}
	if o.MaxItems <= 0 {
		o.MaxItems = DefaultMaxItems
	}
	return &Backend{Backend: b, o: o, walks: map[key]*list.Element{}, lru: list.New(), finals: map[string]backend.Payment{}}
}

// Stats says how many pages were asked for and how many requests reached
// the service.
func (c *Backend) Stats() Stats {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.stats
	s.Items, s.Queries = c.items, len(c.walks)
	return s
}

// Invalidate drops the kept lists of a merchant ("" : every list), after
// an action on it: the next session to read one from its first page asks
// the service. A session in the middle of a walk keeps the pages of its walk
// (docs/pagecache.md).
func (c *Backend) Invalidate(merchantID string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k, el := range c.walks {
		if merchantID == "" || k.merchant == merchantID {
			c.dropLocked(el)
		}
	}
}

// epochLocked is the current epoch's start and the time now.
func (c *Backend) epochLocked() (epoch, now time.Time) {
	now = c.o.Now()
	return now.Truncate(c.o.Epoch), now
}

// currentLocked is the walk kept for k, nil when none.
func (c *Backend) currentLocked(k key) entry {
	el, ok := c.walks[k]
	if !ok {
		return nil
	}
	return el.Value.(entry)
}

// keepLocked makes w the walk of its key, replacing the one there.
func (c *Backend) keepLocked(w entry) {
	if el, ok := c.walks[w.key()]; ok {
		c.dropLocked(el)
	}
	c.walks[w.key()] = c.lru.PushFront(w)
	c.items += w.count()
	c.evictLocked()
}

// usedLocked marks w as just used, if it is kept.
func (c *Backend) usedLocked(w entry) {
	if el, ok := c.walks[w.key()]; ok && el.Value.(entry) == w {
		c.lru.MoveToFront(el)
	}
}

// grewLocked counts n more items of w, if it is kept, and evicts what is
// over the bound.
func (c *Backend) grewLocked(w entry, n int) {
	if el, ok := c.walks[w.key()]; ok && el.Value.(entry) == w {
		c.items += n
		c.evictLocked()
	}
}

// evictLocked drops the least recently used walks until the items kept are
// within MaxItems: a walk longer than the bound on its own is not kept.
func (c *Backend) evictLocked() {
	for c.items > c.o.MaxItems && c.lru.Len() > 0 {
		c.dropLocked(c.lru.Back())
	}
}

func (c *Backend) dropLocked(el *list.Element) {
	w := el.Value.(entry)
	c.lru.Remove(el)
	delete(c.walks, w.key())
	c.items -= w.count()
}
