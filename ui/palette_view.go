package ui

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"paydash/backend/textsafe"
	"paydash/keys"
)

// helpLine is the palette's key help.
func (p *paletteModal) helpLine(width int) string {
	return helpLine(p.th, width,
		[2]string{"type", "filter"},
		[2]string{untypedLabel(p.km.List.Up.Keys()) + "/" + untypedLabel(p.km.List.Down.Keys()), "choose"},
		[2]string{keys.Label(p.km.List.Open.Keys()), "run"},
		[2]string{keys.Label(p.km.List.Close.Keys()), "close"},
		[2]string{"ctrl+c", "quit"})
}

// entryLines draws entry e in width cells: the key, the name (the
// letters the typed text matched underlined), and for an entry that
// cannot act now the reason, whole: on the same line when it fits, else
// wrapped under the name. A greyed entry is muted; the cursor's entry is
// marked "> " and drawn selected.
func (p *paletteModal) entryLines(e paletteEntry, marks []int, width int, selected bool) []string {
	base := p.th.Text
	switch {
	case selected:
		base = p.th.Selected
	case e.reason != "":
		base = p.th.Muted
	}
	label := textsafe.Line(e.label, 40)
	label = ansi.Truncate(label, p.labelW, "…")
	label += strings.Repeat(" ", p.labelW-ansi.StringWidth(label))
	mark := "  "
	if selected {
		mark = "> "
	}
	indent := len(mark) + p.labelW + 2
	room := max(width-indent, 1)
	name := e.name
	if textsafe.Clean(name) != name || ansi.StringWidth(name) > room {
		// Names are the keymap's short descriptions; one that is not clean
		// or too long for the line is shown cleaned and cut, unmarked.
		name, marks = ansi.Truncate(textsafe.Line(name, 80), room, "…"), nil
	}
	var b strings.Builder
	b.WriteString(base.Render(mark + label + "  "))
	b.WriteString(markedName(base, name, marks))
	used := indent + ansi.StringWidth(name)
	suffix := ""
	switch {
	case e.view && e.current:
		suffix = " (view, current)"
	case e.view:
		suffix = " (view)"
	}
	if used+ansi.StringWidth(suffix) <= width {
		b.WriteString(base.Render(suffix))
		used += ansi.StringWidth(suffix)
	}
	lines := []string{b.String()}
	if e.reason == "" {
		return padLines(lines, base, width)
	}
	reason := "— " + textsafe.Clean(e.reason)
	if used+1+ansi.StringWidth(reason) <= width {
		lines[0] += base.Render(" " + reason)
		return padLines(lines, base, width)
	}
	pad := strings.Repeat(" ", indent)
	for _, l := range wrapWords(reason, room) {
		lines = append(lines, base.Render(pad+l))
	}
	return padLines(lines, base, width)
}

// padLines fills each line to width in style st (the selection's colour
// reaches the edge).
func padLines(lines []string, st lipgloss.Style, width int) []string {
	for i, l := range lines {
		if w := ansi.StringWidth(l); w < width {
			lines[i] = l + st.Render(strings.Repeat(" ", width-w))
		}
	}
	return lines
}

// markedName is name in style st with the bytes at marks underlined.
func markedName(st lipgloss.Style, name string, marks []int) string {
	if len(marks) == 0 {
		return st.Render(name)
	}
	hi := st.Underline(true)
	var b strings.Builder
	start, on := 0, false
	flush := func(end int) {
		if end > start {
			if on {
				b.WriteString(hi.Render(name[start:end]))
			} else {
				b.WriteString(st.Render(name[start:end]))
			}
		}
		start = end
	}
	mi := 0
	for i := range name { // i: the byte offset of each rune
		hit := mi < len(marks) && marks[mi] == i
		if hit {
			mi++
		}
		if hit != on {
			flush(i)
			on = hit
		}
	}
	flush(len(name))
	return b.String()
}

