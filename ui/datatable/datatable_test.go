package datatable

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func press(m Model[payment], keys ...tea.KeyPressMsg) Model[payment] {
	for _, k := range keys {
		m, _ = m.Update(k)
	}
	return m
}

var (
	kDown = tea.KeyPressMsg{Code: tea.KeyDown}
	kUp   = tea.KeyPressMsg{Code: tea.KeyUp}
	kJ    = tea.KeyPressMsg{Code: 'j', Text: "j"}
	kK    = tea.KeyPressMsg{Code: 'k', Text: "k"}
	kPgDn = tea.KeyPressMsg{Code: tea.KeyPgDown}
	kPgUp = tea.KeyPressMsg{Code: tea.KeyPgUp}
	kG    = tea.KeyPressMsg{Code: 'G', Text: "G"}
	kg    = tea.KeyPressMsg{Code: 'g', Text: "g"}
	kHome = tea.KeyPressMsg{Code: tea.KeyHome}
	kEnd  = tea.KeyPressMsg{Code: tea.KeyEnd}
)

func selectedID(t *testing.T, m Model[payment]) string {
	t.Helper()
	p, ok := m.Selected()
	require.True(t, ok, "no row selected")
	return p.ID
}

// screenLine is the line of the View (0 = header) showing the row with id.
func screenLine(m Model[payment], id string) int {
	for i, l := range splitLines(m.View()) {
		if strings.Contains(l, id) {
			return i
		}
	}
	return -1
}

// checkFrame asserts the View is exactly Height lines of exactly Width cells.
func checkFrame(t *testing.T, m Model[payment]) {
	t.Helper()
	v := m.View()
	if m.Width() == 0 || m.Height() == 0 {
		assert.Empty(t, v)
		return
	}
	lines := splitLines(v)
	require.Len(t, lines, m.Height(), "lines of a %dx%d view", m.Width(), m.Height())
	for i, l := range lines {
		assert.Equal(t, m.Width(), ansi.StringWidth(l), "width of line %d %q", i, l)
	}
}

func TestNavigationKeys(t *testing.T) {
	rows := makePayments(0, 100)
	m := newPayments(80, 11, rows) // 10 body lines
	assert.Equal(t, rows[0].ID, selectedID(t, m))

	m = press(m, kDown, kJ, kJ)
	assert.Equal(t, 3, m.Cursor())
	assert.Equal(t, rows[3].ID, selectedID(t, m))
	m = press(m, kK, kUp)
	assert.Equal(t, 1, m.Cursor())
	m = press(m, kUp, kUp, kK)
	assert.Equal(t, 0, m.Cursor(), "up stops at the first row")

	m = press(m, kPgDn)
	assert.Equal(t, 10, m.Cursor())
	assert.Equal(t, 10, m.Offset(), "a page down scrolls a page")
	m = press(m, kDown)
	assert.Equal(t, 11, m.Cursor())
	m = press(m, kPgUp)
	assert.Equal(t, 1, m.Cursor())
	assert.Equal(t, 0, m.Offset())

	m = press(m, kG)
	assert.Equal(t, 99, m.Cursor())
	assert.Equal(t, 10, screenLine(m, rows[99].ID), "the last row is on the last line")
	m = press(m, kDown, kJ, kPgDn)
	assert.Equal(t, 99, m.Cursor(), "down stops at the last row")
	m = press(m, kg)
	assert.Equal(t, 0, m.Cursor())
	assert.Equal(t, 0, m.Offset())
	m = press(m, kEnd)
	assert.Equal(t, 99, m.Cursor())
	m = press(m, kHome)
	assert.Equal(t, 0, m.Cursor())

	// Scrolling follows the cursor one line at a time.
	for range 12 {
		m = press(m, kDown)
	}
	assert.Equal(t, 12, m.Cursor())
	assert.Equal(t, 3, m.Offset())
	assert.Equal(t, 10, screenLine(m, rows[12].ID))
	assert.True(t, strings.HasPrefix(splitLines(m.View())[10], ">"))

	// Releases and other messages do nothing.
	m, cmd := m.Update(tea.KeyReleaseMsg{Code: tea.KeyDown})
	assert.Nil(t, cmd)
	m, _ = m.Update(tea.WindowSizeMsg{Width: 10, Height: 3})
	assert.Equal(t, 12, m.Cursor())
	assert.Equal(t, 80, m.Width())

	// The keymap is the caller's to change.
	m.KeyMap.Down.SetKeys("ctrl+n")
	m = press(m, kJ)
	assert.Equal(t, 12, m.Cursor(), "j is no longer bound")
	m = press(m, tea.KeyPressMsg{Code: 'n', Mod: tea.ModCtrl})
	assert.Equal(t, 13, m.Cursor())
	m.KeyMap.Up.SetEnabled(false)
	m = press(m, kUp)
	assert.Equal(t, 13, m.Cursor(), "a disabled binding does nothing")
}

