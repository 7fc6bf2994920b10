package v2_test

import (
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	v2 "paydash/backend/v2"
)

func TestNewClientBaseURL(t *testing.T) {
	allowed := []string{
		"https://pay.example.com",
		"https://pay.example.com/prefix/",
		"http://127.0.0.1:8443",
		"http://127.5.6.7",
		"http://[::1]:9000",
		"http://localhost:8080",
		"HTTP://LOCALHOST",
	}
	for _, u := range allowed {
		_, err := v2.NewClient(u, testToken)
		assert.NoError(t, err, u)
	}
	refused := []string{
		"http://pay.example.com",
		"http://10.0.0.1",
		"http://localhost.evil.example",
		"http://128.0.0.1",
		"ftp://127.0.0.1",
		"pay.example.com",
		"https://",
		"https://user:hunter2@pay.example.com",
		"https://pay.example.com?x=1",
		"https://pay.example.com/#frag",
		"://bad",
	}
	for _, u := range refused {
		_, err := v2.NewClient(u, testToken)
		require.Error(t, err, u)
		assert.NotContains(t, err.Error(), "hunter2", "user info password never echoed")
		assert.NotContains(t, err.Error(), testToken)
	}
}

func TestNewClientRefusesBadTokensAndOptions(t *testing.T) {
	for _, tok := range []string{"", "tok\nX-Evil: 1", "two words"} {
		_, err := v2.NewClient("https://pay.example.com", tok)
		require.Error(t, err)
		if tok != "" {
			assert.NotContains(t, err.Error(), tok)
		}
	}
	for name, opt := range map[string]v2.Option{
		"nil http client": v2.WithHTTPClient(nil),
		"nil pool":        v2.WithRootCAs(nil),
		"zero timeout":    v2.WithTimeout(0),
		"negative retry":  v2.WithRetries(-1, time.Millisecond),
		"bad user agent":  v2.WithUserAgent("x\r\ny"),
	} {
		_, err := v2.NewClient("https://pay.example.com", testToken, opt)
		assert.Error(t, err, name)
	}
}

func TestPlainHTTPOnLoopbackWorks(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		assert.Equal(t, "Bearer "+testToken, r.Header.Get("Authorization"))
		_, _ = w.Write([]byte(`{"id":"s1"}`))
	}))
	defer srv.Close()
	require.True(t, strings.HasPrefix(srv.URL, "http://127.0.0.1:"), srv.URL)

	c, err := v2.NewClient(srv.URL, testToken)
	require.NoError(t, err)
	st, _, err := c.Stickers.Get(context.Background(), "s1")
	require.NoError(t, err)
	assert.Equal(t, "s1", st.ID)
}

func TestRootCAs(t *testing.T) {
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte(`{"id":"t1","status":"Active"}`))
	}))
	srv.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshake below is expected
	srv.StartTLS()
	defer srv.Close()

	// Without the test CA the certificate is refused: verification is on.
	c, err := v2.NewClient(srv.URL, testToken, v2.WithRetries(0, 0))
	require.NoError(t, err)
	_, _, err = c.PaymentTokens.Get(context.Background(), "t1")
	require.Error(t, err)
	var unknown x509.UnknownAuthorityError
	assert.True(t, errors.As(err, &unknown), "want an unknown-authority error, got %v", err)

	pool := x509.NewCertPool()
	pool.AddCert(srv.Certificate())
	c, err = v2.NewClient(srv.URL, testToken, v2.WithRootCAs(pool))
	require.NoError(t, err)
	tok, _, err := c.PaymentTokens.Get(context.Background(), "t1")
	require.NoError(t, err)
	assert.Equal(t, v2.TokenStatusActive, tok.Status)

	// Combined with a caller's client, the pool goes into a copy of its transport.
	hc := &http.Client{Transport: &http.Transport{}}
	c, err = v2.NewClient(srv.URL, testToken, v2.WithHTTPClient(hc), v2.WithRootCAs(pool))
	require.NoError(t, err)
	_, _, err = c.PaymentTokens.Get(context.Background(), "t1")
	require.NoError(t, err)
	if cfg := hc.Transport.(*http.Transport).TLSClientConfig; cfg != nil { // net/http may fill in NextProtos
		assert.Nil(t, cfg.RootCAs, "the caller's transport is left alone")
	}
}

func TestBasePathPrefixAndUserAgent(t *testing.T) {
	s := newServer(t, reply(http.StatusOK, `{"id":"r1"}`))
	c, err := v2.NewClient(s.URL+"/gateway/", testToken, v2.WithHTTPClient(s.Client()), v2.WithUserAgent("paydash/test"))
	require.NoError(t, err)
	_, _, err = c.Refunds.Get(context.Background(), "r1")
	require.NoError(t, err)
	got := s.requests()[0]
	assert.Equal(t, "/gateway/api/v2/refunds/r1", got.Path)
	assert.Equal(t, "paydash/test", got.Header.Get("User-Agent"))
}

func TestRedirectsAreNotFollowed(t *testing.T) {
	other := newServer(t, reply(http.StatusOK, `{"id":"p1"}`))
	s := newServer(t, func(w http.ResponseWriter, r *http.Request, _ int) {
		http.Redirect(w, r, other.URL+"/api/v2/payments/p1", http.StatusFound)
	})
	_, _, err := newClient(t, s, v2.WithRetries(0, 0)).Payments.Get(context.Background(), "p1")
	var e *v2.Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, http.StatusFound, e.StatusCode)
	assert.Empty(t, other.requests(), "the bearer token did not travel")
}

func TestTokenNeverAppearsInErrors(t *testing.T) {
	echo := newServer(t, reply(http.StatusUnauthorized,
		`{"code":"not_authorized","message":"unknown token `+testToken+`","errors":["Bearer `+testToken+`"]}`))
	html := newServer(t, func(w http.ResponseWriter, _ *http.Request, _ int) {
		w.WriteHeader(http.StatusBadGateway)
		_, _ = w.Write([]byte("<html>token=" + testToken + "</html>"))
	})
	closed := newServer(t, reply(http.StatusOK, `{}`))
	closedURL := closed.URL
	closed.Close()

	var errs []error
	var logged []v2.RequestLogEntry
	logTo := v2.WithRequestLog(func(e v2.RequestLogEntry) { logged = append(logged, e) })

	_, _, err := newClient(t, echo, logTo).Payments.Get(context.Background(), "p1")
	assert.True(t, v2.IsUnauthenticated(err))
	errs = append(errs, err)
	_, _, err = newClient(t, html, logTo, v2.WithRetries(0, 0)).Payments.Get(context.Background(), "p1")
	errs = append(errs, err)
	c, err := v2.NewClient(closedURL, testToken, v2.WithHTTPClient(closed.Client()), v2.WithRetries(1, time.Millisecond), logTo)
	require.NoError(t, err)
	_, _, err = c.Refunds.Create(context.Background(), &v2.RefundRequest{PaymentID: "p1"}, nil)
	errs = append(errs, err)

	for _, err := range errs {
		require.Error(t, err)
		assert.NotContains(t, err.Error(), testToken)
		assert.NotContains(t, fmt.Sprintf("%+v %#v", err, err), testToken)
	}
	var e *v2.Error
	require.ErrorAs(t, errs[0], &e)
	assert.Equal(t, "unknown token [redacted]", e.Message)
	assert.NotEmpty(t, logged)
	assert.NotContains(t, fmt.Sprintf("%+v", logged), testToken)
}
