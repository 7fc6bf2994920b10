package sandbox

import (
	"fmt"
	"time"

	"paydash/backend/money"
)

// Payment steps: the first step of a new payment (approve, decline, ask
// for a confirmation), then completing, capturing and cancelling it.

// begin runs a new payment's first step, as the active scenarios have it
// (scenario.go).
func (s *Store) begin(p *Payment, f flow, decline string, now time.Time) {
	f, decline = s.scenarioFlow(p, f, decline, now)
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
	if p.stalled { // a confirmation_stall: the answer never gets through (scenario.go)
		return *p, nil
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