func TestNearEnd(t *testing.T) {
	rows := makePayments(0, 100)
	m := newPayments(80, 11, rows) // one screen = 10 rows
	assert.False(t, m.NearEnd())
	m.SetCursor(89)
	assert.False(t, m.NearEnd(), "ten rows below the cursor: a full screen left")
	m = press(m, kDown)
	assert.True(t, m.NearEnd(), "nine rows below the cursor")
	m = press(m, kG)
	assert.True(t, m.NearEnd())

	// The caller loads the next page: no longer near the end.
	m.Append(makePayments(100, 100))
	assert.False(t, m.NearEnd())
	assert.Equal(t, rows[99].ID, selectedID(t, m))

	// With a filter, the end is the end of the rows shown.
	m.SetFilter("authorized") // 1 row in 8
	assert.Equal(t, 25, m.Filtered())
	m.SetCursor(14)
	assert.False(t, m.NearEnd())
	m.SetCursor(15)
	assert.True(t, m.NearEnd())

	empty := newPayments(80, 11, nil)
	assert.True(t, empty.NearEnd(), "an empty list wants its first page")
}

func TestAppendKeepsSelection(t *testing.T) {
	rows := makePayments(0, 50)
	m := newPayments(80, 11, rows)
	m.SetCursor(45)
	m.SetLoading(true)
	id, line := selectedID(t, m), screenLine(m, rows[45].ID)
	require.Positive(t, line)

	m.Append(makePayments(50, 100))
	m.SetLoading(false)
	assert.Equal(t, 150, m.Len())
	assert.Equal(t, id, selectedID(t, m))
	assert.Equal(t, line, screenLine(m, id))

	// Sorted: new rows go to their sorted places, many of them above the
	// selected one, which stays where it is on screen.
	m.SortBy("amount", false)
	m.SetCursor(m.Filtered() / 2)
	id = selectedID(t, m)
	line = screenLine(m, id)
	m.Append(makePayments(150, 500))
	assert.Equal(t, id, selectedID(t, m))
	assert.Equal(t, line, screenLine(m, id))
	got := m.Rows()
	assert.True(t, slices.IsSortedFunc(got, func(a, b payment) int { return int(a.AmountMinor - b.AmountMinor) }))

	// A row already loaded is replaced, not repeated.
	again := makePayment(3)
	again.Status = "Settled"
	m.Append([]payment{again})
	assert.Equal(t, 650, m.Len())
}

func TestUpsertAboveKeepsScreenLine(t *testing.T) {
	rows := makePayments(100, 100) // ids 8999999900 down to 8999999801
	m := newPayments(80, 11, rows)
	m.SetCursor(30) // scrolls
	m = press(m, kUp, kUp)
	id := selectedID(t, m)
	line := screenLine(m, id)
	offset := m.Offset()
	require.Positive(t, offset)

	// A refresh brings five newer payments: they go on top.
	fresh := makePayments(95, 5)
	m.Upsert(fresh, t0)
	assert.Equal(t, 105, m.Len())
	assert.Equal(t, id, selectedID(t, m))
	assert.Equal(t, line, screenLine(m, id), "the selected row stays on its screen line")
	assert.Equal(t, offset+5, m.Offset())
	assert.Equal(t, fresh[0].ID, m.Rows()[0].ID, "new rows on top, in their own order")
	assert.Equal(t, fresh[4].ID, m.Rows()[4].ID)

	// At the top of the list too: the view scrolls down by what came in.
	m = press(m, kg, kDown, kDown)
	id = selectedID(t, m)
	m.Upsert(makePayments(90, 5), t0)
	assert.Equal(t, id, selectedID(t, m))
	assert.Equal(t, 3, screenLine(m, id))
	assert.Equal(t, 5, m.Offset())

	// Sorted: new rows go to their sorted places.
	m.SortBy("id", false)
	m.SetCursor(50)
	id, line = selectedID(t, m), screenLine(m, selectedID(t, m))
	m.Upsert(append(makePayments(0, 3), makePayments(300, 3)...), t0) // ids above and below all others
	assert.Equal(t, id, selectedID(t, m))
	assert.Equal(t, line, screenLine(m, id))
	got := m.Rows()
	assert.True(t, slices.IsSortedFunc(got, func(a, b payment) int { return strings.Compare(a.ID, b.ID) }))
	assert.Equal(t, makePayment(302).ID, got[0].ID)
}

