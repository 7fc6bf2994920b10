package sandbox

import (
	"cmp"
	"context"
	"fmt"
	"math"
	rnd "math/rand/v2"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// Serving at once. A seed of more than seedClassicMax
// payments (the default is 100,000) is cut into chunks, one per local
// (Moscow) day of the 90 days, each drawn from its own source of the seed,
// with its payment count, ids and order numbers fixed beforehand by a plan,
// so that a chunk comes out the same whenever and in whatever order it is
// made. OpenStore makes the newest chunks (at least seedSyncMin payments)
// and the live part, then the store serves while the older chunks are made
// in the background, newest first, on all processors but one, and put in
// one at a time. Launch to the first page over HTTPS, median of ten, on 2
// processors: 10-15 ms (1.6-2.1 ms with an empty store), down from 100-220
// ms when the whole seed came first (BenchmarkStartToFirstPage).
//
// The horizon is the creation time from which every seeded payment is in:
// a read whose answer could change with payments older than the horizon
// waits until the seed has passed them, so every answer is the one the full
// seed gives. A page of payments (newest first) is final as soon as the
// seeded part holds more than the page, or the horizon is at or before the
// period's start; a v1 list likewise. Refunds are given their ids (ascending
// with creation, as always) once every payment is made, and the v1 ledger is
// built right after; reads of refunds, transfers, registers and documents
// wait for that. Writes (API moves, the settler, arrivals, Advance) wait for
// the whole seed: everything they may touch exists by then, and objects they
// make take ids after the seeded ones.
//
// Seeding stops when the context given to OpenStore ends (checked every
// couple of thousand payments): waiting reads and writes then go on with
// what there is, which only matters to a server that is shutting down.

// MaxPayments is the largest seed the store makes (a seeded payment takes
// about 550 bytes of heap); more is refused.
const MaxPayments = 50_000_000

// seedSyncMin is how many of the newest payments OpenStore makes before it
// returns (whole chunks; everything when the seed is smaller).
const seedSyncMin = 1500

// seedClassicMax is the largest seed made the classic way: in one pass from
// the oldest payment, from one source, before OpenStore returns (a few tens
// of milliseconds). The tests' fixtures (golden screens, the seeded stickers
// and registers they pick) were made that way, and stay as they were.
const seedClassicMax = 10_000

type seedPhase uint8

const (
	seedComplete seedPhase = iota // everything is in (or nothing was to be made)
	seedRunning                   // chunks are still being made
	seedStopped                   // the context ended before the seed was complete
)

// storeLock is the store's read-write lock, whose write side also waits for
// the seed to be complete. The seed itself writes through lockRaw.
type storeLock struct {
	rw   sync.RWMutex
	gate chan struct{} // while not nil (the seed runs), Lock waits for it to close; guarded by rw
}

func (l *storeLock) RLock()   { l.rw.RLock() }
func (l *storeLock) RUnlock() { l.rw.RUnlock() }
func (l *storeLock) Unlock()  { l.rw.Unlock() }
func (l *storeLock) lockRaw() { l.rw.Lock() }

// Lock takes the write lock once no seed is running.
func (l *storeLock) Lock() {
	for {
		l.rw.Lock()
		g := l.gate
		if g == nil {
			return
		}
		l.rw.Unlock()
		<-g
	}
}

// openGate lets writers in (under lockRaw).
func (l *storeLock) openGate() {
	if l.gate != nil {
		close(l.gate)
		l.gate = nil
	}
}

// seeder is one run of the seed in the background.
type seeder struct {
	gen     uint64 // Store.seedGen of this run: a Reset since makes it stale
	cancel  context.CancelFunc
	exit    chan struct{} // closed when its goroutine has returned
	started time.Time
}

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

// seedRun is what a seed in progress carries from chunk to chunk.
type seedRun struct {
	plan    *seedPlan
	gen     *generator
	next    int            // the newest chunk not made yet; -1: all made
	refunds [][]seedRefund // by chunk
	live    []liveRefund
	gate    chan struct{} // seedRestGate when the seed began
}

// seedRestGate, when not nil, holds the background part of a seed begun
// meanwhile until it is closed (or the seed is stopped). Nil in the
// product: tests set it to see the store serve while the seed is
// incomplete, whatever the machine's speed (seedfast_test.go); a seed that
// raced the test's requests would make that a bet.
var seedRestGate chan struct{}

// beginSeed seeds an empty store (s.storeData fresh): the merchants,
// stickers, tokens, the newest chunks and the live part at once, the rest
// in the background (started here). It runs before the store is shared, or
// under lockRaw (Reset).
func (s *Store) beginSeed(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	now, payments := s.seedNow, s.seedSize
	g, err := newGenerator(ctx, s.seed, now, payments)
	if err != nil {
		return err
	}
	s.gen = g
	start := now.Add(-seedDays * 24 * time.Hour)

	live := payments >= 40
	regular := payments
	if live {
		regular -= len(liveSpecials)
	}
	perMerchant := make([]int, len(profiles))
	left := regular
	for i, p := range profiles {
		perMerchant[i] = int(math.Round(float64(regular) * p.share))
		if i == len(profiles)-1 {
			perMerchant[i] = left
		}
		perMerchant[i] = min(perMerchant[i], left)
		left -= perMerchant[i]
	}
	var plan *seedPlan
	if payments > seedClassicMax {
		plan = makePlan(now, perMerchant)
	} else {
		plan = &seedPlan{perMerchant: perMerchant} // the classic seed needs no plan
	}
	for mi, p := range profiles {
		n := perMerchant[mi]
		m := &merchantData{
			Merchant: Merchant{ID: p.id, Name: p.name, Kind: p.kind, Currencies: p.currencies, CallbackURL: p.callbackURL},
			// It grows with the seed: sized for millions, it would take seconds to make.
			byOrder: make(map[string]*Payment, min(n, 1<<16)+16),
		}
		if payments > seedClassicMax { // room for the chunks, put in from the newest
			m.pbuf, m.pstart = make([]*Payment, n, n+len(liveSpecials)+64), n
			m.payments = m.pbuf[n:n]
		}
		s.merchants = append(s.merchants, m)
		s.merchantByID[m.ID] = m
	}
	seedStickers(s, g, start)
	seedTokens(s, g, start, now, payments)
	if payments <= seedClassicMax {
		s.seedClassic(g, perMerchant, live)
		return nil
	}
	g.continueOrders(plan)
	s.payments = make([]*Payment, plan.regular, payments+64)
	s.horizon = math.MaxInt64

	run := &seedRun{plan: plan, gen: g, next: plan.chunks() - 1, refunds: make([][]seedRefund, plan.chunks()), gate: seedRestGate}
	made := 0
	for ; run.next >= 0 && made < min(seedSyncMin, plan.regular); run.next-- {
		ch, err := g.makeChunk(ctx, plan, run.next)
		if err != nil {
			return err
		}
		s.publishChunk(plan, run.next, ch)
		run.refunds[run.next] = ch.refunds
		made += len(ch.payments)
	}
	if live {
		run.live = seedLive(s, g, now)
	}
	if run.next < 0 {
		s.finishSeed(run)
		return nil
	}
	sctx, cancel := context.WithCancel(ctx)
	s.seedGen++
	sd := &seeder{gen: s.seedGen, cancel: cancel, exit: make(chan struct{}), started: time.Now()}
	s.seeder = sd
	s.phase = seedRunning
	s.progress = make(chan struct{})
	s.mu.gate = make(chan struct{})
	go s.seedRest(sctx, sd, run)
	return nil
}

// seedRest makes the remaining chunks, newest first, then the refunds and
// the ledger, and opens the store to writes.
func (s *Store) seedRest(ctx context.Context, sd *seeder, run *seedRun) {
	defer close(sd.exit)
	defer sd.cancel()
	if run.gate != nil { // a stop meanwhile goes on as any other (the chunks see ctx)
		select {
		case <-run.gate:
		case <-ctx.Done():
		}
	}
	plan, g := run.plan, run.gen
	type result struct {
		ch  chunk
		err error
	}
	results := make([]chan result, run.next+1)
	for i := range results {
		results[i] = make(chan result, 1)
	}
	wctx, stopWorkers := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer func() {
		stopWorkers()
		wg.Wait()
	}()
	var next atomic.Int64
	next.Store(int64(run.next) + 1)
	for range max(1, min(runtime.GOMAXPROCS(0)-1, 4)) { // a processor stays for serving
		wg.Go(func() {
			for {
				c := int(next.Add(-1))
				if c < 0 {
					return
				}
				ch, err := g.makeChunk(wctx, plan, c)
				results[c] <- result{ch, err}
				if err != nil {
					return
				}
			}
		})
	}
	for ; run.next >= 0; run.next-- {
		var r result
		select {
		case r = <-results[run.next]:
		case <-ctx.Done():
			r.err = ctx.Err()
		}
		if r.err != nil {
			s.stopSeed(sd, r.err)
			return
		}
		s.mu.lockRaw()
		if s.seedGen != sd.gen {
			s.mu.Unlock()
			return
		}
		s.publishChunk(plan, run.next, r.ch)
		s.broadcast()
		s.mu.Unlock()
		run.refunds[run.next] = r.ch.refunds
	}
	if ctx.Err() != nil {
		s.stopSeed(sd, ctx.Err())
		return
	}
	// Every payment is in: the refunds get their ids, then the ledger is
	// built from the store as it is (no write can come in meanwhile).
	s.mu.lockRaw()
	if s.seedGen != sd.gen {
		s.mu.Unlock()
		return
	}
	s.addSeedRefunds(run)
	merchants := s.merchants
	s.mu.Unlock()
	lg := s.makeLedger(merchants)
	s.mu.lockRaw()
	if s.seedGen != sd.gen {
		s.mu.Unlock()
		return
	}
	s.ledger = lg
	s.completeSeed()
	n := len(s.payments)
	s.mu.Unlock()
	s.log.Info("sandbox seeded", "payments", n, "duration", time.Since(sd.started).Round(time.Millisecond).String())
}

// finishSeed ends a seed made entirely at once.
func (s *Store) finishSeed(run *seedRun) {
	s.addSeedRefunds(run)
	s.ledger = s.makeLedger(s.merchants)
	s.completeSeed()
}

// addSeedRefunds gives the seeded refunds their ids, ascending with
// creation (payment order within a second), then the live part's.
func (s *Store) addSeedRefunds(run *seedRun) {
	n := 0
	for _, rs := range run.refunds {
		n += len(rs)
	}
	all := make([]seedRefund, 0, n)
	for _, rs := range run.refunds { // oldest chunk first: payment order
		all = append(all, rs...)
	}
	slices.SortStableFunc(all, func(a, b seedRefund) int { return a.r.Created.Compare(b.r.Created) })
	s.refunds = make([]*Refund, 0, n+len(run.live)+8)
	for _, x := range all {
		s.addRefund(s.merchantByID[x.p.MerchantID], x.p, x.r)
	}
	for _, lr := range run.live {
		s.addRefund(s.merchantByID[lr.p.MerchantID], lr.p, lr.r)
		s.schedule(lr.due, evSettleRefund, lr.r.seq)
	}
	run.refunds, run.live = nil, nil
}

// completeSeed marks the seed complete (under lockRaw).
func (s *Store) completeSeed() {
	s.phase = seedComplete
	s.horizon = math.MinInt64
	s.seeder = nil
	s.broadcast()
	s.mu.openGate()
}

// stopSeed ends a seed whose context ended: waiting reads and writes go on
// with what there is.
func (s *Store) stopSeed(sd *seeder, err error) {
	s.mu.lockRaw()
	if s.seedGen != sd.gen || s.phase != seedRunning {
		s.mu.Unlock()
		return
	}
	s.phase = seedStopped
	s.seeder = nil
	s.broadcast()
	s.mu.openGate()
	made, of := 0, len(s.payments) // read under the lock: an arrival may append once it is released
	for _, p := range s.payments {
		if p != nil {
			made++
		}
	}
	s.mu.Unlock()
	s.log.Info("sandbox seeding stopped", "reason", err.Error(), "made", made, "of", of)
}

// broadcast wakes the reads waiting for the seed (under lockRaw).
func (s *Store) broadcast() {
	if s.progress != nil {
		close(s.progress)
		s.progress = nil
	}
	if s.phase == seedRunning {
		s.progress = make(chan struct{})
	}
}

// awaitSeed waits until ready (called under the read lock) holds or no
// seed is running. The caller then takes the lock for its read.
func (s *Store) awaitSeed(ready func() bool) {
	for {
		s.mu.RLock()
		if s.phase != seedRunning || ready() {
			s.mu.RUnlock()
			return
		}
		ch := s.progress
		s.mu.RUnlock()
		<-ch
	}
}

// awaitComplete waits until the whole seed is in (refunds and ledger
// included), or has stopped.
func (s *Store) awaitComplete() { s.awaitSeed(func() bool { return false }) }

// awaitPage waits until a page of ListPayments or ListRefunds reads as it
// will with the whole seed: for payments, when the seeded part already
// holds more than the page (what is missing is older than all of it) or
// the seed has passed the period's start; refunds come with the whole seed.
func (s *Store) awaitPage(kind string, q ListQuery) {
	s.awaitSeed(func() bool {
		if kind != "payments" {
			return false
		}
		m, lo, hi, before, _, err := s.listSpec(kind, q, true)
		if err != nil || lo >= s.horizon {
			return true
		}
		_, next := pageOf(m.payments, lo, hi, before, limitOf(q))
		return next != nil
	})
}

// paymentMissing reports whether id names a seeded payment not made yet
// (under the read lock).
func (s *Store) paymentMissing(id string) bool {
	n, ok := seqOf(id)
	if !ok || n < paymentBase || n-paymentBase >= int64(len(s.payments)) {
		return false
	}
	return s.payments[n-paymentBase] == nil
}

// WaitSeeded waits until the whole seed is in; it fails if seeding stopped
// (its context ended) or ctx ends first.
func (s *Store) WaitSeeded(ctx context.Context) error {
	done := make(chan struct{})
	go func() {
		s.awaitComplete()
		close(done)
	}()
	select {
	case <-done:
	case <-ctx.Done():
		return ctx.Err()
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.phase == seedStopped {
		return fmt.Errorf("sandbox: seeding stopped before it was complete")
	}
	return nil
}

// Seeded reports whether the whole seed is in.
func (s *Store) Seeded() bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.phase == seedComplete
}

// Stop ends seeding in the background, if any, and waits for it to return
// (within a few milliseconds; the store keeps what was made).
func (s *Store) Stop() {
	s.mu.lockRaw()
	sd := s.seeder
	s.mu.Unlock()
	if sd != nil {
		sd.cancel()
		<-sd.exit
	}
}
