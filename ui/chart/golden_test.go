package chart

import (
	"testing"

	"github.com/charmbracelet/x/exp/golden"
)

// TestGoldens draws the 24-hour example at an 80×24-like and a 200×50-like
// size, without and with colour (the coloured goldens keep their escape
// codes). Rewrite with: go test ./ui/chart -run TestGoldens -update
func TestGoldens(t *testing.T) {
	for _, tc := range []struct {
		name          string
		coloured      bool
		width, height int
	}{
		{"70x10", false, 70, 10},
		{"190x16", false, 190, 16},
		{"70x10-colour", true, 70, 10},
		{"190x16-colour", true, 190, 16},
		{"10x3", false, 10, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := day(tc.coloured).Render(tc.width, tc.height)
			requireSize(t, out, tc.width, tc.height)
			golden.RequireEqual(t, out)
		})
	}
}

// BenchmarkStackedRender200x50 is one render of 24 buckets × 4 series at
// 190×16, the Overview's chart in a 200×50 window.
func BenchmarkStackedRender200x50(b *testing.B) {
	s := day(true)
	b.ReportAllocs()
	for b.Loop() {
		_ = s.Render(190, 16)
	}
}
