package sandbox

import (
	"slices"
	"strings"
	"time"

	"paydash/backend/money"
)

// Payment rules: making a direct payment or an invoice, and paying an
// invoice on its page. The steps a payment then goes through are in
// rules_payment_steps.go.

// CreatePayment makes a direct payment and runs its first step: approved,
// declined, pending, or waiting for a confirmation (see the test cards).
func (s *Store) CreatePayment(req PaymentRequest) (Payment, error) {
	s.mu.Lock()
	defer s.unlock()
	now := s.clock()

	problems := slices.Clone(req.problems)
	m := s.checkMerchant(req.MerchantID, &problems)
	method := checkMethod("paymentData.paymentMethod", req.PaymentMethod, &problems)
	in := s.checkPaymentData(req, method, &problems)
	amount := stickerAmount(req, in.sticker, &problems)
	checkAmount("amount", amount, m, true, req.amountBad, &problems)
	checkInvoice(req.Invoice, now, &problems)
	checkURL("protocol.callbackUrl", req.Protocol.CallbackURL, &problems)
	checkURL("protocol.returnUrl", req.Protocol.ReturnURL, &problems)
	checkURL("protocol.threeDSCompleteUrl", req.Protocol.ThreeDSCompleteURL, &problems)
	if t := req.Tokenization; t != nil {
		checkTokenType("tokenization.type", t.Type, &problems)
		checkURL("tokenization.callbackUrl", t.CallbackURL, &problems)
	}
	if len(problems) > 0 {
		return Payment{}, invalid(problems...)
	}

	p := &Payment{
		Created: now, Updated: now, TestMode: req.TestMode, DualMode: req.DualMode,
		Status: PaymentPending, Invoice: req.Invoice, Amount: *amount,
		Customer: newCustomer(req.Customer), Protocol: newProtocol(req.Protocol),
	}
	f, decline, err := s.payWith(p, req, m, in, now)
	if err != nil {
		return Payment{}, err
	}
	if t := req.Tokenization; t != nil && req.TokenID == "" {
		p.tokenize = &tokenizeIntent{Type: checkTokenType("", t.Type, new([]string)), Purpose: t.Purpose, CallbackURL: t.CallbackURL}
	}
	s.addPayment(m, p)
	s.begin(p, f, decline, now)
	s.notePayment(p)
	return *p, nil
}

// paymentData is what a payment request's paymentData names, once checked:
// the test card and PAN of a card, when the card expires, or the sticker.
type paymentData struct {
	card    testCard
	pan     string
	expires time.Time
	sticker *Sticker
}

// checkPaymentData checks that the request names one instrument (card,
// dsrp, token, sticker, or an SBP payment) and that it is well formed.
func (s *Store) checkPaymentData(req PaymentRequest, method string, problems *[]string) paymentData {
	var in paymentData
	instruments := 0
	for _, set := range []bool{req.Card != nil, req.DSRP != nil, req.TokenID != "", req.StickerID != ""} {
		if set {
			instruments++
		}
	}
	switch {
	case instruments > 1:
		*problems = append(*problems, "paymentData must name one instrument: card, dsrp, token or stickerId")
	case req.Card != nil:
		if method == MethodSBP {
			*problems = append(*problems, "paymentData.card does not go with paymentMethod sbp")
		}
		in.card, in.pan, _ = checkPAN("paymentData.card.pan", req.Card.PAN, problems)
		if req.Card.Expiry != "" {
			var ok bool
			if in.expires, ok = parseExpiry(req.Card.Expiry); !ok {
				*problems = append(*problems, "paymentData.card.expiry must be MM/YY")
			}
		}
		if c := req.Card.CVC; c != "" && (len(c) < 3 || len(c) > 4 || strings.Trim(c, "0123456789") != "") {
			*problems = append(*problems, "paymentData.card.cvc must be 3 or 4 digits")
		}
	case req.DSRP != nil:
		if req.DSRP.Type != "ApplePay" && req.DSRP.Type != "GooglePay" {
			*problems = append(*problems, "paymentData.dsrp.type must be ApplePay or GooglePay")
		}
		if req.DSRP.Cryptogram == "" {
			*problems = append(*problems, "paymentData.dsrp.cryptogram is required")
		}
	case req.StickerID != "":
		in.sticker = lookup(s.stickers, stickerBase, req.StickerID)
	case req.TokenID != "":
	case method == MethodSBP:
	case method == MethodBankCard:
		*problems = append(*problems, "paymentData.card is required for a bank card payment")
	default:
		*problems = append(*problems, "paymentData is required: a card, dsrp, token.id, stickerId or paymentMethod sbp")
	}
	return in
}

// stickerAmount is the amount to pay: the request's, or a sticker's own
// amount when the request gives none; the two must agree when both are set.
func stickerAmount(req PaymentRequest, st *Sticker, problems *[]string) *money.Amount {
	amount := req.Amount
	if st != nil && st.Amount != nil {
		if amount == nil && !req.amountBad {
			a := *st.Amount
			amount = &a
		} else if amount != nil && *amount != *st.Amount {
			*problems = append(*problems, "amount must be the sticker's amount, "+st.Amount.String())
		}
	}
	return amount
}

// payWith sets the payment's instrument from the checked paymentData and
// returns the flow its first step takes (and the decline code, if any). A
// token or sticker that cannot pay is an error.
func (s *Store) payWith(p *Payment, req PaymentRequest, m *merchantData, in paymentData, now time.Time) (flow, string, error) {
	switch {
	case req.TokenID != "":
		return flowApprove, "", s.payWithToken(p, req.TokenID, m)
	case req.StickerID != "":
		return flowExternal, "", payWithSticker(p, in.sticker, req.StickerID, m)
	case req.Card != nil:
		p.Instrument = &Instrument{Method: MethodBankCard, Title: maskPAN(in.pan), Card: in.card.card}
		if !in.expires.IsZero() && in.expires.Before(now) {
			return flowDecline, "ExpiredAccount", nil
		}
		return in.card.flow, in.card.result, nil
	case req.DSRP != nil:
		p.Instrument = &Instrument{Method: MethodBankCard, Title: req.DSRP.Type}
		return flowApprove, "", nil
	default:
		p.Instrument = sbpInstrument
		return flowExternal, "", nil
	}
}

