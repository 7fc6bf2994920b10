package datatable

import (
	"fmt"
	"runtime"
	"testing"

	"charm.land/bubbles/v2/table"
	tea "charm.land/bubbletea/v2"
)

// The list widget's speed targets: a key press (Update and View) within
// 25 µs at 1,000,000 rows, and at least 100 times faster than the stock
// bubbles table at 100,000 (README.md, Performance, has the figures).
// Compare BenchmarkListKeyPress/rows=N with BenchmarkStockTableKeyPress/rows=N
// from the same run.

const (
	benchWidth  = 160
	benchHeight = 40
)

var benchModels = map[int]Model[payment]{}

// benchModel is a widget at 160×40 with n payment rows loaded page by page
// (pages of 1,000 here to keep the set-up short), built once per run.
func benchModel(n int) Model[payment] {
	if m, ok := benchModels[n]; ok {
		return m
	}
	m := New(Config[payment]{ID: paymentID, Columns: paymentColumns(), Styles: DefaultStyles(true)})
	m.SetSize(benchWidth, benchHeight)
	for from := 0; from < n; from += 1000 {
		m.Append(makePayments(from, min(1000, n-from)))
	}
	benchModels[n] = m
	return m
}

// keyPressSpan is how far the cursor walks down from the middle before it
// is put back (outside the timer).
func keyPressSpan(n int) int { return min(n/2-benchHeight, 20000) }

func BenchmarkListKeyPress(b *testing.B) {
	for _, n := range []int{1_000, 100_000, 1_000_000} {
		b.Run(fmt.Sprintf("rows=%d", n), func(b *testing.B) {
			benchKeyPress(b, benchModel(n), n)
		})
	}
}

// benchKeyPress times a key press down (Update and View) on m, a widget of
// n rows, walking from the middle and put back every keyPressSpan(n) rows
// outside the timer.
func benchKeyPress(b *testing.B, m Model[payment], n int) {
	down := tea.KeyPressMsg{Code: tea.KeyDown}
	mid, span := n/2, keyPressSpan(n)
	m.SetCursor(mid)
	_ = m.View()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if m.Cursor() >= mid+span {
			b.StopTimer()
			m.SetCursor(mid)
			_ = m.View()
			b.StartTimer()
		}
		m, _ = m.Update(down)
		_ = m.View()
	}
}

// BenchmarkStockTableKeyPress is the same key press on the stock bubbles
// table: the same seven columns (their widths plus the table's cell padding
// make 160 cells) and 40 lines.
func BenchmarkStockTableKeyPress(b *testing.B) {
	cols := paymentColumns()
	var tcols []table.Column
	for _, l := range fitColumns(cols, benchWidth-2*len(cols)+(len(cols)-1)*columnGap) {
		tcols = append(tcols, table.Column{Title: cols[l.col].Title, Width: l.width})
	}
	for _, n := range []int{1_000, 100_000} {
		b.Run(fmt.Sprintf("rows=%d", n), func(b *testing.B) {
			rows := make([]table.Row, n)
			for i, p := range makePayments(0, n) {
				r := make(table.Row, len(cols))
				for j := range cols {
					r[j] = cols[j].Text(p)
				}
				rows[i] = r
			}
			t := table.New(table.WithColumns(tcols), table.WithRows(rows),
				table.WithWidth(benchWidth), table.WithHeight(benchHeight))
			mid, span := n/2, keyPressSpan(n)
			t.SetCursor(mid)
			if len(splitLines(t.View())) < benchHeight-1 {
				b.Fatalf("the stock table draws %d lines", len(splitLines(t.View())))
			}
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if t.Cursor() >= mid+span {
					b.StopTimer()
					t.SetCursor(mid)
					b.StartTimer()
				}
				t.MoveDown(1)
				_ = t.View()
			}
		})
	}
}

// BenchmarkFilterKeystroke types one more character of a filter (SetFilter
// and the View that follows) in the worst case for the incremental search:
// from "r" to "ru", both of which every row matches (the amount cell ends
// in "RUB"), so all previous matches are searched again.
func BenchmarkFilterKeystroke(b *testing.B) {
	benchFilter(b, "r", "ru", 100_000, 1_000_000)
}

// BenchmarkFilterFromScratch is a keystroke that cannot narrow the previous
// matches (a backspace: "ru" to "r"), so every loaded row is searched.
func BenchmarkFilterFromScratch(b *testing.B) {
	benchFilter(b, "ru", "r", 100_000, 1_000_000)
}

