// Package datatable is the list widget for large data: a generic, pure
// Bubble Tea model that scrolls through up to millions of loaded rows.
//
// Only the visible rows are rendered, and a row's rendering is kept until
// the row, the width, the column layout, the styles or its selected/flash
// state change, so a key press costs the same with a thousand rows as with
// a million. The selection is anchored to a row id: pages arriving, a
// refresh, a sort or a filter never move what the user is looking at.
//
// The widget does no I/O and keeps no goroutines or timers: the caller
// passes the time where it matters (Upsert, Tick), asks for the next page
// when NearEnd reports true, and feeds the answers back with Append.
//
// The filter (SetFilter, SetQuery) searches a lower-cased copy of each row's
// cleaned cell text, built when the row arrives and packed into 64 KiB
// blocks (haystacks.go), so that a filter keystroke over 1,000,000 rows stays
// within about 10 ms. From 32,768 rows the search is split among GOMAXPROCS
// goroutines that end before the call returns.
//
// A Model shares its storage between copies, like a slice: keep the value
// Update returns and drop the old one.
package datatable

import (
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
)

// Column describes one column of rows of type T.
type Column[T any] struct {
	Key   string // names the column for SortBy
	Title string // the header text
	// Width is the minimum width in cells. Flex > 0 lets the column take
	// width left over once every shown column has its minimum and the
	// columns sized by their content have what they need: as much as its
	// widest cell loaded so far needs, shared with the other Flex columns
	// in proportion to what each lacks when there is not enough (by Flex
	// before any row has arrived). 0 = fixed at Width, unless width is
	// still left over once every Flex column has what it needs: then a
	// fixed column whose cells are cut takes what they need, too.
	Width, Flex int
	// MaxWidth, when above 0, sizes the column by its content: it gets the
	// width of its widest cell loaded so far (and of its title), at least
	// Width and at most MaxWidth, before Flex columns get the rest. Order
	// numbers and ids are not cut while a Flex column can give up room.
	MaxWidth int
	Align    lipgloss.Position // lipgloss.Left, Center or Right
	// Priority decides which columns are dropped, lowest first, when the
	// minimum widths do not fit; ties drop the rightmost column first.
	Priority int
	// Text is the cell text. It goes through textsafe.Clean before it is
	// shown or searched, and is cut with "…" to the column width.
	Text func(T) string
	// Less orders rows by this column (negative, zero, positive like
	// cmp.Compare); nil means the column cannot be sorted.
	Less func(a, b T) int
	// Group, when set, keeps rows of different groups apart in a sort by
	// this column: rows are ordered by their Group first, A → Z whichever
	// the direction, and only then by Less (or Rank) in the direction
	// chosen. An amount's group is its currency, so amounts of different
	// currencies are never ordered as bare numbers, and reversing the sort
	// reverses the amounts within each currency, not the currencies.
	Group func(T) string
	// Rank, when set, is a number per row that orders the rows exactly as
	// Less does (Less(a, b) < 0 exactly when Rank(a) < Rank(b), for rows
	// of one Group when the column has groups): SortBy
	// then sorts those numbers, read once per row, instead of calling
	// Less on the rows n·log n times, several times faster on large rows
	// (sortrank.go). ok false says a row has no such number (an id that is
	// not one): that sort uses Less. Less still places the rows that
	// arrive later.
	Rank func(T) (rank int64, ok bool)
	// Tone, when set, colours the cell's text (not its padding) in one of
	// the Styles' tones: a status that is settled, pending, held or
	// declined. Like Text it must depend on the row alone (or the row be
	// Redrawn): the row's drawing is cached.
	Tone func(T) Tone
}

// Config configures a Model.
type Config[T any] struct {
	ID      func(T) string // required: the row's stable identity
	Columns []Column[T]
	// FilterText, when set, is the text the filter searches instead of the
	// cells.
	FilterText func(T) string
	// NewStore, when set, makes the Store that keeps the rows (a packed
	// form of large rows); nil keeps them in a []T.
	NewStore func() Store[T]
	Styles   Styles // the zero value is plain text
	// FlashFor is how long a row changed by Upsert is marked. Zero means
	// DefaultFlashFor; negative disables flashing.
	FlashFor time.Duration
	// Texts of the special rows; empty means the defaults below.
	LoadingText, EndText, EmptyText, NoMatchText string
}

