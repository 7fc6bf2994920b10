package datatable

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRemoveKeepsTheSelectedRowsLineAndTheRest(t *testing.T) {
	m := New(Config[payment]{ID: paymentID, Columns: paymentColumns(), FlashFor: time.Minute})
	m.SetSize(100, 11) // header and ten rows
	rows := makePayments(0, 40)
	m.SetRows(rows)
	m.SetCursor(20)
	line := m.Cursor() - m.Offset()
	sel := m.SelectedID()
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	changed := rows[25]
	changed.Status = "Refunded"
	m.Upsert([]payment{changed}, now)
	require.True(t, m.Flashing(changed.ID))

	n := m.Remove(rows[3].ID, rows[30].ID, "no-such-row")

	assert.Equal(t, 2, n)
	assert.Equal(t, 38, m.Len())
	assert.Equal(t, sel, m.SelectedID(), "the selected row stays selected")
	assert.Equal(t, line, m.Cursor()-m.Offset(), "on its screen line")
	assert.True(t, m.Flashing(changed.ID), "a flash of a row that stays is kept")
	for _, r := range m.Rows() {
		assert.NotEqual(t, rows[3].ID, r.ID)
		assert.NotEqual(t, rows[30].ID, r.ID)
	}
}

func TestRemovingTheSelectedRowSelectsTheOneInItsPlace(t *testing.T) {
	m := New(Config[payment]{ID: paymentID, Columns: paymentColumns()})
	m.SetSize(100, 11)
	rows := makePayments(0, 5)
	m.SetRows(rows)
	m.SetCursor(2)

	m.Remove(rows[2].ID)

	assert.Equal(t, rows[3].ID, m.SelectedID())
	m.Remove(rows[3].ID, rows[4].ID)
	assert.Equal(t, rows[1].ID, m.SelectedID(), "the last row gone: the one above it")
}

// RemoveNewest looks at the rows newest arrival first and stops after a
// run of rows past the part looked at: rows beyond it are not looked at,
// even ones look would remove.
func TestRemoveNewestStopsAfterARunOfPastRows(t *testing.T) {
	m := New(Config[payment]{ID: paymentID, Columns: paymentColumns()})
	m.SetSize(100, 11)
	older := makePayments(10, 30) // a page
	m.SetRows(older)
	newer := makePayments(0, 10) // a refresh's rows, at the top
	m.Upsert(newer, time.Time{})
	drop := map[string]bool{newer[2].ID: true, newer[7].ID: true, older[25].ID: true}
	isNewer := map[string]bool{}
	for _, p := range newer {
		isNewer[p.ID] = true
	}
	looked := 0
	n := m.RemoveNewest(3, func(p *payment) (gone, past bool) {
		looked++
		return drop[p.ID], !isNewer[p.ID]
	})
	assert.Equal(t, 2, n, "the two among the newer rows")
	assert.Equal(t, 13, looked, "the ten newer rows and a run of three past them")
	assert.Equal(t, 38, m.Len())
	ids := map[string]bool{}
	for _, r := range m.Rows() {
		ids[r.ID] = true
	}
	assert.True(t, ids[older[25].ID], "not looked at: stays")
	assert.False(t, ids[newer[2].ID])
}
