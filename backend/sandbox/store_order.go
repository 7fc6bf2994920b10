package sandbox

import (
	"cmp"
	"slices"
	"strconv"
)

// Inserting objects, each merchant's kept in creation order (then id), and
// the sort key that order uses.

func (s *Store) addPayment(m *merchantData, p *Payment) {
	p.seq = paymentBase + int64(len(s.payments))
	p.ID = strconv.FormatInt(p.seq, 10)
	p.MerchantID = m.ID
	s.payments = append(s.payments, p)
	m.payments = insertSorted(m.payments, p)
	if o := p.Invoice.OrderNo; o != "" {
		if old := m.byOrder[o]; old == nil || !keyOf(p).less(keyOf(old)) {
			m.byOrder[o] = p
		}
	}
}

func (s *Store) addRefund(m *merchantData, p *Payment, r *Refund) {
	r.seq = refundBase + int64(len(s.refunds))
	r.ID = strconv.FormatInt(r.seq, 10)
	r.PaymentID, r.MerchantID = p.ID, m.ID
	s.refunds = append(s.refunds, r)
	m.refunds = insertSorted(m.refunds, r)
	p.refunds = append(p.refunds, r)
}

func (s *Store) addToken(m *merchantData, t *PaymentToken) {
	t.seq = tokenBase + int64(len(s.tokens))
	t.ID = strconv.FormatInt(t.seq, 10)
	t.MerchantID = m.ID
	s.tokens = append(s.tokens, t)
	m.tokens = insertSorted(m.tokens, t)
}

func (s *Store) addSticker(m *merchantData, st *Sticker) {
	st.seq = stickerBase + int64(len(s.stickers))
	st.ID = strconv.FormatInt(st.seq, 10)
	st.MerchantID = m.ID
	s.stickers = append(s.stickers, st)
	m.stickers = insertSorted(m.stickers, st)
}

// insertSorted appends (the usual case: the newest object) or, if a test
// clock went backwards, inserts at its place.
func insertSorted[T keyed](all []T, x T) []T {
	k := keyOf(x)
	if n := len(all); n == 0 || !k.less(keyOf(all[n-1])) {
		return append(all, x)
	}
	i, _ := slices.BinarySearchFunc(all, k, func(e T, k sortKey) int { return keyOf(e).cmp(k) })
	return slices.Insert(all, i, x)
}

// sortKey orders objects by creation time, then id.
type sortKey struct{ created, seq int64 }

func (a sortKey) cmp(b sortKey) int {
	if c := cmp.Compare(a.created, b.created); c != 0 {
		return c
	}
	return cmp.Compare(a.seq, b.seq)
}
func (a sortKey) less(b sortKey) bool { return a.cmp(b) < 0 }

type keyed interface{ key() sortKey }

func keyOf[T keyed](x T) sortKey { return x.key() }

func (p *Payment) key() sortKey      { return sortKey{p.Created.UnixNano(), p.seq} }
func (r *Refund) key() sortKey       { return sortKey{r.Created.UnixNano(), r.seq} }
func (t *PaymentToken) key() sortKey { return sortKey{t.Created.UnixNano(), t.seq} }
func (st *Sticker) key() sortKey     { return sortKey{st.Created.UnixNano(), st.seq} }

// rangeOf finds [a, b) of the items created in [lo, hi) by binary search.
func rangeOf[T keyed](all []T, lo, hi int64) (int, int) {
	find := func(t int64) int {
		// The earliest position whose created time is >= t.
		i, _ := slices.BinarySearchFunc(all, t, func(e T, t int64) int { return cmp.Compare(keyOf(e).created, t) })
		return i
	}
	a, b := find(lo), find(hi)
	if b < a {
		b = a
	}
	return a, b
}
