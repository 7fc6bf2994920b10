package transport

import (
	"context"
	"crypto/x509"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"time"
)

// Defaults both clients start from, chosen for a person waiting at a
// dashboard: a slow answer is better than none, but not after minutes.
const (
	DefaultTimeout = 30 * time.Second
	DefaultRetries = 3
	DefaultBackoff = 200 * time.Millisecond
	MaxBackoff     = 5 * time.Second  // one backoff step never waits longer
	MaxRetryAfter  = 10 * time.Second // a longer Retry-After is handed to the caller instead
)

// Settings is what the options the clients have in common (WithHTTPClient,
// WithRootCAs, WithTimeout, WithRetries, WithUserAgent) set. Each Set method
// checks its value as the option of the same name does; its errors start
// with Owner, such as "v1: WithTimeout: ...".
type Settings struct {
	Owner string // the client's name, the prefix of every error: "v1" or "v2"

	HTTPClient    *http.Client   // the caller's, or nil for our own
	RootCAs       *x509.CertPool // nil: the system roots
	Timeout       time.Duration  // per attempt
	MaxRetries    int
	BaseBackoff   time.Duration
	MaxBackoff    time.Duration
	MaxRetryAfter time.Duration
	UserAgent     string
}

// NewSettings returns the defaults of the client owner, which sends
// userAgent unless told otherwise.
func NewSettings(owner, userAgent string) Settings {
	return Settings{
		Owner:         owner,
		Timeout:       DefaultTimeout,
		MaxRetries:    DefaultRetries,
		BaseBackoff:   DefaultBackoff,
		MaxBackoff:    MaxBackoff,
		MaxRetryAfter: MaxRetryAfter,
		UserAgent:     userAgent,
	}
}

// SetHTTPClient is WithHTTPClient: hc must not be nil.
func (s *Settings) SetHTTPClient(hc *http.Client) error {
	if hc == nil {
		return errors.New(s.Owner + ": WithHTTPClient: nil client")
	}
	s.HTTPClient = hc
	return nil
}

// SetRootCAs is WithRootCAs: pool must not be nil.
func (s *Settings) SetRootCAs(pool *x509.CertPool) error {
	if pool == nil {
		return errors.New(s.Owner + ": WithRootCAs: nil pool")
	}
	s.RootCAs = pool
	return nil
}

// SetTimeout is WithTimeout: d must be positive.
func (s *Settings) SetTimeout(d time.Duration) error {
	if d <= 0 {
		return fmt.Errorf("%s: WithTimeout: %s is not a positive duration", s.Owner, d)
	}
	s.Timeout = d
	return nil
}

// SetRetries is WithRetries: neither value may be negative.
func (s *Settings) SetRetries(max int, baseBackoff time.Duration) error {
	if max < 0 || baseBackoff < 0 {
		return fmt.Errorf("%s: WithRetries(%d, %s): negative value", s.Owner, max, baseBackoff)
	}
	s.MaxRetries, s.BaseBackoff = max, baseBackoff
	return nil
}

// SetUserAgent is WithUserAgent: ua must be a valid header value.
func (s *Settings) SetUserAgent(ua string) error {
	if !ValidHeaderValue(ua) {
		return errors.New(s.Owner + ": WithUserAgent: not a valid header value")
	}
	s.UserAgent = ua
	return nil
}

// NewHTTPClient is NewHTTPClient with these settings' client, roots and
// timeout; its errors start with Owner.
func (s *Settings) NewHTTPClient(idlePerHost int) (*http.Client, error) {
	hc, err := NewHTTPClient(s.HTTPClient, s.RootCAs, s.Timeout, idlePerHost)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", s.Owner, err)
	}
	return hc, nil
}

// ValidHeaderValue accepts visible ASCII and spaces: enough for tokens, keys
// and user agents, and nothing that could split a header.
func ValidHeaderValue(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return false
		}
	}
	return true
}

// Backoff is the wait before retry number attempt: base doubled on each
// attempt, capped at ceiling (or base, if larger), with "equal jitter":
// half fixed, half random, so clients that failed together spread out
// without any of them retrying at once. 0 when base is 0.
func Backoff(attempt int, base, ceiling time.Duration) time.Duration {
	limit := max(ceiling, base)
	d := base
	for i := 1; i < attempt && d < limit; i++ {
		d *= 2
	}
	d = min(d, limit)
	if d <= 0 {
		return 0
	}
	half := d / 2
	return half + rand.N(d-half+1)
}

// RetryWait says how long to wait before the next attempt, given the
// backoff and the answer's Retry-After (0 for none), or false when waiting
// is pointless: the service asked for a longer pause than maxRetryAfter,
// or the caller's deadline comes first.
func RetryWait(ctx context.Context, backoff, retryAfter, maxRetryAfter time.Duration) (time.Duration, bool) {
	wait := backoff
	if retryAfter > 0 {
		if retryAfter > maxRetryAfter {
			return 0, false // the caller sees RetryAfter in the error and can decide
		}
		wait = max(wait, retryAfter)
	}
	if deadline, ok := ctx.Deadline(); ok && time.Until(deadline) < wait {
		return 0, false
	}
	return wait, true
}

// Sleep waits d or until ctx is done, and returns ctx's error if it is.
func Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
