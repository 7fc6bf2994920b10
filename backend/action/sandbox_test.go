package action_test

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend"
	"paydash/backend/action"
	"paydash/backend/journal"
	"paydash/backend/money"
	"paydash/backend/sandbox"
)

// These tests drive the Runner over real HTTPS against the embedded
// sandbox, as backend's own tests do, and look into the sandbox's store for
// the truth: which refunds exist, what state a payment is in.

func startSandbox(t *testing.T) *sandbox.Server {
	t.Helper()
	srv, err := sandbox.Start(t.Context(), sandbox.Options{
		Seed: 5, Payments: 0, SettleDelay: time.Hour, CallbackBackoff: 10 * time.Millisecond,
	})
	require.NoError(t, err)
	t.Cleanup(func() { _ = srv.Close() })
	return srv
}

// setup is one way of connecting: its name and the interface that carries
// actions (v2 when configured, else v1, as the UI decides).
type setup struct {
	name string
	via  backend.Interface
	v2   bool
	v1   bool
}

var setups = []setup{
	{"v2 alone", backend.V2, true, false},
	{"v1 alone", backend.V1, false, true},
	{"both", backend.V2, true, true},
}

func open(t *testing.T, srv *sandbox.Server, s setup) backend.Backend {
	t.Helper()
	cfg := backend.Config{BaseURL: srv.BaseURL(), RootCAs: srv.CertPool(), MerchantIDs: srv.Info().MerchantIDs, Sandbox: true}
	if s.v2 {
		cfg.V2Token = srv.Info().V2Token
	}
	if s.v1 {
		for _, u := range srv.Info().V1Users {
			if u.Role == "Accountant" {
				cfg.V1Login, cfg.V1Password = u.Login, u.Password
			}
		}
	}
	b, err := backend.Open(cfg)
	require.NoError(t, err)
	require.NoError(t, b.Probe(context.Background()))
	return b
}

// fixture is a sandbox, a backend and a runner with its own journal.
type fixture struct {
	t     *testing.T
	srv   *sandbox.Server
	b     backend.Backend
	run   *action.Runner
	jpath string
	via   backend.Interface
}

func newFixture(t *testing.T, srv *sandbox.Server, s setup) *fixture {
	t.Helper()
	jpath := filepath.Join(t.TempDir(), "journal.jsonl")
	j, err := journal.Open(jpath)
	require.NoError(t, err)
	t.Cleanup(func() { _ = j.Close() })
	b := open(t, srv, s)
	return &fixture{t: t, srv: srv, b: b, run: &action.Runner{Backend: b, Journal: j}, jpath: jpath, via: s.via}
}

func rub(v string) money.Amount { return money.Amount{Value: money.MustParse(v), Currency: "RUB"} }

// pay makes a card payment in the store directly: Authorized when dual,
// else Settled.
func (f *fixture) pay(amount string, dual bool) string {
	f.t.Helper()
	a := rub(amount)
	p, err := f.srv.Store().CreatePayment(sandbox.PaymentRequest{
		MerchantID: f.srv.Store().MerchantIDs()[0], DualMode: dual, Amount: &a, PaymentMethod: "bankcard",
		Invoice: sandbox.Invoice{Description: "action test", OrderNo: "A-" + time.Now().Format("150405.000000")},
		Card:    &sandbox.CardData{PAN: "4111111111111111", Expiry: "12/30", CVC: "123"},
	})
	require.NoError(f.t, err)
	return p.ID
}

func (f *fixture) status(id string) sandbox.PaymentStatus {
	f.t.Helper()
	p, err := f.srv.Store().GetPayment(id)
	require.NoError(f.t, err)
	return p.Status
}

// refunds are the payment's refunds in the store.
func (f *fixture) refunds(id string) []sandbox.Refund {
	f.t.Helper()
	rs, err := f.srv.Store().RefundsOfPayment(id)
	require.NoError(f.t, err)
	return rs
}

func (f *fixture) journal() []journal.Entry {
	f.t.Helper()
	es, err := journal.Read(f.jpath)
	require.NoError(f.t, err)
	return es
}

