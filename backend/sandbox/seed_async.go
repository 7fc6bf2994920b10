package sandbox

import (
	"context"
	"math"
	"runtime"
	"slices"
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
//
// The plan and the chunks are in seed_chunks.go, the waiting in
// seed_wait.go.

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
	perMerchant := shareOut(regular)
	chunked := payments > seedClassicMax
	s.addSeedMerchants(perMerchant, chunked)
	seedStickers(s, g, start)
	seedTokens(s, g, start, now, payments)
	if !chunked {
		s.seedClassic(g, perMerchant, live)
		return nil
	}
	plan := makePlan(now, perMerchant)
	g.continueOrders(plan)
	s.payments = make([]*Payment, plan.regular, payments+64)
	s.horizon = math.MaxInt64

	run := &seedRun{plan: plan, gen: g, next: plan.chunks() - 1, refunds: make([][]seedRefund, plan.chunks()), gate: seedRestGate}
	if err := s.seedNewestChunks(ctx, run); err != nil {
		return err
	}
	if live {
		run.live = seedLive(s, g, now)
	}
	if run.next < 0 {
		s.finishSeed(run)
		return nil
	}
	s.startSeedRest(ctx, run)
	return nil
}

// shareOut shares n payments out among the merchants by their shares; the
// last takes what is left.
func shareOut(n int) []int {
	perMerchant := make([]int, len(profiles))
	left := n
	for i, p := range profiles {
		perMerchant[i] = int(math.Round(float64(n) * p.share))
		if i == len(profiles)-1 {
			perMerchant[i] = left
		}
		perMerchant[i] = min(perMerchant[i], left)
		left -= perMerchant[i]
	}
	return perMerchant
}

// addSeedMerchants adds the merchants of the profiles, with room for their
// payments when the seed comes in chunks (put in from the newest).
func (s *Store) addSeedMerchants(perMerchant []int, chunked bool) {
	for mi, p := range profiles {
		n := perMerchant[mi]
		m := &merchantData{
			Merchant: Merchant{ID: p.id, Name: p.name, Kind: p.kind, Currencies: p.currencies, CallbackURL: p.callbackURL},
			// It grows with the seed: sized for millions, it would take seconds to make.
			byOrder: make(map[string]*Payment, min(n, 1<<16)+16),
		}
		if chunked {
			m.pbuf, m.pstart = make([]*Payment, n, n+len(liveSpecials)+64), n
			m.payments = m.pbuf[n:n]
		}
		s.merchants = append(s.merchants, m)
		s.merchantByID[m.ID] = m
	}
}

// seedNewestChunks makes and puts in the newest chunks, at least
// seedSyncMin payments (or all there are), before the store serves.
func (s *Store) seedNewestChunks(ctx context.Context, run *seedRun) error {
	made := 0
	for ; run.next >= 0 && made < min(seedSyncMin, run.plan.regular); run.next-- {
		ch, err := run.gen.makeChunk(ctx, run.plan, run.next)
		if err != nil {
			return err
		}
		s.publishChunk(run.plan, run.next, ch)
		run.refunds[run.next] = ch.refunds
		made += len(ch.payments)
	}
	return nil
}

// startSeedRest starts the background part of the seed; writes wait (the
// lock's gate) until it is complete.
func (s *Store) startSeedRest(ctx context.Context, run *seedRun) {
	sctx, cancel := context.WithCancel(ctx)
	s.seedGen++
	sd := &seeder{gen: s.seedGen, cancel: cancel, exit: make(chan struct{}), started: time.Now()}
	s.seeder = sd
	s.phase = seedRunning
	s.progress = make(chan struct{})
	s.mu.gate = make(chan struct{})
	go s.seedRest(sctx, sd, run)
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
	results, stopWorkers := makeChunks(ctx, run.plan, run.gen, run.next)
	defer stopWorkers()
	if !s.putChunksIn(ctx, sd, run, results) {
		return
	}
	if ctx.Err() != nil {
		s.stopSeed(sd, ctx.Err())
		return
	}
	s.completeSeedRest(sd, run)
}

// chunkResult is a chunk made in the background, or why it was not.
type chunkResult struct {
	ch  chunk
	err error
}

// makeChunks makes chunks last down to 0 on all processors but one (at most
// 4 workers), each chunk into its own channel; stop ends the workers and
// waits for them.
func makeChunks(ctx context.Context, plan *seedPlan, g *generator, last int) (results []chan chunkResult, stop func()) {
	results = make([]chan chunkResult, last+1)
	for i := range results {
		results[i] = make(chan chunkResult, 1)
	}
	wctx, stopWorkers := context.WithCancel(ctx)
	var wg sync.WaitGroup
	var next atomic.Int64
	next.Store(int64(last) + 1)
	for range max(1, min(runtime.GOMAXPROCS(0)-1, 4)) { // a processor stays for serving
		wg.Go(func() {
			for {
				c := int(next.Add(-1))
				if c < 0 {
					return
				}
				ch, err := g.makeChunk(wctx, plan, c)
				results[c] <- chunkResult{ch, err}
				if err != nil {
					return
				}
			}
		})
	}
	return results, func() {
		stopWorkers()
		wg.Wait()
	}
}

// putChunksIn puts the chunks in as they are made, newest first, waking the
// reads waiting for them. False when the seed stopped (its context ended or
// a chunk failed) or a Reset replaced it.
func (s *Store) putChunksIn(ctx context.Context, sd *seeder, run *seedRun, results []chan chunkResult) bool {
	for ; run.next >= 0; run.next-- {
		var r chunkResult
		select {
		case r = <-results[run.next]:
		case <-ctx.Done():
			r.err = ctx.Err()
		}
		if r.err != nil {
			s.stopSeed(sd, r.err)
			return false
		}
		s.mu.lockRaw()
		if s.seedGen != sd.gen {
			s.mu.Unlock()
			return false
		}
		s.publishChunk(run.plan, run.next, r.ch)
		s.broadcast()
		s.mu.Unlock()
		run.refunds[run.next] = r.ch.refunds
	}
	return true
}

// completeSeedRest ends the background part once every payment is in: the
// refunds get their ids, then the ledger is built from the store as it is
// (no write can come in meanwhile), and the seed is complete.
func (s *Store) completeSeedRest(sd *seeder, run *seedRun) {
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
