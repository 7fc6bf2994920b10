package sandbox

import (
	"bytes"
	"crypto/tls"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// Tests talk to a real sandbox over HTTPS, trusting only its CA, with plain
// net/http: the paydash client is deliberately not used here.

// eventually bounds a wait for something asynchronous (a callback
// delivery, a log line written as a request ends, the real-time settler):
// long enough that no load makes it run out, since it only ever delays a
// test that is failing anyway. Timing itself is tested on fake clocks (a
// fakeClock, or a synctest bubble: bubble_test.go), never on this.
const eventually = time.Minute

// patience is the HTTP clients' timeout: there only so that a hung request
// fails its test rather than the whole run.
const patience = 2 * time.Minute

// fakeClock is a store clock the test moves by hand.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func newFakeClock() *fakeClock {
	return &fakeClock{t: time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func start(t testing.TB, opts Options) *Server {
	t.Helper()
	srv, err := Start(t.Context(), opts)
	require.NoError(t, err)
	t.Cleanup(func() { _ = srv.Close() })
	return srv
}

type client struct {
	t     testing.TB
	base  string
	hc    *http.Client
	token string
}

func newClient(t testing.TB, srv *Server) *client {
	tr := &http.Transport{TLSClientConfig: &tls.Config{RootCAs: srv.CertPool()}}
	t.Cleanup(tr.CloseIdleConnections)
	return &client{t: t, base: srv.BaseURL(), hc: &http.Client{Transport: tr, Timeout: patience}, token: srv.Store().V2Token()}
}

// call sends a request; body is nil (none), a string or []byte (sent as
// is), or anything else (sent as JSON). headers are name, value pairs.
func (c *client) call(method, path string, body any, headers ...string) (*http.Response, []byte) {
	c.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		j, err := json.Marshal(b)
		require.NoError(c.t, err)
		rd = bytes.NewReader(j)
	}
	req, err := http.NewRequest(method, c.base+path, rd)
	require.NoError(c.t, err)
	if c.token != "" {
		req.Header.Set("Authorization", "Bearer "+c.token)
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := c.hc.Do(req)
	require.NoError(c.t, err)
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	require.NoError(c.t, err)
	return resp, out
}

// want sends a request, checks the status and decodes the answer into out
// (if not nil).
func (c *client) want(status int, method, path string, body, out any, headers ...string) []byte {
	c.t.Helper()
	resp, b := c.call(method, path, body, headers...)
	require.Equal(c.t, status, resp.StatusCode, "%s %s: %s", method, path, b)
	if out != nil {
		require.NoError(c.t, json.Unmarshal(b, out), string(b))
	}
	return b
}

// wantError checks an error answer: status, code and (if given) a piece of
// the message or of one of the listed problems.
func (c *client) wantError(status int, code, contains, method, path string, body any, headers ...string) apiError {
	c.t.Helper()
	var e apiError
	c.want(status, method, path, body, &e, headers...)
	require.Equal(c.t, code, e.Code, "%+v", e)
	if contains != "" {
		all := e.Message + "\n" + strings.Join(e.Errors, "\n")
		require.Contains(c.t, all, contains)
	}
	return e
}

type apiError struct {
	Code    string   `json:"code"`
	Message string   `json:"message"`
	Errors  []string `json:"errors"`
}

type tAmount struct {
	Value    json.Number `json:"value"`
	Currency string      `json:"currency"`
}

type tPayment struct {
	ID           string  `json:"id"`
	Created      string  `json:"created"`
	Completed    string  `json:"completed"`
	Status       string  `json:"status"`
	ResultCode   string  `json:"resultCode"`
	MerchantID   string  `json:"merchantId"`
	Amount       tAmount `json:"amount"`
	Confirmation *struct {
		Type          string `json:"type"`
		PaymentURL    string `json:"paymentUrl"`
		UniversalLink *bool  `json:"universalLink"`
		Instruction   string `json:"instruction"`
		MaskedPhone   string `json:"maskedPhone"`
		MethodURL     string `json:"methodUrl"`
		TransactionID string `json:"transactionId"`
		AcsURL        string `json:"acsUrl"`
		CReq          string `json:"creq"`
		PAReq         string `json:"PAReq"`
	} `json:"confirmation"`
	PaymentToken *struct {
		ID      string `json:"id"`
		Title   string `json:"title"`
		Expires string `json:"expires"`
	} `json:"paymentToken"`
	PaymentData *struct {
		PaymentMethod          string `json:"paymentMethod"`
		PaymentInstrumentTitle string `json:"paymentInstrumentTitle"`
		CardInfo               *struct {
			Brand string `json:"brand"`
		} `json:"cardInfo"`
	} `json:"paymentData"`
}

type tRefund struct {
	ID         string  `json:"id"`
	PaymentID  string  `json:"paymentId"`
	Status     string  `json:"status"`
	ResultCode string  `json:"resultCode"`
	Amount     tAmount `json:"amount"`
}

type tToken struct {
	ID           string `json:"id"`
	Status       string `json:"status"`
	ResultCode   string `json:"resultCode"`
	Title        string `json:"title"`
	Expires      string `json:"expires"`
	Confirmation *struct {
		Type       string `json:"type"`
		PaymentURL string `json:"paymentUrl"`
	} `json:"confirmation"`
}

type tSticker struct {
	ID      string   `json:"id"`
	Status  string   `json:"status"`
	Payload string   `json:"payload"`
	Amount  *tAmount `json:"amount"`
}

// cardPayment is a direct payment request body.
func cardPayment(merchant, pan, value string, extra ...func(map[string]any)) map[string]any {
	body := map[string]any{
		"merchantId": merchant,
		"invoice":    map[string]any{"description": "Test order", "orderNo": "T-1"},
		"amount":     map[string]any{"value": json.Number(value), "currency": "RUB"},
		"paymentData": map[string]any{
			"paymentMethod": "bankcard",
			"card":          map[string]any{"pan": pan, "expiry": "12/30", "cvc": "123"},
		},
		"customer": map[string]any{"ip": "127.0.0.1", "phone": "79161234567", "email": "t@example.org"},
	}
	for _, f := range extra {
		f(body)
	}
	return body
}

func dual(b map[string]any) { b["dualMode"] = true }

func callback(url string) func(map[string]any) {
	return func(b map[string]any) { b["protocol"] = map[string]any{"callbackUrl": url} }
}

func (c *client) pay(body any) tPayment {
	c.t.Helper()
	var p tPayment
	c.want(http.StatusOK, "POST", "/api/v2/payments", body, &p)
	return p
}

func (c *client) getPayment(id string) tPayment {
	c.t.Helper()
	var p tPayment
	c.want(http.StatusOK, "GET", "/api/v2/payments/"+id, nil, &p)
	return p
}
