package backend_test

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend"
	"paydash/backend/sandbox"
)

// opCounter is a request log that counts the legacy interface's requests
// by operation.
type opCounter struct {
	mu  sync.Mutex
	ops map[string]int
}

func (c *opCounter) Enabled(context.Context, slog.Level) bool { return true }
func (c *opCounter) WithAttrs([]slog.Attr) slog.Handler       { return c }
func (c *opCounter) WithGroup(string) slog.Handler            { return c }
func (c *opCounter) Handle(_ context.Context, r slog.Record) error {
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == "operation" {
			c.mu.Lock()
			c.ops[a.Value.String()]++
			c.mu.Unlock()
		}
		return true
	})
	return nil
}

// take returns how many requests of op were sent since the last take.
func (c *opCounter) take(op string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := c.ops[op]
	c.ops[op] = 0
	return n
}

func openCounted(t *testing.T, srv *sandbox.Server, v2Token string, user sandbox.V1User) (backend.Backend, *opCounter) {
	t.Helper()
	c := &opCounter{ops: map[string]int{}}
	b, err := backend.Open(backend.Config{
		BaseURL: srv.BaseURL(), RootCAs: srv.CertPool(), V2Token: v2Token,
		V1Login: user.Login, V1Password: user.Password, MerchantIDs: srv.Info().MerchantIDs, Sandbox: true,
		Logger: slog.New(c),
	})
	require.NoError(t, err)
	return b, c
}

// The service compares order numbers exactly: paydash asks as typed, then,
// when that finds nothing, in upper case; never twice when typed in upper
// case, never both at once.
func TestFindPaymentByOrderNoIgnoresCase(t *testing.T) {
	srv := startSandbox(t)
	ctx := context.Background()
	info := srv.Info()
	merchant := info.MerchantIDs[0]
	want := oldOrder(t, srv, merchant)
	order := want.Invoice.OrderNo
	require.Equal(t, strings.ToUpper(order), order, "the seed writes order numbers in upper case")
	require.NotEqual(t, strings.ToLower(order), order)
	const op = "getPaymentByInvoiceID"

	for _, tc := range []struct {
		name string
		v2   string
	}{{"v1 alone", ""}, {"both", info.V2Token}} {
		t.Run(tc.name, func(t *testing.T) {
			b, c := openCounted(t, srv, tc.v2, v1User(t, srv, "Accountant"))

			p, asked, err := b.FindPaymentByOrderNo(ctx, merchant, strings.ToLower(order))
			require.NoError(t, err)
			assert.True(t, asked)
			assert.Equal(t, want.ID, p.ID, "lower case finds it")
			assert.Equal(t, 2, c.take(op), "as typed, then in upper case")

			mixed := strings.ToLower(order[:1]) + order[1:]
			p, _, err = b.FindPaymentByOrderNo(ctx, merchant, mixed)
			require.NoError(t, err)
			assert.Equal(t, want.ID, p.ID)
			assert.Equal(t, 2, c.take(op))

			p, _, err = b.FindPaymentByOrderNo(ctx, merchant, order)
			require.NoError(t, err)
			assert.Equal(t, want.ID, p.ID)
			assert.Equal(t, 1, c.take(op), "found as typed: asked once")

			_, asked, err = b.FindPaymentByOrderNo(ctx, merchant, "NO-SUCH-ORDER-42")
			assert.True(t, asked)
			assert.Equal(t, backend.KindNotFound, backend.KindOf(err), "%v", err)
			assert.Equal(t, 1, c.take(op), "typed in upper case: not asked a second time")

			_, _, err = b.FindPaymentByOrderNo(ctx, merchant, "no-such-order-42")
			assert.Equal(t, backend.KindNotFound, backend.KindOf(err), "%v", err)
			assert.Contains(t, err.Error(), "NO-SUCH-ORDER-42", "the message names both spellings asked")
			assert.Equal(t, 2, c.take(op))
		})
	}
}

// The service's selection by order number (listPaymentsFilter) is asked
// in upper case when the number as typed selects nothing.
func TestFilterPaymentsByOrderNoIgnoresCase(t *testing.T) {
	srv := startSandbox(t)
	ctx := context.Background()
	merchant := srv.Info().MerchantIDs[0]
	want := oldOrder(t, srv, merchant)
	order := want.Invoice.OrderNo
	q := last90Days(merchant)
	const op = "listPaymentsFilter"
	b, c := openCounted(t, srv, "", v1User(t, srv, "Accountant"))

	ids := func(orderNo string) []string {
		t.Helper()
		pager, ok := b.FilterPayments(q, backend.PaymentFilter{OrderNo: orderNo})
		require.True(t, ok)
		rows, err := backend.Collect(ctx, pager)
		require.NoError(t, err)
		var out []string
		for _, p := range rows {
			assert.Equal(t, order, p.OrderNo)
			out = append(out, p.ID)
		}
		return out
	}
	exact := ids(order)
	require.Contains(t, exact, want.ID)
	asTyped := c.take(op)
	require.Positive(t, asTyped)

	assert.Equal(t, exact, ids(strings.ToLower(order)), "lower case selects the same rows")
	assert.Equal(t, 2*asTyped, c.take(op), "as typed, then in upper case")

	assert.Empty(t, ids("NO-SUCH-ORDER-42"))
	assert.Equal(t, asTyped, c.take(op), "typed in upper case: asked once")
}