func TestUpsertReplacesAndFlashes(t *testing.T) {
	rows := makePayments(0, 20)
	m := New(Config[payment]{ID: paymentID, Columns: paymentColumns(), FlashFor: 2 * time.Second})
	m.SetSize(80, 11)
	m.SetRows(rows)
	m = press(m, kDown)

	changed := rows[4]
	changed.Status = "Rejected"
	changed.Description = "Declined by issuer"
	same := rows[6] // a refresh often brings rows that did not change
	same.Message = "not shown"
	m.Upsert([]payment{changed, same}, t0)

	assert.Equal(t, 20, m.Len(), "replaced in place, nothing added")
	assert.Equal(t, "Rejected", m.Rows()[4].Status)
	assert.Equal(t, "not shown", m.Rows()[6].Message, "an unchanged row is still replaced")
	assert.Equal(t, rows[1].ID, selectedID(t, m))
	line := splitLines(m.View())[5]
	assert.True(t, strings.HasPrefix(line, " *"+changed.ID), "flash marker: %q", line)
	assert.Contains(t, line, "Rejected")
	assert.Contains(t, line, "Declined by…")
	assert.True(t, m.Flashing(changed.ID))
	assert.False(t, m.Flashing(same.ID), "no visible change, no flash")
	next, ok := m.NextFlashExpiry()
	assert.True(t, ok)
	assert.Equal(t, t0.Add(2*time.Second), next)

	m.Tick(t0.Add(2*time.Second - time.Nanosecond))
	assert.True(t, strings.HasPrefix(splitLines(m.View())[5], " *"), "still flashing just before expiry")
	m.Tick(t0.Add(2 * time.Second))
	assert.True(t, strings.HasPrefix(splitLines(m.View())[5], "  "+changed.ID), "flash gone at expiry")
	assert.False(t, m.Flashing(changed.ID))
	_, ok = m.NextFlashExpiry()
	assert.False(t, ok)

	// The selected row flashes too, with both markers.
	sel := rows[1]
	sel.Status = "Settled"
	sel.Amount = "0.50"
	m.Upsert([]payment{sel}, t0.Add(time.Minute))
	assert.True(t, strings.HasPrefix(splitLines(m.View())[2], ">*"+sel.ID))
	// A later Upsert lets earlier flashes expire.
	m.Upsert(nil, t0.Add(time.Hour))
	assert.True(t, strings.HasPrefix(splitLines(m.View())[2], "> "+sel.ID))
}

func TestSortKeepsSelection(t *testing.T) {
	rows := makePayments(0, 200)
	m := newPayments(120, 21, rows)
	m.SetCursor(57)
	m = press(m, kUp)
	id := selectedID(t, m)
	line := screenLine(m, id)

	m.SortBy("amount", true)
	key, desc := m.SortKey()
	assert.Equal(t, "amount", key)
	assert.True(t, desc)
	assert.Equal(t, id, selectedID(t, m))
	assert.Equal(t, line, screenLine(m, id))
	assert.Contains(t, splitLines(m.View())[0], "Amount ▼")
	got := m.Rows()
	assert.True(t, slices.IsSortedFunc(got, func(a, b payment) int { return int(b.AmountMinor - a.AmountMinor) }))

	// Stable: rows with the same status keep their natural order.
	m.SortBy("status", false)
	assert.Contains(t, splitLines(m.View())[0], "Status ▲")
	assert.Equal(t, id, selectedID(t, m))
	assert.Equal(t, line, screenLine(m, id))
	got = m.Rows()
	for i := 1; i < len(got); i++ {
		if got[i].Status == got[i-1].Status {
			assert.Greater(t, got[i-1].ID, got[i].ID, "natural order (ids descending) among equals")
		}
	}

	// Back to the natural order; unknown or unsortable columns are ignored.
	m.SortBy("", false)
	assert.Equal(t, rows, m.Rows())
	assert.NotContains(t, splitLines(m.View())[0], "▲")
	m.SortBy("description", false)
	m.SortBy("nope", true)
	key, _ = m.SortKey()
	assert.Empty(t, key)
	assert.Equal(t, id, selectedID(t, m))
	assert.Equal(t, line, screenLine(m, id))
}

