package datatable

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"paydash/backend/textsafe"
)

// placed is a column as laid out at the current width.
type placed struct {
	col   int // index in cols
	width int
	align lipgloss.Position
}

// renderCache keeps what View draws between frames.
type renderCache struct {
	rows    map[int32]rowCache  // rendered rows, by item; only rows that were on screen
	header  string              // "" = not rendered yet
	blank   string              // an empty line of the full width
	special [4]string           // loading, end, empty, no-match rows as last rendered
	paints  [paintCount]painter // by style slot, see paint
	painted bool
	sizeHnt int
	buf     []byte // scratch for row bodies
	lineBuf []byte // scratch for lines with toned cells
	hayBuf  []byte // scratch for haystacks
}

// rowCache is one row's rendering: body is the cells (the part right of the
// gutter), line the whole styled line for the state it was drawn in.
type rowCache struct {
	body, line string
	state      uint8
	toned      bool // body holds toned cells, each ended by cellEnd
}

// cellEnd ends a toned cell's text in a cached row body; the row's line
// replaces it with a reset and the row style's own sequence, so that the
// rest of the row keeps its style (the selected row's reverse video). Cell
// text never holds it: textsafe.Clean turns control characters into spaces.
const cellEnd = "\x00"

// sgrReset ends every style.
const sgrReset = "\x1b[m"

const (
	stateSelected uint8 = 1 << iota
	stateFlashed
)

// Style slots of renderCache.paints.
const (
	paintHeader = iota
	paintCell
	paintSelected
	paintFlashed
	paintLoading
	paintEnd
	paintDimmed
	paintTone  // the painter of tone t is paints[paintTone+t-1]
	paintCount = paintTone + int(toneCount) - 1
)

// invalidate drops every rendering (width, layout or styles changed).
func (c *core[T]) invalidate() {
	clear(c.render.rows)
	c.render.header = ""
	c.render.special = [4]string{}
	c.render.blank = strings.Repeat(" ", c.width)
	c.render.painted = false
}

// relayout fits the columns to the width: every shown column gets its
// minimum width, the columns with the lowest Priority are dropped while the
// minimums (and the one-cell gaps) do not fit, the columns sized by their
// content grow to what they need (highest Priority first), and what is
// left over goes to the Flex columns whose cells are cut, in proportion
// to what each lacks and never beyond its widest cell, then likewise to
// the fixed columns whose cells are cut (before any row is measured, the
// Flex columns share it by Flex). Width no column needs stays blank at
// the right.
func (c *core[T]) relayout() {
	c.layout = fitContent(c.cols, c.content, c.width-min(c.width, gutterWidth))
	c.invalidate()
}

// fitColumns lays out cols as if no row had been measured.
func fitColumns[T any](cols []Column[T], avail int) []placed {
	return fitContent(cols, nil, avail)
}