// phases are the phases of the journal lines of one action, checking that
// each line carries the whole request.
func (f *fixture) phases(req action.Request) []string {
	f.t.Helper()
	var out []string
	for _, e := range f.journal() {
		if e.ActionID != req.ID {
			continue
		}
		out = append(out, e.Phase)
		assert.Equal(f.t, string(req.Kind), e.Action)
		assert.Equal(f.t, req.ObjectID, e.ObjectID)
		assert.Equal(f.t, req.Amount.Value.StringFixed(2), e.Amount)
		assert.Equal(f.t, req.Amount.Currency, e.Currency)
		assert.Equal(f.t, string(req.Interface), e.Interface)
		assert.Equal(f.t, req.IdempotencyKey, e.IdempotencyKey)
	}
	return out
}

// last is the journal's last line.
func (f *fixture) last() journal.Entry {
	f.t.Helper()
	es := f.journal()
	require.NotEmpty(f.t, es)
	return es[len(es)-1]
}

func TestSendHappyPathsAndRefusals(t *testing.T) {
	srv := startSandbox(t)
	for _, s := range setups {
		t.Run(s.name, func(t *testing.T) {
			f := newFixture(t, srv, s)
			ctx := context.Background()

			// Capture part of a hold.
			hold := f.pay("500", true)
			req, o := f.run.Send(ctx, action.New(backend.ActionCapture, hold, rub("300"), f.via))
			require.Equal(t, action.Done, o.State, "%v", o.Err)
			assert.False(t, req.Sent.IsZero(), "Send fills Sent")
			assert.Equal(t, action.HowAnswered, o.How)
			assert.Equal(t, backend.PaymentSettled, o.Payment.Status)
			assert.Equal(t, sandbox.PaymentSettled, f.status(hold))
			assert.NoError(t, o.JournalErr)
			assert.Equal(t, []string{journal.PhaseSent, journal.PhaseDone}, f.phases(req))
			assert.Equal(t, "Settled 300.00", f.last().Result)
			assert.Equal(t, action.HowAnswered, f.last().How)
			assert.Equal(t, "Captured 300.00 RUB of payment "+hold+" — now Settled", o.Text(req))

			// Capturing it again is refused: the service's reason, no op.
			req, o = f.run.Send(ctx, action.New(backend.ActionCapture, hold, rub("300"), f.via))
			require.Equal(t, action.NotDone, o.State)
			assert.Equal(t, backend.KindRefused, backend.KindOf(o.Err), "%v", o.Err)
			assert.Equal(t, []string{journal.PhaseSent, journal.PhaseFailed}, f.phases(req))
			assert.NotEmpty(t, f.last().Error)
			assert.Contains(t, o.Text(req), "Capture of 300.00 RUB for payment "+hold+" was refused: ")
			assert.NotContains(t, o.Text(req), "capture payment "+hold+":", "the op is not repeated")

			// Release a hold.
			hold2 := f.pay("250", true)
			req, o = f.run.Send(ctx, action.New(backend.ActionCancelHold, hold2, rub("250"), f.via))
			require.Equal(t, action.Done, o.State, "%v", o.Err)
			assert.Equal(t, sandbox.PaymentCancelled, f.status(hold2))
			assert.Equal(t, []string{journal.PhaseSent, journal.PhaseDone}, f.phases(req))
			assert.Equal(t, "Released the hold of 250.00 RUB on payment "+hold2+" — now Cancelled", o.Text(req))

			// Cancelling a settled payment is refused.
			req, o = f.run.Send(ctx, action.New(backend.ActionCancelHold, hold, rub("300"), f.via))
			require.Equal(t, action.NotDone, o.State)
			assert.Equal(t, []string{journal.PhaseSent, journal.PhaseFailed}, f.phases(req))

			// Refund.
			paid := f.pay("1000", false)
			req, o = f.run.Send(ctx, action.New(backend.ActionRefund, paid, rub("400"), f.via))
			require.Equal(t, action.Done, o.State, "%v", o.Err)
			require.Len(t, f.refunds(paid), 1)
			assert.Equal(t, f.refunds(paid)[0].ID, o.Refund.ID)
			assert.Equal(t, []string{journal.PhaseSent, journal.PhaseDone}, f.phases(req))
			assert.Equal(t, "refund "+o.Refund.ID+" Pending", f.last().Result)
			assert.Equal(t, "Refund "+o.Refund.ID+" of 400.00 RUB made for payment "+paid+" — Pending", o.Text(req))
			if s.via == backend.V1 {
				assert.Equal(t, req.IdempotencyKey, f.refunds(paid)[0].ExternalID, "v1 carries the key as externalID")
			}

			// More than remains is refused, and nothing is made.
			req, o = f.run.Send(ctx, action.New(backend.ActionRefund, paid, rub("700"), f.via))
			require.Equal(t, action.NotDone, o.State)
			assert.Len(t, f.refunds(paid), 1)
			assert.Equal(t, []string{journal.PhaseSent, journal.PhaseFailed}, f.phases(req))
			assert.Contains(t, o.Text(req), "Refund of 700.00 RUB for payment "+paid+" was refused: ")

			assert.Empty(t, action.Pending(f.journal()), "every action sent here has its outcome")
		})
	}
}

