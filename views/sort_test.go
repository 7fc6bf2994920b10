package views

import (
	"cmp"
	"context"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend"
	"paydash/backend/known"
	"paydash/backend/money"
	"paydash/keys"
	"paydash/ui"
	"paydash/ui/datatable"
)

// Sorting (sort.go) against the real sandbox, driven by keys:
// s opens the chooser, a letter (or the arrows and enter) sorts, S
// reverses; the sort holds across new pages and refreshes, the selection
// stays on its row.

// --- helpers ------------------------------------------------------------------

// openSort presses s and returns the chooser the tab asked the shell to
// open.
func (e *env) openSort() *dialog {
	e.t.Helper()
	e.press("s")
	d := e.openModal()
	require.Contains(e.t, d.screen(), "Sort the list by")
	return d
}

// letterFor is the letter the chooser gives the column titled title.
func letterFor(t *testing.T, d *dialog, title string) string {
	t.Helper()
	m := regexp.MustCompile(`\[(.)\] ` + regexp.QuoteMeta(title) + ` [▲▼]`).FindStringSubmatch(d.screen())
	require.NotNil(t, m, "the chooser offers %s:\n%s", title, d.screen())
	return m[1]
}

// sortBy sorts the list by the column titled title with its letter.
func (e *env) sortBy(title string) {
	e.t.Helper()
	d := e.openSort()
	d.press(letterFor(e.t, d, title))
	require.True(e.t, d.closed, "a letter chooses at once")
}

