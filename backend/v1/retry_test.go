package v1_test

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend/internal/testkit"
	v1 "paydash/backend/v1"
)

var reads = map[string]bool{
	"getPayment": true, "getPaymentByInvoiceID": true, "listPaymentsFilter": true, "listRefunds": true,
	"listDocuments": true, "getDocumentContent": true, "listTransfers": true, "getTransferRegister": true,
}

// Every read is retried after a 503 and a 500, each attempt
// with a fresh nonce and a hash that is right for it; refundPayment,
// confirmPayment and cancelPayment are sent once whatever happens.
func TestRetriesOnlyReadsEachWithAFreshNonce(t *testing.T) {
	for _, tc := range opCases() {
		t.Run(tc.name, func(t *testing.T) {
			s := newServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
				switch n {
				case 0:
					reply(http.StatusServiceUnavailable, "busy")(w, r, n)
				case 1:
					reply(http.StatusInternalServerError, "boom")(w, r, n)
				default:
					reply(http.StatusOK, tc.answer)(w, r, n)
				}
			})
			var mu sync.Mutex
			var log []v1.RequestLogEntry
			c := newClient(t, s, v1.WithRequestLog(func(e v1.RequestLogEntry) {
				mu.Lock()
				defer mu.Unlock()
				log = append(log, e)
			}))
			err := tc.call(context.Background(), c)
			reqs := s.requests()
			op := tc.path[len("/api/v1/"):]
			if !reads[op] {
				require.True(t, v1.IsServerFailure(err), "%v", err)
				require.Len(t, reqs, 1, "%s is never retried", op)
				return
			}
			require.NoError(t, err)
			require.Len(t, reqs, 3)
			nonces := map[string]bool{}
			for _, r := range reqs {
				nonces[r.Form.Get("nonce")] = true
				assert.Equal(t, wantHash(r.Form, testkit.V1Hashed[strings.TrimPrefix(r.Path, "/api/v1/")]...), r.Form.Get("hash"), "the hash matches the attempt's nonce")
			}
			assert.Len(t, nonces, 3, "a fresh nonce on every attempt")
			mu.Lock()
			defer mu.Unlock()
			require.Len(t, log, 3)
			for i, e := range log {
				assert.Equal(t, i+1, e.Attempt)
				assert.Equal(t, op, e.Operation)
			}
			assert.Equal(t, http.StatusServiceUnavailable, log[0].Status)
			assert.True(t, v1.IsServerFailure(log[0].Err))
			assert.Equal(t, http.StatusInternalServerError, log[1].Status)
			assert.Error(t, log[1].Err)
			assert.Equal(t, http.StatusOK, log[2].Status)
			assert.NoError(t, log[2].Err)
		})
	}
}

func TestWritesAreNotRetriedOnADroppedConnection(t *testing.T) {
	s := newServer(t, func(w http.ResponseWriter, r *http.Request, n int) { testkit.DropConnection(w) })
	c := newClient(t, s)
	ctx := context.Background()
	_, resp, err := c.RefundPayment(ctx, v1.RefundRequest{PaymentID: "1", Amount: "1.00", ExternalID: "X"})
	require.Error(t, err)
	assert.NotEmpty(t, resp.Nonce)
	_, _, err = c.ConfirmPayment(ctx, "1", "1.00")
	require.Error(t, err)
	_, _, err = c.CancelPayment(ctx, "1", 0)
	require.Error(t, err)
	assert.Len(t, s.requests(), 3)
}

func TestRetriesAreBounded(t *testing.T) {
	s := newServer(t, reply(http.StatusBadGateway, "down"))
	c := newClient(t, s, v1.WithRetries(2, time.Millisecond))
	_, _, err := c.GetPayment(context.Background(), "1")
	require.True(t, v1.IsServerFailure(err))
	assert.Len(t, s.requests(), 3, "1 + 2 retries")

	s.reset()
	c = newClient(t, s, v1.WithRetries(0, time.Millisecond))
	_, _, err = c.ListTransfers(context.Background(), v1.PeriodFilter{})
	require.True(t, v1.IsServerFailure(err))
	assert.Len(t, s.requests(), 1)
}

// An answer with an ErrorCode, or a whole document without what was asked
// for, is not retried: the service answered, and would answer the same.
func TestAnswersAreNotRetried(t *testing.T) {
	for _, body := range []string{`{"ErrorCode":-1,"Message":"system failure"}`, `{"ErrorCode":-2}`, `{"ErrorCode":0}`,
		`<Response><ErrorCode>0</ErrorCode></Response>`} {
		s := newServer(t, reply(http.StatusOK, body))
		c := newClient(t, s)
		_, _, err := c.GetPayment(context.Background(), "1")
		require.Error(t, err)
		assert.Len(t, s.requests(), 1, body)
	}
}

// A read's answer garbled on its way (cut short, not JSON or XML at all)
// is asked for again, with a fresh nonce: a read changes nothing. A
// refund's is not: it may have been made.
func TestGarbledAnswerToAReadIsAskedAgain(t *testing.T) {
	for _, garbled := range []string{answerPayment[:len(answerPayment)/2], "nonsense", "", "<Response><ErrorCode>0</Error"} {
		s := newServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
			if n == 0 {
				reply(http.StatusOK, garbled)(w, r, n)
				return
			}
			reply(http.StatusOK, answerPayment)(w, r, n)
		})
		_, _, err := newClient(t, s).GetPayment(context.Background(), "1")
		require.NoError(t, err, "body %q", garbled)
		reqs := s.requests()
		require.Len(t, reqs, 2)
		assert.NotEqual(t, reqs[0].Form.Get("nonce"), reqs[1].Form.Get("nonce"))
	}

	s := newServer(t, reply(http.StatusOK, `{"ErrorCode":0,"Refund":{"RefundID":`))
	_, _, err := newClient(t, s).RefundPayment(context.Background(), v1.RefundRequest{PaymentID: "1", Amount: "5.00", ExternalID: "ext-1"})
	require.ErrorIs(t, err, v1.ErrMalformedResponse)
	assert.Len(t, s.requests(), 1, "a refund is sent once")
}

