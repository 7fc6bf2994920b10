package payments

import (
	"context"
	"fmt"
	"testing"

	"paydash/backend"
	"paydash/views/internal/viewtest"
	"paydash/views/tab"
)

// BenchmarkExportPayments is the export of 100,000 payments, as the save
// dialog's command makes it: CSV and JSON.
func BenchmarkExportPayments(b *testing.B) {
	rows := viewtest.BenchPayments(viewtest.BenchRows)
	fields := paymentFields(nil)
	for _, f := range []struct {
		name string
		enc  func(context.Context, []tab.ExportField[backend.Payment], []backend.Payment) ([]byte, error)
	}{{"csv", tab.ExportCSV[backend.Payment]}, {"json", tab.ExportJSON[backend.Payment]}} {
		b.Run(fmt.Sprintf("%s/rows=%d", f.name, viewtest.BenchRows), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				data, err := f.enc(context.Background(), fields, rows)
				if err != nil {
					b.Fatal(err)
				}
				b.SetBytes(int64(len(data)))
			}
		})
	}
}