// loadPages moves to the end of the list n times: a page each.
func (e *env) loadPages(n int) {
	for range n {
		e.press("G")
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

// ownOrdered is rows put back in the Payments list's own order (newest
// first: by time, then by id).
func ownOrdered(rows []backend.Payment) []backend.Payment {
	out := slices.Clone(rows)
	slices.SortStableFunc(out, func(a, b backend.Payment) int {
		if c := paymentTime(b).Compare(paymentTime(a)); c != 0 {
			return c
		}
		return cmpIDs(b.ID, a.ID)
	})
	return out
}

// assertOwnOrder checks that rows are in the Payments list's own order,
// starting with the rows own (loaded before a sort read the rest).
func assertOwnOrder(t *testing.T, own []string, rows []backend.Payment) {
	t.Helper()
	assert.Equal(t, paymentIDs(ownOrdered(rows)), paymentIDs(rows), "the list's own order")
	require.GreaterOrEqual(t, len(rows), len(own))
	assert.Equal(t, own, paymentIDs(rows[:len(own)]), "the rows loaded before, first")
}

// bottomLine is the last line of the tab's view, without styles.
func (e *env) bottomLine(w, h int) string {
	lines := strings.Split(ansi.Strip(e.view(w, h)), "\n")
	return lines[len(lines)-1]
}

// --- tests ---------------------------------------------------------------------

// sortedMark is the optional start of the bottom line: rows the sort's
// read put above the screen.
const sortedMark = `(↑ [\d,]+ sorted above · g  )?`

func TestSortByALetterOrdersEveryLoadedRow(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{fixed: goldenNow})
	e.scope.Start = goldenNow.AddDate(0, 0, -30)
	e.size(120, 40)
	e.init()
	e.loadPages(2)
	p := e.tab.(*Payments)
	own := p.list.table.Rows()
	require.GreaterOrEqual(t, len(own), 300)
	require.False(t, p.list.done, "the period has more pages")
	require.Equal(t, paymentIDs(ownOrdered(own)), paymentIDs(own), "the list's own order is newest first")
	e.press("g", "j", "j", "j", "j", "j")
	sel := p.list.table.SelectedID()

	// s, the letter of Amount: largest first, every row of the period
	// (the sort read the rest of it).
	e.sortBy("Amount")
	key, desc := p.list.table.SortKey()
	assert.Equal(t, "amount", key)
	assert.True(t, desc, "an amount sorts largest first")
	require.True(t, p.list.done, "the sort read the whole period")
	all := p.list.table.Rows()
	assert.Equal(t, paymentIDs(sortedByAmount(ownOrdered(all), true)), paymentIDs(all),
		"the whole order, ties in the list's own order")
	assert.Equal(t, sel, p.list.table.SelectedID(), "the selection stays on its row")
	line := selectedLine(e.view(120, 40))
	assert.True(t, line >= 1 && line < 39, "on screen: %d", line)
	view := ansi.Strip(e.view(120, 40))
	assert.Contains(t, lineWith(view, "Created"), "Amount ▼", "the header shows the column and the direction")
	assert.Regexp(t, "^"+sortedMark+`sorted by Amount ▼ largest first in each currency \(s column · S reverse\)$`, trimRight(e.bottomLine(120, 40)))

	// S reverses.
	e.press("S")
	key, desc = p.list.table.SortKey()
	assert.Equal(t, "amount", key)
	assert.False(t, desc)
	assert.Equal(t, paymentIDs(sortedByAmount(ownOrdered(all), false)), paymentIDs(p.list.table.Rows()))
	assert.Contains(t, lineWith(ansi.Strip(e.view(120, 40)), "Created"), "Amount ▲")
	assert.Equal(t, sel, p.list.table.SelectedID())

	// Choosing the column sorted by again keeps its direction.
	e.sortBy("Amount")
	_, desc = p.list.table.SortKey()
	assert.False(t, desc, "the current column keeps its direction")

	e.press("S") // largest first again

	// A refresh with a new payment: it takes its place (the largest: the
	// top), the order and the selection hold.
	e.press("g", "j", "j", "j")
	sel = p.list.table.SelectedID()
	line = selectedLine(e.view(120, 40))
	np := e.newPayment(false, "987654.00")
	e.send(ui.RefreshMsg{Manual: true})
	require.Empty(t, e.errors())
	all = p.list.table.Rows()
	assert.Equal(t, np.ID, all[0].ID, "the largest payment is first")
	assert.Equal(t, paymentIDs(sortedByAmount(ownOrdered(all), true)), paymentIDs(all), "the sort holds across a refresh")
	assert.Equal(t, sel, p.list.table.SelectedID(), "the selection stays on its row")
	assert.Equal(t, line, selectedLine(e.view(120, 40)), "and on its screen line")
}

func TestSortChooserKeysInTheList(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{fixed: goldenNow})
	e.size(120, 40)
	e.init()
	p := e.tab.(*Payments)
	own := paymentIDs(p.list.table.Rows())

	// Sorting from the first row shows the sorted list's top.
	e.sortBy("Amount")
	assert.Equal(t, 0, p.list.table.Cursor())
	assert.Equal(t, 1, selectedLine(e.view(120, 40)))
	e.sortBy("Created")

	// The list's own order is Created, newest first: marked as current.
	d := e.openSort()
	screen := d.screen()
	assert.Contains(t, screen, "now: the list's own order (Created, newest first)")
	assert.Contains(t, screen, "> [c] Created ▼ newest first  (current)")
	assert.Contains(t, screen, "[a] Amount ▼ largest first")
	assert.Contains(t, screen, "[s] Status ▲ A → Z")
	assert.NotRegexp(t, `\[[jkgG]\]`, screen, "j, k, g and G move: never a column's letter")

	// esc cancels: nothing changes.
	d.press("esc")
	require.True(t, d.closed)
	key, _ := p.list.table.SortKey()
	assert.Empty(t, key)
	assertOwnOrder(t, own, p.list.table.Rows())
	assert.Empty(t, take[ui.ToastMsg](e))

	// The arrows and enter: one down from Created is Status.
	d = e.openSort()
	d.press("down", "enter")
	require.True(t, d.closed)
	key, desc := p.list.table.SortKey()
	assert.Equal(t, "status", key)
	assert.False(t, desc, "text sorts A → Z")
	rows := p.list.table.Rows()
	assert.True(t, slices.IsSortedFunc(rows, func(a, b backend.Payment) int { return cmp.Compare(a.Status, b.Status) }))
	assert.Equal(t, "sorted by Status ▲ A → Z (s column · S reverse)", trimRight(e.bottomLine(120, 40)))

	// Created ▼ is the list's own order: choosing it drops the sort.
	e.sortBy("Created")
	key, _ = p.list.table.SortKey()
	assert.Empty(t, key)
	assertOwnOrder(t, own, p.list.table.Rows())
	assert.NotContains(t, e.bottomLine(120, 40), "sorted by", "no bottom line in the own order")

	// The filter and the sort share the bottom line.
	e.sortBy("Amount")
	e.press("/")
	e.typeText("settled")
	e.press("enter")
	assert.Equal(t, `sorted by Amount ▼ · search: settled  (/ edit · esc clears)`, trimRight(e.bottomLine(120, 40)))
	e.view(80, 24)
	e.view(40, 10)
}

func TestSortReverseOfTheOwnOrder(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{fixed: goldenNow})
	e.size(100, 30)
	e.init()
	p := e.tab.(*Payments)
	own := p.list.table.Rows()

	// S on the own order (newest first): oldest first, and it says so.
	e.press("S")
	key, desc := p.list.table.SortKey()
	assert.Equal(t, "created", key)
	assert.False(t, desc)
	// The rows read for the sort went above the first row, which kept
	// its line: the bottom line says so.
	assert.Regexp(t, `^↑ [\d,]+ sorted above · g  sorted by Created ▲ oldest first \(s column · S reverse\)$`, trimRight(e.bottomLine(100, 30)))
	rows := p.list.table.Rows()
	assert.True(t, slices.IsSortedFunc(rows, func(a, b backend.Payment) int { return paymentTime(a).Compare(paymentTime(b)) }))

	// S again: back to the own order.
	e.press("S")
	key, _ = p.list.table.SortKey()
	assert.Empty(t, key)
	assertOwnOrder(t, paymentIDs(own), p.list.table.Rows())
	assert.NotContains(t, e.bottomLine(100, 30), "sorted by")
}

