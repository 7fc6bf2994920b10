package registers

import (
	tea "charm.land/bubbletea/v2"

	"paydash/keys"
	"paydash/ui"
	"paydash/ui/datatable"
	"paydash/views/tab"
)

// context is where the pane's keys are looked up: the search input's
// while it has the focus, else the viewer's.
func (rp *registerPane) context() keys.Context {
	if rp.searching {
		return keys.ContextSearch
	}
	return keys.ContextViewer
}

// available says what the pane's keys can do now.
func (rp *registerPane) available(a keys.Action) (bool, string) {
	d := rp.data
	switch a {
	case keys.ActDocuments:
		return false, ""
	case keys.ActRaw, keys.ActExport, keys.ActCopyID:
		if d == nil {
			return false, "the register is being read"
		}
		switch {
		case a != keys.ActExport:
		case d.doc == nil && d.err != nil:
			return false, "the register could not be read; r reads it again"
		case !rp.showXML && d.err != nil:
			return false, "the operations could not be read: w shows the XML, which ctrl+s saves"
		}
	case keys.ActFilter:
		if d == nil || d.doc == nil {
			return false, "there is no XML to search"
		}
	case keys.ActNextMatch, keys.ActPrevMatch:
		if rp.matches == nil || rp.matches.Len() == 0 {
			return false, "search first (/)"
		}
	case keys.ActOpen:
		if rp.showXML {
			return false, "enter opens an operation's payment from the operations view (w)"
		}
		if _, ok := rp.ops.Selected(); !ok || d == nil {
			return false, "no operation is selected"
		}
	}
	return true, ""
}

// key handles a key while the pane is open.
func (rp *registerPane) key(msg tea.KeyPressMsg, avail keys.Availability) tea.Cmd {
	if rp.searching {
		return rp.searchKey(msg)
	}
	press, ok := rp.km.Resolve(msg, rp.context(), avail)
	switch {
	case !ok:
		return nil
	case !press.Enabled:
		return tab.RefusedKey(press)
	}
	switch a := press.Action; a {
	case keys.ActClose:
		rp.back()
	case keys.ActRaw:
		rp.showXML = !rp.showXML
		rp.layout()
	case keys.ActFilter:
		// A new search starts empty: n and N repeat the last one.
		rp.showXML, rp.searching, rp.searchNote = true, true, ""
		rp.searchInput.SetValue("")
		_ = rp.searchInput.Focus() // no blink: the command would only schedule blinking
		rp.layout()
	case keys.ActNextMatch:
		rp.step(+1)
	case keys.ActPrevMatch:
		rp.step(-1)
	case keys.ActOpen:
		return rp.openOperation()
	case keys.ActExport:
		if rp.showXML {
			return rp.saveXML(rp.transfer, rp.data)
		}
		return rp.saveCSV()
	case keys.ActCopyID:
		return tab.CopyID(rp.copyTarget())
	default:
		if tab.IsMove(a) {
			rp.move(a, msg)
		}
	}
	return nil
}

// back is esc: it backs out one step at a time: the search's matches, the
// XML view, then the pane.
func (rp *registerPane) back() {
	switch {
	case rp.matches != nil || rp.searchNote != "":
		rp.clearSearch()
	case rp.showXML && rp.data != nil && rp.data.err == nil:
		rp.showXML = false
	default:
		rp.close()
	}
	rp.layout()
}

func (rp *registerPane) copyTarget() string {
	if !rp.showXML {
		if i, ok := rp.ops.Selected(); ok && int(i) < len(rp.data.reg.Operations) {
			return rp.data.reg.Operations[i].ID
		}
	}
	return rp.transfer.RegisterID
}

// move scrolls the view shown: the operations table moves its selection,
// the XML view its first line.
func (rp *registerPane) move(a keys.Action, msg tea.KeyPressMsg) {
	if !rp.showXML {
		rp.ops, _ = rp.ops.Update(msg)
		return
	}
	body := rp.xmlBody()
	switch a {
	case keys.ActUp:
		rp.xmlTop--
	case keys.ActDown:
		rp.xmlTop++
	case keys.ActPageUp:
		rp.xmlTop -= max(body-1, 1)
	case keys.ActPageDown:
		rp.xmlTop += max(body-1, 1)
	case keys.ActTop:
		rp.xmlTop = 0
	case keys.ActBottom:
		rp.xmlTop = rp.xmlCount()
	}
	rp.xmlTop = tab.ClampOffset(rp.xmlTop, rp.xmlCount(), body)
}

// mouse handles a mouse event over the pane (which fills the tab's area):
// in the operations view the wheel scrolls the table and a click selects
// an operation; in the XML view the wheel scrolls the lines. A double
// click is a click: it opens nothing (enter opens an operation's payment).
func (rp *registerPane) mouse(msg ui.MouseMsg) tea.Cmd {
	if rp.data == nil {
		return nil
	}
	if rp.showXML {
		switch msg.Kind {
		case ui.MouseWheelUp:
			rp.xmlTop -= datatable.WheelLines
		case ui.MouseWheelDown:
			rp.xmlTop += datatable.WheelLines
		default:
			return nil
		}
		rp.xmlTop = tab.ClampOffset(rp.xmlTop, rp.xmlCount(), rp.xmlBody())
		return nil
	}
	rp.ops = tableMouse(rp.ops, msg.Shift(0, -len(rp.opsHead())))
	return nil
}
