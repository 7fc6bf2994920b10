package transport

import (
	"context"
	"net/http"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestSettingsRefuseBadValuesWithTheOwnersPrefix(t *testing.T) {
	s := NewSettings("vX", "ua")
	assert.Equal(t, Settings{Owner: "vX", Timeout: 30 * time.Second, MaxRetries: 3, BaseBackoff: 200 * time.Millisecond,
		MaxBackoff: 5 * time.Second, MaxRetryAfter: 10 * time.Second, UserAgent: "ua"}, s)

	assert.EqualError(t, s.SetHTTPClient(nil), "vX: WithHTTPClient: nil client")
	assert.EqualError(t, s.SetRootCAs(nil), "vX: WithRootCAs: nil pool")
	assert.EqualError(t, s.SetTimeout(0), "vX: WithTimeout: 0s is not a positive duration")
	assert.EqualError(t, s.SetRetries(-1, time.Second), "vX: WithRetries(-1, 1s): negative value")
	assert.EqualError(t, s.SetUserAgent("a\nb"), "vX: WithUserAgent: not a valid header value")
	assert.Equal(t, NewSettings("vX", "ua"), s, "a refused value changes nothing")

	hc := &http.Client{}
	require.NoError(t, s.SetHTTPClient(hc))
	require.NoError(t, s.SetTimeout(time.Second))
	require.NoError(t, s.SetRetries(0, 0))
	require.NoError(t, s.SetUserAgent("other"))
	assert.Same(t, hc, s.HTTPClient)
	assert.Equal(t, time.Second, s.Timeout)
	assert.Equal(t, 0, s.MaxRetries)
	assert.Equal(t, time.Duration(0), s.BaseBackoff)
	assert.Equal(t, "other", s.UserAgent)
}

func TestBackoffDoublesWithJitterAndIsCapped(t *testing.T) {
	for range 200 {
		for attempt, full := range map[int]time.Duration{
			1: 200 * time.Millisecond, 2: 400 * time.Millisecond, 3: 800 * time.Millisecond,
			10: 5 * time.Second, 70: 5 * time.Second,
		} {
			d := Backoff(attempt, 200*time.Millisecond, 5*time.Second)
			assert.GreaterOrEqual(t, d, full/2, "attempt %d", attempt)
			assert.LessOrEqual(t, d, full, "attempt %d", attempt)
		}
	}
	assert.Equal(t, time.Duration(0), Backoff(3, 0, 5*time.Second), "zero base: immediate")
	assert.LessOrEqual(t, Backoff(5, 8*time.Second, time.Second), 8*time.Second, "a base above the cap is the cap")
}

func TestRetryWait(t *testing.T) {
	ctx := context.Background()
	w, ok := RetryWait(ctx, time.Second, 0, 10*time.Second)
	assert.True(t, ok)
	assert.Equal(t, time.Second, w)
	w, ok = RetryWait(ctx, time.Second, 3*time.Second, 10*time.Second)
	assert.True(t, ok)
	assert.Equal(t, 3*time.Second, w, "Retry-After wins when longer")
	_, ok = RetryWait(ctx, time.Second, 11*time.Second, 10*time.Second)
	assert.False(t, ok, "too long a Retry-After goes to the caller")
	dctx, cancel := context.WithTimeout(ctx, 500*time.Millisecond)
	defer cancel()
	_, ok = RetryWait(dctx, time.Second, 0, 10*time.Second)
	assert.False(t, ok, "the deadline comes first")
}

func TestSleepHonoursTheContext(t *testing.T) {
	assert.NoError(t, Sleep(context.Background(), time.Millisecond))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	assert.ErrorIs(t, Sleep(ctx, time.Hour), context.Canceled)
	assert.ErrorIs(t, Sleep(ctx, 0), context.Canceled)
}

// A context that ends during the wait ends it: on a synctest clock the
// hour never passes, and no real time is bet on.
func TestSleepEndsWhenTheContextDoes(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		start := time.Now()
		done := make(chan error, 1)
		go func() { done <- Sleep(ctx, time.Hour) }()
		synctest.Wait() // Sleep is waiting
		cancel()
		assert.ErrorIs(t, <-done, context.Canceled)
		assert.Zero(t, time.Since(start), "none of the hour was waited")

		start = time.Now()
		assert.NoError(t, Sleep(context.Background(), time.Hour))
		assert.Equal(t, time.Hour, time.Since(start), "without a cancel, the whole hour")
	})
}