// BenchmarkFilterRareWord is an order-number fragment typed over no filter
// (pasted, or a backspace back to it): few rows match, so the search reads
// every row and keeps almost none.
func BenchmarkFilterRareWord(b *testing.B) {
	benchFilter(b, "", "ord-77777", 100_000, 1_000_000)
}

// BenchmarkFilterCondition is a query of a field condition alone (a status),
// set over no filter: every row is tested by Keep, none of its text read.
func BenchmarkFilterCondition(b *testing.B) {
	authorized := Query[payment]{Text: "status:authorized", Conds: []string{"status:authorized"},
		Keep: func(p *payment) bool { return p.Status == "Authorized" }}
	benchQuery(b, func(m *Model[payment]) { m.SetFilter("") }, func(m *Model[payment]) { m.SetQuery(authorized) }, 1_000_000)
}

// BenchmarkFilterFirstWord is the first word typed into a table nobody
// has searched by word yet: it builds the filter's texts, one pass over
// the rows (they are kept afterwards).
func BenchmarkFilterFirstWord(b *testing.B) {
	for _, n := range []int{100_000, 1_000_000} {
		b.Run(fmt.Sprintf("rows=%d", n), func(b *testing.B) {
			m := benchModel(n)
			rows := makePayments(0, n)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				m.SetFilter("")
				m.SetRows(rows) // rows again: no texts until a word is typed
				m.SetCursor(n / 2)
				_ = m.View()
				b.StartTimer()
				m.SetFilter("ord-77777")
				_ = m.View()
			}
			b.StopTimer()
			m.SetFilter("")
		})
	}
}

func benchFilter(b *testing.B, from, to string, sizes ...int) {
	benchQuery(b, func(m *Model[payment]) { m.SetFilter(from) }, func(m *Model[payment]) { m.SetFilter(to) }, sizes...)
}

// benchQuery times set (and the View that follows) after reset (untimed),
// on a model with n rows and the cursor in the middle.
func benchQuery(b *testing.B, reset, set func(*Model[payment]), sizes ...int) {
	for _, n := range sizes {
		b.Run(fmt.Sprintf("rows=%d", n), func(b *testing.B) {
			m := benchModel(n)
			m.SetCursor(n / 2)
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				reset(&m)
				_ = m.View()
				b.StartTimer()
				set(&m)
				_ = m.View()
			}
			b.StopTimer()
			b.ReportMetric(float64(m.Filtered()), "matches")
			m.SetFilter("")
		})
	}
}

// BenchmarkHeapPerRow is the live heap per loaded payment row (the row
// value and its strings included) after loading 100,000 rows in pages of
// 100, measured with runtime.ReadMemStats after a GC, with no word
// searched (the filter's texts, about 95 bytes a row here, are built for
// the first one: syncHay). widget-B/row is the part that is not the rows
// themselves.
func BenchmarkHeapPerRow(b *testing.B) {
	const n = 100_000
	var perRow, rowsOnly float64
	for i := 0; i < b.N; i++ {
		before := liveHeap()
		m := New(Config[payment]{ID: paymentID, Columns: paymentColumns(), Styles: DefaultStyles(true)})
		m.SetSize(benchWidth, benchHeight)
		for from := 0; from < n; from += 100 {
			m.Append(makePayments(from, 100))
		}
		_ = m.View()
		after := liveHeap()
		runtime.KeepAlive(m)
		perRow = float64(after-before) / n

		before = liveHeap()
		rows := make([]payment, 0, n)
		for from := 0; from < n; from += 100 {
			rows = append(rows, makePayments(from, 100)...)
		}
		after = liveHeap()
		runtime.KeepAlive(rows)
		rowsOnly = float64(after-before) / n
	}
	b.ReportMetric(perRow, "B/row")
	b.ReportMetric(perRow-rowsOnly, "widget-B/row")
}

func liveHeap() uint64 {
	var ms runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// BenchmarkAppendPage is the arrival of a 100-row page (Append and the View
// that follows) with 1,000,000 rows loaded, natural order, no filter. The
// pages appended stay, so the model ends with more than 1,000,000 rows; it
// runs last.
func BenchmarkAppendPage(b *testing.B) {
	const n = 1_000_000
	b.Run(fmt.Sprintf("rows=%d", n), func(b *testing.B) {
		m := benchModel(n)
		page := makePayments(n, 100)
		b.ReportAllocs()
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			b.StopTimer()
			for j := range page {
				page[j].ID = fmt.Sprintf("p%d-%d", i, j)
			}
			b.StartTimer()
			m.Append(page)
			_ = m.View()
		}
	})
}
