package datatable

import (
	"github.com/charmbracelet/x/ansi"

	"paydash/backend/textsafe"
)

// contentWidths is, per column, the widest cell text seen so far in the
// columns sized by their content (Column.MaxWidth > 0), capped at MaxWidth.
// It is measured as rows arrive (measure, from add), never by scanning the
// loaded rows, and only grows: a key press costs nothing, and the columns
// do not jump while the user scrolls or filters. A column whose width has
// reached its cap is no longer measured.
type contentWidths []int

// measure takes row r's cells into the content widths, and lays the
// columns out again when one of them grew. That happens at most MaxWidth
// times per column over the widget's life.
func (c *core[T]) measure(r T) {
	grew := false
	for i := range c.cols {
		col := &c.cols[i]
		if col.MaxWidth <= 0 {
			continue
		}
		if len(c.content) != len(c.cols) {
			c.content = make(contentWidths, len(c.cols))
		}
		if c.content[i] >= col.MaxWidth {
			continue
		}
		if w := min(cellWidth(textsafe.Clean(col.Text(r))), col.MaxWidth); w > c.content[i] {
			c.content[i] = w
			grew = true
		}
	}
	if grew {
		c.relayout()
	}
}

// cellWidth is the width in cells of cleaned text s.
func cellWidth(s string) int {
	if isASCII(s) {
		return len(s)
	}
	return ansi.StringWidth(s)
}

// want is the width column i asks for: its minimum, or for a column sized
// by its content the width of its widest cell and of its title, between
// its minimum and its cap.
func want[T any](cols []Column[T], content contentWidths, i int) int {
	col := &cols[i]
	w := max(col.Width, 1)
	if col.MaxWidth <= 0 {
		return w
	}
	need := cellWidth(textsafe.Clean(col.Title))
	if i < len(content) {
		need = max(need, content[i])
	}
	return max(w, min(need, col.MaxWidth))
}
