package v2_test

// End-to-end tests: the real client over real HTTPS against the embedded
// sandbox, for every endpoint of the spec. The sandbox's test cards are
// documented in backend/sandbox.

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend/money"
	"paydash/backend/sandbox"
	v2 "paydash/backend/v2"
)

const (
	cardApproved  = "4111111111111111"
	cardDeclined  = "4000000000000002"
	cardSmsOtp    = "4000000000000077"
	cardChallenge = "4000000000003063"
	cardMethod    = "4000000000003220"
	cardV1        = "4000000000000101"
	cardPending   = "4000000000000259"
)

type env struct {
	srv      *sandbox.Server
	api      *v2.Client
	ro       *v2.Client
	merchant string
}

// newEnv starts a sandbox whose clock stands still: nothing settles or
// expires between two requests of a test, however slow the machine, only
// when the test moves the clock (settle).
func newEnv(t testing.TB, payments int) *env {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	started := time.Now()
	srv, err := sandbox.Start(ctx, sandbox.Options{
		Seed: 11, Payments: payments, SettleDelay: 150 * time.Millisecond, CallbackBackoff: 20 * time.Millisecond,
		Now: func() time.Time { return started },
	})
	require.NoError(t, err)
	t.Cleanup(func() { _ = srv.Close() })
	info := srv.Info()
	api, err := v2.NewClient(srv.BaseURL(), info.V2Token, v2.WithRootCAs(srv.CertPool()))
	require.NoError(t, err)
	ro, err := v2.NewClient(srv.BaseURL(), info.V2ReadOnlyToken, v2.WithRootCAs(srv.CertPool()))
	require.NoError(t, err)
	return &env{srv: srv, api: api, ro: ro, merchant: info.MerchantIDs[0]}
}

// settle moves the sandbox's clock on by its settle delay: what was made
// Pending settles before it returns.
func (e *env) settle(t *testing.T) {
	t.Helper()
	_, err := e.srv.Store().Advance(e.srv.Store().SettleDelay())
	require.NoError(t, err)
}

// longWait bounds the waits for what the sandbox does in milliseconds on
// the real clock (a callback and its retry): what they catch, a callback
// that never comes, would wait for ever.
const longWait = time.Minute

func rub(s string) *money.Amount { return &money.Amount{Value: money.MustParse(s), Currency: "RUB"} }

func (e *env) pay(t *testing.T, pan string, amount string, dual bool) *v2.Payment {
	t.Helper()
	p, _, err := e.api.Payments.Create(context.Background(), &v2.PaymentRequest{
		MerchantID: e.merchant, DualMode: dual, Amount: rub(amount),
		Invoice:     &v2.Invoice{Description: "Flat white", OrderNo: "T-" + pan[len(pan)-4:]},
		PaymentData: &v2.PaymentData{PaymentMethod: "bankcard", Card: &v2.Card{PAN: pan, Expiry: "12/30", CVC: "123"}},
		Customer:    &v2.Customer{Email: "buyer@example.com", IP: "203.0.113.7"},
	}, nil)
	require.NoError(t, err)
	return p
}

