package v2

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"iter"
	"net/url"
	"paydash/backend/textsafe"
	"time"
)

// Paging (docs/service.md): a list answer is
// {"items": [...], "cursor": "..."}; the next page is asked for with the
// query parameter cursor; an absent or empty cursor ends the list.

// ListParams selects payments or refunds of one merchant created in a period.
type ListParams struct {
	MerchantID string    // required by the service
	Start, End time.Time // zero: not sent
	Cursor     string    // "" for the first page; a list answer's Cursor for the next
}

func (p ListParams) cursor() string                 { return p.Cursor }
func (p ListParams) withCursor(c string) ListParams { p.Cursor = c; return p }

func (p ListParams) query() url.Values {
	q := url.Values{}
	if p.MerchantID != "" {
		q.Set("merchantId", p.MerchantID)
	}
	if !p.Start.IsZero() {
		q.Set("start", formatTime(p.Start))
	}
	if !p.End.IsZero() {
		q.Set("end", formatTime(p.End))
	}
	if p.Cursor != "" {
		q.Set("cursor", p.Cursor)
	}
	return q
}

// StickerListParams selects the stickers of one merchant.
type StickerListParams struct {
	MerchantID string
	Cursor     string
}

func (p StickerListParams) cursor() string                        { return p.Cursor }
func (p StickerListParams) withCursor(c string) StickerListParams { p.Cursor = c; return p }

func (p StickerListParams) query() url.Values {
	q := url.Values{}
	if p.MerchantID != "" {
		q.Set("merchantId", p.MerchantID)
	}
	if p.Cursor != "" {
		q.Set("cursor", p.Cursor)
	}
	return q
}

// formatTime writes RFC 3339 in UTC, with fractional seconds only when there
// are some: 2024-05-01T00:00:00Z.
func formatTime(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

// itemList is a list answer (PaymentList...) whose items slice can be
// made for the page before the page is decoded into it: encoding/json
// fills a slice's capacity before growing it, and growing it item by item
// sets aside about twice the page and copies it on the way.
type itemList interface {
	reserve(n int)
}

// idKey is the key every list item has.
var idKey = []byte(`"id":`)

// countItems estimates how many items a list answer holds: the objects
// with an "id" key, which every item has. A quote inside a JSON string is
// escaped, so the count never takes text for a key; the estimate is at
// worst a capacity unused (nested objects with ids) or grown (an
// "id" : with spaces), never a different answer.
func countItems(body []byte) int { return bytes.Count(body, idKey) }

// reserveItems gives *items room for n items, keeping none of what it
// held.
func reserveItems[T any](items *[]T, n int) {
	if n > 0 && cap(*items) < n {
		*items = make([]T, 0, n)
	}
}

// ErrRepeatedCursor is returned by the All iterators when the service hands
// back a cursor already followed: following it again would loop forever.
var ErrRepeatedCursor = errors.New("v2: the service repeated a page cursor")

// listPage fetches one page of the list at path (the query names the
// page) and sets resp.Cursor to the next page's cursor, which page gives.
func listPage[L, T any](ctx context.Context, c *Client, path string, q url.Values, page func(*L) ([]T, string)) (*L, *Response, error) {
	list, resp, err := fetch[L](ctx, c, path, q)
	if err == nil {
		_, resp.Cursor = page(list)
	}
	return list, resp, err
}

// cursored are a list's parameters, which ask for a page by its cursor.
type cursored[Q any] interface {
	cursor() string
	withCursor(cursor string) Q
}

// allPages iterates over every item list would page through, starting at
// p's cursor. It stops at the first error, yielded with a zero item.
func allPages[Q cursored[Q], L, T any](ctx context.Context, p Q, list func(context.Context, Q) (*L, *Response, error), page func(*L) ([]T, string)) iter.Seq2[T, error] {
	return all(p.cursor(), func(cursor string) ([]T, string, error) {
		l, _, err := list(ctx, p.withCursor(cursor))
		if err != nil {
			return nil, "", err
		}
		items, next := page(l)
		return items, next, nil
	})
}

// all turns a page fetcher into an iterator over every item, starting at
// cursor. It stops at the first error, which it yields with a zero item.
func all[T any](cursor string, fetch func(cursor string) (items []T, next string, err error)) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		var zero T
		seen := map[string]bool{cursor: true}
		for {
			items, next, err := fetch(cursor)
			if err != nil {
				yield(zero, err)
				return
			}
			for _, it := range items {
				if !yield(it, nil) {
					return
				}
			}
			if next == "" {
				return
			}
			if seen[next] {
				yield(zero, fmt.Errorf("%w: %q", ErrRepeatedCursor, textsafe.Line(next, 80)))
				return
			}
			seen[next] = true
			cursor = next
		}
	}
}