// Defaults of Config.
const (
	DefaultFlashFor    = 3 * time.Second
	DefaultLoadingText = "Loading more…"
	DefaultEndText     = "— end of list —"
	DefaultEmptyText   = "No rows"
	DefaultNoMatchText = "No loaded row matches the filter"
)

// Markers in the two-cell gutter left of every row. They carry the
// selection and the flash without colour.
const (
	SelectedMarker = '>'
	FlashMarker    = '*'
	gutterWidth    = 2
	columnGap      = 1
)

// Model is the widget. Create it with New.
type Model[T any] struct {
	// KeyMap holds the navigation keys; replace it to remap them.
	KeyMap KeyMap
	c      *core[T]
}

// New returns an empty widget of size 0×0 (call SetSize).
func New[T any](cfg Config[T]) Model[T] {
	if cfg.ID == nil {
		panic("datatable: Config.ID is required")
	}
	c := &core[T]{
		id:       cfg.ID,
		cols:     append([]Column[T](nil), cfg.Columns...),
		filterFn: cfg.FilterText,
		styles:   cfg.Styles,
		flashFor: cfg.FlashFor,
		index:    map[string]int32{},
		flash:    map[int32]time.Time{},
		sel:      -1,
		sortCol:  -1,
		texts: [4]string{
			orDefault(cfg.LoadingText, DefaultLoadingText),
			orDefault(cfg.EndText, DefaultEndText),
			orDefault(cfg.EmptyText, DefaultEmptyText),
			orDefault(cfg.NoMatchText, DefaultNoMatchText),
		},
	}
	if cfg.NewStore != nil {
		c.store = cfg.NewStore()
	}
	c.emptyDefault = c.texts[textEmpty]
	c.endDefault = c.texts[textEnd]
	if c.flashFor == 0 {
		c.flashFor = DefaultFlashFor
	}
	for i := range c.cols {
		if c.cols[i].Text == nil {
			c.cols[i].Text = func(T) string { return "" }
		}
	}
	c.render.rows = map[int32]rowCache{}
	c.relayout()
	return Model[T]{KeyMap: DefaultKeyMap(), c: c}
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// WheelLines is how many rows one step of the mouse wheel scrolls.
const WheelLines = 3

// Update handles key presses through KeyMap and the mouse: the wheel
// scrolls (WheelLines rows a step, the selection keeping its line), a left
// click on a row selects it. Mouse coordinates are relative to the View's
// top-left cell (the header is line 0). Every other message is ignored.
func (m Model[T]) Update(msg tea.Msg) (Model[T], tea.Cmd) {
	if m.c == nil {
		return m, nil
	}
	switch msg := msg.(type) {
	case tea.MouseWheelMsg:
		m.wheel(msg.Button)
		return m, nil
	case tea.MouseClickMsg:
		if msg.Button == tea.MouseLeft {
			if pos, ok := m.RowAt(msg.X, msg.Y); ok {
				m.c.cursor = pos
				m.c.clampView()
			}
		}
		return m, nil
	}
	k, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return m, nil
	}
	c := m.c
	s := k.String()
	switch {
	case matches(s, m.KeyMap.Down):
		c.moveTo(c.cursor+1, 0)
	case matches(s, m.KeyMap.Up):
		c.moveTo(c.cursor-1, 0)
	case matches(s, m.KeyMap.PageDown):
		h := c.bodyHeight()
		c.moveTo(c.cursor+h, h)
	case matches(s, m.KeyMap.PageUp):
		h := c.bodyHeight()
		c.moveTo(c.cursor-h, -h)
	case matches(s, m.KeyMap.Top):
		c.moveTo(0, -c.offset)
	case matches(s, m.KeyMap.Bottom):
		c.moveTo(len(c.visible)-1, 0)
	}
	return m, nil
}

