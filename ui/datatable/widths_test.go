package datatable

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type fitRow struct{ ID, Order, Desc, Extra string }

func fitCols() []Column[fitRow] {
	return []Column[fitRow]{
		{Key: "id", Title: "ID", Width: 8, MaxWidth: 24, Priority: 100, Text: func(r fitRow) string { return r.ID }},
		{Key: "order", Title: "Order", Width: 10, MaxWidth: 20, Priority: 50, Text: func(r fitRow) string { return r.Order }},
		{Key: "desc", Title: "Description", Width: 8, Flex: 1, Priority: 80, Text: func(r fitRow) string { return r.Desc }},
		{Key: "extra", Title: "Extra", Width: 16, Priority: 40, Text: func(r fitRow) string { return r.Extra }},
	}
}

func widthsOf[T any](m Model[T]) map[string]int {
	out := map[string]int{}
	for _, l := range m.c.layout {
		out[m.c.cols[l.col].Key] = l.width
	}
	return out
}

func newFit(width int, rows ...fitRow) Model[fitRow] {
	m := New(Config[fitRow]{ID: func(r fitRow) string { return r.ID }, Columns: fitCols()})
	m.SetSize(width, 10)
	m.SetRows(rows)
	return m
}

func TestColumnSizedByContentUpToCap(t *testing.T) {
	m := newFit(200, fitRow{ID: "1", Order: "TRV-LED-20261120-77", Desc: "x"})
	w := widthsOf(m)
	assert.Equal(t, 8, w["id"], "never below its minimum")
	assert.Equal(t, len("TRV-LED-20261120-77"), w["order"], "the width its content needs")
	assert.Equal(t, 200-2-3-8-19-16, w["desc"], "the description takes what is left")

	// A wider row arriving later widens the column, up to its cap.
	m.Append([]fitRow{{ID: "2", Order: strings.Repeat("O", 40)}})
	assert.Equal(t, 20, widthsOf(m)["order"], "capped at MaxWidth")
	assert.Contains(t, m.View(), "TRV-LED-20261120-77")

	// The widths stick: a key press does not measure the rows again.
	m.SetRows([]fitRow{{ID: "3", Order: "A"}})
	assert.Equal(t, 20, widthsOf(m)["order"])
}

func TestIDAndOrderNotCutWhileDescriptionHasRoom(t *testing.T) {
	order := "TRV-LED-20261120-77" // 19 cells
	// Minimums: 8+10+8+16 and 3 gaps = 45 of 58 cells: 13 spare.
	m := newFit(60, fitRow{ID: "1234567890", Order: order, Desc: "A long description of the payment"})
	w := widthsOf(m)
	assert.Equal(t, 10, w["id"], "the id first")
	assert.Equal(t, 19, w["order"], "then the order number")
	assert.Equal(t, 8+13-2-9, w["desc"], "the description shrinks first")
	view := m.View()
	assert.Contains(t, view, order)
	assert.Contains(t, view, "1234567890")

	// Less room than the order number needs: it gets all that is spare,
	// the description its minimum.
	m.SetSize(50, 10) // 48 cells: 3 spare after the minimums, all to the id (priority 100)
	w = widthsOf(m)
	assert.Equal(t, 10, w["id"])
	assert.Equal(t, 11, w["order"])
	assert.Equal(t, 8, w["desc"])
}

func TestPriorityDroppingWithContentWidths(t *testing.T) {
	// At 40 cells (38 for the columns) the minimums 8+10+8+16+3 = 45 do not
	// fit: the lowest priority (Extra) goes, then the rest is shared.
	m := newFit(40, fitRow{ID: "1", Order: "TRV-LED-20261120-77", Desc: "d", Extra: "e"})
	require.Equal(t, []string{"id", "order", "desc"}, m.ShownColumns())
	w := widthsOf(m)
	assert.Equal(t, 38-2, w["id"]+w["order"]+w["desc"])
	assert.Equal(t, 19, w["order"], "the order number is whole")
	assert.Equal(t, 9, w["desc"], "the description has what is left")

	// 80 columns with the payments of the benchmarks: the same drops as
	// without content widths.
	cols := paymentColumns()
	plain := fitColumns(cols, 78)
	p := New(Config[payment]{ID: paymentID, Columns: cols})
	p.SetSize(80, 24)
	p.SetRows(makePayments(0, 100))
	require.Len(t, p.c.layout, len(plain))
	for i := range plain {
		assert.Equal(t, plain[i].col, p.c.layout[i].col)
	}
}