func fitContent[T any](cols []Column[T], content contentWidths, avail int) []placed {
	if avail <= 0 || len(cols) == 0 {
		return nil
	}
	shown := make([]bool, len(cols))
	count, need := 0, -columnGap
	for i := range cols {
		shown[i] = true
		count++
		need += max(cols[i].Width, 1) + columnGap
	}
	for need > avail && count > 1 {
		drop := -1
		for i := range cols {
			if shown[i] && (drop < 0 || cols[i].Priority <= cols[drop].Priority) {
				drop = i
			}
		}
		shown[drop] = false
		count--
		need -= max(cols[drop].Width, 1) + columnGap
	}
	out := make([]placed, 0, count)
	flex := 0
	for i := range cols {
		if shown[i] {
			w := max(cols[i].Width, 1)
			if count == 1 {
				w = min(w, avail)
			}
			out = append(out, placed{col: i, width: w, align: cols[i].Align})
			flex += max(cols[i].Flex, 0)
		}
	}
	spare := avail - need
	// The columns sized by their content, highest Priority first (ties:
	// leftmost), take what they need from the spare width.
	for spare > 0 {
		best := -1
		for j := range out {
			i := out[j].col
			if cols[i].MaxWidth > 0 && out[j].width < want(cols, content, i) &&
				(best < 0 || cols[i].Priority > cols[out[best].col].Priority) {
				best = j
			}
		}
		if best < 0 {
			break
		}
		add := min(want(cols, content, out[best].col)-out[best].width, spare)
		out[best].width += add
		spare -= add
	}
	if spare > 0 && len(content) == len(cols) {
		// The Flex columns first, then the fixed ones whose cells are cut;
		// what is left over stays blank at the right: no column needs it.
		isFlex := func(c *Column[T]) bool { return c.Flex > 0 }
		isFixed := func(c *Column[T]) bool { return c.Flex <= 0 && c.MaxWidth <= 0 }
		spare = shareByNeed(cols, content, out, spare, isFlex)
		spare = shareByNeed(cols, content, out, spare, isFixed)
		flex = 0
	}
	if spare > 0 && flex > 0 {
		// No row measured yet: the Flex columns share the rest.
		given := 0
		for j := range out {
			f := max(cols[out[j].col].Flex, 0)
			add := spare * f / flex
			out[j].width += add
			given += add
		}
		for j := 0; given < spare; j = (j + 1) % len(out) {
			if cols[out[j].col].Flex > 0 {
				out[j].width++
				given++
			}
		}
	}
	return out
}

// shareByNeed gives the spare width to the columns of one kind whose
// widest cell is cut, in proportion to what each lacks, none beyond what
// its widest cell (or title) needs; it returns the width left over.
func shareByNeed[T any](cols []Column[T], content contentWidths, out []placed, spare int, kind func(*Column[T]) bool) int {
	if spare <= 0 {
		return spare
	}
	lack := make([]int, len(out))
	total := 0
	for j := range out {
		if kind(&cols[out[j].col]) {
			lack[j] = max(want(cols, content, out[j].col)-out[j].width, 0)
			total += lack[j]
		}
	}
	if total <= spare {
		for j := range out {
			out[j].width += lack[j]
		}
		return spare - total
	}
	given := 0
	for j := range out {
		add := spare * lack[j] / total
		out[j].width += add
		lack[j] -= add
		given += add
	}
	for j := 0; given < spare; j = (j + 1) % len(out) {
		if lack[j] > 0 {
			out[j].width++
			lack[j]--
			given++
		}
	}
	return 0
}

// View draws the header and the rows on screen: exactly Height lines of
// exactly Width cells ("" when either is 0).
func (m Model[T]) View() string {
	c := m.c
	if c == nil || c.width <= 0 || c.height <= 0 {
		return ""
	}
	var b strings.Builder
	b.Grow(c.render.sizeHnt)
	b.WriteString(c.headerLine())
	h := c.bodyHeight()
	n := len(c.visible)
	line := 0
	for ; line < h && c.offset+line < n; line++ {
		pos := c.offset + line
		b.WriteByte('\n')
		b.WriteString(c.rowLine(c.visible[pos], pos == c.cursor))
	}
	if line < h && c.offset+line == n && c.extraLine() {
		b.WriteByte('\n')
		b.WriteString(c.specialLine())
		line++
	}
	for ; line < h; line++ {
		b.WriteByte('\n')
		b.WriteString(c.render.blank)
	}
	c.evict()
	c.render.sizeHnt = b.Len()
	return b.String()
}

// evict keeps the row cache to about the rows near the screen.
func (c *core[T]) evict() {
	h := max(c.bodyHeight(), 1)
	if len(c.render.rows) <= 4*h+64 {
		return
	}
	keep := make(map[int32]rowCache, 2*h)
	for p := max(c.offset-h/2, 0); p < min(c.offset+h+h/2, len(c.visible)); p++ {
		if e, ok := c.render.rows[c.visible[p]]; ok {
			keep[c.visible[p]] = e
		}
	}
	c.render.rows = keep
}