// wheel scrolls by WheelLines rows: the view and the selection move
// together, so the selected row keeps its line until an end is reached.
func (m Model[T]) wheel(b tea.MouseButton) {
	c := m.c
	switch b {
	case tea.MouseWheelDown:
		c.moveTo(c.cursor+WheelLines, WheelLines)
	case tea.MouseWheelUp:
		c.moveTo(c.cursor-WheelLines, -WheelLines)
	}
}

// RowAt is the position (among the rows the filter shows, as Cursor) of
// the row drawn at x, y of the View (the header is line 0); false on the
// header, a special row, blank space or outside the View.
func (m Model[T]) RowAt(x, y int) (int, bool) {
	c := m.c
	if x < 0 || x >= c.width || y < 1 || y > c.bodyHeight() {
		return 0, false
	}
	pos := c.offset + y - 1
	if pos >= len(c.visible) {
		return 0, false
	}
	return pos, true
}

// SetSize sets the size of the View: width cells by height lines, the
// header line included.
func (m *Model[T]) SetSize(width, height int) {
	c := m.c
	width, height = max(width, 0), max(height, 0)
	if width != c.width {
		c.width = width
		c.relayout()
	}
	if height != c.height {
		line, _ := c.line()
		c.height = height
		c.anchor(line, c.cursor)
	}
}

// Width is the width of the View in cells.
func (m Model[T]) Width() int { return m.c.width }

// Height is the height of the View in lines.
func (m Model[T]) Height() int { return m.c.height }

// SetStyles replaces the styles (for example once the background colour is
// known).
func (m *Model[T]) SetStyles(s Styles) {
	m.c.styles = s
	m.c.invalidate()
}

// Len is the number of loaded rows, filtered out or not.
func (m Model[T]) Len() int { return m.c.count() }

// Rows returns a copy of the loaded rows in the current sort order,
// including rows the filter hides (for an export of the loaded rows).
func (m Model[T]) Rows() []T {
	c := m.c
	out := make([]T, len(c.order))
	for i, it := range c.order {
		out[i] = c.row(it)
	}
	return out
}

// Selected returns the row under the cursor; false when no row is shown.
func (m Model[T]) Selected() (T, bool) {
	c := m.c
	if c.sel < 0 {
		var zero T
		return zero, false
	}
	return c.row(c.sel), true
}

// SelectedID is the id of the selected row, "" when none.
func (m Model[T]) SelectedID() string {
	if m.c.sel < 0 {
		return ""
	}
	return m.c.id(m.c.row(m.c.sel))
}

// SelectByID moves the cursor to the row with this id. It reports false,
// and leaves the cursor alone, when the row is not loaded or the filter
// hides it. A row already on screen keeps its line; another is centred.
func (m *Model[T]) SelectByID(id string) bool {
	c := m.c
	it, ok := c.index[id]
	if !ok || (c.filtering() && !c.bit(it)) {
		return false
	}
	pos := c.locate(it)
	if pos < 0 {
		return false
	}
	c.jump(pos)
	return true
}

// Redraw drops the cached drawing of the row with this id, for a cell
// whose text depends on state outside the row (an action under way on it);
// the next View draws it again, and its cells are measured again (a
// column sized by its content widens for a longer text). Unknown ids are
// ignored.
func (m *Model[T]) Redraw(id string) {
	if it, ok := m.c.index[id]; ok {
		delete(m.c.render.rows, it)
		m.c.measure(m.c.row(it))
	}
}

// Cursor is the position of the selected row among the rows the filter
// shows (0 when there is none).
func (m Model[T]) Cursor() int { return m.c.cursor }

// SetCursor selects the row at this position among the rows the filter
// shows (clamped), scrolling as little as needed.
func (m *Model[T]) SetCursor(pos int) {
	m.c.jump(pos)
}

// Offset is the position of the first row on screen.
func (m Model[T]) Offset() int { return m.c.offset }