// window is the shown entries that fit rows lines around the cursor, as
// [first, last): whole entries only, the cursor's about in the middle
// when the list is longer than the room.
func window(heights []int, cursor, rows int) (first, last int) {
	if len(heights) == 0 {
		return 0, 0
	}
	first, last = cursor, cursor+1
	used := heights[cursor]
	above := 0
	for first > 0 && used+heights[first-1] <= rows && above+heights[first-1] <= (rows-heights[cursor])/2 {
		first--
		used += heights[first]
		above += heights[first]
	}
	for last < len(heights) && used+heights[last] <= rows {
		used += heights[last]
		last++
	}
	for first > 0 && used+heights[first-1] <= rows {
		first--
		used += heights[first]
	}
	return first, last
}

func (p *paletteModal) View(maxWidth, maxHeight int) string {
	th := p.th
	// As wide as the longest entry with its reason on one line needs,
	// between 72 and 120 cells and within the window; measured over every
	// entry, so the box does not change its width as one types.
	inner := max(min(maxWidth-boxFrame, min(max(p.widest(), 72), 120)), 10)
	lines := []string{
		th.Title.Render("Command palette"),
		th.Muted.Render(textsafe.Line("every action and view here ("+p.context+"); greyed: cannot act now", 120)),
		"> " + p.input.View(),
		"",
	}
	// The list scrolls around the cursor within the room left: the title,
	// hint, input, blank line, count line and the border (2).
	rows := max(maxHeight-len(lines)-1-2, 1)
	first, last := 0, 0
	if len(p.shown) == 0 {
		lines = append(lines, th.Muted.Render("nothing matches"))
	} else {
		drawn := make([][]string, len(p.shown))
		heights := make([]int, len(p.shown))
		for k, i := range p.shown {
			drawn[k] = p.entryLines(p.all[i], p.marks[k], inner, k == p.cursor)
			heights[k] = len(drawn[k])
		}
		first, last = window(heights, p.cursor, rows)
		for k := first; k < last; k++ {
			lines = append(lines, drawn[k]...)
		}
		if extra := len(lines) - 4 - rows; extra > 0 { // the cursor's entry alone is taller than the room
			lines = lines[:len(lines)-extra]
		}
	}
	lines = append(lines, th.Muted.Render(p.countLine(first, last, inner)))
	for i, l := range lines {
		lines[i] = fitTail(l, inner)
	}
	return box(th, lines)
}

// widest is the width of the longest entry drawn on one line.
func (p *paletteModal) widest() int {
	w := 0
	for _, e := range p.all {
		n := 2 + p.labelW + 2 + ansi.StringWidth(textsafe.Clean(e.name)) + len(" (view, current)")
		if e.reason != "" {
			n += 1 + ansi.StringWidth("— "+textsafe.Clean(e.reason))
		}
		w = max(w, n)
	}
	return w
}

// countLine says how many entries there are, how many match the typed
// text and how many of those are on screen: "12 shown of 34 · ↓ 22
// more" when some are off it, "2 of 34 match" or "34 entries" when all
// are on it.
func (p *paletteModal) countLine(first, last, width int) string {
	n, all := len(p.shown), len(p.all)
	filtered := strings.TrimSpace(p.input.Value()) != ""
	var s string
	switch {
	case n == 0:
		s = fmt.Sprintf("0 of %d match", all)
	case last-first < n && filtered:
		s = fmt.Sprintf("%d shown of %d matching (%d in all)", last-first, n, all)
	case last-first < n:
		s = fmt.Sprintf("%d shown of %d", last-first, n)
	case filtered:
		s = fmt.Sprintf("%d of %d match", n, all)
	default:
		s = fmt.Sprintf("%d entries", n)
	}
	if first > 0 {
		s += fmt.Sprintf(" · ↑ %d more", first)
	}
	if last < n {
		s += fmt.Sprintf(" · ↓ %d more", n-last)
	}
	if n > 0 && p.all[p.shown[p.cursor]].reason != "" {
		if more := " · this one cannot act now"; ansi.StringWidth(s+more) <= width {
			s += more
		}
	}
	return s
}
