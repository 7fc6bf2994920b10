package tab

import (
	tea "charm.land/bubbletea/v2"

	"paydash/keys"
)

// Selected is the selected row.
func (pl *PagedList[T]) Selected() (T, bool) { return pl.Table.Selected() }

// SelectID selects a loaded row by id, clearing a filter that hides it
// (not a search the service narrowed: the row may not be loaded then).
func (pl *PagedList[T]) SelectID(id string) (T, bool) {
	tb := &pl.Table
	if !tb.SelectByID(id) && tb.FilterText() != "" && pl.Narrowed == "" {
		_ = pl.clearFilter() // nothing to reload: the list is its own
		tb.SelectByID(id)
	}
	if sel, ok := tb.Selected(); ok && pl.rowID(sel) == id {
		return sel, true
	}
	var none T
	return none, false
}

// move handles a movement key (up, down, pages, top, bottom) and asks for
// the next page when the cursor nears the end.
func (pl *PagedList[T]) move(msg tea.KeyPressMsg) tea.Cmd {
	var cmd tea.Cmd
	pl.Table, cmd = pl.Table.Update(msg)
	return tea.Batch(cmd, pl.maybeNext())
}

// IsMove reports whether a is one of the keys move handles.
func IsMove(a keys.Action) bool {
	switch a {
	case keys.ActUp, keys.ActDown, keys.ActPageUp, keys.ActPageDown, keys.ActTop, keys.ActBottom:
		return true
	}
	return false
}
