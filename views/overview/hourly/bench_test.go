package hourly

import (
	"strconv"
	"sync"
	"testing"
	"time"

	"paydash/backend"
)

// A frame of the Overview asks the Tally for the day (Day, Sum, StandOut):
// that costs the buckets. The baseline is what the tally saves: the same
// day's counts by a rescan of the loaded rows, measured in the same run
// (go test -run '^$' -bench . -benchmem ./views/overview/hourly).

const benchRows = 1_000_000

var bench struct {
	once sync.Once
	rows []backend.Payment
	tl   Tally
}

// benchDay is a million payments of three merchants over the last day,
// some declined.
func benchDay() {
	bench.once.Do(func() {
		bench.rows = make([]backend.Payment, benchRows)
		merchants := []string{"1001", "1002", "1003"}
		for i := range bench.rows {
			status, code := backend.PaymentSettled, ""
			if i%17 == 0 {
				status, code = backend.PaymentRejected, "TransactionDeclined"
			}
			bench.rows[i] = pay(strconv.Itoa(i), merchants[i%3], now.Add(-time.Duration(i)*(24*time.Hour)/benchRows),
				status, "100", "RUB", code)
		}
		for _, p := range bench.rows {
			bench.tl.Add(p)
		}
	})
}

func BenchmarkOverviewFrameFromTally(b *testing.B) {
	benchDay()
	b.ReportAllocs()
	for b.Loop() {
		d := bench.tl.Day(now, "1001")
		_ = d.Sum()
		_ = StandOut(d)
	}
}

func BenchmarkOverviewFrameByRescan(b *testing.B) {
	benchDay()
	b.ReportAllocs()
	first := now.Truncate(time.Hour).Add(-(Hours - 1) * time.Hour)
	for b.Loop() {
		var counts [Hours][len(Statuses)]int
		for i := range bench.rows {
			p := &bench.rows[i]
			if p.MerchantID != "1001" || p.Created.Before(first) {
				continue
			}
			h := int(p.Created.Sub(first) / time.Hour)
			if s := statusIndex(p.Status); s >= 0 && h < Hours {
				counts[h][s]++
			}
		}
	}
}

// BenchmarkTallyAdd is the cost of counting one row as it arrives.
func BenchmarkTallyAdd(b *testing.B) {
	benchDay()
	var tl Tally
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		tl.Add(bench.rows[i%benchRows])
		i++
	}
}