func TestE2EPaymentsLifecycle(t *testing.T) {
	e := newEnv(t, 200)
	ctx := context.Background()

	settled := e.pay(t, cardApproved, "350.50", false)
	assert.Equal(t, v2.PaymentStatusSettled, settled.Status)
	assert.Equal(t, v2.ResultCode("Success"), settled.ResultCode)
	assert.Equal(t, "350.5", settled.Amount.Value.String())
	require.NotNil(t, settled.PaymentData.CardInfo)
	assert.NotEmpty(t, settled.PaymentData.CardInfo.Brand)
	assert.False(t, settled.Completed.IsZero())

	got, resp, err := e.api.Payments.Get(ctx, settled.ID)
	require.NoError(t, err)
	assert.Equal(t, settled.ID, got.ID)
	assert.Equal(t, "Flat white", got.Invoice.Description)
	assert.Contains(t, string(resp.Body), settled.ID)

	declined := e.pay(t, cardDeclined, "100", false)
	assert.Equal(t, v2.PaymentStatusRejected, declined.Status)
	assert.Equal(t, v2.ResultCode("TransactionDeclined"), declined.ResultCode)

	// Capture of a settled payment and cancel of a settled payment are refused.
	_, err = e.api.Payments.Confirm(ctx, settled.ID, nil)
	assert.True(t, v2.IsInvalidOperation(err), "%v", err)
	_, err = e.api.Payments.Cancel(ctx, settled.ID)
	assert.True(t, v2.IsInvalidOperation(err), "%v", err)

	// A hold: capture more than authorized is refused, less is fine, twice is refused.
	hold := e.pay(t, cardApproved, "1000", true)
	assert.Equal(t, v2.PaymentStatusAuthorized, hold.Status)
	_, err = e.api.Payments.Confirm(ctx, hold.ID, rub("1000.01"))
	assert.True(t, v2.IsInvalidOperation(err), "%v", err)
	_, err = e.api.Payments.Confirm(ctx, hold.ID, rub("600"))
	require.NoError(t, err)
	got, _, err = e.api.Payments.Get(ctx, hold.ID)
	require.NoError(t, err)
	assert.Equal(t, v2.PaymentStatusSettled, got.Status)
	assert.Equal(t, "600", got.Amount.Value.String(), "a settled payment shows what was captured")
	_, err = e.api.Payments.Confirm(ctx, hold.ID, nil)
	assert.True(t, v2.IsInvalidOperation(err), "%v", err)

	// A confirm with no body captures the whole hold.
	full := e.pay(t, cardApproved, "420", true)
	_, err = e.api.Payments.Confirm(ctx, full.ID, nil)
	require.NoError(t, err)
	got, _, err = e.api.Payments.Get(ctx, full.ID)
	require.NoError(t, err)
	assert.Equal(t, v2.PaymentStatusSettled, got.Status)
	assert.Equal(t, "420", got.Amount.Value.String())

	cancel := e.pay(t, cardApproved, "99", true)
	_, err = e.api.Payments.Cancel(ctx, cancel.ID)
	require.NoError(t, err)
	got, _, err = e.api.Payments.Get(ctx, cancel.ID)
	require.NoError(t, err)
	assert.Equal(t, v2.PaymentStatusCancelled, got.Status)
	_, err = e.api.Payments.Confirm(ctx, cancel.ID, nil)
	assert.True(t, v2.IsInvalidOperation(err), "a cancelled hold cannot be captured: %v", err)

	_, _, err = e.api.Payments.Get(ctx, "123")
	assert.True(t, v2.IsNotFound(err), "%v", err)
}

