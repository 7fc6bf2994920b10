package sandbox

import (
	"context"
	rnd "math/rand/v2"
	"net/url"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"paydash/backend/money"
)

// The seed: deterministic from the seed number and the store clock, spread
// over the 90 days before now with each merchant's daily and weekly rhythm.
// Every part is drawn from a PCG source of the seed in a fixed order
// (customers, tokens, stickers and the live part from one - customers by
// blocks from their own in a big seed; each local day of payments with
// their refunds from its own), so the same seed and clock give the
// same data however the parts are scheduled (seed_async.go makes the
// newest days first and the rest in the background). Strings and card info come from the tables
// in seeddata.go and are shared, so 100,000 payments cost little more than
// their structs.
//
// Shape: 4 merchants (1001 coffee, 1002 books, 1003 travel in RUB/EUR/USD,
// 1004 electronics); mostly Settled payments, Rejected ones with varied
// result codes, holds (Authorized in the last 7 days, older ones captured -
// some partially - or Cancelled), SBP payments, payments by saved tokens,
// refunds (full, partial, several per payment, a few Rejected), tokens
// (Active, Revoked, Declined, one Active but blocked), stickers (Active and
// Inactive). The newest minutes hold the live part: Pending payments that
// settle within ~30 s of the store's creation, payments awaiting a
// confirmation (SmsOtp, 3-D Secure challenge, SBP), unpaid invoices (one
// expiring in 20 s), fresh holds, Pending refunds (one of them Rejected at
// settle by the .13 rule) and a tokenization page that completes in 12 s.

const (
	seedDays      = 90
	liveWindow    = 3 * time.Minute // the newest part, made by hand (specials)
	mskOffsetSecs = 3 * 3600        // the merchants' local time (Moscow)
)

type generator struct {
	seed      int64
	rng       *rnd.Rand
	now       time.Time
	orders    *orderRanks // set while seeding a chunk: order numbers from ranks
	customers []*Customer
	cards     []*Instrument // the card of customers[i]
	domestic  int           // customers[:domestic] live in Russia
	domW      []float64     // cumulative BIN weights
	forW      []float64
	shareW    []float64 // cumulative merchant shares
	protocols []*Protocol
	tokProtos []*Protocol
	orderSeq  []int64
	bookYear  map[int]int64
	tokenOf   map[[2]int32]*PaymentToken // (merchant, customer) -> token
	revokedAt map[*PaymentToken]time.Time
}

func cumulative(ws []float64) []float64 {
	out := make([]float64, len(ws))
	sum := 0.0
	for i, w := range ws {
		sum += w
		out[i] = sum
	}
	return out
}

func (g *generator) pick(cum []float64) int {
	x := g.rng.Float64() * cum[len(cum)-1]
	i, _ := slices.BinarySearch(cum, x)
	return min(i, len(cum)-1)
}

func (g *generator) between(lo, hi time.Duration) time.Duration {
	if hi <= lo {
		return lo
	}
	return lo + time.Duration(g.rng.Int64N(int64(hi-lo)))
}

func newGenerator(ctx context.Context, seed int64, now time.Time, payments int) (*generator, error) {
	g := &generator{
		seed:      seed,
		rng:       rnd.New(rnd.NewPCG(uint64(seed), 0x9a7da5b0)),
		now:       now,
		orderSeq:  []int64{1000, 0, 20000, 1040000},
		bookYear:  map[int]int64{},
		tokenOf:   map[[2]int32]*PaymentToken{},
		revokedAt: map[*PaymentToken]time.Time{},
	}
	var w []float64
	for _, b := range domesticBINs {
		w = append(w, b.weight)
	}
	g.domW = cumulative(w)
	w = w[:0]
	for _, b := range foreignBINs {
		w = append(w, b.weight)
	}
	g.forW = cumulative(w)
	w = w[:0]
	for _, p := range profiles {
		w = append(w, p.share)
		u, _ := url.Parse(p.callbackURL)
		host := u.Scheme + "://" + u.Host
		g.protocols = append(g.protocols, &Protocol{CallbackURL: p.callbackURL, ReturnURL: host + "/checkout/done"})
		g.tokProtos = append(g.tokProtos, &Protocol{CallbackURL: p.callbackURL + "?event=token", ReturnURL: host + "/account/cards"})
	}
	g.shareW = cumulative(w)

	n := min(max(payments/5, 300), 200000)
	g.domestic = n * 9 / 10
	if payments > seedClassicMax {
		if err := g.makeCustomersInBlocks(ctx, n); err != nil {
			return nil, err
		}
	} else {
		g.makeCustomers(n)
	}
	return g, nil
}

