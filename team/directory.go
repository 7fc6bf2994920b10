package team

import (
	"maps"
	"slices"
	"sync"
)

// Changes are what a reload changed, by name, each list in the file's
// order: the server disconnects the sessions of the people removed, and
// looks the others' keys up again (People.ByKey) for those changed, whose
// role, limits or keys are not what they were.
type Changes struct {
	Removed []string
	Changed []string
	Added   []string
}

// Empty reports whether nothing changed.
func (c Changes) Empty() bool {
	return len(c.Removed) == 0 && len(c.Changed) == 0 && len(c.Added) == 0
}

// Diff is what changed from old to new (either may be nil: nobody).
func Diff(old, new *People) Changes {
	var c Changes
	for _, name := range old.Names() {
		if _, ok := new.ByName(name); !ok {
			c.Removed = append(c.Removed, name)
		}
	}
	for _, name := range new.Names() {
		now, _ := new.ByName(name)
		was, ok := old.ByName(name)
		switch {
		case !ok:
			c.Added = append(c.Added, name)
		case !samePerson(was, now):
			c.Changed = append(c.Changed, name)
		}
	}
	return c
}

// samePerson reports whether a and b have the same role, limits and keys
// (in any order).
func samePerson(a, b Person) bool {
	if a.Role != b.Role || !maps.Equal(a.Limits, b.Limits) || len(a.Keys) != len(b.Keys) {
		return false
	}
	wire := func(p Person) []string {
		w := make([]string, len(p.Keys))
		for i, k := range p.Keys {
			w[i] = string(k.Marshal())
		}
		slices.Sort(w)
		return w
	}
	return slices.Equal(wire(a), wire(b))
}

// Directory is the current people, swapped whole on a reload. Safe for
// concurrent use.
type Directory struct {
	mu   sync.Mutex
	cur  *People
	subs map[*subscriber]struct{}
}

// subscriber is one Subscribe: a channel holding at most one Changes. A
// reload while the last one is still unread replaces it with the changes
// since base, the people the reader last heard of, so that a slow reader
// misses nothing (someone removed) and never holds up a reload.
type subscriber struct {
	ch   chan Changes
	base *People
}

func NewDirectory(p *People) *Directory {
	return &Directory{cur: p, subs: map[*subscriber]struct{}{}}
}

// Current is the people as they are now; it does not change under the
// caller (a reload swaps in another).
func (d *Directory) Current() *People {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.cur
}

// Reload reads the file at path and, if it is sound, makes it the current
// people and tells the subscribers what changed. On an error (a *FileError
// naming the lines, or the file unreadable) the people stay as they were.
func (d *Directory) Reload(path string) (Changes, error) {
	p, err := Load(path)
	if err != nil {
		return Changes{}, err
	}
	return d.Swap(p), nil
}

// Swap makes p the current people and tells the subscribers what changed.
func (d *Directory) Swap(p *People) Changes {
	d.mu.Lock()
	defer d.mu.Unlock()
	old := d.cur
	d.cur = p
	for s := range d.subs {
		select {
		case <-s.ch: // unread: replaced by the changes since what was read
		default:
			s.base = old
		}
		if c := Diff(s.base, p); !c.Empty() {
			s.ch <- c // room: only Swap sends, under d.mu, after the drain
		}
	}
	return Diff(old, p)
}

// Subscribe returns a channel that receives the Changes of every reload
// that changed something (coalesced while unread: see subscriber) and a
// function that ends the subscription. The channel is never closed.
func (d *Directory) Subscribe() (<-chan Changes, func()) {
	s := &subscriber{ch: make(chan Changes, 1)}
	d.mu.Lock()
	s.base = d.cur
	d.subs[s] = struct{}{}
	d.mu.Unlock()
	return s.ch, func() {
		d.mu.Lock()
		delete(d.subs, s)
		d.mu.Unlock()
	}
}
