package datatable

import (
	"bytes"
	"time"
)

// Remove takes the rows with these ids out of the table (a refresh found
// that they left the list: another state, another period). Unknown ids are
// ignored. The selected row keeps its screen line; when it is the one
// removed, the row that took its place is selected. Flashes and the count
// of new rows above the screen are kept for the rows that stay.
//
// Rows live at fixed item indices, so removing rebuilds the indices: it
// costs a pass over the loaded rows, which a refresh that removes rows can
// afford (it is rare next to a key press).
func (m *Model[T]) Remove(ids ...string) int {
	c := m.c
	drop := make(map[int32]bool, len(ids))
	for _, id := range ids {
		if it, ok := c.index[id]; ok {
			drop[it] = true
		}
	}
	if len(drop) == 0 {
		return 0
	}
	flashes := make(map[string]time.Time, len(c.flash))
	for it, until := range c.flash {
		if !drop[it] {
			flashes[c.id(c.row(it))] = until
		}
	}
	// The rows above the screen that stay, for "↑ N new".
	above, removedAbove := c.newAbove, 0
	for _, it := range c.visible[:min(c.offset, len(c.visible))] {
		if drop[it] {
			removedAbove++
		}
	}
	keep := make([]T, 0, c.count()-len(drop))
	for _, it := range c.natural {
		if !drop[it] {
			keep = append(keep, c.row(it))
		}
	}
	m.SetRows(keep)
	for id, until := range flashes {
		if it, ok := c.index[id]; ok {
			c.flash[it] = until
		}
	}
	c.newAbove = min(max(above-removedAbove, 0), c.offset)
	return len(drop)
}

// RemoveWhere removes the loaded rows gone reports true for (see Remove),
// and returns how many went. gone gets each row by pointer and must only
// read it.
func (m *Model[T]) RemoveWhere(gone func(*T) bool) int {
	c := m.c
	var ids []string
	var tmp T
	for i := range int32(c.count()) {
		if r := c.rowRef(i, &tmp); gone(r) {
			ids = append(ids, c.id(*r))
		}
	}
	return m.Remove(ids...)
}

// RemoveNewest is RemoveWhere over the rows in the order they arrived,
// the last arrivals first (a refresh's rows come in at the top, pages at
// the bottom: for a list read newest first, that is newest first). look
// says of a row whether to remove it, and whether it is past the part
// looked at (older than what a refresh read); the walk stops after
// pastRun rows in a row are past, so its cost follows the rows refreshed,
// not the rows loaded. It returns how many went.
func (m *Model[T]) RemoveNewest(pastRun int, look func(*T) (gone, past bool)) int {
	c := m.c
	var ids []string
	run := 0
	var tmp T
	for _, it := range c.natural {
		r := c.rowRef(it, &tmp)
		gone, past := look(r)
		if gone {
			ids = append(ids, c.id(*r))
		}
		if !past {
			run = 0
			continue
		}
		if run++; run >= pastRun {
			break
		}
	}
	return m.Remove(ids...)
}

// Matches reports whether r would be shown under the current filter (true
// when there is none), without storing it.
func (m Model[T]) Matches(r T) bool {
	c := m.c
	if !c.filtering() {
		return true
	}
	if len(c.want.words) > 0 {
		text := c.haystack(r)
		for _, w := range c.want.words {
			if !bytes.Contains(text, w) {
				return false
			}
		}
	}
	return c.want.keep == nil || c.want.keep(&r)
}

// IDs are the ids of the loaded rows, filtered out or not, in no
// particular order.
func (m Model[T]) IDs() []string {
	out := make([]string, 0, len(m.c.index))
	for id := range m.c.index {
		out = append(out, id)
	}
	return out
}
