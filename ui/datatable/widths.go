package datatable

import (
	"github.com/charmbracelet/x/ansi"

	"paydash/backend/textsafe"
)

// contentWidths is, per column, the widest cell text seen so far: capped
// at MaxWidth for the columns sized by their content (MaxWidth > 0), at
// flexCap for the others (a Flex or fixed column takes spare width only
// as far as its widest cell needs). It is measured as
// rows arrive (measure, from add), never by scanning the loaded rows, and
// only grows: a key press costs nothing, and the columns do not jump while
// the user scrolls or filters. A column whose width has reached its cap is
// no longer measured. nil until a row has been measured.
type contentWidths []int

// flexCap bounds what a column without MaxWidth is measured to: wider
// than any terminal gives one column.
const flexCap = 400

// measuredCap is what column col is measured up to.
func measuredCap[T any](col *Column[T]) int {
	if col.MaxWidth > 0 {
		return col.MaxWidth
	}
	return flexCap
}

// measure takes row r's cells into the content widths, and lays the
// columns out again when one of them grew. That happens at most its cap
// times per column over the widget's life.
func (c *core[T]) measure(r T) {
	grew := false
	if len(c.content) != len(c.cols) {
		c.content = make(contentWidths, len(c.cols))
		grew = true // the first row: the Flex columns now go by their content
	}
	for i := range c.cols {
		col := &c.cols[i]
		limit := measuredCap(col)
		if c.content[i] >= limit {
			continue
		}
		if w := min(cellWidth(textsafe.Clean(col.Text(r))), limit); w > c.content[i] {
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

// want is the width column i asks for: the width of its widest cell and
// of its title, between its minimum and its cap (MaxWidth, else flexCap).
func want[T any](cols []Column[T], content contentWidths, i int) int {
	col := &cols[i]
	w := max(col.Width, 1)
	limit := measuredCap(col)
	need := cellWidth(textsafe.Clean(col.Title))
	if i < len(content) {
		need = max(need, content[i])
	}
	return max(w, min(need, limit))
}
