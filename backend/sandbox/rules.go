package sandbox

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"paydash/backend/money"
)

// The state rules (docs/service.md; the service's documentation gives
// none). Every move checks the
// request (ValidationError listing each problem), then the object
// (NotFoundError), then the state (InvalidOperationError, token errors), and
// only then changes anything. A status change queues a callback.

// CardData is paymentData.card.
type CardData struct{ PAN, Expiry, CVC string }

// DSRP is a wallet payment (Apple Pay / Google Pay).
type DSRP struct{ Type, Cryptogram, ECI string }

// TokenizationDetails asks a payment to save its card as a token.
type TokenizationDetails struct{ Type, Purpose, CallbackURL string }

// PaymentRequest is a direct payment (POST /payments).
type PaymentRequest struct {
	MerchantID         string
	DualMode, TestMode bool
	Invoice            Invoice
	Amount             *money.Amount // nil: absent (allowed for a sticker with an amount)
	PaymentMethod      string
	Card               *CardData
	DSRP               *DSRP
	TokenID            string
	StickerID          string
	Protocol           Protocol
	Customer           Customer
	Tokenization       *TokenizationDetails

	// Filled by a wire decoder: problems it found itself, and whether the
	// amount was present but unreadable (so it is not reported twice).
	problems  []string
	amountBad bool
}

// InvoiceRequest is POST /invoices: a payment the customer pays on a page.
type InvoiceRequest struct {
	MerchantID         string
	DualMode, TestMode bool
	Tokenization       *TokenizationDetails
	Invoice            Invoice
	Amount             *money.Amount
	PaymentMethod      string
	Protocol           Protocol
	Customer           Customer

	problems  []string
	amountBad bool
}

// CompleteRequest carries the payer's answer to a confirmation.
type CompleteRequest struct{ Code, ThreeDSCompInd, CRes, PARes string }

func (c CompleteRequest) empty() bool { return c == CompleteRequest{} }

// RefundRequest refunds part or all of a Settled payment. An empty currency
// means the payment's (the v1 refund has none).
type RefundRequest struct {
	PaymentID  string
	Amount     *money.Amount
	ExternalID string

	problems  []string
	amountBad bool
}

// TokenizationRequest is POST /tokenization: the customer saves a card on a page.
type TokenizationRequest struct {
	MerchantID    string
	TestMode      bool
	Type, Purpose string
	PaymentMethod string
	CallbackURL   string
	ReturnURL     string
	Customer      Customer

	problems []string
}

// PaymentTokenRequest is POST /paymenttokens: a token from card data.
type PaymentTokenRequest struct {
	MerchantID    string
	TestMode      bool
	Type, Purpose string
	PaymentMethod string
	Card          *CardData
	Protocol      Protocol
	Customer      Customer

	problems []string
}

// StickerRequest is POST /stickers.
type StickerRequest struct {
	MerchantID     string
	StickerType    string
	Cashlink       bool
	Description    string
	ProductCode    string
	PaymentPurpose string
	Amount         *money.Amount // nil: the payer enters the amount
	CallbackURL    string

	problems  []string
	amountBad bool
}

// --- checks shared by the requests ---

func normalizeMethod(m string) (string, bool) {
	switch strings.ToLower(m) {
	case "":
		return "", true
	case "bankcard", "card":
		return MethodBankCard, true
	case "sbp":
		return MethodSBP, true
	}
	return "", false
}

func checkMethod(field, m string, problems *[]string) string {
	method, ok := normalizeMethod(m)
	if !ok {
		*problems = append(*problems, fmt.Sprintf("%s %q is not supported (bankcard or sbp)", field, m))
	}
	return method
}

