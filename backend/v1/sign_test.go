package v1_test

import (
	"context"
	"crypto/sha1"
	"encoding/base64"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	v1 "paydash/backend/v1"
)

// The contract's signature vectors.
func TestSignVectors(t *testing.T) {
	assert.Equal(t, "v7CUe8IhNnsIGnBNnJKaFGLQ0ro=", v1.Sign("TestLogin", "secret", "74DF1SM", "1"))
	assert.Equal(t, "upDXcdOcb0yn30TQa/sQUETf6Fc=", v1.Sign("TestLogin", "secret", "74DF1SM", "43149010", "10.50", "ORD-1"))
	// The server hashes the raw strings: 10.5 signs differently from 10.50.
	assert.NotEqual(t, v1.Sign("TestLogin", "secret", "74DF1SM", "43149010", "10.50", "ORD-1"),
		v1.Sign("TestLogin", "secret", "74DF1SM", "43149010", "10.5", "ORD-1"))
	// An absent optional value is an empty field: "...;ID;" for cancelPayment without error.
	assert.Equal(t, sha1b64("TestLogin;secret;74DF1SM;5;"), v1.Sign("TestLogin", "secret", "74DF1SM", "5", ""))
	assert.Equal(t, sha1b64("TestLogin;secret;74DF1SM;;;x;;;"), v1.Sign("TestLogin", "secret", "74DF1SM", "", "", "x", "", "", ""))
	// UTF-8.
	assert.Equal(t, sha1b64("Логин;пароль;n;сумма"), v1.Sign("Логин", "пароль", "n", "сумма"))
}

func sha1b64(s string) string {
	sum := sha1.Sum([]byte(s))
	return base64.StdEncoding.EncodeToString(sum[:])
}

// A request made with the fixed nonce carries exactly the vectors' hashes.
func TestRequestsCarryTheVectorHashes(t *testing.T) {
	s := newServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if strings.HasSuffix(r.URL.Path, "refundPayment") {
			reply(http.StatusOK, `{"ErrorCode":0,"Refund":{"RefundID":1,"PaymentID":43149010,"Amount":10.5,"State":"EXECUTING"}}`)(w, r, n)
			return
		}
		reply(http.StatusOK, `{"ErrorCode":0,"Payment":{"PaymentID":1}}`)(w, r, n)
	})
	c, err := v1.NewClient(s.URL, "TestLogin", "secret", v1.WithHTTPClient(s.Client()), fixedNonce("74DF1SM"))
	require.NoError(t, err)

	_, resp, err := c.GetPayment(context.Background(), "1")
	require.NoError(t, err)
	assert.Equal(t, "74DF1SM", resp.Nonce)
	_, _, err = c.RefundPayment(context.Background(), v1.RefundRequest{PaymentID: "43149010", Amount: "10.50", ExternalID: "ORD-1"})
	require.NoError(t, err)

	reqs := s.requests()
	require.Len(t, reqs, 2)
	assert.Equal(t, "TestLogin", reqs[0].Form.Get("login"))
	assert.Equal(t, "74DF1SM", reqs[0].Form.Get("nonce"))
	assert.Equal(t, "v7CUe8IhNnsIGnBNnJKaFGLQ0ro=", reqs[0].Form.Get("hash"))
	assert.Equal(t, "upDXcdOcb0yn30TQa/sQUETf6Fc=", reqs[1].Form.Get("hash"))
	for _, r := range reqs {
		assert.NotContains(t, r.RawQuery+string(r.Body), "secret", "the password is never sent")
	}
}

// Nonces from many goroutines at once are all distinct, usable and short.
func TestNoncesAreDistinctUnderConcurrency(t *testing.T) {
	const goroutines, each = 50, 200 // 10,000 in all
	var mu sync.Mutex
	all := make(map[string]bool, goroutines*each)
	var wg sync.WaitGroup
	for range goroutines {
		wg.Go(func() {
			local := make([]string, 0, each)
			for range each {
				local = append(local, v1.NewNonce())
			}
			mu.Lock()
			defer mu.Unlock()
			for _, n := range local {
				all[n] = true
			}
		})
	}
	wg.Wait()
	require.Len(t, all, goroutines*each, "every nonce is distinct")
	for n := range all {
		require.NotEmpty(t, n)
		require.NotContains(t, n, ";")
		require.LessOrEqual(t, len(n), 255)
	}
}

// A nonce source that breaks the rules fails the request before it is sent.
func TestBadNonceSourceIsRefused(t *testing.T) {
	s := newServer(t, reply(http.StatusOK, `{"ErrorCode":0,"Payment":{"PaymentID":1}}`))
	for _, n := range []string{"", "a;b", strings.Repeat("x", 256)} {
		c := newClient(t, s, fixedNonce(n))
		_, _, err := c.GetPayment(context.Background(), "1")
		require.Error(t, err, "nonce %q", n)
	}
	assert.Empty(t, s.requests())
	c := newClient(t, s, fixedNonce(strings.Repeat("x", 255)))
	_, _, err := c.GetPayment(context.Background(), "1")
	require.NoError(t, err, "255 characters are allowed")
}

func TestNewClientChecksItsArguments(t *testing.T) {
	for _, base := range []string{"http://example.com", "ftp://example.com", "https://u:p@example.com", "https://example.com?x=1", "https:///nohost"} {
		_, err := v1.NewClient(base, "l", "p")
		assert.Error(t, err, base)
	}
	for _, base := range []string{"https://example.com", "http://127.0.0.1:8080", "http://localhost", "http://[::1]:1/"} {
		_, err := v1.NewClient(base, "l", "p")
		assert.NoError(t, err, base)
	}
	_, err := v1.NewClient("https://example.com", "", "p")
	assert.Error(t, err)
	_, err = v1.NewClient("https://example.com", "l", "")
	assert.Error(t, err)
	_, err = v1.NewClient("https://u:topsecret@example.com", "l", "p")
	require.Error(t, err)
	assert.NotContains(t, err.Error(), "topsecret")
}