func TestE2EConfirmations(t *testing.T) {
	e := newEnv(t, 100)
	ctx := context.Background()

	sms := e.pay(t, cardSmsOtp, "200", false)
	require.Equal(t, v2.PaymentStatusConfirmation, sms.Status)
	require.NotNil(t, sms.Confirmation)
	assert.Equal(t, v2.ConfirmationSmsOtp, sms.Confirmation.Type)
	assert.NotEmpty(t, sms.Confirmation.MaskedPhone)
	// A member for another confirmation type is a validation error.
	_, _, err := e.api.Payments.Complete(ctx, sms.ID, &v2.CompleteRequest{CRes: "Y"})
	assert.True(t, v2.IsValidation(err), "%v", err)
	done, _, err := e.api.Payments.Complete(ctx, sms.ID, &v2.CompleteRequest{Code: "123456"})
	require.NoError(t, err)
	assert.Equal(t, v2.PaymentStatusSettled, done.Status)
	assert.Nil(t, done.Confirmation)
	_, _, err = e.api.Payments.Complete(ctx, sms.ID, &v2.CompleteRequest{Code: "123456"})
	assert.True(t, v2.IsInvalidOperation(err), "complete of a settled payment: %v", err)

	wrong := e.pay(t, cardSmsOtp, "200", false)
	rej, _, err := e.api.Payments.Complete(ctx, wrong.ID, &v2.CompleteRequest{Code: "000000"})
	require.NoError(t, err)
	assert.Equal(t, v2.PaymentStatusRejected, rej.Status)

	ch := e.pay(t, cardChallenge, "300", true)
	require.NotNil(t, ch.Confirmation)
	assert.Equal(t, v2.ConfirmationThreeDSChallenge, ch.Confirmation.Type)
	assert.NotEmpty(t, ch.Confirmation.ACSURL)
	assert.NotEmpty(t, ch.Confirmation.CReq)
	ok, _, err := e.api.Payments.Complete(ctx, ch.ID, &v2.CompleteRequest{CRes: "Y"})
	require.NoError(t, err)
	assert.Equal(t, v2.PaymentStatusAuthorized, ok.Status, "dual mode ends in a hold")

	m := e.pay(t, cardMethod, "300", false)
	require.NotNil(t, m.Confirmation)
	assert.Equal(t, v2.ConfirmationThreeDSMethod, m.Confirmation.Type)
	next, _, err := e.api.Payments.Complete(ctx, m.ID, &v2.CompleteRequest{ThreeDSCompInd: "Y"})
	require.NoError(t, err)
	require.NotNil(t, next.Confirmation, "a second confirmation follows the first")
	assert.Equal(t, v2.ConfirmationThreeDSChallenge, next.Confirmation.Type)
	fin, _, err := e.api.Payments.Complete(ctx, m.ID, &v2.CompleteRequest{CRes: "Y"})
	require.NoError(t, err)
	assert.Equal(t, v2.PaymentStatusSettled, fin.Status)

	old := e.pay(t, cardV1, "300", false)
	require.NotNil(t, old.Confirmation)
	assert.Equal(t, v2.ConfirmationThreeDSv1, old.Confirmation.Type)
	assert.NotEmpty(t, old.Confirmation.PAReq)
	fin, _, err = e.api.Payments.Complete(ctx, old.ID, &v2.CompleteRequest{PARes: "eJzN"})
	require.NoError(t, err)
	assert.Equal(t, v2.PaymentStatusSettled, fin.Status)

	sbp, _, err := e.api.Payments.Create(ctx, &v2.PaymentRequest{
		MerchantID: e.merchant, Amount: rub("150"), PaymentData: &v2.PaymentData{PaymentMethod: "sbp"},
	}, nil)
	require.NoError(t, err)
	require.NotNil(t, sbp.Confirmation)
	assert.Equal(t, v2.ConfirmationExternal, sbp.Confirmation.Type)
	assert.NotEmpty(t, sbp.Confirmation.PaymentURL)
	fin, _, err = e.api.Payments.Complete(ctx, sbp.ID, &v2.CompleteRequest{})
	require.NoError(t, err)
	assert.Equal(t, v2.PaymentStatusSettled, fin.Status)

	// Time moves: a pending payment settles by itself.
	pend := e.pay(t, cardPending, "75", false)
	assert.Equal(t, v2.PaymentStatusPending, pend.Status)
	got, _, err := e.api.Payments.Get(ctx, pend.ID)
	require.NoError(t, err)
	assert.Equal(t, v2.PaymentStatusPending, got.Status, "until its time comes")
	e.settle(t)
	got, _, err = e.api.Payments.Get(ctx, pend.ID)
	require.NoError(t, err)
	assert.Equal(t, v2.PaymentStatusSettled, got.Status)
}

