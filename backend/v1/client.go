package v1

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha1"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"paydash/backend/textsafe"
	"paydash/backend/transport"
	"strings"
	"time"
)

// The timeout, retry and backoff defaults are shared with the v2 client, in
// transport (DefaultTimeout...): a slow answer is better than none, but not
// after minutes.
const (
	maxBodyBytes     = 64 << 20 // a register of 50,000 operations is ~15 MB of XML; this is a runaway guard
	maxNonceLen      = 255      // the service's limit on a nonce
	defaultUserAgent = "paydash-v1-client"
	apiPrefix        = "/api/v1/"
	headerRetryAfter = "Retry-After"
	contentTypeForm  = "application/x-www-form-urlencoded"
)

// Client talks to one service as one v1 login. It is safe for concurrent
// use; create one and share it.
type Client struct {
	base      string // scheme://host[:port][/prefix], without a trailing slash
	login     string
	password  string // never sent, logged or put in an error: it only takes part in the hash
	userAgent string
	http      *http.Client
	nonce     func() string

	timeout       time.Duration // per attempt
	maxRetries    int
	baseBackoff   time.Duration
	maxBackoff    time.Duration
	maxRetryAfter time.Duration
	logRequest    func(RequestLogEntry)

	// What the options set; only read while NewClient builds the client.
	cfg transport.Settings
}

// Response is the HTTP answer behind a call, kept for the UI's raw view.
// Methods return a nil *Response only when they fail before sending
// anything (a missing required parameter).
type Response struct {
	*http.Response // nil when no answer came (network failure); its Body is already read and closed

	Body  []byte // the raw body as received, BOM and all
	Nonce string // the nonce of the (last) attempt
}

// RequestLogEntry describes one attempt of one request. It deliberately has
// no URL, parameters or body: the hash, the login and card data stay out of
// logs, and the password is never in a request at all.
type RequestLogEntry struct {
	Operation string // e.g. getPayment
	Method    string
	Status    int // HTTP status; 0 when no answer came
	Duration  time.Duration
	Attempt   int   // 1 for the first try
	ErrorCode int   // the answer's ErrorCode; 0 on success or when none was read
	Err       error // nil on success
}

// Option configures a Client in NewClient.
type Option func(*Client) error

// WithHTTPClient uses hc (its transport, proxy, jar) instead of the client's
// own. Redirects are never followed either way: the service does not send
// them, and a redirected POST would lose its body.
func WithHTTPClient(hc *http.Client) Option {
	return func(c *Client) error { return c.cfg.SetHTTPClient(hc) }
}

// WithRootCAs makes TLS verification trust the certificates in pool, such as
// the sandbox's self-made CA. The pool replaces the system roots, as in
// crypto/tls. Verification is never switched off.
func WithRootCAs(pool *x509.CertPool) Option {
	return func(c *Client) error { return c.cfg.SetRootCAs(pool) }
}

// WithTimeout bounds each attempt of a request (default 30s), including
// reading the answer. The caller's context still bounds the whole call.
func WithTimeout(d time.Duration) Option {
	return func(c *Client) error { return c.cfg.SetTimeout(d) }
}

// WithRetries sets how many times a read is repeated (default 3; 0 disables
// retries) and the first backoff (default 200ms), which doubles on each
// retry with jitter, up to 5s per wait. refundPayment, confirmPayment and
// cancelPayment are never repeated whatever this says.
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

// WithNonceSource replaces the random nonces, for tests only: a fixed nonce
// reproduces the spec's signature examples, and a constant one provokes
// -14. f must be safe for concurrent use; a nonce it returns that is empty,
// longer than 255 characters or holds ";" fails the request before it is
// sent.
func WithNonceSource(f func() string) Option {
	return func(c *Client) error {
		if f == nil {
			return errors.New("v1: WithNonceSource: nil function")
		}
		c.nonce = f
		return nil
	}
}

// NewClient returns a client of the service at baseURL (the address without
// /api/v1) that signs its requests as login with password.
//
// baseURL must be https; plain http is accepted only for a loopback host
// (127.0.0.0/8, ::1, localhost), where nothing crosses a network. A URL with
// user info, a query or a fragment is refused.
func NewClient(baseURL, login, password string, opts ...Option) (*Client, error) {
	base, err := transport.CheckBaseURL(baseURL)
	if err != nil {
		return nil, fmt.Errorf("v1: %w", err)
	}
	if login == "" {
		return nil, errors.New("v1: empty login")
	}
	if password == "" {
		return nil, errors.New("v1: empty password")
	}
	c := &Client{
		base:     base,
		login:    login,
		password: password,
		nonce:    NewNonce,
		cfg:      transport.NewSettings("v1", defaultUserAgent),
	}
	for _, opt := range opts {
		if opt == nil {
			continue
		}
		if err := opt(c); err != nil {
			return nil, err
		}
	}
	if c.http, err = c.cfg.NewHTTPClient(64); err != nil {
		return nil, err
	}
	s := c.cfg
	c.userAgent, c.timeout, c.maxRetries = s.UserAgent, s.Timeout, s.MaxRetries
	c.baseBackoff, c.maxBackoff, c.maxRetryAfter = s.BaseBackoff, s.MaxBackoff, s.MaxRetryAfter
	c.cfg = transport.Settings{} // drop the caller's HTTP client and CA pool
	return c, nil
}

