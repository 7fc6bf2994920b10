package v2_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	v2 "paydash/backend/v2"
)

// A list item carries resultCode when the service sends it (the paydash
// sandbox does; the service's documentation does not list it, see
// docs/service.md), and a list without it reads as before.
func TestPaymentListItemResultCode(t *testing.T) {
	s := newServer(t, reply(http.StatusOK, `{"items": [
		{"id": "p2", "created": "2024-05-01T10:00:01Z", "completed": "2024-05-01T10:00:01Z", "status": "Rejected",
			"resultCode": "IssuerUnavailable", "merchantId": "m1", "amount": {"value": 10, "currency": "RUB"}},
		{"id": "p1", "created": "2024-05-01T10:00:00Z", "status": "Pending", "merchantId": "m1",
			"amount": {"value": 5, "currency": "RUB"}}
	]}`))
	l, _, err := newClient(t, s).Payments.List(context.Background(), v2.ListParams{MerchantID: "m1"})
	require.NoError(t, err)
	require.Len(t, l.Items, 2)
	assert.Equal(t, v2.ResultCodeIssuerUnavailable, l.Items[0].ResultCode)
	assert.Equal(t, v2.PaymentStatus("Rejected"), l.Items[0].Status)
	assert.Empty(t, l.Items[1].ResultCode, "a real service's item without resultCode")
	assert.Equal(t, "p1", l.Items[1].ID)
}

// A page's items are decoded into a slice made for them, not one grown
// item by item (which sets aside about twice the page and copies it on
// the way), for every list: payments, refunds and stickers.
func TestListItemsAreDecodedIntoASliceOfThePagesSize(t *testing.T) {
	page := func(n int, item string) string {
		items := make([]string, n)
		for i := range items {
			items[i] = fmt.Sprintf(item, i)
		}
		return `{"items": [` + strings.Join(items, ", ") + `], "cursor": "c"}`
	}
	ctx := context.Background()
	for _, n := range []int{1, 3, 100} {
		pays := newServer(t, reply(http.StatusOK, page(n, `{"id": "p%d", "status": "Settled", "amount": {"value": 1, "currency": "RUB"}}`)))
		p, _, err := newClient(t, pays).Payments.List(ctx, v2.ListParams{MerchantID: "m1"})
		require.NoError(t, err)
		assert.Len(t, p.Items, n)
		assert.Equal(t, n, cap(p.Items), "payments")

		refs := newServer(t, reply(http.StatusOK, page(n, `{"id": "r%d", "paymentId": "p1", "status": "Completed"}`)))
		r, _, err := newClient(t, refs).Refunds.List(ctx, v2.ListParams{MerchantID: "m1"})
		require.NoError(t, err)
		assert.Len(t, r.Items, n)
		assert.Equal(t, n, cap(r.Items), "refunds")

		sts := newServer(t, reply(http.StatusOK, page(n, `{"id": "s%d", "cashlink": false, "status": "Active"}`)))
		st, _, err := newClient(t, sts).Stickers.List(ctx, v2.StickerListParams{MerchantID: "m1"})
		require.NoError(t, err)
		assert.Len(t, st.Items, n)
		assert.Equal(t, n, cap(st.Items), "stickers")
	}
}