// makeCustomers draws n customers from the generator's source, before
// the tokens and stickers.
func (g *generator) makeCustomers(n int) {
	g.customers = make([]*Customer, n)
	g.cards = make([]*Instrument, n)
	for i := range n {
		g.customers[i], g.cards[i] = g.makeCustomer(i < g.domestic)
	}
}

// Sources of the seed: each part draws from its own PCG stream of the seed.
// makeCustomersInBlocks draws n customers in blocks, each from its own
// source, side by side (a seed of more than seedClassicMax payments: the
// result does not depend on how the blocks are scheduled).
func (g *generator) makeCustomersInBlocks(ctx context.Context, n int) error {
	const block = 4096
	g.customers = make([]*Customer, n)
	g.cards = make([]*Instrument, n)
	blocks := (n + block - 1) / block
	var wg sync.WaitGroup
	var next atomic.Int64
	for range min(runtime.GOMAXPROCS(0), 8, blocks) {
		wg.Go(func() {
			for {
				b := int(next.Add(1)) - 1
				if b >= blocks || ctx.Err() != nil {
					return
				}
				bg := *g
				bg.rng = rnd.New(rnd.NewPCG(uint64(g.seed), streamCustomers|uint64(b)))
				for i := b * block; i < min(n, (b+1)*block); i++ {
					g.customers[i], g.cards[i] = bg.makeCustomer(i < g.domestic)
				}
			}
		})
	}
	wg.Wait()
	return ctx.Err()
}

// Sources of a seed made by days (seed_async.go), beside the generator's.
const (
	streamChunk     = 0xc4a70000 << 32 // | chunk index: a day of payments and their refunds
	streamCustomers = 0xc0570000 << 32 // | block index
)

func (g *generator) digits(b []byte, n int) []byte {
	for range n {
		b = append(b, byte('0'+g.rng.IntN(10)))
	}
	return b
}

func (g *generator) makeCustomer(domestic bool) (*Customer, *Instrument) {
	home := russia
	bins, cum := domesticBINs, g.domW
	if !domestic {
		home = abroad[g.rng.IntN(len(abroad))]
		bins, cum = foreignBINs, g.forW
	}
	fi := g.rng.IntN(len(home.first))
	first, last := home.first[fi], home.last[g.rng.IntN(len(home.last))]
	b := make([]byte, 0, 40)
	b = append(b, first[0], '.')
	b = append(b, last...)
	if domestic && fi >= 10 { // the second half of the Russian first names are women's
		b = append(b, 'a')
	}
	if g.rng.IntN(2) == 0 {
		b = strconv.AppendInt(b, int64(70+g.rng.IntN(35))%100, 10)
	}
	b = append(b, '@')
	b = append(b, home.domains[g.rng.IntN(len(home.domains))]...)
	c := &Customer{Email: string(b)}

	b = b[:0]
	if domestic {
		b = append(b, "79"...)
		b = g.digits(b, 9)
	} else {
		b = append(b, home.phone...)
		b = g.digits(b, 12-len(home.phone))
	}
	c.Phone = string(b)

	b = b[:0]
	if domestic {
		b = append(b, ruIPPrefixes[g.rng.IntN(len(ruIPPrefixes))]...)
	} else {
		b = append(b, home.ip...)
	}
	b = strconv.AppendInt(b, int64(g.rng.IntN(256)), 10)
	b = append(b, '.')
	b = strconv.AppendInt(b, int64(1+g.rng.IntN(254)), 10)
	c.IP = string(b)

	b = append(b[:0], "cl-"...)
	c.Account = string(g.digits(b, 7))

	bin := bins[g.pick(cum)]
	b = append(b[:0], bin.bin...)
	b = append(b, "******"...)
	b = g.digits(b, 4)
	return c, &Instrument{Method: MethodBankCard, Title: string(b), Card: bin.info}
}

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

