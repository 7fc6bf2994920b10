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

	// Its kinds tell a backend over v1 which actions exist only in v2
	// (action.Register, backend.MarkV2Only), as in paydash itself.
	_ "paydash/backend/action"
)

func v1User(t *testing.T, srv *sandbox.Server, role string) sandbox.V1User {
	t.Helper()
	for _, u := range srv.Info().V1Users {
		if u.Role == role {
			return u
		}
	}
	t.Fatalf("the sandbox has no %s", role)
	return sandbox.V1User{}
}

func openWith(t *testing.T, srv *sandbox.Server, v2Token string, user sandbox.V1User) backend.Backend {
	t.Helper()
	b, err := backend.Open(backend.Config{
		BaseURL: srv.BaseURL(), RootCAs: srv.CertPool(), V2Token: v2Token,
		V1Login: user.Login, V1Password: user.Password, MerchantIDs: srv.Info().MerchantIDs, Sandbox: true,
	})
	require.NoError(t, err)
	require.NoError(t, b.Probe(context.Background()))
	return b
}

func TestAdapterOverV1Alone(t *testing.T) {
	srv := startSandbox(t)
	b := openWith(t, srv, "", v1User(t, srv, "Accountant"))
	ctx := context.Background()
	assert.Equal(t, []backend.Interface{backend.V1}, b.Describe().Interfaces)

	ok, reason := b.Can(backend.ActionRevokeToken)
	assert.False(t, ok, "tokens exist only in v2")
	assert.Contains(t, reason, "PAYDASH_V2_TOKEN")
	ok, _ = b.Can(backend.ActionRefund)
	assert.True(t, ok, "an Accountant may refund")

	// The v1 list of a period equals the v2 list of the same days.
	v2b := openV2(t, srv, srv.Info().V2Token, false)
	merchant := srv.Info().MerchantIDs[0]
	day := time.Now().UTC().Truncate(24 * time.Hour)
	q := backend.PeriodQuery{MerchantID: merchant, Start: day.AddDate(0, 0, -20), End: day.AddDate(0, 0, 1)}
	fromV1, err := backend.Collect(ctx, b.ListPayments(q))
	require.NoError(t, err)
	fromV2, err := backend.Collect(ctx, v2b.ListPayments(q))
	require.NoError(t, err)
	require.NotEmpty(t, fromV2)
	ids := func(ps []backend.Payment) map[string]backend.PaymentStatus {
		m := map[string]backend.PaymentStatus{}
		for _, p := range ps {
			m[p.ID] = p.Status
		}
		return m
	}
	v1ids, v2ids := ids(fromV1), ids(fromV2)
	assert.Len(t, v1ids, len(fromV1), "no payment twice")
	assert.Equal(t, len(v2ids), len(v1ids))
	for id, st := range v2ids {
		got, found := v1ids[id]
		if assert.True(t, found, "payment %s missing from v1", id) && st != backend.PaymentRejected {
			assert.Equal(t, st, got, "payment %s", id)
		}
	}

	// Capture a hold through v1: the answer and v2 agree it is settled.
	hold := findPayment(t, b, func(p backend.Payment) bool { return p.Status == backend.PaymentAuthorized })
	p, err := b.CapturePayment(ctx, backend.CaptureRequest{PaymentID: hold.ID})
	require.NoError(t, err)
	assert.Equal(t, backend.PaymentSettled, p.Status)
	require.NotNil(t, p.V1)
	assert.Equal(t, "COMPLETE", p.V1.State)
	viaV2, err := v2b.GetPayment(ctx, hold.ID)
	require.NoError(t, err)
	assert.Equal(t, backend.PaymentSettled, viaV2.Status)

	// A refund under one key is made once, even when sent twice.
	key := backend.NewIdempotencyKey()
	one := money.Amount{Value: money.MustParse("1"), Currency: p.Amount.Currency}
	r1, err := b.RefundPayment(ctx, backend.RefundRequest{PaymentID: p.ID, Amount: one, IdempotencyKey: key})
	require.NoError(t, err)
	r2, err := b.RefundPayment(ctx, backend.RefundRequest{PaymentID: p.ID, Amount: one, IdempotencyKey: key})
	require.NoError(t, err)
	assert.Equal(t, r1.ID, r2.ID)
	refunds, err := b.RefundsOfPayment(ctx, p)
	require.NoError(t, err)
	assert.Len(t, refunds, 1)

	// Too much is refused with the service's reason.
	_, err = b.RefundPayment(ctx, backend.RefundRequest{PaymentID: p.ID, Amount: p.Amount, IdempotencyKey: backend.NewIdempotencyKey()})
	assert.Equal(t, backend.KindInvalid, backend.KindOf(err), "%v", err)

	// Transfers, their registers and documents.
	transfers, err := b.ListTransfers(ctx, backend.DayQuery{From: day.AddDate(0, 0, -7), To: day})
	require.NoError(t, err)
	require.NotEmpty(t, transfers)
	reg, err := b.GetRegister(ctx, transfers[0].RegisterID)
	require.NoError(t, err)
	require.NotEmpty(t, reg.Operations)
	var sum money.Decimal
	for _, op := range reg.Operations {
		sum += op.TransferAmount
	}
	assert.Equal(t, transfers[0].Amount.Value, sum, "the register adds up to its transfer")
	assert.Contains(t, string(reg.Raw), "<Register>", "the raw view holds the XML")
	docs, err := b.ListDocuments(ctx, backend.DayQuery{From: day.AddDate(0, -2, 0), To: day})
	require.NoError(t, err)
	require.NotEmpty(t, docs)
	content, err := b.GetDocument(ctx, docs[0].ID)
	require.NoError(t, err)
	assert.NotEmpty(t, content.Data)
	assert.NotEmpty(t, content.ContentType)
}

