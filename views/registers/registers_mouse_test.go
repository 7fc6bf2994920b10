package registers

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/ui"
	"paydash/ui/datatable"
	"paydash/views/internal/viewtest"
	"paydash/views/tab"
)

// The tab's area: line 0 is the heading, line 1 the list's header, the
// rows from line 2.
const regListTop = 2

func click(x, y int) ui.MouseMsg       { return ui.MouseMsg{Kind: ui.MouseClick, X: x, Y: y} }
func doubleClick(x, y int) ui.MouseMsg { return ui.MouseMsg{Kind: ui.MouseDoubleClick, X: x, Y: y} }
func wheel(down bool) ui.MouseMsg {
	if down {
		return ui.MouseMsg{Kind: ui.MouseWheelDown, X: 10, Y: 5}
	}
	return ui.MouseMsg{Kind: ui.MouseWheelUp, X: 10, Y: 5}
}

func TestRegistersMouseOnTheTransfers(t *testing.T) {
	t.Parallel()
	e := newRegistersEnv(t, viewtest.Opts{})
	e.Size(100, 14)
	e.Init()
	r := e.Tab.(*Registers)
	tb := &r.transfers.Table
	rows := tb.Shown()
	require.Greater(t, len(rows), 12, "more transfers than the screen shows")

	// A click on the heading or the header selects nothing.
	e.Send(click(10, 0))
	e.Send(click(10, 1))
	assert.Equal(t, rows[0].RegisterID, tb.SelectedID())
	// A click on the third row selects it.
	e.Send(click(10, regListTop+2))
	assert.Equal(t, rows[2].RegisterID, tb.SelectedID())
	assert.False(t, r.Register.IsOpen())
	// The wheel scrolls, the selection keeping its line.
	e.Send(wheel(true))
	assert.Equal(t, rows[5].RegisterID, tb.SelectedID())
	assert.Equal(t, 3, tb.Offset())
	e.Send(wheel(false))
	assert.Equal(t, rows[2].RegisterID, tb.SelectedID())
	assert.Zero(t, tb.Offset())

	// A double click opens the transfer's register, as enter does.
	e.Send(click(10, regListTop+1))
	e.Send(doubleClick(10, regListTop+1))
	require.True(t, r.Register.IsOpen())
	assert.Equal(t, rows[1].RegisterID, r.Register.transfer.RegisterID)
	require.NotNil(t, r.Register.data)
}

func TestRegistersDoubleClickOpensNothingWhileTheFilterHasTheFocus(t *testing.T) {
	t.Parallel()
	e := newRegistersEnv(t, viewtest.Opts{})
	e.Size(100, 14)
	e.Init()
	r := e.Tab.(*Registers)
	e.Press("/")
	require.True(t, r.transfers.Filtering)
	e.Send(doubleClick(10, regListTop+1))
	assert.False(t, r.Register.IsOpen(), "the prompt has the focus")
	assert.True(t, r.transfers.Filtering)
	e.Press("esc")

	// Nor does it open a blank line or the heading.
	e.Send(doubleClick(10, 0))
	assert.False(t, r.Register.IsOpen())
}

