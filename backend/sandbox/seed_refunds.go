package sandbox

import (
	"time"

	"paydash/backend/money"
)

// Seeding refunds: full, partial, several per payment, a few Rejected.

type seedRefund struct {
	r *Refund
	p *Payment
}

// refundsOf draws a seeded payment's refunds (none for most), adding them
// to p.Refunded; the store gives them ids once the whole seed is made.
func (g *generator) refundsOf(mi int, p *Payment, out []seedRefund) []seedRefund {
	prof := &profiles[mi]
	if p.Status != PaymentSettled || g.rng.Float64() >= prof.refundShare {
		return out
	}
	latest := g.now.Add(-liveWindow - 2*time.Minute)
	var amounts []money.Decimal
	switch r := g.rng.Float64(); {
	case r < 0.5:
		amounts = []money.Decimal{p.Captured}
	case r < 0.85:
		amounts = []money.Decimal{max(roundUnit(money.Decimal(float64(p.Captured)*(0.1+0.6*g.rng.Float64()))), 10000)}
	default:
		for range 2 + g.rng.IntN(2) {
			amounts = append(amounts, max(roundUnit(money.Decimal(float64(p.Captured)*(0.1+0.2*g.rng.Float64()))), 10000))
		}
	}
	at := p.Completed
	for _, a := range amounts {
		at = at.Add(g.between(10*time.Minute, 10*24*time.Hour)).Truncate(time.Second)
		if !at.Before(latest) || p.Refunded+a > p.Captured {
			break
		}
		r := &Refund{Created: at, Amount: money.Amount{Value: a, Currency: p.Amount.Currency}, Status: RefundSuccess, ResultCode: "Success"}
		r.Updated = g.clampPast(at.Add(g.between(time.Minute, 30*time.Minute)).Truncate(time.Second))
		if g.rng.Float64() < 0.06 {
			code := refundFailures[g.rng.IntN(len(refundFailures))]
			r.Status, r.ResultCode, r.Message = RefundRejected, code, "The issuer refused the refund"
		} else {
			p.Refunded += a
		}
		out = append(out, seedRefund{r, p})
	}
	return out
}
