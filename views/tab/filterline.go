package tab

import (
	"fmt"
	"strings"

	"paydash/backend/money"
	"paydash/backend/textsafe"
	"paydash/keys"
	"paydash/ui"
)

// seekProgress is how far a search has read: "searched 12,300 rows, back
// to 14 Nov 10:32 (34% of the period)…".
func (pl *PagedList[T]) seekProgress() string {
	return pl.readProgress("searched " + money.Count(pl.Table.Len()) + " rows")
}

// readProgress is text, what has been read, with how far back in the
// period it reached: "…, back to 14 Nov 10:32 (34% of the period)…".
func (pl *PagedList[T]) readProgress(text string) string {
	if pl.when == nil || pl.oldest.IsZero() {
		return text + "…"
	}
	text += ", back to " + FmtListTime(pl.oldest)
	if done, ok := pl.periodRead(); ok {
		text += fmt.Sprintf(" (%d%% of the period)", int(done*100))
	}
	return text + "…"
}

// filterLine is the line under the list: the input while it has the focus,
// otherwise the active filter and the sort ("sorted by Amount ▼ largest
// first"), "" when there is neither.
func (pl *PagedList[T]) filterLine(theme ui.Theme) string {
	if pl.Filtering {
		return Fit(pl.Filter.View(), pl.w)
	}
	var parts []string
	f := pl.Table.FilterText()
	if s := pl.sortDescription(); s != "" {
		hint := " (" + KeyName(pl.km, keys.ActSort, "s") + " column · " + KeyName(pl.km, keys.ActSortReverse, "S") + " reverse)"
		if f != "" {
			// Short, and first: the search and its hint are what gets cut.
			key, desc := pl.Table.SortKey()
			c, _ := pl.column(key)
			s, hint = textsafe.Line(c.Title, 30)+" "+arrow(desc), ""
		}
		// What the sort covers, until it is the whole list (sort.go).
		if reach, keysHint := pl.sortReach(); reach != "" {
			s += ": " + reach
			if f == "" {
				hint = keysHint
			}
		}
		parts = append(parts, theme.Muted.Render("sorted by ")+theme.Text.Render(s)+theme.Muted.Render(hint))
	}
	if f != "" {
		parts = append(parts, theme.Muted.Render("search: ")+theme.Text.Render(textsafe.Clean(f))+
			theme.Muted.Render("  ("+pl.searchHint()+")"))
	}
	if mark := pl.aboveMark(theme); mark != "" {
		// First, so a long filter or sort cannot push it off the line.
		if len(parts) == 0 {
			return Fit(mark, pl.w)
		}
		return Fit(mark+theme.Muted.Render("  ")+strings.Join(parts, theme.Muted.Render(" · ")), pl.w)
	}
	if len(parts) == 0 {
		return ""
	}
	return Fit(strings.Join(parts, theme.Muted.Render(" · ")), pl.w)
}

// searchHint says where the search stands and what the keys do now.
func (pl *PagedList[T]) searchHint() string {
	esc := KeyName(pl.km, keys.ActClose, "esc")
	switch {
	case pl.Done && pl.Table.Filtered() == 0:
		// Read to the end, nothing matched: the table's line says where
		// else to look (the tab's NoMatchText).
		where := "none in this period"
		if pl.Span[0].IsZero() && pl.Span[1].IsZero() {
			where = "none in the list"
		}
		return where + " · / edit · " + esc + " clears"
	case pl.seeking && !pl.Done:
		return "reading the rest of the list · " + esc + " stops"
	case pl.seekStopped && !pl.Done:
		return "stopped: only the loaded rows · / enter reads on · " + esc + " clears"
	case pl.Narrowed != "":
		return "selected by the service · / edit · " + esc + " clears"
	case !pl.Done:
		return "the loaded rows · / enter searches the whole list · " + esc + " clears"
	}
	return "/ edit · " + esc + " clears"
}

// errorLine is the line above the prompt that says what is wrong with the
// search typed, "" when nothing is.
func (pl *PagedList[T]) errorLine(theme ui.Theme) string {
	if !pl.Filtering || pl.SearchErr == "" {
		return ""
	}
	return Fit(theme.Danger.Render("✗ "+textsafe.Clean(pl.SearchErr)), pl.w)
}

// hasFilterLine reports whether the filter line (the filter, the sort)
// takes the bottom line.
func (pl *PagedList[T]) hasFilterLine() bool {
	if pl.Filtering || pl.Table.FilterText() != "" || pl.Table.NewAbove() > 0 {
		return true
	}
	key, _ := pl.Table.SortKey()
	return key != ""
}

// bottomLines is how many lines under the table the list takes: the
// filter line, and the search's error above it.
func (pl *PagedList[T]) bottomLines() int {
	n := 0
	if pl.hasFilterLine() {
		n++
	}
	if pl.Filtering && pl.SearchErr != "" {
		n++
	}
	return n
}

// SetSize gives the list its area, w × h cells with the filter line, and
// the table's width in it (less than w when a pane is beside it). Called
// whenever the area or the filter line changes, never while drawing.
func (pl *PagedList[T]) SetSize(w, h, tableW int) {
	pl.w, pl.h, pl.tableW = max(w, 0), max(h, 0), max(tableW, 0)
	pl.layout()
}

func (pl *PagedList[T]) layout() {
	th := pl.h - pl.bottomLines()
	pl.Table.SetSize(pl.tableW, max(th, 0))
	pl.Filter.SetWidth(max(pl.w-len(pl.Filter.Prompt)-1, 1))
}

// tableLines draws the table: tableW × (h less the filter line).
func (pl *PagedList[T]) tableLines() []string {
	if pl.Table.Height() == 0 || pl.Table.Width() == 0 {
		return nil
	}
	return strings.Split(pl.Table.View(), "\n")
}