func TestRetryWaitsRespectTheContext(t *testing.T) {
	// The backoff (30 to 60 minutes) is longer than what is left of the
	// caller's five minutes: the client gives up at once rather than wait
	// for the deadline.
	s := newServer(t, reply(http.StatusServiceUnavailable, "busy"))
	c := newClient(t, s, v1.WithRetries(5, time.Hour))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	var err error
	testkit.ReturnsWithin(t, "a deadline before the backoff ends", func() { _, _, err = c.GetPayment(ctx, "1") })
	require.True(t, v1.IsServerFailure(err), "%v", err)
	assert.Len(t, s.requests(), 1)

	// Cancelled while waiting: the error says so and keeps the last
	// failure. The cancel comes once the first answer is in (the request
	// log is written after it is read), just before the wait or during
	// it; a client whose wait does not follow the context would sit out
	// the hour.
	s.reset()
	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	c = newClient(t, s, v1.WithRetries(5, time.Hour), v1.WithRequestLog(func(e v1.RequestLogEntry) {
		if e.Attempt == 1 {
			go cancel()
		}
	}))
	testkit.ReturnsWithin(t, "a cancel at an hour-long backoff", func() { _, _, err = c.GetPayment(ctx, "1") })
	require.ErrorIs(t, err, context.Canceled)
	assert.True(t, v1.IsServerFailure(err))
	assert.Len(t, s.requests(), 1)
}

// A per-attempt timeout turns a hung server into a retry.
func TestPerAttemptTimeout(t *testing.T) {
	s := newServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if n == 0 {
			testkit.NeverAnswer(t, r)
		}
		reply(http.StatusOK, answerPayment)(w, r, n)
	})
	// A second per attempt: the retry's TLS handshake and answer fit in it
	// on a loaded machine too.
	c := newClient(t, s, v1.WithTimeout(time.Second))
	var (
		p   *v1.Payment
		err error
	)
	testkit.ReturnsWithin(t, "a server that never answers", func() { p, _, err = c.GetPayment(context.Background(), "1") })
	require.NoError(t, err)
	assert.Equal(t, "43149010", p.PaymentID)
	assert.Len(t, s.requests(), 2)
}

// A dropped connection is retried, with a fresh nonce.
func TestReadIsRetriedAfterADroppedConnection(t *testing.T) {
	s := newServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if n == 0 {
			testkit.DropConnection(w)
			return
		}
		reply(http.StatusOK, answerPayment)(w, r, n)
	})
	c := newClient(t, s)
	_, _, err := c.GetPayment(context.Background(), "1")
	require.NoError(t, err)
	reqs := s.requests()
	require.Len(t, reqs, 2)
	assert.NotEqual(t, reqs[0].Form.Get("nonce"), reqs[1].Form.Get("nonce"))
}

// net/http resends a GET by itself, same nonce, when a kept-alive
// connection breaks before the answer; a server that saw the first copy
// answers -14, and the client tries again with a fresh nonce.
func TestReadIsRetriedAfterNonceReused(t *testing.T) {
	var mu sync.Mutex
	used := map[string]bool{}
	s := newServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		nonce := r.FormValue("nonce")
		mu.Lock()
		seenBefore := used[nonce]
		used[nonce] = true
		mu.Unlock()
		switch {
		case seenBefore:
			reply(http.StatusOK, `{"ErrorCode":-14,"Message":"nonce already used"}`)(w, r, n)
		case n == 1:
			testkit.DropConnection(w) // processed, then the answer is lost
		default:
			reply(http.StatusOK, answerPayment)(w, r, n)
		}
	})
	c := newClient(t, s)
	ctx := context.Background()
	_, _, err := c.GetPayment(ctx, "1") // opens the connection that will be reused
	require.NoError(t, err)
	_, _, err = c.GetPayment(ctx, "2")
	require.NoError(t, err)
	reqs := s.requests()
	require.Len(t, reqs, 4, "ok; dropped; resent by net/http; retried by the client")
	assert.Equal(t, reqs[1].Form.Get("nonce"), reqs[2].Form.Get("nonce"), "net/http resent the GET as it was")
	assert.NotEqual(t, reqs[2].Form.Get("nonce"), reqs[3].Form.Get("nonce"))

	// A constant nonce is reused for real: the retries cannot help, and -14 comes back.
	s.reset()
	c = newClient(t, s, fixedNonce("same"), v1.WithRetries(2, time.Millisecond))
	_, _, err = c.GetPayment(ctx, "1")
	require.NoError(t, err)
	_, _, err = c.GetPayment(ctx, "1")
	assert.True(t, v1.IsNonceReused(err), "%v", err)
	assert.Len(t, s.requests(), 4, "1, then 1 + 2 retries")
	// Writes are not retried on -14 either.
	s.reset()
	_, _, err = c.CancelPayment(ctx, "1", 0)
	assert.True(t, v1.IsNonceReused(err), "%v", err)
	assert.Len(t, s.requests(), 1)
}
