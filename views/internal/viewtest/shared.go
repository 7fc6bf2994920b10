package viewtest

import (
	"context"
	"crypto/x509"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"paydash/backend"
	"paydash/backend/sandbox"
	"paydash/ui"
)

// One sandbox per package and clock. A test that only reads (most do:
// lists, panes, search, sort, copy, export, goldens) runs on its package's
// shared sandbox for its clock, the real one or Opts.Fixed; a test that
// changes the service says so (Opts.Changes) and has a sandbox of its own,
// so that what it changes is seen by no other test. A change sent through
// a shared sandbox's backend, or made by the helpers that make payments
// and tokens, fails the test at once, saying to set Opts.Changes.

// sandboxOptions are the options of every test's sandbox: a few thousand
// payments, and new ones settled quickly.
func sandboxOptions(now func() time.Time) sandbox.Options {
	return sandbox.Options{Seed: 3, Payments: 3000, SettleDelay: 200 * time.Millisecond, Now: now}
}

var shared struct {
	mu      sync.Mutex
	servers map[time.Time]*sandbox.Server // by fixed clock; the zero time is the real clock
}

// sharedSandbox is the package's sandbox on the clock fixed at fixed,
// started on first use and closed by Main. Its clock stands still, so
// that nothing in it changes while tests read it: with fixed zero it
// stands at the moment it started (a sandbox on the real clock would
// settle payments and fill in pages while they read).
func sharedSandbox(t *testing.T, fixed time.Time) *sandbox.Server {
	t.Helper()
	shared.mu.Lock()
	defer shared.mu.Unlock()
	if srv, ok := shared.servers[fixed]; ok {
		return srv
	}
	at := fixed
	if at.IsZero() {
		at = time.Now()
	}
	srv, err := sandbox.Start(context.Background(), sandboxOptions(clockAt(at)))
	require.NoError(t, err)
	if shared.servers == nil {
		shared.servers = map[time.Time]*sandbox.Server{}
	}
	shared.servers[fixed] = srv
	return srv
}

// closeShared closes the shared sandboxes, once the package's tests ended.
func closeShared() {
	shared.mu.Lock()
	defer shared.mu.Unlock()
	for _, srv := range shared.servers {
		_ = srv.Close()
	}
	shared.servers = nil
}

// ownSandbox is a sandbox of the test's own, closed when it ends.
func ownSandbox(t *testing.T, fixed time.Time) *sandbox.Server {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	srv, err := sandbox.Start(ctx, sandboxOptions(clockAt(fixed)))
	require.NoError(t, err)
	t.Cleanup(func() { _ = srv.Close() })
	return srv
}

// clockAt is a clock that stands at fixed, or nil (the real clock) when
// fixed is zero.
func clockAt(fixed time.Time) func() time.Time {
	if fixed.IsZero() {
		return nil
	}
	return func() time.Time { return fixed }
}

// readsOnly is the backend of a test on a shared sandbox: every call that
// would change the service fails the test instead of being sent.
type readsOnly struct {
	backend.Backend
	t *testing.T
}

const changesHint = "this test changes the service, which its package's other tests share: give it viewtest.Opts{Changes: true}"

func (r readsOnly) refuse(what string) error {
	r.t.Errorf("%s: %s", what, changesHint)
	return errSharedSandbox
}

var errSharedSandbox = errors.New("a test on the shared sandbox may not change it")

func (r readsOnly) CapturePayment(context.Context, backend.CaptureRequest) (backend.Payment, error) {
	return backend.Payment{}, r.refuse("capture")
}

func (r readsOnly) CancelPayment(context.Context, string) (backend.Payment, error) {
	return backend.Payment{}, r.refuse("cancel")
}

func (r readsOnly) RefundPayment(context.Context, backend.RefundRequest) (backend.Refund, error) {
	return backend.Refund{}, r.refuse("refund")
}

func (r readsOnly) RevokeToken(context.Context, string) (backend.Token, error) {
	return backend.Token{}, r.refuse("revoke")
}

func (r readsOnly) SetStickerActive(context.Context, string, bool) (backend.Sticker, error) {
	return backend.Sticker{}, r.refuse("switch a sticker")
}

func (r readsOnly) CreateInvoiceLink(context.Context, backend.InvoiceLinkRequest) (backend.InvoiceLink, error) {
	return backend.InvoiceLink{}, r.refuse("make a payment link")
}

func (r readsOnly) CreateSticker(context.Context, backend.StickerRequest) (backend.Sticker, error) {
	return backend.Sticker{}, r.refuse("make a sticker")
}

func (r readsOnly) CreateTokenizationLink(context.Context, backend.TokenizationLinkRequest) (backend.TokenizationLink, error) {
	return backend.TokenizationLink{}, r.refuse("make a card-saving link")
}

// mayChange fails the test, saying why, unless it has a sandbox of its own:
// for the helpers that change the sandbox's store directly.
func (e *Env) mayChange(what string) {
	e.T.Helper()
	if !e.own {
		e.T.Fatalf("%s: %s", what, changesHint)
	}
}

// StoreReader is what any test may ask the sandbox's store: reads only.
type StoreReader interface {
	Now() time.Time
	Merchant(id string) (sandbox.Merchant, bool)
	PaymentCount() int
	GetPayment(id string) (sandbox.Payment, error)
	PaymentByOrderNo(merchantID, orderNo string) (sandbox.Payment, error)
	FilterPayments(f sandbox.PaymentFilter) ([]sandbox.Payment, bool)
	PaymentPageURL(id string) string
	GetRefund(id string) (sandbox.Refund, error)
	RefundsOfPayment(paymentID string) ([]sandbox.Refund, error)
	FilterRefunds(f sandbox.RefundFilter) ([]sandbox.Refund, bool)
	TokensOf(merchantID string) []sandbox.PaymentToken
	TokenizationPageURL(id string) string
	GetSticker(id string) (sandbox.Sticker, error)
	Transfers(from, to time.Time) []sandbox.Transfer
	Register(id string) (sandbox.Register, error)
	DocumentContent(id string) (sandbox.Document, []byte, error)
}

// Store is the sandbox's store, to read.
func (e *Env) Store() StoreReader { return e.srv.Store() }

// Info is the sandbox's address and credentials.
func (e *Env) Info() sandbox.Info { return e.srv.Info() }

// CertPool trusts the sandbox's certificate.
func (e *Env) CertPool() *x509.CertPool { return e.srv.CertPool() }

// Sandbox is the test's own sandbox, to change (its store, its clock) or
// to close; a test on the shared one fails here, saying to set
// Opts.Changes.
func (e *Env) Sandbox() *sandbox.Server {
	e.T.Helper()
	e.mayChange("Sandbox")
	return e.srv
}

// Another is another start on e's sandbox, backend and clock, with tab:
// a second tab of the same dashboard, or the next run of paydash (the
// caller gives it a journal of its own).
func (e *Env) Another(t *testing.T, tab ui.Tab) *Env {
	return &Env{T: t, srv: e.srv, own: e.own, B: e.B, Count: e.Count, J: e.J, Jpath: e.Jpath, Now: e.Now,
		Scope: e.Scope, Tab: tab}
}