// With the pane open the list behind it sorts; the pane stays, the view
// keeps its size (the bottom line comes with the sort).
func TestSortWithThePaneOpen(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{fixed: goldenNow})
	e.size(160, 40)
	e.init()
	p := e.tab.(*Payments)
	e.press("j", "enter")
	require.True(t, p.detail.isOpen())
	e.sortBy("Amount")
	assert.True(t, p.detail.isOpen())
	key, _ := p.list.table.SortKey()
	assert.Equal(t, "amount", key)
	e.view(160, 40)
	e.view(80, 24) // the pane instead of the list
	e.press("esc")
	e.view(80, 24)
}

func TestSortOnTheOtherTabs(t *testing.T) {
	t.Parallel()
	// Refunds.
	e := newEnv(t, envOpts{fixed: goldenNow, tab: NewRefunds})
	e.size(120, 40)
	e.init()
	r := e.tab.(*Refunds)
	require.Positive(t, r.list.table.Len())
	e.sortBy("Amount")
	assert.True(t, slices.IsSortedFunc(r.list.table.Rows(), func(a, b backend.Refund) int {
		return cmp.Compare(b.Amount.Value, a.Amount.Value)
	}))

	// Stickers: their own order is by id, newest first; S: oldest first.
	e = newEnv(t, envOpts{fixed: goldenNow, tab: NewStickers})
	e.size(120, 40)
	e.init()
	s := e.tab.(*Stickers)
	require.Positive(t, s.list.table.Len())
	e.press("S")
	key, desc := s.list.table.SortKey()
	assert.Equal(t, "id", key)
	assert.False(t, desc)
	assert.True(t, slices.IsSortedFunc(s.list.table.Rows(), func(a, b backend.Sticker) int { return cmpIDs(a.ID, b.ID) }))

	// Registers: the transfers sort; in a register's pane s does nothing.
	e = newRegistersEnv(t, envOpts{})
	e.size(120, 40)
	e.init()
	reg := e.tab.(*Registers)
	e.sortBy("Amount")
	assert.True(t, slices.IsSortedFunc(e.transfersShown(), func(a, b backend.Transfer) int {
		if c := cmp.Compare(a.Amount.Currency, b.Amount.Currency); c != 0 {
			return c // the currencies apart, A → Z
		}
		return cmp.Compare(b.Amount.Value, a.Amount.Value)
	}))
	assert.Contains(t, ansi.Strip(e.view(120, 40)), "sorted by Amount ▼ largest first in each currency")
	e.press("enter")
	require.True(t, reg.register.isOpen())
	ok, _ := reg.Available(keys.ActSort)
	assert.False(t, ok, "a register's operations keep the service's order")
	e.press("s")
	assert.Empty(t, take[ui.OpenModalMsg](e))
	e.press("esc")
	e.press("d")
	e.press("S")
	key, desc = reg.documents.table.SortKey()
	assert.Equal(t, "date", key)
	assert.False(t, desc, "oldest first")
	assert.Contains(t, ansi.Strip(e.view(120, 40)), "sorted by Created ▲ oldest first")
}

