package payments

import (
	"slices"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/views/internal/viewtest"
)

// With parallel reads (backend.Config.ParallelReads), a sort reads the
// period in slices, several at once (backend/period.go): the list gets
// every row of the period once, in the sort's order, and esc stops every
// slice at once.

func TestSortReadsThePeriodInSlices(t *testing.T) {
	t.Parallel()
	e := newEnv(t, viewtest.Opts{Fixed: viewtest.GoldenNow, ParallelReads: 4})
	e.Scope.Start = viewtest.GoldenNow.AddDate(0, 0, -30)
	e.Size(120, 40)
	e.Init()
	p := e.Tab.(*Payments)
	require.False(t, p.List.Done, "the period holds more than the first page")
	period := e.periodPayments()

	e.SortBy("Amount")
	require.True(t, p.List.Done, "the sort read the rest of the period")
	assert.Equal(t, []bool{false, true}, dedupe(e.Count.ReadAheadsSeen()),
		"a page at a time to fill the screen, then read ahead for the sort")
	assert.Equal(t, paymentIDs(byCurrencyThenAmount(period, true)), paymentIDs(p.List.Table.Rows()),
		"every row of the period once, none lost or repeated at the slices' edges")
}

func TestSortInSlicesEscStopsEverySlice(t *testing.T) {
	t.Parallel()
	e := newEnv(t, viewtest.Opts{Fixed: viewtest.GoldenNow, ParallelReads: 4})
	e.Scope.Start = viewtest.GoldenNow.AddDate(0, 0, -30)
	e.Size(120, 40)
	e.Init()
	p := e.Tab.(*Payments)
	require.False(t, p.List.Done)

	next := []tea.Cmd{e.SendHold(viewtest.KeyPress("S"))} // the next page asked for, not yet read
	require.True(t, p.List.SortReading)
	e.Press("esc")
	seen := e.Count.ReadAheadsSeen()
	require.NotEmpty(t, seen)
	assert.False(t, seen[len(seen)-1], "esc told the pager to stop every slice")
	e.Run(tea.Batch(next...))
	loaded := p.List.Table.Len()
	assert.False(t, p.List.Done)
	assert.False(t, p.List.SortReading)
	assert.Equal(t, loaded, p.List.Table.Len(), "nothing more arrives after esc")

	// s enter reads on: the rest of the period, in slices again.
	d := e.OpenSort()
	d.Press("enter")
	require.True(t, p.List.Done)
	period := e.periodPayments()
	rows := paymentIDs(p.List.Table.Rows())
	want := paymentIDs(period)
	slices.Sort(rows)
	slices.Sort(want)
	assert.Equal(t, want, rows, "every row of the period once")
}

// dedupe drops repeats that follow each other: [true true false] → [true false].
func dedupe(b []bool) []bool { return slices.Compact(slices.Clone(b)) }
