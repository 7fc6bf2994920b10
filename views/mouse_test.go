package views

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/ui"
)

func TestNewAboveMarkAfterRefreshAndG(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{})
	e.size(80, 24)
	e.init()
	p := e.tab.(*Payments)
	e.press("pgdown", "pgdown")
	require.Positive(t, p.list.table.Offset())
	selID := p.list.table.SelectedID()
	for _, v := range []string{"301.00", "302.00", "303.00"} {
		e.newPayment(false, v)
	}
	e.send(ui.RefreshMsg{Manual: true})
	require.Empty(t, e.errors())
	assert.Equal(t, 3, p.list.table.NewAbove())
	assert.Equal(t, selID, p.list.table.SelectedID())
	lines := strings.Split(ansi.Strip(e.view(80, 24)), "\n")
	assert.Equal(t, "↑ 3 new · g", strings.TrimSpace(lines[23]))

	// With a filter and a sort the line still fits 80 columns, mark first.
	p.list.table.SetFilter("settled")
	p.list.setSort("amount", true)
	p.layout()
	last := strings.Split(ansi.Strip(e.view(80, 24)), "\n")[23] // view checks the 80 columns
	if n := p.list.table.NewAbove(); n > 0 {                    // the filter and the sort may have moved them
		assert.True(t, strings.HasPrefix(last, "↑ "), last)
		assert.Contains(t, last, "filter: settled")
	}

	p.list.table.SetFilter("")
	p.list.setSort("", false)
	e.press("g")
	assert.Zero(t, p.list.table.NewAbove())
	assert.Zero(t, p.list.table.Offset())
	lines = strings.Split(ansi.Strip(e.view(80, 24)), "\n")
	assert.NotContains(t, lines[23], "new")
}

func TestDoubleClickOpensDetail(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{})
	e.size(80, 24)
	e.init()
	p := e.tab.(*Payments)
	rows := p.list.table.Rows()
	// A click on the third row (line 3: the header is line 0) selects it.
	e.send(ui.MouseMsg{Kind: ui.MouseClick, X: 10, Y: 3})
	assert.Equal(t, rows[2].ID, p.list.table.SelectedID())
	assert.False(t, p.detail.isOpen())
	// The wheel scrolls.
	e.send(ui.MouseMsg{Kind: ui.MouseWheelDown, X: 10, Y: 3})
	assert.Equal(t, rows[5].ID, p.list.table.SelectedID())
	// A double click on a row opens its detail, as enter does.
	e.send(ui.MouseMsg{Kind: ui.MouseClick, X: 10, Y: 2})
	e.send(ui.MouseMsg{Kind: ui.MouseDoubleClick, X: 10, Y: 2})
	require.True(t, p.detail.isOpen())
	sel := p.list.table.SelectedID()
	assert.Equal(t, sel, p.detail.obj.ID)
	assert.Equal(t, p.list.table.Rows()[p.list.table.Offset()+1].ID, sel)
}
