package transport

import (
	"context"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestGateHoldsEveryWaiterUntilTheTimeAsked(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := NewGate(nil)
		ctx := WithGate(context.Background(), g)
		start := time.Now()
		HoldGate(ctx, 3*time.Second)
		HoldGate(ctx, time.Second) // a shorter hold does not open it sooner
		var mu sync.Mutex
		var opened []time.Duration
		var wg sync.WaitGroup
		for range 4 {
			wg.Go(func() {
				_ = AwaitGate(ctx)
				mu.Lock()
				opened = append(opened, time.Since(start))
				mu.Unlock()
			})
		}
		wg.Wait()
		assert.Equal(t, []time.Duration{3 * time.Second, 3 * time.Second, 3 * time.Second, 3 * time.Second}, opened)
		assert.NoError(t, AwaitGate(context.Background()), "no gate: at once")
	})
}

func TestGateWaitEndsWithItsContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := NewGate(nil)
		ctx, cancel := context.WithTimeout(WithGate(context.Background(), g), time.Second)
		defer cancel()
		HoldGate(ctx, time.Hour)
		assert.ErrorIs(t, AwaitGate(ctx), context.DeadlineExceeded)
	})
}
