package sandbox

import (
	"container/heap"
	"context"
	"time"
)

// Time moving. Every state move that happens "later" (a pending payment or
// refund settling, an invoice expiring, a tokenization page being filled in)
// is an event in a min-heap by due time, so the settler only ever looks at
// the earliest one instead of scanning the store. Due times are store-clock
// times; the settler sleeps on real time, at most a second at a stretch, so a
// test clock that jumps ahead is noticed quickly. The store clock is
// Options.Now plus the offset Advance adds (reset.go); every move the clock
// makes is logged at Info (kind, id, from -> to, result code; ids and states
// only), after the lock is released, like callbacks.

type eventKind uint8

const (
	evSettlePayment eventKind = iota + 1
	evSettleRefund
	evExpireInvoice
	evActivateToken
)

type event struct {
	at   int64 // unix nanoseconds, store clock
	kind eventKind
	seq  int64 // id of the object
}

type eventHeap []event

func (h eventHeap) Len() int { return len(h) }
func (h eventHeap) Less(i, j int) bool {
	if h[i].at != h[j].at {
		return h[i].at < h[j].at
	}
	return h[i].seq < h[j].seq
}
func (h eventHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *eventHeap) Push(x any)   { *h = append(*h, x.(event)) }
func (h *eventHeap) Pop() any {
	old := *h
	e := old[len(old)-1]
	*h = old[:len(old)-1]
	return e
}

// schedule adds an event (under the write lock) and wakes the settler if it
// is now the earliest.
func (s *Store) schedule(at time.Time, kind eventKind, seq int64) {
	heap.Push(&s.events, event{at: at.UnixNano(), kind: kind, seq: seq})
	if s.events[0].seq == seq && s.events[0].kind == kind {
		select {
		case s.wake <- struct{}{}:
		default:
		}
	}
}

// RunDue applies every event due by the store clock and returns how many it
// applied. The Server's settler calls it; a test with its own clock may too.
func (s *Store) RunDue() int {
	s.mu.Lock()
	defer s.unlock()
	return s.runDueLocked()
}

// runDueLocked applies the due events in due order (under the write lock).
func (s *Store) runDueLocked() int {
	now := s.clock().UnixNano()
	n := 0
	for len(s.events) > 0 && s.events[0].at <= now {
		e := heap.Pop(&s.events).(event)
		s.apply(e)
		n++
	}
	return n
}

// NextDue is the due time of the earliest event, if any.
func (s *Store) NextDue() (time.Time, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if len(s.events) == 0 {
		return time.Time{}, false
	}
	return time.Unix(0, s.events[0].at).UTC(), true
}

// apply makes one due move, if the object is still in the state the event
// was made for (a payment completed meanwhile is left alone). The move is
// stamped with the due time, not the time the settler got to it.
func (s *Store) apply(e event) {
	at := time.Unix(0, e.at).UTC()
	switch e.kind {
	case evSettlePayment:
		p := itemAt(s.payments, paymentBase, e.seq)
		if p == nil || p.Status != PaymentPending || p.IsInvoice {
			return
		}
		from := p.Status
		if p.flow == flowPendingDecline {
			s.reject(p, "InsufficientFunds", at)
		} else {
			s.approve(p, at)
		}
		s.notePayment(p)
		s.noteChange("payment", p.ID, string(from), string(p.Status), p.ResultCode, at)
	case evExpireInvoice:
		p := itemAt(s.payments, paymentBase, e.seq)
		if p == nil || p.Status != PaymentPending || !p.IsInvoice || at.Before(p.Invoice.Expires) {
			return
		}
		from := p.Status
		s.reject(p, "PaymentExpired", at)
		s.notePayment(p)
		s.noteChange("invoice", p.ID, string(from), string(p.Status), p.ResultCode, at)
	case evSettleRefund:
		if r := itemAt(s.refunds, refundBase, e.seq); r != nil && r.Status == RefundPending {
			from := r.Status
			s.settleRefund(r, at)
			s.noteChange("refund", r.ID, string(from), string(r.Status), r.ResultCode, at)
		}
	case evActivateToken:
		if t := itemAt(s.tokens, tokenBase, e.seq); t != nil && t.Status == TokenCreated && t.FromPage {
			from := t.Status
			s.activateFromPage(t, at)
			s.noteChange("payment token", t.ID, string(from), string(t.Status), t.ResultCode, at)
		}
	}
}

// stateLog is one state change by the clock, logged after the lock is
// released (like callbacks, so a slow log never holds the store).
type stateLog struct {
	msg  string
	args []any
}

// noteChange records a state move the clock made: kind, id, from -> to.
// Only ids and states: never a token's secret, a password or a hash.
func (s *Store) noteChange(kind, id, from, to, resultCode string, at time.Time) {
	s.logf("sandbox state change", "kind", kind, "id", id, "from", from, "to", to,
		"resultCode", resultCode, "at", at.Format(time.RFC3339Nano))
}

// logf queues an Info record (under the write lock; unlock writes it).
func (s *Store) logf(msg string, args ...any) {
	s.logbox = append(s.logbox, stateLog{msg: msg, args: args})
}

// runSettler moves time until ctx ends.
func (s *Store) runSettler(ctx context.Context) {
	t := time.NewTimer(0)
	defer t.Stop()
	for {
		s.RunDue()
		wait := time.Second
		if due, ok := s.NextDue(); ok {
			wait = min(max(due.Sub(s.clock()), time.Millisecond), time.Second)
		}
		t.Reset(wait)
		select {
		case <-ctx.Done():
			return
		case <-s.wake:
		case <-t.C:
		}
	}
}

// runArrivals adds a new realistic payment every interval until ctx ends.
func (s *Store) runArrivals(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			s.Arrive()
		}
	}
}
