// Package v2 is a typed client of the payment acceptance service's current
// interface, /api/v2: JSON over HTTPS with a bearer token.
//
// One service per resource hangs off Client (Payments, Refunds, Stickers...).
// Every method takes a context and returns the decoded answer, a *Response
// (raw body, the Idempotency-Key sent, the next-page cursor) and an error.
// When the service answered with an error, the error is an *Error; test it
// with IsNotFound, IsRateLimited and the other Is* helpers.
//
// Retries are automatic but narrow (docs/service.md): only GETs and creating POSTs,
// which always carry an Idempotency-Key, are repeated, and only on network
// failures, 429 and 5xx, and (GETs only) an answer garbled on its way. PUTs
// (confirm, cancel, revoke...) are never repeated: the service does not
// make them idempotent.
package v2

import (
	"bytes"
	"context"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"paydash/backend/textsafe"
	"paydash/backend/transport"
	"reflect"
	"strings"
	"time"
)

// The timeout, retry and backoff defaults are in transport (DefaultTimeout...),
// shared with the v1 client: a slow answer is better than none, but not after
// minutes.
const (
	maxBackoff          = transport.MaxBackoff // one backoff step never waits longer
	maxBodyBytes        = 32 << 20             // a page of 100 payments is ~100 KB; this is a runaway guard
	defaultUserAgent    = "paydash-v2-client"
	apiPrefix           = "/api/v2"
	contentTypeJSON     = "application/json"
	headerIdempotency   = "Idempotency-Key"
	headerRetryAfter    = "Retry-After"
	headerAuthorization = "Authorization"
)

// Client talks to one service with one bearer token. It is safe for
// concurrent use; create one and share it.
type Client struct {
	Invoices      *InvoicesService
	Payments      *PaymentsService
	Refunds       *RefundsService
	Tokenization  *TokenizationService
	PaymentTokens *PaymentTokensService
	Stickers      *StickersService

	base      string // scheme://host[:port][/prefix], without a trailing slash
	token     string // never logged, never put in an error
	userAgent string
	http      *http.Client

	timeout       time.Duration // per attempt
	maxRetries    int
	baseBackoff   time.Duration
	maxBackoff    time.Duration
	maxRetryAfter time.Duration
	logRequest    func(RequestLogEntry)
	answerLimit   int64 // the largest answer read: maxBodyBytes (tests make it smaller)

	// What the options set; only read while NewClient builds the client.
	cfg transport.Settings
}

// service is what every resource service is: a handle on the shared client.
type service struct{ client *Client }

// Response is the HTTP answer behind a call, kept for the UI's raw view and
// for retrying a create by hand. Methods return a nil *Response only when
// they fail before sending anything (an empty id, a nil request).
type Response struct {
	*http.Response // nil when no answer came (network failure); its Body is already read and closed

	Body           []byte // the raw body as received, BOM and all
	IdempotencyKey string // the key sent with a creating POST, so a caller can retry with the same key
	Cursor         string // the next-page cursor of a list answer; "" on the last page
}

// RequestLogEntry describes one attempt of one request. It deliberately has
// no headers and no body: the bearer token and card data must not reach a log.
type RequestLogEntry struct {
	Method         string
	Path           string // escaped path with its query, e.g. /api/v2/payments?merchantId=m1
	Status         int    // 0 when no answer came
	Duration       time.Duration
	Attempt        int    // 1 for the first try
	IdempotencyKey string // "" unless a creating POST
	Err            error  // nil on success
}

// Option configures a Client in NewClient.
type Option func(*Client) error

// WithHTTPClient uses hc (its transport, proxy, jar) instead of the client's
// own. Redirects are never followed either way: the service does not send
// them, and following one could carry the bearer token elsewhere.
func WithHTTPClient(hc *http.Client) Option {
	return func(c *Client) error { return c.cfg.SetHTTPClient(hc) }
}

