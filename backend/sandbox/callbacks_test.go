package sandbox

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// receiver is a merchant's callback endpoint that fails its first `failures` calls.
type receiver struct {
	mu       sync.Mutex
	failures int
	calls    []received
}

type received struct {
	body          map[string]any
	contentType   string
	authorization string
}

func (rc *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	rc.mu.Lock()
	rc.calls = append(rc.calls, received{m, r.Header.Get("Content-Type"), r.Header.Get("Authorization")})
	fail := len(rc.calls) <= rc.failures
	rc.mu.Unlock()
	if fail {
		http.Error(w, "busy", http.StatusServiceUnavailable)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (rc *receiver) snapshot() []received {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]received(nil), rc.calls...)
}

func TestCallbacksDeliveredAndRetried(t *testing.T) {
	rc := &receiver{failures: 2}
	hook := httptest.NewServer(rc)
	defer hook.Close()
	srv := start(t, Options{CallbackBackoff: 20 * time.Millisecond, SettleDelay: 50 * time.Millisecond})
	c := newClient(t, srv)

	p := c.pay(cardPayment("1001", "4000000000000077", "123.45", callback(hook.URL+"/cb")))
	require.Eventually(t, func() bool { return len(rc.snapshot()) == 3 }, eventually, 10*time.Millisecond,
		"two failures, then the third try succeeds")
	calls := rc.snapshot()
	for _, call := range calls {
		assert.Equal(t, "application/json", call.contentType)
		assert.Empty(t, call.authorization)
		assert.Equal(t, calls[0].body, call.body, "retries send the same body")
	}
	body := calls[0].body
	assert.Equal(t, p.ID, body["id"])
	assert.Equal(t, "Confirmation", body["status"])
	assert.Equal(t, "1001", body["merchantId"])
	assert.Equal(t, false, body["testMode"])
	assert.Equal(t, map[string]any{"value": 123.45, "currency": "RUB"}, body["amount"])
	assert.Equal(t, "Test order", body["invoice"].(map[string]any)["description"])
	assert.ElementsMatch(t, []string{"id", "created", "testMode", "status", "merchantId", "invoice", "amount", "paymentData"}, keys(body))

	// complete -> another notification, with the new status.
	c.want(200, "PUT", "/api/v2/payments/"+p.ID+"/complete", map[string]string{"code": "123456"}, nil)
	require.Eventually(t, func() bool { return len(rc.snapshot()) == 4 }, eventually, 10*time.Millisecond)
	assert.Equal(t, "Settled", rc.snapshot()[3].body["status"])

	// Settling by time notifies too. Each delivery runs on its own, so the
	// creation's (Pending) and the settling's may arrive in either order.
	c.pay(cardPayment("1001", "4000000000000259", "5", callback(hook.URL+"/cb")))
	require.Eventually(t, func() bool { return len(rc.snapshot()) == 6 }, eventually, 10*time.Millisecond)
	calls = rc.snapshot()
	assert.ElementsMatch(t, []any{"Pending", "Settled"}, []any{calls[4].body["status"], calls[5].body["status"]})

	// Token status changes notify the token's callbackUrl.
	var tok tToken
	c.want(200, "POST", "/api/v2/paymenttokens", map[string]any{"merchantId": "1002",
		"paymentData": map[string]any{"card": map[string]any{"pan": "4111111111111111"}},
		"protocol":    map[string]any{"callbackUrl": hook.URL + "/token"}}, &tok)
	c.want(200, "PUT", "/api/v2/paymenttokens/"+tok.ID+"/complete", nil, nil)
	require.Eventually(t, func() bool { return len(rc.snapshot()) == 7 }, eventually, 10*time.Millisecond)
	tb := rc.snapshot()[6].body
	assert.Equal(t, tok.ID, tb["id"])
	assert.Equal(t, "Active", tb["status"])
	assert.Equal(t, "Visa *1111", tb["title"])
	assert.ElementsMatch(t, []string{"id", "status", "title", "expires"}, keys(tb))
}

func TestCallbackGivesUpAfterFiveRetries(t *testing.T) {
	rc := &receiver{failures: 100}
	hook := httptest.NewServer(rc)
	defer hook.Close()
	srv := start(t, Options{CallbackBackoff: 5 * time.Millisecond})
	c := newClient(t, srv)
	c.pay(cardPayment("1001", "4111111111111111", "1", callback(hook.URL)))
	// The delivery ends (given up), and no try follows: nothing is left
	// running to make one.
	srv.deliver.running.Wait()
	assert.Len(t, rc.snapshot(), 6, "one try and five retries, then it gives up")
}

// countingTransport records every request the callback sender would make.
type countingTransport struct{ n atomic.Int32 }

func (ct *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	ct.n.Add(1)
	return &http.Response{StatusCode: 204, Body: io.NopCloser(bytes.NewReader(nil)), Request: r}, nil
}

func TestCallbacksOnlyToLoopback(t *testing.T) {
	var logs bytes.Buffer
	var logMu sync.Mutex
	logger := slog.New(slog.NewTextHandler(lockedWriter{&logs, &logMu}, &slog.HandlerOptions{Level: slog.LevelDebug}))
	// Time moves when the test says: every settling below has happened,
	// its callback sent or dropped, when Advance returns.
	clock := newFakeClock()
	srv := start(t, Options{Payments: 100, Now: clock.Now, Logger: logger, SettleDelay: 10 * time.Millisecond})
	ct := &countingTransport{}
	srv.deliver.client.Transport = ct
	c := newClient(t, srv)
	for _, u := range []string{"http://203.0.113.7/cb", "https://merchant.example.com/hook", "http://10.0.0.1:8080/", "http://localhost.example.com/"} {
		c.pay(cardPayment("1001", "4000000000000259", "1", callback(u)))
	}
	// Seeded payments settling by time (the seed's live part, arrivals)
	// point at example hosts.
	for range 3 {
		srv.Store().Arrive()
	}
	moved, err := srv.Store().Advance(time.Minute)
	require.NoError(t, err)
	require.GreaterOrEqual(t, moved, 4+3, "the payments above, the arrivals and the seed's live part moved")
	srv.deliver.running.Wait()
	assert.Zero(t, ct.n.Load(), "nothing is sent to a non-loopback address")
	logMu.Lock()
	assert.Contains(t, logs.String(), "callback dropped")
	logMu.Unlock()

	// The same sender does deliver to loopback.
	c.pay(cardPayment("1001", "4111111111111111", "1", callback("http://127.0.0.1:9/cb")))
	srv.deliver.running.Wait()
	assert.Equal(t, int32(1), ct.n.Load())

	for u, ok := range map[string]bool{
		"http://127.0.0.1:8080/cb": true, "https://localhost/x": true, "http://[::1]:9/": true, "http://127.8.9.10/": true,
		"http://example.com/": false, "http://192.168.1.1/": false, "http://[::ffff:8.8.8.8]/": false, "file:///etc/passwd": false,
		"http://localhost.evil/": false, "": false,
	} {
		assert.Equal(t, ok, checkCallbackURL(u) == nil, u)
	}
}

func TestCallbackDialerRefusesNonLoopback(t *testing.T) {
	d := newDeliverer(nil, time.Millisecond, slog.New(slog.DiscardHandler))
	defer d.close()
	// Even past the URL check, the dialer refuses a non-loopback address.
	err := d.post(notification{URL: "http://192.0.2.1:9/", Body: []byte(`{}`)})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "not a loopback address")
}

type lockedWriter struct {
	w  io.Writer
	mu *sync.Mutex
}

func (l lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
