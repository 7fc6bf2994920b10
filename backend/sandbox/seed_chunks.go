package sandbox

import (
	"cmp"
	"context"
	"math"
	rnd "math/rand/v2"
	"runtime"
	"slices"
	"strconv"
	"time"
)

// A big seed by chunks, one per local day (seed_async.go): the plan that
// fixes each chunk's payments beforehand, making a chunk from its own
// source, and putting a made chunk in.

// seedPlan fixes what every chunk holds before any is made.
type seedPlan struct {
	s0, span    int64     // the regular part: [s0, s0+span) in unix seconds
	bounds      []int64   // chunk c is [bounds[c], bounds[c+1]), oldest first
	counts      [][]int   // [c][merchant] payments
	offset      []int     // index (seq - paymentBase) of chunk c's first payment
	rankBase    [][]int64 // [c][merchant] payments of the merchant before chunk c
	bookYear    []int     // chunk c's local year
	bookBase    []int64   // books payments of that year before chunk c
	perMerchant []int
	regular     int
}

func (p *seedPlan) chunks() int { return len(p.bounds) - 1 }

func floorDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && (a < 0) != (b < 0) {
		q--
	}
	return q
}

// weightIn is the integral of a merchant's rhythm over [a, b) (seconds),
// hour by hour (the rhythm is constant within an hour but for the trend).
func weightIn(p *merchantProfile, a, b, s0, span int64) float64 {
	w := 0.0
	for t := a; t < b; {
		next := min((floorDiv(t, 3600)+1)*3600, b)
		mid := float64(t+next)/2 - float64(s0)
		w += timeWeight(p, t, 0.8+0.4*mid/float64(span)) * float64(next-t)
		t = next
	}
	return w
}

func makePlan(now time.Time, perMerchant []int) *seedPlan {
	start := now.Add(-seedDays * 24 * time.Hour)
	s0, s1 := start.Unix(), now.Add(-liveWindow).Unix()
	const day = 86400
	plan := &seedPlan{s0: s0, span: s1 - s0, perMerchant: perMerchant}
	plan.bounds = append(plan.bounds, s0)
	for t := (floorDiv(s0+mskOffsetSecs, day)+1)*day - mskOffsetSecs; t < s1; t += day {
		plan.bounds = append(plan.bounds, t)
	}
	plan.bounds = append(plan.bounds, s1)
	nc := plan.chunks()
	plan.counts = make([][]int, nc)
	for c := range plan.counts {
		plan.counts[c] = make([]int, len(profiles))
	}
	// Each merchant's payments go to the chunks in proportion to the rhythm,
	// rounded by largest remainder (ties to the older chunk).
	for mi, n := range perMerchant {
		ws := make([]float64, nc)
		total := 0.0
		for c := range nc {
			ws[c] = weightIn(&profiles[mi], plan.bounds[c], plan.bounds[c+1], s0, plan.span)
			total += ws[c]
		}
		if total <= 0 || n == 0 {
			continue
		}
		frac := make([]float64, nc)
		given := 0
		for c := range nc {
			ideal := float64(n) * ws[c] / total
			k := int(math.Floor(ideal))
			plan.counts[c][mi] = k
			frac[c] = ideal - float64(k)
			given += k
		}
		order := make([]int, 0, nc)
		for c := range nc {
			if ws[c] > 0 {
				order = append(order, c)
			}
		}
		slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(frac[b], frac[a]) })
		for i := 0; given < n; i = (i + 1) % len(order) {
			plan.counts[order[i]][mi]++
			given++
		}
	}
	books := slices.IndexFunc(profiles, func(p merchantProfile) bool { return p.kind == "books" })
	plan.offset = make([]int, nc)
	plan.rankBase = make([][]int64, nc)
	plan.bookYear = make([]int, nc)
	plan.bookBase = make([]int64, nc)
	rank := make([]int64, len(profiles))
	perYear := map[int]int64{}
	off := 0
	for c := range nc {
		plan.offset[c] = off
		plan.rankBase[c] = slices.Clone(rank)
		y := time.Unix(plan.bounds[c]+mskOffsetSecs, 0).UTC().Year()
		plan.bookYear[c] = y
		if books >= 0 {
			plan.bookBase[c] = perYear[y]
			perYear[y] += int64(plan.counts[c][books])
		}
		for mi, k := range plan.counts[c] {
			rank[mi] += int64(k)
			off += k
		}
	}
	plan.regular = off
	return plan
}

