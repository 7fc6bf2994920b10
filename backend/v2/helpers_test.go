package v2_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	v2 "paydash/backend/v2"
)

// testToken is distinctive so a test can search any text for it.
const testToken = "tok_SECRET_7f3a9c21"

// seen is one request as the test server received it.
type seen struct {
	Method string
	Path   string // escaped, as sent
	Query  url.Values
	Header http.Header
	Body   []byte
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
		s.mu.Lock()
		n := len(s.reqs)
		s.reqs = append(s.reqs, seen{
			Method: r.Method, Path: r.URL.EscapedPath(), Query: r.URL.Query(),
			Header: r.Header.Clone(), Body: body,
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

// reply answers every request with status and body.
func reply(status int, body string) func(http.ResponseWriter, *http.Request, int) {
	return func(w http.ResponseWriter, _ *http.Request, _ int) {
		if body != "" {
			w.Header().Set("Content-Type", "application/json")
		}
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}
}

// newClient makes a client of s that trusts its certificate, with tiny
// backoffs so retry tests run fast. Later options override earlier ones.
func newClient(t *testing.T, s *server, opts ...v2.Option) *v2.Client {
	t.Helper()
	all := append([]v2.Option{v2.WithHTTPClient(s.Client()), v2.WithRetries(3, time.Millisecond)}, opts...)
	c, err := v2.NewClient(s.URL, testToken, all...)
	require.NoError(t, err)
	return c
}
