package views

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/ui"
	"paydash/ui/datatable"
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
	e := newRegistersEnv(t, envOpts{})
	e.size(100, 14)
	e.init()
	r := e.tab.(*Registers)
	tb := &r.transfers.table
	rows := tb.Shown()
	require.Greater(t, len(rows), 12, "more transfers than the screen shows")

	// A click on the heading or the header selects nothing.
	e.send(click(10, 0))
	e.send(click(10, 1))
	assert.Equal(t, rows[0].RegisterID, tb.SelectedID())
	// A click on the third row selects it.
	e.send(click(10, regListTop+2))
	assert.Equal(t, rows[2].RegisterID, tb.SelectedID())
	assert.False(t, r.register.isOpen())
	// The wheel scrolls, the selection keeping its line.
	e.send(wheel(true))
	assert.Equal(t, rows[5].RegisterID, tb.SelectedID())
	assert.Equal(t, 3, tb.Offset())
	e.send(wheel(false))
	assert.Equal(t, rows[2].RegisterID, tb.SelectedID())
	assert.Zero(t, tb.Offset())

	// A double click opens the transfer's register, as enter does.
	e.send(click(10, regListTop+1))
	e.send(doubleClick(10, regListTop+1))
	require.True(t, r.register.isOpen())
	assert.Equal(t, rows[1].RegisterID, r.register.transfer.RegisterID)
	require.NotNil(t, r.register.data)
}

func TestRegistersDoubleClickOpensNothingWhileTheFilterHasTheFocus(t *testing.T) {
	t.Parallel()
	e := newRegistersEnv(t, envOpts{})
	e.size(100, 14)
	e.init()
	r := e.tab.(*Registers)
	e.press("/")
	require.True(t, r.transfers.filtering)
	e.send(doubleClick(10, regListTop+1))
	assert.False(t, r.register.isOpen(), "the prompt has the focus")
	assert.True(t, r.transfers.filtering)
	e.press("esc")

	// Nor does it open a blank line or the heading.
	e.send(doubleClick(10, 0))
	assert.False(t, r.register.isOpen())
}

func TestRegisterPaneMouse(t *testing.T) {
	t.Parallel()
	e := newRegistersEnv(t, envOpts{})
	e.size(100, 20)
	e.init()
	r := e.tab.(*Registers)
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
	e.send(click(10, regListTop+at))
	listSel := r.transfers.table.SelectedID()
	e.send(doubleClick(10, regListTop+at))
	require.True(t, r.register.isOpen())
	require.Equal(t, tr.RegisterID, r.register.transfer.RegisterID)
	p := r.register
	require.Greater(t, len(p.data.reg.Operations), datatable.WheelLines+1)

	// The pane fills the tab: the wheel scrolls its operations, never the
	// list behind it.
	top := len(p.opsHead()) + 1 // the operations' first row
	sel := func() int { i, _ := p.ops.Selected(); return int(i) }
	assert.Zero(t, sel())
	e.send(wheel(true))
	assert.Equal(t, datatable.WheelLines, sel())
	assert.Equal(t, listSel, r.transfers.table.SelectedID())
	e.send(wheel(false))
	assert.Zero(t, sel())
	// A click selects an operation; a double click is a click there.
	e.send(click(10, top+2))
	assert.Equal(t, 2, sel())
	e.send(doubleClick(10, top+1))
	assert.Equal(t, 1, sel())
	assert.True(t, p.isOpen())
	assert.Empty(t, take[ui.SwitchTabMsg](e), "a double click opens no payment")
	// Clicks on the heading select nothing.
	e.send(click(10, 0))
	assert.Equal(t, 1, sel())

	// In the XML view the wheel scrolls the lines.
	e.press("w")
	require.True(t, p.showXML)
	require.Greater(t, p.xmlCount(), p.xmlBody()+datatable.WheelLines)
	e.send(wheel(true))
	assert.Equal(t, datatable.WheelLines, p.xmlTop)
	e.send(wheel(true))
	assert.Equal(t, 2*datatable.WheelLines, p.xmlTop)
	e.send(wheel(false))
	assert.Equal(t, datatable.WheelLines, p.xmlTop)
	e.send(click(10, 5))
	assert.Equal(t, datatable.WheelLines, p.xmlTop)
	assert.Equal(t, 1, sel(), "a click in the XML view does not touch the hidden table")

	// With the search prompt open a double click opens nothing either.
	e.press("/")
	require.True(t, p.searching)
	e.send(doubleClick(10, 5))
	assert.True(t, p.searching)
	assert.Empty(t, take[ui.SwitchTabMsg](e))
	e.view(100, 20)
}

func TestRegistersDocumentsMouse(t *testing.T) {
	t.Parallel()
	e := newRegistersEnv(t, envOpts{})
	e.size(200, 40)
	e.init()
	r := e.tab.(*Registers)
	e.press("d")
	require.True(t, r.docs)
	docs := r.documents.table.Shown()
	require.Greater(t, len(docs), 2)
	trSel := r.transfers.table.SelectedID()

	e.send(click(10, regListTop+1))
	assert.Equal(t, docs[1].ID, r.documents.table.SelectedID())
	assert.Equal(t, trSel, r.transfers.table.SelectedID(), "the hidden list is not touched")
	e.send(click(10, regListTop))
	assert.Equal(t, docs[0].ID, r.documents.table.SelectedID())

	// A double click opens a CSV document (an acceptance report).
	at := -1
	for i, d := range docs {
		if len(d.FileName) > 0 && i < 30 && strings.HasPrefix(d.FileName, "acceptance-report-") {
			at = i
			break
		}
	}
	require.GreaterOrEqual(t, at, 0, "a CSV is listed on screen")
	e.send(click(10, regListTop+at))
	e.send(doubleClick(10, regListTop+at))
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
		e.send(wheel(true))
		assert.Equal(t, datatable.WheelLines, sel())
		e.send(wheel(false))
		assert.Zero(t, sel())
	}
	{
		e.send(click(10, rowsTop+1))
		assert.Equal(t, 1, sel())
		e.send(doubleClick(10, rowsTop+1))
		assert.True(t, p.isOpen(), "a document's row opens nothing")
	}

	// Its text view scrolls with the wheel (on a screen shorter than it).
	e.size(200, 20)
	e.press("w")
	require.True(t, p.asText)
	require.Greater(t, len(p.got.text), paneBody(p.h)+datatable.WheelLines)
	{
		e.send(wheel(true))
		assert.Equal(t, datatable.WheelLines, p.textSc.offset)
		e.send(wheel(false))
		assert.Zero(t, p.textSc.offset)
	}
	e.view(200, 20)
}

func TestRegistersMouseWithoutV1DoesNothing(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{tab: NewRegisters})
	e.size(100, 20)
	e.init()
	for _, m := range []ui.MouseMsg{click(10, 3), doubleClick(10, 3), wheel(true), wheel(false)} {
		e.send(m)
	}
	r := e.tab.(*Registers)
	assert.False(t, r.register.isOpen())
	assert.False(t, r.document.isOpen())
}
