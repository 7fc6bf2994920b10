package known

import (
	"slices"
	"strings"
	"time"
)

// key is one service and merchant.
type key struct{ service, merchant string }

// bucket is what the store knows for one key.
type bucket struct {
	tokens    map[string]Token     // by id
	forgotten map[string]time.Time // id -> when Forget removed it
}

func newBucket() *bucket {
	return &bucket{tokens: map[string]Token{}, forgotten: map[string]time.Time{}}
}

// state is everything the store knows.
type state map[key]*bucket

// trimTokens drops the least recently seen tokens beyond MaxTokens.
func (b *bucket) trimTokens() {
	excess := len(b.tokens) - MaxTokens
	switch {
	case excess <= 0:
	case excess == 1: // the common case: one Note too many
		var oldest Token
		first := true
		for _, t := range b.tokens {
			if first || newerFirst(t, oldest) > 0 {
				oldest, first = t, false
			}
		}
		delete(b.tokens, oldest.ID)
	default:
		all := slices.SortedFunc(func(yield func(Token) bool) {
			for _, t := range b.tokens {
				if !yield(t) {
					return
				}
			}
		}, newerFirst)
		for _, t := range all[MaxTokens:] {
			delete(b.tokens, t.ID)
		}
	}
}

// trimForgotten drops Forget records older than ForgetFor and the oldest
// beyond MaxForgotten.
func (b *bucket) trimForgotten(now time.Time) {
	for id, at := range b.forgotten {
		if now.Sub(at) > ForgetFor {
			delete(b.forgotten, id)
		}
	}
	if len(b.forgotten) <= MaxForgotten {
		return
	}
	ids := make([]string, 0, len(b.forgotten))
	for id := range b.forgotten {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, func(x, y string) int {
		if c := b.forgotten[y].Compare(b.forgotten[x]); c != 0 {
			return c
		}
		return strings.Compare(x, y)
	})
	for _, id := range ids[MaxForgotten:] {
		delete(b.forgotten, id)
	}
}

// dead reports whether t was forgotten after it was last seen.
func (b *bucket) dead(t Token) bool {
	at, ok := b.forgotten[t.ID]
	return ok && !t.LastSeen.After(at)
}

func (b *bucket) empty() bool { return len(b.tokens) == 0 && len(b.forgotten) == 0 }

// mergeBuckets merges two buckets by the package's rule into a new one;
// a wins ties. Either may be nil.
func mergeBuckets(a, b *bucket, now time.Time) *bucket {
	out := newBucket()
	for _, in := range []*bucket{a, b} {
		if in == nil {
			continue
		}
		for id, at := range in.forgotten {
			if at.After(out.forgotten[id]) {
				out.forgotten[id] = at
			}
		}
	}
	for _, in := range []*bucket{a, b} {
		if in == nil {
			continue
		}
		for id, t := range in.tokens {
			if out.dead(t) {
				continue
			}
			old, ok := out.tokens[id]
			switch {
			case !ok:
				out.tokens[id] = cloneToken(t)
			case t.LastSeen.After(old.LastSeen):
				out.tokens[id] = combine(old, t)
			default:
				out.tokens[id] = combine(t, old)
			}
		}
	}
	out.trimTokens()
	out.trimForgotten(now)
	return out
}

// mergeStates merges two states by the package's rule into a new one; a
// wins ties.
func mergeStates(a, b state, now time.Time) state {
	out := state{}
	for k, ab := range a {
		out[k] = mergeBuckets(ab, b[k], now)
	}
	for k, bb := range b {
		if _, ok := a[k]; !ok {
			out[k] = mergeBuckets(nil, bb, now)
		}
	}
	for k, bk := range out {
		if bk.empty() {
			delete(out, k)
		}
	}
	return out
}

// dropSeenBy removes every token last seen at or before cutoff.
func (st state) dropSeenBy(cutoff time.Time) {
	for _, b := range st {
		for id, t := range b.tokens {
			if !t.LastSeen.After(cutoff) {
				delete(b.tokens, id)
			}
		}
	}
}
