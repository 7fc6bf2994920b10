// Package testkit holds what the tests of the backend packages share: a
// clock moved by hand, a bound on waits that must not happen, and a
// buffer safe for concurrent use. It is for tests only.
package testkit

import (
	"bytes"
	"sync"
	"testing"
	"time"
)

// Clock is a clock that moves only when told (Advance), safe for
// concurrent use: the laptop's clock, say, wrong by years.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// NewClock is a Clock that reads t.
func NewClock(t time.Time) *Clock { return &Clock{t: t} }

// Now is the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Advance moves the clock by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// HangBound bounds the tests of waits that must not happen: a client that
// behaves is done in well under a second even on a loaded machine, where
// one that waits as it should not waits an hour, or for ever.
const HangBound = time.Minute

// ReturnsWithin runs f and fails the test if f has not returned after
// HangBound (f goes on in the background then).
func ReturnsWithin(t testing.TB, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(HangBound):
		t.Fatalf("%s: still waiting after %s", what, HangBound)
	}
}

// Buffer is a bytes.Buffer safe for concurrent use: a server's log,
// read while the server writes it.
type Buffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String is what was written so far.
func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
