package v2_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	v2 "paydash/backend/v2"
)

var helpers = map[string]func(error) bool{
	"NotAuthorized":        v2.IsNotAuthorized,
	"Unauthenticated":      v2.IsUnauthenticated,
	"NotFound":             v2.IsNotFound,
	"InvalidOperation":     v2.IsInvalidOperation,
	"Validation":           v2.IsValidation,
	"IdempotencyViolation": v2.IsIdempotencyViolation,
	"TokenRevoked":         v2.IsTokenRevoked,
	"TokenBlocked":         v2.IsTokenBlocked,
	"RateLimited":          v2.IsRateLimited,
	"ServerError":          v2.IsServerError,
}

func TestErrorDecodingAndHelpers(t *testing.T) {
	cases := []struct {
		name   string
		status int
		body   string
		want   []string // the helpers that must say yes; all others must say no
		code   string
		msg    string
		errs   []string
	}{
		{"validation", 400, `{"code":"validation_error","message":"bad request","errors":["merchantId is required","amount: too many decimals"]}`,
			[]string{"Validation"}, "validation_error", "bad request", []string{"merchantId is required", "amount: too many decimals"}},
		{"unknown token", 401, `{"code":"not_authorized","message":"unknown bearer token"}`,
			[]string{"NotAuthorized", "Unauthenticated"}, "not_authorized", "unknown bearer token", nil},
		{"no right", 403, `{"code":"not_authorized","message":"read-only token"}`,
			[]string{"NotAuthorized"}, "not_authorized", "read-only token", nil},
		{"not found", 404, `{"code":"invalid_operation","message":"payment 9 not found"}`,
			[]string{"NotFound", "InvalidOperation"}, "invalid_operation", "payment 9 not found", nil},
		{"idempotency", 409, `{"code":"idempotency_key_violation","message":"key reused with another body"}`,
			[]string{"IdempotencyViolation"}, "idempotency_key_violation", "key reused with another body", nil},
		{"invalid move", 409, `{"code":"invalid_operation","message":"payment is not Authorized"}`,
			[]string{"InvalidOperation"}, "invalid_operation", "payment is not Authorized", nil},
		{"token revoked", 422, `{"code":"payment_token_revoked","message":"revoked"}`,
			[]string{"TokenRevoked"}, "payment_token_revoked", "revoked", nil},
		{"token blocked", 422, `{"code":"payment_token_blocked","message":"blocked"}`,
			[]string{"TokenBlocked"}, "payment_token_blocked", "blocked", nil},
		{"rate limited", 429, `{"code":"rate_limited","message":"slow down"}`,
			[]string{"RateLimited"}, "rate_limited", "slow down", nil},
		{"server", 500, `{"code":"internal","message":"boom"}`,
			[]string{"ServerError"}, "internal", "boom", nil},
		// The body's code wins over the status: a 400 that says not_authorized.
		{"code before status", 400, `{"code":"not_authorized","message":"no"}`,
			[]string{"NotAuthorized"}, "not_authorized", "no", nil},
		// No code: the status decides.
		{"bare 409", 409, `{"message":"conflict"}`, []string{"InvalidOperation"}, "", "conflict", nil},
		{"bare 400", 400, ``, []string{"Validation"}, "", "Bad Request", nil},
		{"bare 404", 404, `<h1>Not Found</h1>`, []string{"NotFound"}, "", "Not Found", nil},
		// Errors that are not strings are kept as their JSON text.
		{"odd details", 400, `{"code":"validation_error","message":"m","errors":[{"field":"amount"},"x"]}`,
			[]string{"Validation"}, "validation_error", "m", []string{`{"field":"amount"}`, "x"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := newServer(t, reply(tc.status, tc.body))
			c := newClient(t, s, v2.WithRetries(0, 0))

			_, resp, err := c.Payments.Get(context.Background(), "p9")
			require.Error(t, err)
			require.NotNil(t, resp)
			assert.Equal(t, tc.body, string(resp.Body))

			var e *v2.Error
			require.ErrorAs(t, err, &e)
			assert.Equal(t, tc.status, e.StatusCode)
			assert.Equal(t, tc.code, e.Code)
			assert.Equal(t, tc.msg, e.Message)
			assert.Equal(t, tc.errs, e.Errors)
			assert.Equal(t, http.MethodGet, e.Method)
			assert.Equal(t, "/api/v2/payments/p9", e.Path)

			wrapped := fmt.Errorf("loading the payment pane: %w", err)
			for name, is := range helpers {
				want := false
				for _, w := range tc.want {
					want = want || w == name
				}
				assert.Equal(t, want, is(err), "Is%s", name)
				assert.Equal(t, want, is(wrapped), "Is%s on a wrapped error", name)
			}
		})
	}
}