func TestRegisterPaneMouse(t *testing.T) {
	t.Parallel()
	e := newRegistersEnv(t, viewtest.Opts{})
	e.Size(100, 20)
	e.Init()
	r := e.Tab.(*Registers)
	// The first transfer on screen whose register has a few operations.
	at := -1
	for i, tr := range e.transfersShown()[:15] {
		if len(e.sandboxRegister(tr.RegisterID).Operations) > datatable.WheelLines+2 {
			at = i
			break
		}
	}
	require.GreaterOrEqual(t, at, 0)
	tr := e.transfersShown()[at]
	e.Send(click(10, regListTop+at))
	listSel := r.transfers.Table.SelectedID()
	e.Send(doubleClick(10, regListTop+at))
	require.True(t, r.Register.IsOpen())
	require.Equal(t, tr.RegisterID, r.Register.transfer.RegisterID)
	p := r.Register
	require.Greater(t, len(p.data.reg.Operations), datatable.WheelLines+1)

	// The pane fills the tab: the wheel scrolls its operations, never the
	// list behind it.
	top := len(p.opsHead()) + 1 // the operations' first row
	sel := func() int { i, _ := p.ops.Selected(); return int(i) }
	assert.Zero(t, sel())
	e.Send(wheel(true))
	assert.Equal(t, datatable.WheelLines, sel())
	assert.Equal(t, listSel, r.transfers.Table.SelectedID())
	e.Send(wheel(false))
	assert.Zero(t, sel())
	// A click selects an operation; a double click is a click there.
	e.Send(click(10, top+2))
	assert.Equal(t, 2, sel())
	e.Send(doubleClick(10, top+1))
	assert.Equal(t, 1, sel())
	assert.True(t, p.IsOpen())
	assert.Empty(t, viewtest.Take[ui.SwitchTabMsg](e.Env), "a double click opens no payment")
	// Clicks on the heading select nothing.
	e.Send(click(10, 0))
	assert.Equal(t, 1, sel())

	// In the XML view the wheel scrolls the lines.
	e.Press("w")
	require.True(t, p.showXML)
	require.Greater(t, p.xmlCount(), p.xmlBody()+datatable.WheelLines)
	e.Send(wheel(true))
	assert.Equal(t, datatable.WheelLines, p.xmlTop)
	e.Send(wheel(true))
	assert.Equal(t, 2*datatable.WheelLines, p.xmlTop)
	e.Send(wheel(false))
	assert.Equal(t, datatable.WheelLines, p.xmlTop)
	e.Send(click(10, 5))
	assert.Equal(t, datatable.WheelLines, p.xmlTop)
	assert.Equal(t, 1, sel(), "a click in the XML view does not touch the hidden table")

	// With the search prompt open a double click opens nothing either.
	e.Press("/")
	require.True(t, p.searching)
	e.Send(doubleClick(10, 5))
	assert.True(t, p.searching)
	assert.Empty(t, viewtest.Take[ui.SwitchTabMsg](e.Env))
	e.View(100, 20)
}

func TestRegistersDocumentsMouse(t *testing.T) {
	t.Parallel()
	e := newRegistersEnv(t, viewtest.Opts{})
	e.Size(200, 40)
	e.Init()
	r := e.Tab.(*Registers)
	e.Press("d")
	require.True(t, r.docs)
	docs := r.Documents.Table.Shown()
	require.Greater(t, len(docs), 2)
	trSel := r.transfers.Table.SelectedID()

	e.Send(click(10, regListTop+1))
	assert.Equal(t, docs[1].ID, r.Documents.Table.SelectedID())
	assert.Equal(t, trSel, r.transfers.Table.SelectedID(), "the hidden list is not touched")
	e.Send(click(10, regListTop))
	assert.Equal(t, docs[0].ID, r.Documents.Table.SelectedID())

	// A double click opens a CSV document (an acceptance report).
	at := -1
	for i, d := range docs {
		if len(d.FileName) > 0 && i < 30 && strings.HasPrefix(d.FileName, "acceptance-report-") {
			at = i
			break
		}
	}
	require.GreaterOrEqual(t, at, 0, "a CSV is listed on screen")
	e.Send(click(10, regListTop+at))
	e.Send(doubleClick(10, regListTop+at))
	require.True(t, r.document.isOpen())
	p := r.document
	assert.Equal(t, docs[at].ID, p.doc.ID)
	require.NotNil(t, p.got)
	require.NotNil(t, p.got.csv)

	// The wheel scrolls its table, a click selects a row.
	rowsTop := len(p.head()) + 1
	sel := func() int { i, _ := p.table.Selected(); return int(i) }
	require.Greater(t, len(p.got.csv.rows), datatable.WheelLines)
	{
		e.Send(wheel(true))
		assert.Equal(t, datatable.WheelLines, sel())
		e.Send(wheel(false))
		assert.Zero(t, sel())
	}
	{
		e.Send(click(10, rowsTop+1))
		assert.Equal(t, 1, sel())
		e.Send(doubleClick(10, rowsTop+1))
		assert.True(t, p.isOpen(), "a document's row opens nothing")
	}

	// Its text view scrolls with the wheel (on a screen shorter than it).
	e.Size(200, 20)
	e.Press("w")
	require.True(t, p.asText)
	require.Greater(t, len(p.got.text), tab.PaneBody(p.h)+datatable.WheelLines)
	{
		e.Send(wheel(true))
		assert.Equal(t, datatable.WheelLines, p.textSc.Offset)
		e.Send(wheel(false))
		assert.Zero(t, p.textSc.Offset)
	}
	e.View(200, 20)
}

func TestRegistersMouseWithoutV1DoesNothing(t *testing.T) {
	t.Parallel()
	e := startedEnv(t, viewtest.Opts{Tab: New}, 100, 20)
	for _, m := range []ui.MouseMsg{click(10, 3), doubleClick(10, 3), wheel(true), wheel(false)} {
		e.Send(m)
	}
	r := e.Tab.(*Registers)
	assert.False(t, r.Register.IsOpen())
	assert.False(t, r.document.isOpen())
}