// A refund whose answer was lost: Check finds it, and the service holds
// exactly one refund with the key either way.
func TestCheckRefundWhoseAnswerWasLost(t *testing.T) {
	srv := startSandbox(t)
	for _, s := range setups {
		t.Run(s.name, func(t *testing.T) {
			f := newFixture(t, srv, s)
			ctx := context.Background()

			// The refund was made; its answer never came back.
			paid := f.pay("1000", false)
			req := action.New(backend.ActionRefund, paid, rub("150"), f.via)
			req.Sent = time.Now()
			made, err := f.b.RefundPayment(ctx, backend.RefundRequest{PaymentID: paid, Amount: req.Amount, IdempotencyKey: req.IdempotencyKey})
			require.NoError(t, err)

			o := f.run.Check(ctx, req)
			require.Equal(t, action.Done, o.State, "%v", o.Err)
			assert.Equal(t, made.ID, o.Refund.ID)
			want := action.HowAskedAgain
			if s.via == backend.V1 {
				want = action.HowLookedUp
			}
			assert.Equal(t, want, o.How)
			assert.Len(t, f.refunds(paid), 1, "exactly one refund")
			assert.Equal(t, []string{journal.PhaseDone}, f.phases(req))
			assert.Equal(t, want, f.last().How)
			assert.Equal(t, "refund "+made.ID+" Pending", f.last().Result)

			// The request never arrived.
			other := f.pay("1000", false)
			lost := action.New(backend.ActionRefund, other, rub("150"), f.via)
			lost.Sent = time.Now()
			o = f.run.Check(ctx, lost)
			if s.via == backend.V2 {
				require.Equal(t, action.Done, o.State, "v2 asks again with the key: the refund is made now; %v", o.Err)
				assert.Len(t, f.refunds(other), 1, "exactly one refund")
				o = f.run.Check(ctx, lost)
				require.Equal(t, action.Done, o.State)
				assert.Len(t, f.refunds(other), 1, "asking again and again makes no second one")
			} else {
				require.Equal(t, action.NotDone, o.State, "v1: no refund carries the key")
				assert.Equal(t, action.HowLookedUp, o.How)
				assert.Empty(t, f.refunds(other))
				assert.Equal(t, journal.PhaseFailed, f.last().Phase)
				assert.Equal(t, "Refund of 150.00 RUB for payment "+other+" was not made: no refund carries its externalID", o.Text(lost))
			}
		})
	}

	// With both configured, a refund carried by v1 is looked up through v1.
	t.Run("both, sent through v1", func(t *testing.T) {
		f := newFixture(t, srv, setups[2])
		legacy := open(t, srv, setups[1])
		ctx := context.Background()
		paid := f.pay("1000", false)
		req := action.New(backend.ActionRefund, paid, rub("90"), backend.V1)
		req.Sent = time.Now()
		_, err := legacy.RefundPayment(ctx, backend.RefundRequest{PaymentID: paid, Amount: req.Amount, IdempotencyKey: req.IdempotencyKey})
		require.NoError(t, err)
		o := f.run.Check(ctx, req)
		require.Equal(t, action.Done, o.State, "%v", o.Err)
		assert.Equal(t, action.HowLookedUp, o.How)
		assert.Len(t, f.refunds(paid), 1)
	})
}

