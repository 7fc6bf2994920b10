package chart

import (
	"math"
	"strings"
)

// resample gives n columns their values: with more values than columns,
// column j takes the largest of the values that fall in it (values
// j*len/n up to (j+1)*len/n), so that a spike is never averaged away; with
// as many or fewer it returns the values cleaned. Values are cleaned
// (negative, NaN and infinite count as 0) first.
func resample(values []float64, n int) []float64 {
	if len(values) <= n {
		out := make([]float64, len(values))
		for i, v := range values {
			out[i] = clean(v)
		}
		return out
	}
	out := make([]float64, n)
	for j := range out {
		lo, hi := j*len(values)/n, (j+1)*len(values)/n
		for _, v := range values[lo:hi] {
			out[j] = max(out[j], clean(v))
		}
	}
	return out
}

// Sparkline draws values on one line of exactly width cells, one column
// per value from the left (the rest blank), scaled so that the largest is
// a full block █ and half of it ▄. A value above zero is at least ▁; zero
// is blank. With more values than columns each column shows the largest
// of its values (see the package comment). With no value above zero it
// says "no data".
func Sparkline(values []float64, width int) string {
	if width <= 0 {
		return ""
	}
	cols := resample(values, width)
	top := 0.0
	for _, v := range cols {
		top = max(top, v)
	}
	if top == 0 {
		return center(NoData, width)
	}
	var b strings.Builder
	for _, v := range cols {
		level := int(math.Round(v / top * 8))
		if v > 0 {
			level = max(level, 1)
		}
		b.WriteRune(eighths[level])
	}
	return fit(b.String(), width)
}

// brailleDots are the bits of a braille cell's dots (U+2800 + bits), by
// row from the top and column: the left column is dots 1, 2, 3, 7, the
// right one 4, 5, 6, 8.
var brailleDots = [4][2]rune{{0x01, 0x08}, {0x02, 0x10}, {0x04, 0x20}, {0x40, 0x80}}

// Braille draws a line chart of a rate from 0 (bottom) to 1 (top) in
// width × height cells of braille dots: two columns and four rows of dots
// per cell, so 2·width points across and 4·height levels up. Values above
// 1 are drawn at 1; negative, NaN and infinite ones at 0 (a rate of 0/0
// is best passed as NaN). Fewer values than dot columns are joined by
// straight lines across the width; more are resampled by taking the
// largest per dot column. Each point is joined to the one before by a
// vertical run of dots, so the line has no gaps. With no values it draws
// "no data"; all zeros is a line along the bottom.
func Braille(values []float64, width, height int) string {
	if width <= 0 || height <= 0 {
		return ""
	}
	if len(values) == 0 {
		return noData(width, height)
	}
	dotsW, dotsH := width*2, height*4
	ys := brailleLevels(values, dotsW, dotsH)
	cells := make([][]rune, height)
	for r := range cells {
		cells[r] = make([]rune, width)
	}
	set := func(x, y int) { // y counts dots from the bottom
		row := dotsH - 1 - y
		cells[row/4][x/2] |= brailleDots[row%4][x%2]
	}
	for x, y := range ys {
		from := y
		if x > 0 {
			from = ys[x-1]
		}
		lo, hi := min(from, y), max(from, y)
		if lo < hi { // the part of the join in this column: from the step after the last point
			if from < y {
				lo++
			} else {
				hi--
			}
		}
		for yy := lo; yy <= hi; yy++ {
			set(x, yy)
		}
		set(x, y)
	}
	lines := make([]string, height)
	for r, row := range cells {
		var b strings.Builder
		for _, c := range row {
			if c == 0 {
				b.WriteByte(' ')
				continue
			}
			b.WriteRune(0x2800 + c)
		}
		lines[r] = b.String()
	}
	return strings.Join(lines, "\n")
}

// brailleLevels returns the dot row (0 the bottom) of each of the dotsW
// dot columns that have a point: a resampled value, or a straight line
// between the values when they are fewer than the columns.
func brailleLevels(values []float64, dotsW, dotsH int) []int {
	vals := resample(values, dotsW)
	n := len(vals)
	if n < dotsW {
		stretched := make([]float64, dotsW)
		for x := range stretched {
			if n == 1 {
				stretched[x] = vals[0]
				continue
			}
			t := float64(x) * float64(n-1) / float64(dotsW-1)
			i := min(int(t), n-2)
			f := t - float64(i)
			stretched[x] = vals[i]*(1-f) + vals[i+1]*f
		}
		vals = stretched
	}
	ys := make([]int, len(vals))
	for x, v := range vals {
		ys[x] = int(math.Round(min(v, 1) * float64(dotsH-1)))
	}
	return ys
}