func TestHelpersOnOtherErrors(t *testing.T) {
	for name, is := range helpers {
		assert.False(t, is(nil), name)
		assert.False(t, is(errors.New("x")), name)
		assert.False(t, is(context.Canceled), name)
	}
}

func TestErrorString(t *testing.T) {
	e := &v2.Error{StatusCode: 409, Code: "invalid_operation", Message: "already captured",
		Errors: []string{"a", "b"}, RetryAfter: 2 * time.Second, Method: "PUT", Path: "/api/v2/payments/p1/confirm"}
	assert.Equal(t, "v2: PUT /api/v2/payments/p1/confirm: HTTP 409 invalid_operation: already captured (a; b); retry after 2s", e.Error())
}

func TestNonJSONErrorBodyGivesACleanExcerpt(t *testing.T) {
	page := "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\x1b<center><h1>502 Bad Gateway</h1></center>\x07" +
		"<hr><center>nginx</center>" + strings.Repeat("<p>padding</p>", 100) + "</body></html>"
	s := newServer(t, func(w http.ResponseWriter, _ *http.Request, _ int) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusBadGateway)
		_, _ = w.Write([]byte(page))
	})
	_, _, err := newClient(t, s, v2.WithRetries(0, 0)).Refunds.Get(context.Background(), "r1")
	var e *v2.Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, http.StatusBadGateway, e.StatusCode)
	assert.Empty(t, e.Code)
	assert.True(t, strings.HasPrefix(e.Message, "502 Bad Gateway 502 Bad Gateway nginx padding"), e.Message)
	assert.LessOrEqual(t, len([]rune(e.Message)), 201, "trimmed")
	for _, bad := range []string{"<", "\x1b", "\x07", "\r", "\n"} {
		assert.NotContains(t, e.Message, bad)
		assert.NotContains(t, err.Error(), bad)
	}
	assert.True(t, v2.IsServerError(err))
}

func TestErrorTextIsCleaned(t *testing.T) {
	s := newServer(t, reply(400, `{"code":"validation_error","message":"bad\u001b]0;pwned\u0007 value\u202e","errors":["line1\nline2"]}`))
	_, _, err := newClient(t, s).Payments.Get(context.Background(), "p1")
	var e *v2.Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, "bad value", e.Message, "the whole escape sequence is dropped, not only its ESC")
	assert.Equal(t, []string{"line1 line2"}, e.Errors)
}

func TestRetryAfterIsDecoded(t *testing.T) {
	s := newServer(t, func(w http.ResponseWriter, _ *http.Request, _ int) {
		w.Header().Set("Retry-After", "120")
		w.WriteHeader(http.StatusTooManyRequests)
	})
	_, err := newClient(t, s).Payments.Cancel(context.Background(), "p1")
	var e *v2.Error
	require.ErrorAs(t, err, &e)
	assert.Equal(t, 120*time.Second, e.RetryAfter)
	assert.Equal(t, "Too Many Requests", e.Message)
	assert.Contains(t, err.Error(), "retry after 2m0s")
}
