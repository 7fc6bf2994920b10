package registers

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"paydash/backend/textsafe"
	"paydash/keys"
	"paydash/views/tab"
)

// searchKey handles a key while the search input has the focus: enter
// searches, esc leaves the input (the last search stays), text edits it.
func (rp *registerPane) searchKey(msg tea.KeyPressMsg) tea.Cmd {
	if a, _, ok := rp.km.Lookup(msg, keys.ContextSearch); ok {
		switch a {
		case keys.ActOpen:
			rp.searching = false
			rp.searchInput.Blur()
			rp.runSearch(rp.searchInput.Value())
			rp.layout()
			return nil
		case keys.ActClose:
			rp.searching = false
			rp.searchInput.Blur()
			rp.layout()
			return nil
		case keys.ActQuit:
			return nil // the shell's
		}
	}
	var cmd tea.Cmd
	rp.searchInput, cmd = rp.searchInput.Update(msg)
	return cmd
}

// paste types pasted text into the search input when it has the focus.
func (rp *registerPane) paste(msg tea.PasteMsg) tea.Cmd {
	if !rp.open || !rp.searching {
		return nil
	}
	var cmd tea.Cmd
	rp.searchInput, cmd = rp.searchInput.Update(msg)
	return cmd
}

// runSearch finds query in the laid-out XML (within the 20 ms allowed for
// 50,000 operations, so it runs here) and shows the first match
// from the top of the view.
func (rp *registerPane) runSearch(query string) {
	rp.matches, rp.cur, rp.searchNote = nil, -1, ""
	if strings.TrimSpace(query) == "" || rp.data == nil || rp.data.doc == nil {
		return
	}
	m := rp.data.doc.Search(query)
	if m.Len() == 0 {
		rp.searchNote = "no match for \"" + textsafe.Line(query, 40) + "\""
		return
	}
	rp.matches = m
	rp.cur = m.First(rp.xmlTop)
	rp.reveal(m.Line(rp.cur))
}

// step goes to the next (+1) or previous (-1) match: from the current one
// while it is on screen, else from the lines shown.
func (rp *registerPane) step(dir int) {
	m := rp.matches
	if m == nil || m.Len() == 0 {
		return
	}
	rp.showXML = true
	top, body := rp.xmlTop, rp.xmlBody()
	onScreen := rp.cur >= 0 && m.Line(rp.cur) >= top && m.Line(rp.cur) < top+body
	switch {
	case onScreen && dir > 0:
		rp.cur = (rp.cur + 1) % m.Len()
	case onScreen:
		rp.cur = (rp.cur - 1 + m.Len()) % m.Len()
	case dir > 0:
		rp.cur = m.First(top)
	default:
		rp.cur = m.Before(top + body)
	}
	rp.reveal(m.Line(rp.cur))
}

// reveal scrolls the XML view so that line is shown, a third down the
// view when it had to move.
func (rp *registerPane) reveal(line int) {
	body := rp.xmlBody()
	if line >= rp.xmlTop && line < rp.xmlTop+body {
		return
	}
	rp.xmlTop = tab.ClampOffset(line-body/3, rp.xmlCount(), body)
}

func (rp *registerPane) clearSearch() {
	rp.matches, rp.cur, rp.searchNote, rp.searching = nil, -1, "", false
	rp.searchInput.Blur()
}
