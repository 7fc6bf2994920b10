package chart

import (
	"math"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// Series is one kind of count in a [Stacked] chart, such as settled
// payments per hour.
type Series struct {
	Name   string
	Rune   rune           // the fill of its part of a bar; 0 takes DefaultRunes[i]
	Style  lipgloss.Style // optional colour of that fill (colours and attributes only)
	Values []float64      // one per bucket; a missing, negative or NaN value counts as 0
}

// NoCursor marks no bucket as selected.
const NoCursor = -1

// Stacked is a bar chart of counts per bucket (e.g. the 24 hours of a
// day), each bar a stack of the series in order, the first at the bottom.
//
// The zero Cursor selects bucket 0: set it to [NoCursor] (or any index
// outside the buckets) to mark none.
type Stacked struct {
	Series []Series
	Labels []string // one per bucket, for the x-axis ("14", "15", …) and Label
	Cursor int      // the selected bucket, marked with ▲ under its bar

	Axis   lipgloss.Style // optional style of the axes and their labels (e.g. a muted one)
	Marker lipgloss.Style // optional style of the cursor's ▲
}

// buckets is the number of buckets: the longest of Labels and the series.
func (s Stacked) buckets() int {
	n := len(s.Labels)
	for _, se := range s.Series {
		n = max(n, len(se.Values))
	}
	return n
}

// value is series k's count in bucket i, cleaned.
func (s Stacked) value(k, i int) float64 {
	if i < 0 || i >= len(s.Series[k].Values) {
		return 0
	}
	return clean(s.Series[k].Values[i])
}

// totals returns each bucket's stack and the largest.
func (s Stacked) totals() ([]float64, float64) {
	t := make([]float64, s.buckets())
	top := 0.0
	for i := range t {
		for k := range s.Series {
			t[i] += s.value(k, i)
		}
		top = max(top, t[i])
	}
	return t, top
}

// runeOf is the fill of series k.
func (s Stacked) runeOf(k int) rune {
	if r := s.Series[k].Rune; runeOK(r) {
		return r
	}
	return DefaultRunes[k%len(DefaultRunes)]
}

// Values returns the counts of bucket i, one per series in order (cleaned:
// negative and NaN values are 0); nil when i is not a bucket.
func (s Stacked) Values(i int) []float64 {
	if i < 0 || i >= s.buckets() {
		return nil
	}
	out := make([]float64, len(s.Series))
	for k := range s.Series {
		out[k] = s.value(k, i)
	}
	return out
}

// Breakdown returns bucket i's counts by series, as
// "settled 40 · declined 12 · confirmation 0 · authorized 3"; "" when i is
// not a bucket. A caller with its own heading for the bucket (such as
// "14:00–15:00") writes it before.
func (s Stacked) Breakdown(i int) string {
	vals := s.Values(i)
	if vals == nil {
		return ""
	}
	parts := make([]string, len(vals))
	for k, v := range vals {
		parts[k] = s.Series[k].Name + " " + formatValue(v)
	}
	return strings.Join(parts, " · ")
}

// Label returns bucket i's label and its counts by series, as
// "14 · settled 40 · declined 12 · …"; "" when i is not a bucket.
func (s Stacked) Label(i int) string {
	b := s.Breakdown(i)
	if b == "" || i >= len(s.Labels) || s.Labels[i] == "" {
		return b
	}
	if len(s.Series) == 0 {
		return s.Labels[i]
	}
	return s.Labels[i] + " · " + b
}

// Legend returns the legend line, each series as its rune, name and total
// over all buckets: "█ settled 812  ▓ declined 41  …" (not cut to a width).
func (s Stacked) Legend() string {
	parts := make([]string, len(s.Series))
	for k, se := range s.Series {
		total := 0.0
		for i := range se.Values {
			total += s.value(k, i)
		}
		parts[k] = newPaint(se.Style).wrap(string(s.runeOf(k))) + " " + se.Name + " " + formatValue(total)
	}
	return strings.Join(parts, "  ")
}

// Render draws the chart in exactly width × height cells: the legend, the
// bars under a y-axis labelled with the largest stack, the baseline with a
// ▲ under the cursor's bar, and the x labels every few buckets as room
// allows. With no count above zero it draws the empty frame with "no
// data". See [Stacked.Layout] for what a small size leaves out.
func (s Stacked) Render(width, height int) string {
	l := s.Layout(width, height)
	if l.Width == 0 || l.Height == 0 {
		return ""
	}
	_, top := s.totals()
	axis := newPaint(s.Axis)
	lines := make([]string, 0, l.Height)
	if l.Legend {
		lines = append(lines, fit(s.Legend(), l.Width))
	}
	lines = append(lines, s.plotRows(l, top, axis)...)
	if l.Baseline {
		lines = append(lines, fit(s.baseline(l, axis), l.Width))
	}
	if l.XLabels {
		lines = append(lines, fit(s.xLabels(l, axis), l.Width))
	}
	return strings.Join(lines, "\n")
}

// gutter is the y-axis part of a plot row: the top label on the first row.
func (l Layout) gutter(row int, axis paint) string {
	if l.Left == 0 {
		return ""
	}
	if row == 0 {
		return axis.wrap(padLeft(l.yLabel, l.Left-1) + "┤")
	}
	return axis.wrap(strings.Repeat(" ", l.Left-1) + "│")
}

// plotRows draws the bars, top row first.
func (s Stacked) plotRows(l Layout, top float64, axis paint) []string {
	rows := make([]string, l.PlotRows)
	if top == 0 {
		for r := range rows {
			text := ""
			if r == (l.PlotRows-1)/2 {
				text = center(NoData, l.Width-l.Left)
			}
			rows[r] = fit(l.gutter(r, axis)+text, l.Width)
		}
		return rows
	}
	paints := make([]paint, len(s.Series))
	for k := range s.Series {
		paints[k] = newPaint(s.Series[k].Style)
	}
	stacks := make([][]int, l.Count)
	for j := range stacks {
		stacks[j] = s.stackEighths(l.First+j, top, l.PlotRows*8)
	}
	gap := strings.Repeat(" ", l.Slot-l.Bar)
	// The width is known by construction: measuring 16 lines of escapes
	// with ansi.StringWidth was most of a render's cost.
	rest := strings.Repeat(" ", l.Width-l.Left-l.Count*l.Slot)
	var b strings.Builder
	for r := range rows {
		b.Reset()
		b.Grow(4 * l.Width)
		b.WriteString(l.gutter(r, axis))
		bottom := l.PlotRows - 1 - r
		for j := range stacks {
			ch, k := s.cell(stacks[j], bottom)
			p := paint{}
			if k >= 0 {
				p = paints[k]
			}
			b.WriteString(p.pre)
			for range l.Bar {
				b.WriteRune(ch)
			}
			b.WriteString(p.post)
			b.WriteString(gap)
		}
		b.WriteString(rest)
		rows[r] = b.String()
	}
	return rows
}

// stackEighths returns the tops of bucket i's series in eighths of a row,
// cumulated from the bottom: series k fills eighths [c[k], c[k+1]).
func (s Stacked) stackEighths(i int, top float64, units int) []int {
	c := make([]int, len(s.Series)+1)
	sum := 0.0
	for k := range s.Series {
		sum += s.value(k, i)
		c[k+1] = int(math.Round(sum / top * float64(units)))
	}
	return c
}

// cell is the rune of a bar in row b (0 the bottom) and the series it
// shows (-1 none). A full cell takes the rune of the series at its middle;
// the top of the bar is an eighth block (▁ … █) painted as the series at
// its bottom edge, since the shape of a part cell is its height.
func (s Stacked) cell(c []int, b int) (rune, int) {
	lo, top := b*8, c[len(c)-1]
	if top <= lo {
		return ' ', -1
	}
	at := lo + 4
	if top < lo+8 {
		at = lo
	}
	k := 0
	for k < len(s.Series)-1 && c[k+1] <= at {
		k++
	}
	if top < lo+8 {
		return eighths[top-lo], k
	}
	return s.runeOf(k), k
}

// baseline draws "0", the x-axis and the cursor's ▲ under the middle of its bar.
func (s Stacked) baseline(l Layout, axis paint) string {
	var b strings.Builder
	if l.Left > 0 {
		b.WriteString(axis.wrap(padLeft("0", l.Left-1) + "└"))
	}
	plotW := l.Width - l.Left
	x, w, ok := l.Column(s.Cursor)
	if !ok {
		b.WriteString(axis.wrap(strings.Repeat("─", plotW)))
		return b.String()
	}
	at := x - l.Left + (w-1)/2
	b.WriteString(axis.wrap(strings.Repeat("─", at)))
	b.WriteString(newPaint(s.Marker).wrap("▲"))
	b.WriteString(axis.wrap(strings.Repeat("─", plotW-at-1)))
	return b.String()
}

// xLabels writes the labels of the buckets shown, each starting under its
// bar, every labelStep buckets counted from bucket 0 (so they stay put when
// the window moves); a label that would run past the edge is left out.
func (s Stacked) xLabels(l Layout, axis paint) string {
	labelW := 0
	for i := l.First; i < l.First+l.Count && i < len(s.Labels); i++ {
		labelW = max(labelW, ansi.StringWidth(s.Labels[i]))
	}
	if labelW == 0 {
		return ""
	}
	step := labelStep(l.Slot, labelW)
	var b strings.Builder
	b.WriteString(strings.Repeat(" ", l.Left))
	col := l.Left
	for i := l.First; i < l.First+l.Count && i < len(s.Labels); i++ {
		x, _, _ := l.Column(i)
		w := ansi.StringWidth(s.Labels[i])
		if i%step != 0 || w == 0 || x < col || x+w > l.Width {
			continue
		}
		b.WriteString(strings.Repeat(" ", x-col))
		b.WriteString(axis.wrap(s.Labels[i]))
		col = x + w
	}
	return b.String()
}

// padLeft right-aligns text in width cells.
func padLeft(text string, width int) string {
	return strings.Repeat(" ", max(width-ansi.StringWidth(text), 0)) + text
}