// Login is the login the client signs as.
func (c *Client) Login() string { return c.login }

// Sign computes the hash of a request (docs/service.md): the SHA-1 of
// "login;password;nonce;v1;...;vn" (UTF-8), base64 with padding. values are
// the operation's hashed parameters in the spec's order, "" for an absent
// optional one, exactly as they are sent.
func Sign(login, password, nonce string, values ...string) string {
	h := sha1.New()
	io.WriteString(h, login)
	io.WriteString(h, ";")
	io.WriteString(h, password)
	io.WriteString(h, ";")
	io.WriteString(h, nonce)
	for _, v := range values {
		io.WriteString(h, ";")
		io.WriteString(h, v)
	}
	return base64.StdEncoding.EncodeToString(h.Sum(nil))
}

// NewNonce makes a nonce: 24 bytes from crypto/rand, base64url without
// padding (32 characters of A-Z a-z 0-9 - _), so never ";" and far below
// the 255-character limit. Two clients, or two goroutines, never collide
// in practice (192 random bits).
func NewNonce() string {
	var b [24]byte
	_, _ = rand.Read(b[:]) // never fails since Go 1.24
	return base64.RawURLEncoding.EncodeToString(b[:])
}

func checkNonce(n string) error {
	switch {
	case n == "":
		return errors.New("the nonce source gave an empty nonce")
	case len(n) > maxNonceLen:
		return fmt.Errorf("the nonce source gave a nonce of %d bytes; at most %d are allowed", len(n), maxNonceLen)
	case strings.Contains(n, ";"):
		return errors.New(`the nonce source gave a nonce with ";"`)
	}
	return nil
}

// param is one request parameter; an empty value is absent: not sent, and
// hashed as "".
type param struct{ name, value string }

// call describes one operation's request.
type call struct {
	op     string  // the operation, e.g. getPayment; the path is /api/v1/<op>
	method string  // GET or POST
	params []param // the hashed parameters, in the spec's order
	xml    bool    // adds xml=1 (never hashed)
	read   bool    // safe to repeat: retried on network failures and non-200
	// decode reads a 200 answer; it returns the *Error of a non-zero
	// ErrorCode, so that the request log can show the code.
	// secrets are what to remove from server text quoted in an error.
	decode func(hr *http.Response, body []byte, secrets []string) error
}

// encode builds the query (GET) or form (POST) for one attempt: the
// parameters in the spec's order, then xml, login, nonce and hash.
func (c *Client) encode(r call, nonce string) (encoded, hash string) {
	values := make([]string, len(r.params))
	var b strings.Builder
	add := func(name, value string) {
		if b.Len() > 0 {
			b.WriteByte('&')
		}
		b.WriteString(name)
		b.WriteByte('=')
		b.WriteString(url.QueryEscape(value))
	}
	for i, p := range r.params {
		values[i] = p.value
		if p.value != "" {
			add(p.name, p.value)
		}
	}
	if r.xml {
		add("xml", "1")
	}
	add("login", c.login)
	add("nonce", nonce)
	hash = Sign(c.login, c.password, nonce, values...)
	add("hash", hash)
	return b.String(), hash
}

// do sends a request, repeating a read when that is useful, and returns the
// answer. The returned *Response is never nil.
func (c *Client) do(ctx context.Context, r call) (*Response, error) {
	attempts := 1
	if r.read {
		attempts += c.maxRetries
	}
	for attempt := 1; ; attempt++ {
		resp, temporary, err := c.send(ctx, r, attempt)
		if err == nil {
			return resp, nil
		}
		if !r.read || !temporary || attempt >= attempts {
			return resp, err
		}
		wait, ok := c.retryWait(ctx, err, attempt)
		if !ok {
			return resp, err
		}
		if werr := transport.Sleep(ctx, wait); werr != nil {
			return resp, fmt.Errorf("v1: %s: stopped waiting to retry: %w; last attempt: %w", r.op, werr, err)
		}
	}
}

