package pagecache

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend"
)

// reads is a service answering probes and payment reads, counting them.
type reads struct {
	backend.Backend
	probes, gets atomic.Int32
	status       backend.PaymentStatus
	gate         chan struct{} // when set, reads wait for it
}

func (r *reads) Probe(context.Context) error {
	r.probes.Add(1)
	return nil
}

func (r *reads) GetPayment(ctx context.Context, id string) (backend.Payment, error) {
	r.gets.Add(1)
	if r.gate != nil {
		<-r.gate
	}
	return backend.Payment{ID: id, Status: r.status}, nil
}

func TestProbeOncePerEpochForEverySession(t *testing.T) {
	svc := &reads{}
	c, clk := newCache(&fake{Backend: svc}, 0)
	c.Backend = svc
	for range 5 {
		require.NoError(t, c.Probe(context.Background()))
	}
	assert.Equal(t, int32(1), svc.probes.Load(), "the sessions of one epoch share one probe")
	clk.add(epoch)
	require.NoError(t, c.Probe(context.Background()))
	assert.Equal(t, int32(2), svc.probes.Load(), "a new epoch probes again")
}

func TestADeclinedPaymentIsReadOnceAndOthersEveryTime(t *testing.T) {
	svc := &reads{status: backend.PaymentRejected}
	c, _ := newCache(&fake{Backend: svc}, 0)
	c.Backend = svc
	for range 3 {
		p, err := c.GetPayment(context.Background(), "p1")
		require.NoError(t, err)
		assert.Equal(t, backend.PaymentRejected, p.Status)
	}
	assert.Equal(t, int32(1), svc.gets.Load(), "a declined payment cannot change: read once")

	svc.status = backend.PaymentAuthorized
	for range 3 {
		_, err := c.GetPayment(context.Background(), "p2")
		require.NoError(t, err)
	}
	assert.Equal(t, int32(4), svc.gets.Load(), "a payment that can still move is read every time")
}

func TestSessionsReadingOnePaymentAtOnceShareTheRequest(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		svc := &reads{status: backend.PaymentAuthorized, gate: make(chan struct{})}
		c, _ := newCache(&fake{Backend: svc}, 0)
		c.Backend = svc
		var wg sync.WaitGroup
		for range 10 {
			wg.Go(func() {
				_, err := c.GetPayment(context.Background(), "p1")
				assert.NoError(t, err)
			})
		}
		synctest.Wait() // every session is waiting: one on the service, the rest on its answer
		close(svc.gate)
		wg.Wait()
		assert.Equal(t, int32(1), svc.gets.Load(), "ten sessions at once, one request")
	})
}
