package chart

import (
	"math"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

var sizes = [][2]int{{70, 8}, {70, 10}, {80, 24}, {190, 16}, {200, 50}, {10, 3}, {5, 4}, {3, 2}, {2, 1}, {1, 1}, {0, 5}, {5, 0}, {-1, -1}}

func TestRenderFitsExactly(t *testing.T) {
	charts := map[string]Stacked{
		"plain":    day(false),
		"coloured": day(true),
		"empty":    {},
		"zeros":    {Series: []Series{{Name: "settled", Values: make([]float64, 24)}}, Labels: day(false).Labels},
		"long":     {Series: []Series{{Name: strings.Repeat("settled ", 40), Values: []float64{1e12, 3}}}, Labels: []string{"a very long label", "b"}},
	}
	for name, c := range charts {
		t.Run(name, func(t *testing.T) {
			for _, sz := range sizes {
				requireSize(t, c.Render(sz[0], sz[1]), sz[0], sz[1])
			}
		})
	}
}

func TestTallestBarReachesTopAndHalfReachesHalf(t *testing.T) {
	s := Stacked{Series: []Series{{Name: "n", Values: []float64{10, 5, 7.5, 0, 2.5}}}, Cursor: NoCursor}
	for _, sz := range [][2]int{{70, 8}, {190, 16}, {30, 24}} {
		l := s.Layout(sz[0], sz[1])
		full := l.PlotRows * 8
		if got := barEighths(t, s, sz[0], sz[1], 0); got != full {
			t.Errorf("%v: tallest bar is %d eighths, want the full %d", sz, got, full)
		}
		g := grid(s.Render(sz[0], sz[1]))
		if x, _, _ := l.Column(0); g[l.PlotTop][x] != '█' {
			t.Errorf("%v: top row of the tallest bar is %q", sz, g[l.PlotTop][x])
		}
		for i, frac := range map[int]float64{1: 0.5, 2: 0.75, 3: 0, 4: 0.25} {
			want := frac * float64(full)
			if got := barEighths(t, s, sz[0], sz[1], i); math.Abs(float64(got)-want) > 1 {
				t.Errorf("%v: bucket %d is %d eighths, want %v within one eighth", sz, i, got, want)
			}
		}
	}
}

func TestStackingOrderBottomUp(t *testing.T) {
	s := Stacked{Series: []Series{
		{Name: "a", Values: []float64{2}},
		{Name: "b", Values: []float64{1}},
		{Name: "c", Values: []float64{1}},
	}, Cursor: NoCursor}
	l := s.Layout(10, 11) // 8 rows of bars: 4 of a, 2 of b, 2 of c
	if l.PlotRows != 8 {
		t.Fatalf("plot rows %d", l.PlotRows)
	}
	g := grid(s.Render(10, 11))
	x, _, _ := l.Column(0)
	var col string
	for r := l.PlotTop + l.PlotRows - 1; r >= l.PlotTop; r-- {
		col += string(g[r][x])
	}
	if col != "████▓▓▒▒" {
		t.Errorf("bar bottom-up is %q, want the first series at the bottom", col)
	}
}

func TestLegendNamesRunesAndTotals(t *testing.T) {
	s := Stacked{Series: []Series{
		{Name: "settled", Values: []float64{800, 12}},
		{Name: "declined", Values: []float64{41}},
		{Name: "confirmation", Values: []float64{12, math.NaN()}},
		{Name: "authorized", Values: []float64{3, -7}},
	}}
	want := "█ settled 812  ▓ declined 41  ▒ confirmation 12  ░ authorized 3"
	if got := s.Legend(); got != want {
		t.Errorf("legend %q, want %q", got, want)
	}
	if got := strings.TrimRight(strings.Split(s.Render(80, 8), "\n")[0], " "); got != want {
		t.Errorf("first line %q, want the legend", got)
	}
	s.Series[1].Rune = 'x'
	if got := s.Legend(); !strings.Contains(got, "x declined 41") {
		t.Errorf("own rune not in legend: %q", got)
	}
}

func TestCursorMarkedUnderItsBar(t *testing.T) {
	s := day(false)
	for _, sz := range [][2]int{{70, 10}, {190, 16}, {10, 3}, {30, 6}} {
		for _, cur := range []int{0, 5, 14, 23} {
			s.Cursor = cur
			l := s.Layout(sz[0], sz[1])
			x, w, ok := l.Column(cur)
			if !ok {
				t.Fatalf("%v: cursor %d not shown (first %d, count %d)", sz, cur, l.First, l.Count)
			}
			base := grid(s.Render(sz[0], sz[1]))[l.PlotTop+l.PlotRows]
			at := strings.IndexRune(string(base), '▲')
			at = len([]rune(string(base)[:max(at, 0)]))
			if strings.Count(string(base), "▲") != 1 || at < x || at >= x+w {
				t.Errorf("%v cursor %d: ▲ at %d, bar at %d..%d: %q", sz, cur, at, x, x+w-1, string(base))
			}
		}
	}
	s.Cursor = NoCursor
	if strings.Contains(s.Render(70, 10), "▲") {
		t.Error("NoCursor marked a bucket")
	}
}

func TestBucketAtInvertsLayout(t *testing.T) {
	s := day(false)
	for _, sz := range [][2]int{{70, 10}, {190, 16}, {10, 3}, {25, 5}} {
		l := s.Layout(sz[0], sz[1])
		for i := range 24 {
			x, w, ok := l.Column(i)
			if !ok {
				continue
			}
			for c := x; c < x+w; c++ {
				if got, ok := l.BucketAt(c); !ok || got != i {
					t.Errorf("%v: BucketAt(%d) = %d, %v; want %d", sz, c, got, ok, i)
				}
			}
		}
		for c := -1; c <= sz[0]; c++ {
			i, ok := l.BucketAt(c)
			if !ok {
				if c >= l.Left && c < l.Left+l.Count*l.Slot {
					t.Errorf("%v: column %d inside the bars maps to no bucket", sz, c)
				}
				continue
			}
			if x, _, shown := l.Column(i); !shown || c < x || c >= x+l.Slot {
				t.Errorf("%v: BucketAt(%d) = %d, whose slot starts at %d", sz, c, i, x)
			}
		}
		if _, ok := l.BucketAt(l.Left - 1); ok {
			t.Errorf("%v: the y-axis maps to a bucket", sz)
		}
	}
}

func TestNarrowShowsWindowWithCursor(t *testing.T) {
	s := day(false)
	s.Cursor = NoCursor
	l := s.Layout(10, 3)
	if l.First+l.Count != 24 || l.Count != 10-l.Left {
		t.Errorf("no cursor: shows %d..%d, want the last buckets", l.First, l.First+l.Count-1)
	}
	s.Cursor = 2
	if l = s.Layout(10, 3); l.First != 2 {
		t.Errorf("cursor 2: first bucket shown %d", l.First)
	}
	s.Cursor = 20
	if l = s.Layout(10, 3); l.First+l.Count != 24 {
		t.Errorf("cursor 20: shows %d..%d", l.First, l.First+l.Count-1)
	}
}

func TestNoDataFrame(t *testing.T) {
	for name, s := range map[string]Stacked{
		"nothing": {},
		"zeros":   {Series: []Series{{Name: "settled", Values: []float64{0, 0, 0}}}},
		"bad":     {Series: []Series{{Name: "settled", Values: []float64{math.NaN(), -3, math.Inf(-1)}}}},
	} {
		out := s.Render(40, 8)
		requireSize(t, out, 40, 8)
		if !strings.Contains(out, NoData) || strings.Contains(out, "NaN") || strings.Contains(out, "Inf") {
			t.Errorf("%s:\n%s", name, out)
		}
	}
}

func TestBadValuesCountAsZero(t *testing.T) {
	good := Stacked{Series: []Series{{Name: "a", Values: []float64{4, 0, 0, 2}}}, Labels: []string{"1", "2", "3", "4"}}
	bad := good
	bad.Series = []Series{{Name: "a", Values: []float64{4, math.NaN(), -5, 2}}}
	if g, b := good.Render(30, 8), bad.Render(30, 8); g != b {
		t.Errorf("NaN and negative values drawn unlike 0:\n%s\n%s", g, b)
	}
	bad.Series[0].Values[0] = math.Inf(1)
	requireSize(t, bad.Render(30, 8), 30, 8)
}

func TestLabelAndValues(t *testing.T) {
	s := day(false)
	want := "14 · settled 23 · declined 2 · confirmation 2 · authorized 0"
	if got := s.Label(14); got != want {
		t.Errorf("Label(14) = %q, want %q", got, want)
	}
	if got := "14:00–15:00 · " + s.Breakdown(14); got != "14:00–15:00 · settled 23 · declined 2 · confirmation 2 · authorized 0" {
		t.Errorf("Breakdown: %q", got)
	}
	if v := s.Values(14); len(v) != 4 || v[0] != 23 || v[1] != 2 {
		t.Errorf("Values(14) = %v", v)
	}
	for _, i := range []int{-1, 24} {
		if s.Label(i) != "" || s.Values(i) != nil {
			t.Errorf("bucket %d outside: %q %v", i, s.Label(i), s.Values(i))
		}
	}
}

func TestXLabelsUnderTheirBars(t *testing.T) {
	s := day(false)
	for _, sz := range [][2]int{{70, 10}, {190, 16}, {30, 6}} {
		l := s.Layout(sz[0], sz[1])
		row := string(grid(s.Render(sz[0], sz[1]))[sz[1]-1])
		seen := 0
		for _, f := range strings.Fields(row) {
			i := -1
			for j, lab := range s.Labels {
				if lab == f {
					i = j
				}
			}
			x, _, ok := l.Column(i)
			if !ok || !strings.HasPrefix(string([]rune(row)[x:]), f) {
				t.Errorf("%v: label %q not at its bar's column %d: %q", sz, f, x, row)
			}
			seen++
		}
		if seen < 4 {
			t.Errorf("%v: only %d labels: %q", sz, seen, row)
		}
	}
}

func TestColourOnlyAddsEscapes(t *testing.T) {
	for _, sz := range [][2]int{{70, 10}, {190, 16}} {
		plain, coloured := day(false).Render(sz[0], sz[1]), day(true).Render(sz[0], sz[1])
		if strings.Contains(plain, "\x1b") {
			t.Errorf("%v: escapes without styles", sz)
		}
		if !strings.Contains(coloured, "\x1b[32m") {
			t.Errorf("%v: no colour with styles", sz)
		}
		if ansi.Strip(coloured) != plain {
			t.Errorf("%v: colour changed the shapes", sz)
		}
	}
}

func TestStyleWithPaddingIsIgnored(t *testing.T) {
	s := day(false)
	s.Series[0].Style = s.Series[0].Style.Padding(0, 2)
	if got := s.Render(70, 10); got != day(false).Render(70, 10) {
		t.Errorf("padding leaked into the chart:\n%s", got)
	}
}
