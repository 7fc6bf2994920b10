package payments

import (
	"runtime"
	"strconv"
	"testing"
	"time"

	"paydash/backend"
	"paydash/backend/money"
	"paydash/ui/datatable"
)

// BenchmarkHeapPerPaymentRow measures the heap per loaded payment row (the
// aim: at most 250 bytes, a million rows in 250 MB; README.md's
// Performance section has today's figure), on the real thing:
// backend.Payment list items as the v2 adapter makes them (fresh strings
// per row, as decoded from JSON), in the list widget as the Payments tab
// configures it (TableConfig: its columns, filter text and packed rows),
// with no word searched (the filter's texts are built for the first one:
// docs/lists.md). The widget's own benchmark uses a smaller stand-in row;
// this one is what the user loads.
func BenchmarkHeapPerPaymentRow(b *testing.B) {
	const rows = 100_000
	created := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	for b.Loop() {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)

		page := make([]backend.Payment, rows)
		for i := range page {
			id := strconv.Itoa(43000000 + i)
			page[i] = backend.Payment{
				Source: backend.V2, ID: id, MerchantID: "100" + strconv.Itoa(1+i%4),
				Created: created.Add(-time.Duration(i) * time.Minute), Completed: created,
				Status:          backend.PaymentSettled,
				Amount:          money.Amount{Value: money.Decimal(int64(150+i%900) * 10000), Currency: "RUB"},
				OrderNo:         "ORD-" + strconv.Itoa(40000+i),
				Description:     "Flat white, cinnamon bun " + strconv.Itoa(i%7),
				PaymentMethod:   "BankCard",
				InstrumentTitle: "220220******" + strconv.Itoa(1000+i%9000),
			}
		}
		table := datatable.New(TableConfig(nil))
		table.SetSize(160, 40)
		table.SetRows(page)
		page = nil
		_ = table.View()

		runtime.GC()
		runtime.ReadMemStats(&after)
		b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/rows, "B/row")
		runtime.KeepAlive(table)
	}
}
