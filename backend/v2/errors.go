package v2

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"paydash/backend/textsafe"
	"paydash/backend/transport"
	"strings"
	"time"
)

// Error codes of the service, as it documents them.
const (
	CodeValidationError         = "validation_error"
	CodeNotAuthorized           = "not_authorized"
	CodeIdempotencyKeyViolation = "idempotency_key_violation"
	CodeInvalidOperation        = "invalid_operation"
	CodePaymentTokenRevoked     = "payment_token_revoked"
	CodePaymentTokenBlocked     = "payment_token_blocked"
)

// Error is the service's answer to a request it refused or failed: any
// status outside 2xx. Code, Message and Errors come from the JSON error body
// when there is one; otherwise Message is a cleaned excerpt of whatever came
// (an HTML 502 page from a proxy, say). Message and Errors are stripped of
// control characters and never contain the bearer token.
type Error struct {
	StatusCode int
	Code       string   // e.g. invalid_operation; "" when the body had none
	Message    string   // the service's reason
	Errors     []string // optional details, e.g. each validation problem
	RetryAfter time.Duration
	Method     string
	Path       string // escaped request path, without the query
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("v2: ")
	if e.Method != "" || e.Path != "" {
		b.WriteString(e.Method + " " + e.Path + ": ")
	}
	fmt.Fprintf(&b, "HTTP %d", e.StatusCode)
	if e.Code != "" {
		b.WriteString(" " + e.Code)
	}
	if e.Message != "" {
		b.WriteString(": " + e.Message)
	}
	if len(e.Errors) > 0 {
		b.WriteString(" (" + strings.Join(e.Errors, "; ") + ")")
	}
	if e.RetryAfter > 0 {
		b.WriteString("; retry after " + e.RetryAfter.String())
	}
	return b.String()
}

// The helpers below decide by the body's code first and the status second
// (docs/service.md), so they keep working against a real service whose status
// mapping differs from the sandbox's guess. They all see through wrapping.

// IsNotAuthorized: the credentials may not do this (code not_authorized, or
// HTTP 401/403). The UI greys out what such an answer forbids.
func IsNotAuthorized(err error) bool {
	e, ok := asError(err)
	return ok && (e.Code == CodeNotAuthorized || e.StatusCode == http.StatusUnauthorized || e.StatusCode == http.StatusForbidden)
}

// IsUnauthenticated: the bearer token is missing or unknown (HTTP 401), as
// opposed to known but lacking a right.
func IsUnauthenticated(err error) bool {
	e, ok := asError(err)
	return ok && e.StatusCode == http.StatusUnauthorized
}

// IsNotFound: the id is unknown. The sandbox answers 404 with code
// invalid_operation and a message ending in "not found"; the message is
// accepted too, in case the real service uses another status.
func IsNotFound(err error) bool {
	e, ok := asError(err)
	if !ok {
		return false
	}
	return e.StatusCode == http.StatusNotFound ||
		(e.Code == CodeInvalidOperation && strings.HasSuffix(strings.ToLower(e.Message), "not found"))
}

// IsInvalidOperation: the request is refused, typically a move the object's
// state does not allow (a second capture, a refund above what was paid).
// An unknown id is also invalid_operation; tell them apart with IsNotFound.
func IsInvalidOperation(err error) bool {
	return hasCode(err, CodeInvalidOperation, http.StatusConflict)
}

// IsValidation: the request was malformed (validation_error, HTTP 400).
func IsValidation(err error) bool { return hasCode(err, CodeValidationError, http.StatusBadRequest) }

// IsIdempotencyViolation: the Idempotency-Key was used before with a
// different body.
func IsIdempotencyViolation(err error) bool { return hasCode(err, CodeIdempotencyKeyViolation, 0) }

// IsTokenRevoked: the payment token used was revoked.
func IsTokenRevoked(err error) bool { return hasCode(err, CodePaymentTokenRevoked, 0) }

// IsTokenBlocked: the payment token used is locked out.
func IsTokenBlocked(err error) bool { return hasCode(err, CodePaymentTokenBlocked, 0) }

// IsRateLimited: HTTP 429; the error's RetryAfter says how long to wait when
// the service said so.
func IsRateLimited(err error) bool {
	e, ok := asError(err)
	return ok && e.StatusCode == http.StatusTooManyRequests
}

// IsServerError: the service failed (HTTP 5xx); the request may or may not
// have had its effect.
func IsServerError(err error) bool {
	e, ok := asError(err)
	return ok && e.StatusCode >= 500 && e.StatusCode <= 599
}

func asError(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e) && e != nil
	return e, ok
}

// hasCode matches the body's code when there is one, and otherwise falls
// back to status (0: no fallback).
func hasCode(err error, code string, status int) bool {
	e, ok := asError(err)
	if !ok {
		return false
	}
	if e.Code != "" {
		return e.Code == code
	}
	return status != 0 && e.StatusCode == status
}

// newError reads a non-2xx answer. It never fails: whatever the body is, the
// caller gets an *Error with at least the status.
func newError(r call, hr *http.Response, body []byte, token string) *Error {
	e := &Error{
		StatusCode: hr.StatusCode,
		Method:     r.method,
		Path:       r.path,
		RetryAfter: transport.ParseRetryAfter(hr.Header.Get(headerRetryAfter), time.Now()),
	}
	var wire struct {
		Code    string            `json:"code"`
		Message string            `json:"message"`
		Errors  []json.RawMessage `json:"errors"` // strings per spec; anything else is kept as JSON text
	}
	if err := json.Unmarshal(trimBOM(body), &wire); err == nil && (wire.Code != "" || wire.Message != "" || len(wire.Errors) > 0) {
		e.Code = textsafe.Line(textsafe.Redact(wire.Code, token), 100)
		e.Message = textsafe.Line(textsafe.Redact(wire.Message, token), 500)
		for _, raw := range wire.Errors {
			var s string
			if json.Unmarshal(raw, &s) != nil {
				s = string(raw)
			}
			e.Errors = append(e.Errors, textsafe.Line(textsafe.Redact(s, token), 300))
		}
	} else {
		e.Message = textsafe.Excerpt([]byte(textsafe.Redact(string(body), token)), hr.Header.Get("Content-Type"), 200)
	}
	if e.Message == "" && e.Code == "" {
		e.Message = http.StatusText(hr.StatusCode)
	}
	return e
}
