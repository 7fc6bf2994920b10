package datatable

import (
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNewAboveCountsAndResets(t *testing.T) {
	m := newPayments(80, 11, makePayments(100, 100)) // 10 body lines
	assert.Zero(t, m.NewAbove())

	// At the top: rows that arrive push the view down; they are above it.
	m.Upsert(makePayments(97, 3), t0)
	assert.Equal(t, 3, m.NewAbove())
	m = press(m, kg)
	assert.Zero(t, m.NewAbove(), "g shows them")
	assert.Zero(t, m.Offset())

	// Scrolled down: new rows add up.
	m.SetCursor(40)
	m.Upsert(makePayments(95, 2), t0)
	m.Upsert(makePayments(90, 5), t0)
	assert.Equal(t, 7, m.NewAbove())
	// A refresh with no new rows changes nothing.
	m.Upsert(makePayments(90, 5), t0)
	assert.Equal(t, 7, m.NewAbove())

	// Scrolling up until fewer rows are above than were new: they are seen.
	off := m.Offset()
	m.SetCursor(off - 1) // one line up: the view follows
	for m.Offset() > 4 {
		m = press(m, kUp)
	}
	assert.LessOrEqual(t, m.NewAbove(), m.Offset())
	m = press(m, kHome)
	assert.Zero(t, m.NewAbove())

	// A row already loaded is no news; SetRows starts again.
	m.SetCursor(50)
	m.Upsert(makePayments(80, 1), t0)
	require.Equal(t, 1, m.NewAbove())
	m.SetRows(makePayments(0, 50))
	assert.Zero(t, m.NewAbove())
}

func TestNewAboveIgnoresRowsBelowTheView(t *testing.T) {
	m := newPayments(80, 11, makePayments(100, 100))
	m.SortBy("id", false) // ascending: newer (larger) ids go to the bottom
	m.SetCursor(40)
	m.Upsert(makePayments(95, 3), t0)
	assert.Zero(t, m.NewAbove())
}

func TestMouseWheelAndClick(t *testing.T) {
	rows := makePayments(0, 100)
	m := newPayments(80, 11, rows) // header + 10 body lines

	m, _ = m.Update(tea.MouseWheelMsg{Button: tea.MouseWheelDown})
	assert.Equal(t, WheelLines, m.Cursor())
	assert.Equal(t, WheelLines, m.Offset(), "the view scrolls with the selection")
	m, _ = m.Update(tea.MouseWheelMsg{Button: tea.MouseWheelUp})
	m, _ = m.Update(tea.MouseWheelMsg{Button: tea.MouseWheelUp})
	assert.Zero(t, m.Cursor())
	assert.Zero(t, m.Offset())

	// A click on the fifth body line selects the row drawn there.
	m, _ = m.Update(tea.MouseClickMsg{X: 20, Y: 5, Button: tea.MouseLeft})
	assert.Equal(t, rows[4].ID, selectedID(t, m))
	assert.Equal(t, 5, screenLine(m, rows[4].ID))
	// Scrolled: the click is relative to the view.
	m, _ = m.Update(tea.MouseWheelMsg{Button: tea.MouseWheelDown})
	m, _ = m.Update(tea.MouseClickMsg{X: 1, Y: 1, Button: tea.MouseLeft})
	assert.Equal(t, rows[m.Offset()].ID, selectedID(t, m))

	// The header, outside, the right button: nothing.
	before := m.Cursor()
	for _, c := range []tea.MouseClickMsg{
		{X: 5, Y: 0, Button: tea.MouseLeft},
		{X: 80, Y: 3, Button: tea.MouseLeft},
		{X: 5, Y: 11, Button: tea.MouseLeft},
		{X: 5, Y: 3, Button: tea.MouseRight},
	} {
		m, _ = m.Update(c)
		assert.Equal(t, before, m.Cursor(), "%+v", c)
	}

	// Below the last row (a short list): nothing.
	short := newPayments(80, 11, makePayments(0, 3))
	_, ok := short.RowAt(5, 6)
	assert.False(t, ok)
	short, _ = short.Update(tea.MouseClickMsg{X: 5, Y: 6, Button: tea.MouseLeft})
	assert.Zero(t, short.Cursor())
	pos, ok := short.RowAt(5, 3)
	assert.True(t, ok)
	assert.Equal(t, 2, pos)
}
