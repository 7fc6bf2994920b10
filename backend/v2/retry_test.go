package v2_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend/internal/testkit"
	"paydash/backend/money"
	v2 "paydash/backend/v2"
)

const refundAnswer = `{"id":"r1","created":"2024-05-01T10:00:00Z","paymentId":"p1","amount":{"value":5,"currency":"RUB"},"status":"Pending"}`

func TestGETIsRetriedOn503ThenSucceeds(t *testing.T) {
	s := newServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if n < 2 {
			reply(http.StatusServiceUnavailable, `{"code":"unavailable","message":"try later"}`)(w, r, n)
			return
		}
		reply(http.StatusOK, paymentAnswer)(w, r, n)
	})
	var mu sync.Mutex
	var log []v2.RequestLogEntry
	c := newClient(t, s, v2.WithRequestLog(func(e v2.RequestLogEntry) {
		mu.Lock()
		defer mu.Unlock()
		log = append(log, e)
	}))

	p, resp, err := c.Payments.Get(context.Background(), "p1")
	require.NoError(t, err)
	assert.Equal(t, "p1", p.ID)
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Len(t, s.requests(), 3)

	mu.Lock()
	defer mu.Unlock()
	require.Len(t, log, 3)
	for i, e := range log {
		assert.Equal(t, i+1, e.Attempt)
		assert.Equal(t, http.MethodGet, e.Method)
		assert.Equal(t, "/api/v2/payments/p1", e.Path)
	}
	assert.Equal(t, http.StatusServiceUnavailable, log[0].Status)
	assert.True(t, v2.IsServerError(log[0].Err))
	assert.Equal(t, http.StatusOK, log[2].Status)
	assert.NoError(t, log[2].Err)
	assert.NotContains(t, fmt.Sprintf("%#v", log), testToken)
}

func TestKeyedPOSTIsRetriedWithTheSameKeyAndBody(t *testing.T) {
	s := newServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		switch n {
		case 0:
			reply(http.StatusInternalServerError, `{"code":"internal","message":"boom"}`)(w, r, n)
		case 1:
			testkit.DropConnection(w)
		default:
			reply(http.StatusOK, refundAnswer)(w, r, n)
		}
	})
	c := newClient(t, s)
	amount := &money.Amount{Value: money.MustParse("5"), Currency: "RUB"}

	for _, key := range []string{"", "caller-key-42"} {
		t.Run("key="+key, func(t *testing.T) {
			s.mu.Lock()
			s.reqs = nil // the handler counts from here: 500, drop, success
			s.mu.Unlock()
			r, resp, err := c.Refunds.Create(context.Background(), &v2.RefundRequest{PaymentID: "p1", Amount: amount}, &v2.CreateOptions{IdempotencyKey: key})
			require.NoError(t, err)
			assert.Equal(t, "r1", r.ID)

			reqs := s.requests()
			require.GreaterOrEqual(t, len(reqs), 3, "500, dropped connection, success")
			sent := reqs[0].Header.Get("Idempotency-Key")
			require.NotEmpty(t, sent)
			if key != "" {
				assert.Equal(t, key, sent)
			}
			assert.Equal(t, sent, resp.IdempotencyKey)
			for i, req := range reqs {
				assert.Equal(t, sent, req.Header.Get("Idempotency-Key"), "attempt %d", i+1)
				assert.True(t, bytes.Equal(reqs[0].Body, req.Body), "attempt %d sends identical bytes", i+1)
			}
			assert.JSONEq(t, `{"paymentId":"p1","amount":{"value":5,"currency":"RUB"}}`, string(reqs[0].Body))
		})
	}
}

func TestPUTIsNotRetried(t *testing.T) {
	t.Run("503", func(t *testing.T) {
		s := newServer(t, reply(http.StatusServiceUnavailable, `{"code":"unavailable"}`))
		c := newClient(t, s)
		_, err := c.Payments.Confirm(context.Background(), "p1", nil)
		assert.True(t, v2.IsServerError(err))
		_, err = c.Payments.Cancel(context.Background(), "p1")
		assert.True(t, v2.IsServerError(err))
		_, err = c.PaymentTokens.Revoke(context.Background(), "t1")
		assert.True(t, v2.IsServerError(err))
		_, err = c.Stickers.Update(context.Background(), "s1", true)
		assert.True(t, v2.IsServerError(err))
		_, _, err = c.Payments.Complete(context.Background(), "p1", &v2.CompleteRequest{Code: "1"})
		assert.True(t, v2.IsServerError(err))
		assert.Len(t, s.requests(), 5, "one request per call")
	})
	t.Run("dropped connection", func(t *testing.T) {
		s := newServer(t, func(w http.ResponseWriter, _ *http.Request, _ int) { testkit.DropConnection(w) })
		resp, err := newClient(t, s).Payments.Confirm(context.Background(), "p1", &money.Amount{Value: 1, Currency: "RUB"})
		require.Error(t, err)
		var e *v2.Error
		assert.False(t, errors.As(err, &e), "no answer, so no *Error")
		require.NotNil(t, resp)
		assert.Nil(t, resp.Response)
		assert.Len(t, s.requests(), 1)
	})
}

func TestDroppedBodyIsRetried(t *testing.T) {
	s := newServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if n == 0 {
			w.Header().Set("Content-Length", "500")
			w.WriteHeader(http.StatusOK)
			_, _ = w.Write([]byte(`{"id":"p1",`))
			testkit.DropConnection(w)
			return
		}
		reply(http.StatusOK, paymentAnswer)(w, r, n)
	})
	p, _, err := newClient(t, s).Payments.Get(context.Background(), "p1")
	require.NoError(t, err)
	assert.Equal(t, "p1", p.ID)
	assert.Len(t, s.requests(), 2)
}

