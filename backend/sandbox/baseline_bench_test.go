package sandbox

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"paydash/backend/money"
)

// Baselines measured in the same run as the sandbox's benchmarks, so their
// figures can be read as ratios on a noisy machine.

// BenchmarkBaselineAllocate100k fills 100,000 bare payment records with an
// id, an order number and an amount: the least any seed of that size does.
// BenchmarkSeed100k divided by this is what realistic data costs on top.
func BenchmarkBaselineAllocate100k(b *testing.B) {
	now := time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)
	for b.Loop() {
		ps := make([]*Payment, 0, DefaultPayments)
		for i := range DefaultPayments {
			ps = append(ps, &Payment{
				ID: strconv.Itoa(43000000 + i), MerchantID: "1001", Created: now.Add(-time.Duration(i) * time.Minute),
				Status: PaymentSettled, Invoice: Invoice{OrderNo: "ORD-" + strconv.Itoa(i)},
				Amount: money.Amount{Value: money.Decimal(i * 100), Currency: "RUB"},
			})
		}
		if len(ps) != DefaultPayments {
			b.Fatal(len(ps))
		}
	}
}

// BenchmarkBaselineHTTPSRoundTrip is one GET over the same kind of TLS
// connection answered with a fixed tiny body: the transport's share of
// BenchmarkServePage.
func BenchmarkBaselineHTTPSRoundTrip(b *testing.B) {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"items":[]}`)
	}))
	defer srv.Close()
	hc := srv.Client()
	req, _ := http.NewRequest("GET", srv.URL+"/api/v2/payments?merchantId=1001", nil)
	for b.Loop() {
		resp, err := hc.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
	}
}
