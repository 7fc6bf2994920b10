package sandbox

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"
)

// Control of time and state for testers (the sandbox only; Stripe's test
// clocks are the model), under /_sandbox/, with the full v2 bearer token:
//
//	POST /_sandbox/clock/advance        {"duration":"1h"} -> {"now":"...","events":N}
//	POST /_sandbox/reset                                  -> {"reset":true,"now":"..."}
//	POST /_sandbox/callbacks/{id}/resend                  -> 202 {"deliveryId":"cb_7","id":"...","url":"..."}
//	POST /_sandbox/scenario  {"kind":"decline_spike","rate":0.6,"duration":"30m"} -> {"scenario":{...}}
//	GET  /_sandbox/scenario                               -> {"scenarios":[...]}
//
// No token or an unknown one is 401, the read-only token 403 (not_authorized,
// as in v2); an unknown path is 404 and another method 405, in the v2 error
// shape. A trailing slash is accepted. Faults are never injected here (they
// apply to /api/ only).
//
// advance moves the store clock on by duration, a Go duration string ("90s",
// "1h30m") or a JSON number of seconds (90, 0.5), more than 0 and at most
// MaxAdvance (reset.go; call again to go further), and makes everything due
// within that time happen now, in due order, each move stamped with its due
// time: pending payments and refunds settle, invoices expire, tokenization
// pages are filled in, and their callbacks are sent. Kept idempotency keys
// and v1 nonces age with the clock. Arrivals are not made up for the skipped
// time.
//
// reset puts the store back to the seed the sandbox started with (same
// seed, same payment count, same ids) and the clock back to real time (the
// advances are undone), forgets every kept idempotency key and v1 nonce (a
// tester replaying a recorded script after a reset gets what a fresh sandbox
// gives), cancels callback deliveries under way and forgets the callbacks
// sent, and forgets the scenarios (scenario.go). Credentials, the base URL,
// the CA and the faults stay as they are.
//
// resend names a payment or payment token by its id and sends its last
// callback again (the same body to the same address) as a new delivery,
// with retries like any other; 404 if none was sent for it (none was made,
// its address was not a loopback one, it is older than the last 10,000
// objects notified, or a reset came since).

// maxControlBody bounds a control request's body.
const maxControlBody = 4 << 10

func (s *Server) controlRoutes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /_sandbox/clock/advance", s.controlAdvance)
	mux.HandleFunc("POST /_sandbox/reset", s.controlReset)
	mux.HandleFunc("POST /_sandbox/callbacks/{id}/resend", s.controlResend)
	mux.HandleFunc("POST /_sandbox/scenario", s.controlSetScenario) // scenario.go
	mux.HandleFunc("GET /_sandbox/scenario", s.controlListScenarios)
	return s.controlAuth(trimTrailingSlash(jsonErrorsFor(mux)))
}

// controlAuth lets only the full v2 token through.
func (s *Server) controlAuth(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		token := ""
		if h := r.Header.Get("Authorization"); len(h) > 7 && strings.EqualFold(h[:7], "Bearer ") {
			token = strings.TrimSpace(h[7:])
		}
		switch s.store.V2Access(token) {
		case AccessFull:
			next.ServeHTTP(w, r)
		case AccessReadOnly:
			writeJSON(w, http.StatusForbidden, wireError{Code: "not_authorized", Message: "the read-only bearer token may not control the sandbox; use the full v2 token"})
		default:
			w.Header().Set("WWW-Authenticate", `Bearer realm="paydash sandbox"`)
			writeJSON(w, http.StatusUnauthorized, wireError{Code: "not_authorized", Message: "missing or unknown bearer token"})
		}
	})
}

// trimTrailingSlash serves "/_sandbox/reset/" as "/_sandbox/reset".
func trimTrailingSlash(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if p := r.URL.Path; len(p) > len("/_sandbox/") && strings.HasSuffix(p, "/") {
			r2 := r.WithContext(r.Context())
			u := *r.URL
			u.Path, u.RawPath = strings.TrimSuffix(p, "/"), ""
			r2.URL = &u
			r = r2
		}
		next.ServeHTTP(w, r)
	})
}

type advanceIn struct {
	Duration json.RawMessage `json:"duration"`
}

type advanceOut struct {
	Now    time.Time `json:"now"`
	Events int       `json:"events"`
}

