package sandbox

import (
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"math"
	"strconv"
	"unicode/utf8"
)

// Paging (docs/service.md): newest first, by (created, id). A cursor is the key of
// the last item served plus a fingerprint of the query, base64url-encoded.
// The next page is "items strictly older than the key", so objects created
// while a client pages (they are newer) never shift or repeat anything, and a
// cursor handed to another query is recognised and refused.

const cursorVersion = 1

func fingerprint(parts ...string) uint32 {
	h := fnv.New32a()
	for _, p := range parts {
		h.Write([]byte(p))
		h.Write([]byte{0})
	}
	return h.Sum32()
}

func encodeCursor(k sortKey, fp uint32) string {
	var b [21]byte
	b[0] = cursorVersion
	binary.BigEndian.PutUint64(b[1:], uint64(k.created))
	binary.BigEndian.PutUint64(b[9:], uint64(k.seq))
	binary.BigEndian.PutUint32(b[17:], fp)
	return base64.RawURLEncoding.EncodeToString(b[:])
}

// decodeCursor reads a cursor of the query fingerprinted fp.
func decodeCursor(c string, fp uint32) (sortKey, error) {
	b, err := base64.RawURLEncoding.DecodeString(c)
	if err != nil || len(b) != 21 || b[0] != cursorVersion {
		return sortKey{}, invalid("cursor is not a cursor this service issued")
	}
	if binary.BigEndian.Uint32(b[17:]) != fp {
		return sortKey{}, invalid("cursor belongs to another query (merchantId, start and end must stay the same while paging)")
	}
	return sortKey{int64(binary.BigEndian.Uint64(b[1:])), int64(binary.BigEndian.Uint64(b[9:]))}, nil
}

// pageOf serves one page of all (sorted ascending) within [lo, hi), strictly
// before the cursor key if there is one, newest first. It returns the key of
// the last item when more remain.
func pageOf[T keyed](all []T, lo, hi int64, before *sortKey, limit int) ([]T, *sortKey) {
	a, b := rangeOf(all, lo, hi)
	if before != nil {
		// The earliest position whose key is >= the cursor key.
		j := searchKey(all, *before)
		b = min(b, j)
		if b < a {
			b = a
		}
	}
	n := min(b-a, limit)
	out := make([]T, 0, n)
	for i := b - 1; i >= b-n; i-- {
		out = append(out, all[i])
	}
	if b-a > limit {
		k := keyOf(all[b-n])
		return out, &k
	}
	return out, nil
}

func searchKey[T keyed](all []T, k sortKey) int {
	lo, hi := 0, len(all)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if keyOf(all[m]).less(k) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo
}

// listSpec checks a list query and works out its fingerprint and position.
func (s *Store) listSpec(kind string, q ListQuery, ranged bool) (*merchantData, int64, int64, *sortKey, uint32, error) {
	var problems []string
	m := s.checkMerchant(q.MerchantID, &problems)
	if ranged && !q.Start.IsZero() && !q.End.IsZero() && q.Start.After(q.End) {
		problems = append(problems, "start must not be after end")
	}
	if len(problems) > 0 {
		return nil, 0, 0, nil, 0, invalid(problems...)
	}
	lo, hi, fp := queryBounds(kind, q, ranged)
	var before *sortKey
	if q.Cursor != "" {
		k, err := decodeCursor(q.Cursor, fp)
		if err != nil {
			return nil, 0, 0, nil, 0, err
		}
		before = &k
	}
	return m, lo, hi, before, fp, nil
}

// queryBounds is a list query's range of creation times and its
// fingerprint.
func queryBounds(kind string, q ListQuery, ranged bool) (lo, hi int64, fp uint32) {
	lo, hi = int64(math.MinInt64), int64(math.MaxInt64)
	if ranged {
		lo, hi = timeBounds(q.Start, q.End)
	}
	return lo, hi, fingerprint(kind, q.MerchantID, strconv.FormatInt(lo, 10), strconv.FormatInt(hi, 10))
}

