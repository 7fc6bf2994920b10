package sandbox

import (
	"slices"
	"time"
)

// Payment-token rules: tokenization pages, tokens made directly, and
// completing, revoking and blocking them.

// CreateTokenization makes a token the customer binds on the tokenization
// page: Created now, Active (with the Visa test card, or SBP) after
// SettleDelay, as if the customer had filled in the page.
func (s *Store) CreateTokenization(req TokenizationRequest) (PaymentToken, error) {
	s.mu.Lock()
	defer s.unlock()
	now := s.clock()
	problems := slices.Clone(req.problems)
	m := s.checkMerchant(req.MerchantID, &problems)
	typ := checkTokenType("type", req.Type, &problems)
	method := checkMethod("paymentMethod", req.PaymentMethod, &problems)
	checkURL("callbackUrl", req.CallbackURL, &problems)
	checkURL("returnUrl", req.ReturnURL, &problems)
	if len(problems) > 0 {
		return PaymentToken{}, invalid(problems...)
	}
	if method == "" {
		method = MethodBankCard
	}
	t := &PaymentToken{
		Type: typ, Purpose: req.Purpose, Status: TokenCreated, Created: now, Updated: now, TestMode: req.TestMode,
		Instrument: &Instrument{Method: method}, Customer: newCustomer(req.Customer), FromPage: true,
		Protocol: newProtocol(Protocol{CallbackURL: req.CallbackURL, ReturnURL: req.ReturnURL}),
	}
	s.addToken(m, t)
	s.schedule(now.Add(s.settleDelay), evActivateToken, t.seq)
	return *t, nil
}

// activateFromPage is the customer finishing the tokenization page.
func (s *Store) activateFromPage(t *PaymentToken, at time.Time) {
	if t.Status != TokenCreated || !t.FromPage {
		return
	}
	if t.Instrument != nil && t.Instrument.Method == MethodSBP {
		t.Instrument, t.Title = sbpInstrument, "SBP subscription"
	} else {
		t.Instrument = &Instrument{Method: MethodBankCard, Title: maskPAN("4111111111111111"), Card: testVisa}
		t.Title = tokenTitle("Visa", "4111111111111111")
	}
	t.Status, t.ResultCode, t.Expires, t.Updated = TokenActive, "Success", at.AddDate(3, 0, 0), at
	s.noteToken(t)
}

// CreatePaymentToken makes a token from card data: Created with an External
// confirmation (completing it activates the token), or Declined for a
// declining test card.
func (s *Store) CreatePaymentToken(req PaymentTokenRequest) (PaymentToken, error) {
	s.mu.Lock()
	defer s.unlock()
	now := s.clock()
	problems := slices.Clone(req.problems)
	m := s.checkMerchant(req.MerchantID, &problems)
	typ := checkTokenType("type", req.Type, &problems)
	method := checkMethod("paymentData.paymentMethod", req.PaymentMethod, &problems)
	var (
		tc      testCard
		pan     string
		expires time.Time
	)
	switch {
	case method == MethodSBP:
		if req.Card != nil {
			problems = append(problems, "paymentData.card does not go with paymentMethod sbp")
		}
	case req.Card == nil:
		problems = append(problems, "paymentData.card is required")
	default:
		tc, pan, _ = checkPAN("paymentData.card.pan", req.Card.PAN, &problems)
		if req.Card.Expiry != "" {
			var ok bool
			if expires, ok = parseExpiry(req.Card.Expiry); !ok {
				problems = append(problems, "paymentData.card.expiry must be MM/YY")
			}
		}
	}
	checkURL("protocol.callbackUrl", req.Protocol.CallbackURL, &problems)
	checkURL("protocol.returnUrl", req.Protocol.ReturnURL, &problems)
	checkURL("protocol.threeDSCompleteUrl", req.Protocol.ThreeDSCompleteURL, &problems)
	if len(problems) > 0 {
		return PaymentToken{}, invalid(problems...)
	}
	t := &PaymentToken{
		Type: typ, Purpose: req.Purpose, Status: TokenCreated, Created: now, Updated: now, TestMode: req.TestMode,
		Customer: newCustomer(req.Customer), Protocol: newProtocol(req.Protocol),
	}
	if expires.IsZero() {
		expires = time.Date(now.Year()+3, now.Month()+1, 1, 0, 0, 0, 0, time.UTC).Add(-time.Second)
	}
	t.Expires = expires
	if method == MethodSBP {
		t.Instrument, t.Title = sbpInstrument, "SBP subscription"
	} else {
		t.Instrument = &Instrument{Method: MethodBankCard, Title: maskPAN(pan), Card: tc.card}
		t.Title = tokenTitle(tc.card.Brand, pan)
	}
	s.addToken(m, t)
	switch {
	case tc.flow == flowDecline:
		t.Status, t.ResultCode = TokenDeclined, tc.result
	case !expires.After(now):
		t.Status, t.ResultCode = TokenDeclined, "ExpiredAccount"
	default:
		link := s.baseURL + "/tokenize/" + t.ID
		if method == MethodSBP {
			link = sbpPayload(s.rng, true, nil, m.acquirer())
		}
		t.Confirmation = &Confirmation{Type: ConfirmExternal, PaymentURL: link, UniversalLink: method == MethodSBP,
			Instruction: "Confirm saving the payment method on the bank's page"}
	}
	return *t, nil
}

// CompletePaymentToken confirms a Created token: it becomes Active.
func (s *Store) CompletePaymentToken(id string, c CompleteRequest) (PaymentToken, error) {
	s.mu.Lock()
	defer s.unlock()
	now := s.clock()
	t, err := s.token(id)
	if err != nil {
		return PaymentToken{}, err
	}
	if t.Status != TokenCreated || t.Confirmation == nil {
		if t.FromPage && t.Status == TokenCreated {
			return PaymentToken{}, invalidOp("payment token %s waits for the customer on the tokenization page", t.ID)
		}
		return PaymentToken{}, invalidOp("payment token %s is %s; only a Created token awaiting confirmation can be completed", t.ID, t.Status)
	}
	if !c.empty() {
		return PaymentToken{}, invalid("an External confirmation is completed with an empty body")
	}
	t.Status, t.ResultCode, t.Confirmation, t.Updated = TokenActive, "Success", nil, now
	s.noteToken(t)
	return *t, nil
}

// RevokePaymentToken ends an Active token: Active -> Revoked.
func (s *Store) RevokePaymentToken(id string) (PaymentToken, error) {
	s.mu.Lock()
	defer s.unlock()
	now := s.clock()
	t, err := s.token(id)
	if err != nil {
		return PaymentToken{}, err
	}
	if t.Status != TokenActive {
		return PaymentToken{}, invalidOp("payment token %s is %s; only an Active token can be revoked", t.ID, t.Status)
	}
	t.Status, t.Updated = TokenRevoked, now
	s.noteToken(t)
	return *t, nil
}

// BlockPaymentToken locks a token out (as an issuer would after a lost-card
// report) or lifts the lock; payments by a blocked token get
// payment_token_blocked. A sandbox control, not part of the service's API.
func (s *Store) BlockPaymentToken(id string, blocked bool) error {
	s.mu.Lock()
	defer s.unlock()
	t, err := s.token(id)
	if err != nil {
		return err
	}
	t.Blocked = blocked
	return nil
}