// WithRootCAs makes TLS verification trust the certificates in pool, such as
// the sandbox's self-made CA. The pool replaces the system roots, as in
// crypto/tls; to trust both, start from x509.SystemCertPool and add to it.
// Verification is never switched off.
func WithRootCAs(pool *x509.CertPool) Option {
	return func(c *Client) error { return c.cfg.SetRootCAs(pool) }
}

// WithTimeout bounds each attempt of a request (default 30s), including
// reading the answer. The caller's context still bounds the whole call.
func WithTimeout(d time.Duration) Option {
	return func(c *Client) error { return c.cfg.SetTimeout(d) }
}

// WithRetries sets how many times a retryable request is repeated (default
// 3; 0 disables retries) and the first backoff (default 200ms), which doubles
// on each retry with jitter, up to 5s per wait.
func WithRetries(max int, baseBackoff time.Duration) Option {
	return func(c *Client) error { return c.cfg.SetRetries(max, baseBackoff) }
}

// WithUserAgent sets the User-Agent header.
func WithUserAgent(ua string) Option {
	return func(c *Client) error { return c.cfg.SetUserAgent(ua) }
}

// WithRequestLog calls f after every attempt of every request. f runs on the
// caller's goroutine, so it must be quick and safe for concurrent use.
func WithRequestLog(f func(RequestLogEntry)) Option {
	return func(c *Client) error {
		c.logRequest = f
		return nil
	}
}

// NewClient returns a client of the service at baseURL (the address without
// /api/v2) that authenticates with the bearer token.
//
// baseURL must be https; plain http is accepted only for a loopback host
// (127.0.0.0/8, ::1, localhost), where nothing crosses a network. A URL with
// user info, a query or a fragment is refused.
func NewClient(baseURL, token string, opts ...Option) (*Client, error) {
	base, err := transport.CheckBaseURL(baseURL)
	if err != nil {
		return nil, fmt.Errorf("v2: %w", err)
	}
	if token == "" {
		return nil, errors.New("v2: empty bearer token")
	}
	if !validHeaderValue(token) || strings.ContainsRune(token, ' ') {
		// The message must not quote the token.
		return nil, errors.New("v2: the bearer token has characters a header cannot carry")
	}
	c := &Client{
		base:  base,
		token: token,
		cfg:   transport.NewSettings("v2", defaultUserAgent),

		answerLimit: maxBodyBytes,
	}
	for _, opt := range opts {
		if opt == nil {
			continue
		}
		if err := opt(c); err != nil {
			return nil, err
		}
	}
	if c.http, err = c.cfg.NewHTTPClient(10); err != nil {
		return nil, err
	}
	s := c.cfg
	c.userAgent, c.timeout, c.maxRetries = s.UserAgent, s.Timeout, s.MaxRetries
	c.baseBackoff, c.maxBackoff, c.maxRetryAfter = s.BaseBackoff, s.MaxBackoff, s.MaxRetryAfter
	c.cfg = transport.Settings{} // drop the caller's HTTP client and CA pool

	svc := &service{client: c}
	c.Invoices = (*InvoicesService)(svc)
	c.Payments = (*PaymentsService)(svc)
	c.Refunds = (*RefundsService)(svc)
	c.Tokenization = (*TokenizationService)(svc)
	c.PaymentTokens = (*PaymentTokensService)(svc)
	c.Stickers = (*StickersService)(svc)
	return c, nil
}

// call describes one API request as a service method sees it.
type call struct {
	method         string
	path           string     // escaped, from /api/v2 on
	query          url.Values // nil for none
	body           any        // nil: no body at all
	idempotencyKey string     // set on creating POSTs only
}

func (r call) pathWithQuery() string {
	if len(r.query) == 0 {
		return r.path
	}
	return r.path + "?" + r.query.Encode()
}

