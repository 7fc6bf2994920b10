package ui

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// sgrReset ends whatever style a cut line left open.
const sgrReset = "\x1b[m"

// fit makes one line exactly w cells wide: cut (without tail) or padded.
func fit(line string, w int) string {
	if w <= 0 {
		return ""
	}
	lw := ansi.StringWidth(line)
	switch {
	case lw == w:
		return line
	case lw < w:
		return line + strings.Repeat(" ", w-lw)
	}
	cut := ansi.Truncate(line, w, "")
	if cw := ansi.StringWidth(cut); cw < w { // a wide character straddled the edge
		cut += strings.Repeat(" ", w-cw)
	}
	return cut + sgrReset
}

// fitTail is fit with "…" where the line is cut.
func fitTail(line string, w int) string {
	if w <= 0 {
		return ""
	}
	if ansi.StringWidth(line) > w {
		line = ansi.Truncate(line, w, "…") + sgrReset
	}
	return fit(line, w)
}

// fitBlock makes s exactly w × h cells: h lines of w cells each.
func fitBlock(s string, w, h int) []string {
	var m fitMemo // nothing remembered: every line is measured
	return m.fitBlock(s, w, h)
}

// fitMemo is fitBlock that remembers the last block: a line the same as
// the last time, at the same width, is not measured again. Between two
// frames most of a list's lines are the same (a key moves the selection
// over two of them), and measuring every line's width, grapheme by
// grapheme, was most of what drawing the shell cost.
type fitMemo struct {
	w        int
	src, out []string
}

func (m *fitMemo) fitBlock(s string, w, h int) []string {
	if h <= 0 {
		return nil
	}
	src := strings.Split(s, "\n")
	out := make([]string, h)
	blank := strings.Repeat(" ", max(w, 0))
	for i := range out {
		switch {
		case i >= len(src):
			out[i] = blank
		case m.w == w && i < len(m.src) && src[i] == m.src[i]:
			out[i] = m.out[i]
		default:
			out[i] = fit(strings.TrimSuffix(src[i], "\r"), w)
		}
	}
	m.w, m.src, m.out = w, src, out
	return out
}

// blockSize measures a block of lines.
func blockSize(lines []string) (w, h int) {
	for _, l := range lines {
		w = max(w, ansi.StringWidth(l))
	}
	return w, len(lines)
}

// clampBlock cuts a drawn block (a dialog box) to at most maxW × maxH cells
// and pads every line to the block's width, so it can be laid over a frame.
func clampBlock(s string, maxW, maxH int) []string {
	lines := strings.Split(s, "\n")
	if len(lines) > maxH {
		lines = lines[:max(maxH, 0)]
	}
	w, _ := blockSize(lines)
	w = min(w, maxW)
	for i, l := range lines {
		lines[i] = fit(l, w)
	}
	return lines
}

// overlay draws block over frame with its top-left corner at (x, y); the
// frame's lines are exactly width cells and stay so. Cells of the frame
// outside the block keep their text and styles.
func overlay(frame, block []string, x, y, width int) {
	bw, _ := blockSize(block)
	if x < 0 {
		x = 0
	}
	bw = min(bw, width-x)
	if bw <= 0 {
		return
	}
	for i, over := range block {
		row := y + i
		if row < 0 || row >= len(frame) {
			continue
		}
		frame[row] = overlayLine(frame[row], fit(over, bw), x, bw, width)
	}
}

func overlayLine(base, over string, x, w, total int) string {
	left := ansi.Truncate(base, x, "")
	if lw := ansi.StringWidth(left); lw < x {
		left += strings.Repeat(" ", x-lw)
	}
	want := total - x - w
	right := ""
	if want > 0 {
		right = ansi.TruncateLeft(base, x+w, "")
		if rw := ansi.StringWidth(right); rw > want {
			// A wide character straddles the block's right edge: blank it.
			right = " " + ansi.TruncateLeft(base, x+w+1, "")
		}
		right = fit(right, want)
	}
	return left + sgrReset + over + sgrReset + right
}

// box draws lines in a rounded border with one cell of padding each side.
func box(th Theme, lines []string) string {
	st := lipgloss.NewStyle().
		Border(lipgloss.RoundedBorder()).
		BorderForeground(th.Border.GetForeground()).
		Padding(0, 1)
	return st.Render(strings.Join(lines, "\n"))
}

// Box draws a tab's own dialog in the shell's dialog border.
func Box(th Theme, lines []string) string { return box(th, lines) }

// boxFrame is the width a box adds around its content: border and padding.
const boxFrame = 4

// center returns the offset that centres size in room.
func center(room, size int) int {
	return max((room-size)/2, 0)
}
