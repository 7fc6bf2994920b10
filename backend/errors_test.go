package backend_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend"
	"paydash/backend/money"
)

func TestReasonLeavesOutTheOp(t *testing.T) {
	v2 := &backend.Error{Kind: backend.KindNotAuthorized, Op: "refund 5.00 RUB of payment 1", Interface: backend.V2,
		Code: "not_authorized", Message: "the token may only read"}
	assert.Equal(t, "the token may only read (code not_authorized)", backend.Reason(v2))
	assert.Equal(t, "refund 5.00 RUB of payment 1: the token may only read", v2.Error(), "Error keeps the op and leaves the code out")

	v1 := &backend.Error{Kind: backend.KindNotAuthorized, Op: "capture payment 1", Interface: backend.V1,
		Code: "-6", Message: "No access: incorrect login or insufficient rights"}
	assert.Equal(t, "No access: incorrect login or insufficient rights (ErrorCode -6)", backend.Reason(v1))

	invalid := &backend.Error{Kind: backend.KindInvalid, Op: "refund", Interface: backend.V2, Code: "validation_error",
		Message: "Incorrect request format", Details: []string{"amount.value must be greater than 0", "paymentId is required"}}
	assert.Equal(t, "Incorrect request format (amount.value must be greater than 0; paymentId is required) (code validation_error)",
		backend.Reason(invalid))

	// Without a message: the short form of the failure, as Error gives it.
	down := &backend.Error{Kind: backend.KindUnavailable, Op: "refund", Interface: backend.V2, Err: fmt.Errorf("v2: POST: %w", context.DeadlineExceeded)}
	assert.Equal(t, "no answer from the service in time", backend.Reason(down))
	other := &backend.Error{Kind: backend.KindMalformed, Op: "refund", Err: errors.New("v2: POST /api/v2/refunds: malformed answer: unexpected end of JSON input")}
	assert.Equal(t, "the service's answer could not be read (unexpected end of JSON input)", backend.Reason(other))
	assert.Equal(t, "refused", backend.Reason(&backend.Error{Kind: backend.KindRefused, Op: "x"}))

	// Wrapped, the adapter's error is still found; other errors are as they are.
	assert.Equal(t, "the token may only read (code not_authorized)", backend.Reason(fmt.Errorf("sending: %w", v2)))
	assert.Equal(t, "disk full", backend.Reason(errors.New("disk full")))
	assert.Equal(t, "", backend.Reason(nil))
}

func TestUnavailableHintFitsAListToo(t *testing.T) {
	e := &backend.Error{Kind: backend.KindUnavailable, Op: "list payments"}
	assert.Equal(t, "check the network and the base URL; press r to try again", e.Hint())
	assert.NotContains(t, e.Hint(), "duplicate", "a list load duplicates nothing: the hint says nothing of actions")
}

func TestProbeOfAnUnreachableServiceBlamesTheNetwork(t *testing.T) {
	for name, cfg := range map[string]backend.Config{
		"v2":   {V2Token: "x"},
		"v1":   {V1Login: "accountant", V1Password: "y"},
		"both": {V2Token: "x", V1Login: "accountant", V1Password: "y"},
	} {
		t.Run(name, func(t *testing.T) {
			cfg.BaseURL, cfg.MerchantIDs = "https://127.0.0.1:1", []string{"1001"}
			b, err := backend.Open(cfg)
			require.NoError(t, err)
			err = b.Probe(context.Background())
			require.Error(t, err)
			assert.NotContains(t, err.Error(), "token")
			assert.NotContains(t, err.Error(), "login")
			assert.Contains(t, err.Error(), "reach the service: cannot reach the service (")
			var e *backend.Error
			require.ErrorAs(t, err, &e)
			assert.Equal(t, backend.KindUnavailable, e.Kind)
			assert.Contains(t, e.Hint(), "network")
		})
	}
}

