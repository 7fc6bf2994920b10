package overview

import (
	"strconv"
	"sync"
	"testing"
	"time"

	"paydash/backend"
	"paydash/backend/money"
	"paydash/keys"
	"paydash/ui"
	"paydash/views/overview/hourly"
	"paydash/views/tab"
)

// A frame of the Overview with a million payments counted: working the
// figures out (figure) and drawing them at 200x50 (View). The baseline,
// in the same run, is a rescan of the rows for the day's counts alone,
// which the tally spares every frame:
// go test -run '^$' -bench Frame -benchmem ./views/overview

var benchRows = sync.OnceValue(func() []backend.Payment {
	now := time.Date(2026, 11, 20, 14, 40, 0, 0, time.UTC)
	rows := make([]backend.Payment, 1_000_000)
	for i := range rows {
		status, code := backend.PaymentSettled, ""
		if i%17 == 0 {
			status, code = backend.PaymentRejected, "TransactionDeclined"
		}
		rows[i] = backend.Payment{ID: strconv.Itoa(i), MerchantID: "1001", Status: status, ResultCode: code,
			Created: now.Add(-time.Duration(i) * (24 * time.Hour) / time.Duration(len(rows))),
			Amount:  money.Amount{Value: money.MustParse("100"), Currency: "RUB"}}
	}
	return rows
})

func BenchmarkOverviewFrame200x50(b *testing.B) {
	rows := benchRows()
	o := New(tab.Deps{Keys: keys.Default(), Theme: ui.NewTheme(true, false)}).(*Overview)
	o.scope.MerchantID = "1001"
	o.now = time.Date(2026, 11, 20, 14, 40, 0, 0, time.UTC)
	for _, p := range rows {
		o.tally.Add(p)
	}
	b.ReportAllocs()
	for b.Loop() {
		o.figure()
		_ = o.View(200, 47)
	}
}

func BenchmarkOverviewFrameBaselineRescan(b *testing.B) {
	rows := benchRows()
	now := time.Date(2026, 11, 20, 14, 40, 0, 0, time.UTC)
	first := now.Truncate(time.Hour).Add(-(hourly.Hours - 1) * time.Hour)
	b.ReportAllocs()
	for b.Loop() {
		var counts [hourly.Hours][len(hourly.Statuses)]int
		for i := range rows {
			p := &rows[i]
			if p.MerchantID != "1001" || p.Created.Before(first) {
				continue
			}
			h := int(p.Created.Sub(first) / time.Hour)
			for s, st := range hourly.Statuses {
				if st == p.Status && h < hourly.Hours {
					counts[h][s]++
				}
			}
		}
	}
}
