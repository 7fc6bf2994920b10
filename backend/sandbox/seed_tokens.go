package sandbox

import (
	"slices"
	"time"
)

// Seeding payment tokens: Active, Revoked, Declined and one blocked, owned
// by customers who then pay with them.

var tokenMerchantCum = cumulative([]float64{0.2, 0.35, 0.1, 0.35})

func seedTokens(s *Store, g *generator, start, now time.Time, payments int) {
	n := min(max(payments/250, 12), 3000)
	all := make([]*PaymentToken, 0, n)
	owner := map[*PaymentToken][2]int32{}
	span := now.Add(-24 * time.Hour).Sub(start)
	for range n {
		mi := g.pick(tokenMerchantCum)
		ci := g.rng.IntN(g.domestic)
		prof := &profiles[mi]
		created := start.Add(g.between(0, span)).Truncate(time.Second)
		t := &PaymentToken{
			MerchantID: prof.id, Type: prof.tokenType, Purpose: prof.tokenPurpose, Status: TokenActive,
			ResultCode: "Success", Title: titleOf(g.cards[ci]), Created: created, Updated: created,
			Instrument: g.cards[ci], Customer: g.customers[ci], Protocol: g.tokProtos[mi],
		}
		exp := created.AddDate(2+g.rng.IntN(3), 0, 0)
		t.Expires = time.Date(exp.Year(), exp.Month()+1, 1, 0, 0, 0, 0, time.UTC).Add(-time.Second)
		switch r := g.rng.Float64(); {
		case r < 0.12:
			t.Status = TokenRevoked
			t.Updated = created.Add(g.between(time.Hour, now.Sub(created)-time.Hour)).Truncate(time.Second)
			g.revokedAt[t] = t.Updated
		case r < 0.22:
			t.Status, t.ResultCode = TokenDeclined, []string{"TransactionDeclined", "InsufficientFunds", "ExpiredAccount"}[g.rng.IntN(3)]
		}
		owner[t] = [2]int32{int32(mi), int32(ci)}
		all = append(all, t)
	}
	slices.SortStableFunc(all, func(a, b *PaymentToken) int { return a.Created.Compare(b.Created) })
	blocked := false
	for _, t := range all {
		s.addToken(s.merchantByID[t.MerchantID], t)
		if !blocked && t.Status == TokenActive {
			t.Blocked, blocked = true, true
		}
		if k := owner[t]; t.Status != TokenDeclined && g.tokenOf[k] == nil {
			g.tokenOf[k] = t
		}
	}
}
