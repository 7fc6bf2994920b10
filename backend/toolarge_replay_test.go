package backend_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend"
	"paydash/backend/money"
	"paydash/backend/transport"
)

// An answer over the client's size limit reads as what happened and what
// to do, not as "the service did not answer".
func TestAnswerTooLargeSaysWhatToDo(t *testing.T) {
	tl := &transport.TooLargeError{Limit: 64 << 20, Size: -1}
	for _, kind := range []backend.ErrorKind{backend.KindTooLarge, backend.KindUnavailable} {
		e := &backend.Error{Kind: kind, Op: "list payments", Interface: backend.V1, Err: fmt.Errorf("v1: listPaymentsFilter: %w", tl)}
		assert.Equal(t, "the service's answer is larger than 64 MiB, more than paydash reads; choose a shorter period", backend.Reason(e))
		assert.Equal(t, "list payments: the service's answer is larger than 64 MiB, more than paydash reads; choose a shorter period", e.Error())
		assert.Contains(t, e.Hint(), "choose a shorter period")
		assert.NotContains(t, e.Hint(), "network")
	}
	assert.Equal(t, "answer too large", backend.KindTooLarge.String())
}

// CheckRefund through v2: the replay says which refund the key made (as it
// was then); the refund's state now comes from reading it.
func TestCheckRefundShowsTheRefundNow(t *testing.T) {
	srv := startSandbox(t)
	ctx := context.Background()
	b := openV2(t, srv, srv.Info().V2Token, false)
	settled := findPayment(t, b, func(p backend.Payment) bool {
		return p.Status == backend.PaymentSettled && p.Amount.Value > money.MustParse("10")
	})
	r := backend.RefundRequest{PaymentID: settled.ID, IdempotencyKey: backend.NewIdempotencyKey(),
		Amount: money.Amount{Value: money.MustParse("1"), Currency: settled.Amount.Currency}}
	made, err := b.RefundPayment(ctx, r)
	require.NoError(t, err)
	require.Equal(t, backend.RefundPending, made.Status)
	settle(t, srv)
	ref, err := srv.Store().GetRefund(made.ID)
	require.NoError(t, err)
	require.Equal(t, "Success", string(ref.Status))
	before, _ := srv.Store().RefundsOfPayment(settled.ID)

	got, found, err := b.CheckRefund(ctx, r, backend.V2)
	require.NoError(t, err)
	assert.True(t, found)
	assert.Equal(t, made.ID, got.ID)
	assert.Equal(t, backend.RefundSuccess, got.Status, "the refund now, not the replayed Pending")
	assert.Equal(t, "Success", got.ResultCode)
	after, _ := srv.Store().RefundsOfPayment(settled.ID)
	assert.Len(t, after, len(before), "nothing made twice")
}
