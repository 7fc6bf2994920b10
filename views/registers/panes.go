package registers

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"paydash/ui"
	"paydash/ui/datatable"
	"paydash/views/tab"
)

// tableMouse gives a table of a pane a mouse event at its own coordinates
// (its header is line 0): the wheel scrolls it wherever the pointer is in
// the pane, a click selects the row under it.
func tableMouse[T any](tb datatable.Model[T], msg ui.MouseMsg) datatable.Model[T] {
	switch msg.Kind {
	case ui.MouseClick, ui.MouseDoubleClick:
		if msg.X < 0 || msg.X >= tb.Width() || msg.Y < 0 || msg.Y >= tb.Height() {
			return tb
		}
	}
	tb, _ = tb.Update(msg.Tea())
	return tb
}

// spread puts left and right on one line of w cells, right right-aligned;
// left is cut to leave right room, unless that would leave left too
// little (then right goes).
func spread(left, right string, w int) string {
	rw := ansi.StringWidth(right)
	if right == "" || w-rw-2 < 24 {
		return tab.Fit(left, w)
	}
	if ansi.StringWidth(left) > w-rw-2 {
		left = tab.Fit(left, w-rw-2)
	}
	return left + strings.Repeat(" ", w-ansi.StringWidth(left)-rw) + right
}