func TestCheckCaptureAndCancelReadThePayment(t *testing.T) {
	srv := startSandbox(t)
	for _, s := range setups {
		t.Run(s.name, func(t *testing.T) {
			f := newFixture(t, srv, s)
			ctx := context.Background()
			sent := func(kind backend.ActionName, id, amount string) action.Request {
				r := action.New(kind, id, rub(amount), f.via)
				r.Sent = time.Now()
				return r
			}

			// The capture went through; its answer was lost.
			hold := f.pay("500", true)
			_, err := f.srv.Store().CapturePayment(hold, nil)
			require.NoError(t, err)
			req := sent(backend.ActionCapture, hold, "500")
			o := f.run.Check(ctx, req)
			require.Equal(t, action.Done, o.State, "%v", o.Err)
			assert.Equal(t, action.HowReadPayment, o.How)
			assert.Equal(t, []string{journal.PhaseDone}, f.phases(req))
			assert.Equal(t, "Settled 500.00", f.last().Result)

			// Found Settled with another amount: both are said.
			hold = f.pay("500", true)
			part := rub("200")
			_, err = f.srv.Store().CapturePayment(hold, &part)
			require.NoError(t, err)
			req = sent(backend.ActionCapture, hold, "500")
			o = f.run.Check(ctx, req)
			require.Equal(t, action.Done, o.State, "%v", o.Err)
			assert.Equal(t, "Captured 200.00 RUB of payment "+hold+" (500.00 RUB was sent) — now Settled", o.Text(req))

			// The capture never arrived: still Authorized.
			hold = f.pay("500", true)
			req = sent(backend.ActionCapture, hold, "500")
			o = f.run.Check(ctx, req)
			require.Equal(t, action.NotDone, o.State)
			assert.Equal(t, "Capture of 500.00 RUB for payment "+hold+" was not made: the payment is still Authorized", o.Text(req))
			assert.Equal(t, []string{journal.PhaseFailed}, f.phases(req))
			assert.Equal(t, action.HowReadPayment, f.last().How)

			// Meanwhile the hold was released by someone else.
			_, err = f.srv.Store().CancelPayment(hold)
			require.NoError(t, err)
			o = f.run.Check(ctx, sent(backend.ActionCapture, hold, "500"))
			require.Equal(t, action.NotDone, o.State)
			assert.EqualError(t, o.Err, "the payment was cancelled")

			// The cancel: released, not released, captured instead.
			released := f.pay("300", true)
			_, err = f.srv.Store().CancelPayment(released)
			require.NoError(t, err)
			o = f.run.Check(ctx, sent(backend.ActionCancelHold, released, "300"))
			require.Equal(t, action.Done, o.State, "%v", o.Err)
			assert.Equal(t, backend.PaymentCancelled, o.Payment.Status)

			still := f.pay("300", true)
			o = f.run.Check(ctx, sent(backend.ActionCancelHold, still, "300"))
			require.Equal(t, action.NotDone, o.State)
			assert.EqualError(t, o.Err, "the payment is still Authorized")

			captured := f.pay("300", true)
			_, err = f.srv.Store().CapturePayment(captured, nil)
			require.NoError(t, err)
			o = f.run.Check(ctx, sent(backend.ActionCancelHold, captured, "300"))
			require.Equal(t, action.NotDone, o.State)
			assert.EqualError(t, o.Err, "it was captured, not released")

			// An unknown payment: not known, and asking again will not help.
			o = f.run.Check(ctx, sent(backend.ActionCapture, "999999999999", "500"))
			require.Equal(t, action.Unknown, o.State)
			assert.False(t, o.Retry)
		})
	}
}

// counting counts the refunds the Runner asks of the backend.
type counting struct {
	backend.Backend
	refunds, checks atomic.Int32
}

func (c *counting) RefundPayment(ctx context.Context, r backend.RefundRequest) (backend.Refund, error) {
	c.refunds.Add(1)
	return c.Backend.RefundPayment(ctx, r)
}

func (c *counting) CheckRefund(ctx context.Context, r backend.RefundRequest, via backend.Interface) (backend.Refund, bool, error) {
	c.checks.Add(1)
	return c.Backend.CheckRefund(ctx, r, via)
}

