package datatable

import (
	"slices"
	"sort"
	"strings"
	"time"
)

// SetRows replaces every loaded row. The selected row keeps its line on
// screen when its id is among the new rows; otherwise the row now at the
// cursor's position is selected.
func (m *Model[T]) SetRows(rows []T) {
	c := m.c
	line, had := c.line()
	selID := ""
	if had {
		selID = c.id(c.row(c.sel))
	}
	oldCursor := c.cursor

	c.resetRows(len(rows))
	// New rows: their texts are made only while the query has words;
	// otherwise the first word typed makes them (syncHay).
	c.hay, c.hayOn = haystacks{}, len(c.want.words) > 0
	if c.hayOn {
		c.hay.reset(len(rows))
	}
	c.index = make(map[string]int32, len(rows))
	c.match = nil
	c.newAbove, c.sortedAbove = 0, 0
	clear(c.flash)
	clear(c.render.rows)
	c.sel = -1

	added := c.add(rows, nil)
	c.natural = added
	c.order = c.natural
	if c.sortCol >= 0 {
		c.order = c.sortedOrder()
	}
	c.visible = c.order
	pos := -1
	if c.filtering() {
		c.matchAll(false)
		c.visible, _ = keepList(make([]int32, 0, len(c.order)/4), c.order, -1, c.match)
	}
	if it, ok := c.index[selID]; ok && had {
		pos = c.locate(it)
	}
	if pos < 0 {
		pos = oldCursor
		if !had {
			line = 0
		}
	}
	c.anchor(line, pos)
}

// Append adds rows after the last loaded row (the next page). A row whose id
// is already loaded replaces it in place. With a sort on, new rows go to
// their sorted places; with a filter on, only matching rows are shown. The
// selection keeps its row and screen line.
func (m *Model[T]) Append(rows []T) {
	c := m.c
	line, had := c.line()
	dirty := false
	added := c.add(rows, func(it int32, _ bool, matchChanged bool) { dirty = dirty || matchChanged })
	c.natural = append(c.natural, added...)
	if c.sortCol < 0 {
		c.order = c.natural
	} else {
		c.order = c.insertSorted(c.order, added, false)
	}
	offset := c.offset
	c.place(added, line, had, dirty, c.sortCol < 0)
	if c.sortCol >= 0 && had {
		// The selected row kept its line: the view moved down by the rows
		// that sorted in above it, and as many went above the screen.
		c.sortedAbove = min(c.sortedAbove+max(c.offset-offset, 0), c.offset)
	}
}

// Upsert applies a refresh. Rows whose id is loaded are replaced in place
// and, when a cell's text changed, marked as changed until now+FlashFor.
// Unknown rows are inserted at their sorted place, or at the top in their
// given order when no sort is on. The selection keeps its row and screen
// line. Flashes that ended by now expire.
func (m *Model[T]) Upsert(rows []T, now time.Time) {
	c := m.c
	c.expire(now)
	line, had := c.line()
	dirty := false
	added := c.add(rows, func(it int32, changed, matchChanged bool) {
		if changed && c.flashFor > 0 {
			c.flash[it] = now.Add(c.flashFor)
		}
		dirty = dirty || matchChanged
	})
	if len(added) == 0 && !dirty {
		return
	}
	c.natural = slices.Insert(c.natural, 0, added...)
	if c.sortCol < 0 {
		c.order = c.natural
	} else {
		c.order = c.insertSorted(c.order, added, true)
	}
	c.place(added, line, had, dirty, false)
	c.countAbove(added)
}

// countAbove adds to newAbove the added rows that are shown above the first
// row on screen.
func (c *core[T]) countAbove(added []int32) {
	if c.offset == 0 || len(added) == 0 {
		return
	}
	is := make(map[int32]bool, len(added))
	for _, it := range added {
		is[it] = true
	}
	for _, it := range c.visible[:min(c.offset, len(c.visible))] {
		if is[it] {
			c.newAbove++
		}
	}
	c.newAbove = min(c.newAbove, c.offset)
}

// NewAbove is the number of rows a refresh (Upsert) put above the first
// row on screen since the view last showed the top of the list: the "↑ 5
// new" mark. It falls as the view scrolls up and is 0 at the top (the Top
// key, or SetRows).
func (m Model[T]) NewAbove() int { return m.c.newAbove }

