package ui

import (
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// breaksLine: the spaces a line may break at; a no-break space (U+00A0)
// keeps what it joins on one line.
func breaksLine(r rune) bool { return r == ' ' || r == '\t' || r == '\n' }

// wrapWords wraps s to width at spaces only. ansi.Wrap also breaks at every
// hyphen, which splits what a support person reads as one thing: a date
// ("2026-\n11-21") or an order number ("TRV-AYT-\n28001"). A single word
// longer than the width is cut hard, as it must be.
func wrapWords(s string, width int) []string {
	if width <= 0 || ansi.StringWidth(s) <= width {
		return []string{s}
	}
	var lines []string
	line, lineW := "", 0
	for _, word := range strings.FieldsFunc(s, breaksLine) {
		w := ansi.StringWidth(word)
		switch {
		case lineW > 0 && lineW+1+w <= width:
			line, lineW = line+" "+word, lineW+1+w
			continue
		case lineW > 0:
			lines = append(lines, line)
		}
		for w > width { // a word wider than the line: cut it
			lines = append(lines, ansi.Truncate(word, width, ""))
			word = ansi.TruncateLeft(word, width, "")
			w = ansi.StringWidth(word)
		}
		line, lineW = word, w
	}
	if lineW > 0 {
		lines = append(lines, line)
	}
	return lines
}

// WrapWords is wrapWords for the tabs: s wrapped to width at spaces only,
// a word wider than the line cut hard.
func WrapWords(s string, width int) []string { return wrapWords(s, width) }

// wrapStyled is wrapWords with each line drawn in st.
func wrapStyled(st lipgloss.Style, s string, width int) []string {
	var out []string
	for _, l := range wrapWords(s, width) {
		out = append(out, st.Render(l))
	}
	return out
}
