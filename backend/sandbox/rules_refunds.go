package sandbox

import (
	"fmt"
	"slices"
	"time"

	"paydash/backend/money"
)

// Refund rules: making a refund and settling it.

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
	s.schedule(s.refundDue(r, now), evSettleRefund, r.seq) // later in a refund_delay (scenario.go)
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
