package chart

import (
	"fmt"
	"image/color"
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// day returns 24 hourly buckets of four series, labelled "00" … "23",
// with bucket 14 selected; coloured gives each series a colour.
func day(coloured bool) Stacked {
	labels := make([]string, 24)
	settled, declined, confirm, auth := make([]float64, 24), make([]float64, 24), make([]float64, 24), make([]float64, 24)
	for h := range 24 {
		labels[h] = fmt.Sprintf("%02d", h)
		settled[h] = float64((h*37)%50 + 5)
		declined[h] = float64((h * 7) % 12)
		confirm[h] = float64(h % 4)
		auth[h] = float64(h % 2)
	}
	s := Stacked{
		Series: []Series{
			{Name: "settled", Values: settled},
			{Name: "declined", Values: declined},
			{Name: "confirmation", Values: confirm},
			{Name: "authorized", Values: auth},
		},
		Labels: labels,
		Cursor: 14,
	}
	if coloured {
		fg := func(c color.Color) lipgloss.Style { return lipgloss.NewStyle().Foreground(c) }
		s.Series[0].Style = fg(lipgloss.Green)
		s.Series[1].Style = fg(lipgloss.Red)
		s.Series[2].Style = fg(lipgloss.Yellow)
		s.Series[3].Style = fg(lipgloss.Magenta)
		s.Axis = lipgloss.NewStyle().Faint(true)
		s.Marker = lipgloss.NewStyle().Bold(true).Reverse(true)
	}
	return s
}

// grid is a render without escapes, as rows of cells.
func grid(out string) [][]rune {
	lines := strings.Split(ansi.Strip(out), "\n")
	g := make([][]rune, len(lines))
	for i, l := range lines {
		g[i] = []rune(l)
	}
	return g
}

// requireSize fails unless out is exactly width × height cells.
func requireSize(t *testing.T, out string, width, height int) {
	t.Helper()
	if width <= 0 || height <= 0 {
		if out != "" {
			t.Fatalf("%dx%d: want \"\", got %q", width, height, out)
		}
		return
	}
	lines := strings.Split(out, "\n")
	if len(lines) != height {
		t.Fatalf("%dx%d: %d lines:\n%s", width, height, len(lines), out)
	}
	for i, l := range lines {
		if w := ansi.StringWidth(l); w != width {
			t.Fatalf("%dx%d: line %d is %d wide: %q", width, height, i, w, l)
		}
	}
}

// barEighths is the height in eighths of bucket i's bar, read off the
// screen: a full cell is 8, an eighth block its eighths.
func barEighths(t *testing.T, s Stacked, width, height, i int) int {
	t.Helper()
	l := s.Layout(width, height)
	x, _, ok := l.Column(i)
	if !ok {
		t.Fatalf("bucket %d not shown", i)
	}
	g := grid(s.Render(width, height))
	h := 0
	for r := l.PlotTop; r < l.PlotTop+l.PlotRows; r++ {
		h += cellEighths(g[r][x])
	}
	return h
}

// cellEighths is how much of a cell a bar fills: an eighth block its
// eighths, a blank none, any other fill rune all 8.
func cellEighths(ch rune) int {
	for n, e := range eighths {
		if e == ch {
			return n
		}
	}
	return 8
}
