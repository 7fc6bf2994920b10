package v1

import (
	"errors"
	"fmt"
	"net/http"
	"paydash/backend/textsafe"
	"paydash/backend/transport"
	"strings"
	"time"
)

// Error codes of the service, as it documents them. Every answer carries one; 0 is
// success. The service may send codes not listed here: Meaning gives "" for
// them and Error still carries the number.
const (
	CodeOK                    = 0
	CodeUnknown               = -1  // unknown error; system failure
	CodeNetwork               = -2  // network error; system failure
	CodeNoAccess              = -6  // incorrect login or insufficient rights
	CodeBadSignature          = -7  // invalid request signature
	CodeMerchantDeclined      = -8  // the merchant declined the payment at the pre-request stage
	CodeAccountExpired        = -9  // the account (invoice) expired
	CodePaymentSystemDeclined = -10 // the payment system declined the payment
	CodeNotFound              = -13 // payment cannot be found by the account number
	CodeNonceReused           = -14 // repeat of a request with the same nonce
	CodeExpiredOrCancelled    = -15 // the payment expired or was cancelled
	CodeUserRefused           = -17 // the user refused to pay
	CodeBadAmount             = -18 // incorrect amount value (for refunds, the refund amount)
	CodeInsufficientFunds     = -19 // the user does not have enough funds
	CodePaymentSystemLogin    = -22 // cannot log into the payment system
	Code3DSecureFailed        = -25 // 3-D Secure authorization failed
	CodeInvalidCardNumber     = -26 // invalid card number
	CodeCardExpired           = -27 // card expired
	CodeCardBlocked           = -28 // card blocked
	CodeAmountLimitExceeded   = -29 // payment amount limit exceeded
	CodeQuantityLimitExceeded = -30 // payment quantity limit exceeded
	CodeInadmissibleOperation = -31 // inadmissible card operation

	// CodeExpired is CodeExpiredOrCancelled: a payment that expired (the
	// sandbox's reason for an unpaid invoice) rather than one declined.
	CodeExpired = CodeExpiredOrCancelled
)

// meanings is the service's documented table of codes, word for word.
var meanings = map[int]string{
	CodeUnknown:               "Unknown error; system failure",
	CodeNetwork:               "Network error; system failure",
	CodeNoAccess:              "No access: incorrect login or insufficient rights",
	CodeBadSignature:          "Invalid request signature",
	CodeMerchantDeclined:      "The merchant declined the payment at the pre-request stage",
	CodeAccountExpired:        "The account expired",
	CodePaymentSystemDeclined: "The payment system declined the payment",
	CodeNotFound:              "Payment cannot be found by the account number",
	CodeNonceReused:           "Repeat of the request with the same nonce",
	CodeExpiredOrCancelled:    "The payment expired or was cancelled",
	CodeUserRefused:           "The user refused to pay",
	CodeBadAmount:             "Incorrect amount value (for refunds, the refund amount)",
	CodeInsufficientFunds:     "The user does not have enough funds",
	CodePaymentSystemLogin:    "Cannot log into the payment system",
	Code3DSecureFailed:        "3D Secure authorization failed",
	CodeInvalidCardNumber:     "Invalid card number",
	CodeCardExpired:           "Card expired",
	CodeCardBlocked:           "Card blocked",
	CodeAmountLimitExceeded:   "Payment amount limit exceeded",
	CodeQuantityLimitExceeded: "Payment quantity limit exceeded",
	CodeInadmissibleOperation: "Inadmissible card operation",
}

// Meaning is the service's documented explanation of an error code, "Success"
// for 0, and "" for a code the spec does not list.
func Meaning(code int) string {
	if code == CodeOK {
		return "Success"
	}
	return meanings[code]
}

// Error is an answer with a non-zero ErrorCode: the service understood the
// request and refused or failed it. Message is the service's own text,
// stripped of control characters and of the password; Operation is the
// operation's name, e.g. "getPayment".
type Error struct {
	Code      int
	Message   string
	Operation string
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("v1: ")
	if e.Operation != "" {
		b.WriteString(e.Operation + ": ")
	}
	fmt.Fprintf(&b, "error %d", e.Code)
	if m := Meaning(e.Code); m != "" {
		b.WriteString(" (" + m + ")")
	} else {
		b.WriteString(" (a code the spec does not list)")
	}
	if e.Message != "" {
		b.WriteString(": " + e.Message)
	}
	return b.String()
}