// continueOrders sets the generator's order counters past the seeded
// payments, for the live part, arrivals and new payments.
func (g *generator) continueOrders(plan *seedPlan) {
	for mi, n := range plan.perMerchant {
		switch profiles[mi].kind {
		case "coffee":
			g.orderSeq[mi] = 1000 + int64(n)
		case "travel":
			g.orderSeq[mi] = 20000 + int64(n)
		case "books":
			for c := range plan.chunks() {
				g.bookYear[plan.bookYear[c]] += int64(plan.counts[c][mi])
			}
		default:
			g.orderSeq[mi] = 1040000 + 2*int64(n) + 1
		}
	}
}

// chunk is one made chunk: its payments in id order and their refunds.
type chunk struct {
	payments []*Payment
	mis      []uint8 // each payment's merchant index
	refunds  []seedRefund
}

// makeChunk makes chunk c from its own source; ctx is looked at every
// couple of thousand payments.
func (g *generator) makeChunk(ctx context.Context, plan *seedPlan, c int) (chunk, error) {
	cg := *g
	cg.rng = rnd.New(rnd.NewPCG(uint64(g.seed), streamChunk|uint64(c)))
	cg.orders = &orderRanks{bookYear: plan.bookYear[c], bookBase: plan.bookBase[c]}
	copy(cg.orders.rank[:], plan.rankBase[c])
	c0, c1 := plan.bounds[c], plan.bounds[c+1]
	total := 0
	for _, n := range plan.counts[c] {
		total += n
	}
	slots := make([]slot, 0, total)
	for mi, n := range plan.counts[c] {
		p := &profiles[mi]
		maxW := slices.Max(p.weekday[:]) * slices.Max(p.hours[:]) * 1.2
		for range n {
			for {
				t := c0 + cg.rng.Int64N(c1-c0)
				trend := 0.8 + 0.4*float64(t-plan.s0)/float64(plan.span)
				if cg.rng.Float64()*maxW < timeWeight(p, t, trend) {
					slots = append(slots, slot{t: t, mi: uint8(mi)})
					break
				}
			}
			if len(slots)&2047 == 0 && ctx.Err() != nil {
				return chunk{}, ctx.Err()
			}
		}
	}
	slices.SortFunc(slots, func(a, b slot) int {
		if a.t != b.t {
			return cmp.Compare(a.t, b.t)
		}
		return int(a.mi) - int(b.mi)
	})
	out := chunk{payments: make([]*Payment, len(slots)), mis: make([]uint8, len(slots))}
	for i, sl := range slots {
		if i&255 == 255 {
			if i&2047 == 2047 && ctx.Err() != nil {
				return chunk{}, ctx.Err()
			}
			// Let the requests go first: the seed is background work, and
			// the first pages are what the user waits for.
			runtime.Gosched()
		}
		mi := int(sl.mi)
		p := cg.basePayment(mi, time.Unix(sl.t, 0).UTC())
		cg.settleSeeded(mi, p)
		p.seq = paymentBase + int64(plan.offset[c]+i)
		p.ID = strconv.FormatInt(p.seq, 10)
		p.MerchantID = profiles[mi].id
		out.refunds = cg.refundsOf(mi, p, out.refunds)
		out.payments[i], out.mis[i] = p, uint8(mi)
	}
	return out, nil
}

// publishChunk puts a made chunk in (under lockRaw, or before the store is
// shared): older than everything in, so it goes before it.
func (s *Store) publishChunk(plan *seedPlan, c int, ch chunk) {
	pos := make([]int, len(s.merchants))
	for mi, m := range s.merchants {
		pos[mi] = m.pstart - plan.counts[c][mi]
	}
	for i, p := range ch.payments {
		s.payments[p.seq-paymentBase] = p
		m := s.merchants[ch.mis[i]]
		m.pbuf[pos[ch.mis[i]]] = p
		pos[ch.mis[i]]++
		if o := p.Invoice.OrderNo; o != "" {
			if old := m.byOrder[o]; old == nil || !keyOf(p).less(keyOf(old)) {
				m.byOrder[o] = p
			}
		}
	}
	for mi, m := range s.merchants {
		k := plan.counts[c][mi]
		if k == 0 {
			continue
		}
		n := len(m.payments)
		if n > 0 && &m.payments[0] != &m.pbuf[:m.pstart+1][m.pstart] {
			// Moved by an append (none comes while seeding): a new buffer
			// with room for the chunks still to come.
			room := int(plan.rankBase[c][mi])
			buf := make([]*Payment, room+k+n, room+k+n+64)
			copy(buf[room:], m.pbuf[m.pstart-k:m.pstart])
			copy(buf[room+k:], m.payments)
			m.pbuf, m.pstart, m.payments = buf[:room+k], room, buf[room:]
			continue
		}
		m.pstart -= k
		m.payments = m.pbuf[m.pstart : m.pstart+n+k]
	}
	s.horizon = plan.bounds[c] * int64(time.Second)
}
