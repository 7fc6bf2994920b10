package backend

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A refund is found out only through the interface that carried it, and
// only under its key: each adapter says why not, and asks nothing.
func TestCheckRefundRefusesWhatItCannotFindOut(t *testing.T) {
	keyed := RefundRequest{PaymentID: "43149010", IdempotencyKey: "k-1"}
	for _, c := range []struct {
		name string
		b    Backend
		via  Interface
		r    RefundRequest
		want string
		on   Interface
	}{
		{"v1 asked of a v2 refund", &overV1{}, V2, keyed,
			"it was sent through the current interface (v2), which is not configured now; set PAYDASH_V2_TOKEN", V1},
		{"v1 asked of an unknown interface", &overV1{}, "v3", keyed,
			`it was sent through an interface paydash does not know ("v3")`, V1},
		{"v1 asked without a key", &overV1{}, V1, RefundRequest{PaymentID: "43149010"},
			"it was sent without an externalID, so it cannot be told apart from the payment's other refunds", V1},
		{"v2 asked of a v1 refund", &overV2{}, V1, keyed,
			"it was sent through the legacy interface (v1), which is not configured now; set PAYDASH_V1_LOGIN and PAYDASH_V1_PASSWORD", V2},
		{"v2 asked of an unknown interface", &overV2{}, "", keyed,
			`it was sent through an interface paydash does not know ("")`, V2},
		{"v2 asked without a key", &overV2{}, V2, RefundRequest{PaymentID: "43149010"},
			"it was sent without an idempotency key, so it cannot be asked for again", V2},
	} {
		_, found, err := c.b.CheckRefund(context.Background(), c.r, c.via)
		assert.False(t, found, c.name)
		var e *Error
		require.ErrorAs(t, err, &e, c.name)
		assert.Equal(t, KindUnsupported, e.Kind, c.name)
		assert.Equal(t, c.on, e.Interface, c.name)
		assert.Equal(t, c.want, e.Message, c.name)
	}
}