func TestE2EInvoices(t *testing.T) {
	e := newEnv(t, 100)
	ctx := context.Background()
	req := &v2.InvoiceRequest{
		MerchantID: e.merchant, Amount: rub("1250"), PaymentMethod: "bankcard",
		Invoice:  &v2.Invoice{Description: "Order 5561", OrderNo: "5561", Expires: time.Now().Add(time.Hour)},
		Protocol: &v2.Protocol{ReturnURL: "https://shop.example/return"},
		Customer: &v2.Customer{Email: "c@example.com", Phone: "79001234567"},
	}
	inv, resp, err := e.api.Invoices.Create(ctx, req, nil)
	require.NoError(t, err)
	assert.NotEmpty(t, inv.URL)
	assert.NotEmpty(t, resp.IdempotencyKey)
	p, _, err := e.api.Payments.Get(ctx, inv.PaymentID)
	require.NoError(t, err)
	assert.Equal(t, v2.PaymentStatusPending, p.Status)
	assert.Equal(t, "5561", p.Invoice.OrderNo)

	// The same key and body answer the same invoice.
	again, _, err := e.api.Invoices.Create(ctx, req, &v2.CreateOptions{IdempotencyKey: resp.IdempotencyKey})
	require.NoError(t, err)
	assert.Equal(t, inv.PaymentID, again.PaymentID)

	_, _, err = e.api.Invoices.Create(ctx, &v2.InvoiceRequest{Amount: rub("10")}, nil)
	var ae *v2.Error
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, "validation_error", ae.Code)
	assert.Equal(t, http.StatusBadRequest, ae.StatusCode)
	assert.Contains(t, ae.Errors, "merchantId is required")
}

func TestE2ERefunds(t *testing.T) {
	e := newEnv(t, 100)
	ctx := context.Background()
	p := e.pay(t, cardApproved, "1000", false)

	key := "refund-" + p.ID
	r1, resp, err := e.api.Refunds.Create(ctx, &v2.RefundRequest{PaymentID: p.ID, Amount: rub("400")}, &v2.CreateOptions{IdempotencyKey: key})
	require.NoError(t, err)
	assert.Equal(t, v2.RefundStatusPending, r1.Status)
	assert.Equal(t, key, resp.IdempotencyKey)

	// Same key, same body: the same refund, not a second one.
	r2, _, err := e.api.Refunds.Create(ctx, &v2.RefundRequest{PaymentID: p.ID, Amount: rub("400")}, &v2.CreateOptions{IdempotencyKey: key})
	require.NoError(t, err)
	assert.Equal(t, r1.ID, r2.ID)
	// Same key, other body: refused.
	_, _, err = e.api.Refunds.Create(ctx, &v2.RefundRequest{PaymentID: p.ID, Amount: rub("401")}, &v2.CreateOptions{IdempotencyKey: key})
	assert.True(t, v2.IsIdempotencyViolation(err), "%v", err)
	var ae *v2.Error
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, http.StatusConflict, ae.StatusCode)

	// 600 remain: 600.01 is refused, 600 is fine, then nothing remains.
	_, _, err = e.api.Refunds.Create(ctx, &v2.RefundRequest{PaymentID: p.ID, Amount: rub("600.01")}, nil)
	assert.True(t, v2.IsInvalidOperation(err), "%v", err)
	r3, _, err := e.api.Refunds.Create(ctx, &v2.RefundRequest{PaymentID: p.ID, Amount: rub("600")}, nil)
	require.NoError(t, err)
	_, _, err = e.api.Refunds.Create(ctx, &v2.RefundRequest{PaymentID: p.ID, Amount: rub("0.01")}, nil)
	assert.True(t, v2.IsInvalidOperation(err), "%v", err)

	// Only settled payments can be refunded.
	hold := e.pay(t, cardApproved, "50", true)
	_, _, err = e.api.Refunds.Create(ctx, &v2.RefundRequest{PaymentID: hold.ID, Amount: rub("10")}, nil)
	assert.True(t, v2.IsInvalidOperation(err), "%v", err)

	got, _, err := e.api.Refunds.Get(ctx, r1.ID)
	require.NoError(t, err)
	assert.Equal(t, p.ID, got.PaymentID)
	assert.Equal(t, "400", got.Amount.Value.String())

	// Listing the period shows both refunds exactly once, and they settle.
	seen := map[string]int{}
	for r, err := range e.api.Refunds.All(ctx, v2.ListParams{MerchantID: e.merchant, Start: time.Now().Add(-time.Hour), End: time.Now().Add(time.Hour)}) {
		require.NoError(t, err)
		if r.PaymentID == p.ID {
			seen[r.ID]++
		}
	}
	assert.Equal(t, map[string]int{r1.ID: 1, r3.ID: 1}, seen)
	got, _, err = e.api.Refunds.Get(ctx, r3.ID)
	require.NoError(t, err)
	assert.Equal(t, v2.RefundStatusPending, got.Status, "until its time comes")
	e.settle(t)
	got, _, err = e.api.Refunds.Get(ctx, r3.ID)
	require.NoError(t, err)
	assert.Equal(t, v2.RefundStatusSuccess, got.Status)
}

