package sandbox

import (
	"errors"
	"fmt"
	"strings"
)

// The store refuses with these typed errors; each interface maps them to its
// own answer (v2: HTTP status + code, v1: ErrorCode). They match the sentinels
// below with errors.Is and their own type with errors.As.

var (
	ErrNotFound         = errors.New("not found")
	ErrInvalidOperation = errors.New("invalid operation")
	ErrValidation       = errors.New("validation error")
	ErrTokenRevoked     = errors.New("payment token revoked")
	ErrTokenBlocked     = errors.New("payment token blocked")
)

// NotFoundError: no object of that kind has that id.
type NotFoundError struct {
	Kind string // payment, refund, payment token, sticker
	ID   string
}

func (e *NotFoundError) Error() string { return fmt.Sprintf("%s %s not found", e.Kind, e.ID) }
func (e *NotFoundError) Unwrap() error { return ErrNotFound }

// InvalidOperationError: the object's state does not allow the move.
type InvalidOperationError struct{ Message string }

func (e *InvalidOperationError) Error() string { return e.Message }
func (e *InvalidOperationError) Unwrap() error { return ErrInvalidOperation }

func invalidOp(format string, args ...any) error {
	return &InvalidOperationError{Message: fmt.Sprintf(format, args...)}
}

// ValidationError lists every problem found in a request.
type ValidationError struct{ Problems []string }

func (e *ValidationError) Error() string {
	return "validation error: " + strings.Join(e.Problems, "; ")
}
func (e *ValidationError) Unwrap() error { return ErrValidation }

func invalid(problems ...string) error { return &ValidationError{Problems: problems} }

// TokenRevokedError: a payment by a revoked token.
type TokenRevokedError struct{ TokenID string }

func (e *TokenRevokedError) Error() string {
	return fmt.Sprintf("payment token %s is revoked", e.TokenID)
}
func (e *TokenRevokedError) Unwrap() error { return ErrTokenRevoked }

// TokenBlockedError: a payment by a token locked out by the issuer.
type TokenBlockedError struct{ TokenID string }

func (e *TokenBlockedError) Error() string {
	return fmt.Sprintf("payment token %s is blocked", e.TokenID)
}
func (e *TokenBlockedError) Unwrap() error { return ErrTokenBlocked }
