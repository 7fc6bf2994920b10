package chart

import (
	"github.com/charmbracelet/x/ansi"
)

// Layout is where a [Stacked] chart of a given size puts its parts. Render
// draws from it, and a view uses it to map a mouse click back to a bucket
// ([Layout.BucketAt]). Columns and rows count from the chart's top-left
// cell, 0-based.
type Layout struct {
	Width, Height int

	Buckets int // all the chart's buckets
	First   int // the first bucket shown
	Count   int // how many buckets are shown: First .. First+Count-1

	Left int // column of the first bar (right of the y-axis)
	Slot int // columns per bucket: its bar, then one gap column if Slot > 1
	Bar  int // width of a bar: Slot-1, or 1 when Slot is 1

	Legend   bool // row 0 is the legend
	PlotTop  int  // first row of the bars
	PlotRows int  // rows of bars (0 when the height leaves none)
	Baseline bool // the row under the bars: "0", the x-axis and the ▲ of the cursor
	XLabels  bool // the last row: the bucket labels

	yLabel string // the y-axis' top label (the largest stack), "" without y-axis
}

// yTopLabel is the y-axis' top label for the largest stack.
func yTopLabel(top float64) string { return formatValue(top) }

// Layout computes where the chart's parts go at width × height. The legend
// needs a height of 4 or more, the x labels 3, the baseline 2. Buckets
// share the width after the y-axis evenly; when there are more buckets than
// columns, as many as fit are shown one column each: the last ones, or,
// when the cursor is before them, a window starting at the cursor.
func (s Stacked) Layout(width, height int) Layout {
	l := Layout{Width: max(width, 0), Height: max(height, 0), Buckets: s.buckets()}
	if l.Width == 0 || l.Height == 0 {
		return l
	}
	rows := l.Height
	l.Legend = rows >= 4
	l.XLabels = rows >= 3
	l.Baseline = rows >= 2
	rows -= btoi(l.Legend) + btoi(l.XLabels) + btoi(l.Baseline)
	l.PlotTop, l.PlotRows = btoi(l.Legend), rows

	_, top := s.totals()
	l.yLabel = yTopLabel(top)
	gutter := ansi.StringWidth(l.yLabel) + 1
	if l.Width-gutter < 1 {
		gutter, l.yLabel = 0, ""
	}
	l.Left = gutter
	plotW := l.Width - gutter
	n := l.Buckets
	if n == 0 {
		return l
	}
	l.Slot = plotW / n
	switch {
	case l.Slot >= 2:
		l.Bar, l.Count = l.Slot-1, n
	case l.Slot == 1:
		l.Bar, l.Count = 1, n
	default:
		l.Slot, l.Bar, l.Count = 1, 1, plotW
		l.First = n - l.Count
		if s.Cursor >= 0 && s.Cursor < l.First {
			l.First = s.Cursor
		}
	}
	return l
}

// BucketAt returns the bucket drawn at column x (a bar or the gap after
// it), for a mouse click; false left of the first bar, right of the last
// gap, or when no bucket is shown.
func (l Layout) BucketAt(x int) (int, bool) {
	if l.Count == 0 || x < l.Left {
		return 0, false
	}
	j := (x - l.Left) / l.Slot
	if j >= l.Count {
		return 0, false
	}
	return l.First + j, true
}

// Column returns the first column and the width of bucket i's bar; false
// when bucket i is not shown.
func (l Layout) Column(i int) (x, width int, ok bool) {
	if i < l.First || i >= l.First+l.Count {
		return 0, 0, false
	}
	return l.Left + (i-l.First)*l.Slot, l.Bar, true
}

// labelStep is how many buckets apart the x labels go: the smallest of 1,
// 2, 3, 4, 6, 8, 12 (then multiples of 12; they divide a day's 24 hours)
// that leaves at least one blank between labels of labelW cells.
func labelStep(slot, labelW int) int {
	for _, k := range []int{1, 2, 3, 4, 6, 8, 12} {
		if k*slot >= labelW+1 {
			return k
		}
	}
	k := 24
	for k*slot < labelW+1 {
		k += 12
	}
	return k
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
