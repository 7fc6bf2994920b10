package payments

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend"
	"paydash/backend/money"
	"paydash/keys"
	"paydash/ui"
	"paydash/ui/datatable"
	"paydash/views/internal/viewtest"
	"paydash/views/tab"
)

// loadPages moves to the end of the list n times: a page each.
func (e *env) loadPages(n int) {
	for range n {
		e.Press("G")
	}
}

// paymentIDs are the ids of rows, in order.
func paymentIDs(rows []backend.Payment) []string {
	out := make([]string, len(rows))
	for i, p := range rows {
		out[i] = p.ID
	}
	return out
}

// sortedByAmount is rows (in the list's own order) sorted stably by
// amount within each currency.
func sortedByAmount(rows []backend.Payment, desc bool) []backend.Payment {
	return byCurrencyThenAmount(rows, desc)
}

// assertOwnOrder checks that rows are in the Payments list's own order,
// starting with the rows own (loaded before a sort read the rest).
func assertOwnOrder(t *testing.T, own []string, rows []backend.Payment) {
	t.Helper()
	assert.Equal(t, paymentIDs(viewtest.OwnOrdered(rows)), paymentIDs(rows), "the list's own order")
	require.GreaterOrEqual(t, len(rows), len(own))
	assert.Equal(t, own, paymentIDs(rows[:len(own)]), "the rows loaded before, first")
}

// bottomLine is the last line of the tab's view, without styles.
func (e *env) bottomLine(w, h int) string {
	lines := strings.Split(ansi.Strip(e.View(w, h)), "\n")
	return lines[len(lines)-1]
}

// --- tests ---------------------------------------------------------------------

// sortedMark is the optional start of the bottom line: rows the sort's
// read put above the screen.
const sortedMark = `(↑ [\d,]+ sorted above · g  )?`

func TestSortByALetterOrdersEveryLoadedRow(t *testing.T) {
	t.Parallel()
	e := newEnv(t, viewtest.Opts{Changes: true, Fixed: viewtest.GoldenNow})
	e.Scope.Start = viewtest.GoldenNow.AddDate(0, 0, -30)
	e.Size(120, 40)
	e.Init()
	e.loadPages(2)
	p := e.Tab.(*Payments)
	own := p.List.Table.Rows()
	require.GreaterOrEqual(t, len(own), 300)
	require.False(t, p.List.Done, "the period has more pages")
	require.Equal(t, paymentIDs(viewtest.OwnOrdered(own)), paymentIDs(own), "the list's own order is newest first")
	e.Press("g", "j", "j", "j", "j", "j")
	sel := p.List.Table.SelectedID()

	// s, the letter of Amount: largest first, every row of the period
	// (the sort read the rest of it).
	e.SortBy("Amount")
	key, desc := p.List.Table.SortKey()
	assert.Equal(t, "amount", key)
	assert.True(t, desc, "an amount sorts largest first")
	require.True(t, p.List.Done, "the sort read the whole period")
	all := p.List.Table.Rows()
	assert.Equal(t, paymentIDs(sortedByAmount(viewtest.OwnOrdered(all), true)), paymentIDs(all),
		"the whole order, ties in the list's own order")
	assert.Equal(t, sel, p.List.Table.SelectedID(), "the selection stays on its row")
	line := viewtest.SelectedLine(e.View(120, 40))
	assert.True(t, line >= 1 && line < 39, "on screen: %d", line)
	view := ansi.Strip(e.View(120, 40))
	assert.Contains(t, viewtest.LineWith(view, "Created"), "Amount ▼", "the header shows the column and the direction")
	assert.Regexp(t, "^"+sortedMark+`sorted by Amount ▼ largest first in each currency \(s column · S reverse\)$`, trimRight(e.bottomLine(120, 40)))

	// S reverses.
	e.Press("S")
	key, desc = p.List.Table.SortKey()
	assert.Equal(t, "amount", key)
	assert.False(t, desc)
	assert.Equal(t, paymentIDs(sortedByAmount(viewtest.OwnOrdered(all), false)), paymentIDs(p.List.Table.Rows()))
	assert.Contains(t, viewtest.LineWith(ansi.Strip(e.View(120, 40)), "Created"), "Amount ▲")
	assert.Equal(t, sel, p.List.Table.SelectedID())

	// Choosing the column sorted by again keeps its direction.
	e.SortBy("Amount")
	_, desc = p.List.Table.SortKey()
	assert.False(t, desc, "the current column keeps its direction")

	e.Press("S") // largest first again

	// A refresh with a new payment: it takes its place (the largest: the
	// top), the order and the selection hold.
	e.Press("g", "j", "j", "j")
	sel = p.List.Table.SelectedID()
	line = viewtest.SelectedLine(e.View(120, 40))
	np := e.NewPayment(false, "987654.00")
	e.Send(ui.RefreshMsg{Manual: true})
	require.Empty(t, e.Errors())
	all = p.List.Table.Rows()
	assert.Equal(t, np.ID, all[0].ID, "the largest payment is first")
	assert.Equal(t, paymentIDs(sortedByAmount(viewtest.OwnOrdered(all), true)), paymentIDs(all), "the sort holds across a refresh")
	assert.Equal(t, sel, p.List.Table.SelectedID(), "the selection stays on its row")
	assert.Equal(t, line, viewtest.SelectedLine(e.View(120, 40)), "and on its screen line")
}

