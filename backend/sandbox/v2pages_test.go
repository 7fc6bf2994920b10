package sandbox

import (
	"encoding/json"
	"net/url"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend/money"
)

// wantPage is the page json.Marshal writes for the store's page, items
// rendered by render: what the v2 list handlers must send, byte for byte.
func wantPage[T, W any](t *testing.T, page Page[T], render func(*T) W) string {
	t.Helper()
	out := wireList[W]{Items: make([]W, len(page.Items)), Cursor: page.Cursor}
	for i := range page.Items {
		out.Items[i] = render(&page.Items[i])
	}
	j, err := json.Marshal(out)
	require.NoError(t, err)
	return string(j)
}

// Every v2 list page, seeded payments and refunds and payments with text
// json.Marshal escapes, is the bytes json.Marshal writes, and says its
// length (Content-Length), so a client reads it into a buffer of its size.
func TestV2PagesAreWhatJSONMarshalWrites(t *testing.T) {
	now := time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)
	srv := start(t, Options{Seed: 11, Payments: 1500, Now: func() time.Time { return now }})
	st := srv.Store()
	require.NoError(t, st.WaitSeeded(t.Context()))
	for i, d := range []string{"<b>&amp;</b>", "line\u2028sep\u2029", "tab\there \"quoted\" back\\slash", "\x01ctl \x7f", "Привет, 世界 🙂", ""} {
		_, err := st.CreateInvoice(InvoiceRequest{MerchantID: "1001", Amount: &money.Amount{Value: money.MustParse("10.5"), Currency: "RUB"},
			Invoice: Invoice{Description: d, OrderNo: "<" + strconv.Itoa(i) + ">", Expires: now.Add(time.Hour + 123456789)}})
		require.NoError(t, err)
	}
	c := newClient(t, srv)
	pages := 0
	for _, m := range srv.Info().MerchantIDs {
		for _, kind := range []string{"payments", "refunds"} {
			q := ListQuery{MerchantID: m, Start: now.AddDate(0, 0, -91), End: now.Add(time.Hour)}
			for {
				v := url.Values{"merchantId": {m}, "start": {q.Start.Format(time.RFC3339)}, "end": {q.End.Format(time.RFC3339)}}
				if q.Cursor != "" {
					v.Set("cursor", q.Cursor)
				}
				resp, b := c.call("GET", "/api/v2/"+kind+"?"+v.Encode(), nil)
				require.Equal(t, 200, resp.StatusCode, "%.300s", b)
				assert.Equal(t, strconv.Itoa(len(b)), resp.Header.Get("Content-Length"))
				var cursor string
				if kind == "payments" {
					page, err := st.ListPayments(q)
					require.NoError(t, err)
					require.Equal(t, wantPage(t, page, renderPaymentItem), string(b))
					cursor = page.Cursor
				} else {
					page, err := st.ListRefunds(q)
					require.NoError(t, err)
					require.Equal(t, wantPage(t, page, func(r *Refund) wireRefund { return renderRefund(r, false) }), string(b))
					cursor = page.Cursor
				}
				pages++
				if cursor == "" {
					break
				}
				q.Cursor = cursor
			}
		}
	}
	assert.Greater(t, pages, 15)
}
