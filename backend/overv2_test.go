package backend_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend"
	"paydash/backend/money"
	"paydash/backend/sandbox"
)

// These tests drive the adapter over real HTTPS against the embedded sandbox.

// startSandbox starts a sandbox whose clock stands still: nothing settles,
// expires or is filled in between two reads of a test (the seed's live
// part settles 4 to 28 s after the start, which a loaded machine can
// reach mid-test), only when the test moves the clock (settle).
func startSandbox(t *testing.T) *sandbox.Server {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	started := time.Now()
	srv, err := sandbox.Start(ctx, sandbox.Options{
		Seed: 7, Payments: 3000, SettleDelay: 150 * time.Millisecond, CallbackBackoff: 10 * time.Millisecond,
		Now: func() time.Time { return started },
	})
	require.NoError(t, err)
	t.Cleanup(func() { _ = srv.Close() })
	return srv
}

// settle moves the sandbox's clock on by its settle delay: what was made
// Pending settles, a tokenization page is filled in, before it returns.
func settle(t *testing.T, srv *sandbox.Server) {
	t.Helper()
	_, err := srv.Store().Advance(srv.Store().SettleDelay())
	require.NoError(t, err)
}

func openV2(t *testing.T, srv *sandbox.Server, token string, readOnly bool) backend.Backend {
	t.Helper()
	info := srv.Info()
	b, err := backend.Open(backend.Config{
		BaseURL: srv.BaseURL(), RootCAs: srv.CertPool(), V2Token: token,
		MerchantIDs: info.MerchantIDs, ReadOnly: readOnly, Sandbox: true,
	})
	require.NoError(t, err)
	return b
}

func last90Days(merchant string) backend.PeriodQuery {
	now := time.Now()
	return backend.PeriodQuery{MerchantID: merchant, Start: now.AddDate(0, 0, -91), End: now.Add(time.Hour)}
}

// findPayment pages through a merchant's payments until one matches.
func findPayment(t *testing.T, b backend.Backend, match func(backend.Payment) bool) backend.Payment {
	t.Helper()
	ctx := context.Background()
	for _, m := range b.Describe().MerchantIDs {
		pager := b.ListPayments(last90Days(m))
		for {
			page, err := pager.Next(ctx)
			require.NoError(t, err)
			for _, p := range page.Items {
				if match(p) {
					return p
				}
			}
			if page.Done {
				break
			}
		}
	}
	t.Fatal("no payment in the seed matches")
	return backend.Payment{}
}

func TestAdapterListsAndReadsPayments(t *testing.T) {
	srv := startSandbox(t)
	b := openV2(t, srv, srv.Info().V2Token, false)
	ctx := context.Background()

	d := b.Describe()
	assert.True(t, d.Sandbox)
	assert.Equal(t, []backend.Interface{backend.V2}, d.Interfaces)
	require.NotEmpty(t, d.MerchantIDs)

	page, err := b.ListPayments(last90Days(d.MerchantIDs[0])).Next(ctx)
	require.NoError(t, err)
	require.Len(t, page.Items, 100, "a page holds 100 payments")
	assert.False(t, page.Done)
	first := page.Items[0]
	assert.False(t, first.Detailed)
	assert.Equal(t, backend.V2, first.Source)
	for i := 1; i < len(page.Items); i++ {
		assert.False(t, page.Items[i].Created.After(page.Items[i-1].Created), "newest first")
	}

	full, err := b.GetPayment(ctx, first.ID)
	require.NoError(t, err)
	assert.True(t, full.Detailed)
	assert.Equal(t, first.ID, full.ID)
	assert.Equal(t, first.Amount, full.Amount)
	assert.Contains(t, string(full.Raw), `"id":"`+first.ID+`"`, "the raw body is kept for the raw view")

	_, err = b.GetPayment(ctx, "999999999999")
	assert.Equal(t, backend.KindNotFound, backend.KindOf(err))
}

