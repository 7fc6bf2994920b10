package sandbox

import (
	"bytes"
	"crypto/tls"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// logBuffer is a logger's output, safe to read while the server writes.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (lb *logBuffer) Write(p []byte) (int, error) {
	lb.mu.Lock()
	defer lb.mu.Unlock()
	return lb.buf.Write(p)
}

func (lb *logBuffer) String() string {
	lb.mu.Lock()
	defer lb.mu.Unlock()
	return lb.buf.String()
}

// requestLines are the request log's lines containing every piece.
func (lb *logBuffer) requestLines(pieces ...string) []string {
	var out []string
	for line := range strings.Lines(lb.String()) {
		if !strings.Contains(line, "msg=request ") {
			continue
		}
		all := true
		for _, p := range pieces {
			all = all && strings.Contains(line, p)
		}
		if all {
			out = append(out, line)
		}
	}
	return out
}

// line waits for a request line containing every piece (the line is
// written as the request ends, possibly just after the client has read the
// answer), and finds no other. That no second line follows later is
// TestOneLinePerRequest's, which counts once the server has stopped.
func (lb *logBuffer) line(t *testing.T, pieces ...string) string {
	t.Helper()
	require.Eventually(t, func() bool { return len(lb.requestLines(pieces...)) > 0 }, eventually, 5*time.Millisecond,
		"no request line with %q in:\n%s", pieces, lb.String())
	lines := lb.requestLines(pieces...)
	require.Len(t, lines, 1, "one line per request: %q", lines)
	assert.Regexp(t, ` duration=\d`, lines[0])
	return lines[0]
}

func startLogged(t *testing.T, opts Options) (*Server, *logBuffer) {
	lb := &logBuffer{}
	opts.Logger = slog.New(slog.NewTextHandler(lb, nil)) // Info, as paydash sandbox -v
	return start(t, opts), lb
}

// Every request is logged once: counted after Close, which returns once
// every handler (and so every line) is done, so a second line cannot come
// after the count.
func TestOneLinePerRequest(t *testing.T) {
	srv, lb := startLogged(t, Options{Payments: 200})
	c := newClient(t, srv)
	body := cardPayment("1001", "4111111111111111", "10")
	c.want(200, "GET", v2PaymentsPath("1001", time.Time{}, time.Time{}), nil, nil)
	c.want(200, "POST", "/api/v2/payments", body, nil, "Idempotency-Key", "one-line")
	c.want(200, "POST", "/api/v2/payments", body, nil, "Idempotency-Key", "one-line")
	c.wantError(404, "invalid_operation", "", "GET", "/api/v2/payments/1", nil)
	require.NoError(t, srv.Close())
	assert.Len(t, lb.requestLines(), 4, "one line for each of the 4 requests:\n%s", lb.String())
}

