package datatable

import (
	"time"
)

// core is the Model's storage, shared by the copies of one Model.
//
// Rows live in items and never move: an item index (int32) names a row for
// as long as the rows are not replaced by SetRows. The orders are slices of
// item indices: natural (arrival order), order (natural, or sorted when a
// sort is on) and visible (order, or its members matching the filter). When
// no sort is on, order is natural; when no filter is on, visible is order.
type core[T any] struct {
	id           func(T) string
	cols         []Column[T]
	filterFn     func(T) string
	styles       Styles
	flashFor     time.Duration
	texts        [4]string // loading, end, empty, no match
	emptyDefault string    // the configured empty text, restored by SetEmptyText("")
	endDefault   string    // the configured end text, restored by SetEndText("")

	items []T      // the rows, when store is nil
	store Store[T] // the rows, when Config.NewStore made one
	// hay is per item the lower-cased, cleaned text the filter searches,
	// made when the query first has free words and kept with the rows
	// (hayOn): a row costs no filter text until a word is searched
	// (syncHay).
	hay     haystacks
	hayOn   bool
	index   map[string]int32
	natural []int32
	order   []int32
	visible []int32
	match   []uint64 // per item: matches the query (valid while filtering)
	flash   map[int32]time.Time

	sortCol  int // -1: natural order
	sortDesc bool
	query    Query[T]
	want     matcher[T] // query, prepared

	width, height  int
	cursor, offset int   // positions in visible
	sel            int32 // the selected item, visible[cursor]; -1 when none
	loading, end   bool
	// newAbove counts rows a refresh put above the first row on screen
	// since the user last saw the top (NewAbove).
	newAbove int
	// sortedAbove counts rows pages put above the first row on screen
	// while a sort is on (SortedAbove).
	sortedAbove int

	layout  []placed
	content contentWidths // per column: the widest cell seen (widths.go)
	render  renderCache
}

const (
	textLoading = iota
	textEnd
	textEmpty
	textNoMatch
)

func (c *core[T]) bodyHeight() int { return max(c.height-1, 0) }

// extraLine reports whether a special row follows the rows (loading, end of
// list, or the empty-list message).
func (c *core[T]) extraLine() bool { return c.loading || c.end || len(c.visible) == 0 }

// line is the screen line of the selection, and whether there is one.
func (c *core[T]) line() (int, bool) {
	if c.sel < 0 {
		return 0, false
	}
	return c.cursor - c.offset, true
}

// clampView makes cursor, sel and offset consistent: the cursor on a row,
// the cursor's line on screen, no empty space at the bottom that rows could
// fill, and the special row shown when the cursor is on the last row.
func (c *core[T]) clampView() {
	n := len(c.visible)
	if n == 0 {
		c.cursor, c.offset, c.sel, c.newAbove, c.sortedAbove = 0, 0, -1, 0, 0
		return
	}
	c.cursor = min(max(c.cursor, 0), n-1)
	c.sel = c.visible[c.cursor]
	h := max(c.bodyHeight(), 1)
	total := n
	if c.extraLine() {
		total++
	}
	if c.cursor == n-1 && total > n && h > 1 {
		c.offset = max(c.offset, total-h)
	}
	c.offset = min(c.offset, c.cursor)
	c.offset = max(c.offset, c.cursor-h+1)
	c.offset = min(c.offset, max(total-h, 0))
	c.offset = max(c.offset, 0)
	// Scrolling up past rows shows them: no more are unseen than are above.
	c.newAbove = min(c.newAbove, c.offset)
	c.sortedAbove = min(c.sortedAbove, c.offset)
}

// moveTo puts the cursor at pos after scrolling by scroll lines.
func (c *core[T]) moveTo(pos, scroll int) {
	c.offset += scroll
	c.cursor = pos
	c.clampView()
}

// jump selects pos, keeping the view if pos is on screen and centring it
// otherwise.
func (c *core[T]) jump(pos int) {
	h := max(c.bodyHeight(), 1)
	if pos < c.offset || pos >= c.offset+h {
		c.offset = pos - h/2
	}
	c.cursor = pos
	c.clampView()
}

// anchor puts the cursor at pos on screen line line (as far as the ends of
// the list allow).
func (c *core[T]) anchor(line, pos int) {
	c.cursor = pos
	c.offset = pos - line
	c.clampView()
}

// locate is the position of item it in visible, or -1. The hints are
// positions tried before the linear search.
func (c *core[T]) locate(it int32, hints ...int) int {
	for _, p := range hints {
		if p >= 0 && p < len(c.visible) && c.visible[p] == it {
			return p
		}
	}
	for p, v := range c.visible {
		if v == it {
			return p
		}
	}
	return -1
}

func (c *core[T]) expire(now time.Time) {
	for it, until := range c.flash {
		if !now.Before(until) {
			delete(c.flash, it)
		}
	}
}

func (c *core[T]) filtering() bool { return c.query.filtering() }

func (c *core[T]) bit(it int32) bool { return c.match[it>>6]&(1<<(uint(it)&63)) != 0 }

func (c *core[T]) setBit(it int32, on bool) {
	if on {
		c.match[it>>6] |= 1 << (uint(it) & 63)
	} else {
		c.match[it>>6] &^= 1 << (uint(it) & 63)
	}
}

func (c *core[T]) growBits() {
	if need := (c.count() + 63) / 64; len(c.match) < need {
		c.match = append(c.match, make([]uint64, need-len(c.match))...)
	}
}

// keepList filters list into dst (which may be list[:0]), keeping the items
// whose bit is set in match, and returns the position in the result of the selected item or, when the selected item
// was dropped, of the kept item nearest to it in list (the following one on
// a tie); -1 when the selected item is not in list or nothing is kept.
func keepList(dst, list []int32, sel int32, match []uint64) ([]int32, int) {
	cur, selJ := -1, -1
	before, beforeJ, after, afterJ := -1, -1, -1, -1
	for j, it := range list {
		if it == sel {
			selJ = j
		}
		if match[it>>6]&(1<<(uint(it)&63)) == 0 {
			continue
		}
		switch {
		case it == sel:
			cur = len(dst)
		case selJ < 0:
			before, beforeJ = len(dst), j
		case after < 0:
			after, afterJ = len(dst), j
		}
		dst = append(dst, it)
	}
	if cur < 0 && selJ >= 0 {
		switch {
		case after >= 0 && (before < 0 || afterJ-selJ <= selJ-beforeJ):
			cur = after
		case before >= 0:
			cur = before
		}
	}
	return dst, cur
}