func TestAdapterCaptureCancelAndRefund(t *testing.T) {
	srv := startSandbox(t)
	b := openV2(t, srv, srv.Info().V2Token, false)
	ctx := context.Background()

	// A partial capture settles the hold with the smaller amount.
	hold := findPayment(t, b, func(p backend.Payment) bool { return p.Status == backend.PaymentAuthorized })
	// Half, down to the currency's minor unit: the service refuses an
	// amount finer than that (324.57 / 2 would be 162.285).
	unit := money.FromMinor(1, money.Decimals(hold.Amount.Currency))
	part := money.Amount{Value: hold.Amount.Value / 2 / unit * unit, Currency: hold.Amount.Currency}
	captured, err := b.CapturePayment(ctx, backend.CaptureRequest{PaymentID: hold.ID, Amount: &part})
	require.NoError(t, err)
	assert.Equal(t, backend.PaymentSettled, captured.Status)

	// Capturing again is refused with the service's reason.
	_, err = b.CapturePayment(ctx, backend.CaptureRequest{PaymentID: hold.ID})
	assert.Equal(t, backend.KindRefused, backend.KindOf(err))
	var e *backend.Error
	require.ErrorAs(t, err, &e)
	assert.NotEmpty(t, e.Message)
	assert.NotEmpty(t, e.Hint())

	other := findPayment(t, b, func(p backend.Payment) bool {
		return p.Status == backend.PaymentAuthorized && p.ID != hold.ID
	})
	cancelled, err := b.CancelPayment(ctx, other.ID)
	require.NoError(t, err)
	assert.Equal(t, backend.PaymentCancelled, cancelled.Status)

	// A refund under one key is made once, however often it is sent.
	key := backend.NewIdempotencyKey()
	one := money.Amount{Value: money.MustParse("1"), Currency: part.Currency}
	r1, err := b.RefundPayment(ctx, backend.RefundRequest{PaymentID: hold.ID, Amount: one, IdempotencyKey: key})
	require.NoError(t, err)
	assert.Equal(t, backend.RefundPending, r1.Status)
	r2, err := b.RefundPayment(ctx, backend.RefundRequest{PaymentID: hold.ID, Amount: one, IdempotencyKey: key})
	require.NoError(t, err)
	assert.Equal(t, r1.ID, r2.ID)

	refunds, err := b.RefundsOfPayment(ctx, captured)
	require.NoError(t, err)
	require.Len(t, refunds, 1)
	assert.Equal(t, r1.ID, refunds[0].ID)

	// More than what remains of the captured amount is refused.
	_, err = b.RefundPayment(ctx, backend.RefundRequest{PaymentID: hold.ID, Amount: part, IdempotencyKey: backend.NewIdempotencyKey()})
	assert.Equal(t, backend.KindRefused, backend.KindOf(err))

	// The pending refund settles when its time comes.
	settle(t, srv)
	settledRefund, err := b.GetRefund(ctx, r1.ID)
	require.NoError(t, err)
	assert.NotEqual(t, backend.RefundPending, settledRefund.Status)
}

func TestAdapterTokensAndStickers(t *testing.T) {
	srv := startSandbox(t)
	b := openV2(t, srv, srv.Info().V2Token, false)
	ctx := context.Background()
	merchant := srv.Info().MerchantIDs[0]

	link, err := b.CreateTokenizationLink(ctx, backend.TokenizationLinkRequest{
		MerchantID: merchant, Purpose: "monthly coffee subscription", CustomerAccount: "cust-1", CustomerEmail: "a@example.com",
		IdempotencyKey: backend.NewIdempotencyKey(),
	})
	require.NoError(t, err)
	assert.NotEmpty(t, link.URL)
	// The customer "fills in the page" as time moves; then the token can be revoked, once.
	settle(t, srv)
	tok, err := b.GetToken(ctx, link.TokenID)
	require.NoError(t, err)
	require.Equal(t, backend.TokenActive, tok.Status)
	tok, err = b.RevokeToken(ctx, link.TokenID)
	require.NoError(t, err)
	assert.Equal(t, backend.TokenRevoked, tok.Status)
	_, err = b.RevokeToken(ctx, link.TokenID)
	assert.Equal(t, backend.KindRefused, backend.KindOf(err))

	stickers, err := backend.Collect(ctx, b.ListStickers(backend.StickerQuery{MerchantID: merchant}))
	require.NoError(t, err)
	require.NotEmpty(t, stickers)
	s := stickers[0]
	off, err := b.SetStickerActive(ctx, s.ID, !s.Active())
	require.NoError(t, err)
	assert.Equal(t, !s.Active(), off.Active())

	made, err := b.CreateSticker(ctx, backend.StickerRequest{
		MerchantID: merchant, Description: "Cappuccino 0.4", ProductCode: "CAP-04", PaymentPurpose: "coffee",
		Amount: money.Amount{Value: money.MustParse("250"), Currency: "RUB"}, IdempotencyKey: backend.NewIdempotencyKey(),
	})
	require.NoError(t, err)
	assert.True(t, made.Active())
	assert.NotEmpty(t, made.Payload)

	inv, err := b.CreateInvoiceLink(ctx, backend.InvoiceLinkRequest{
		MerchantID: merchant, Amount: money.Amount{Value: money.MustParse("1250.50"), Currency: "RUB"},
		Description: "Order 5561", OrderNo: "ORD-5561", IdempotencyKey: backend.NewIdempotencyKey(),
	})
	require.NoError(t, err)
	p, err := b.GetPayment(ctx, inv.PaymentID)
	require.NoError(t, err)
	assert.Equal(t, "1250.5", p.Amount.Value.String())
	assert.Equal(t, "ORD-5561", p.OrderNo)
}

