package datatable

import (
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
