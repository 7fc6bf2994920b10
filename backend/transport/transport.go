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

// CheckBaseURL enforces HTTPS only (both interfaces require it), with plain
// http allowed on a loopback host for the embedded sandbox and local tools,
// and returns the URL without a trailing slash and with its scheme in lower
// case. User info, queries and fragments are refused: they would end up in
// every request or in logs. A refusal is a *BaseURLError, whose Problem says
// what is wrong and what to give instead, in words a person can act on.
func CheckBaseURL(raw string) (string, error) {
	refuse := func(u string, problem string, a ...any) (string, error) {
		return "", &BaseURLError{URL: u, Problem: fmt.Sprintf(problem, a...)}
	}
	u, err := url.Parse(raw)
	if err != nil {
		return refuse(redactUnparsed(raw), "not a URL; give the service's address, e.g. https://pay.example.com")
	}
	if u.User != nil {
		// Redacted: the user info may hold a password.
		return refuse(u.Redacted(), "user info is not allowed; give the credentials apart from the URL")
	}
	switch strings.ToLower(u.Scheme) {
	case "https":
	case "http":
		if !IsLoopback(u.Hostname()) {
			return refuse(raw, "plain http is allowed only on a loopback host; use https://")
		}
	case "":
		return refuse(raw, "not a URL (no https://); give the service's address, e.g. https://pay.example.com")
	default:
		return refuse(raw, "scheme %q is not https; give the service's address, e.g. https://pay.example.com", u.Scheme)
	}
	if u.Host == "" || u.Hostname() == "" {
		return refuse(raw, "no host in it; give the service's address, e.g. https://pay.example.com")
	}
	if u.RawQuery != "" || u.Fragment != "" || u.ForceQuery {
		return refuse(raw, "a query or fragment is not allowed; give only the service's address")
	}
	u.Scheme = strings.ToLower(u.Scheme)
	return strings.TrimRight(u.String(), "/"), nil
}

// BaseURLError is a base URL CheckBaseURL refuses.
type BaseURLError struct {
	URL     string // the URL as given, any password in it replaced by "xxxxx"
	Problem string // what is wrong with it and what to give instead
}

func (e *BaseURLError) Error() string { return fmt.Sprintf("base URL %q: %s", e.URL, e.Problem) }

// redactUnparsed hides what may be user info (between "//" and the last
// "@") in a URL that url.Parse refused, so that it cannot be redacted the
// usual way.
func redactUnparsed(raw string) string {
	at := strings.LastIndex(raw, "@")
	if at < 0 {
		return raw
	}
	from := strings.Index(raw, "//") + 2
	if from < 2 || from > at {
		from = 0
	}
	return raw[:from] + "xxxxx" + raw[at:]
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