// cursorAfter is the cursor that continues query q after item last: the
// v2 list handlers cut a page short at its byte budget with it.
func cursorAfter[T keyed](kind string, q ListQuery, ranged bool, last T) string {
	_, _, fp := queryBounds(kind, q, ranged)
	return encodeCursor(keyOf(last), fp)
}

func limitOf(q ListQuery) int {
	if q.Limit <= 0 || q.Limit > 1000 {
		return PageSize
	}
	return q.Limit
}

// ListPayments serves one page of a merchant's payments created in
// [q.Start, q.End) (a zero bound is open), newest first.
func (s *Store) ListPayments(q ListQuery) (Page[Payment], error) {
	return copyPage(s.ViewPayments, q)
}

// ListRefunds serves one page of a merchant's refunds, like ListPayments.
func (s *Store) ListRefunds(q ListQuery) (Page[Refund], error) {
	return copyPage(s.ViewRefunds, q)
}

// ListStickers serves one page of a merchant's stickers, newest first
// (q.Start and q.End are ignored).
func (s *Store) ListStickers(q ListQuery) (Page[Sticker], error) {
	return copyPage(s.ViewStickers, q)
}

// ViewPayments hands the page ListPayments would serve to use, under the
// store's read lock, as the store's own objects rather than copies: use
// must neither keep nor change them. The v2 list handlers render a page
// so, without copying it first.
func (s *Store) ViewPayments(q ListQuery, use func(items []*Payment, cursor string)) error {
	s.awaitPage("payments", q) // the days it reaches are seeded
	s.mu.RLock()
	defer s.mu.RUnlock()
	return viewPage(s, "payments", q, true, func(m *merchantData) []*Payment { return m.payments }, use)
}

// ViewRefunds is ViewPayments for ListRefunds.
func (s *Store) ViewRefunds(q ListQuery, use func(items []*Refund, cursor string)) error {
	s.awaitPage("refunds", q)
	s.mu.RLock()
	defer s.mu.RUnlock()
	return viewPage(s, "refunds", q, true, func(m *merchantData) []*Refund { return m.refunds }, use)
}

// ViewStickers is ViewPayments for ListStickers.
func (s *Store) ViewStickers(q ListQuery, use func(items []*Sticker, cursor string)) error {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return viewPage(s, "stickers", q, false, func(m *merchantData) []*Sticker { return m.stickers }, use)
}

// copyPage is the page view hands over, copied out of the store.
func copyPage[T any](view func(ListQuery, func([]*T, string)) error, q ListQuery) (Page[T], error) {
	var page Page[T]
	err := view(q, func(items []*T, cursor string) {
		page = Page[T]{Items: make([]T, len(items)), Cursor: cursor}
		for i, x := range items {
			page.Items[i] = *x
		}
	})
	return page, err
}

// viewPage hands use one page of the merchant's objects of a kind,
// newest first, in the query's period when ranged (under the read lock),
// and the next page's cursor; of gives the merchant's objects, oldest
// first.
func viewPage[P keyed](s *Store, kind string, q ListQuery, ranged bool, of func(*merchantData) []P, use func([]P, string)) error {
	m, lo, hi, before, fp, err := s.listSpec(kind, q, ranged)
	if err != nil {
		return err
	}
	items, next := pageOf(of(m), lo, hi, before, limitOf(q))
	cursor := ""
	if next != nil {
		cursor = encodeCursor(*next, fp)
	}
	use(items, cursor)
	return nil
}

// checkMerchant finds the merchant or notes the problem.
func (s *Store) checkMerchant(id string, problems *[]string) *merchantData {
	if id == "" {
		*problems = append(*problems, "merchantId is required")
		return nil
	}
	if utf8.RuneCountInString(id) > maxID {
		*problems = append(*problems, fmt.Sprintf("merchantId is longer than %d characters", maxID))
		return nil
	}
	m := s.merchantByID[id]
	if m == nil {
		*problems = append(*problems, "merchantId "+strconv.Quote(id)+" is unknown")
	}
	return m
}
