package v1

import (
	"context"
	"errors"
	"fmt"
	"slices"
)

// Pages lists a whole period of payments or refunds although one list
// request answers at most 1,000 items (docs/service.md).
//
// It keeps a stack of windows of days, newest on top, starting with the
// whole period. Next asks for the top window; when the answer overflows and
// the window spans more than one day, the answer is discarded and the
// window replaced by its two halves (the newer half asked first). A single
// day that still overflows is narrowed, for payments, by state: one
// request for each of the five v1 states (and for any other state seen in
// the day's overflowing answer). What cannot be narrowed further — a
// (day, state) of payments or a day of refunds with more than the service
// lists — is returned as the items the service gave together with an
// *IncompleteError naming it: nothing is dropped silently.
//
// Request bound: for a period of D days, at most 2D−1 window requests
// (the windows form a binary tree with at most D leaves), plus, for each
// single day that overflows, one request per state (5 with the spec's
// states), plus the retries of failed requests. A period of 30 days never
// takes more than 59 requests unless a day holds more than 1,000 items.
//
// No item is returned twice: the windows do not overlap, and items are also
// remembered by id, so a payment that changes state between two state
// requests of the same day appears once.
//
// Pages is not safe for concurrent use.
type Pages[T any] struct {
	list   func(ctx context.Context, w window) ([]T, bool, error)
	id     func(T) string
	state  func(T) string // nil: no narrowing by state (refunds)
	what   string         // "payments" or "refunds"
	fixed  string         // the filter's own state, named in an IncompleteError
	stack  []window       // the top is the last element
	seen   map[string]struct{}
	err    error // a filter that cannot be paged
	issued int
}

// window is a run of days [from, to]; state, when set, narrows one day.
type window struct {
	from, to Date
	state    string
}

func (w window) days() int { return w.from.DaysUntil(w.to) + 1 }

// IncompleteError says which day (and state) could not be listed
// completely: the service answered Overflow for it and there is no finer
// filter left. The items that came are returned with it.
type IncompleteError struct {
	What  string // "payments" or "refunds"
	Day   Date
	State string // "" when the whole day could not be narrowed by state
}

func (e *IncompleteError) Error() string {
	if e.State != "" {
		return fmt.Sprintf("v1: %s of %s in state %s could not be listed completely: the service lists at most 1,000 and there is no narrower filter", e.What, e.Day, e.State)
	}
	return fmt.Sprintf("v1: %s of %s could not be listed completely: the service lists at most 1,000 and there is no narrower filter", e.What, e.Day)
}

// IsIncomplete reports whether err is (or wraps) an *IncompleteError.
func IsIncomplete(err error) bool {
	var e *IncompleteError
	return errors.As(err, &e)
}

// PaymentPages pages the payments matching f over f's period, which is
// required (both PeriodFrom and PeriodTo; PeriodTo not before PeriodFrom).
// A filter with State set is not narrowed by state again.
func (c *Client) PaymentPages(f PaymentFilter) *Pages[Payment] {
	p := &Pages[Payment]{
		what: "payments",
		id:   func(x Payment) string { return x.PaymentID },
		list: func(ctx context.Context, w window) ([]Payment, bool, error) {
			g := f
			g.PeriodFrom, g.PeriodTo = w.from, w.to
			if w.state != "" {
				g.State = w.state
			}
			l, _, err := c.ListPaymentsFilter(ctx, g)
			if err != nil {
				return nil, false, err
			}
			return l.Payments, l.Overflow, nil
		},
	}
	if f.State == "" {
		p.state = func(x Payment) string { return x.State }
	}
	p.fixed = f.State
	p.start(f.PeriodFrom, f.PeriodTo)
	return p
}

// RefundPages pages the refunds matching f over f's period, which is
// required as for PaymentPages. A single day of more than 1,000 refunds
// cannot be narrowed (listRefunds has no state filter) and gives an
// *IncompleteError.
func (c *Client) RefundPages(f RefundFilter) *Pages[Refund] {
	p := &Pages[Refund]{
		what: "refunds",
		id:   func(x Refund) string { return x.RefundID },
		list: func(ctx context.Context, w window) ([]Refund, bool, error) {
			g := f
			g.PeriodFrom, g.PeriodTo = w.from, w.to
			l, _, err := c.ListRefunds(ctx, g)
			if err != nil {
				return nil, false, err
			}
			return l.Refunds, l.Overflow, nil
		},
	}
	p.start(f.PeriodFrom, f.PeriodTo)
	return p
}

func (p *Pages[T]) start(from, to Date) {
	p.seen = map[string]struct{}{}
	switch {
	case from.IsZero() || to.IsZero():
		p.err = fmt.Errorf("v1: paging %s needs both PeriodFrom and PeriodTo", p.what)
	case to.Before(from):
		p.err = fmt.Errorf("v1: paging %s: PeriodTo %s is before PeriodFrom %s", p.what, to, from)
	default:
		p.stack = []window{{from: from, to: to}}
	}
}

// Requests is the number of list requests Next has made so far (retries
// inside the client not counted).
func (p *Pages[T]) Requests() int { return p.issued }

// Next returns the items of the next window that does not overflow, newest
// window first (and, inside a window, in the service's order: newest
// first; a day narrowed by state comes state by state). done is true when
// nothing is left.
//
// On a failed request Next returns the error with nothing consumed: calling
// it again retries the same window. An *IncompleteError comes with the
// items that were listed; the window is consumed and the next call goes on
// with the rest of the period.
func (p *Pages[T]) Next(ctx context.Context) (items []T, done bool, err error) {
	if p.err != nil {
		return nil, true, p.err
	}
	for len(p.stack) > 0 {
		w := p.stack[len(p.stack)-1]
		got, overflow, err := p.list(ctx, w)
		p.issued++
		if err != nil {
			return nil, false, err
		}
		p.stack = p.stack[:len(p.stack)-1]
		if !overflow {
			return p.fresh(got), len(p.stack) == 0, nil
		}
		if n := w.days(); n > 1 {
			// Older half below, newer half on top. The newer half gets the
			// extra day of an odd window: nothing depends on it, but the
			// newest days are the busiest in practice.
			older := window{from: w.from, to: w.from.AddDays(n/2 - 1)}
			newer := window{from: older.to.AddDays(1), to: w.to}
			p.stack = append(p.stack, older, newer)
			continue
		}
		if w.state == "" && p.state != nil {
			states := PaymentStates()
			for _, x := range got { // a state the spec does not list would be missed otherwise
				if s := p.state(x); s != "" && !slices.Contains(states, s) {
					states = append(states, s)
				}
			}
			for i := len(states) - 1; i >= 0; i-- { // the spec's order, first on top
				p.stack = append(p.stack, window{from: w.from, to: w.to, state: states[i]})
			}
			continue
		}
		state := w.state
		if state == "" {
			state = p.fixed
		}
		return p.fresh(got), len(p.stack) == 0, &IncompleteError{What: p.what, Day: w.from, State: state}
	}
	return nil, true, nil
}

// fresh drops the items returned before (by id; items without an id are
// kept, there is nothing to compare them by).
func (p *Pages[T]) fresh(items []T) []T {
	out := items[:0:0]
	for _, x := range items {
		id := p.id(x)
		if id != "" {
			if _, dup := p.seen[id]; dup {
				continue
			}
			p.seen[id] = struct{}{}
		}
		out = append(out, x)
	}
	return out
}
