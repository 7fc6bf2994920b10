package views

import (
	"cmp"
	"fmt"
	"slices"
	"testing"

	"paydash/backend"
	"paydash/keys"
	"paydash/ui"
	"paydash/views/internal/viewtest"
	"paydash/views/payments"
	"paydash/views/tab"
)

// benchList is the Payments tab's list with rows loaded in pages of 100.
func benchList(rows []backend.Payment) *tab.PagedList[backend.Payment] {
	l := tab.NewPagedList(payments.TableConfig(nil), keys.Default(), ui.NewTheme(true, false), tab.PaymentTime)
	l.SetSize(160, 40, 160)
	for from := 0; from < len(rows); from += 100 {
		l.Table.Append(rows[from:min(from+100, len(rows))])
	}
	return l
}

func BenchmarkSortPayments(b *testing.B) {
	rows := viewtest.BenchPayments(viewtest.BenchRows)
	b.Run(fmt.Sprintf("list/rows=%d", viewtest.BenchRows), func(b *testing.B) {
		l := benchList(rows)
		l.Table.SetCursor(viewtest.BenchRows / 2)
		b.ReportAllocs()
		desc := true
		for b.Loop() {
			l.SetSort("amount", desc)
			desc = !desc
		}
	})
	// Amounts in three currencies: the sort keeps them apart (Group).
	b.Run(fmt.Sprintf("list-three-currencies/rows=%d", viewtest.BenchRows), func(b *testing.B) {
		mixed := slices.Clone(rows)
		for i := range mixed {
			mixed[i].Amount.Currency = []string{"RUB", "RUB", "RUB", "EUR", "USD"}[i%5]
		}
		l := benchList(mixed)
		l.Table.SetCursor(viewtest.BenchRows / 2)
		b.ReportAllocs()
		desc := true
		for b.Loop() {
			l.SetSort("amount", desc)
			desc = !desc
		}
	})
	// A text column has no Rank: Less sorts it (for the record; the bar
	// is about the amounts and times support sorts by).
	b.Run(fmt.Sprintf("list-by-order-number/rows=%d", viewtest.BenchRows), func(b *testing.B) {
		l := benchList(rows)
		b.ReportAllocs()
		desc := true
		for b.Loop() {
			l.SetSort("order", desc)
			desc = !desc
		}
	})
	b.Run(fmt.Sprintf("baseline/rows=%d", viewtest.BenchRows), func(b *testing.B) {
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
