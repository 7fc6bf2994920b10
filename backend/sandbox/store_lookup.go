package sandbox

import "strconv"

// Finding objects by id (the id less its kind's base is the index), and
// the reads that return copies of them.

// seqOf reads a canonical digit id into its sequence number.
func seqOf(id string) (int64, bool) {
	if id == "" || len(id) > 18 || id[0] == '0' {
		return 0, false
	}
	for i := 0; i < len(id); i++ {
		if id[i] < '0' || id[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.ParseInt(id, 10, 64)
	return n, err == nil
}

func lookup[T any](all []*T, base int64, id string) *T {
	n, ok := seqOf(id)
	if !ok {
		return nil
	}
	return itemAt(all, base, n)
}

func itemAt[T any](all []*T, base, seq int64) *T {
	if seq < base || seq-base >= int64(len(all)) {
		return nil
	}
	return all[seq-base]
}

func (s *Store) payment(id string) (*Payment, error) {
	if p := lookup(s.payments, paymentBase, id); p != nil {
		return p, nil
	}
	return nil, &NotFoundError{Kind: "payment", ID: id}
}

func (s *Store) refund(id string) (*Refund, error) {
	if r := lookup(s.refunds, refundBase, id); r != nil {
		return r, nil
	}
	return nil, &NotFoundError{Kind: "refund", ID: id}
}

func (s *Store) token(id string) (*PaymentToken, error) {
	if t := lookup(s.tokens, tokenBase, id); t != nil {
		return t, nil
	}
	return nil, &NotFoundError{Kind: "payment token", ID: id}
}

func (s *Store) sticker(id string) (*Sticker, error) {
	if st := lookup(s.stickers, stickerBase, id); st != nil {
		return st, nil
	}
	return nil, &NotFoundError{Kind: "sticker", ID: id}
}

// GetPayment returns one payment.
func (s *Store) GetPayment(id string) (Payment, error) {
	s.awaitSeed(func() bool { return !s.paymentMissing(id) })
	s.mu.RLock()
	defer s.mu.RUnlock()
	p, err := s.payment(id)
	if err != nil {
		return Payment{}, err
	}
	return *p, nil
}

// PaymentByOrderNo finds the newest payment of a merchant with that order
// number (v1 getPaymentByInvoiceID: invoiceID + siteAlias).
func (s *Store) PaymentByOrderNo(merchantID, orderNo string) (Payment, error) {
	// Found is final (what is not in yet is older); not found waits for all.
	s.awaitSeed(func() bool { m := s.merchantByID[merchantID]; return m == nil || m.byOrder[orderNo] != nil })
	s.mu.RLock()
	defer s.mu.RUnlock()
	if m := s.merchantByID[merchantID]; m != nil {
		if p := m.byOrder[orderNo]; p != nil {
			return *p, nil
		}
	}
	return Payment{}, &NotFoundError{Kind: "payment with orderNo", ID: orderNo}
}

// RefundsOfPayment lists a payment's refunds, oldest first.
func (s *Store) RefundsOfPayment(paymentID string) ([]Refund, error) {
	s.awaitComplete()
	s.mu.RLock()
	defer s.mu.RUnlock()
	p, err := s.payment(paymentID)
	if err != nil {
		return nil, err
	}
	out := make([]Refund, len(p.refunds))
	for i, r := range p.refunds {
		out[i] = *r
	}
	return out, nil
}

// GetRefund returns one refund.
func (s *Store) GetRefund(id string) (Refund, error) {
	s.awaitComplete()
	s.mu.RLock()
	defer s.mu.RUnlock()
	r, err := s.refund(id)
	if err != nil {
		return Refund{}, err
	}
	return *r, nil
}

// GetPaymentToken returns one token.
func (s *Store) GetPaymentToken(id string) (PaymentToken, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	t, err := s.token(id)
	if err != nil {
		return PaymentToken{}, err
	}
	return *t, nil
}

// TokensOf lists a merchant's tokens, newest first (no v2 list exists; for
// tests and tools).
func (s *Store) TokensOf(merchantID string) []PaymentToken {
	s.mu.RLock()
	defer s.mu.RUnlock()
	m := s.merchantByID[merchantID]
	if m == nil {
		return nil
	}
	out := make([]PaymentToken, 0, len(m.tokens))
	for i := len(m.tokens) - 1; i >= 0; i-- {
		out = append(out, *m.tokens[i])
	}
	return out
}

// GetSticker returns one sticker.
func (s *Store) GetSticker(id string) (Sticker, error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	st, err := s.sticker(id)
	if err != nil {
		return Sticker{}, err
	}
	return *st, nil
}

// PaymentCount is the number of payments in the store.
func (s *Store) PaymentCount() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return len(s.payments)
}