func TestAdapterRightsAreLearnedAndReported(t *testing.T) {
	srv := startSandbox(t)
	ctx := context.Background()

	// The read-only token: reads work, the first write is refused and
	// from then on the adapter says why before trying.
	ro := openV2(t, srv, srv.Info().V2ReadOnlyToken, false)
	hold := findPayment(t, ro, func(p backend.Payment) bool { return p.Status == backend.PaymentAuthorized })
	ok, _ := ro.Can(backend.ActionCapture)
	assert.True(t, ok, "nothing is known before the service answers")
	_, err := ro.CapturePayment(ctx, backend.CaptureRequest{PaymentID: hold.ID})
	assert.Equal(t, backend.KindNotAuthorized, backend.KindOf(err))
	ok, reason := ro.Can(backend.ActionRefund)
	assert.False(t, ok)
	assert.Contains(t, reason, "not_authorized")

	// --read-only refuses without asking the service.
	local := openV2(t, srv, srv.Info().V2Token, true)
	_, err = local.CancelPayment(ctx, hold.ID)
	assert.Equal(t, backend.KindNotAuthorized, backend.KindOf(err))
	fresh, err := local.GetPayment(ctx, hold.ID)
	require.NoError(t, err)
	assert.Equal(t, backend.PaymentAuthorized, fresh.Status, "nothing was sent")

	// A wrong token is reported as such, never echoed.
	bad := openV2(t, srv, "not-a-real-token", false)
	_, err = bad.GetPayment(ctx, hold.ID)
	assert.Equal(t, backend.KindUnauthenticated, backend.KindOf(err))
	assert.NotContains(t, err.Error(), "not-a-real-token")
}

func TestOpenRefusesBadConfig(t *testing.T) {
	_, err := backend.Open(backend.Config{BaseURL: "::nonsense", V2Token: "x"})
	assert.ErrorContains(t, err, "not a valid URL")
	_, err = backend.Open(backend.Config{BaseURL: "https://pay.example.com"})
	assert.ErrorContains(t, err, "PAYDASH_V2_TOKEN")
	_, err = backend.Open(backend.Config{BaseURL: "http://pay.example.com", V2Token: "x"})
	assert.Error(t, err, "plain http to a remote host is refused")
}

func TestUnreachableServiceIsSaidInAFewWords(t *testing.T) {
	b, err := backend.Open(backend.Config{BaseURL: "https://127.0.0.1:1", V2Token: "x", MerchantIDs: []string{"1001"}})
	require.NoError(t, err)
	_, err = b.GetPayment(context.Background(), "1")
	assert.Equal(t, backend.KindUnavailable, backend.KindOf(err))
	assert.Contains(t, err.Error(), "read payment 1: cannot reach the service (")
	assert.NotContains(t, err.Error(), "dial tcp", "the transport's wording stays out of the status bar")
}