// get, put and create are the three request shapes the services use.
func (c *Client) get(ctx context.Context, path string, query url.Values, out any) (*Response, error) {
	return c.do(ctx, call{method: http.MethodGet, path: path, query: query}, out)
}

// fetch GETs path and decodes the answer into a new T; the services' Get
// and List methods are this plus their path.
func fetch[T any](ctx context.Context, c *Client, path string, query url.Values) (*T, *Response, error) {
	out := new(T)
	resp, err := c.get(ctx, path, query, out)
	if err != nil {
		return nil, resp, err
	}
	return out, resp, nil
}

// createAs sends req, a creating POST, to path (see create) and reads the
// answer into a new T; op names the method in the error for a nil req.
func createAs[T, R any](ctx context.Context, c *Client, op, path string, req *R, opts *CreateOptions) (*T, *Response, error) {
	if req == nil {
		return nil, nil, errNilRequest(op)
	}
	out := new(T)
	resp, err := c.create(ctx, path, req, opts, out)
	if err != nil {
		return nil, resp, err
	}
	return out, resp, nil
}

// completeAs passes req, the answer to a confirmation, to the object id
// of a collection ("payments", "paymenttokens") and reads the answer into
// a new T. Like every PUT it is not retried automatically.
func completeAs[T, R any](ctx context.Context, c *Client, op, collection, id string, req *R) (*T, *Response, error) {
	if req == nil {
		return nil, nil, errNilRequest(op)
	}
	path, err := idPath(collection, id, "complete")
	if err != nil {
		return nil, nil, err
	}
	out := new(T)
	resp, err := c.put(ctx, path, req, out)
	if err != nil {
		return nil, resp, err
	}
	return out, resp, nil
}

func (c *Client) put(ctx context.Context, path string, body, out any) (*Response, error) {
	return c.do(ctx, call{method: http.MethodPut, path: path, body: body}, out)
}

// create sends a creating POST with the caller's Idempotency-Key or a fresh
// one, so that a retry (ours or the caller's) can never create twice.
func (c *Client) create(ctx context.Context, path string, body any, opts *CreateOptions, out any) (*Response, error) {
	key, err := opts.key()
	if err != nil {
		return nil, err
	}
	return c.do(ctx, call{method: http.MethodPost, path: path, body: body, idempotencyKey: key}, out)
}

// do sends a request, repeating it when that is safe and useful, and decodes
// a successful answer into out (unless out is nil). The returned *Response is
// never nil once the body has been encoded, so the caller always gets the
// Idempotency-Key back, even after a timeout.
func (c *Client) do(ctx context.Context, r call, out any) (*Response, error) {
	var payload []byte
	if r.body != nil {
		var err error
		if payload, err = json.Marshal(r.body); err != nil {
			return nil, fmt.Errorf("v2: %s %s: encoding the request: %w", r.method, r.path, err)
		}
	}

	// A GET changes nothing, and a creating POST repeated with the same key
	// and the same bytes gets the first answer back (docs/service.md). Nothing else
	// is safe to repeat.
	retryable := r.method == http.MethodGet || (r.method == http.MethodPost && r.idempotencyKey != "")
	attempts := 1
	if retryable {
		attempts += c.maxRetries
	}

	var (
		resp *Response
		err  error
	)
	for attempt := 1; ; attempt++ {
		var temporary bool
		resp, temporary, err = c.send(ctx, r, payload, attempt)
		if err == nil {
			if err = decodeInto(resp.Body, out, attempt); err == nil {
				break
			}
			err = fmt.Errorf("v2: %s %s: %w", r.method, r.path, err)
			// A GET changes nothing, so an answer garbled on its way (cut
			// short, not JSON at all) is asked for again. An answer that
			// is whole JSON but not what was expected would come back the
			// same, and a POST's answer may have had its effect: neither
			// is repeated.
			temporary = r.method == http.MethodGet && !json.Valid(bytes.TrimSpace(trimBOM(resp.Body)))
		}
		if !retryable || !temporary || attempt >= attempts {
			return resp, err
		}
		wait, ok := c.retryWait(ctx, err, attempt)
		if !ok {
			return resp, err
		}
		if werr := transport.Sleep(ctx, wait); werr != nil {
			return resp, fmt.Errorf("v2: %s %s: stopped waiting to retry: %w; last attempt: %w", r.method, r.path, werr, err)
		}
	}

	return resp, nil
}

