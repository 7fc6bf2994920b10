package sandbox

import (
	"slices"
	"strconv"
	"time"

	"paydash/backend/money"
)

// Seeding payments: when each is made (each merchant's rhythm), its order
// number, its amount and instrument, and how it ended.

// timeWeight is how likely a merchant's payment is at unix second t.
func timeWeight(p *merchantProfile, t int64, trend float64) float64 {
	local := t + mskOffsetSecs
	day := local / 86400
	hour := (local % 86400) / 3600
	wd := (day + 4) % 7 // 1970-01-01 was a Thursday; Sunday = 0
	return p.weekday[wd] * p.hours[hour] * trend
}

type slot struct {
	t  int64 // unix seconds
	mi uint8
}

// times draws n creation times for each merchant, by rejection sampling of
// the rhythm, and returns them all in order (the classic seed).
func (g *generator) times(counts []int, start, end time.Time) []slot {
	total := 0
	for _, c := range counts {
		total += c
	}
	out := make([]slot, 0, total)
	s0, span := start.Unix(), end.Unix()-start.Unix()
	for mi, n := range counts {
		p := &profiles[mi]
		maxW := slices.Max(p.weekday[:]) * slices.Max(p.hours[:]) * 1.2
		for range n {
			for {
				off := g.rng.Int64N(span)
				t := s0 + off
				trend := 0.8 + 0.4*float64(off)/float64(span)
				if g.rng.Float64()*maxW < timeWeight(p, t, trend) {
					out = append(out, slot{t: t, mi: uint8(mi)})
					break
				}
			}
		}
	}
	slices.SortFunc(out, func(a, b slot) int {
		if a.t != b.t {
			return int(a.t - b.t)
		}
		return int(a.mi) - int(b.mi)
	})
	return out
}

func (g *generator) orderNo(mi int, created time.Time, prod *product) string {
	if g.orders != nil {
		return g.orders.next(g, mi, prod)
	}
	b := make([]byte, 0, 20)
	switch profiles[mi].kind {
	case "coffee":
		g.orderSeq[mi]++
		b = append(b, "ORD-"...)
		b = strconv.AppendInt(b, g.orderSeq[mi], 10)
	case "books":
		y := created.Add(mskOffsetSecs * time.Second).Year()
		g.bookYear[y]++
		b = appendBookOrder(b, y, g.bookYear[y])
	case "travel":
		g.orderSeq[mi]++
		b = append(b, "TRV-"...)
		b = append(b, prod.code...)
		b = append(b, '-')
		b = strconv.AppendInt(b, g.orderSeq[mi], 10)
	default:
		g.orderSeq[mi] += 1 + int64(g.rng.IntN(3))
		b = append(b, "EL-"...)
		b = strconv.AppendInt(b, g.orderSeq[mi], 10)
	}
	return string(b)
}

func appendBookOrder(b []byte, year int, n int64) []byte {
	b = append(b, "BK-"...)
	b = strconv.AppendInt(b, int64(year), 10)
	b = append(b, '-')
	d := strconv.AppendInt(nil, n, 10)
	for range 6 - len(d) {
		b = append(b, '0')
	}
	return append(b, d...)
}

// orderRanks numbers the orders of one chunk of the seed from the number
// of each merchant's payments before it, so that chunks can be made in any
// order and still number their orders as one pass from the oldest would:
// ORD-1001, 1002, ... (coffee), BK-<year>-000001, ... per local year
// (books), TRV-<code>-20001, ... (travel), EL-<1040000 + 2n + 0 or 1>
// (electronics: ascending by 1 to 3).
type orderRanks struct {
	rank     [4]int64 // each merchant's payments so far, this one included
	bookYear int      // the chunk's local year (a chunk is one local day at most)
	bookBase int64    // books payments of that year before the chunk
}

func (o *orderRanks) next(g *generator, mi int, prod *product) string {
	o.rank[mi]++
	r := o.rank[mi]
	b := make([]byte, 0, 20)
	switch profiles[mi].kind {
	case "coffee":
		b = append(b, "ORD-"...)
		b = strconv.AppendInt(b, 1000+r, 10)
	case "books":
		o.bookBase++
		b = appendBookOrder(b, o.bookYear, o.bookBase)
	case "travel":
		b = append(b, "TRV-"...)
		b = append(b, prod.code...)
		b = append(b, '-')
		b = strconv.AppendInt(b, 20000+r, 10)
	default:
		b = append(b, "EL-"...)
		b = strconv.AppendInt(b, 1040000+2*r+int64(g.rng.IntN(2)), 10)
	}
	return string(b)
}

// roundUnit rounds down to whole currency units (for the travel agency's
// EUR/USD prices and partial amounts).
func roundUnit(v money.Decimal) money.Decimal { return v / 10000 * 10000 }

