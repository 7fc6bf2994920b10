package sandbox

import (
	"time"

	"paydash/backend/money"
)

// The live part of the seed: the newest minutes, made by hand so that a
// UI sees things happen at once; and Arrive, a new payment made now.

type liveKind uint8

const (
	livePending liveKind = iota
	livePendingHold
	livePendingDecline
	liveSmsOtp
	liveChallenge
	liveSBP
	liveInvoice
	liveHold
	liveSettled
)

// liveSpecials are the newest payments: made by hand so that a UI started
// on the sandbox sees things happen in its first half minute.
var liveSpecials = []struct {
	mi       int
	kind     liveKind
	age, due time.Duration // created age before now; due after now
}{
	{2, liveInvoice, 170 * time.Second, 20 * time.Second},
	{3, liveInvoice, 160 * time.Second, 30 * time.Minute},
	{1, liveSmsOtp, 150 * time.Second, 0},
	{3, liveHold, 140 * time.Second, 0},
	{3, liveChallenge, 120 * time.Second, 0},
	{2, liveHold, 110 * time.Second, 0},
	{0, liveSBP, 90 * time.Second, 0},
	{0, livePending, 55 * time.Second, 4 * time.Second},
	{1, livePending, 48 * time.Second, 9 * time.Second},
	{3, livePendingHold, 40 * time.Second, 15 * time.Second},
	{0, livePendingDecline, 33 * time.Second, 21 * time.Second},
	{2, livePending, 26 * time.Second, 28 * time.Second},
	{0, liveSettled, 20 * time.Second, 0},
	{1, liveSettled, 12 * time.Second, 0},
}

// liveRefund is a pending refund of the live part; like every seeded refund
// it gets its id (and its settling event) once the whole seed is made.
type liveRefund struct {
	seedRefund
	due time.Time
}

// seedLive makes the live part: the special payments, Pending refunds of
// the newest settled payments and a tokenization page. It returns the
// refunds, which get their ids once the whole seed is made.
func seedLive(s *Store, g *generator, now time.Time) []liveRefund {
	recentSettled := recentSettledPayments(s)
	for _, sp := range liveSpecials {
		seedLiveSpecial(s, g, sp.mi, sp.kind, now.Add(-sp.age), now.Add(sp.due))
	}
	refunds := liveRefunds(recentSettled, now)
	seedLiveTokenization(s, g, now)
	return refunds
}

// recentSettledPayments are the (up to 3) newest Settled RUB payments with
// at least 300 left to refund, newest first.
func recentSettledPayments(s *Store) []*Payment {
	var recentSettled []*Payment
	for i := len(s.payments) - 1; i >= 0 && len(recentSettled) < 3; i-- {
		p := s.payments[i]
		if p == nil { // not made yet (the seed makes the newest days first)
			break
		}
		if p.Status == PaymentSettled && p.Remaining() >= 30000 && p.Amount.Currency == "RUB" {
			recentSettled = append(recentSettled, p)
		}
	}
	return recentSettled
}

