// Package chart draws small charts for the terminal as plain strings: a
// stacked bar chart of counts per bucket ([Stacked]), a one-line
// [Sparkline] and a [Braille] line chart of a rate. There is no Bubble Tea
// model here: a view calls these functions from its View with the size it
// has, and keeps the selected bucket itself.
//
// The choices, for a reader who has to change them (docs/charts.md says
// more):
//
//   - Every result fits exactly the size asked for: each line is exactly
//     width cells wide (padded with spaces, cut where need be) and there are
//     exactly height lines. A size too small for a part drops that part
//     (legend first, then the x labels, the baseline, the y-axis) rather
//     than overflow; a size of zero or less gives "".
//   - Meaning never rests on colour alone. Each series has its own fill
//     rune (█ ▓ ▒ ░ by default) and the legend names it with its rune and
//     total; a series' Style only adds colour, so the chart reads the same
//     under NO_COLOR and on a light terminal. A Style is used for its
//     colours and text attributes only: padding, margins, widths and
//     borders are ignored.
//   - Values are counts or rates: a negative, NaN or infinite value counts
//     as 0. With nothing above zero to scale by, [Stacked] draws its empty
//     frame with "no data", and [Sparkline] says "no data".
//   - When there are more values than columns, [Sparkline] and [Braille]
//     give each column the largest of its values (max, not sum: a spike in
//     one hour stays visible, and the scale keeps meaning "per bucket"
//     whatever the width). [Stacked] never merges buckets: it shows as many
//     whole buckets as fit, the last ones, or a window that holds the
//     cursor, and [Layout] says which.
//
// Widths of styled strings are measured with github.com/charmbracelet/x/ansi;
// lipgloss is used for styles only.
package chart

import (
	"math"
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// DefaultRunes are the fill runes given, in order, to series whose Rune is
// zero (or not one cell wide). The first four are the shades █ ▓ ▒ ░; more
// series get ASCII marks.
var DefaultRunes = []rune{'█', '▓', '▒', '░', '#', '+', '=', ':'}

// eighths are the bar tops, from one eighth of a cell to a full cell.
var eighths = []rune{' ', '▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'}

// NoData is what a chart shows when it has nothing to scale by.
const NoData = "no data"

// clean returns v as a count: negative, NaN and infinite values are 0.
func clean(v float64) float64 {
	if v > 0 && !math.IsInf(v, 1) {
		return v
	}
	return 0
}

// formatValue writes a count without a fraction and other values with at
// most three significant decimals ("812", "2.5", "0.125").
func formatValue(v float64) string {
	if v == math.Trunc(v) && math.Abs(v) < 1e15 {
		return strconv.FormatInt(int64(v), 10)
	}
	return strconv.FormatFloat(v, 'g', 3, 64)
}

// paint is a style reduced to the escape codes around a text, taken once
// per render so that a chart of hundreds of cells does not call
// lipgloss.Style.Render for each.
type paint struct{ pre, post string }

func newPaint(st lipgloss.Style) paint {
	const probe = "X"
	out := st.Render(probe)
	i := strings.Index(out, probe)
	if i < 0 {
		return paint{}
	}
	p := paint{pre: out[:i], post: out[i+len(probe):]}
	if ansi.StringWidth(p.pre) != 0 || ansi.StringWidth(p.post) != 0 {
		return paint{} // padding or a border: not a colour, leave it out
	}
	return p
}

func (p paint) wrap(s string) string {
	if p.pre == "" && p.post == "" {
		return s
	}
	return p.pre + s + p.post
}

// fit pads or cuts a line to exactly width cells.
func fit(line string, width int) string {
	w := ansi.StringWidth(line)
	if w > width {
		line = ansi.Truncate(line, width, "")
		w = ansi.StringWidth(line)
	}
	return line + strings.Repeat(" ", width-w)
}

// center places text in the middle of width cells (cut if it does not fit).
func center(text string, width int) string {
	w := ansi.StringWidth(text)
	if w >= width {
		return fit(text, width)
	}
	left := (width - w) / 2
	return strings.Repeat(" ", left) + text + strings.Repeat(" ", width-w-left)
}

// noData is a block of width × height with "no data" in the middle line.
func noData(width, height int) string {
	if width <= 0 || height <= 0 {
		return ""
	}
	lines := make([]string, height)
	for i := range lines {
		lines[i] = strings.Repeat(" ", width)
	}
	lines[(height-1)/2] = center(NoData, width)
	return strings.Join(lines, "\n")
}

// runeOK reports whether r is usable as a fill: printable and one cell wide.
func runeOK(r rune) bool {
	return r > ' ' && ansi.StringWidth(string(r)) == 1
}