// basePayment makes a payment's what, who and how, without its status.
func (g *generator) basePayment(mi int, created time.Time) *Payment {
	prof := &profiles[mi]
	prod := &prof.products[g.rng.IntN(len(prof.products))]
	v := prod.min
	if prod.max > prod.min {
		v += g.rng.Int64N((prod.max-prod.min)/prod.step+1) * prod.step
	}
	value := money.Decimal(v)
	currency := prof.currencies[0]
	if len(prof.currencies) > 1 {
		switch r := g.rng.Float64(); {
		case r < 0.2:
			currency, value = "EUR", max(roundUnit(value/rubPerEUR), 10000)
		case r < 0.3:
			currency, value = "USD", max(roundUnit(value/rubPerUSD), 10000)
		}
	}
	if g.rng.Float64() < prof.discountShare {
		pct := []money.Decimal{5, 7, 10, 15}[g.rng.IntN(4)]
		value = value * (100 - pct) / 100 / 100 * 100 // to the kopeck
	}
	var ci int
	if currency == "RUB" || g.rng.Float64() < 0.3 {
		ci = g.rng.IntN(g.domestic)
		if g.rng.Float64() < 0.04 { // visitors pay in roubles too
			ci = g.domestic + g.rng.IntN(len(g.customers)-g.domestic)
		}
	} else {
		ci = g.domestic + g.rng.IntN(len(g.customers)-g.domestic)
	}
	p := &Payment{
		Created: created, Updated: created, Status: PaymentPending,
		Invoice: Invoice{
			Description: prod.desc, OrderNo: g.orderNo(mi, created, prod),
			Params: prof.params[g.rng.IntN(len(prof.params))],
		},
		Amount:   money.Amount{Value: value, Currency: currency},
		Customer: g.customers[ci], Instrument: g.cards[ci], Protocol: g.protocols[mi],
	}
	if g.rng.Float64() < prof.invoiceShare {
		p.IsInvoice = true
		p.Invoice.Expires = created.Add(24 * time.Hour)
	}
	switch {
	case currency == "RUB" && g.rng.Float64() < prof.sbpShare:
		p.Instrument = sbpBanks[g.rng.IntN(len(sbpBanks))]
	default:
		if t := g.tokenOf[[2]int32{int32(mi), int32(ci)}]; t != nil && t.Created.Before(created) &&
			(t.Status == TokenActive || t.Status == TokenRevoked && created.Before(g.revokedAt[t])) &&
			g.rng.Float64() < 0.7 {
			p.TokenID, p.Agreement = t.ID, agreementOf(t.ID)
		}
	}
	return p
}

// settleSeeded gives an old payment its final (or held) status.
func (g *generator) settleSeeded(mi int, p *Payment) {
	prof := &profiles[mi]
	age := g.now.Sub(p.Created)
	quick := func(lo, hi time.Duration) time.Time { return p.Created.Add(g.between(lo, hi)) }
	r := g.rng.Float64()
	switch {
	case r < prof.rejectShare:
		code := rejections[g.pickRejection()].code
		sbp := p.Instrument.Method == MethodSBP
		switch code {
		case "ThreeDSecureFailed", "CardNotEnrolled", "ExpiredAccount", "InvalidAccount", "BlockedAccount":
			if sbp {
				code = "TransactionDeclined"
			}
		}
		if code == "PaymentExpired" && age < 25*time.Hour {
			code = "TransactionDeclined"
		}
		p.Status, p.ResultCode, p.Message = PaymentRejected, code, resultMessage(code)
		p.Completed = quick(3*time.Second, 40*time.Second)
		switch code {
		case "PaymentExpired":
			p.IsInvoice, p.Instrument, p.TokenID, p.Agreement = true, nil, "", ""
			p.Invoice.Expires = p.Created.Add(24 * time.Hour)
			p.Completed = p.Invoice.Expires
		case "CancelledByUser":
			p.Completed = quick(2*time.Minute, 15*time.Minute)
		}
	case prof.dualShare > 0 && g.rng.Float64() < prof.dualShare:
		p.DualMode, p.ResultCode, p.Message = true, "Success", resultMessage("Success")
		if age < 2*time.Hour || age < 7*24*time.Hour && g.rng.Float64() < 0.55 {
			p.Status = PaymentAuthorized
			p.Updated = g.clampPast(quick(2*time.Second, 30*time.Second).Truncate(time.Second))
			return
		}
		p.Completed = quick(time.Hour, min(6*24*time.Hour, age-time.Hour))
		if g.rng.Float64() < 0.85 {
			p.Status, p.Captured, p.Message = PaymentSettled, p.Amount.Value, "Captured"
			if g.rng.Float64() < 0.35 {
				part := money.Decimal(float64(p.Amount.Value) * (0.5 + 0.45*g.rng.Float64()))
				p.Captured, p.Message = max(roundUnit(part), 10000), "Partially captured"
			}
		} else {
			p.Status, p.Message = PaymentCancelled, "The hold was released by the merchant"
		}
	default:
		p.Status, p.ResultCode, p.Message = PaymentSettled, "Success", resultMessage("Success")
		p.Captured = p.Amount.Value
		p.Completed = quick(2*time.Second, 40*time.Second)
	}
	p.Completed = g.clampPast(p.Completed.Truncate(time.Second))
	p.Updated = p.Completed
}

// clampPast keeps a seeded time at least a minute before now.
func (g *generator) clampPast(t time.Time) time.Time {
	if limit := g.now.Add(-time.Minute).Truncate(time.Second); t.After(limit) {
		return limit
	}
	return t
}

var rejectionCum = func() []float64 {
	var w []float64
	for _, r := range rejections {
		w = append(w, r.weight)
	}
	return cumulative(w)
}()

func (g *generator) pickRejection() int { return g.pick(rejectionCum) }