func TestLogEveryRequest(t *testing.T) {
	srv, lb := startLogged(t, Options{Payments: 200})
	c := newClient(t, srv)
	now := srv.Store().Now()
	day := func(d int) string { return now.AddDate(0, 0, d).Format(time.DateOnly) }

	// A v2 GET: path and query, less anything named like a credential.
	c.want(200, "GET", "/api/v2/payments?merchantId=1001&start="+day(-2)+"&end="+day(1)+"&access_token=QSECRET1&Password=QSECRET2", nil, nil)
	line := lb.line(t, "method=GET", "path=/api/v2/payments ", "status=200")
	assert.Contains(t, line, "query=\"merchantId=1001&start="+day(-2)+"&end="+day(1)+"\"")
	assert.Regexp(t, ` bytes=\d+`, line)
	assert.NotContains(t, line, "idempotencyKey")

	// A keyed POST, and its replay: a line each, with the key.
	body := cardPayment("1001", "4111111111111111", "10")
	var p tPayment
	c.want(200, "POST", "/api/v2/payments", body, &p, "Idempotency-Key", "order-77-pay")
	line = lb.line(t, "method=POST", "path=/api/v2/payments ", "status=200", "idempotencyKey=order-77-pay")
	c.want(200, "POST", "/api/v2/payments", body, nil, "Idempotency-Key", "order-77-pay")
	require.Eventually(t, func() bool {
		return len(lb.requestLines("method=POST", "idempotencyKey=order-77-pay")) == 2
	}, eventually, 5*time.Millisecond)
	assert.NotContains(t, line, "outcome=")

	// A refusal is logged with its status.
	c.wantError(404, "invalid_operation", "", "GET", "/api/v2/payments/1", nil)
	lb.line(t, "method=GET", "path=/api/v2/payments/1 ", "status=404")

	// A key is cut and cleaned: no line breaks in the log, no 100 KB lines.
	long := "k\tfake=line" + strings.Repeat("x", 100_000) // net/http sends no line breaks
	c.call("POST", "/api/v2/stickers", map[string]any{"merchantId": "1001"}, "Idempotency-Key", long)
	line = lb.line(t, "path=/api/v2/stickers ", "idempotencyKey=")
	assert.Contains(t, line, `idempotencyKey="k?fake=linexxx`)
	assert.Contains(t, line, `…"`)
	assert.Less(t, len(line), 400)

	// v1, by GET and by POST: the path, never the query (login, nonce and hash).
	v1 := newV1Client(t, srv, "accountant")
	var sent []string
	for _, method := range []string{"GET", "POST"} {
		nonce := "NONCE" + method + tNonce()
		hash := tSign(v1.login, v1.password, nonce, []string{p.ID})
		resp, b := v1.send(v1Req{method: method, op: "getPayment", params: []string{"paymentID", p.ID}, nonce: nonce, hash: hash})
		require.Equal(t, 200, resp.StatusCode)
		require.Contains(t, string(b), `"ErrorCode":0`)
		sent = append(sent, nonce, hash)
		line = lb.line(t, "method="+method, "path=/api/v1/getPayment ", "status=200")
		assert.NotContains(t, line, "query=")
		assert.NotContains(t, line, "accountant")
	}

	// Faults: an injected error shows its status; a dropped connection is
	// logged as dropped.
	require.NoError(t, srv.SetFaults(Faults{ErrorRate: 1}))
	c.wantError(500, "internal_error", "", "GET", "/api/v2/stickers/20100", nil, "Idempotency-Key", "fault-error")
	lb.line(t, "path=/api/v2/stickers/20100 ", "status=500", "idempotencyKey=fault-error")
	require.NoError(t, srv.SetFaults(Faults{DropRate: 1}))
	req, _ := http.NewRequest("POST", srv.BaseURL()+"/api/v2/stickers", strings.NewReader(`{"merchantId":"1001"}`))
	req.Header.Set("Authorization", "Bearer "+c.token)
	req.Header.Set("Idempotency-Key", "fault-drop")
	// A new connection: net/http retries a keyed request once when a reused
	// connection closes, which would make a second line.
	fresh := &http.Transport{TLSClientConfig: &tls.Config{RootCAs: srv.CertPool()}}
	defer fresh.CloseIdleConnections()
	_, err := (&http.Client{Transport: fresh, Timeout: 5 * time.Second}).Do(req)
	require.Error(t, err)
	line = lb.line(t, "method=POST", "path=/api/v2/stickers ", "idempotencyKey=fault-drop")
	assert.Contains(t, line, "status=0")
	assert.Contains(t, line, "outcome=dropped")
	require.NoError(t, srv.SetFaults(Faults{}))

	// No token is refused, and still logged.
	c.token = ""
	c.wantError(401, "not_authorized", "", "GET", "/api/v2/stickers/20100", nil)
	lb.line(t, "path=/api/v2/stickers/20100 ", "status=401")

	logs := lb.String()
	secrets := append([]string{srv.Store().V2Token(), srv.Store().V2ReadOnlyToken(), "QSECRET1", "QSECRET2", "Bearer"}, sent...)
	for _, u := range srv.Store().V1Users() {
		secrets = append(secrets, u.Password)
	}
	for _, secret := range secrets {
		assert.NotContains(t, logs, secret)
	}
}

func TestLogLeavesRequestsAloneWhenDiscarding(t *testing.T) {
	var got http.ResponseWriter
	next := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { got = w })
	rec := httptest.NewRecorder()
	s := &Server{log: slog.New(slog.DiscardHandler)}
	s.logRequests(next).ServeHTTP(rec, httptest.NewRequest("GET", "/api/v2/payments", nil))
	assert.Same(t, rec, got, "no wrapping when the logger discards Info")

	warnOnly := slog.New(slog.NewTextHandler(&bytes.Buffer{}, &slog.HandlerOptions{Level: slog.LevelWarn}))
	s = &Server{log: warnOnly}
	s.logRequests(next).ServeHTTP(rec, httptest.NewRequest("GET", "/api/v2/payments", nil))
	assert.Same(t, rec, got)
}

func TestLogQueryAndCleaning(t *testing.T) {
	for _, c := range []struct{ path, query, want string }{
		{"/api/v2/payments", "merchantId=1001&start=2026-01-01&end=2026-02-01&cursor=abc", "merchantId=1001&start=2026-01-01&end=2026-02-01&cursor=abc"},
		{"/api/v2/payments", "merchantId=1001&token=x&AccessToken=y&pass%77ord=z&hash=h&nonce=n&api_key=k&secret=s&Authorization=a&signature=g", "merchantId=1001"},
		{"/api/v1/getPayment", "login=cashier&nonce=n&hash=h&paymentID=1", ""},
		{"/API/V1/listPaymentsFilter", "paymentID=1", ""},
		{"/api/v2/payments", "", ""},
	} {
		assert.Equal(t, c.want, loggableQuery(c.path, c.query), "%s?%s", c.path, c.query)
	}
	assert.Equal(t, "abc", clean("abc", 10))
	assert.Equal(t, "a?b?", clean("a\nb\x7f", 10))
	assert.Equal(t, "abcd…", clean("abcdefgh", 4))
	assert.Equal(t, "ab…", clean("abé", 3), "a character cut in two is left out")
	assert.Equal(t, "?x", clean("\xffx", 10))
}
