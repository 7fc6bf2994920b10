package team

import "sync"

// Locks are the objects being acted on across all sessions: one action at
// a time per object, whoever asks. A ref names an object of the service by
// its type and id ("payment:43149010"), as backend/action's ObjectRef
// does. Safe for concurrent use.
type Locks struct {
	mu      sync.Mutex
	holders map[string]string // ref → who holds it
}

func NewLocks() *Locks { return &Locks{holders: map[string]string{}} }

// Claim takes ref for who. ok is false when the object is held already,
// by someone else or by who (one action at a time per object); holder is
// who holds it then.
func (l *Locks) Claim(ref, who string) (holder string, ok bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if h, held := l.holders[ref]; held {
		return h, false
	}
	l.holders[ref] = who
	return who, true
}

// Release frees ref if who holds it; a release by anyone else is ignored,
// so that a late release never frees another person's claim.
func (l *Locks) Release(ref, who string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.holders[ref] == who {
		delete(l.holders, ref)
	}
}

// Holder is who holds ref, "" when nobody does.
func (l *Locks) Holder(ref string) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.holders[ref]
}

// ReleaseAll frees every object who holds (a session that ends) and
// returns how many.
func (l *Locks) ReleaseAll(who string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	n := 0
	for ref, h := range l.holders {
		if h == who {
			delete(l.holders, ref)
			n++
		}
	}
	return n
}
