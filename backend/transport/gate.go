package transport

import (
	"context"
	"sync"
	"time"
)

// Gate holds back the requests of several readers together: when the
// service answers one of them "slow down" (429 with Retry-After), none of
// them sends again before that time. The clients wait on the gate their
// context carries (WithGate) before every attempt and close it for the
// Retry-After of a 429 (Hold): a period read in slices (backend/period.go)
// backs off as one reader, not as n.
type Gate struct {
	now   func() time.Time
	mu    sync.Mutex
	until time.Time
}

// NewGate makes an open gate; now is its clock (nil: time.Now).
func NewGate(now func() time.Time) *Gate {
	if now == nil {
		now = time.Now
	}
	return &Gate{now: now}
}

type gateKey struct{}

// WithGate is ctx carrying g: the requests made under it wait on g.
func WithGate(ctx context.Context, g *Gate) context.Context {
	return context.WithValue(ctx, gateKey{}, g)
}

// gateOf is the gate ctx carries, nil when none.
func gateOf(ctx context.Context) *Gate {
	g, _ := ctx.Value(gateKey{}).(*Gate)
	return g
}

// AwaitGate waits until the gate ctx carries is open (at once when it
// carries none), or until ctx ends, whose error it returns then.
func AwaitGate(ctx context.Context) error {
	g := gateOf(ctx)
	if g == nil {
		return ctx.Err()
	}
	for {
		g.mu.Lock()
		wait := g.until.Sub(g.now())
		g.mu.Unlock()
		if wait <= 0 {
			return ctx.Err()
		}
		if err := Sleep(ctx, wait); err != nil {
			return err
		}
	}
}

// HoldGate closes the gate ctx carries for d from now (a Retry-After); a
// later time already set stays. Nothing when ctx carries no gate or d is
// not positive.
func HoldGate(ctx context.Context, d time.Duration) {
	g := gateOf(ctx)
	if g == nil || d <= 0 {
		return
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if until := g.now().Add(d); until.After(g.until) {
		g.until = until
	}
}

// Until is when the gate opens (the zero time: it is open).
func (g *Gate) Until() time.Time {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.until
}