func visibleIDs(m Model[payment]) []string {
	var out []string
	for _, it := range m.c.visible {
		out = append(out, m.c.items[it].ID)
	}
	return out
}

// scratchFilter is the filter's meaning, computed naively.
func scratchFilter(rows []payment, text string) []string {
	var out []string
	terms := strings.Fields(strings.ToLower(text))
	for _, p := range rows {
		var cells []string
		for _, c := range paymentColumns() {
			cells = append(cells, strings.ToLower(c.Text(p)))
		}
		ok := true
		for _, t := range terms {
			if !slices.ContainsFunc(cells, func(c string) bool { return strings.Contains(c, t) }) {
				ok = false
			}
		}
		if ok {
			out = append(out, p.ID)
		}
	}
	return out
}

func TestFilter(t *testing.T) {
	rows := makePayments(0, 1000)
	m := newPayments(120, 21, rows)
	// The selected row is filtered out: the nearest remaining row is
	// selected, on the same screen line. Matches of "settled m-1008" are
	// rows 1, 9, 17, …, 97, 105, …
	text := "settled m-1008"
	m.SetCursor(100)
	line := screenLine(m, rows[100].ID)
	m.SetFilter(text)
	assert.Equal(t, rows[97].ID, selectedID(t, m), "97 is nearer than 105")
	assert.Equal(t, line, screenLine(m, rows[97].ID))
	m.SetFilter("")
	m.SetCursor(101)
	m.SetFilter(text)
	assert.Equal(t, rows[105].ID, selectedID(t, m), "a tie goes to the following row")
	m.SetFilter("")

	// Typing one key at a time narrows incrementally; each step must equal
	// the same filter applied from scratch.
	for i := 1; i <= len(text); i++ {
		m.SetFilter(text[:i])
		fresh := newPayments(120, 21, rows)
		fresh.SetFilter(text[:i])
		want := scratchFilter(rows, text[:i])
		assert.Equal(t, want, visibleIDs(fresh), "from scratch %q", text[:i])
		assert.Equal(t, want, visibleIDs(m), "incremental %q", text[:i])
		assert.Equal(t, len(want), m.Filtered())
	}
	assert.Equal(t, text, m.FilterText())
	assert.Less(t, m.Filtered(), 1000)
	assert.Positive(t, m.Filtered())
	for _, l := range splitLines(m.View())[1:] {
		if strings.TrimSpace(l) != "" {
			assert.Contains(t, l, "Settled")
			assert.Contains(t, l, "M-100871")
		}
	}

	// Case and term order do not matter; a term must match within a cell.
	m.SetFilter("M-1008 SETTLED")
	assert.Equal(t, scratchFilter(rows, text), visibleIDs(m))
	m.SetFilter("settledm")
	assert.Zero(t, m.Filtered())
	assert.Contains(t, m.View(), DefaultNoMatchText)
	_, ok := m.Selected()
	assert.False(t, ok)

	// Clearing restores every row; the selection is kept.
	m.SetFilter("settled")
	m.SetCursor(10)
	id := selectedID(t, m)
	line = screenLine(m, id)
	m.SetFilter("")
	assert.Equal(t, 1000, m.Filtered())
	assert.Equal(t, id, selectedID(t, m))
	assert.Equal(t, line, screenLine(m, id))

	// Rows that arrive while a filter is on are filtered too.
	m.SetFilter("rejected")
	before := m.Filtered()
	m.Append(makePayments(1000, 80))
	assert.Equal(t, before+10, m.Filtered())
	m.Upsert(makePayments(2000, 16), t0)
	assert.Equal(t, before+12, m.Filtered())
	assert.Equal(t, scratchFilter(m.Rows(), "rejected"), visibleIDs(m))
	// A refreshed row that no longer matches leaves the view.
	gone := makePayment(6)
	gone.Status = "Settled"
	m.Upsert([]payment{gone}, t0)
	assert.Equal(t, before+11, m.Filtered())
	// Sorting under a filter keeps the filter.
	m.SortBy("amount", false)
	assert.Equal(t, scratchFilter(m.Rows(), "rejected"), visibleIDs(m))

	// Repeated ids within one batch, under a filter.
	dup := makePayment(5000)
	dup2 := dup
	dup2.Status = "Rejected"
	m.Append([]payment{dup, dup2})
	assert.Equal(t, scratchFilter(m.Rows(), "rejected"), visibleIDs(m))
	m.SetRows(append(makePayments(0, 16), dup, dup2))
	assert.Equal(t, 17, m.Len())
	assert.Equal(t, scratchFilter(m.Rows(), "rejected"), visibleIDs(m))
	assert.Equal(t, 3, m.Filtered())

	// A caller's FilterText replaces the cells.
	f := New(Config[payment]{ID: paymentID, Columns: paymentColumns(), FilterText: func(p payment) string { return p.Issuer + " " + p.Brand }})
	f.SetSize(80, 5)
	f.SetRows(rows)
	f.SetFilter("mir")
	assert.Equal(t, 250, f.Filtered())
	f.SetFilter("settled")
	assert.Zero(t, f.Filtered())
}