func checkAmount(field string, a *money.Amount, m *merchantData, required, bad bool, problems *[]string) {
	if bad {
		return
	}
	if a == nil {
		if required {
			*problems = append(*problems, field+" is required")
		}
		return
	}
	if !a.Value.IsPositive() {
		*problems = append(*problems, field+".value must be greater than 0")
	}
	switch {
	case a.Currency == "":
		*problems = append(*problems, field+".currency is required")
	case !money.ValidCurrency(a.Currency):
		*problems = append(*problems, fmt.Sprintf("%s.currency %q is not a three-letter ISO 4217 code", field, a.Currency))
	case m != nil && !m.Accepts(a.Currency):
		*problems = append(*problems, fmt.Sprintf("%s.currency %s is not accepted by merchant %s (it accepts %s)",
			field, a.Currency, m.ID, strings.Join(m.Currencies, ", ")))
	}
	checkMinorUnits(field+".value", a.Value, a.Currency, problems)
}

// checkMinorUnits refuses a value finer than its currency's minor unit
// (ISO 4217, as money.Decimals knows it: 2 decimals for RUB, USD and EUR, 0
// for JPY, 3 for KWD): nobody can pay 1.001 RUB, and a refund of it would
// leave a remainder that no client, ours included, can enter. The value is
// judged, not its text, so trailing zeros do not count: 1.000 RUB is 1 RUB.
// A currency that is not a code is left to the currency's own check.
func checkMinorUnits(name string, v money.Decimal, currency string, problems *[]string) {
	if p := minorUnitsProblem(name, v, currency); p != "" {
		*problems = append(*problems, p)
	}
}

// minorUnitsProblem is checkMinorUnits' problem, "" if there is none; the v1
// interface answers it with its own code.
func minorUnitsProblem(name string, v money.Decimal, currency string) string {
	if !money.ValidCurrency(currency) {
		return ""
	}
	most, has := money.Decimals(currency), decimalsOf(v)
	if has <= most {
		return ""
	}
	return fmt.Sprintf("%s %s has %s; %s has %s", name, v, plural(has, "decimal"), currency, atMostDecimals(most))
}

// decimalsOf counts the decimals v needs: 1.5 needs 1, 1.50 too, 2 none.
func decimalsOf(v money.Decimal) int {
	_, frac, _ := strings.Cut(v.String(), ".")
	return len(frac)
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

func atMostDecimals(n int) string {
	if n == 0 {
		return "no decimals"
	}
	return "at most " + plural(n, "decimal")
}

func checkURL(field, u string, problems *[]string) {
	if u == "" {
		return
	}
	p, err := url.Parse(u)
	if err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
		*problems = append(*problems, field+" must be an absolute http or https address")
	}
}

func checkTokenType(field, t string, problems *[]string) string {
	switch t {
	case "":
		return "recurring"
	case "cof", "recurring":
		return t
	}
	*problems = append(*problems, fmt.Sprintf("%s %q must be cof or recurring", field, t))
	return t
}

func checkInvoice(inv Invoice, now time.Time, problems *[]string) {
	if !inv.Expires.IsZero() && !inv.Expires.After(now) {
		*problems = append(*problems, "invoice.expires is in the past")
	}
}

func newCustomer(c Customer) *Customer {
	if c == (Customer{}) {
		return nil
	}
	return &c
}

func newProtocol(p Protocol) *Protocol {
	if p == (Protocol{}) {
		return nil
	}
	return &p
}

func fmtAmount(v money.Decimal, currency string) string {
	return money.Amount{Value: v, Currency: currency}.String()
}

// --- payments ---