// HTTPError is an answer with an HTTP status other than 200. The service
// answers everything with 200 (docs/service.md), so this is a server failure:
// the request may or may not have had its effect. Excerpt is a short,
// cleaned piece of the body.
type HTTPError struct {
	StatusCode int
	Excerpt    string
	Operation  string
	RetryAfter time.Duration // from a Retry-After header, 0 when none
}

func (e *HTTPError) Error() string {
	var b strings.Builder
	b.WriteString("v1: ")
	if e.Operation != "" {
		b.WriteString(e.Operation + ": ")
	}
	fmt.Fprintf(&b, "server failure: HTTP %d", e.StatusCode)
	if t := http.StatusText(e.StatusCode); t != "" {
		b.WriteString(" " + t)
	}
	if e.Excerpt != "" {
		b.WriteString(": " + e.Excerpt)
	}
	return b.String()
}

// ErrMalformedResponse is wrapped by the error for an HTTP 200 answer whose
// body is not what the operation answers (not JSON or XML, no ErrorCode, no
// payload). Such an answer is not retried.
var ErrMalformedResponse = errors.New("malformed answer")

// The helpers below see through wrapping.

// IsNoAccess: -6, an incorrect login or a role without the right (a
// Cashier asking for a refund).
func IsNoAccess(err error) bool { return hasCode(err, CodeNoAccess) }

// IsBadSignature: -7, the hash did not match: usually a wrong password.
func IsBadSignature(err error) bool { return hasCode(err, CodeBadSignature) }

// IsNonceReused: -14, the nonce was used before by this login.
func IsNonceReused(err error) bool { return hasCode(err, CodeNonceReused) }

// IsNotFound: -13, no such payment (by id or invoice number).
func IsNotFound(err error) bool { return hasCode(err, CodeNotFound) }

// IsBadAmount: -18, the amount is malformed or not allowed (a refund above
// what remains, a capture above the hold).
func IsBadAmount(err error) bool { return hasCode(err, CodeBadAmount) }

// IsRefused: the payment or the operation was refused: -15 (expired or
// cancelled), -31 (inadmissible operation), and the payment-decline codes
// -8, -9, -10, -17, -19 and -25 to -30.
func IsRefused(err error) bool {
	e, ok := AsError(err)
	if !ok {
		return false
	}
	switch e.Code {
	case CodeMerchantDeclined, CodeAccountExpired, CodePaymentSystemDeclined,
		CodeExpiredOrCancelled, CodeUserRefused, CodeInsufficientFunds,
		Code3DSecureFailed, CodeInvalidCardNumber, CodeCardExpired, CodeCardBlocked,
		CodeAmountLimitExceeded, CodeQuantityLimitExceeded, CodeInadmissibleOperation:
		return true
	}
	return false
}

// IsSystemFailure: -1 or -2, the service failed (or refused the request
// for a reason its code does not name; see the Message).
func IsSystemFailure(err error) bool { return hasCode(err, CodeUnknown) || hasCode(err, CodeNetwork) }

// IsServerFailure: an HTTP status other than 200 (*HTTPError).
func IsServerFailure(err error) bool {
	var e *HTTPError
	return errors.As(err, &e) && e != nil
}

// AsError returns the *Error in err's chain, if any.
func AsError(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e) && e != nil
	return e, ok
}

func hasCode(err error, code int) bool {
	e, ok := AsError(err)
	return ok && e.Code == code
}

// newHTTPError reads a non-200 answer; it never fails.
func newHTTPError(op string, hr *http.Response, body []byte, secrets ...string) *HTTPError {
	return &HTTPError{
		StatusCode: hr.StatusCode,
		Operation:  op,
		Excerpt:    textsafe.Excerpt([]byte(textsafe.Redact(string(body), secrets...)), hr.Header.Get("Content-Type"), 200),
		RetryAfter: transport.ParseRetryAfter(hr.Header.Get(headerRetryAfter), time.Now()),
	}
}