// decodeInto reads a successful answer into out, or checks that a call
// answered without a body answered nothing else (out nil). A second
// attempt starts from a zero out, so nothing of a garbled first answer
// stays in it.
func decodeInto(body []byte, out any, attempt int) error {
	if out == nil {
		return checkEmptyAnswer(body)
	}
	if attempt > 1 {
		if v := reflect.ValueOf(out); v.Kind() == reflect.Pointer && !v.IsNil() {
			v.Elem().SetZero()
		}
	}
	return decodeAnswer(body, out)
}

// checkEmptyAnswer accepts the answer of a call whose success has no body
// (confirm, cancel, revoke, sticker update: "empty body, HTTP 200"): empty,
// or JSON the service may add one day. Anything else is not the service's
// "done" but a mangled answer, maybe a refusal whose status was lost, and
// must not be taken for success.
func checkEmptyAnswer(body []byte) error {
	b := bytes.TrimSpace(trimBOM(body))
	if len(b) == 0 || json.Valid(b) {
		return nil
	}
	return fmt.Errorf("%w: %d bytes that are not JSON where none were expected", ErrMalformedResponse, len(b))
}

// send makes one attempt. temporary reports whether another attempt might
// get a different outcome: a network failure, 429 or 5xx.
func (c *Client) send(ctx context.Context, r call, payload []byte, attempt int) (resp *Response, temporary bool, err error) {
	actx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()

	var body io.Reader
	if payload != nil {
		body = bytes.NewReader(payload)
	}
	resp = &Response{IdempotencyKey: r.idempotencyKey}
	target := r.pathWithQuery()
	req, err := http.NewRequestWithContext(actx, r.method, c.base+target, body)
	if err != nil {
		return resp, false, fmt.Errorf("v2: %s %s: %w", r.method, r.path, err)
	}
	req.Header.Set(headerAuthorization, "Bearer "+c.token)
	req.Header.Set("Accept", contentTypeJSON)
	req.Header.Set("User-Agent", c.userAgent)
	if payload != nil {
		req.Header.Set("Content-Type", contentTypeJSON)
	}
	if r.idempotencyKey != "" {
		req.Header.Set(headerIdempotency, r.idempotencyKey)
	}

	start := time.Now()
	status := 0
	defer func() {
		if c.logRequest != nil {
			c.logRequest(RequestLogEntry{
				Method: r.method, Path: target, Status: status, Duration: time.Since(start),
				Attempt: attempt, IdempotencyKey: r.idempotencyKey, Err: err,
			})
		}
	}()

	hr, err := c.http.Do(req)
	if err != nil {
		return resp, ctx.Err() == nil, c.networkError(ctx, actx, r, err)
	}
	resp.Response = hr
	status = hr.StatusCode
	resp.Body, err = c.readBody(hr)
	if err != nil {
		if errors.Is(err, transport.ErrAnswerTooLarge) {
			// A complete answer, too big to read: not a lost one, and
			// asking again gets the same. Not retried.
			return resp, false, fmt.Errorf("v2: %s %s: %w", r.method, r.path, err)
		}
		// A connection dropped mid-body is a network failure like any other.
		return resp, ctx.Err() == nil, c.networkError(ctx, actx, r, err)
	}
	if hr.StatusCode < 200 || hr.StatusCode > 299 {
		e := newError(r, hr, resp.Body, c.token)
		return resp, e.StatusCode == http.StatusTooManyRequests || e.StatusCode >= 500, e
	}
	return resp, false, nil
}

