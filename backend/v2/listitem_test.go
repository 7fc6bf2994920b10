package v2_test

import (
	"context"
	"net/http"
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