// SelectedLine is the line of View that draws the selected row (the
// header is line 0), and false when no row is selected or it is not on
// screen.
func (m Model[T]) SelectedLine() (int, bool) {
	line, ok := m.c.line()
	if !ok || line < 0 || line >= m.c.bodyHeight() {
		return 0, false
	}
	return 1 + line, true
}

// SetLoading shows or hides the "loading more" row after the last row.
func (m *Model[T]) SetLoading(on bool) {
	if m.c.loading != on {
		m.c.loading = on
		m.c.clampView()
	}
}

// Loading reports whether the loading row is shown.
func (m Model[T]) Loading() bool { return m.c.loading }

// SetEnd shows or hides the "end of list" row: set it when the server has
// no more pages.
func (m *Model[T]) SetEnd(on bool) {
	if m.c.end != on {
		m.c.end = on
		m.c.clampView()
	}
}

// End reports whether the end-of-list row is shown.
func (m Model[T]) End() bool { return m.c.end }

// NearEnd reports whether the cursor is within one screen of the last
// loaded row (of those the filter shows): the caller should ask for the next
// page unless one is loading or the list has ended.
func (m Model[T]) NearEnd() bool {
	c := m.c
	return len(c.visible)-1-c.cursor < max(c.bodyHeight(), 1)
}

// Tick lets flashes that ended by now expire.
// SetEmptyText changes what an empty list says, e.g. that loading failed
// rather than that there is nothing to show; "" restores the configured text.
func (m *Model[T]) SetEmptyText(text string) {
	if text == "" {
		text = m.c.emptyDefault
	}
	if m.c.texts[textEmpty] != text {
		m.c.texts[textEmpty] = text
		m.c.render.special[textEmpty] = ""
	}
}

// SetEndText changes what the "end of list" row says, e.g. that older
// rows were left out; "" restores the configured text.
func (m *Model[T]) SetEndText(text string) {
	if text == "" {
		text = m.c.endDefault
	}
	if m.c.texts[textEnd] != text {
		m.c.texts[textEnd] = text
		m.c.render.special[textEnd] = ""
	}
}

func (m *Model[T]) Tick(now time.Time) { m.c.expire(now) }

// NextFlashExpiry is when the earliest flash ends, so the caller can
// schedule a Tick (tea.Tick) for it; false when nothing flashes.
func (m Model[T]) NextFlashExpiry() (time.Time, bool) {
	var next time.Time
	for _, t := range m.c.flash {
		if next.IsZero() || t.Before(next) {
			next = t
		}
	}
	return next, !next.IsZero()
}

// Flashing reports whether the row with this id is marked as changed.
func (m Model[T]) Flashing(id string) bool {
	it, ok := m.c.index[id]
	if !ok {
		return false
	}
	_, ok = m.c.flash[it]
	return ok
}

// FilterText is the filter's text as last set (Query.Text).
func (m Model[T]) FilterText() string { return m.c.query.Text }

// Filtered is the number of loaded rows the filter shows (Len when no
// filter is set).
func (m Model[T]) Filtered() int { return len(m.c.visible) }

// SortedAbove is the number of rows that arriving pages (Append) put
// above the first row on screen while a sort is on, since the view last
// showed the top of the list or the sort changed: rows read for the sort
// that sorted in above what the user is looking at (the selected row
// keeps its line). It falls as the view scrolls up and is 0 at the top.
func (m Model[T]) SortedAbove() int { return m.c.sortedAbove }

// SortKey is the key of the column the rows are sorted by ("" for the
// natural order) and whether the order is descending.
func (m Model[T]) SortKey() (key string, desc bool) {
	if m.c.sortCol < 0 {
		return "", false
	}
	return m.c.cols[m.c.sortCol].Key, m.c.sortDesc
}

// ShownColumns lists the keys of the columns that fit the current width, in
// display order.
func (m Model[T]) ShownColumns() []string {
	out := make([]string, 0, len(m.c.layout))
	for _, l := range m.c.layout {
		out = append(out, m.c.cols[l.col].Key)
	}
	return out
}