// networkError names the failure without repeating the URL that net/http
// puts in front of it, and says when our per-attempt timeout was the cause
// rather than the caller's context.
func (c *Client) networkError(ctx, actx context.Context, r call, err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	if ctx.Err() == nil && errors.Is(actx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("v2: %s %s: no answer within %s: %w", r.method, r.path, c.timeout, err)
	}
	return fmt.Errorf("v2: %s %s: %w", r.method, r.path, err)
}

// readBody reads an answer of at most c.answerLimit bytes; a larger one is
// a *transport.TooLargeError (errors.Is transport.ErrAnswerTooLarge), whose
// message tells the user to ask for less.
func (c *Client) readBody(hr *http.Response) ([]byte, error) {
	return transport.ReadAnswer(hr.Body, hr.ContentLength, c.answerLimit)
}

// retryWait says how long to wait before attempt+1, or false when waiting is
// pointless: the service asked for a longer pause than we are willing to
// block a person for, or the caller's deadline comes first.
func (c *Client) retryWait(ctx context.Context, err error, attempt int) (time.Duration, bool) {
	var retryAfter time.Duration
	var e *Error
	if errors.As(err, &e) {
		retryAfter = e.RetryAfter
	}
	wait, ok := transport.RetryWait(ctx, c.backoff(attempt), retryAfter, c.maxRetryAfter)
	if ok {
		// Other readers under the same gate (a period read in slices)
		// hold back as long as this one waits (transport.Gate).
		transport.HoldGate(ctx, retryAfter)
	}
	return wait, ok
}

// backoff doubles from baseBackoff on each attempt, capped, with jitter
// (transport.Backoff).
func (c *Client) backoff(attempt int) time.Duration {
	return transport.Backoff(attempt, c.baseBackoff, c.maxBackoff)
}

// ErrMalformedResponse is wrapped by the error for a successful (2xx) answer
// whose body is not the JSON expected. Only a GET's garbled answer (not
// JSON at all) is asked for again: any other request did reach the service
// and may have had its effect.
var ErrMalformedResponse = errors.New("malformed answer")

var utf8BOM = []byte("\xEF\xBB\xBF")

// trimBOM drops a UTF-8 byte order mark, which some servers put in front of
// JSON and encoding/json refuses (docs/service.md: it is tolerated).
func trimBOM(b []byte) []byte { return bytes.TrimPrefix(b, utf8BOM) }

func decodeAnswer(body []byte, out any) error {
	b := trimBOM(body)
	if len(bytes.TrimSpace(b)) == 0 {
		return fmt.Errorf("%w: empty body", ErrMalformedResponse)
	}
	if l, ok := out.(itemList); ok {
		l.reserve(countItems(b))
	}
	if err := json.Unmarshal(b, out); err != nil {
		// The decoder's message can quote a bit of the body: clean it.
		return fmt.Errorf("%w: %s", ErrMalformedResponse, textsafe.Line(err.Error(), 200))
	}
	return nil
}

// validHeaderValue accepts visible ASCII and spaces: enough for tokens, keys
// and user agents, and nothing that could split a header.
func validHeaderValue(s string) bool { return transport.ValidHeaderValue(s) }

// idPath builds /api/v2/{collection}/{id}[/{action}]. The id is escaped so
// that an id holding "/" or "?" cannot address another resource, and an
// empty id is refused: /api/v2/payments/ would be the list, not a payment.
func idPath(collection, id, action string) (string, error) {
	if id == "" || id == "." || id == ".." {
		return "", fmt.Errorf("v2: %q is not a usable %s id", id, collection)
	}
	p := apiPrefix + "/" + collection + "/" + url.PathEscape(id)
	if action != "" {
		p += "/" + action
	}
	return p, nil
}

func errNilRequest(method string) error {
	return fmt.Errorf("v2: %s: nil request", method)
}