func TestE2ETokens(t *testing.T) {
	e := newEnv(t, 100)
	ctx := context.Background()

	link, _, err := e.api.Tokenization.Create(ctx, &v2.TokenizationRequest{
		MerchantID: e.merchant, Type: v2.TokenTypeRecurring, Purpose: "subscription", PaymentMethod: "bankcard",
		ReturnURL: "https://shop.example/back", Customer: &v2.Customer{Account: "acc-1", Email: "a@example.com"},
	}, nil)
	require.NoError(t, err)
	assert.NotEmpty(t, link.TokenID)
	assert.NotEmpty(t, link.URL)

	tok, _, err := e.api.PaymentTokens.Create(ctx, &v2.PaymentTokenRequest{
		MerchantID: e.merchant, Type: v2.TokenTypeRecurring, Purpose: "subscription",
		PaymentData: &v2.PaymentData{PaymentMethod: "bankcard", Card: &v2.Card{PAN: cardApproved, Expiry: "12/30", CVC: "123"}},
		Customer:    &v2.Customer{Account: "acc-2", Email: "b@example.com"},
	}, nil)
	require.NoError(t, err)
	assert.Equal(t, v2.TokenStatusCreated, tok.Status)
	require.NotNil(t, tok.Confirmation)
	assert.Equal(t, v2.ConfirmationExternal, tok.Confirmation.Type)

	active, _, err := e.api.PaymentTokens.Complete(ctx, tok.ID, &v2.CompleteRequest{})
	require.NoError(t, err)
	assert.Equal(t, v2.TokenStatusActive, active.Status)
	got, _, err := e.api.PaymentTokens.Get(ctx, tok.ID)
	require.NoError(t, err)
	assert.Equal(t, v2.TokenStatusActive, got.Status)
	assert.NotNil(t, got.CardInfo)

	// A payment by the active token is approved.
	byToken, _, err := e.api.Payments.Create(ctx, &v2.PaymentRequest{
		MerchantID: e.merchant, Amount: rub("10"), PaymentData: &v2.PaymentData{Token: &v2.TokenRef{ID: tok.ID}},
	}, nil)
	require.NoError(t, err)
	assert.Equal(t, v2.PaymentStatusSettled, byToken.Status)

	_, err = e.api.PaymentTokens.Revoke(ctx, tok.ID)
	require.NoError(t, err)
	got, _, err = e.api.PaymentTokens.Get(ctx, tok.ID)
	require.NoError(t, err)
	assert.Equal(t, v2.TokenStatusRevoked, got.Status)
	_, err = e.api.PaymentTokens.Revoke(ctx, tok.ID)
	assert.True(t, v2.IsInvalidOperation(err), "revoke of a revoked token: %v", err)

	_, _, err = e.api.Payments.Create(ctx, &v2.PaymentRequest{
		MerchantID: e.merchant, Amount: rub("10"), PaymentData: &v2.PaymentData{Token: &v2.TokenRef{ID: tok.ID}},
	}, nil)
	assert.True(t, v2.IsTokenRevoked(err), "%v", err)

	declined, _, err := e.api.PaymentTokens.Create(ctx, &v2.PaymentTokenRequest{
		MerchantID:  e.merchant,
		PaymentData: &v2.PaymentData{PaymentMethod: "bankcard", Card: &v2.Card{PAN: cardDeclined, Expiry: "12/30", CVC: "123"}},
	}, nil)
	require.NoError(t, err)
	assert.Equal(t, v2.TokenStatusDeclined, declined.Status)
}