// The Ranks withRanks gives the columns order the rows exactly as their
// Less does (the datatable sorts by them), within a Group (a currency):
// checked on the sandbox's rows, every pair of a sample, for every list.
func TestRanksAgreeWithLess(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{withV1: true, fixed: goldenNow})
	ctx := context.Background()
	var payments []backend.Payment
	pager := e.b.ListPayments(periodQuery(e.scope))
	for len(payments) < 400 {
		page, err := pager.Next(ctx)
		require.NoError(t, err)
		payments = append(payments, page.Items...)
		if page.Done {
			break
		}
	}
	payments = append(payments, backend.Payment{ID: "7", Updated: goldenNow}, backend.Payment{ID: "12"})
	checkRanks(t, paymentColumns(nil), payments)

	var refunds []backend.Refund
	rp := e.b.ListRefunds(periodQuery(e.scope))
	for page, err := rp.Next(ctx); err == nil; page, err = rp.Next(ctx) {
		refunds = append(refunds, page.Items...)
		if page.Done || len(refunds) > 300 {
			break
		}
	}
	require.NotEmpty(t, refunds)
	checkRanks(t, refundColumns(), refunds)

	page, err := e.b.ListStickers(backend.StickerQuery{MerchantID: e.scope.MerchantID}).Next(ctx)
	require.NoError(t, err)
	require.NotEmpty(t, page.Items)
	checkRanks(t, stickerColumns(nil), page.Items)

	days := backend.DayQuery{From: goldenNow.AddDate(0, 0, -30), To: goldenNow}
	transfers, err := e.b.ListTransfers(ctx, days)
	require.NoError(t, err)
	require.NotEmpty(t, transfers)
	checkRanks(t, transferColumns(), transfers)
	docs, err := e.b.ListDocuments(ctx, days)
	require.NoError(t, err)
	checkRanks(t, documentColumns(), docs)

	seen := goldenNow.Add(-time.Hour)
	tokens := []tokenView{
		{Token: known.Token{ID: "t1", Expires: goldenNow.AddDate(2, 0, 0), LastSeen: seen, Payments: []string{"1", "2"}}},
		{Token: known.Token{ID: "t2", LastSeen: seen.Add(time.Minute)}},
		{Token: known.Token{ID: "t3", Expires: goldenNow.AddDate(1, 0, 0), LastSeen: seen, Payments: []string{"3"}}},
	}
	checkRanks(t, tokenColumns(func(tokenView) string { return "" }), tokens)
}

// checkRanks checks every ranked column against its Less on rows.
func checkRanks[T any](t *testing.T, cols []datatable.Column[T], rows []T) {
	t.Helper()
	ranked := 0
	for _, c := range withRanks(cols) {
		if c.Rank == nil {
			continue
		}
		ranked++
		for i := range rows {
			ri, ok := c.Rank(rows[i])
			if !ok {
				continue
			}
			for j := range rows {
				rj, ok := c.Rank(rows[j])
				if !ok || (c.Group != nil && c.Group(rows[i]) != c.Group(rows[j])) {
					continue // a Rank orders the rows of one group
				}
				require.Equal(t, c.Less(rows[i], rows[j]), cmp.Compare(ri, rj),
					"column %s: rows %d and %d", c.Key, i, j)
			}
		}
	}
	require.Positive(t, ranked, "some column is ranked")
}

// Sorting by a column the Rank cannot read (an id that is not a number)
// falls back to Less.
func TestSortFallsBackToLess(t *testing.T) {
	t.Parallel()
	cfg := datatable.Config[backend.Payment]{ID: func(p backend.Payment) string { return p.ID }, Columns: paymentColumns(nil)}
	l := newPagedList(cfg, keys.Default(), ui.NewTheme(true, true), paymentTime)
	l.setSize(80, 20, 80)
	l.table.Append([]backend.Payment{{ID: "12"}, {ID: "x-9"}, {ID: "3"}, {ID: "007"}})
	l.setSort("id", false)
	assert.Equal(t, []string{"3", "12", "007", "x-9"}, paymentIDs(l.table.Rows()))
	l.table.Append([]backend.Payment{{ID: "100", Amount: money.Amount{Value: 5}}})
	assert.Equal(t, []string{"3", "12", "007", "100", "x-9"}, paymentIDs(l.table.Rows()))
}

// --- golden screens -------------------------------------------------------------

func TestGoldenSortedPayments(t *testing.T) {
	t.Parallel()
	for _, sz := range [][2]int{{80, 24}, {200, 50}} {
		e := newEnv(t, envOpts{fixed: goldenNow})
		e.size(sz[0], sz[1])
		e.init()
		e.sortBy("Amount")
		e.press("j", "j")
		goldenCheck(t, "sorted_"+strconv.Itoa(sz[0])+"x"+strconv.Itoa(sz[1]), ansi.Strip(e.view(sz[0], sz[1])))
	}
}

func trimRight(s string) string { return strings.TrimRight(s, " ") }

// A sorted, searched list: the period read whole for the search, its
// matches in the sort's order, the search and the sort on the bottom line.
func TestGoldenSortedSearchedPayments(t *testing.T) {
	t.Parallel()
	for _, sz := range [][2]int{{80, 24}, {200, 50}} {
		e := newEnv(t, envOpts{fixed: goldenNow})
		e.size(sz[0], sz[1])
		e.init()
		e.sortBy("Amount")
		e.press("/")
		e.typeText("status:settled amount:200..700 latte")
		e.press("enter")
		require.True(t, e.tab.(*Payments).list.done)
		e.press("j")
		goldenCheck(t, "sorted_searched_"+strconv.Itoa(sz[0])+"x"+strconv.Itoa(sz[1]), ansi.Strip(e.view(sz[0], sz[1])))
	}
}
