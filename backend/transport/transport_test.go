package transport

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCheckBaseURL(t *testing.T) {
	good := map[string]string{
		"https://pay.example.com/":     "https://pay.example.com",
		"HTTPS://pay.example.com/base": "https://pay.example.com/base",
		"http://127.0.0.1:8443":        "http://127.0.0.1:8443",
		"http://localhost:1/":          "http://localhost:1",
		"http://[::1]:9":               "http://[::1]:9",
	}
	for in, want := range good {
		got, err := CheckBaseURL(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, got)
	}
	// Each refusal says what is wrong and what to give instead.
	bad := map[string][]string{
		"http://pay.example.com":          {"plain http is allowed only on a loopback host", "use https://"},
		"http://localhost.evil.example":   {"plain http is allowed only on a loopback host"},
		"ftp://pay.example.com":           {`scheme "ftp" is not https`, "https://pay.example.com"},
		"pay.example.com":                 {"not a URL (no https://)", "https://pay.example.com"},
		"://pay":                          {"not a URL", "https://pay.example.com"},
		"https://user:hunter2@pay.ex.com": {"user info is not allowed"},
		"https://u:hunter2@[::1":          {"not a URL"},
		"https://pay.example.com/?x=1":    {"query or fragment"},
		"https://pay.example.com/#frag":   {"query or fragment"},
		"https://":                        {"no host"},
		"https://:443":                    {"no host"},
	}
	for in, want := range bad {
		_, err := CheckBaseURL(in)
		require.Error(t, err, in)
		var be *BaseURLError
		require.ErrorAs(t, err, &be, in)
		assert.True(t, strings.HasPrefix(err.Error(), "base URL "), in)
		for _, w := range want {
			assert.Contains(t, be.Problem, w, in)
		}
		assert.NotContains(t, err.Error(), "hunter2", "a password in the URL is never echoed")
	}
}

func TestNewHTTPClientNeverFollowsRedirectsAndKeepsCallersClient(t *testing.T) {
	user := &http.Client{Timeout: time.Second}
	hc, err := NewHTTPClient(user, nil, time.Second, 10)
	require.NoError(t, err)
	assert.NotNil(t, hc.CheckRedirect)
	assert.Nil(t, user.CheckRedirect, "the caller's client is not changed")
	assert.Equal(t, http.ErrUseLastResponse, hc.CheckRedirect(nil, nil))
}

func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2024, 5, 1, 12, 0, 0, 0, time.UTC)
	assert.Equal(t, 7*time.Second, ParseRetryAfter("7", now))
	assert.Equal(t, 30*time.Second, ParseRetryAfter(now.Add(30*time.Second).Format(http.TimeFormat), now))
	for _, bad := range []string{"", "soon", "-5", "0", now.Add(-time.Minute).Format(http.TimeFormat)} {
		assert.Equal(t, time.Duration(0), ParseRetryAfter(bad, now), bad)
	}
}
