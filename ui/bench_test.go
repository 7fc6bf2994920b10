package ui

import (
	"testing"

	tea "charm.land/bubbletea/v2"
)

// BenchmarkShellKeyPress is what the shell adds to a key press that goes to
// the active tab: resolving it, routing it, and drawing the frame around
// the tab (whose own cost is the fake tab's, next to nothing).
func BenchmarkShellKeyPress(b *testing.B) {
	for _, size := range []struct {
		name string
		w, h int
	}{{"80x24", 80, 24}, {"200x50", 200, 50}} {
		b.Run(size.name, func(b *testing.B) {
			ta := newTestApp(&testing.T{})
			ta.tabs[0].status = TabStatus{Rows: 100000, Shown: 100000, Refreshed: t0}
			ta.send(tea.WindowSizeMsg{Width: size.w, Height: size.h})
			down := keyPress("j")
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				ta.Update(down)
				_ = ta.View()
				ta.tabs[0].got = ta.tabs[0].got[:0]
			}
		})
	}
}
