package sandbox

import (
	"cmp"
	"math"
	"slices"
	"time"
)

// The filters of the v1 side: period, order number and state, bounded.

// PaymentFilter selects payments for a v1 list. Zero members do not filter.
type PaymentFilter struct {
	MerchantIDs []string  // empty: every merchant (the v1 account holds them all)
	Start, End  time.Time // created in [Start, End); zero: unbounded
	OrderNo     string
	Statuses    []PaymentStatus
	Limit       int // at most this many (0 = 1000)
}

// FilterPayments returns the matching payments newest first, at most
// f.Limit of them, and whether more matched (v1 Overflow).
func (s *Store) FilterPayments(f PaymentFilter) ([]Payment, bool) {
	limit := cmp.Or(f.Limit, 1000)
	lo, hi := timeBounds(f.Start, f.End)
	var (
		out      []Payment
		overflow bool
	)
	// While the seed is made, the answer is final once the seed has passed
	// the period's start, or once more than the limit match among what is
	// in: everything not in yet is older than all of those.
	final := false
	s.awaitSeed(func() bool {
		out, overflow = s.filterPayments(f, limit, lo, hi)
		final = lo >= s.horizon || overflow
		return final
	})
	if !final { // no seed running (any more)
		s.mu.RLock()
		out, overflow = s.filterPayments(f, limit, lo, hi)
		s.mu.RUnlock()
	}
	return out, overflow
}

// filterPayments is FilterPayments under the read lock.
func (s *Store) filterPayments(f PaymentFilter, limit int, lo, hi int64) ([]Payment, bool) {
	var out []Payment
	overflow := false
	for _, m := range s.selectMerchants(f.MerchantIDs) {
		a, b := rangeOf(m.payments, lo, hi)
		n := 0
		for i := b - 1; i >= a; i-- {
			p := m.payments[i]
			if f.OrderNo != "" && p.Invoice.OrderNo != f.OrderNo {
				continue
			}
			if len(f.Statuses) > 0 && !slices.Contains(f.Statuses, p.Status) {
				continue
			}
			if n == limit { // one more than fits: enough to know it overflows
				overflow = true
				break
			}
			out = append(out, *p)
			n++
		}
	}
	slices.SortFunc(out, func(a, b Payment) int { return keyOf(&b).cmp(keyOf(&a)) })
	if len(out) > limit {
		out, overflow = out[:limit], true
	}
	return out, overflow
}

// RefundFilter selects refunds for a v1 list. Zero members do not filter.
type RefundFilter struct {
	MerchantIDs []string
	PaymentID   string
	Start, End  time.Time // created in [Start, End); zero: unbounded
	ExternalID  string
	Limit       int // 0 = 1000
}

// FilterRefunds returns matching refunds newest first, bounded like
// FilterPayments.
func (s *Store) FilterRefunds(f RefundFilter) ([]Refund, bool) {
	limit := cmp.Or(f.Limit, 1000)
	lo, hi := timeBounds(f.Start, f.End)
	s.awaitComplete()
	s.mu.RLock()
	defer s.mu.RUnlock()
	var out []Refund
	overflow := false
	for _, m := range s.selectMerchants(f.MerchantIDs) {
		a, b := rangeOf(m.refunds, lo, hi)
		n := 0
		for i := b - 1; i >= a; i-- {
			r := m.refunds[i]
			if f.PaymentID != "" && r.PaymentID != f.PaymentID {
				continue
			}
			if f.ExternalID != "" && r.ExternalID != f.ExternalID {
				continue
			}
			if n == limit {
				overflow = true
				break
			}
			out = append(out, *r)
			n++
		}
	}
	slices.SortFunc(out, func(a, b Refund) int { return keyOf(&b).cmp(keyOf(&a)) })
	if len(out) > limit {
		out, overflow = out[:limit], true
	}
	return out, overflow
}

func (s *Store) selectMerchants(ids []string) []*merchantData {
	if len(ids) == 0 {
		return s.merchants
	}
	var out []*merchantData
	for _, id := range ids {
		if m := s.merchantByID[id]; m != nil {
			out = append(out, m)
		}
	}
	return out
}

func timeBounds(start, end time.Time) (int64, int64) {
	lo, hi := int64(math.MinInt64), int64(math.MaxInt64)
	if !start.IsZero() {
		lo = start.UnixNano()
	}
	if !end.IsZero() {
		hi = end.UnixNano()
	}
	return lo, hi
}