// CreatePayment makes a direct payment and runs its first step: approved,
// declined, pending, or waiting for a confirmation (see the test cards).
func (s *Store) CreatePayment(req PaymentRequest) (Payment, error) {
	s.mu.Lock()
	defer s.unlock()
	now := s.clock()

	problems := slices.Clone(req.problems)
	m := s.checkMerchant(req.MerchantID, &problems)
	method := checkMethod("paymentData.paymentMethod", req.PaymentMethod, &problems)
	var (
		tc      testCard
		pan     string
		expires time.Time
		st      *Sticker
	)
	instruments := 0
	for _, set := range []bool{req.Card != nil, req.DSRP != nil, req.TokenID != "", req.StickerID != ""} {
		if set {
			instruments++
		}
	}
	switch {
	case instruments > 1:
		problems = append(problems, "paymentData must name one instrument: card, dsrp, token or stickerId")
	case req.Card != nil:
		if method == MethodSBP {
			problems = append(problems, "paymentData.card does not go with paymentMethod sbp")
		}
		tc, pan, _ = checkPAN("paymentData.card.pan", req.Card.PAN, &problems)
		if req.Card.Expiry != "" {
			var ok bool
			if expires, ok = parseExpiry(req.Card.Expiry); !ok {
				problems = append(problems, "paymentData.card.expiry must be MM/YY")
			}
		}
		if c := req.Card.CVC; c != "" && (len(c) < 3 || len(c) > 4 || strings.Trim(c, "0123456789") != "") {
			problems = append(problems, "paymentData.card.cvc must be 3 or 4 digits")
		}
	case req.DSRP != nil:
		if req.DSRP.Type != "ApplePay" && req.DSRP.Type != "GooglePay" {
			problems = append(problems, "paymentData.dsrp.type must be ApplePay or GooglePay")
		}
		if req.DSRP.Cryptogram == "" {
			problems = append(problems, "paymentData.dsrp.cryptogram is required")
		}
	case req.StickerID != "":
		st = lookup(s.stickers, stickerBase, req.StickerID)
	case req.TokenID != "":
	case method == MethodSBP:
	case method == MethodBankCard:
		problems = append(problems, "paymentData.card is required for a bank card payment")
	default:
		problems = append(problems, "paymentData is required: a card, dsrp, token.id, stickerId or paymentMethod sbp")
	}
	amount := req.Amount
	if st != nil && st.Amount != nil {
		if amount == nil && !req.amountBad {
			a := *st.Amount
			amount = &a
		} else if amount != nil && *amount != *st.Amount {
			problems = append(problems, "amount must be the sticker's amount, "+st.Amount.String())
		}
	}
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
	f, decline := flowNone, ""
	switch {
	case req.TokenID != "":
		t, err := s.token(req.TokenID)
		if err != nil {
			return Payment{}, err
		}
		switch {
		case t.MerchantID != m.ID:
			return Payment{}, invalidOp("payment token %s belongs to another merchant", t.ID)
		case t.Status == TokenRevoked:
			return Payment{}, &TokenRevokedError{TokenID: t.ID}
		case t.Blocked:
			return Payment{}, &TokenBlockedError{TokenID: t.ID}
		case t.Status != TokenActive:
			return Payment{}, invalidOp("payment token %s is %s; only an Active token can pay", t.ID, t.Status)
		}
		p.Instrument, p.TokenID, p.Agreement, f = t.Instrument, t.ID, agreementOf(t.ID), flowApprove
		if p.Customer == nil {
			p.Customer = t.Customer
		}
	case req.StickerID != "":
		if st == nil {
			return Payment{}, &NotFoundError{Kind: "sticker", ID: req.StickerID}
		}
		if st.MerchantID != m.ID {
			return Payment{}, invalidOp("sticker %s belongs to another merchant", st.ID)
		}
		if st.Status != StickerActive {
			return Payment{}, invalidOp("sticker %s is %s; a cashlink payment needs an Active sticker", st.ID, st.Status)
		}
		p.StickerID, p.Instrument, f = st.ID, sbpInstrument, flowExternal
		if p.CallbackURL() == "" && st.CallbackURL != "" {
			pr := Protocol{CallbackURL: st.CallbackURL}
			if p.Protocol != nil {
				pr = *p.Protocol
				pr.CallbackURL = st.CallbackURL
			}
			p.Protocol = &pr
		}
	case req.Card != nil:
		p.Instrument = &Instrument{Method: MethodBankCard, Title: maskPAN(pan), Card: tc.card}
		f, decline = tc.flow, tc.result
		if !expires.IsZero() && expires.Before(now) {
			f, decline = flowDecline, "ExpiredAccount"
		}
	case req.DSRP != nil:
		p.Instrument, f = &Instrument{Method: MethodBankCard, Title: req.DSRP.Type}, flowApprove
	default:
		p.Instrument, f = sbpInstrument, flowExternal
	}
	if t := req.Tokenization; t != nil && req.TokenID == "" {
		p.tokenize = &tokenizeIntent{Type: checkTokenType("", t.Type, new([]string)), Purpose: t.Purpose, CallbackURL: t.CallbackURL}
	}
	s.addPayment(m, p)
	s.begin(p, f, decline, now)
	s.notePayment(p)
	return *p, nil
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

// begin runs a new payment's first step.
func (s *Store) begin(p *Payment, f flow, decline string, now time.Time) {
	p.flow = f
	switch f {
	case flowApprove:
		s.approve(p, now)
	case flowDecline:
		s.reject(p, decline, now)
	case flowPendingApprove, flowPendingDecline:
		p.Status = PaymentPending
		s.schedule(now.Add(s.settleDelay), evSettlePayment, p.seq)
	case flowSmsOtp:
		s.await(p, &Confirmation{Type: ConfirmSmsOtp, MaskedPhone: maskPhone(p.UserPhoneNumber())}, now)
	case flowThreeDSChallenge:
		s.await(p, s.challenge(p), now)
	case flowThreeDSMethod:
		s.await(p, &Confirmation{Type: ConfirmThreeDSMethod, MethodURL: s.baseURL + "/acs/method/" + p.ID,
			TransactionID: s.newUUID()}, now)
	case flowThreeDSv1:
		s.await(p, &Confirmation{Type: ConfirmThreeDSv1, AcsURL: s.baseURL + "/acs/v1/" + p.ID,
			PAReq: s.randomB64(96)}, now)
	case flowExternal:
		link := ""
		if st := lookup(s.stickers, stickerBase, p.StickerID); st != nil {
			link = st.Payload
		} else {
			link = sbpPayload(s.rng, true, &p.Amount, s.merchantByID[p.MerchantID].acquirer())
		}
		s.await(p, &Confirmation{Type: ConfirmExternal, PaymentURL: link, UniversalLink: true,
			Instruction: "Open the link on the phone, or scan its QR code in your bank's app, and confirm the payment"}, now)
	}
}

func (s *Store) challenge(p *Payment) *Confirmation {
	creq := fmt.Sprintf(`{"threeDSServerTransID":"%s","acsTransID":"%s","messageType":"CReq","messageVersion":"2.2.0","challengeWindowSize":"05"}`,
		s.newUUID(), s.newUUID())
	return &Confirmation{Type: ConfirmThreeDSChallenge, AcsURL: s.baseURL + "/acs/challenge/" + p.ID, CReq: b64url(creq)}
}

func (s *Store) await(p *Payment, c *Confirmation, now time.Time) {
	p.Status, p.Confirmation, p.Updated = PaymentConfirmation, c, now
}

// approve authorizes: Settled at once, or Authorized (a hold) for dualMode.
func (s *Store) approve(p *Payment, now time.Time) {
	p.Confirmation, p.ResultCode, p.Message, p.Updated = nil, "Success", resultMessage("Success"), now
	if p.DualMode {
		p.Status = PaymentAuthorized
	} else {
		p.Status, p.Captured, p.Completed = PaymentSettled, p.Amount.Value, now
		s.ledgerAddPayment(p)
	}
	if t := p.tokenize; t != nil && p.Instrument != nil && p.Instrument.Method == MethodBankCard {
		tok := &PaymentToken{
			Type: t.Type, Purpose: t.Purpose, Status: TokenActive, ResultCode: "Success",
			Title: titleOf(p.Instrument), Expires: now.AddDate(3, 0, 0), Created: now, Updated: now,
			TestMode: p.TestMode, Instrument: p.Instrument, Customer: p.Customer,
			Protocol: newProtocol(Protocol{CallbackURL: t.CallbackURL}),
		}
		s.addToken(s.merchantByID[p.MerchantID], tok)
		p.TokenID, p.Agreement = tok.ID, agreementOf(tok.ID)
		s.noteToken(tok)
	}
	p.tokenize = nil
}

// titleOf turns a masked card ("411111******1111") into a token title ("Visa *1111").
func titleOf(in *Instrument) string {
	brand := "Card"
	if in.Card != nil {
		brand = in.Card.Brand
	}
	return tokenTitle(brand, in.Title)
}

func (s *Store) reject(p *Payment, code string, now time.Time) {
	p.Status, p.Confirmation, p.ResultCode, p.Message = PaymentRejected, nil, code, resultMessage(code)
	p.Completed, p.Updated, p.tokenize = now, now, nil
}

// CompletePayment passes the payer's answer to the current confirmation. The
// member must match its type (code for SmsOtp, threeDSCompInd for
// ThreeDSMethod, cres for ThreeDSChallenge, PARes for ThreeDSv1, nothing for
// External).
func (s *Store) CompletePayment(id string, c CompleteRequest) (Payment, error) {
	s.mu.Lock()
	defer s.unlock()
	now := s.clock()
	p, err := s.payment(id)
	if err != nil {
		return Payment{}, err
	}
	if p.Status != PaymentConfirmation || p.Confirmation == nil {
		return Payment{}, invalidOp("payment %s is %s; only a payment awaiting confirmation can be completed", p.ID, p.Status)
	}
	prev := p.Status
	switch typ := p.Confirmation.Type; typ {
	case ConfirmSmsOtp:
		if c.Code == "" {
			return Payment{}, invalid("code is required to complete an SmsOtp confirmation")
		}
		if c.Code == SmsOtpCode {
			s.approve(p, now)
		} else {
			s.reject(p, "ThreeDSecureFailed", now)
		}
	case ConfirmThreeDSMethod:
		if c.ThreeDSCompInd == "" {
			return Payment{}, invalid("threeDSCompInd is required to complete a ThreeDSMethod confirmation")
		}
		s.await(p, s.challenge(p), now)
	case ConfirmThreeDSChallenge:
		switch c.CRes {
		case "Y":
			s.approve(p, now)
		case "N":
			s.reject(p, "ThreeDSecureFailed", now)
		case "":
			return Payment{}, invalid("cres is required to complete a ThreeDSChallenge confirmation")
		default:
			return Payment{}, invalid(`cres must be "Y" (authenticated) or "N" (not authenticated) in the sandbox`)
		}
	case ConfirmThreeDSv1:
		if c.PARes == "" {
			return Payment{}, invalid("PARes is required to complete a ThreeDSv1 confirmation")
		}
		s.approve(p, now)
	default: // External
		if !c.empty() {
			return Payment{}, invalid("an External confirmation is completed with an empty body")
		}
		s.approve(p, now)
	}
	if p.Status != prev {
		s.notePayment(p)
	}
	return *p, nil
}

// CapturePayment confirms a hold: Authorized -> Settled, charging amount
// (nil: the whole authorized amount; an empty currency means the payment's).
// A partial capture keeps Amount and records Captured.
func (s *Store) CapturePayment(id string, amount *money.Amount) (Payment, error) {
	s.mu.Lock()
	defer s.unlock()
	now := s.clock()
	p, err := s.payment(id)
	if err != nil {
		return Payment{}, err
	}
	v := p.Amount.Value
	if amount != nil {
		var problems []string
		if !amount.Value.IsPositive() {
			problems = append(problems, "amount.value must be greater than 0")
		}
		currency := amount.Currency
		if currency == "" {
			currency = p.Amount.Currency
		} else if currency != p.Amount.Currency {
			problems = append(problems, fmt.Sprintf("amount.currency must be %s, the payment's currency", p.Amount.Currency))
		}
		checkMinorUnits("amount.value", amount.Value, currency, &problems)
		if len(problems) > 0 {
			return Payment{}, invalid(problems...)
		}
		v = amount.Value
	}
	if p.Status != PaymentAuthorized {
		return Payment{}, invalidOp("payment %s is %s; only an Authorized payment can be captured", p.ID, p.Status)
	}
	if v > p.Amount.Value {
		return Payment{}, invalidOp("cannot capture %s: only %s is authorized",
			fmtAmount(v, p.Amount.Currency), p.Amount.String())
	}
	p.Status, p.Captured, p.Completed, p.Updated = PaymentSettled, v, now, now
	if v < p.Amount.Value {
		p.Message = "Partially captured"
	} else {
		p.Message = "Captured"
	}
	s.ledgerAddPayment(p)
	s.notePayment(p)
	return *p, nil
}

// CancelPayment releases a hold: Authorized -> Cancelled.
func (s *Store) CancelPayment(id string) (Payment, error) {
	return s.CancelPaymentWithCode(id, 0)
}

// CancelPaymentWithCode releases a hold like CancelPayment and records why:
// v1Code is a failure code of the legacy interface (V1FailureCode, e.g.
// -17 the user refused to pay; 0 = none given), which v1 then shows as the
// payment's ErrorCode. An unknown non-zero code is a ValidationError.
func (s *Store) CancelPaymentWithCode(id string, v1Code int) (Payment, error) {
	if v1Code != 0 && !V1FailureCode(v1Code) {
		return Payment{}, invalid(fmt.Sprintf("error %d is not a failure code of the v1 interface", v1Code))
	}
	s.mu.Lock()
	defer s.unlock()
	now := s.clock()
	p, err := s.payment(id)
	if err != nil {
		return Payment{}, err
	}
	if p.Status != PaymentAuthorized {
		return Payment{}, invalidOp("payment %s is %s; only an Authorized payment can be cancelled", p.ID, p.Status)
	}
	p.Status, p.Message, p.Completed, p.Updated = PaymentCancelled, "The hold was released by the merchant", now, now
	if v1Code != 0 {
		p.CancelCode = v1Code
		p.Message += ": " + v1ErrorText(v1Code)
	}
	s.notePayment(p)
	return *p, nil
}

// --- refunds ---

// refundRejectedFraction: a new refund whose amount ends in .13 is Rejected
// when it settles (a deterministic way for tests and demos to see a failure).
const refundRejectedFraction = 1300 // 0.13 in ten-thousandths

// CreateRefund refunds a Settled payment: Pending now, Success (or Rejected,
// for amounts ending in .13) after SettleDelay. The non-Rejected refunds of a
// payment never add up to more than its captured amount.
func (s *Store) CreateRefund(req RefundRequest) (Refund, error) {
	s.mu.Lock()
	defer s.unlock()
	now := s.clock()
	problems := slices.Clone(req.problems)
	if req.PaymentID == "" {
		problems = append(problems, "paymentId is required")
	}
	if !req.amountBad {
		switch a := req.Amount; {
		case a == nil:
			problems = append(problems, "amount is required")
		default:
			if !a.Value.IsPositive() {
				problems = append(problems, "amount.value must be greater than 0")
			}
			if a.Currency != "" && !money.ValidCurrency(a.Currency) {
				problems = append(problems, fmt.Sprintf("amount.currency %q is not a three-letter ISO 4217 code", a.Currency))
			}
			checkMinorUnits("amount.value", a.Value, a.Currency, &problems)
		}
	}
	if len(problems) > 0 {
		return Refund{}, invalid(problems...)
	}
	p, err := s.payment(req.PaymentID)
	if err != nil {
		return Refund{}, err
	}
	a := *req.Amount
	if a.Currency == "" { // the payment's: checked for its decimals only now
		a.Currency = p.Amount.Currency
		if problem := minorUnitsProblem("amount.value", a.Value, a.Currency); problem != "" {
			return Refund{}, invalid(problem)
		}
	}
	if a.Currency != p.Amount.Currency {
		return Refund{}, invalid(fmt.Sprintf("amount.currency must be %s, the payment's currency", p.Amount.Currency))
	}
	if p.Status != PaymentSettled {
		return Refund{}, invalidOp("payment %s is %s; only a Settled payment can be refunded", p.ID, p.Status)
	}
	if rest := p.Remaining(); a.Value > rest {
		return Refund{}, invalidOp("refund of %s is more than remains to refund of payment %s: %s",
			a.String(), p.ID, fmtAmount(rest, a.Currency))
	}
	r := &Refund{Created: now, Updated: now, Amount: a, Status: RefundPending, ExternalID: req.ExternalID}
	s.addRefund(s.merchantByID[p.MerchantID], p, r)
	p.Refunded += a.Value
	s.schedule(now.Add(s.settleDelay), evSettleRefund, r.seq)
	return *r, nil
}

// settleRefund ends a Pending refund.
func (s *Store) settleRefund(r *Refund, at time.Time) {
	if r.Status != RefundPending {
		return
	}
	r.Updated = at
	if int64(r.Amount.Value)%10000 == refundRejectedFraction {
		r.Status, r.ResultCode, r.Message = RefundRejected, "OperationNotAllowed", "The issuer refused the refund"
		if p := lookup(s.payments, paymentBase, r.PaymentID); p != nil {
			p.Refunded -= r.Amount.Value
		}
		return
	}
	r.Status, r.ResultCode = RefundSuccess, "Success"
	s.ledgerAddRefund(r)
}

// --- payment tokens ---

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

// --- stickers ---

// CreateSticker registers an SBP sticker: Active, with an NSPK payload.
func (s *Store) CreateSticker(req StickerRequest) (Sticker, error) {
	s.mu.Lock()
	defer s.unlock()
	now := s.clock()
	problems := slices.Clone(req.problems)
	m := s.checkMerchant(req.MerchantID, &problems)
	typ := req.StickerType
	switch {
	case typ == "":
		typ = "Sbp"
	case strings.EqualFold(typ, "sbp"):
		typ = "Sbp"
	default:
		problems = append(problems, fmt.Sprintf("stickerType %q is not supported (Sbp)", req.StickerType))
	}
	checkAmount("amount", req.Amount, m, false, req.amountBad, &problems)
	if a := req.Amount; a != nil && !req.amountBad {
		if a.Currency != "RUB" && money.ValidCurrency(a.Currency) {
			problems = append(problems, "amount.currency must be RUB for an SBP sticker")
		}
	}
	if req.Cashlink && req.Amount == nil && !req.amountBad {
		problems = append(problems, "amount is required for a cashlink sticker")
	}
	checkURL("callbackUrl", req.CallbackURL, &problems)
	if len(problems) > 0 {
		return Sticker{}, invalid(problems...)
	}
	st := &Sticker{
		StickerType: typ, Cashlink: req.Cashlink, Description: req.Description, ProductCode: req.ProductCode,
		PaymentPurpose: req.PaymentPurpose, Amount: req.Amount, Status: StickerActive,
		CallbackURL: req.CallbackURL, Created: now, Updated: now,
	}
	st.Payload = sbpPayload(s.rng, false, st.Amount, m.acquirer())
	s.addSticker(m, st)
	return *st, nil
}

// SetStickerActive switches a sticker on or off (Active <-> Inactive).
func (s *Store) SetStickerActive(id string, active bool) (Sticker, error) {
	s.mu.Lock()
	defer s.unlock()
	st, err := s.sticker(id)
	if err != nil {
		return Sticker{}, err
	}
	want := StickerInactive
	if active {
		want = StickerActive
	}
	if st.Status != want {
		st.Status, st.Updated = want, s.clock()
	}
	return *st, nil
}

func (m *merchantData) acquirer() string {
	for _, p := range profiles {
		if p.id == m.ID {
			return p.acquirerBank
		}
	}
	return "100000000111"
}