func TestProbeBlamesCredentialsOnlyWhenTheServiceRefusedThem(t *testing.T) {
	srv := startSandbox(t)
	err := openV2(t, srv, "not-a-real-token", false).Probe(context.Background())
	assert.Equal(t, backend.KindUnauthenticated, backend.KindOf(err))
	assert.Contains(t, err.Error(), "check the v2 token: ")

	u := v1User(t, srv, "Accountant")
	b, err := backend.Open(backend.Config{BaseURL: srv.BaseURL(), RootCAs: srv.CertPool(),
		V1Login: u.Login, V1Password: u.Password + "x", MerchantIDs: srv.Info().MerchantIDs})
	require.NoError(t, err)
	err = b.Probe(context.Background())
	assert.Equal(t, backend.KindUnauthenticated, backend.KindOf(err))
	assert.Contains(t, err.Error(), "check the v1 login: ")

	// No merchant: nothing to do with the token.
	none, err := backend.Open(backend.Config{BaseURL: srv.BaseURL(), RootCAs: srv.CertPool(), V2Token: srv.Info().V2Token})
	require.NoError(t, err)
	err = none.Probe(context.Background())
	assert.Contains(t, err.Error(), "open the dashboard: no merchant is configured")
}

func TestCheckRefund(t *testing.T) {
	srv := startSandbox(t)
	ctx := context.Background()
	accountant := v1User(t, srv, "Accountant")
	v2only := openV2(t, srv, srv.Info().V2Token, false)
	v1only := openWith(t, srv, "", accountant)
	both := openWith(t, srv, srv.Info().V2Token, accountant)

	settled := findPayment(t, v2only, func(p backend.Payment) bool {
		return p.Status == backend.PaymentSettled && p.Amount.Value > money.MustParse("10")
	})
	one := money.Amount{Value: money.MustParse("1"), Currency: settled.Amount.Currency}
	countRefunds := func() int {
		rs, err := srv.Store().RefundsOfPayment(settled.ID)
		require.NoError(t, err)
		return len(rs)
	}
	before := countRefunds()

	// v1: a key never sent is not found, and nothing is made.
	key := backend.NewIdempotencyKey()
	r := backend.RefundRequest{PaymentID: settled.ID, Amount: one, IdempotencyKey: key}
	_, found, err := v1only.CheckRefund(ctx, r, backend.V1)
	require.NoError(t, err)
	assert.False(t, found)
	assert.Equal(t, before, countRefunds())

	// v1: once made, it is found, by either setup.
	made, err := v1only.RefundPayment(ctx, r)
	require.NoError(t, err)
	for _, b := range []backend.Backend{v1only, both} {
		got, found, err := b.CheckRefund(ctx, r, backend.V1)
		require.NoError(t, err)
		assert.True(t, found)
		assert.Equal(t, made.ID, got.ID)
	}
	assert.Equal(t, before+1, countRefunds())

	// v2: asking again with a new key makes it; with the same key it is the same one.
	r2 := backend.RefundRequest{PaymentID: settled.ID, Amount: one, IdempotencyKey: backend.NewIdempotencyKey()}
	first, found, err := both.CheckRefund(ctx, r2, backend.V2)
	require.NoError(t, err)
	assert.True(t, found)
	again, found, err := v2only.CheckRefund(ctx, r2, backend.V2)
	require.NoError(t, err)
	assert.True(t, found)
	assert.Equal(t, first.ID, again.ID)
	assert.Equal(t, before+2, countRefunds())

	// The other interface, or no key: it cannot be found out, and nothing is sent.
	_, _, err = v2only.CheckRefund(ctx, r, backend.V1)
	assert.Equal(t, backend.KindUnsupported, backend.KindOf(err))
	assert.Contains(t, err.Error(), "legacy interface")
	_, _, err = v1only.CheckRefund(ctx, r2, backend.V2)
	assert.Equal(t, backend.KindUnsupported, backend.KindOf(err))
	assert.Contains(t, err.Error(), "PAYDASH_V2_TOKEN")
	for _, b := range []backend.Backend{v2only, v1only} {
		_, _, err = b.CheckRefund(ctx, backend.RefundRequest{PaymentID: settled.ID, Amount: one}, b.Describe().Interfaces[0])
		assert.Equal(t, backend.KindUnsupported, backend.KindOf(err), "without a key nothing can be asked")
	}
	assert.Equal(t, before+2, countRefunds())

	// A Cashier may not look refunds up.
	cashier := openWith(t, srv, "", v1User(t, srv, "Cashier"))
	_, _, err = cashier.CheckRefund(ctx, r, backend.V1)
	assert.Equal(t, backend.KindNotAuthorized, backend.KindOf(err))
}
