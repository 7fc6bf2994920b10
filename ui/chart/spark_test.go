package chart

import (
	"math"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func TestSparklineScalesToMax(t *testing.T) {
	got := Sparkline([]float64{0, 1, 4, 8, math.NaN(), -2}, 8)
	if want := " ▁▄█    "; got != want {
		t.Errorf("Sparkline = %q, want %q", got, want)
	}
}

func TestSparklineResamplesByMax(t *testing.T) {
	// Two columns of two values: the max of each (9, 2), not the sum (10, 4)
	// or the mean, which would draw the second column higher.
	if got, want := Sparkline([]float64{1, 9, 2, 2}, 2), "█▂"; got != want {
		t.Errorf("Sparkline = %q, want %q", got, want)
	}
	// 24 values in 10 columns: each column takes values j*24/10 .. (j+1)*24/10-1.
	vals := make([]float64, 24)
	vals[23] = 5
	vals[3] = 10
	if got, want := Sparkline(vals, 10), " █       ▄"; got != want {
		t.Errorf("Sparkline = %q, want %q", got, want)
	}
}

func TestSparklineWidthAndNoData(t *testing.T) {
	for _, w := range []int{1, 3, 7, 24, 100} {
		for _, vals := range [][]float64{nil, {0, 0}, {1, 2, 3}, make([]float64, 200)} {
			out := Sparkline(vals, w)
			if ansi.StringWidth(out) != w || strings.Contains(out, "\n") {
				t.Errorf("width %d: %q", w, out)
			}
		}
	}
	if got := Sparkline([]float64{0, 0}, 11); got != "  no data  " {
		t.Errorf("all zeros: %q", got)
	}
	if Sparkline([]float64{1}, 0) != "" {
		t.Error("width 0 drew something")
	}
}

func TestBrailleFitsAndPlacesLevels(t *testing.T) {
	for _, sz := range [][2]int{{1, 1}, {10, 3}, {60, 4}, {190, 16}} {
		for _, vals := range [][]float64{nil, {0.5}, {0, 1}, make([]float64, 500)} {
			requireSize(t, Braille(vals, sz[0], sz[1]), sz[0], sz[1])
		}
	}
	// 1 is the top row of dots, 0 the bottom one.
	out := strings.Split(Braille([]float64{1, 1}, 2, 2), "\n")
	if out[0] != "⠉⠉" || out[1] != "  " {
		t.Errorf("rate 1: %q", out)
	}
	out = strings.Split(Braille([]float64{0, math.NaN(), -1, 0}, 2, 2), "\n")
	if out[0] != "  " || out[1] != "⣀⣀" {
		t.Errorf("rate 0: %q", out)
	}
	if got := Braille([]float64{2}, 1, 1); got != "⠉" {
		t.Errorf("rate above 1 not at the top: %q", got)
	}
	if got := Braille(nil, 9, 1); got != " no data " {
		t.Errorf("no values: %q", got)
	}
}

func TestBrailleLineHasNoGaps(t *testing.T) {
	// A jump from 0 to 1 between two dot columns is joined by a vertical run
	// in the second column, from the step above the first point to the top.
	out := strings.Split(Braille([]float64{0, 1}, 1, 2), "\n")
	if want := []string{"⢸", "⡸"}; out[0] != want[0] || out[1] != want[1] {
		t.Errorf("jump: %q, want %q", out, want)
	}
}

func TestBrailleResamplesByMax(t *testing.T) {
	vals := make([]float64, 8) // 8 values in 2 dot columns: 4 each
	vals[1] = 1
	// The left column's point at the top (a mean would put it one dot up
	// from the bottom), the right one at 0 joined to it.
	if got := Braille(vals, 1, 1); got != "⢱" {
		t.Errorf("spike lost: %q", got)
	}
}