func TestSelectByIDAndSetRows(t *testing.T) {
	rows := makePayments(0, 300)
	m := newPayments(80, 11, rows)
	assert.True(t, m.SelectByID(rows[200].ID))
	assert.Equal(t, rows[200].ID, selectedID(t, m))
	assert.Equal(t, 6, screenLine(m, rows[200].ID), "a jump centres the row")
	assert.True(t, m.SelectByID(rows[203].ID))
	assert.Equal(t, 9, screenLine(m, rows[203].ID), "a row on screen keeps its line")
	assert.False(t, m.SelectByID("nope"))
	m.SetFilter("pending")
	assert.False(t, m.SelectByID(rows[201].ID), "filtered out")
	m.SetFilter("")
	require.True(t, m.SelectByID(rows[203].ID))

	// A full reload keeps the selected row and line.
	line := screenLine(m, rows[203].ID)
	m.SetRows(makePayments(0, 400))
	assert.Equal(t, rows[203].ID, selectedID(t, m))
	assert.Equal(t, line, screenLine(m, rows[203].ID))
	m.SetRows(nil)
	_, ok := m.Selected()
	assert.False(t, ok)
	assert.Contains(t, m.View(), DefaultEmptyText)
	checkFrame(t, m)
}

func TestSpecialRows(t *testing.T) {
	m := newPayments(80, 8, makePayments(0, 3))
	m.SetLoading(true)
	lines := splitLines(m.View())
	assert.Equal(t, "  "+DefaultLoadingText, strings.TrimRight(lines[4], " "))
	m.SetLoading(false)
	m.SetEnd(true)
	lines = splitLines(m.View())
	assert.Equal(t, "  "+DefaultEndText, strings.TrimRight(lines[4], " "))
	checkFrame(t, m)

	// At the bottom of a long list, G shows the loading row under the last row.
	m = newPayments(80, 8, makePayments(0, 100))
	m.SetLoading(true)
	m = press(m, kG)
	lines = splitLines(m.View())
	assert.True(t, strings.HasPrefix(lines[6], "> "+makePayment(99).ID))
	assert.Contains(t, lines[7], DefaultLoadingText)

	empty := newPayments(40, 3, nil)
	empty.SetLoading(true)
	assert.Contains(t, empty.View(), DefaultLoadingText)
}

