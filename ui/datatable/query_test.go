package datatable

import (
	"bytes"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// statusIs is a field condition as the views build one.
func statusIs(s string) (string, func(*payment) bool) {
	return "status:" + strings.ToLower(s), func(p *payment) bool { return strings.EqualFold(p.Status, s) }
}

func brandIs(s string) (string, func(*payment) bool) {
	return "brand:" + strings.ToLower(s), func(p *payment) bool { return p.Brand == s }
}

// query builds a Query of free text and conditions made by statusIs or
// brandIs.
func query(text string, conds ...func() (string, func(*payment) bool)) Query[payment] {
	q := Query[payment]{Text: text, Words: strings.Fields(strings.ToLower(text))}
	var keeps []func(*payment) bool
	for _, c := range conds {
		cond, keep := c()
		q.Conds = append(q.Conds, cond)
		keeps = append(keeps, keep)
	}
	if len(keeps) > 0 {
		q.Keep = func(p *payment) bool {
			for _, k := range keeps {
				if !k(p) {
					return false
				}
			}
			return true
		}
	}
	return q
}

func status(s string) func() (string, func(*payment) bool) {
	return func() (string, func(*payment) bool) { return statusIs(s) }
}

func brand(s string) func() (string, func(*payment) bool) {
	return func() (string, func(*payment) bool) { return brandIs(s) }
}

// scratchQuery is the query's meaning computed naively over rows, in
// their order.
func scratchQuery(rows []payment, q Query[payment]) []string {
	var out []string
	for _, p := range rows {
		ok := q.Keep == nil || q.Keep(&p)
		for _, w := range q.Words {
			ok = ok && slices.ContainsFunc(paymentColumns(), func(c Column[payment]) bool {
				return strings.Contains(strings.ToLower(c.Text(p)), w)
			})
		}
		if ok {
			out = append(out, p.ID)
		}
	}
	return out
}

func TestSetQuery(t *testing.T) {
	rows := makePayments(0, 1000)
	m := newPayments(120, 21, rows)
	check := func(q Query[payment], msg string) {
		t.Helper()
		m.SetQuery(q)
		want := scratchQuery(rows, q)
		assert.Equal(t, want, visibleIDs(m), msg)
		assert.Equal(t, len(want), m.Filtered(), msg)
		assert.Equal(t, q.Text, m.FilterText(), msg)
		fresh := newPayments(120, 21, rows)
		fresh.SetQuery(q)
		assert.Equal(t, want, visibleIDs(fresh), "from scratch: "+msg)
	}

	check(query("m-1008"), "words only")
	check(query("sant89"), "a word across two rows' texts")
	check(query("", status("Settled")), "conditions only")
	check(query("rub sant89"), "one word across two rows' texts")
	check(query("t\n89"), "a word across two cells")
	check(query("", status("Authorized")), "conditions only")
	assert.Equal(t, 125, m.Filtered())
	got := m.Query()
	assert.Equal(t, []string{"status:authorized"}, got.Conds)
	assert.Empty(t, got.Words)
	assert.NotNil(t, got.Keep)
	// Narrowing: a word added to the condition, then a longer word.
	check(query("m-1", status("Authorized")), "both")
	check(query("m-4120", status("Authorized")), "both, narrowed")
	assert.Equal(t, 125, m.Filtered())
	// Widening: the condition dropped, then the word shortened; rows the
	// narrower query hid come back.
	check(query("m-4120"), "condition dropped")
	assert.Equal(t, 250, m.Filtered())
	check(query("m-1"), "word shortened")
	check(query("m-1", status("Settled"), brand("VISA")), "two conditions")
	check(query("m-1", brand("VISA")), "one of two conditions dropped")
	check(query("m-1", brand("VISA"), status("Rejected")), "another condition")

	// A condition nothing matches shows the no-match row.
	check(query("", status("Refunded")), "no row")
	assert.Contains(t, m.View(), DefaultNoMatchText)
	_, ok := m.Selected()
	assert.False(t, ok)

	// SetFilter is a query of words only; "" shows every row.
	m.SetFilter("Settled")
	assert.Equal(t, Query[payment]{Text: "Settled", Words: []string{"settled"}}.Words, m.Query().Words)
	assert.Nil(t, m.Query().Conds)
	assert.Equal(t, scratchFilter(rows, "settled"), visibleIDs(m))
	m.SetQuery(Query[payment]{})
	assert.Equal(t, 1000, m.Filtered())
	assert.Equal(t, "", m.FilterText())
}

func TestNarrows(t *testing.T) {
	_, keep := statusIs("Settled")
	for _, c := range []struct {
		old, q Query[payment]
		want   bool
	}{
		{Query[payment]{Words: []string{"r"}}, Query[payment]{Words: []string{"ru"}}, true},
		{Query[payment]{Words: []string{"ru"}}, Query[payment]{Words: []string{"r"}}, false},
		{Query[payment]{Words: []string{"r"}}, Query[payment]{Words: []string{"r"}, Conds: []string{"a"}, Keep: keep}, true},
		{Query[payment]{Conds: []string{"a"}, Keep: keep}, Query[payment]{Words: []string{"r"}}, false},
		{Query[payment]{Conds: []string{"a"}, Keep: keep}, Query[payment]{Conds: []string{"b", "a"}, Keep: keep}, true},
		{Query[payment]{Conds: []string{"a", "b"}, Keep: keep}, Query[payment]{Conds: []string{"b"}, Keep: keep}, false},
		// A Keep without its Conds (against the contract) never narrows.
		{Query[payment]{Keep: keep}, Query[payment]{Words: []string{"r"}}, false},
	} {
		assert.Equal(t, c.want, narrows(c.old, c.q), "%+v → %+v", c.old, c.q)
	}
}

func TestQueryWithArrivingRows(t *testing.T) {
	rows := makePayments(0, 400)
	m := newPayments(120, 21, rows)
	q := query("rub", brand("VISA"))
	m.SetQuery(q)
	m.SetCursor(20)
	sel := selectedID(t, m)
	m.Append(makePayments(400, 100))
	assert.Equal(t, scratchQuery(m.Rows(), q), visibleIDs(m), "a page")
	m.Upsert(makePayments(1000, 40), t0)
	assert.Equal(t, scratchQuery(m.Rows(), q), visibleIDs(m), "new rows of a refresh")
	assert.Equal(t, sel, selectedID(t, m))

	// Brand is in no cell: the row's text stays the same, only Keep's answer
	// changes. A row that stops matching is hidden, one that starts matching
	// is shown in its place.
	visa := rows[4]
	require.Equal(t, "VISA", visa.Brand)
	visa.Brand = "MIR"
	mir := rows[6]
	require.Equal(t, "MIR", mir.Brand)
	mir.Brand = "VISA"
	m.Upsert([]payment{visa, mir}, t0)
	want := scratchQuery(m.Rows(), q)
	assert.Equal(t, want, visibleIDs(m))
	assert.NotContains(t, want, visa.ID)
	assert.Contains(t, want, mir.ID)
	assert.Equal(t, sel, selectedID(t, m))
	m.Append([]payment{visa}) // a known id in a page replaces the row
	assert.Equal(t, want, visibleIDs(m))

	// A full reload under the query.
	m.SetRows(makePayments(200, 300))
	assert.Equal(t, scratchQuery(m.Rows(), q), visibleIDs(m))
}

func TestQueryAndSort(t *testing.T) {
	rows := makePayments(0, 600)
	m := newPayments(120, 21, rows)
	m.SortBy("amount", true)
	q := query("5", status("Pending"))
	m.SetQuery(q)
	assert.Equal(t, scratchQuery(m.Rows(), q), visibleIDs(m), "sorted, then queried")
	m.SortBy("created", false)
	assert.Equal(t, scratchQuery(m.Rows(), q), visibleIDs(m), "queried, then sorted")
	q = query("55", status("Pending"))
	m.SetQuery(q)
	assert.Equal(t, scratchQuery(m.Rows(), q), visibleIDs(m), "narrowed under a sort")
	m.Upsert(makePayments(2000, 50), t0)
	assert.Equal(t, scratchQuery(m.Rows(), q), visibleIDs(m), "refreshed under a sort")
	m.SortBy("", false)
	assert.Equal(t, scratchQuery(m.Rows(), q), visibleIDs(m), "natural order")
}

// TestParallelMatch: splitting the search among goroutines shows exactly the
// rows, order and selection of the search on one goroutine.
func TestParallelMatch(t *testing.T) {
	// Enough rows for several chunks a goroutine at any GOMAXPROCS, with
	// parallelMin lowered below: what is compared is the split, not the size.
	const n = 20_000
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	defer func(v int) { parallelMin = v }(parallelMin)
	rows := makePayments(0, n)
	seq, par := newPayments(120, 21, rows), newPayments(120, 21, rows)
	for _, m := range []*Model[payment]{&seq, &par} {
		m.SortBy("amount", false)
		m.SetCursor(n / 3)
	}
	for _, q := range []Query[payment]{
		query("rub"), query("rub 7"), query("rub 77"), query("ru"),
		query("", status("Rejected")), query("7", status("Rejected")), query("7"),
		query("ord-77", brand("MIR")), query("ord-7"), query("кофе"), query("zzz"), query("12"),
	} {
		parallelMin = math.MaxInt
		seq.SetQuery(q)
		parallelMin = 64
		par.SetQuery(q)
		require.Equal(t, seq.c.visible, par.c.visible, "%q %v", q.Text, q.Conds)
		require.Equal(t, seq.c.match, par.c.match, "%q %v", q.Text, q.Conds)
		require.Equal(t, seq.SelectedID(), par.SelectedID())
		require.Equal(t, [2]int{seq.Cursor(), seq.Offset()}, [2]int{par.Cursor(), par.Offset()})
		if q.Text == "rub 77" {
			require.Equal(t, scratchQuery(seq.Rows(), q), visibleIDs(par))
		}
	}
}

func TestHaystacks(t *testing.T) {
	var h haystacks
	h.reset(0)
	var want [][]byte
	text := func(i, v int) []byte {
		switch i % 97 {
		case 0:
			return nil
		case 1:
			return bytes.Repeat([]byte{'x'}, blockSize+i) // longer than a block
		}
		return fmt.Appendf(nil, "row %d version %d %s", i, v, strings.Repeat("é", i%40))
	}
	for i := range 3000 {
		want = append(want, text(i, 0))
		h.add(want[i])
	}
	for v := 1; v <= 5; v++ {
		for i := 0; i < 3000; i += 1 + v {
			assert.Equal(t, i%97 > 1, h.set(int32(i), text(i, v)), "row %d", i)
			want[i] = text(i, v)
		}
		assert.LessOrEqual(t, h.garbage, h.size/2)
	}
	var counts [256]int
	for i := range want {
		require.Equal(t, string(want[i]), string(h.text(int32(i))), "row %d", i)
		for _, b := range want[i] {
			counts[b]++
		}
	}
	assert.Equal(t, counts, h.counts)
}
