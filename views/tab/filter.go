package tab

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"paydash/keys"
	"paydash/views/search"
)

// focusFilter opens the filter input with the current filter in it.
func (pl *PagedList[T]) focusFilter() {
	pl.Filtering = true
	pl.Filter.Placeholder = pl.placeholder()
	pl.Filter.SetValue(pl.Table.FilterText())
	pl.Filter.CursorEnd()
	_ = pl.Filter.Focus() // no blink: the command would only schedule blinking
	pl.layout()
}

// placeholder is the empty prompt's help: what can be typed.
func (pl *PagedList[T]) placeholder() string {
	if pl.Search == nil || len(pl.Search.Fields) == 0 {
		return "words to look for · enter searches the whole list"
	}
	names := make([]string, len(pl.Search.Fields))
	for i, f := range pl.Search.Fields {
		names[i] = f.Name + ":"
	}
	return "words, or " + strings.Join(names, " ") + " · enter searches the whole list"
}

// filterKey handles a key while the filter input has the focus: enter
// commits the search (it then reads the rest of the list), esc clears it,
// arrows move the list, text edits the search, which applies to the loaded
// rows as it is typed.
func (pl *PagedList[T]) filterKey(msg tea.KeyPressMsg, km keys.Map) tea.Cmd {
	if a, _, ok := km.Lookup(msg, keys.ContextFilter); ok {
		switch a {
		case keys.ActOpen:
			if pl.SearchErr != "" {
				return nil // the message at the prompt says what to fix
			}
			pl.exact = false // a search typed may be narrowed by the service
			pl.Filtering = false
			pl.Filter.Blur()
			cmd := pl.commitSearch()
			pl.layout()
			return tea.Batch(cmd, pl.maybeNext())
		case keys.ActClose:
			pl.Filtering = false
			pl.Filter.Blur()
			return pl.clearFilter()
		case keys.ActUp, keys.ActDown:
			return pl.move(msg)
		case keys.ActQuit:
			return nil // the shell's
		}
	}
	var cmd tea.Cmd
	pl.Filter, cmd = pl.Filter.Update(msg)
	pl.applyFilter()
	return cmd
}

// SearchFor searches for text as if it was typed at "/" and entered. A
// search that does not make sense stays at the prompt with its message,
// as it would when typed. exact keeps the search on the list's own
// loader (see narrows) until the search is edited.
func (pl *PagedList[T]) SearchFor(text string, exact bool) tea.Cmd {
	pl.exact = exact
	pl.Filter.SetValue(text)
	pl.applyFilter()
	if pl.SearchErr != "" {
		pl.focusFilter()
		pl.Filter.SetValue(text)
		return nil
	}
	pl.Filtering = false
	pl.Filter.Blur()
	cmd := pl.commitSearch()
	pl.layout()
	return tea.Batch(cmd, pl.maybeNext())
}

// Paste types pasted text into the filter input when it has the focus.
func (pl *PagedList[T]) Paste(msg tea.PasteMsg) tea.Cmd {
	if !pl.Filtering {
		return nil
	}
	var cmd tea.Cmd
	pl.Filter, cmd = pl.Filter.Update(msg)
	pl.applyFilter()
	return cmd
}

// applyFilter applies the text at the prompt to the loaded rows, and says
// what is wrong with it.
func (pl *PagedList[T]) applyFilter() {
	dq, q, err := pl.Search.compile(pl.Filter.Value())
	pl.SearchErr = ""
	if err != nil {
		pl.SearchErr = err.Error()
	}
	// The parts that make sense apply while the rest is being typed.
	pl.query = q
	if dq.Text != pl.Table.FilterText() {
		pl.Table.SetQuery(dq)
	}
	pl.layout()
}

// commitSearch starts reading the rest of the list for the search (enter):
// from a loader the service narrows when it can, else page after page of
// the list's own.
func (pl *PagedList[T]) commitSearch() tea.Cmd {
	pl.seekStopped = false
	if pl.query.Empty() {
		pl.seeking = false
		return pl.unnarrow()
	}
	if pl.narrows() {
		nl, key := pl.Narrow(pl.query)
		switch {
		case key != "" && key != pl.Narrowed:
			pl.Narrowed = key
			pl.seeking = true
			return pl.loadFrom(nl, pl.baseIn)
		case key == "":
			if cmd := pl.unnarrow(); cmd != nil {
				pl.seeking = true
				return cmd
			}
		}
	}
	pl.seeking = !pl.Done
	return pl.Next()
}

// narrows reports whether a search may read a loader the service narrows
// (Narrow): not while an exact search (SearchFor) is on.
func (pl *PagedList[T]) narrows() bool { return pl.Narrow != nil && !pl.exact }

// unnarrow goes back to the list's own loader after a search the service
// narrowed; nil when it is in use.
func (pl *PagedList[T]) unnarrow() tea.Cmd {
	if pl.Narrowed == "" || pl.base == nil {
		return nil
	}
	pl.Narrowed = ""
	return pl.loadFrom(pl.base, pl.baseIn)
}

// escape is esc in the list: it stops a search reading the list (the page
// out still arrives: a pager cannot take back a page it has moved past),
// else it clears the filter.
func (pl *PagedList[T]) escape() tea.Cmd {
	if pl.stopReading() { // a search's or a sort's (sort.go)
		pl.layout()
		return nil
	}
	return pl.clearFilter()
}

// clearFilter drops the filter (esc in the list), and the service's
// narrowed list with it.
func (pl *PagedList[T]) clearFilter() tea.Cmd {
	pl.exact = false
	pl.Filter.SetValue("")
	pl.SearchErr = ""
	pl.query = search.Query{}
	pl.seeking, pl.seekStopped = false, false
	pl.Table.SetFilter("")
	pl.layout()
	return pl.unnarrow()
}
