package backend

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend/v1"
)

// The legacy interface takes one state: statuses are sent only when they
// are one state (Cancelled and Rejected are both CANCELLED).
func TestServerState(t *testing.T) {
	for _, tc := range []struct {
		in   []PaymentStatus
		want string
	}{
		{nil, ""},
		{[]PaymentStatus{PaymentAuthorized}, v1.StateHold},
		{[]PaymentStatus{PaymentSettled}, v1.StateComplete},
		{[]PaymentStatus{PaymentPending}, v1.StateInitiated},
		{[]PaymentStatus{PaymentConfirmation}, v1.StateProcessing},
		{[]PaymentStatus{PaymentRejected}, v1.StateCancelled},
		{[]PaymentStatus{PaymentCancelled, PaymentRejected}, v1.StateCancelled},
		{[]PaymentStatus{PaymentAuthorized, PaymentPending}, ""},
		{[]PaymentStatus{"Unknown"}, ""},
	} {
		assert.Equal(t, tc.want, serverState(tc.in), "%v", tc.in)
	}
}

// Only the legacy interface selects on the service's side; the current
// one says it cannot, and both ask the legacy one, also for the customer.
func TestFilterPaymentsWhoCan(t *testing.T) {
	v2only := &overV2{}
	_, ok := v2only.FilterPayments(PeriodQuery{}, PaymentFilter{Statuses: []PaymentStatus{PaymentSettled}})
	assert.False(t, ok)

	api, err := v1.NewClient("https://127.0.0.1:1", "l", "p")
	require.NoError(t, err)
	legacy := &overV1{api: api}
	_, ok = legacy.FilterPayments(PeriodQuery{}, PaymentFilter{})
	assert.False(t, ok, "nothing to select by")
	_, ok = legacy.FilterPayments(PeriodQuery{}, PaymentFilter{Customer: true})
	assert.False(t, ok, "its own list carries the customer already")
	_, ok = legacy.FilterPayments(PeriodQuery{}, PaymentFilter{OrderNo: "ORD-1"})
	assert.True(t, ok)

	both := &overBoth{overV2: v2only, legacy: legacy}
	_, ok = both.FilterPayments(PeriodQuery{}, PaymentFilter{Statuses: []PaymentStatus{PaymentAuthorized, PaymentPending}})
	assert.False(t, ok, "two states: the current interface's list, filtered here")
	_, ok = both.FilterPayments(PeriodQuery{}, PaymentFilter{Customer: true})
	assert.True(t, ok, "the customer: the legacy list")
}