type resetOut struct {
	Reset bool      `json:"reset"`
	Now   time.Time `json:"now"`
}

type resendOut struct {
	DeliveryID string `json:"deliveryId"`
	ID         string `json:"id"`
	URL        string `json:"url"`
}

func (s *Server) controlAdvance(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxControlBody))
	if err != nil {
		badRequest(w, []string{fmt.Sprintf("request body could not be read (at most %d bytes): %v", maxControlBody, err)})
		return
	}
	var in advanceIn
	if problems := decodeInto(bytes.TrimPrefix(body, utf8BOM), &in); len(problems) > 0 {
		badRequest(w, problems)
		return
	}
	d, problem := parseAdvance(in.Duration)
	if problem != "" {
		badRequest(w, []string{problem})
		return
	}
	n, err := s.store.Advance(d)
	if err != nil {
		fail(w, err)
		return
	}
	now := s.store.Now()
	writeJSON(w, http.StatusOK, advanceOut{Now: now, Events: n})
}

// parseAdvance reads a duration: a Go duration string or a JSON number of
// seconds, more than 0 and at most MaxAdvance.
func parseAdvance(raw json.RawMessage) (time.Duration, string) {
	d, problem := readDuration(raw, `a Go duration such as "90s" or "1h30m", or a number of seconds, more than 0 and at most `+maxAdvanceText)
	switch {
	case problem != "":
		return 0, problem
	case d < 0:
		return 0, fmt.Sprintf("duration %s is negative: the sandbox clock only moves forward", d)
	case d == 0:
		return 0, "duration must be more than 0"
	case d > MaxAdvance:
		return 0, fmt.Sprintf("duration %s is out of range: at most %s per call", d, maxAdvanceText)
	}
	return d, ""
}

// readDuration reads the member duration: a Go duration string or a JSON
// number of seconds; want says what it must be, for the messages. The
// range is the caller's to check.
func readDuration(raw json.RawMessage, want string) (time.Duration, string) {
	v := bytes.TrimSpace(raw)
	if len(v) == 0 || string(v) == "null" {
		return 0, "duration is required: " + want
	}
	var text string
	if v[0] == '"' {
		if err := json.Unmarshal(v, &text); err != nil {
			return 0, "duration must be " + want
		}
	} else {
		var num json.Number
		if err := json.Unmarshal(v, &num); err != nil {
			return 0, "duration must be " + want
		}
		text = num.String() + "s" // 1.5 -> "1.5s": exact, and an overflow is caught
	}
	d, err := time.ParseDuration(strings.TrimSpace(text))
	if err != nil {
		return 0, fmt.Sprintf("duration %q is not %s", clean(text, 64), want)
	}
	return d, ""
}

var maxAdvanceText = fmt.Sprintf("%s (%d days)", MaxAdvance, MaxAdvance/(24*time.Hour))

func (s *Server) controlReset(w http.ResponseWriter, r *http.Request) {
	if err := s.store.Reset(r.Context()); err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			writeJSON(w, http.StatusServiceUnavailable, wireError{Code: "internal_error", Message: "reset interrupted: " + err.Error()})
			return
		}
		fail(w, err)
		return
	}
	s.resetServerState()
	now := s.store.Now()
	writeJSON(w, http.StatusOK, resetOut{Reset: true, Now: now})
}

// resetServerState forgets what the server keeps beside the store: kept
// idempotency keys (their answers name objects that no longer exist, and
// whose ids new objects will take), v1 nonces, callbacks under way and sent.
func (s *Server) resetServerState() {
	s.idem.reset()
	s.nonces.reset()
	s.deliver.reset()
}

func (s *Server) controlResend(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	n, ok := s.deliver.resend(id)
	if !ok {
		writeJSON(w, http.StatusNotFound, wireError{Code: "invalid_operation",
			Message: fmt.Sprintf("no callback has been sent for %q: give the id of a payment or payment token whose callbackUrl is a loopback address (the sandbox sends callbacks nowhere else)", clean(id, 64))})
		return
	}
	s.log.Info("callback resent", "delivery", n.ID, "what", n.What, "url", n.URL)
	writeJSON(w, http.StatusAccepted, resendOut{DeliveryID: n.ID, ID: n.Object, URL: n.URL})
}