// rowLine is item it's line, from the cache when its state is unchanged.
func (c *core[T]) rowLine(it int32, selected bool) string {
	var st uint8
	if selected {
		st |= stateSelected
	}
	if len(c.flash) > 0 {
		if _, ok := c.flash[it]; ok {
			st |= stateFlashed
		}
	}
	e, ok := c.render.rows[it]
	if ok && e.state == st {
		return e.line
	}
	if !ok {
		e.body, e.toned = c.renderBody(c.row(it))
	}
	var mark [gutterWidth]byte
	mark[0], mark[1] = ' ', ' '
	slot := paintCell
	if st&stateFlashed != 0 {
		mark[1] = FlashMarker
		slot = paintFlashed
	}
	if st&stateSelected != 0 {
		mark[0] = SelectedMarker
		slot = paintSelected
	}
	e.line = c.paint(slot, string(mark[:min(c.width, gutterWidth)]), e.body, e.toned)
	e.state = st
	c.render.rows[it] = e
	return e.line
}

// renderBody renders a row's cells, right of the gutter; toned reports
// whether a cell has a tone (its text then ends in cellEnd).
func (c *core[T]) renderBody(r T) (body string, toned bool) {
	c.painters()
	buf := c.render.buf[:0]
	used := 0
	for j, l := range c.layout {
		if j > 0 {
			buf = append(buf, ' ')
			used++
		}
		col := &c.cols[l.col]
		pre := ""
		if col.Tone != nil {
			if t := col.Tone(r); t > ToneNone && t < toneCount {
				if p := c.render.paints[paintTone+int(t)-1]; p.simple && p.pre != "" {
					pre = p.pre
					toned = true
				}
			}
		}
		buf = appendCell(buf, textsafe.Clean(col.Text(r)), l.width, l.align, pre)
		used += l.width
	}
	for ; used < c.width-min(c.width, gutterWidth); used++ {
		buf = append(buf, ' ')
	}
	c.render.buf = buf
	return string(buf), toned
}

func (c *core[T]) headerLine() string {
	if c.render.header != "" {
		return c.render.header
	}
	buf := make([]byte, 0, c.width+16)
	used := 0
	for j, l := range c.layout {
		if j > 0 {
			buf = append(buf, ' ')
			used++
		}
		title := textsafe.Clean(c.cols[l.col].Title)
		if l.col == c.sortCol {
			arrow := " ▲"
			if c.sortDesc {
				arrow = " ▼"
			}
			if l.width > 2 {
				title = truncate(title, l.width-2) + arrow
			} else {
				title += arrow
			}
		}
		buf = appendCell(buf, title, l.width, l.align, "")
		used += l.width
	}
	for ; used < c.width-min(c.width, gutterWidth); used++ {
		buf = append(buf, ' ')
	}
	c.render.header = c.paint(paintHeader, strings.Repeat(" ", min(c.width, gutterWidth)), string(buf), false)
	return c.render.header
}

// specialLine is the row after the last row: loading, end of list, or the
// message of an empty list.
func (c *core[T]) specialLine() string {
	kind, slot := textEnd, paintEnd
	switch {
	case c.loading:
		kind, slot = textLoading, paintLoading
	case len(c.visible) == 0 && c.filtering():
		kind, slot = textNoMatch, paintDimmed
	case len(c.visible) == 0:
		kind, slot = textEmpty, paintDimmed
	}
	if c.render.special[kind] == "" {
		w := c.width - min(c.width, gutterWidth)
		text := textsafe.Clean(c.texts[kind])
		c.render.special[kind] = c.paint(slot, strings.Repeat(" ", min(c.width, gutterWidth)), string(appendCell(nil, text, w, lipgloss.Left, "")), false)
	}
	return c.render.special[kind]
}

// painter applies one style to whole lines.
type painter struct {
	pre, suf string
	simple   bool // the style is only attributes and colours: wrap in pre/suf
	style    lipgloss.Style
}