func TestColumnFitting(t *testing.T) {
	want := map[int][]string{
		80: {
			"  ID         Created          Order      Status            Amount ▼ Description ",
			"  8999999997 2026-11-21 00:00 ORD-5003   Authorized      238.57 RUB Кофе с собой",
			"  8999999998 2026-11-21 00:00 ORD-5002   Settled         159.38 RUB Subscriptio…",
			">*8999999999 2026-11-21 00:00 ORD-5001   Settled          80.19 RUB Order payme…",
			"  9000000000 2026-11-21 00:00 ORD-5000   Settled           1.00 RUB Flat white …",
			"  Loading more…                                                                 ",
			"                                                                                ",
		},
		120: {
			"  ID         Created          Merchant   Order      Status            Amount ▼ Description                              ",
			"  8999999997 2026-11-21 00:00 M-412001   ORD-5003   Authorized      238.57 RUB Кофе с собой                             ",
			"  8999999998 2026-11-21 00:00 M-203300   ORD-5002   Settled         159.38 RUB Subscription renewal, monthly plan       ",
			">*8999999999 2026-11-21 00:00 M-100871   ORD-5001   Settled          80.19 RUB Order payment (partial capture)          ",
			"  9000000000 2026-11-21 00:00 M-100234   ORD-5000   Settled           1.00 RUB Flat white and croissant                 ",
			"  Loading more…                                                                                                         ",
			"                                                                                                                        ",
		},
		200: {
			"  ID         Created          Merchant   Order      Status            Amount ▼ Description                                                                                                              ",
			"  8999999997 2026-11-21 00:00 M-412001   ORD-5003   Authorized      238.57 RUB Кофе с собой                                                                                                             ",
			"  8999999998 2026-11-21 00:00 M-203300   ORD-5002   Settled         159.38 RUB Subscription renewal, monthly plan                                                                                       ",
			">*8999999999 2026-11-21 00:00 M-100871   ORD-5001   Settled          80.19 RUB Order payment (partial capture)                                                                                          ",
			"  9000000000 2026-11-21 00:00 M-100234   ORD-5000   Settled           1.00 RUB Flat white and croissant                                                                                                 ",
			"  Loading more…                                                                                                                                                                                         ",
			"                                                                                                                                                                                                        ",
		},
	}
	for width, lines := range want {
		t.Run(fmt.Sprint(width), func(t *testing.T) {
			m := goldenModel(width)
			assert.Equal(t, strings.Join(lines, "\n"), m.View())
			checkFrame(t, m)
		})
	}

	shown := func(width int) []string {
		m := newPayments(width, 5, makePayments(0, 3))
		return m.ShownColumns()
	}
	assert.Equal(t, []string{"id", "created", "order", "status", "amount", "description"}, shown(80))
	assert.Equal(t, []string{"id", "created", "status", "amount", "description"}, shown(75), "order (20) goes after merchant (10)")
	assert.Equal(t, []string{"id", "status", "amount", "description"}, shown(58))
	assert.Equal(t, []string{"id"}, shown(12))
	assert.Equal(t, []string{"id"}, shown(5), "the last column is cut, never dropped")
}

func TestCellTextIsNeutralised(t *testing.T) {
	evil := makePayment(0)
	evil.Description = "red \x1b[31mALERT\x1b[0m\ttab\nnew\u202eline \x1b]0;pwned\x07\x9b2J end"
	evil.Status = "\x1b[2J\x1b[HSettled"
	evil.OrderNo = "\x00\x07\x08ORD"
	m := New(Config[payment]{ID: paymentID, Columns: paymentColumns()})
	m.SetSize(200, 4)
	m.SetRows([]payment{evil})
	v := m.View()
	for _, r := range v {
		assert.False(t, r < 0x20 && r != '\n' || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == '\u202e', "control %U in the view", r)
	}
	assert.Contains(t, v, "red ALERT tab new")
	assert.Contains(t, v, "Settled")
	assert.NotContains(t, v, "pwned")
	checkFrame(t, m)

	// The filter searches the cleaned text.
	m.SetFilter("alert tab")
	assert.Equal(t, 1, m.Filtered())
	m.SetFilter("31m")
	assert.Zero(t, m.Filtered())

	// With styles, the only escape sequences are the styles' own SGR.
	m.SetStyles(DefaultStyles(true))
	m.SetFilter("")
	v = m.View()
	for _, seq := range strings.Split(v, "\x1b[")[1:] {
		end := strings.IndexFunc(seq, func(r rune) bool { return r >= 0x40 && r <= 0x7e })
		require.GreaterOrEqual(t, end, 0)
		assert.Equal(t, byte('m'), seq[end], "only SGR: %q", seq[:end+1])
	}
	assert.NotContains(t, v, "\x1b]")
}

