package datatable

// Store keeps a Model's rows, by item index (0, 1, … in the order they were
// added). Without one (Config.NewStore nil) the rows are kept in a []T; a
// table of large rows can keep them packed instead and make each row again
// when it is read (the Payments list: docs/lists.md, "Memory per row").
//
// At must give back a row equal to the one put in: the widget reads a row
// whenever it draws, sorts, filters with Query.Keep or hands it out
// (Selected, Rows), and keeps nothing of it but its filter text.
type Store[T any] interface {
	Reset(capacity int) // drop every row
	Len() int
	Add(r T)           // the next item
	Set(it int32, r T) // replace item it
	At(it int32) T
}

// row is item it.
func (c *core[T]) row(it int32) T {
	if c.store != nil {
		return c.store.At(it)
	}
	return c.items[it]
}

// rowRef is item it by pointer, for callbacks that only read it: into the
// slice when the rows are kept in one, else into *tmp.
func (c *core[T]) rowRef(it int32, tmp *T) *T {
	if c.store != nil {
		*tmp = c.store.At(it)
		return tmp
	}
	return &c.items[it]
}

// count is the number of loaded rows.
func (c *core[T]) count() int {
	if c.store != nil {
		return c.store.Len()
	}
	return len(c.items)
}

func (c *core[T]) resetRows(capacity int) {
	if c.store != nil {
		c.store.Reset(capacity)
		return
	}
	c.items = make([]T, 0, capacity)
}

func (c *core[T]) addRow(r T) {
	if c.store != nil {
		c.store.Add(r)
		return
	}
	c.items = append(c.items, r)
}

func (c *core[T]) setRow(it int32, r T) {
	if c.store != nil {
		c.store.Set(it, r)
		return
	}
	c.items[it] = r
}
