// Package testkit holds what the tests of the backend packages share: a
// clock moved by hand, a bound on waits that must not happen, a buffer
// safe for concurrent use, and test servers' ways of failing to answer. It
// is for tests only.
package testkit

import (
	"bytes"
	"net/http"
	"sync"
	"testing"
	"time"
)

// Clock is a clock that moves only when told (Advance), safe for
// concurrent use: the laptop's clock, say, wrong by years.
type Clock struct {
	mu sync.Mutex
	t  time.Time
}

// NewClock is a Clock that reads t.
func NewClock(t time.Time) *Clock { return &Clock{t: t} }

// Now is the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

// Advance moves the clock by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// HangBound bounds the tests of waits that must not happen: a client that
// behaves is done in well under a second even on a loaded machine, where
// one that waits as it should not waits an hour, or for ever.
const HangBound = time.Minute

// ReturnsWithin runs f and fails the test if f has not returned after
// HangBound (f goes on in the background then).
func ReturnsWithin(t testing.TB, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(HangBound):
		t.Fatalf("%s: still waiting after %s", what, HangBound)
	}
}

// Buffer is a bytes.Buffer safe for concurrent use: a server's log,
// read while the server writes it.
type Buffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String is what was written so far.
func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// NeverAnswer keeps a test server's handler from answering r at all: no
// response, not even an empty 200, reaches the client from it. It lets go
// when the client gives up on r or the test ends (t.Context is done before
// the test's cleanups, the server's Close among them, run).
func NeverAnswer(t testing.TB, r *http.Request) {
	select {
	case <-r.Context().Done():
	case <-t.Context().Done():
	}
	panic(http.ErrAbortHandler)
}

// DropConnection closes a test server's connection without an answer.
func DropConnection(w http.ResponseWriter) {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err == nil {
		_ = conn.Close()
	}
}

// V1Hashed is, for each v1 operation, the parameters its hash covers, in
// the order they are hashed, as the service's documentation of v1 lists
// them (docs/service.md): the tests' own reading, kept apart from the
// sandbox's and the client's tables so that a test checks them against it.
var V1Hashed = map[string][]string{
	"getPayment":            {"paymentID"},
	"getPaymentByInvoiceID": {"invoiceID", "siteAlias"},
	"listPaymentsFilter":    {"accountID", "siteAlias", "periodFrom", "periodTo", "invoiceID", "state"},
	"refundPayment":         {"paymentID", "amount", "externalID"},
	"listRefunds":           {"accountID", "paymentID", "periodFrom", "periodTo", "externalID"},
	"confirmPayment":        {"paymentID", "amount"},
	"cancelPayment":         {"paymentID", "error"},
	"listDocuments":         {"accountID", "periodFrom", "periodTo"},
	"getDocumentContent":    {"documentID"},
	"listTransfers":         {"accountID", "periodFrom", "periodTo"},
	"getTransferRegister":   {"registerID"},
}