func TestAV2RefundOlderThan23HoursIsNotAskedAgain(t *testing.T) {
	srv := startSandbox(t)
	f := newFixture(t, srv, setups[0])
	c := &counting{Backend: f.b}
	f.run.Backend = c
	paid := f.pay("1000", false)

	req := action.New(backend.ActionRefund, paid, rub("100"), backend.V2)
	req.Sent = time.Now().Add(-23*time.Hour - time.Minute)
	o := f.run.Check(context.Background(), req)
	require.Equal(t, action.Unknown, o.State)
	assert.False(t, o.Retry, "it cannot be found out automatically")
	assert.Contains(t, o.Err.Error(), "24 hours")
	assert.Contains(t, o.Text(req), "check the payment by hand")
	assert.Zero(t, c.checks.Load()+c.refunds.Load(), "nothing is sent")
	assert.Empty(t, f.refunds(paid))
	assert.Empty(t, f.journal(), "an unknown outcome writes no line")

	// A v1 refund has no such limit: its lookup sends nothing.
	f1 := newFixture(t, srv, setups[1])
	old := action.New(backend.ActionRefund, paid, rub("100"), backend.V1)
	old.Sent = time.Now().Add(-72 * time.Hour)
	o = f1.run.Check(context.Background(), old)
	assert.Equal(t, action.NotDone, o.State, "%v", o.Err)
}

func TestCheckThroughAnInterfaceNotConfigured(t *testing.T) {
	srv := startSandbox(t)
	ctx := context.Background()

	f := newFixture(t, srv, setups[1]) // v1 alone
	paid := f.pay("1000", false)
	req := action.New(backend.ActionRefund, paid, rub("100"), backend.V2)
	req.Sent = time.Now()
	o := f.run.Check(ctx, req)
	require.Equal(t, action.Unknown, o.State)
	assert.False(t, o.Retry)
	assert.Equal(t, backend.KindUnsupported, backend.KindOf(o.Err))
	assert.Contains(t, o.Text(req), "PAYDASH_V2_TOKEN")
	assert.Contains(t, o.Text(req), "check the payment by hand")

	f = newFixture(t, srv, setups[0]) // v2 alone
	req = action.New(backend.ActionRefund, paid, rub("100"), backend.V1)
	req.Sent = time.Now()
	o = f.run.Check(ctx, req)
	require.Equal(t, action.Unknown, o.State)
	assert.False(t, o.Retry)
	assert.Empty(t, f.refunds(paid), "nothing was sent")
	assert.Empty(t, f.journal())
}

func TestSendWithAClosedJournalSendsNothing(t *testing.T) {
	srv := startSandbox(t)
	f := newFixture(t, srv, setups[0])
	c := &counting{Backend: f.b}
	f.run.Backend = c
	require.NoError(t, f.run.Journal.Close())
	paid := f.pay("1000", false)

	req, o := f.run.Send(context.Background(), action.New(backend.ActionRefund, paid, rub("100"), backend.V2))
	require.Equal(t, action.NotDone, o.State)
	assert.ErrorIs(t, o.Err, action.ErrNotRecorded)
	assert.ErrorIs(t, o.Err, journal.ErrClosed)
	assert.Zero(t, c.refunds.Load())
	assert.Empty(t, f.refunds(paid))
	assert.Equal(t, "Refund of 100.00 RUB for payment "+paid+" was not sent: the journal could not record the action first: journal: closed", o.Text(req))

	var none *journal.Journal
	_, o = (&action.Runner{Backend: c, Journal: none}).Send(context.Background(), action.New(backend.ActionRefund, paid, rub("100"), backend.V2))
	assert.ErrorIs(t, o.Err, action.ErrNotRecorded, "no journal: nothing is sent")
	assert.Zero(t, c.refunds.Load())
}

