package ui

import (
	"testing"

	"paydash/backend/money"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
)

func TestOverlayKeepsWidthsAndStyles(t *testing.T) {
	red := lipgloss.NewStyle().Foreground(lipgloss.Color("#FF0000"))
	base := fit(red.Render("ab日本語cd"), 12) // 日 at cells 2-3, 本 4-5, 語 6-7
	for x := 0; x <= 10; x++ {
		frame := []string{base}
		overlay(frame, []string{"XY"}, x, 0, 12)
		assert.Equal(t, 12, ansi.StringWidth(frame[0]), "x=%d: %q", x, ansi.Strip(frame[0]))
		assert.Contains(t, ansi.Strip(frame[0]), "XY", "x=%d", x)
	}
	frame := []string{base}
	overlay(frame, []string{"XY"}, 8, 0, 12)
	assert.Equal(t, "ab日本語XY  ", ansi.Strip(frame[0]))
	assert.Contains(t, frame[0], "\x1b[m", "the style is closed before the block")

	frame = []string{base, base}
	overlay(frame, []string{"XY", "XY", "XY"}, 3, 1, 12)
	assert.Equal(t, "ab日本語cd  ", ansi.Strip(frame[0]), "rows above are left alone")
	assert.Equal(t, "ab XY 語cd  ", ansi.Strip(frame[1]), "halves of wide characters become spaces")
	assert.Len(t, frame, 2, "rows below the frame are dropped")
}

func TestFitBlock(t *testing.T) {
	lines := fitBlock("short\n"+"a line that is much too long for the block", 10, 3)
	assert.Equal(t, []string{"short     ", "a line tha", "          "}, stripAll(lines))
}

func stripAll(ls []string) []string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = ansi.Strip(l)
	}
	return out
}

func TestThousands(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 1234567: "1,234,567", -1500: "-1,500"} {
		assert.Equal(t, want, money.Count(n))
	}
}

// The remembered fit gives what a fresh one gives, line for line, when
// lines change, when the width changes, and when the block gets shorter.
func TestFitMemoIsFitBlock(t *testing.T) {
	var m fitMemo
	for _, c := range []struct {
		s    string
		w, h int
	}{
		{"ab\ncd\nef", 4, 3},
		{"ab\nXY\nef", 4, 3}, // one line changed
		{"ab\nXY\nef", 2, 3}, // narrower: every line again
		{"a very long line\nXY", 5, 4},
		{"ab", 5, 2},
	} {
		assert.Equal(t, fitBlock(c.s, c.w, c.h), m.fitBlock(c.s, c.w, c.h), "%q at %d×%d", c.s, c.w, c.h)
	}
}
