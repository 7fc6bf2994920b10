package sandbox

import (
	"context"
	"fmt"
)

// Reads and writes waiting for a seed in the background (seed_async.go),
// and stopping it.

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
