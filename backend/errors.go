package backend

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"

	"paydash/backend/transport"
)

// ErrorKind sorts failures by what the person at the keyboard can do about them.
type ErrorKind int

const (
	KindUnknown         ErrorKind = iota
	KindNotFound                  // no such payment, refund, token or sticker
	KindRefused                   // the service refused the move in this state
	KindNotAuthorized             // the credentials may not do this
	KindUnauthenticated           // the credentials are wrong or missing
	KindInvalid                   // the request was malformed (a bad amount, a missing field)
	KindConflict                  // an idempotency key was reused with other data
	KindUnavailable               // network trouble, rate limit or a server failure: try again
	KindTokenRevoked              // the saved card was revoked
	KindTokenBlocked              // the saved card is locked out
	KindMalformed                 // the service answered something that cannot be read
	KindUnsupported               // the configured interfaces cannot do this at all
	KindTooLarge                  // the service's answer is larger than the client reads: ask for less
)

// Error is the adapter's error: the same shape whichever interface answered.
type Error struct {
	Kind      ErrorKind
	Op        string    // what was being done, e.g. "refund payment 43149010"
	Interface Interface // which interface answered (empty if none did)
	Code      string    // the service's own code (v2 `code`, v1 ErrorCode as text)
	Message   string    // the service's own reason
	Details   []string  // e.g. the list of validation problems
	Err       error     // the underlying error
}

func (e *Error) Error() string {
	return e.Op + ": " + e.reason()
}

// reason is the failure without the op and without the service's code.
func (e *Error) reason() string {
	var b strings.Builder
	var tl *transport.TooLargeError
	switch {
	case e.Message != "":
		b.WriteString(e.Message)
	case errors.As(e.Err, &tl):
		b.WriteString(tl.Error()) // what happened and what to do, without "v2: GET /api/v2/...:"
	case e.Err != nil && e.Kind == KindUnavailable:
		b.WriteString(unreachable(e.Err))
	case e.Err != nil && e.Kind == KindMalformed:
		// "v2: POST /api/v2/refunds: malformed answer: unexpected end of
		// JSON input" says it to a programmer; the point is the answer.
		detail := e.Err.Error()
		if i := strings.LastIndex(detail, "malformed answer: "); i >= 0 {
			detail = detail[i+len("malformed answer: "):]
		}
		b.WriteString("the service's answer could not be read (" + detail + ")")
	case e.Err != nil:
		b.WriteString(e.Err.Error())
	default:
		b.WriteString(e.Kind.String())
	}
	if len(e.Details) > 0 {
		b.WriteString(" (")
		b.WriteString(strings.Join(e.Details, "; "))
		b.WriteString(")")
	}
	return b.String()
}

// Reason is the service's reason for err in plain words, without the op,
// for a message that already names the action ("Refund of 500.00 RUB for
// payment 43149010 was refused: <Reason>"): for an adapter *Error its
// message (or, without one, the short form of the underlying failure), its
// details in parentheses, then the service's own code, " (code
// invalid_operation)" from v2 or " (ErrorCode -18)" from v1. For any other
// error, its text. The text may come from the server: clean it (textsafe)
// before it reaches the terminal.
func Reason(err error) string {
	if err == nil {
		return ""
	}
	var e *Error
	if !errors.As(err, &e) {
		return err.Error()
	}
	s := e.reason()
	if e.Code != "" {
		if e.Interface == V1 {
			s += " (ErrorCode " + e.Code + ")"
		} else {
			s += " (code " + e.Code + ")"
		}
	}
	return s
}

func (e *Error) Unwrap() error { return e.Err }

// Hint says what to do next, in words a support person can act on.
func (e *Error) Hint() string {
	if e.Kind == KindTooLarge || errors.Is(e.Err, transport.ErrAnswerTooLarge) {
		return "ask for less: choose a shorter period (retrying gets the same answer)"
	}
	switch e.Kind {
	case KindNotFound:
		return "check the id; it may belong to another merchant"
	case KindRefused:
		return "refresh to see the current state"
	case KindNotAuthorized:
		return "these credentials may not do this; ask for an account with the right role"
	case KindUnauthenticated:
		return "check the token or login in the environment or config file"
	case KindInvalid:
		return "correct the input and try again"
	case KindConflict:
		return "this was already sent with other data; refresh before trying again"
	case KindUnavailable:
		return "check the network and the base URL; press r to try again"
	case KindTokenRevoked, KindTokenBlocked:
		return "the customer must save a card again"
	case KindMalformed:
		// The request log is mentioned by the dashboard, and only when one
		// is being written (ui.Config.RequestLog).
		return "the service answered something unreadable; try again"
	case KindUnsupported:
		return "configure the interface that offers it"
	}
	return ""
}

func (k ErrorKind) String() string {
	switch k {
	case KindNotFound:
		return "not found"
	case KindRefused:
		return "refused"
	case KindNotAuthorized:
		return "not authorized"
	case KindUnauthenticated:
		return "not authenticated"
	case KindInvalid:
		return "invalid request"
	case KindConflict:
		return "conflict"
	case KindUnavailable:
		return "service unavailable"
	case KindTokenRevoked:
		return "token revoked"
	case KindTokenBlocked:
		return "token blocked"
	case KindMalformed:
		return "malformed answer"
	case KindUnsupported:
		return "not supported"
	case KindTooLarge:
		return "answer too large"
	}
	return "error"
}

// KindOf returns the kind of an adapter error, or KindUnknown.
func KindOf(err error) ErrorKind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return KindUnknown
}

// unreachable says in a few words why no answer came: the status bar has one
// line, and "v2: GET /api/v2/payments: dial tcp 10.0.0.1:443: connect:
// connection refused" buries the point.
func unreachable(err error) string {
	var op *net.OpError
	var dns *net.DNSError
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return "no answer from the service in time"
	case errors.As(err, &dns):
		return "cannot find the service's host (" + dns.Name + ")"
	case errors.As(err, &op) && op.Op == "dial":
		return "cannot reach the service (" + innermost(op).Error() + ")"
	case errors.As(err, &op):
		return "the connection to the service failed (" + innermost(op).Error() + ")"
	}
	return err.Error()
}

// innermost is the last error of a chain: "connection refused" rather than
// everything wrapped around it.
func innermost(err error) error {
	for {
		next := errors.Unwrap(err)
		if next == nil {
			return err
		}
		err = next
	}
}

func unsupported(op, why string) error {
	return &Error{Kind: KindUnsupported, Op: op, Message: why}
}

func opf(format string, args ...any) string { return fmt.Sprintf(format, args...) }

func itoa(n int) string { return strconv.Itoa(n) }
