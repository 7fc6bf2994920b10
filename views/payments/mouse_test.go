package payments

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/ui"
	"paydash/views/internal/viewtest"
)

func TestNewAboveMarkAfterRefreshAndG(t *testing.T) {
	t.Parallel()
	e, p := started(t, viewtest.Opts{Changes: true}, 80, 24)
	e.Press("pgdown", "pgdown")
	require.Positive(t, p.List.Table.Offset())
	selID := p.List.Table.SelectedID()
	for _, v := range []string{"301.00", "302.00", "303.00"} {
		e.NewPayment(false, v)
	}
	e.Send(ui.RefreshMsg{Manual: true})
	require.Empty(t, e.Errors())
	assert.Equal(t, 3, p.List.Table.NewAbove())
	assert.Equal(t, selID, p.List.Table.SelectedID())
	lines := strings.Split(ansi.Strip(e.View(80, 24)), "\n")
	assert.Equal(t, "↑ 3 new · g", strings.TrimSpace(lines[23]))

	// With a filter and a sort the line still fits 80 columns, mark first.
	p.List.Table.SetFilter("settled")
	p.List.SetSort("amount", true)
	p.Layout()
	last := strings.Split(ansi.Strip(e.View(80, 24)), "\n")[23] // view checks the 80 columns
	if n := p.List.Table.NewAbove(); n > 0 {                    // the filter and the sort may have moved them
		assert.True(t, strings.HasPrefix(last, "↑ "), last)
		assert.Contains(t, last, "filter: settled")
	}

	p.List.Table.SetFilter("")
	p.List.SetSort("", false)
	e.Press("g")
	assert.Zero(t, p.List.Table.NewAbove())
	assert.Zero(t, p.List.Table.Offset())
	lines = strings.Split(ansi.Strip(e.View(80, 24)), "\n")
	assert.NotContains(t, lines[23], "new")
}

func TestDoubleClickOpensDetail(t *testing.T) {
	t.Parallel()
	e, p := started(t, viewtest.Opts{}, 80, 24)
	rows := p.List.Table.Rows()
	// A click on the third row (line 3: the header is line 0) selects it.
	e.Send(ui.MouseMsg{Kind: ui.MouseClick, X: 10, Y: 3})
	assert.Equal(t, rows[2].ID, p.List.Table.SelectedID())
	assert.False(t, p.Pane.IsOpen())
	// The wheel scrolls.
	e.Send(ui.MouseMsg{Kind: ui.MouseWheelDown, X: 10, Y: 3})
	assert.Equal(t, rows[5].ID, p.List.Table.SelectedID())
	// A double click on a row opens its detail, as enter does.
	e.Send(ui.MouseMsg{Kind: ui.MouseClick, X: 10, Y: 2})
	e.Send(ui.MouseMsg{Kind: ui.MouseDoubleClick, X: 10, Y: 2})
	require.True(t, p.Pane.IsOpen())
	sel := p.List.Table.SelectedID()
	assert.Equal(t, sel, p.Pane.Obj.ID)
	assert.Equal(t, p.List.Table.Rows()[p.List.Table.Offset()+1].ID, sel)
}