func TestE2EStickers(t *testing.T) {
	e := newEnv(t, 100)
	ctx := context.Background()
	s, _, err := e.api.Stickers.Create(ctx, &v2.StickerRequest{
		MerchantID: e.merchant, StickerType: "Sbp", Cashlink: true, Description: "Espresso", ProductCode: "ESP",
		PaymentPurpose: "coffee", Amount: rub("180"),
	}, nil)
	require.NoError(t, err)
	assert.Equal(t, v2.StickerStatusActive, s.Status)
	assert.NotEmpty(t, s.Payload)
	assert.Equal(t, "180", s.Amount.Value.String())

	_, err = e.api.Stickers.Update(ctx, s.ID, false)
	require.NoError(t, err)
	got, _, err := e.api.Stickers.Get(ctx, s.ID)
	require.NoError(t, err)
	assert.Equal(t, v2.StickerStatusInactive, got.Status)

	// A cashlink payment through an inactive sticker is refused.
	_, _, err = e.api.Payments.Create(ctx, &v2.PaymentRequest{
		MerchantID: e.merchant, PaymentData: &v2.PaymentData{StickerID: s.ID},
	}, nil)
	assert.True(t, v2.IsInvalidOperation(err), "%v", err)

	_, err = e.api.Stickers.Update(ctx, s.ID, true)
	require.NoError(t, err)
	found := 0
	for st, err := range e.api.Stickers.All(ctx, v2.StickerListParams{MerchantID: e.merchant}) {
		require.NoError(t, err)
		if st.ID == s.ID {
			found++
			assert.Equal(t, v2.StickerStatusActive, st.Status)
		}
	}
	assert.Equal(t, 1, found)
}

func TestE2EAuthentication(t *testing.T) {
	e := newEnv(t, 100)
	ctx := context.Background()
	bad, err := v2.NewClient(e.srv.BaseURL(), "wrong", v2.WithRootCAs(e.srv.CertPool()))
	require.NoError(t, err)
	_, _, err = bad.Payments.Get(ctx, "1")
	assert.True(t, v2.IsUnauthenticated(err), "%v", err)

	// The read-only token reads, and is refused every write with 403.
	p := e.pay(t, cardApproved, "10", true)
	_, _, err = e.ro.Payments.Get(ctx, p.ID)
	require.NoError(t, err)
	_, err = e.ro.Payments.Cancel(ctx, p.ID)
	var ae *v2.Error
	require.ErrorAs(t, err, &ae)
	assert.Equal(t, http.StatusForbidden, ae.StatusCode)
	assert.True(t, v2.IsNotAuthorized(err))
	_, _, err = e.ro.Refunds.Create(ctx, &v2.RefundRequest{PaymentID: p.ID, Amount: rub("1")}, nil)
	assert.True(t, v2.IsNotAuthorized(err))
	got, _, err := e.api.Payments.Get(ctx, p.ID)
	require.NoError(t, err)
	assert.Equal(t, v2.PaymentStatusAuthorized, got.Status, "the refused cancel changed nothing")
}

// Paging a period of several thousand payments collects each exactly once,
// also while new payments arrive during the paging.
func TestE2EPagingIsExactWhilePaymentsArrive(t *testing.T) {
	e := newEnv(t, 12000)
	ctx := context.Background()
	params := v2.ListParams{MerchantID: e.merchant, Start: time.Now().AddDate(0, 0, -91), End: time.Now().Add(time.Hour)}

	before := map[string]bool{}
	for p, err := range e.api.Payments.All(ctx, params) {
		require.NoError(t, err)
		require.False(t, before[p.ID], "payment %s listed twice", p.ID)
		before[p.ID] = true
	}
	require.Greater(t, len(before), 2000, "several thousand payments in the period")

	seen := map[string]int{}
	created := 0
	for p, err := range e.api.Payments.All(ctx, params) {
		require.NoError(t, err)
		seen[p.ID]++
		if len(seen)%250 == 0 && created < 20 {
			e.pay(t, cardApproved, "10", false) // arrives above the cursor
			created++
		}
	}
	assert.Equal(t, 20, created)
	for id := range before {
		assert.Equal(t, 1, seen[id], "payment %s", id)
	}
	for id, n := range seen {
		assert.Equal(t, 1, n, "payment %s seen %d times", id, n)
	}
}

