package pagecache

import (
	"context"

	"paydash/backend"
)

// Besides the lists, two reads are the same for every session and cost the
// service once per session if each asks on its own: the probe of the
// credentials each dashboard makes as it starts, and the reads of declined
// payments the Overview makes for their result codes.

// maxFinals bounds the declined payments kept; past it, they are read anew.
const maxFinals = 100_000

// Probe checks the credentials once per epoch for every session: what the
// wrapped backend learns from it (what the credentials may do) is shared
// by the sessions anyway. A failed probe is not kept: the next one asks.
func (c *Backend) Probe(ctx context.Context) error {
	c.mu.Lock()
	epoch, _ := c.epochLocked()
	fresh := !c.probed.IsZero() && !c.probed.Before(epoch)
	c.mu.Unlock()
	if fresh {
		return nil
	}
	_, err := c.shared(ctx, "probe", func(ctx context.Context) (any, error) {
		if err := c.Backend.Probe(ctx); err != nil {
			return nil, err
		}
		c.mu.Lock()
		c.probed, _ = c.epochLocked()
		c.mu.Unlock()
		return nil, nil
	})
	return err
}

// GetPayment reads a payment; sessions asking for the same one at the same
// moment share one request, and a payment the service declined (Rejected:
// nothing can happen to it any more) is kept and answered from memory.
// Every other payment is read from the service each time: what a session
// reads before a confirmation must be the payment as it is now.
func (c *Backend) GetPayment(ctx context.Context, id string) (backend.Payment, error) {
	c.mu.Lock()
	p, ok := c.finals[id]
	c.mu.Unlock()
	if ok {
		return p, nil
	}
	v, err := c.shared(ctx, "payment "+id, func(ctx context.Context) (any, error) {
		return c.Backend.GetPayment(ctx, id)
	})
	p, _ = v.(backend.Payment)
	if err == nil && p.Status == backend.PaymentRejected {
		c.mu.Lock()
		if len(c.finals) >= maxFinals {
			clear(c.finals)
		}
		c.finals[id] = p
		c.mu.Unlock()
	}
	return p, err
}

// shared runs read once for the sessions that ask for key at the same
// time, on a context no session's cancelling ends (a request timeout still
// does): a session that gives up returns at once, the others still get the
// answer.
func (c *Backend) shared(ctx context.Context, key string, read func(context.Context) (any, error)) (any, error) {
	ch := c.reads.DoChan(key, func() (any, error) {
		return read(context.WithoutCancel(ctx))
	})
	select {
	case r := <-ch:
		return r.Val, r.Err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