func TestAdapterV1CashierIsToldWhatItMayNotDo(t *testing.T) {
	srv := startSandbox(t)
	b := openWith(t, srv, "", v1User(t, srv, "Cashier"))
	ctx := context.Background()
	ok, reason := b.Can(backend.ActionCapture)
	assert.False(t, ok)
	assert.Contains(t, reason, "Cashier")
	ok, _ = b.Can(backend.ReadRegisters)
	assert.False(t, ok)

	hold := findPayment(t, b, func(p backend.Payment) bool { return p.Status == backend.PaymentAuthorized })
	_, err := b.CapturePayment(ctx, backend.CaptureRequest{PaymentID: hold.ID})
	assert.Equal(t, backend.KindNotAuthorized, backend.KindOf(err))
	again, err := b.GetPayment(ctx, hold.ID)
	require.NoError(t, err)
	assert.Equal(t, backend.PaymentAuthorized, again.Status, "nothing was sent")
}

func TestAdapterV1WrongPassword(t *testing.T) {
	srv := startSandbox(t)
	u := v1User(t, srv, "Accountant")
	u.Password += "x"
	b, err := backend.Open(backend.Config{BaseURL: srv.BaseURL(), RootCAs: srv.CertPool(),
		V1Login: u.Login, V1Password: u.Password, MerchantIDs: srv.Info().MerchantIDs})
	require.NoError(t, err)
	err = b.Probe(context.Background())
	assert.Equal(t, backend.KindUnauthenticated, backend.KindOf(err))
	assert.NotContains(t, err.Error(), u.Password)
}

func TestAdapterOverBoth(t *testing.T) {
	srv := startSandbox(t)
	b := openWith(t, srv, srv.Info().V2Token, v1User(t, srv, "Accountant"))
	ctx := context.Background()
	assert.Equal(t, []backend.Interface{backend.V2, backend.V1}, b.Describe().Interfaces)

	page, err := b.ListPayments(last90Days(srv.Info().MerchantIDs[0])).Next(ctx)
	require.NoError(t, err)
	require.NotEmpty(t, page.Items)
	assert.Equal(t, backend.V2, page.Items[0].Source, "v2 serves the lists")
	p, err := b.GetPayment(ctx, page.Items[0].ID)
	require.NoError(t, err)
	require.NotNil(t, p.V1, "the detail carries the v1 view")
	assert.NotEmpty(t, p.V1.State)
	assert.Equal(t, p.OrderNo, p.V1.SiteInvoiceID)

	day := time.Now().UTC()
	transfers, err := b.ListTransfers(ctx, backend.DayQuery{From: day.AddDate(0, 0, -3), To: day})
	require.NoError(t, err)
	assert.NotEmpty(t, transfers, "registers come through v1")
	ok, _ := b.Can(backend.ActionRevokeToken)
	assert.True(t, ok, "v2 can revoke")
}
