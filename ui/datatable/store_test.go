package datatable

import (
	"reflect"
	"strings"
	"testing"
	"time"
)

// boxStore keeps each row behind a pointer, so that a table that read its
// rows from its own slice instead would be seen to.
type boxStore struct{ rows []*payment }

func (s *boxStore) Reset(n int)             { s.rows = make([]*payment, 0, n) }
func (s *boxStore) Len() int                { return len(s.rows) }
func (s *boxStore) Add(r payment)           { s.rows = append(s.rows, &r) }
func (s *boxStore) Set(it int32, r payment) { s.rows[it] = &r }
func (s *boxStore) At(it int32) payment     { return *s.rows[it] }
func newBoxStore() Store[payment]           { return &boxStore{} }
func idsOf(rows []payment) (out []string) {
	for _, r := range rows {
		out = append(out, r.ID)
	}
	return out
}

// A table with a Store behaves as one keeping a []T: loading, a refresh
// that changes a row, sorting, searching (words and Keep), removing.
func TestStoreKeepsTheRows(t *testing.T) {
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	run := func(newStore func() Store[payment]) (Model[payment], []string) {
		m := New(Config[payment]{ID: paymentID, Columns: paymentColumns(), NewStore: newStore})
		m.SetSize(120, 10)
		m.SetRows(makePayments(0, 50))
		m.Append(makePayments(50, 50))
		changed := makePayment(7)
		changed.Status = "Refunded"
		m.Upsert([]payment{changed, makePayment(1000)}, now)
		m.SortBy("amount", true)
		var got []string
		got = append(got, strings.Join(idsOf(m.Rows()), ","))
		m.SetQuery(Query[payment]{Words: []string{"flat"}, Conds: []string{"settled"},
			Keep: func(p *payment) bool { return p.Status == "Settled" }})
		got = append(got, strings.Join(idsOf(m.Shown()), ","))
		m.Remove(makePayment(3).ID, makePayment(1000).ID)
		m.SetFilter("")
		got = append(got, strings.Join(idsOf(m.Shown()), ","), m.SelectedID(), m.View())
		return m, got
	}
	_, want := run(nil)
	m, got := run(newBoxStore)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("with a Store:\n%q\nwith a slice:\n%q", got, want)
	}
	if m.c.items != nil || m.c.store.Len() != m.Len() {
		t.Errorf("the rows are not in the Store: %d in the slice, %d in the Store", len(m.c.items), m.c.store.Len())
	}
	if r, _ := m.Selected(); !reflect.DeepEqual(r, m.c.store.At(m.c.sel)) {
		t.Errorf("Selected is not the Store's row")
	}
}

// The filter's texts are kept only while the query has words: none after
// loading or with conditions only; all rows' once a word is searched,
// rows arriving meanwhile included; none again once the words go.
func TestFilterTextsMadeAtTheFirstWordAndKept(t *testing.T) {
	m := New(Config[payment]{ID: paymentID, Columns: paymentColumns()})
	m.SetSize(120, 10)
	m.SetRows(makePayments(0, 100))
	texts := func() int { return len(m.c.hay.spans) }
	if texts() != 0 {
		t.Fatalf("after loading: %d texts, want none", texts())
	}
	m.SetQuery(Query[payment]{Conds: []string{"settled"}, Keep: func(p *payment) bool { return p.Status == "Settled" }})
	if texts() != 0 {
		t.Fatalf("conditions only: %d texts, want none", texts())
	}
	m.SetFilter("croissant")
	want := 0
	for _, p := range makePayments(0, 150) {
		if strings.Contains(strings.ToLower(p.Description), "croissant") {
			want++
		}
	}
	m.Append(makePayments(100, 50))
	if texts() != 150 || m.Filtered() != want {
		t.Fatalf("searching: %d texts for 150 rows, %d shown, want %d", texts(), m.Filtered(), want)
	}
	m.SetFilter("")
	if texts() != 150 || m.Filtered() != 150 {
		t.Fatalf("after the search: %d texts kept for the next one, %d shown", texts(), m.Filtered())
	}
	m.SetRows(makePayments(0, 10))
	if texts() != 0 {
		t.Fatalf("new rows with no word searched: %d texts, want none", texts())
	}
	m.SetFilter("croissant")
	m.SetRows(makePayments(0, 10))
	if texts() != 10 {
		t.Fatalf("new rows while a word is searched: %d texts, want 10", texts())
	}
}
