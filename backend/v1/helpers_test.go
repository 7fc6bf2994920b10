package v1_test

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	v1 "paydash/backend/v1"
)

// The test credentials are distinctive so a test can search any text for them.
const (
	testLogin    = "TestLogin"
	testPassword = "pw_SECRET_4e1d"
)

// seen is one request as the test server received it.
type seen struct {
	Method      string
	Path        string // escaped, as sent
	RawQuery    string
	Query       url.Values
	Form        url.Values // the parameters: query for GET, body for POST
	ContentType string
	Body        []byte
}

// server is an httptest TLS server that records every request and lets the
// test answer the n-th one (0-based).
type server struct {
	*httptest.Server
	mu   sync.Mutex
	reqs []seen
}

func newServer(t *testing.T, handle func(w http.ResponseWriter, r *http.Request, n int)) *server {
	t.Helper()
	s := &server{}
	s.Server = httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body)) // for the handler to read again
		q := r.URL.Query()
		form := q
		if r.Method == http.MethodPost {
			form, _ = url.ParseQuery(string(body))
		}
		s.mu.Lock()
		n := len(s.reqs)
		s.reqs = append(s.reqs, seen{
			Method: r.Method, Path: r.URL.EscapedPath(), RawQuery: r.URL.RawQuery, Query: q, Form: form,
			ContentType: r.Header.Get("Content-Type"), Body: body,
		})
		s.mu.Unlock()
		handle(w, r, n)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *server) requests() []seen {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.reqs)
}

func (s *server) reset() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reqs = nil
}

// reply answers every request with status and body.
func reply(status int, body string) func(http.ResponseWriter, *http.Request, int) {
	return func(w http.ResponseWriter, _ *http.Request, _ int) {
		if body != "" {
			switch body[0] {
			case '<':
				w.Header().Set("Content-Type", "application/xml; charset=utf-8")
			case '{', '\xEF':
				w.Header().Set("Content-Type", "application/json; charset=utf-8")
			default:
				w.Header().Set("Content-Type", "text/csv; charset=utf-8")
			}
		}
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}
}

// newClient makes a client of s that trusts its certificate, with tiny
// backoffs so retry tests run fast. Later options override earlier ones.
func newClient(t *testing.T, s *server, opts ...v1.Option) *v1.Client {
	t.Helper()
	all := append([]v1.Option{v1.WithHTTPClient(s.Client()), v1.WithRetries(3, time.Millisecond)}, opts...)
	c, err := v1.NewClient(s.URL, testLogin, testPassword, all...)
	require.NoError(t, err)
	return c
}

// fixedNonce makes every request use nonce n.
func fixedNonce(n string) v1.Option { return v1.WithNonceSource(func() string { return n }) }

// wantHash is the hash a server computes for a request it received: the
// values of names, in order, as received ("" when absent).
func wantHash(form url.Values, names ...string) string {
	values := make([]string, len(names))
	for i, n := range names {
		values[i] = form.Get(n)
	}
	return v1.Sign(form.Get("login"), testPassword, form.Get("nonce"), values...)
}
