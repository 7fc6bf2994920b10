package datatable

import (
	"cmp"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

// rankedColumns are paymentColumns with a Rank on the amount column (ok,
// when set, says which rows have one).
func rankedColumns(ok func(payment) bool) []Column[payment] {
	cols := paymentColumns()
	for i := range cols {
		if cols[i].Key == "amount" {
			cols[i].Rank = func(p payment) (int64, bool) { return p.AmountMinor, ok == nil || ok(p) }
		}
	}
	return cols
}

func ids(rows []payment) []string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = r.ID
	}
	return out
}

// A Rank sorts as Less does, stably, both ways; new rows still take their
// places by Less.
func TestSortByRankIsLessStable(t *testing.T) {
	rows := makePayments(0, 3000)
	for i := range rows {
		rows[i].AmountMinor %= 40 // many ties
	}
	plain := New(Config[payment]{ID: paymentID, Columns: paymentColumns()})
	fast := New(Config[payment]{ID: paymentID, Columns: rankedColumns(nil)})
	for _, m := range []*Model[payment]{&plain, &fast} {
		m.SetSize(80, 20)
		m.Append(rows[:2000])
	}
	for _, desc := range []bool{true, false, true} {
		plain.SortBy("amount", desc)
		fast.SortBy("amount", desc)
		assert.Equal(t, ids(plain.Rows()), ids(fast.Rows()), "desc=%v", desc)
	}
	plain.Append(rows[2000:])
	fast.Append(rows[2000:])
	plain.Upsert(makePayments(5000, 10), time.Time{})
	fast.Upsert(makePayments(5000, 10), time.Time{})
	assert.Equal(t, ids(plain.Rows()), ids(fast.Rows()))
	fast.SetRows(rows)
	plain.SetRows(rows)
	assert.Equal(t, ids(plain.Rows()), ids(fast.Rows()), "SetRows keeps the sort")
}

// A row without a rank sorts the list by Less.
func TestSortByRankFallsBackToLess(t *testing.T) {
	rows := makePayments(0, 500)
	m := New(Config[payment]{ID: paymentID, Columns: rankedColumns(func(p payment) bool { return p.ID != rows[7].ID })})
	m.SetSize(80, 20)
	m.SetRows(rows)
	m.SortBy("amount", false)
	assert.True(t, slices.IsSortedFunc(m.Rows(), func(a, b payment) int { return int(a.AmountMinor - b.AmountMinor) }))
}

// Shown is what is shown: filtered, in the sort order.
func TestShown(t *testing.T) {
	m := newPayments(80, 20, makePayments(0, 200))
	m.SortBy("amount", true)
	m.SetFilter("settled")
	shown := m.Shown()
	assert.Len(t, shown, m.Filtered())
	assert.Less(t, len(shown), m.Len())
	for i, p := range shown {
		assert.Equal(t, "Settled", p.Status)
		if i > 0 {
			assert.GreaterOrEqual(t, shown[i-1].AmountMinor, p.AmountMinor)
		}
	}
}

// groupedColumns are paymentColumns with the amount column grouped by
// currency (and ranked by its minor units when ranked).
func groupedColumns(ranked bool) []Column[payment] {
	cols := paymentColumns()
	if ranked {
		cols = rankedColumns(nil)
	}
	for i := range cols {
		if cols[i].Key == "amount" {
			cols[i].Group = func(p payment) string { return p.Currency }
		}
	}
	return cols
}

// A grouped column sorts its groups apart, A → Z whichever the direction,
// and the rows of a group by the column: by Less or by Rank alike, the
// rows arriving later too.
func TestSortKeepsGroupsApart(t *testing.T) {
	rows := makePayments(0, 900)
	currencies := []string{"RUB", "EUR", "USD"}
	for i := range rows {
		rows[i].Currency = currencies[i*7%11%3]
		rows[i].AmountMinor %= 500 // ties, and the same amounts in every currency
	}
	want := func(n int, desc bool) []string {
		out := slices.Clone(rows[:n])
		slices.SortStableFunc(out, func(a, b payment) int {
			if c := cmp.Compare(a.Currency, b.Currency); c != 0 {
				return c
			}
			if desc {
				return cmp.Compare(b.AmountMinor, a.AmountMinor)
			}
			return cmp.Compare(a.AmountMinor, b.AmountMinor)
		})
		return ids(out)
	}
	for _, ranked := range []bool{false, true} {
		m := New(Config[payment]{ID: paymentID, Columns: groupedColumns(ranked)})
		m.SetSize(80, 20)
		m.Append(rows[:600])
		for _, desc := range []bool{true, false, true} {
			m.SortBy("amount", desc)
			assert.Equal(t, want(600, desc), ids(m.Rows()), "ranked=%v desc=%v", ranked, desc)
		}
		for from := 600; from < len(rows); from += 100 {
			m.Append(rows[from : from+100])
		}
		assert.Equal(t, want(900, true), ids(m.Rows()), "ranked=%v: the rows that came later", ranked)
	}
}
