package journal

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"slices"
	"strings"
	"time"
)

// openSet follows the lines of a journal as they stream past and keeps
// only the actions still open (no done or failed line yet), each by at
// most three of its lines: its first, its first sent line (when the first
// is not one), and its latest. That is all the action package's Pending
// reads, and what a rollover carries forward.
//
// The rules are Pending's: lines with an actionId are one action, resolved
// by any done or failed line whatever the order; lines without one (an
// older paydash) are a sent line resolved by the next done or failed line
// of the same action, object and idempotency key, or by a final line under
// the ID LegacyID makes from it.
type openSet struct {
	seq    int64
	byID   map[string]*openAction
	legacy map[[3]string][]*openAction // open sent lines without actionId, oldest first, by action, object, key
	// dead remembers the latest resolved actions, so that a line written
	// after an action's final one (an "abandoned" written on quit just
	// after its answer came) does not open it again. It forgets the oldest
	// past deadSize: such a line follows its final one within seconds,
	// never after tens of thousands of other actions.
	dead     map[string]struct{}
	deadRing []string
	deadNext int
	// legacyDone are the IDs made by LegacyID that a final line resolved.
	legacyDone map[string]struct{}
}

const deadSize = 1 << 16

// openAction is one open action's kept lines.
type openAction struct {
	id                string
	first, sent, last keptLine
}

// keptLine is where a kept line is in its file: the lines themselves are
// read again at the end (read), only for the actions still open then.
type keptLine struct {
	seq  int64 // the line's place in the stream; 0: none
	off  int64 // where its entry starts in the file
	n    int   // and its length
	no   int   // its line number
	sent bool  // it is a sent line
	line []byte
}

func newOpenSet() *openSet {
	return &openSet{byID: map[string]*openAction{}, legacy: map[[3]string][]*openAction{},
		dead: map[string]struct{}{}, legacyDone: map[string]struct{}{}}
}

// add takes one line that is an entry, at off in the file, n bytes long,
// with its fields unescaped (see unescape).
func (s *openSet) add(no int, off int64, n int, f *fields) {
	s.seq++
	phase := f.phase
	sent := string(phase) == PhaseSent
	final := string(phase) == PhaseDone || string(phase) == PhaseFailed
	k := keptLine{seq: s.seq, off: off, n: n, no: no, sent: sent}
	if len(f.actionID) == 0 {
		key := [3]string{string(f.action), string(f.objectID), string(f.key)}
		switch {
		case sent:
			s.legacy[key] = append(s.legacy[key], &openAction{first: k})
		case final:
			if open := s.legacy[key]; len(open) > 1 {
				s.legacy[key] = open[1:]
			} else if len(open) == 1 {
				delete(s.legacy, key)
			}
		}
		return
	}
	a := s.byID[string(f.actionID)] // no copy for a lookup
	if final {
		id := ""
		if a != nil {
			id = a.id
			delete(s.byID, id)
		} else {
			id = string(f.actionID)
		}
		s.bury(id)
		if strings.HasPrefix(id, legacyPrefix) {
			s.legacyDone[id] = struct{}{}
		}
		return
	}
	switch {
	case a == nil:
		if _, gone := s.dead[string(f.actionID)]; gone {
			return
		}
		id := string(f.actionID)
		s.byID[id] = &openAction{id: id, first: k}
	case sent && a.sent.seq == 0 && !a.first.sent:
		a.sent = k
	default:
		a.last = k
	}
}

func (s *openSet) bury(id string) {
	if _, ok := s.dead[id]; ok {
		return
	}
	if len(s.deadRing) < deadSize {
		s.deadRing = append(s.deadRing, id)
	} else {
		delete(s.dead, s.deadRing[s.deadNext])
		s.deadRing[s.deadNext] = id
		s.deadNext = (s.deadNext + 1) % deadSize
	}
	s.dead[id] = struct{}{}
}

// lines are the kept lines of the open actions, in the order they came,
// read from r (the file that was streamed).
func (s *openSet) lines(r io.ReaderAt) ([]keptLine, error) {
	var out []keptLine
	for _, a := range s.byID {
		for _, k := range []keptLine{a.first, a.sent, a.last} {
			if k.seq != 0 {
				out = append(out, k)
			}
		}
	}
	for _, open := range s.legacy {
		for _, a := range open {
			out = append(out, a.first)
		}
	}
	for i := range out {
		out[i].line = make([]byte, out[i].n)
		if _, err := r.ReadAt(out[i].line, out[i].off); err != nil {
			return nil, err
		}
	}
	slices.SortFunc(out, func(a, b keptLine) int { return cmp.Compare(a.seq, b.seq) })
	return s.legacyRules(out), nil
}

// legacyRules applies the IDs LegacyID makes to the open lines: a final
// line under one resolves the older paydash's action it was made for, and
// the other lines under one go with that action (they are dropped when it
// was resolved by a line without actionId).
func (s *openSet) legacyRules(out []keptLine) []keptLine {
	groups := len(s.legacyDone) > 0
	for id := range s.byID {
		groups = groups || strings.HasPrefix(id, legacyPrefix)
	}
	if !groups {
		return out
	}
	open := map[string]bool{}  // made IDs of the open lines without actionId
	made := map[int64]string{} // by line
	for _, k := range out {
		var f fields
		if walk(k.line, &f) == nil && unescape(k.line, &f) && len(f.actionID) == 0 {
			if e, ok := decode(k.line); ok {
				id := LegacyID(e)
				open[id], made[k.seq] = true, id
			}
		}
	}
	kept := out[:0]
	for _, k := range out {
		if id, ok := made[k.seq]; ok {
			if _, done := s.legacyDone[id]; done {
				continue
			}
			kept = append(kept, k)
			continue
		}
		var f fields
		if walk(k.line, &f) == nil && unescape(k.line, &f) {
			if id := string(f.actionID); strings.HasPrefix(id, legacyPrefix) && !open[id] {
				continue
			}
		}
		kept = append(kept, k)
	}
	return kept
}

// legacyPrefix starts every ID LegacyID makes.
const legacyPrefix = "old-"

// LegacyID is the ID of an action journaled by an older paydash without
// actionId, made from its sent line, the same at every start: the lines
// paydash writes about that action later carry it as their actionId.
func LegacyID(e Entry) string {
	h := sha256.Sum256([]byte(strings.Join([]string{e.Time.UTC().Format(time.RFC3339Nano), e.Action, e.ObjectID,
		e.Amount, e.Currency, e.Interface, e.IdempotencyKey}, "\x00")))
	return legacyPrefix + hex.EncodeToString(h[:12])
}