func newPainter(s lipgloss.Style) painter {
	const probe = "x"
	out := s.Render(probe)
	if i := strings.Index(out, probe); i >= 0 && strings.Count(out, probe) == 1 && ansi.Strip(out) == probe {
		return painter{pre: out[:i], suf: out[i+len(probe):], simple: true}
	}
	return painter{style: s.Inline(true)}
}

// painters makes the painters of the styles, once per SetStyles.
func (c *core[T]) painters() {
	if c.render.painted {
		return
	}
	s := c.styles
	for i, st := range [paintCount]lipgloss.Style{s.Header, s.Cell, s.Selected, s.Flashed, s.Loading, s.End, s.Dimmed,
		s.Success, s.Warning, s.Held, s.Danger} {
		c.render.paints[i] = newPainter(st)
	}
	c.render.painted = true
}

// paint draws a line in the style of slot: the gutter and the body, whose
// toned cells (toned) end in cellEnd.
func (c *core[T]) paint(slot int, gutter, body string, toned bool) string {
	c.painters()
	p := c.render.paints[slot]
	if p.simple {
		if !toned {
			return p.pre + gutter + body + p.suf
		}
		// One allocation: each cellEnd becomes a reset and the row's style.
		buf := append(c.render.lineBuf[:0], p.pre...)
		buf = append(buf, gutter...)
		for {
			i := strings.Index(body, cellEnd)
			if i < 0 {
				break
			}
			buf = append(buf, body[:i]...)
			buf = append(buf, sgrReset...)
			buf = append(buf, p.pre...)
			body = body[i+len(cellEnd):]
		}
		buf = append(buf, body...)
		buf = append(buf, p.suf...)
		c.render.lineBuf = buf
		return string(buf)
	}
	if toned {
		// Style.Render would end the row's style at the first cell's
		// reset: the cells go plain under such a style.
		body = strings.ReplaceAll(ansi.Strip(body), cellEnd, "")
	}
	out := p.style.Render(gutter + body)
	if w := ansi.StringWidth(out); w > c.width {
		out = ansi.Truncate(out, c.width, "")
	} else if w < c.width {
		out += strings.Repeat(" ", c.width-w)
	}
	return out
}

// isASCII reports whether s is printable ASCII (one cell per byte).
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] >= 0x7f {
			return false
		}
	}
	return true
}

// truncate cuts s (cleaned text) to at most w cells, ending in "…" when cut.
func truncate(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if isASCII(s) {
		if len(s) <= w {
			return s
		}
		return s[:w-1] + "…"
	}
	return ansi.Truncate(s, w, "…")
}

// appendCell appends s (cleaned text) cut or padded to exactly w cells.
// A tone's escape sequence pre, when not "", goes before the text, and
// cellEnd after it: the padding stays in the row's style.
func appendCell(buf []byte, s string, w int, align lipgloss.Position, pre string) []byte {
	if w <= 0 {
		return buf
	}
	if pre != "" && s == "" {
		pre = ""
	}
	var sw int
	if isASCII(s) {
		if len(s) > w {
			buf = append(buf, pre...)
			buf = append(buf, s[:w-1]...)
			buf = append(buf, "…"...)
			if pre != "" {
				buf = append(buf, cellEnd...)
			}
			return buf
		}
		sw = len(s)
	} else {
		sw = ansi.StringWidth(s)
		if sw > w {
			s = ansi.Truncate(s, w, "…")
			sw = ansi.StringWidth(s)
		}
	}
	gap := w - sw
	left := 0
	switch {
	case align >= lipgloss.Right:
		left = gap
	case align > lipgloss.Left:
		left = int(float64(gap) * float64(align))
	}
	for range left {
		buf = append(buf, ' ')
	}
	buf = append(buf, pre...)
	buf = append(buf, s...)
	if pre != "" {
		buf = append(buf, cellEnd...)
	}
	for range gap - left {
		buf = append(buf, ' ')
	}
	return buf
}
