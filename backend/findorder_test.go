package backend_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend"
	"paydash/backend/sandbox"
)

// oldOrder is a seeded payment of the merchant, weeks old, with an order
// number: the newest payment with that number, as the service answers.
func oldOrder(t *testing.T, srv *sandbox.Server, merchant string) sandbox.Payment {
	t.Helper()
	st := srv.Store()
	now := time.Now()
	ps, _ := st.FilterPayments(sandbox.PaymentFilter{MerchantIDs: []string{merchant},
		Start: now.AddDate(0, 0, -60), End: now.AddDate(0, 0, -40), Limit: 50})
	for _, p := range ps {
		if p.Invoice.OrderNo == "" {
			continue
		}
		newest, err := st.PaymentByOrderNo(merchant, p.Invoice.OrderNo)
		require.NoError(t, err)
		return newest
	}
	t.Fatal("no seeded payment with an order number 40 to 60 days old")
	return sandbox.Payment{}
}

func TestFindPaymentByOrderNo(t *testing.T) {
	srv := startSandbox(t)
	ctx := context.Background()
	info := srv.Info()
	merchant := info.MerchantIDs[0]
	want := oldOrder(t, srv, merchant)
	accountant := v1User(t, srv, "Accountant")

	t.Run("v2 alone cannot ask", func(t *testing.T) {
		b := openV2(t, srv, info.V2Token, false)
		p, asked, err := b.FindPaymentByOrderNo(ctx, merchant, want.Invoice.OrderNo)
		require.NoError(t, err)
		assert.False(t, asked)
		assert.Empty(t, p.ID)
	})

	t.Run("v1 alone asks getPaymentByInvoiceID", func(t *testing.T) {
		b := openWith(t, srv, "", accountant)
		p, asked, err := b.FindPaymentByOrderNo(ctx, merchant, want.Invoice.OrderNo)
		require.NoError(t, err)
		assert.True(t, asked)
		assert.Equal(t, want.ID, p.ID)
		assert.Equal(t, merchant, p.MerchantID)
		assert.Equal(t, want.Invoice.OrderNo, p.OrderNo)
		assert.Equal(t, backend.V1, p.Source)
		assert.True(t, p.Detailed, "the whole answer, as getPayment's")
		require.NotNil(t, p.V1)

		_, asked, err = b.FindPaymentByOrderNo(ctx, merchant, "NO-SUCH-ORDER-42")
		assert.True(t, asked)
		assert.Equal(t, backend.KindNotFound, backend.KindOf(err), "%v", err)
		_, asked, err = b.FindPaymentByOrderNo(ctx, merchant, "")
		assert.True(t, asked)
		assert.Equal(t, backend.KindInvalid, backend.KindOf(err), "%v", err)

		// The merchant is the site asked about: another one's order is not found there,
		// or is that merchant's own payment with the same number.
		other := info.MerchantIDs[1]
		p, _, err = b.FindPaymentByOrderNo(ctx, other, want.Invoice.OrderNo)
		if err == nil {
			assert.Equal(t, other, p.MerchantID)
		} else {
			assert.Equal(t, backend.KindNotFound, backend.KindOf(err), "%v", err)
		}
	})

	t.Run("both ask v1 and read through v2", func(t *testing.T) {
		b := openWith(t, srv, info.V2Token, accountant)
		p, asked, err := b.FindPaymentByOrderNo(ctx, merchant, want.Invoice.OrderNo)
		require.NoError(t, err)
		assert.True(t, asked)
		assert.Equal(t, want.ID, p.ID)
		assert.Equal(t, backend.V2, p.Source, "the pane is v2's whole payment")
		assert.True(t, p.Detailed)
		assert.False(t, p.Created.IsZero(), "v2 knows when it was made")
		require.NotNil(t, p.V1, "with v1's view beside it")
		assert.Equal(t, want.Invoice.OrderNo, p.V1.SiteInvoiceID)

		_, asked, err = b.FindPaymentByOrderNo(ctx, merchant, "NO-SUCH-ORDER-42")
		assert.True(t, asked)
		assert.Equal(t, backend.KindNotFound, backend.KindOf(err), "%v", err)
	})
}