func TestViewIsExactlyWidthByHeight(t *testing.T) {
	wide := makePayment(1)
	wide.Description = "支払い 注文 5561 😀😀 コーヒー" // wide runes and emoji
	wide.MerchantID = "Ünïcödé-мерчант"
	rows := append([]payment{wide}, makePayments(2, 60)...)
	for _, styles := range []Styles{{}, DefaultStyles(true), DefaultStyles(false)} {
		for _, size := range [][2]int{{80, 24}, {120, 40}, {200, 10}, {160, 40}, {37, 5}, {13, 3}, {3, 2}, {2, 4}, {1, 1}, {0, 5}, {80, 0}} {
			m := newPayments(size[0], size[1], rows)
			m.SetStyles(styles)
			checkFrame(t, m)
			m.SetEnd(true)
			m = press(m, kG)
			checkFrame(t, m)
			m.SetFilter("支払い")
			checkFrame(t, m)
			m.SetFilter("no such row")
			checkFrame(t, m)
			m.SetFilter("")
			m.SortBy("amount", true)
			m.Upsert([]payment{wide}, t0)
			checkFrame(t, m)
		}
	}
}

func TestSelectionVisibleWithoutColour(t *testing.T) {
	m := newPayments(100, 6, makePayments(0, 10))
	m.SetStyles(DefaultStyles(true))
	m = press(m, kDown)
	ch := makePayment(3)
	ch.Status = "Rejected"
	m.Upsert([]payment{ch}, t0)
	lines := splitLines(ansi.Strip(m.View())) // what a NO_COLOR terminal shows
	assert.True(t, strings.HasPrefix(lines[2], "> "+makePayment(1).ID))
	assert.True(t, strings.HasPrefix(lines[4], " *"+ch.ID))
	for _, i := range []int{1, 3, 5} {
		assert.True(t, strings.HasPrefix(lines[i], "  "))
	}
	assert.NotEqual(t, m.View(), ansi.Strip(m.View()), "the default styles do colour")
}

func TestRenderCacheStaysSmall(t *testing.T) {
	m := newPayments(160, 40, makePayments(0, 5000))
	for range 3000 {
		m = press(m, kDown)
		_ = m.View()
	}
	assert.LessOrEqual(t, len(m.c.render.rows), 4*39+64)
	assert.Equal(t, makePayment(3000).ID, selectedID(t, m))
	checkFrame(t, m)
}

// A cell may show state kept outside the row (an action under way on a
// payment): Redraw makes the next View draw the row again.
func TestRedrawDrawsARowAgain(t *testing.T) {
	rows := makePayments(0, 5)
	busy := map[string]bool{}
	cols := paymentColumns()
	for i := range cols {
		if cols[i].Key == "status" {
			cols[i].Text = func(p payment) string {
				if busy[p.ID] {
					return "→ refunding"
				}
				return p.Status
			}
		}
	}
	m := New(Config[payment]{ID: paymentID, Columns: cols})
	m.SetSize(100, 8)
	m.SetRows(rows)
	assert.NotContains(t, m.View(), "refunding")
	busy[rows[2].ID] = true
	assert.NotContains(t, m.View(), "refunding", "the row's drawing is cached")
	m.Redraw(rows[2].ID)
	assert.Contains(t, splitLines(m.View())[3], "→ refunding")
	m.Redraw("no such row")
}

// With a sort on, rows a page puts above the screen are counted
// (SortedAbove) while the selected row keeps its line; the top shows them.
func TestSortedAbove(t *testing.T) {
	m := newPayments(80, 11, makePayments(0, 100))
	m.SortBy("id", false) // later pages hold lower ids: they sort above
	m = press(m, kg)
	require.Equal(t, 0, m.Cursor())
	id := selectedID(t, m)
	m.Append(makePayments(100, 50))
	assert.Equal(t, id, selectedID(t, m))
	assert.Equal(t, 1, screenLine(m, id), "the selected row keeps its line")
	assert.Equal(t, 50, m.SortedAbove())
	assert.Equal(t, 0, m.NewAbove(), "not new: read for the sort")

	m = press(m, kDown, kDown)
	m.Append(makePayments(150, 5))
	assert.Equal(t, 55, m.SortedAbove())
	m = press(m, kg)
	assert.Equal(t, 0, m.SortedAbove(), "the top shows them")
	assert.Equal(t, makePayment(154).ID, selectedID(t, m))

	// A new sort starts the count again.
	m.SetCursor(40)
	m.SortBy("id", true)
	assert.Equal(t, 0, m.SortedAbove())
}
