package views

import (
	"fmt"
	"testing"
	"time"

	"paydash/backend"
	"paydash/views/internal/viewtest"
	"paydash/views/tab"
)

// A refresh of a long list: the two newest pages read again, applied to
// 100,000 loaded rows. refresh is what a refresh costs now (new and
// changed rows put in, and the loaded rows it read the place of and did
// not find taken out: dropGone); baseline is the putting in alone
// (datatable.Upsert), what a refresh cost before rows could leave.
// Compare the two of one run:
//
//	go test ./views -run '^$' -bench RefreshList -benchmem
func BenchmarkRefreshList(b *testing.B) {
	rows := viewtest.BenchPayments(viewtest.BenchRows + 200)
	read := rows[:200] // the refresh's two pages: 100 new rows, 100 loaded
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	b.Run(fmt.Sprintf("refresh/rows=%d", viewtest.BenchRows), func(b *testing.B) {
		l := benchList(rows[100:])
		l.Pages = 1000
		b.ReportAllocs()
		for b.Loop() {
			_, st := l.Refreshes.Next()
			l.OnRefresh(tab.RefreshMsg[backend.Payment]{Stamp: st, Rows: read}, now)
		}
	})
	b.Run(fmt.Sprintf("baseline/rows=%d", viewtest.BenchRows), func(b *testing.B) {
		l := benchList(rows[100:])
		b.ReportAllocs()
		for b.Loop() {
			l.Table.Upsert(read, now)
		}
	})
}