func TestSortChooserKeysInTheList(t *testing.T) {
	t.Parallel()
	e, p := started(t, viewtest.Opts{Fixed: viewtest.GoldenNow}, 120, 40)
	own := paymentIDs(p.List.Table.Rows())

	// Sorting from the first row shows the sorted list's top.
	e.SortBy("Amount")
	assert.Equal(t, 0, p.List.Table.Cursor())
	assert.Equal(t, 1, viewtest.SelectedLine(e.View(120, 40)))
	e.SortBy("Created")

	// The list's own order is Created, newest first: marked as current.
	d := e.OpenSort()
	screen := d.Screen()
	assert.Contains(t, screen, "now: the list's own order (Created, newest first)")
	assert.Contains(t, screen, "> [c] Created ▼ newest first  (current)")
	assert.Contains(t, screen, "[a] Amount ▼ largest first")
	assert.Contains(t, screen, "[s] Status ▲ A → Z")
	assert.NotRegexp(t, `\[[jkgG]\]`, screen, "j, k, g and G move: never a column's letter")

	// esc cancels: nothing changes.
	d.Press("esc")
	require.True(t, d.Closed)
	key, _ := p.List.Table.SortKey()
	assert.Empty(t, key)
	assertOwnOrder(t, own, p.List.Table.Rows())
	assert.Empty(t, viewtest.Take[ui.ToastMsg](e.Env))

	// The arrows and enter: one down from Created is Status.
	d = e.OpenSort()
	d.Press("down", "enter")
	require.True(t, d.Closed)
	key, desc := p.List.Table.SortKey()
	assert.Equal(t, "status", key)
	assert.False(t, desc, "text sorts A → Z")
	rows := p.List.Table.Rows()
	assert.True(t, slices.IsSortedFunc(rows, func(a, b backend.Payment) int { return cmp.Compare(a.Status, b.Status) }))
	assert.Equal(t, "sorted by Status ▲ A → Z (s column · S reverse)", trimRight(e.bottomLine(120, 40)))

	// Created ▼ is the list's own order: choosing it drops the sort.
	e.SortBy("Created")
	key, _ = p.List.Table.SortKey()
	assert.Empty(t, key)
	assertOwnOrder(t, own, p.List.Table.Rows())
	assert.NotContains(t, e.bottomLine(120, 40), "sorted by", "no bottom line in the own order")

	// The filter and the sort share the bottom line.
	e.SortBy("Amount")
	e.Press("/")
	e.TypeText("settled")
	e.Press("enter")
	assert.Equal(t, `sorted by Amount ▼ · search: settled  (/ edit · esc clears)`, trimRight(e.bottomLine(120, 40)))
	e.View(80, 24)
	e.View(40, 10)
}