// payWithToken pays with an Active payment token of the same merchant; the
// payment takes the token's customer when it names none.
func (s *Store) payWithToken(p *Payment, tokenID string, m *merchantData) error {
	t, err := s.token(tokenID)
	if err != nil {
		return err
	}
	switch {
	case t.MerchantID != m.ID:
		return invalidOp("payment token %s belongs to another merchant", t.ID)
	case t.Status == TokenRevoked:
		return &TokenRevokedError{TokenID: t.ID}
	case t.Blocked:
		return &TokenBlockedError{TokenID: t.ID}
	case t.Status != TokenActive:
		return invalidOp("payment token %s is %s; only an Active token can pay", t.ID, t.Status)
	}
	p.Instrument, p.TokenID, p.Agreement = t.Instrument, t.ID, agreementOf(t.ID)
	if p.Customer == nil {
		p.Customer = t.Customer
	}
	return nil
}

// payWithSticker pays by SBP through an Active sticker (a cashlink) of the
// same merchant; the sticker's callback URL, if set, is the payment's.
func payWithSticker(p *Payment, st *Sticker, stickerID string, m *merchantData) error {
	if st == nil {
		return &NotFoundError{Kind: "sticker", ID: stickerID}
	}
	if st.MerchantID != m.ID {
		return invalidOp("sticker %s belongs to another merchant", st.ID)
	}
	if st.Status != StickerActive {
		return invalidOp("sticker %s is %s; a cashlink payment needs an Active sticker", st.ID, st.Status)
	}
	p.StickerID, p.Instrument = st.ID, sbpInstrument
	if p.CallbackURL() == "" && st.CallbackURL != "" {
		pr := Protocol{CallbackURL: st.CallbackURL}
		if p.Protocol != nil {
			pr = *p.Protocol
			pr.CallbackURL = st.CallbackURL
		}
		p.Protocol = &pr
	}
	return nil
}

func agreementOf(tokenID string) string { return "AGR-" + tokenID }

// CreateInvoice makes a Pending payment with a payment page; it is Rejected
// PaymentExpired if nobody pays it before invoice.expires (default 24 h).
func (s *Store) CreateInvoice(req InvoiceRequest) (Payment, error) {
	s.mu.Lock()
	defer s.unlock()
	now := s.clock()
	problems := slices.Clone(req.problems)
	m := s.checkMerchant(req.MerchantID, &problems)
	method := checkMethod("paymentMethod", req.PaymentMethod, &problems)
	checkAmount("amount", req.Amount, m, true, req.amountBad, &problems)
	checkInvoice(req.Invoice, now, &problems)
	checkURL("protocol.callbackUrl", req.Protocol.CallbackURL, &problems)
	checkURL("protocol.returnUrl", req.Protocol.ReturnURL, &problems)
	if t := req.Tokenization; t != nil {
		checkTokenType("tokenization.type", t.Type, &problems)
		checkURL("tokenization.callbackUrl", t.CallbackURL, &problems)
	}
	if len(problems) > 0 {
		return Payment{}, invalid(problems...)
	}
	p := &Payment{
		Created: now, Updated: now, TestMode: req.TestMode, DualMode: req.DualMode, IsInvoice: true,
		Status: PaymentPending, Invoice: req.Invoice, Amount: *req.Amount,
		Customer: newCustomer(req.Customer), Protocol: newProtocol(req.Protocol),
	}
	if p.Invoice.Expires.IsZero() {
		p.Invoice.Expires = now.Add(24 * time.Hour)
	}
	if method != "" {
		p.Instrument = &Instrument{Method: method}
	}
	if t := req.Tokenization; t != nil {
		p.tokenize = &tokenizeIntent{Type: checkTokenType("", t.Type, new([]string)), Purpose: t.Purpose, CallbackURL: t.CallbackURL}
	}
	s.addPayment(m, p)
	s.schedule(p.Invoice.Expires, evExpireInvoice, p.seq)
	s.notePayment(p)
	return *p, nil
}

// PaymentPageURL is where an invoice is paid.
func (s *Store) PaymentPageURL(id string) string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.baseURL + "/pay/" + id
}

// TokenizationPageURL is where a customer saves a card.
func (s *Store) TokenizationPageURL(id string) string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.baseURL + "/tokenize/" + id
}

// PayInvoice is the customer paying an invoice on its page with a test card.
func (s *Store) PayInvoice(id, pan string) (Payment, error) {
	s.mu.Lock()
	defer s.unlock()
	now := s.clock()
	p, err := s.payment(id)
	if err != nil {
		return Payment{}, err
	}
	var problems []string
	tc, pan, _ := checkPAN("pan", pan, &problems)
	if len(problems) > 0 {
		return Payment{}, invalid(problems...)
	}
	if !p.IsInvoice || p.Status != PaymentPending {
		return Payment{}, invalidOp("payment %s is %s; only an unpaid invoice can be paid on its page", p.ID, p.Status)
	}
	p.Instrument = &Instrument{Method: MethodBankCard, Title: maskPAN(pan), Card: tc.card}
	s.begin(p, tc.flow, tc.result, now)
	if p.Status != PaymentPending {
		s.notePayment(p)
	}
	return *p, nil
}