func TestAttemptTimeoutIsRetried(t *testing.T) {
	s := newServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if n == 0 {
			testkit.NeverAnswer(t, r)
		}
		reply(http.StatusOK, paymentAnswer)(w, r, n)
	})
	// A second per attempt: the retry's TLS handshake and answer fit in it
	// on a loaded machine too.
	c := newClient(t, s, v2.WithTimeout(time.Second))
	var err error
	testkit.ReturnsWithin(t, "a server that never answers", func() { _, _, err = c.Payments.Get(context.Background(), "p1") })
	require.NoError(t, err)
	assert.Len(t, s.requests(), 2)
}

func TestRetryAfterIsHonoured(t *testing.T) {
	s := newServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if n == 0 {
			w.Header().Set("Retry-After", "1")
			reply(http.StatusTooManyRequests, `{"code":"rate_limited"}`)(w, r, n)
			return
		}
		reply(http.StatusOK, `{"items":[]}`)(w, r, n)
	})
	start := time.Now()
	_, _, err := newClient(t, s).Payments.List(context.Background(), v2.ListParams{MerchantID: "m1"})
	require.NoError(t, err)
	assert.GreaterOrEqual(t, time.Since(start), time.Second, "waited as asked, not the 1ms backoff")
	assert.Len(t, s.requests(), 2)
}

func TestLongRetryAfterIsHandedToTheCaller(t *testing.T) {
	s := newServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		w.Header().Set("Retry-After", "3600")
		reply(http.StatusTooManyRequests, `{"code":"rate_limited"}`)(w, r, n)
	})
	c := newClient(t, s)
	var err error
	testkit.ReturnsWithin(t, "Retry-After: 3600", func() { _, _, err = c.Payments.Get(context.Background(), "p1") })
	assert.True(t, v2.IsRateLimited(err))
	var e *v2.Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, time.Hour, e.RetryAfter)
	assert.Len(t, s.requests(), 1)
}

func TestRetryBoundIsRespected(t *testing.T) {
	s := newServer(t, reply(http.StatusServiceUnavailable, `{"code":"unavailable"}`))
	_, _, err := newClient(t, s, v2.WithRetries(2, time.Millisecond)).Stickers.Get(context.Background(), "s1")
	assert.True(t, v2.IsServerError(err))
	assert.Len(t, s.requests(), 3, "the first try and 2 retries")

	s2 := newServer(t, reply(http.StatusServiceUnavailable, `{"code":"unavailable"}`))
	_, _, err = newClient(t, s2, v2.WithRetries(0, time.Millisecond)).Stickers.Get(context.Background(), "s1")
	assert.True(t, v2.IsServerError(err))
	assert.Len(t, s2.requests(), 1, "retries disabled")
}

// The cancel comes once the first answer is in (the request log is written
// after it is read), just before the client's wait or during it: either
// way a client whose wait follows the context returns at once, and one
// whose wait does not sits out a backoff of 30 to 60 minutes. The wait
// ending mid-way is transport's TestSleepEndsWhenTheContextDoes.
func TestCancelStopsTheBackoff(t *testing.T) {
	s := newServer(t, reply(http.StatusServiceUnavailable, `{"code":"unavailable"}`))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c := newClient(t, s, v2.WithRetries(5, time.Hour), v2.WithRequestLog(func(e v2.RequestLogEntry) {
		if e.Attempt == 1 {
			go cancel()
		}
	}))

	var err error
	testkit.ReturnsWithin(t, "a cancel at an hour-long backoff", func() { _, _, err = c.Payments.Get(ctx, "p1") })
	assert.ErrorIs(t, err, context.Canceled)
	assert.True(t, v2.IsServerError(err), "the last answer is still in the error")
	assert.Len(t, s.requests(), 1)
}

// The backoff (30 to 60 minutes) is longer than what is left of the
// caller's five minutes: the client gives up at once rather than wait for
// the deadline.
func TestDeadlineShorterThanBackoffGivesUpAtOnce(t *testing.T) {
	s := newServer(t, reply(http.StatusBadGateway, `{"code":"bad_gateway"}`))
	c := newClient(t, s, v2.WithRetries(5, time.Hour))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	var err error
	testkit.ReturnsWithin(t, "a deadline before the backoff ends", func() { _, _, err = c.Refunds.Get(ctx, "r1") })
	assert.True(t, v2.IsServerError(err))
	assert.Len(t, s.requests(), 1)
}

func TestCancelledContextSendsNothing(t *testing.T) {
	s := newServer(t, reply(http.StatusOK, paymentAnswer))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, _, err := newClient(t, s).Payments.Get(ctx, "p1")
	assert.ErrorIs(t, err, context.Canceled)
	assert.Empty(t, s.requests())
}

func TestKeyIsReturnedWhenNoAnswerCame(t *testing.T) {
	s := newServer(t, func(w http.ResponseWriter, _ *http.Request, _ int) { testkit.DropConnection(w) })
	_, resp, err := newClient(t, s, v2.WithRetries(1, time.Millisecond)).Stickers.Create(context.Background(),
		&v2.StickerRequest{MerchantID: "m1"}, &v2.CreateOptions{IdempotencyKey: "k-9"})
	require.Error(t, err)
	require.NotNil(t, resp, "the caller needs the key to retry by hand")
	assert.Nil(t, resp.Response)
	assert.Equal(t, "k-9", resp.IdempotencyKey)
	assert.False(t, strings.Contains(err.Error(), testToken))
	for _, r := range s.requests() {
		assert.Equal(t, "k-9", r.Header.Get("Idempotency-Key"))
	}
}
