// Package transport holds the HTTP plumbing both clients (backend/v1 and
// backend/v2) share: the HTTPS-only rule for base URLs, an http.Client with
// a timeout on every phase that trusts given CAs and never follows
// redirects, the reading of Retry-After, the settings the clients' common
// options set (Settings) and the backoff between retries.
package transport

import (
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// CheckBaseURL enforces HTTPS only (both specs, §5), with plain http allowed
// on a loopback host for the embedded sandbox and local tools, and returns
// the URL without a trailing slash. User info, queries and fragments are
// refused: they would end up in every request or in logs.
func CheckBaseURL(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", fmt.Errorf("base URL: %w", err)
	}
	if u.User != nil {
		// Redacted: the user info may hold a password.
		return "", fmt.Errorf("base URL %s: user info is not allowed", u.Redacted())
	}
	if u.Host == "" {
		return "", fmt.Errorf("base URL %q: no host", raw)
	}
	if u.RawQuery != "" || u.Fragment != "" || u.ForceQuery {
		return "", fmt.Errorf("base URL %q: a query or fragment is not allowed", raw)
	}
	switch strings.ToLower(u.Scheme) {
	case "https":
	case "http":
		if !IsLoopback(u.Hostname()) {
			return "", fmt.Errorf("base URL %q: plain http is allowed only on a loopback host; use https", raw)
		}
	default:
		return "", fmt.Errorf("base URL %q: scheme must be https", raw)
	}
	u.Scheme = strings.ToLower(u.Scheme)
	return strings.TrimRight(u.String(), "/"), nil
}

// IsLoopback reports whether host is localhost or a loopback address.
func IsLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// NewHTTPClient makes the http.Client requests go through: a copy of the
// caller's (so the caller's is never changed), or one whose transport has a
// timeout on every phase (responseTimeout for the answer's headers). rootCAs,
// when set, replaces the trusted roots; certificates are always verified.
// Redirects are never followed, so credentials cannot travel to another host.
func NewHTTPClient(user *http.Client, rootCAs *x509.CertPool, responseTimeout time.Duration, idlePerHost int) (*http.Client, error) {
	var hc http.Client
	if user != nil {
		hc = *user
	} else {
		hc.Transport = newTransport(responseTimeout, idlePerHost)
	}
	if rootCAs != nil {
		t := hc.Transport
		if t == nil {
			t = http.DefaultTransport
		}
		ht, ok := t.(*http.Transport)
		if !ok {
			return nil, fmt.Errorf("trusting extra CAs needs an *http.Transport, the HTTP client has a %T", t)
		}
		ht = ht.Clone()
		if ht.TLSClientConfig == nil {
			ht.TLSClientConfig = &tls.Config{MinVersion: tls.VersionTLS12}
		}
		ht.TLSClientConfig.RootCAs = rootCAs
		hc.Transport = ht
	}
	hc.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return &hc, nil
}

func newTransport(responseTimeout time.Duration, idlePerHost int) *http.Transport {
	dialer := &net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}
	return &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           dialer.DialContext,
		ForceAttemptHTTP2:     true,
		TLSClientConfig:       &tls.Config{MinVersion: tls.VersionTLS12},
		TLSHandshakeTimeout:   10 * time.Second,
		ResponseHeaderTimeout: responseTimeout,
		ExpectContinueTimeout: time.Second,
		IdleConnTimeout:       90 * time.Second,
		MaxIdleConns:          100,
		MaxIdleConnsPerHost:   idlePerHost,
	}
}

// ParseRetryAfter reads a Retry-After header (seconds or an HTTP date);
// 0 when absent, past or unreadable.
func ParseRetryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if secs, err := strconv.ParseInt(v, 10, 64); err == nil {
		if secs <= 0 {
			return 0
		}
		return time.Duration(min(secs, 365*24*3600)) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}
