package datatable

import (
	"strings"
	"testing"
	"time"

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
	assert.Equal(t, len("Description"), w["desc"], "the description takes what its title and cells need, no more")

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

// Spare width goes to the Flex columns whose cells are cut, in proportion
// to what each lacks, never beyond its widest cell loaded so far; width
// that no column needs stays blank at the right.

type twoFlex struct{ ID, Customer, Desc string }

func twoFlexModel(width int, rows ...twoFlex) Model[twoFlex] {
	m := New(Config[twoFlex]{ID: func(r twoFlex) string { return r.ID }, Columns: []Column[twoFlex]{
		{Key: "id", Title: "ID", Width: 4, Priority: 100, Text: func(r twoFlex) string { return r.ID }},
		{Key: "customer", Title: "Customer", Width: 8, Flex: 3, Priority: 50, Text: func(r twoFlex) string { return r.Customer }},
		{Key: "desc", Title: "Description", Width: 11, Flex: 1, Priority: 80, Text: func(r twoFlex) string { return r.Desc }},
	}})
	m.SetSize(width, 10)
	m.SetRows(rows)
	return m
}

func TestSpareWidthGoesToCutColumnsByNeed(t *testing.T) {
	email := "d.alekseev84@rambler.ru"                        // 23 cells: lacks 15 at its minimum
	desc := "3 x americano 0.3 l, 2 croissants, to take away" // 47: lacks 36
	rows := []twoFlex{{ID: "1", Customer: email, Desc: desc}, {ID: "2", Customer: "a@b.ru", Desc: "tea"}}

	// Wide: each gets what its widest cell needs, no more; the rest is blank.
	m := twoFlexModel(200, rows...)
	w := widthsOf(m)
	assert.Equal(t, len(email), w["customer"])
	assert.Equal(t, len(desc), w["desc"])
	view := m.View()
	assert.Contains(t, view, email)
	assert.Contains(t, view, desc)
	first := strings.Split(view, "\n")[1]
	assert.True(t, strings.HasSuffix(first, desc+strings.Repeat(" ", 200-2-4-1-23-1-47)), "the blank is at the right: %q", first)

	// Narrow: the 51 spare cells (lack 15 + 36) are shared by what each lacks.
	m = twoFlexModel(2+4+1+8+1+11+17, rows...) // 17 spare
	w = widthsOf(m)
	assert.Equal(t, 8+17*15/51, w["customer"]) // 8+5
	assert.Equal(t, 11+17*36/51, w["desc"])    // 11+12
	assert.Equal(t, 17, w["customer"]-8+w["desc"]-11, "all the spare is given")

	// A longer cell arriving later widens its column, up to what it needs.
	m = twoFlexModel(200, rows...)
	m.Append([]twoFlex{{ID: "3", Customer: "konstantin.konstantinopolsky@example.com", Desc: "x"}})
	assert.Equal(t, len("konstantin.konstantinopolsky@example.com"), widthsOf(m)["customer"])
	assert.Equal(t, len(desc), widthsOf(m)["desc"])
}

func TestFlexColumnsShareTheWidthBeforeAnyRow(t *testing.T) {
	m := twoFlexModel(100)
	w := widthsOf(m)
	assert.Equal(t, 100-2-2, w["id"]+w["customer"]+w["desc"], "an empty table spreads its headers over the width")
	assert.Greater(t, w["customer"], w["desc"], "by Flex")
}

func TestRedrawAndUpsertMeasureTheRowAgain(t *testing.T) {
	// A cell whose text comes from outside the row (a fact learnt later)
	// widens its column when the row is redrawn.
	customer := map[string]string{}
	m := New(Config[twoFlex]{ID: func(r twoFlex) string { return r.ID }, Columns: []Column[twoFlex]{
		{Key: "id", Title: "ID", Width: 4, Priority: 100, Text: func(r twoFlex) string { return r.ID }},
		{Key: "customer", Title: "Customer", Width: 8, Flex: 3, Priority: 50, Text: func(r twoFlex) string { return customer[r.ID] + r.Desc }},
	}})
	m.SetSize(100, 5)
	m.SetRows([]twoFlex{{ID: "1"}, {ID: "2", Desc: "a@b.ru"}})
	assert.Equal(t, 8, widthsOf(m)["customer"])
	customer["1"] = "d.alekseev84@rambler.ru"
	m.Redraw("1")
	assert.Equal(t, 23, widthsOf(m)["customer"])
	assert.Contains(t, m.View(), "d.alekseev84@rambler.ru")

	// A row changed in place is measured too.
	m.Upsert([]twoFlex{{ID: "2", Desc: "konstantin.konstantinopolsky@example.com"}}, time.Time{})
	assert.Equal(t, 40, widthsOf(m)["customer"])
}

func TestFixedColumnTakesWhatIsLeftOnlyAfterTheFlexColumns(t *testing.T) {
	extra := "SBP, Raiffeisenbank, Moscow branch" // 34 cells, its minimum 16
	desc := strings.Repeat("d", 30)
	row := fitRow{ID: "1", Order: "ORD-1", Desc: desc, Extra: extra}

	// Wide: both whole, the rest blank.
	w := widthsOf(newFit(200, row))
	assert.Equal(t, len(desc), w["desc"])
	assert.Equal(t, len(extra), w["extra"], "a fixed column whose cells are cut takes what is left over")

	// Room for the description only: the fixed column keeps its minimum.
	// Minimums 8+10+8+16 and 3 gaps = 45; 22 spare goes to the description.
	w = widthsOf(newFit(2+45+22, row))
	assert.Equal(t, len(desc), w["desc"])
	assert.Equal(t, 16, w["extra"])
	// Ten cells more: they go to the fixed column.
	w = widthsOf(newFit(2+45+22+10, row))
	assert.Equal(t, 26, w["extra"])
}
