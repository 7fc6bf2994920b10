package pagecache

import (
	"context"
	"strings"
	"time"

	"paydash/backend"
)

// key names a query: the list, its merchant and its exact parameters.
type key struct {
	kind     string
	merchant string
	start    time.Time // an instant in UTC, no monotonic reading
	end      time.Time // the zero time: the end is still to come (openEnd)
	filter   string
}

// instant is t as a map key: the same instant gives the same key, in any
// location.
func instant(t time.Time) time.Time { return t.Round(0).UTC() }

// periodKey keys a period. An end still to come (after now, on the
// service's clock) keys as open: every object that exists was made before
// it, so [Start, End) selects the same objects for every such End. The
// rolling presets end a minute after their session's now, and the
// Overview an hour after: all of them share one walk with each other and
// with a fixed period that ends at a midnight still to come.
func periodKey(kind string, q backend.PeriodQuery, filter string, now time.Time) key {
	k := key{kind: kind, merchant: q.MerchantID, start: instant(q.Start), filter: filter}
	if !q.End.After(now) {
		k.end = instant(q.End)
	}
	return k
}

// filterKey spells a PaymentFilter out, its statuses in their order.
func filterKey(f backend.PaymentFilter) string {
	var b strings.Builder
	for _, s := range f.Statuses {
		b.WriteString(string(s))
		b.WriteByte(',')
	}
	b.WriteString("|")
	b.WriteString(f.OrderNo)
	if f.Customer {
		b.WriteString("|customer")
	}
	return b.String()
}

// ListPayments is the merchant's period, from the cache.
func (c *Backend) ListPayments(q backend.PeriodQuery) backend.Pager[backend.Payment] {
	return newPager(c, func(now time.Time) key { return periodKey("payments", q, "", now) },
		func() backend.Pager[backend.Payment] { return c.Backend.ListPayments(q) })
}

// FilterPayments is the service's selection, from the cache; ok is the
// wrapped backend's answer.
func (c *Backend) FilterPayments(q backend.PeriodQuery, f backend.PaymentFilter) (backend.Pager[backend.Payment], bool) {
	first, ok := c.Backend.FilterPayments(q, f)
	if !ok {
		return first, false
	}
	// A pager binds to a walk once, at its first page: first is made for
	// that, and is the walk's pager when the walk is new.
	fk := filterKey(f)
	open := func() backend.Pager[backend.Payment] { return first }
	return newPager(c, func(now time.Time) key { return periodKey("filter", q, fk, now) }, open), true
}

// ListRefunds is the merchant's refunds of the period, from the cache.
func (c *Backend) ListRefunds(q backend.PeriodQuery) backend.Pager[backend.Refund] {
	return newPager(c, func(now time.Time) key { return periodKey("refunds", q, "", now) },
		func() backend.Pager[backend.Refund] { return c.Backend.ListRefunds(q) })
}

// ListStickers is the merchant's stickers, from the cache.
func (c *Backend) ListStickers(q backend.StickerQuery) backend.Pager[backend.Sticker] {
	return newPager(c, func(time.Time) key { return key{kind: "stickers", merchant: q.MerchantID} },
		func() backend.Pager[backend.Sticker] { return c.Backend.ListStickers(q) })
}

// dayKey keys whole UTC days, as the service reads them.
func dayKey(kind string, q backend.DayQuery) key {
	day := func(t time.Time) string { return t.UTC().Format(time.DateOnly) }
	return key{kind: kind, filter: day(q.From) + ".." + day(q.To)}
}

// ListTransfers is the account's transfers of the days, from the cache: a
// list of one page.
func (c *Backend) ListTransfers(ctx context.Context, q backend.DayQuery) ([]backend.Transfer, error) {
	return onePage(ctx, c, dayKey("transfers", q), func(ctx context.Context) ([]backend.Transfer, error) {
		return c.Backend.ListTransfers(ctx, q)
	})
}

// ListDocuments is the account's documents of the days, from the cache.
func (c *Backend) ListDocuments(ctx context.Context, q backend.DayQuery) ([]backend.Document, error) {
	return onePage(ctx, c, dayKey("documents", q), func(ctx context.Context) ([]backend.Document, error) {
		return c.Backend.ListDocuments(ctx, q)
	})
}

func onePage[T any](ctx context.Context, c *Backend, k key, call func(context.Context) ([]T, error)) ([]T, error) {
	p := newPager(c, func(time.Time) key { return k }, func() backend.Pager[T] { return &callPager[T]{call: call} })
	page, err := p.Next(ctx)
	return page.Items, err
}

// callPager is a pager over one call that answers the whole list.
type callPager[T any] struct {
	call func(context.Context) ([]T, error)
}

func (p *callPager[T]) Next(ctx context.Context) (backend.Page[T], error) {
	items, err := p.call(ctx)
	if err != nil {
		return backend.Page[T]{}, err
	}
	return backend.Page[T]{Items: items, Done: true}, nil
}