// seedLiveSpecial makes one special payment of merchant mi, created at
// created, in the state its kind names; due is when it settles or expires.
func seedLiveSpecial(s *Store, g *generator, mi int, kind liveKind, created, due time.Time) {
	p := g.basePayment(mi, created)
	p.TokenID, p.Agreement = "", ""
	if kind == liveSBP {
		p.Instrument = sbpBanks[0]
	} else if p.Instrument.Method == MethodSBP {
		p.Instrument = g.cards[g.rng.IntN(g.domestic)]
	}
	p.IsInvoice, p.Invoice.Expires = false, time.Time{}
	s.addPayment(s.merchants[mi], p)
	switch kind {
	case livePending, livePendingHold, livePendingDecline:
		p.flow = flowPendingApprove
		if kind == livePendingDecline {
			p.flow = flowPendingDecline
		}
		p.DualMode = kind == livePendingHold
		s.schedule(due, evSettlePayment, p.seq)
	case liveSmsOtp:
		p.flow = flowSmsOtp
		s.await(p, &Confirmation{Type: ConfirmSmsOtp, MaskedPhone: maskPhone(p.UserPhoneNumber())}, created)
	case liveChallenge:
		p.flow = flowThreeDSChallenge
		c := s.challenge(p)
		c.AcsURL = "https://acs.issuer.example/challenge/" + p.ID // the issuer's page, not ours
		s.await(p, c, created)
	case liveSBP:
		p.flow = flowExternal
		s.await(p, &Confirmation{Type: ConfirmExternal, UniversalLink: true,
			PaymentURL:  sbpPayload(g.rng, true, &p.Amount, profiles[mi].acquirerBank),
			Instruction: "Open the link on the phone, or scan its QR code in your bank's app, and confirm the payment"}, created)
	case liveInvoice:
		p.IsInvoice, p.Instrument = true, nil
		p.Invoice.Expires = due
		s.schedule(p.Invoice.Expires, evExpireInvoice, p.seq)
	case liveHold:
		p.DualMode = true
		p.Status, p.ResultCode, p.Message = PaymentAuthorized, "Success", resultMessage("Success")
		p.Updated = created.Add(4 * time.Second)
	case liveSettled:
		p.Status, p.ResultCode, p.Message = PaymentSettled, "Success", resultMessage("Success")
		p.Captured, p.Completed = p.Amount.Value, created.Add(3*time.Second)
		p.Updated = p.Completed
	}
}

// liveRefunds are Pending refunds of the recent settled payments, settling
// at +6 s, +17 s and +26 s; the last ends in .13 and so is Rejected when it
// settles.
func liveRefunds(recentSettled []*Payment, now time.Time) []liveRefund {
	var refunds []liveRefund
	for i, p := range recentSettled {
		r := &Refund{Created: now.Add(-time.Duration(100-25*i) * time.Second), Status: RefundPending}
		r.Updated = r.Created
		v := roundUnit(p.Remaining() / 2)
		if i == 2 {
			v = roundUnit(p.Remaining()/3) + refundRejectedFraction
		}
		r.Amount = money.Amount{Value: v, Currency: p.Amount.Currency}
		p.Refunded += v
		refunds = append(refunds, liveRefund{seedRefund{r, p}, now.Add([]time.Duration{6, 17, 26}[i] * time.Second)})
	}
	return refunds
}

// seedLiveTokenization makes a tokenization page the customer "fills in"
// 12 s after start.
func seedLiveTokenization(s *Store, g *generator, now time.Time) {
	t := &PaymentToken{
		Type: profiles[1].tokenType, Purpose: profiles[1].tokenPurpose, Status: TokenCreated,
		Created: now.Add(-time.Minute), Instrument: &Instrument{Method: MethodBankCard},
		Customer: g.customers[0], Protocol: g.tokProtos[1], FromPage: true,
	}
	t.Updated = t.Created
	s.addToken(s.merchants[1], t)
	s.schedule(now.Add(12*time.Second), evActivateToken, t.seq)
}

// Arrive adds one new realistic payment, as a customer paying now would:
// mostly Pending and settling after SettleDelay, some approved or declined at
// once, a few waiting for a confirmation.
func (s *Store) Arrive() Payment {
	s.mu.Lock()
	defer s.unlock()
	now := s.clock()
	g := s.gen
	mi := g.pick(g.shareW)
	p := g.basePayment(mi, now)
	p.IsInvoice, p.Invoice.Expires = false, time.Time{}
	p.DualMode = g.rng.Float64() < profiles[mi].dualShare
	f, code := flowPendingApprove, ""
	switch r := g.rng.Float64(); {
	case r < 0.75:
	case r < 0.83:
		f = flowPendingDecline
	case r < 0.93:
		f = flowApprove
	case r < 0.97:
		f = flowSmsOtp
		if p.Instrument.Method == MethodSBP {
			f = flowExternal
		}
	default:
		f, code = flowDecline, "TransactionDeclined"
	}
	if p.Instrument.Method == MethodSBP && f == flowSmsOtp {
		f = flowExternal
	}
	s.addPayment(s.merchants[mi], p)
	s.begin(p, f, code, now)
	s.notePayment(p)
	s.logf("sandbox payment arrived", "kind", "payment", "id", p.ID, "merchantId", p.MerchantID,
		"from", "", "to", string(p.Status), "resultCode", p.ResultCode)
	return *p
}