// Every answer garbled after the request was served: the refund is made,
// the Send cannot tell, and Check finds the one refund.
func TestAGarbledAnswerIsFoundOut(t *testing.T) {
	srv := startSandbox(t)
	ctx := context.Background()

	t.Run("v2 refund", func(t *testing.T) {
		f := newFixture(t, srv, setups[0])
		paid := f.pay("1000", false)
		require.NoError(t, srv.SetFaults(sandbox.Faults{MalformedRate: 1}))
		req, o := f.run.Send(ctx, action.New(backend.ActionRefund, paid, rub("250"), backend.V2))
		require.NoError(t, srv.SetFaults(sandbox.Faults{}))
		require.Equal(t, action.Unknown, o.State, "%v", o.Err)
		assert.True(t, o.Retry)
		assert.Equal(t, backend.KindMalformed, backend.KindOf(o.Err))
		assert.Contains(t, o.Text(req), "outcome unknown — checking (")
		assert.Len(t, f.refunds(paid), 1, "the service made it")
		assert.Equal(t, []string{journal.PhaseSent, journal.PhaseUnknown}, f.phases(req))
		assert.Equal(t, []action.Request{withoutMono(req)}, pendingOf(f), "an unknown outcome is pending")

		o = f.run.Check(ctx, req)
		require.Equal(t, action.Done, o.State, "%v", o.Err)
		assert.Equal(t, action.HowAskedAgain, o.How)
		assert.Len(t, f.refunds(paid), 1, "exactly one refund")
		assert.Equal(t, f.refunds(paid)[0].ID, o.Refund.ID)
		assert.Equal(t, []string{journal.PhaseSent, journal.PhaseUnknown, journal.PhaseDone}, f.phases(req))
		assert.Empty(t, action.Pending(f.journal()))
	})

	t.Run("v2 capture", func(t *testing.T) {
		f := newFixture(t, srv, setups[0])
		hold := f.pay("500", true)
		require.NoError(t, srv.SetFaults(sandbox.Faults{MalformedRate: 1}))
		req, o := f.run.Send(ctx, action.New(backend.ActionCapture, hold, rub("500"), backend.V2))
		require.NoError(t, srv.SetFaults(sandbox.Faults{}))
		require.Equal(t, action.Unknown, o.State, "%v", o.Err)
		assert.Equal(t, sandbox.PaymentSettled, f.status(hold))
		o = f.run.Check(ctx, req)
		require.Equal(t, action.Done, o.State, "%v", o.Err)
		assert.Equal(t, action.HowReadPayment, o.How)
	})

	t.Run("v1 refund", func(t *testing.T) {
		// v1 looks for the key before sending: the garbled lookup stops
		// the refund, and the Check finds that none was made.
		f := newFixture(t, srv, setups[1])
		paid := f.pay("1000", false)
		require.NoError(t, srv.SetFaults(sandbox.Faults{MalformedRate: 1}))
		req, o := f.run.Send(ctx, action.New(backend.ActionRefund, paid, rub("250"), backend.V1))
		require.NoError(t, srv.SetFaults(sandbox.Faults{}))
		require.Equal(t, action.Unknown, o.State, "%v", o.Err)
		o = f.run.Check(ctx, req)
		require.Equal(t, action.NotDone, o.State, "%v", o.Err)
		assert.Empty(t, f.refunds(paid))
	})
}

// A client that gives up while the answer is on its way: the refund is made
// (the sandbox served the request), the Send is Unknown, the Check finds it.
// The answer is held between the sandbox and the client until the client
// has given up, so the order is the same on any machine: served, given up,
// answered too late.
func TestALateAnswerIsFoundOut(t *testing.T) {
	srv := startSandbox(t)
	f := newFixture(t, srv, setups[0])
	late := holdAnswer(t, srv)
	f.run.Backend = late.backend
	paid := f.pay("1000", false)

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	type sent struct {
		req action.Request
		o   action.Outcome
	}
	done := make(chan sent, 1)
	go func() {
		req, o := f.run.Send(ctx, action.New(backend.ActionRefund, paid, rub("300"), backend.V2))
		done <- sent{req, o}
	}()
	select {
	case <-late.served:
	case s := <-done:
		t.Fatalf("Send returned before the sandbox served the refund: %v", s.o.Err)
	case <-time.After(longWait):
		t.Fatal("the refund never reached the sandbox")
	}
	cancel() // the client gives up: its answer is still held
	var s sent
	select {
	case s = <-done:
	case <-time.After(longWait):
		t.Fatal("Send did not return once its context ended")
	}
	late.let()
	req, o := s.req, s.o
	require.Equal(t, action.Unknown, o.State, "%v", o.Err)
	assert.True(t, o.Retry)
	assert.Len(t, f.refunds(paid), 1, "the sandbox made the refund whose answer never came")

	o = f.run.Check(context.Background(), req)
	require.Equal(t, action.Done, o.State, "%v", o.Err)
	assert.Len(t, f.refunds(paid), 1)
}

