package sandbox

import (
	"context"
	rnd "math/rand/v2"
	"net/url"
	"slices"
	"time"
)

// The seed: deterministic from the seed number and the store clock, spread
// over the 90 days before now with each merchant's daily and weekly rhythm.
// Every part is drawn from a PCG source of the seed in a fixed order
// (customers, tokens, stickers and the live part from one - customers by
// blocks from their own in a big seed; each local day of payments with
// their refunds from its own), so the same seed and clock give the
// same data however the parts are scheduled (seed_async.go makes the
// newest days first and the rest in the background). Strings and card
// info come from the tables in seeddata.go and are shared, so 100,000
// payments cost little more than their structs. Each kind of object has its
// own file: seed_customers.go, seed_payments.go, seed_refunds.go,
// seed_tokens.go, seed_stickers.go and seed_live.go.
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

// Sources of a seed made by days (seed_chunks.go), beside the generator's.
const (
	streamChunk     = 0xc4a70000 << 32 // | chunk index: a day of payments and their refunds
	streamCustomers = 0xc0570000 << 32 // | block index
)

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

func (s *Store) merchantIndex(id string) int {
	for i, m := range s.merchants {
		if m.ID == id {
			return i
		}
	}
	return 0
}