// seedClassic makes a small seed in one pass from the oldest payment, all
// from the generator's source: payments, then their refunds, then the live
// part (under lockRaw or before the store is shared).
func (s *Store) seedClassic(g *generator, counts []int, live bool) {
	now := g.now
	start := now.Add(-seedDays * 24 * time.Hour)
	s.payments = make([]*Payment, 0, s.seedSize+64)
	for _, sl := range g.times(counts, start, now.Add(-liveWindow)) {
		mi := int(sl.mi)
		p := g.basePayment(mi, time.Unix(sl.t, 0).UTC())
		g.settleSeeded(mi, p)
		s.addPayment(s.merchants[mi], p)
	}
	var refunds []seedRefund
	for _, p := range s.payments {
		refunds = g.refundsOf(s.merchantIndex(p.MerchantID), p, refunds)
	}
	run := &seedRun{refunds: [][]seedRefund{refunds}}
	if live {
		run.live = seedLive(s, g, now)
	}
	s.finishSeed(run)
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

func seedStickers(s *Store, g *generator, start time.Time) {
	var all []*Sticker
	for _, p := range profiles {
		for _, t := range p.stickers {
			st := &Sticker{
				MerchantID: p.id, StickerType: "Sbp", Cashlink: t.cashlink, Description: t.desc, ProductCode: t.code,
				PaymentPurpose: t.purpose, Status: StickerActive, CallbackURL: p.callbackURL + "?source=sticker",
				Created: start.Add(g.between(0, 40*24*time.Hour)).Truncate(time.Second),
			}
			if t.amount > 0 {
				st.Amount = &money.Amount{Value: money.Decimal(rub(t.amount)), Currency: "RUB"}
			}
			st.Updated = st.Created
			if !t.active {
				st.Status, st.Updated = StickerInactive, st.Created.Add(g.between(24*time.Hour, 40*24*time.Hour))
			}
			st.Payload = sbpPayload(g.rng, false, st.Amount, p.acquirerBank)
			all = append(all, st)
		}
	}
	slices.SortStableFunc(all, func(a, b *Sticker) int { return a.Created.Compare(b.Created) })
	for _, st := range all {
		s.addSticker(s.merchantByID[st.MerchantID], st)
	}
}

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

func (s *Store) merchantIndex(id string) int {
	for i, m := range s.merchants {
		if m.ID == id {
			return i
		}
	}
	return 0
}

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

func seedLive(s *Store, g *generator, now time.Time) []liveRefund {
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
	for _, sp := range liveSpecials {
		created := now.Add(-sp.age)
		p := g.basePayment(sp.mi, created)
		p.TokenID, p.Agreement = "", ""
		if sp.kind == liveSBP {
			p.Instrument = sbpBanks[0]
		} else if p.Instrument.Method == MethodSBP {
			p.Instrument = g.cards[g.rng.IntN(g.domestic)]
		}
		p.IsInvoice, p.Invoice.Expires = false, time.Time{}
		m := s.merchants[sp.mi]
		s.addPayment(m, p)
		switch sp.kind {
		case livePending, livePendingHold, livePendingDecline:
			p.flow = flowPendingApprove
			if sp.kind == livePendingDecline {
				p.flow = flowPendingDecline
			}
			p.DualMode = sp.kind == livePendingHold
			s.schedule(now.Add(sp.due), evSettlePayment, p.seq)
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
				PaymentURL:  sbpPayload(g.rng, true, &p.Amount, profiles[sp.mi].acquirerBank),
				Instruction: "Open the link on the phone, or scan its QR code in your bank's app, and confirm the payment"}, created)
		case liveInvoice:
			p.IsInvoice, p.Instrument = true, nil
			p.Invoice.Expires = now.Add(sp.due)
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
	// Pending refunds settling at +6 s, +17 s and +26 s; the last ends in .13
	// and so is Rejected when it settles.
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
	// A tokenization page the customer "fills in" 12 s after start.
	t := &PaymentToken{
		Type: profiles[1].tokenType, Purpose: profiles[1].tokenPurpose, Status: TokenCreated,
		Created: now.Add(-time.Minute), Instrument: &Instrument{Method: MethodBankCard},
		Customer: g.customers[0], Protocol: g.tokProtos[1], FromPage: true,
	}
	t.Updated = t.Created
	s.addToken(s.merchants[1], t)
	s.schedule(now.Add(12*time.Second), evActivateToken, t.seq)
	return refunds
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
