package viewtest

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"time"

	"paydash/backend"
	"paydash/backend/money"
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

const BenchRows = 100_000

// BenchPayments are n payments as a list page carries them, newest first,
// with the amounts a café's day has (many equal amounts: ties keep their
// order in a stable sort).
func BenchPayments(n int) []backend.Payment {
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