// add stores rows: known ids are replaced in place (replaced is told about
// each), unknown ones are appended to items and returned.
func (c *core[T]) add(rows []T, replaced func(it int32, changed, matchChanged bool)) []int32 {
	added := make([]int32, 0, len(rows))
	for _, r := range rows {
		id := c.id(r)
		if it, ok := c.index[id]; ok {
			changed, matchChanged := c.replace(it, r)
			if replaced != nil {
				replaced(it, changed, matchChanged)
			}
			continue
		}
		it := int32(c.count())
		c.addRow(r)
		if c.hayOn {
			c.hay.add(c.haystack(r))
		}
		c.measure(r)
		c.index[id] = it
		added = append(added, it)
	}
	return added
}

// replace puts r in place of item it. changed: a cell's text differs;
// matchChanged: whether it matches the filter changed.
func (c *core[T]) replace(it int32, r T) (changed, matchChanged bool) {
	old := c.row(it)
	for i := range c.cols {
		if c.cols[i].Text(old) != c.cols[i].Text(r) {
			changed = true
			break
		}
	}
	c.setRow(it, r)
	if changed {
		delete(c.render.rows, it)
		c.measure(r)
	}
	// Keep may read fields that no cell shows: with one on, the row is
	// tested even when its text is the same.
	if (c.hayOn && c.hay.set(it, c.haystack(r))) || c.query.Keep != nil {
		if c.filtering() {
			c.growBits()
			was := c.bit(it)
			matchChanged = c.matchItem(it) != was
		}
	}
	return changed, matchChanged
}

// place brings visible and the selection up to date after rows were added
// to order. appended: the added rows are at the end of order.
func (c *core[T]) place(added []int32, line int, had, dirty, appended bool) {
	pos := -1
	switch {
	case !c.filtering():
		c.visible = c.order
		if had {
			pos = c.locate(c.sel, c.cursor, c.cursor+len(added))
		}
	case appended && !dirty:
		c.growBits()
		for _, it := range added {
			if c.matchItem(it) {
				c.visible = append(c.visible, it)
			}
		}
		pos = c.cursor
	default:
		c.growBits()
		for _, it := range added {
			c.matchItem(it)
		}
		c.visible, pos = keepList(make([]int32, 0, len(c.visible)+len(added)), c.order, c.sel, c.match)
	}
	if !had || pos < 0 {
		c.anchor(line, max(pos, 0))
		return
	}
	c.anchor(line, pos)
}

// insertSorted merges added into the sorted order: each added row goes
// before (newFirst) or after the rows that compare equal to it.
func (c *core[T]) insertSorted(order, added []int32, newFirst bool) []int32 {
	if len(added) == 0 {
		return order
	}
	cmp := c.compare()
	added = slices.Clone(added)
	slices.SortStableFunc(added, cmp)
	out := make([]int32, 0, len(order)+len(added))
	from := 0
	for _, a := range added {
		rest := order[from:]
		at := sort.Search(len(rest), func(i int) bool {
			d := cmp(rest[i], a)
			return d > 0 || (newFirst && d == 0)
		})
		out = append(out, rest[:at]...)
		out = append(out, a)
		from += at
	}
	return append(out, order[from:]...)
}

// compare orders items by the sort column: by its Group first (A → Z in
// either direction), then by Less in the sort's direction.
func (c *core[T]) compare() func(a, b int32) int {
	less, group := c.cols[c.sortCol].Less, c.cols[c.sortCol].Group
	by := func(a, b int32) int { return less(c.row(a), c.row(b)) }
	if c.sortDesc {
		by = func(a, b int32) int { return less(c.row(b), c.row(a)) }
	}
	if group == nil {
		return by
	}
	return func(a, b int32) int {
		if g := strings.Compare(group(c.row(a)), group(c.row(b))); g != 0 {
			return g
		}
		return by(a, b)
	}
}

// SortBy sorts the rows by the column with this key, stably, descending when
// desc. An empty key restores the natural order; an unknown or unsortable
// column is ignored. The selected row keeps its screen line.
func (m *Model[T]) SortBy(key string, desc bool) {
	c := m.c
	col := -1
	if key != "" {
		col = slices.IndexFunc(c.cols, func(k Column[T]) bool { return k.Key == key })
		if col < 0 || c.cols[col].Less == nil {
			return
		}
	}
	if col == c.sortCol && (col < 0 || desc == c.sortDesc) {
		return
	}
	line, had := c.line()
	c.sortCol, c.sortDesc = col, desc && col >= 0
	if col < 0 {
		c.order = c.natural
	} else {
		c.order = c.sortedOrder()
	}
	c.render.header = ""
	c.sortedAbove = 0
	pos := 0
	if c.filtering() {
		c.visible, pos = keepList(make([]int32, 0, len(c.visible)), c.order, c.sel, c.match)
	} else {
		c.visible = c.order
		if had {
			pos = c.locate(c.sel)
		}
	}
	if !had {
		line = 0
	}
	c.anchor(line, max(pos, 0))
}
