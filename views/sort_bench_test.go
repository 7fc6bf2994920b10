package views

import (
	"cmp"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
	"time"

	"paydash/backend"
	"paydash/backend/money"
	"paydash/keys"
	"paydash/ui"
	"paydash/ui/datatable"
)

// The target: sorting 100,000 loaded rows within 50 ms. Compare
// BenchmarkSortPayments/list with BenchmarkSortPayments/baseline of the
// same run:
//
//	go test ./views -run '^$' -bench 'SortPayments|ExportPayments' -benchmem
//
// list is the Payments tab's own list (its columns, its datatable) with
// 100,000 payments loaded page by page, sorted by amount, the direction
// flipped on each iteration so every one is a whole sort (by the column's
// Rank: sort.go); list-by-order-number sorts a text column, by its Less;
// list-three-currencies is list with the amounts in RUB, EUR and USD
// (kept apart by currency); baseline is slices.SortFunc of the same
// 100,000 backend.Payment values by currency, then amount (the copy back
// to the loaded order is outside the timer).

const benchRows = 100_000

// benchPayments are n payments as a list page carries them, newest first,
// with the amounts a café's day has (many equal amounts: ties keep their
// order in a stable sort).
func benchPayments(n int) []backend.Payment {
	rng := rand.New(rand.NewPCG(1, 2))
	statuses := []backend.PaymentStatus{backend.PaymentSettled, backend.PaymentSettled, backend.PaymentSettled,
		backend.PaymentPending, backend.PaymentAuthorized, backend.PaymentRejected}
	start := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	out := make([]backend.Payment, n)
	for i := range out {
		id := strconv.Itoa(43000000 - i)
		out[i] = backend.Payment{
			Source: backend.V2, ID: id, MerchantID: "1001",
			Created: start.Add(-time.Duration(i) * 17 * time.Second),
			Status:  statuses[rng.IntN(len(statuses))],
			Amount:  money.Amount{Value: money.Decimal(rng.IntN(2000)+1) * 5000, Currency: "RUB"},
			OrderNo: "ORD-" + strconv.Itoa(90000-i), Description: "Cappuccino 0.3 l",
			InstrumentTitle: "4111 11•• •••• " + fmt.Sprintf("%04d", rng.IntN(10000)),
		}
	}
	return out
}

// benchList is the Payments tab's list with rows loaded in pages of 100.
func benchList(rows []backend.Payment) *pagedList[backend.Payment] {
	cfg := datatable.Config[backend.Payment]{ID: func(p backend.Payment) string { return p.ID }, Columns: paymentColumns(nil)}
	l := newPagedList(cfg, keys.Default(), ui.NewTheme(true, false), paymentTime)
	l.setSize(160, 40, 160)
	for from := 0; from < len(rows); from += 100 {
		l.table.Append(rows[from:min(from+100, len(rows))])
	}
	return l
}

func BenchmarkSortPayments(b *testing.B) {
	rows := benchPayments(benchRows)
	b.Run(fmt.Sprintf("list/rows=%d", benchRows), func(b *testing.B) {
		l := benchList(rows)
		l.table.SetCursor(benchRows / 2)
		b.ReportAllocs()
		desc := true
		for b.Loop() {
			l.setSort("amount", desc)
			desc = !desc
		}
	})
	// Amounts in three currencies: the sort keeps them apart (Group).
	b.Run(fmt.Sprintf("list-three-currencies/rows=%d", benchRows), func(b *testing.B) {
		mixed := slices.Clone(rows)
		for i := range mixed {
			mixed[i].Amount.Currency = []string{"RUB", "RUB", "RUB", "EUR", "USD"}[i%5]
		}
		l := benchList(mixed)
		l.table.SetCursor(benchRows / 2)
		b.ReportAllocs()
		desc := true
		for b.Loop() {
			l.setSort("amount", desc)
			desc = !desc
		}
	})
	// A text column has no Rank: Less sorts it (for the record; the bar
	// is about the amounts and times support sorts by).
	b.Run(fmt.Sprintf("list-by-order-number/rows=%d", benchRows), func(b *testing.B) {
		l := benchList(rows)
		b.ReportAllocs()
		desc := true
		for b.Loop() {
			l.setSort("order", desc)
			desc = !desc
		}
	})
	b.Run(fmt.Sprintf("baseline/rows=%d", benchRows), func(b *testing.B) {
		work := make([]backend.Payment, len(rows))
		b.ReportAllocs()
		for b.Loop() {
			b.StopTimer()
			copy(work, rows)
			b.StartTimer()
			slices.SortFunc(work, func(x, y backend.Payment) int {
				if c := cmp.Compare(x.Amount.Currency, y.Amount.Currency); c != 0 {
					return c
				}
				return cmp.Compare(y.Amount.Value, x.Amount.Value)
			})
		}
	})
}

// BenchmarkExportPayments is the export of 100,000 payments, as the save
// dialog's command makes it: CSV and JSON.
func BenchmarkExportPayments(b *testing.B) {
	rows := benchPayments(benchRows)
	fields := paymentFields(nil)
	for _, f := range []struct {
		name string
		enc  func(context.Context, []exportField[backend.Payment], []backend.Payment) ([]byte, error)
	}{{"csv", exportCSV[backend.Payment]}, {"json", exportJSON[backend.Payment]}} {
		b.Run(fmt.Sprintf("%s/rows=%d", f.name, benchRows), func(b *testing.B) {
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