// longWait bounds the waits for what takes milliseconds (a request
// reaching the sandbox, a cancelled request returning); what they catch
// (it never happens) would wait for ever.
const longWait = time.Minute

// heldAnswer is a proxy between a backend and the sandbox that holds the
// answer to the first POST once the sandbox has served it, until let.
type heldAnswer struct {
	backend backend.Backend // v2, through the proxy
	served  chan struct{}   // closed when the first POST was served
	release chan struct{}
	once    sync.Once
}

func (h *heldAnswer) let() { h.once.Do(func() { close(h.release) }) }

func holdAnswer(t *testing.T, srv *sandbox.Server) *heldAnswer {
	t.Helper()
	h := &heldAnswer{served: make(chan struct{}), release: make(chan struct{})}
	target, err := url.Parse(srv.BaseURL())
	require.NoError(t, err)
	var held atomic.Bool
	proxy := &httputil.ReverseProxy{
		Rewrite:   func(pr *httputil.ProxyRequest) { pr.SetURL(target) },
		Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: srv.CertPool()}},
		ModifyResponse: func(resp *http.Response) error {
			if resp.Request.Method != http.MethodPost || !held.CompareAndSwap(false, true) {
				return nil
			}
			body, err := io.ReadAll(resp.Body)
			_ = resp.Body.Close()
			resp.Body = io.NopCloser(bytes.NewReader(body))
			close(h.served) // the sandbox has done the work and answered
			<-h.release
			return err
		},
		ErrorLog: log.New(io.Discard, "", 0), // the client gone is the point
	}
	ts := httptest.NewTLSServer(proxy)
	t.Cleanup(ts.Close)
	t.Cleanup(h.let) // before Close, which waits for the held handler
	pool := x509.NewCertPool()
	pool.AddCert(ts.Certificate())
	h.backend, err = backend.Open(backend.Config{BaseURL: ts.URL, RootCAs: pool, MerchantIDs: srv.Info().MerchantIDs,
		Sandbox: true, V2Token: srv.Info().V2Token})
	require.NoError(t, err)
	return h
}

func TestAbandonLeavesTheActionPending(t *testing.T) {
	srv := startSandbox(t)
	f := newFixture(t, srv, setups[0])
	paid := f.pay("1000", false)
	req := action.New(backend.ActionRefund, paid, rub("100"), backend.V2)
	req.Sent = time.Now()
	require.NoError(t, f.run.Journal.Record(journal.Entry{Action: "refund", Phase: journal.PhaseSent, ObjectID: paid,
		Amount: "100.00", Currency: "RUB", Interface: "v2", IdempotencyKey: req.IdempotencyKey, ActionID: req.ID, Time: req.Sent}))
	require.NoError(t, f.run.Abandon(req, "paydash quit before the answer came"))
	assert.Equal(t, []string{journal.PhaseSent, journal.PhaseAbandoned}, f.phases(req))
	assert.Equal(t, "paydash quit before the answer came", f.last().Error)

	pending := action.Pending(f.journal())
	require.Len(t, pending, 1)
	assert.Equal(t, req.ID, pending[0].ID)
	o := f.run.Check(context.Background(), pending[0])
	require.Equal(t, action.Done, o.State, "%v", o.Err)
	assert.Empty(t, action.Pending(f.journal()))
}

// pendingOf is Pending of the fixture's journal, times without their
// monotonic reading (as read back from the file).
func pendingOf(f *fixture) []action.Request {
	out := action.Pending(f.journal())
	for i := range out {
		out[i] = withoutMono(out[i])
	}
	return out
}

func withoutMono(r action.Request) action.Request {
	r.Sent = r.Sent.Round(0).UTC()
	return r
}

