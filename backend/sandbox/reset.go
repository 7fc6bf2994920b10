package sandbox

import (
	"context"
	"fmt"
	"time"
)

// Control of time and state for testers (README.md): the store's
// clock can be moved on, and the store put back to its seed.

// MaxAdvance is the longest single move of the clock.
const MaxAdvance = 366 * 24 * time.Hour

// Advance moves the store's clock on by d (0 < d <= MaxAdvance) and makes
// everything due within that time happen now: pending payments and refunds
// settle, invoices expire, tokenization pages are filled in, in due order,
// each stamped with its own due time (and each logged, with its callbacks
// sent). It returns how many events ran. Arrivals (Options.Arrivals) are
// not made up for the skipped time. Like every write it waits for the seed.
func (s *Store) Advance(d time.Duration) (int, error) {
	if d <= 0 || d > MaxAdvance {
		return 0, invalid(fmt.Sprintf("duration must be more than 0 and at most %s (366 days), not %s", MaxAdvance, d))
	}
	s.mu.Lock()
	defer s.unlock()
	s.offset.Add(int64(d))
	return s.runDueLocked(), nil // each move is logged (clock.go); the caller logs the advance
}

// Reset puts the store back to its seed: everything made, moved or settled
// since start is gone. The seed is made again from the same Seed, Payments
// and seed time, so it is the same data with the same ids as at start;
// credentials stay, and the clock offset of Advance is back to zero. The
// seed's own timed moves (the live part's pending payments, refunds,
// invoice and tokenization page) are due at their original times again, so
// those already past happen at once, as they did after start: the store
// reads as if nobody had touched it since start. Like at start, the newest
// payments are in when Reset returns and the rest follows in the
// background. A seed still running (from start or an earlier Reset) is
// stopped first.
func (s *Store) Reset(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.resetMu.Lock()
	defer s.resetMu.Unlock()
	// Make the running seed stale, so it leaves the store (and its gate)
	// alone, and wait for it to return.
	s.mu.lockRaw()
	old := s.seeder
	s.seedGen++
	s.mu.Unlock()
	if old != nil {
		old.cancel()
		<-old.exit
	}

	s.mu.lockRaw()
	defer s.unlock()
	// Wake everyone waiting on the old seed; they look again once this
	// Reset has the new one running.
	if s.progress != nil {
		close(s.progress)
		s.progress = nil
	}
	s.mu.openGate()
	s.seeder = nil
	s.phase = seedComplete
	s.offset.Store(0)
	s.storeData = s.freshData()
	if err := s.beginSeed(s.baseCtx); err != nil {
		s.phase = seedStopped
		return fmt.Errorf("sandbox: reset: %w", err)
	}
	select {
	case s.wake <- struct{}{}:
	default:
	}
	return nil
}