// send makes one attempt with a fresh nonce and hash. temporary reports
// whether another attempt might get a different outcome: a network
// failure, a status other than 200, or -14 (see below).
func (c *Client) send(ctx context.Context, r call, attempt int) (resp *Response, temporary bool, err error) {
	resp = &Response{}
	start := time.Now()
	status, code := 0, 0
	defer func() {
		if c.logRequest != nil {
			c.logRequest(RequestLogEntry{
				Operation: r.op, Method: r.method, Status: status, Duration: time.Since(start),
				Attempt: attempt, ErrorCode: code, Err: err,
			})
		}
	}()

	nonce := c.nonce()
	if err := checkNonce(nonce); err != nil {
		return resp, false, fmt.Errorf("v1: %s: %w", r.op, err)
	}
	resp.Nonce = nonce
	encoded, hash := c.encode(r, nonce)
	secrets := []string{c.password, hash, url.QueryEscape(c.password), url.QueryEscape(hash)}

	actx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	target := c.base + apiPrefix + r.op
	var body io.Reader
	if r.method == http.MethodPost {
		body = strings.NewReader(encoded)
	} else {
		target += "?" + encoded
	}
	req, err := http.NewRequestWithContext(actx, r.method, target, body)
	if err != nil {
		return resp, false, fmt.Errorf("v1: %s: building the request: %s", r.op, textsafe.Line(textsafe.Redact(unwrapURLError(err).Error(), secrets...), 200))
	}
	req.Header.Set("Accept", "application/json, application/xml;q=0.9, */*;q=0.1")
	req.Header.Set("User-Agent", c.userAgent)
	if body != nil {
		req.Header.Set("Content-Type", contentTypeForm)
	}

	hr, err := c.http.Do(req)
	if err != nil {
		return resp, ctx.Err() == nil, c.networkError(ctx, actx, r, err)
	}
	resp.Response = hr
	status = hr.StatusCode
	resp.Body, err = readBody(hr)
	if err != nil {
		if errors.Is(err, transport.ErrAnswerTooLarge) {
			// A complete answer, too big to read: not a lost one, and
			// asking again gets the same. Not retried.
			return resp, false, fmt.Errorf("v1: %s: %w", r.op, err)
		}
		// A connection dropped mid-body is a network failure like any other.
		return resp, ctx.Err() == nil, c.networkError(ctx, actx, r, err)
	}
	if hr.StatusCode != http.StatusOK {
		return resp, true, newHTTPError(r.op, hr, resp.Body, secrets...)
	}
	if err := r.decode(hr, resp.Body, secrets); err != nil {
		e, ok := AsError(err)
		if ok {
			code = e.Code
		}
		// A read answered "nonce reused" is worth another attempt with a
		// fresh nonce: net/http itself resends a GET, same nonce and all,
		// when a kept-alive connection fails before the answer, and the
		// service may have seen the first copy. A read's answer garbled on
		// its way (cut short: neither JSON nor XML) is worth asking for
		// again too: a read changes nothing. (do repeats only reads.)
		return resp, ok && e.Code == CodeNonceReused || garbled(resp.Body), err
	}
	return resp, false, nil
}

// garbled reports whether an answer is not a whole JSON or XML document
// at all, as when a proxy or a dropped connection cut it short. A whole
// document that says something unexpected is not garbled: asking again
// would get the same.
func garbled(body []byte) bool {
	b := bytes.TrimSpace(bytes.TrimPrefix(body, []byte("\xef\xbb\xbf")))
	switch {
	case len(b) == 0:
		return true
	case b[0] != '<':
		return !json.Valid(b)
	}
	d := xml.NewDecoder(bytes.NewReader(b))
	d.Strict = true
	d.Entity = xml.HTMLEntity
	for {
		_, err := d.Token()
		if err == io.EOF {
			return false
		}
		if err != nil {
			return true
		}
	}
}

func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return ue.Err
	}
	return err
}

// networkError names the failure without the URL that net/http puts in
// front of it (it holds the login, the nonce and the hash), and says when
// our per-attempt timeout was the cause rather than the caller's context.
func (c *Client) networkError(ctx, actx context.Context, r call, err error) error {
	err = unwrapURLError(err)
	if ctx.Err() == nil && errors.Is(actx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("v1: %s: no answer within %s: %w", r.op, c.timeout, err)
	}
	return fmt.Errorf("v1: %s: %w", r.op, err)
}

// readBody reads an answer of at most maxBodyBytes; a larger one is a
// *transport.TooLargeError (errors.Is transport.ErrAnswerTooLarge), whose
// message tells the user to ask for less.
func readBody(hr *http.Response) ([]byte, error) {
	return transport.ReadAnswer(hr.Body, hr.ContentLength, maxBodyBytes)
}

// retryWait says how long to wait before attempt+1, or false when waiting is
// pointless: the service asked for a longer pause than we are willing to
// block a person for, or the caller's deadline comes first.
func (c *Client) retryWait(ctx context.Context, err error, attempt int) (time.Duration, bool) {
	var retryAfter time.Duration
	var e *HTTPError
	if errors.As(err, &e) {
		retryAfter = e.RetryAfter
	}
	return transport.RetryWait(ctx, transport.Backoff(attempt, c.baseBackoff, c.maxBackoff), retryAfter, c.maxRetryAfter)
}