func TestSortReverseOfTheOwnOrder(t *testing.T) {
	t.Parallel()
	e, p := started(t, viewtest.Opts{Fixed: viewtest.GoldenNow}, 100, 30)
	own := p.List.Table.Rows()

	// S on the own order (newest first): oldest first, and it says so.
	e.Press("S")
	key, desc := p.List.Table.SortKey()
	assert.Equal(t, "created", key)
	assert.False(t, desc)
	// The rows read for the sort went above the first row, which kept
	// its line: the bottom line says so.
	assert.Regexp(t, `^↑ [\d,]+ sorted above · g  sorted by Created ▲ oldest first \(s column · S reverse\)$`, trimRight(e.bottomLine(100, 30)))
	rows := p.List.Table.Rows()
	assert.True(t, slices.IsSortedFunc(rows, func(a, b backend.Payment) int { return tab.PaymentTime(a).Compare(tab.PaymentTime(b)) }))

	// S again: back to the own order.
	e.Press("S")
	key, _ = p.List.Table.SortKey()
	assert.Empty(t, key)
	assertOwnOrder(t, paymentIDs(own), p.List.Table.Rows())
	assert.NotContains(t, e.bottomLine(100, 30), "sorted by")
}

// With the pane open the list behind it sorts; the pane stays, the view
// keeps its size (the bottom line comes with the sort).
func TestSortWithThePaneOpen(t *testing.T) {
	t.Parallel()
	e, p := started(t, viewtest.Opts{Fixed: viewtest.GoldenNow}, 160, 40)
	e.Press("j", "enter")
	require.True(t, p.Pane.IsOpen())
	e.SortBy("Amount")
	assert.True(t, p.Pane.IsOpen())
	key, _ := p.List.Table.SortKey()
	assert.Equal(t, "amount", key)
	e.View(160, 40)
	e.View(80, 24) // the pane instead of the list
	e.Press("esc")
	e.View(80, 24)
}

// Sorting by a column the Rank cannot read (an id that is not a number)
// falls back to Less.
func TestSortFallsBackToLess(t *testing.T) {
	t.Parallel()
	cfg := datatable.Config[backend.Payment]{ID: func(p backend.Payment) string { return p.ID }, Columns: PaymentColumns(nil)}
	l := tab.NewPagedList(cfg, keys.Default(), ui.NewTheme(true, true), tab.PaymentTime)
	l.SetSize(80, 20, 80)
	l.Table.Append([]backend.Payment{{ID: "12"}, {ID: "x-9"}, {ID: "3"}, {ID: "007"}})
	l.SetSort("id", false)
	assert.Equal(t, []string{"3", "12", "007", "x-9"}, paymentIDs(l.Table.Rows()))
	l.Table.Append([]backend.Payment{{ID: "100", Amount: money.Amount{Value: 5}}})
	assert.Equal(t, []string{"3", "12", "007", "100", "x-9"}, paymentIDs(l.Table.Rows()))
}

func trimRight(s string) string { return strings.TrimRight(s, " ") }

// A sorted, searched list: the period read whole for the search, its
// matches in the sort's order, the search and the sort on the bottom line.
func TestGoldenSortedSearchedPayments(t *testing.T) {
	t.Parallel()
	for _, sz := range [][2]int{{80, 24}, {200, 50}} {
		e := newEnv(t, viewtest.Opts{Fixed: viewtest.GoldenNow})
		e.Size(sz[0], sz[1])
		e.Init()
		e.SortBy("Amount")
		e.Press("/")
		e.TypeText("status:settled amount:200..700 latte")
		e.Press("enter")
		require.True(t, e.Tab.(*Payments).List.Done)
		e.Press("j")
		viewtest.GoldenCheck(t, "sorted_searched_"+strconv.Itoa(sz[0])+"x"+strconv.Itoa(sz[1]), ansi.Strip(e.View(sz[0], sz[1])))
	}
}