// A callback arrives at the receiver, and is retried when the receiver fails first.
func TestE2ECallbacks(t *testing.T) {
	e := newEnv(t, 100)
	bodies := make(chan map[string]any, 16)
	var calls atomic.Int32
	receiver := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := calls.Add(1)
		if n == 1 {
			http.Error(w, "not now", http.StatusServiceUnavailable)
			return
		}
		raw, _ := io.ReadAll(r.Body)
		var m map[string]any
		if json.Unmarshal(raw, &m) == nil {
			assert.Empty(t, r.Header.Get("Authorization"))
			select {
			case bodies <- m:
			default: // more than the test reads
			}
		}
	}))
	defer receiver.Close()

	p, _, err := e.api.Payments.Create(context.Background(), &v2.PaymentRequest{
		MerchantID: e.merchant, Amount: rub("77"),
		PaymentData: &v2.PaymentData{PaymentMethod: "bankcard", Card: &v2.Card{PAN: cardApproved, Expiry: "12/30", CVC: "123"}},
		Protocol:    &v2.Protocol{CallbackURL: receiver.URL + "/cb"},
	}, nil)
	require.NoError(t, err)
	// The retry comes 20 ms after the failure on the real clock: the wait
	// ends when it arrives, or after longWait if it never does.
	timeout := time.After(longWait)
	for arrived := false; !arrived; {
		select {
		case b := <-bodies:
			arrived = b["id"] == p.ID && b["status"] == "Settled"
		case <-timeout:
			t.Fatal("the callback never arrived after a failed first attempt")
		}
	}
	assert.GreaterOrEqual(t, calls.Load(), int32(2))
}

// BenchmarkPageThroughClient pages every payment of a 100,000-payment sandbox
// (all merchants, the whole 90 days) through the client over HTTPS, the
// sandbox's serving included (its seeding, done first, is not).
func BenchmarkPageThroughClient(b *testing.B) {
	e := newEnv(b, sandbox.DefaultPayments)
	ctx := context.Background()
	require.NoError(b, e.srv.Store().WaitSeeded(ctx))
	start, end := time.Now().AddDate(0, 0, -91), time.Now().Add(time.Hour)
	params := make([]v2.ListParams, 0, len(e.srv.Info().MerchantIDs))
	for _, m := range e.srv.Info().MerchantIDs {
		params = append(params, v2.ListParams{MerchantID: m, Start: start, End: end})
	}
	perPayment(b, sandbox.DefaultPayments, func() {
		n, err := pageAll(ctx, e.api, params)
		if err != nil {
			b.Fatal(err)
		}
		if n != sandbox.DefaultPayments {
			b.Fatalf("paged %d payments, want %d", n, sandbox.DefaultPayments)
		}
	})
}

// BenchmarkBaselineClientRoundTrip is one Payments.Get through the same
// client against a server answering a fixed payment: the floor of what one
// page of BenchmarkPageThroughClient can cost (that one takes 1,000 pages).
func BenchmarkBaselineClientRoundTrip(b *testing.B) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"id":"1","status":"Settled","merchantId":"1001","amount":{"value":10,"currency":"RUB"}}`)
	}))
	defer srv.Close()
	api, err := v2.NewClient(srv.URL, "token", v2.WithHTTPClient(srv.Client()))
	require.NoError(b, err)
	ctx := context.Background()
	for b.Loop() {
		if _, _, err := api.Payments.Get(ctx, "1"); err != nil {
			b.Fatal(err)
		}
	}
}