func TestSendRefusesARequestThatCouldNotBeFoundOut(t *testing.T) {
	srv := startSandbox(t)
	f := newFixture(t, srv, setups[2]) // both: actions go through v2
	c := &counting{Backend: f.b}
	f.run.Backend = c
	paid := f.pay("1000", false)
	assert.Equal(t, backend.V2, action.Carrier(f.b))

	for name, req := range map[string]action.Request{
		"the wrong interface": action.New(backend.ActionRefund, paid, rub("10"), backend.V1),
		"no key":              {ID: "x", Kind: backend.ActionRefund, ObjectID: paid, Amount: rub("10"), Interface: backend.V2},
		"no amount":           action.New(backend.ActionRefund, paid, money.Amount{Currency: "RUB"}, backend.V2),
		"no payment":          action.New(backend.ActionRefund, "", rub("10"), backend.V2),
		"an unknown kind":     action.New("revoke", paid, rub("10"), backend.V2),
	} {
		_, o := f.run.Send(context.Background(), req)
		assert.Equal(t, action.NotDone, o.State, name)
		assert.Contains(t, o.Text(req), " was not sent: ", name)
	}
	assert.Zero(t, c.refunds.Load())
	assert.Empty(t, f.journal(), "nothing sent, nothing journaled")
	assert.Empty(t, f.refunds(paid))
}

// A refusal whose status was lost on the way (the malformed fault turns the
// read-only token's 403 into a 200 with half its body) is not taken for a
// capture: the answer is garbled, and the payment says what happened.
func TestAMangledRefusalIsNotTakenForDone(t *testing.T) {
	srv := startSandbox(t)
	ctx := context.Background()
	f := newFixture(t, srv, setups[0])
	ro, err := backend.Open(backend.Config{BaseURL: srv.BaseURL(), RootCAs: srv.CertPool(),
		MerchantIDs: srv.Info().MerchantIDs, Sandbox: true, V2Token: srv.Info().V2ReadOnlyToken})
	require.NoError(t, err)
	f.run.Backend = ro
	hold := f.pay("500", true)
	require.NoError(t, srv.SetFaults(sandbox.Faults{MalformedRate: 1}))
	req, o := f.run.Send(ctx, action.New(backend.ActionCapture, hold, rub("500"), backend.V2))
	require.NoError(t, srv.SetFaults(sandbox.Faults{}))
	require.Equal(t, action.Unknown, o.State, "%s", o.Text(req))
	assert.Equal(t, sandbox.PaymentAuthorized, f.status(hold))
	o = f.run.Check(ctx, req)
	require.Equal(t, action.NotDone, o.State)
	assert.Equal(t, "Capture of 500.00 RUB for payment "+hold+" was not made: the payment is still Authorized", o.Text(req))
}

// saysDone answers every capture and release with success and the payment
// as it was: a service (or proxy) whose "done" does not match the object.
type saysDone struct{ backend.Backend }

func (s saysDone) CapturePayment(ctx context.Context, r backend.CaptureRequest) (backend.Payment, error) {
	return s.GetPayment(ctx, r.PaymentID)
}

func (s saysDone) CancelPayment(ctx context.Context, id string) (backend.Payment, error) {
	return s.GetPayment(ctx, id)
}

func TestADoneThatThePaymentDeniesIsFoundOut(t *testing.T) {
	srv := startSandbox(t)
	ctx := context.Background()
	f := newFixture(t, srv, setups[0])
	f.run.Backend = saysDone{f.b}
	for _, kind := range []backend.ActionName{backend.ActionCapture, backend.ActionCancelHold} {
		hold := f.pay("80", true)
		req, o := f.run.Send(ctx, action.New(kind, hold, rub("80"), backend.V2))
		require.Equal(t, action.Unknown, o.State, "%s: %s", kind, o.Text(req))
		assert.Contains(t, o.Text(req), "the service said done, but the payment is Authorized")
		assert.Equal(t, []string{journal.PhaseSent, journal.PhaseUnknown}, f.phases(req))
		o = f.run.Check(ctx, req)
		assert.Equal(t, action.NotDone, o.State, "%s", kind)
	}
}
