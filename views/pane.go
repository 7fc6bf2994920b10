package views

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"paydash/backend"
	"paydash/backend/textsafe"
	"paydash/keys"
	"paydash/ui"
)

// splitMinWidth is the tab width from which a detail pane opens beside the
// list instead of replacing it.
const splitMinWidth = 140

// paneWidth is the width of a detail pane beside the list.
func paneWidth(w int) int { return min(max(60, w*2/5), 100) }

// scroller is the scroll position of a detail pane's view. Keys move it
// knowing how many lines there are (Update); drawing clamps a copy, so
// View changes nothing.
type scroller struct {
	offset int
}

// key scrolls for a movement action over total lines of which body are
// shown; it reports whether the action was one.
func (s *scroller) key(action keys.Action, total, body int) bool {
	page := max(body-1, 1)
	switch action {
	case keys.ActUp:
		s.offset--
	case keys.ActDown:
		s.offset++
	case keys.ActPageUp:
		s.offset -= page
	case keys.ActPageDown:
		s.offset += page
	case keys.ActTop:
		s.offset = 0
	case keys.ActBottom:
		s.offset = total
	default:
		return false
	}
	s.offset = clampOffset(s.offset, total, body)
	return true
}

func clampOffset(offset, total, body int) int {
	return max(min(offset, total-body), 0)
}

// paneBody is the number of content lines a pane of height h shows (the
// title takes one).
func paneBody(h int) int { return max(h-1, 0) }

// render draws a pane of exactly w × h cells: a title line (with the scroll
// position when the content is taller than the pane) and the content. With
// border, a vertical rule on the left (three cells with its margins)
// separates it from the list.
func (s scroller) render(theme ui.Theme, title string, lines []string, w, h int, border bool) []string {
	if w <= 0 || h <= 0 {
		return nil
	}
	inner, prefix := w, ""
	if border {
		inner = w - 3
		prefix = " " + theme.Border.Render("│") + " "
	}
	total, body := len(lines), paneBody(h)
	offset := clampOffset(s.offset, total, body)
	head := theme.Title.Render(title)
	if total > body && body > 0 {
		last := min(offset+body, total)
		pos := fmt.Sprintf("%d–%d of %d", offset+1, last, total)
		gap := inner - ansi.StringWidth(head) - len([]rune(pos))
		if gap >= 2 {
			head += strings.Repeat(" ", gap) + theme.Muted.Render(pos)
		}
	}
	out := make([]string, 0, h)
	out = append(out, prefix+fit(head, inner))
	end := min(offset+body, total)
	var shown []string
	if offset < end {
		shown = lines[offset:end]
	}
	for _, l := range block(shown, inner, body) {
		out = append(out, prefix+l)
	}
	return out
}

// side puts a pane beside the list lines: both have h lines.
func side(left, right []string) string {
	var b strings.Builder
	for i := range left {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(left[i])
		if i < len(right) {
			b.WriteString(right[i])
		}
	}
	return b.String()
}

// fields are the "label  value" lines of a detail pane; an empty value
// gives no line (add). With width set (the pane's inner width, detail's
// inner), a value longer than the room right of its label is wrapped
// under it, at spaces, a word longer than the room (a link, a payload)
// cut into lines: never cut short, so every value shows whole.
type fields struct {
	theme  ui.Theme
	labelW int
	width  int // 0: values are not wrapped (the pane cuts them)
	lines  []string
}

// minValueRoom is the narrowest room right of a label worth wrapping in.
const minValueRoom = 8

func (f *fields) add(label, value string) {
	if value == "" {
		return
	}
	f.addAlways(label, value)
}

// addAlways is add, with a line even for an empty value (a value already
// styled, such as the status).
func (f *fields) addAlways(label, value string) {
	head := f.theme.Muted.Render(fit(label, f.labelW)) + " "
	room := f.width - f.labelW - 1
	if f.width <= 0 || room < minValueRoom || ansi.StringWidth(value) <= room {
		f.lines = append(f.lines, head+value)
		return
	}
	pad := strings.Repeat(" ", f.labelW+1)
	for i, l := range ui.WrapWords(value, room) {
		if i == 0 {
			f.lines = append(f.lines, head+l)
		} else {
			f.lines = append(f.lines, pad+l)
		}
	}
}

func (f *fields) heading(title string) {
	if len(f.lines) > 0 {
		f.lines = append(f.lines, "")
	}
	f.lines = append(f.lines, f.theme.Title.Render(title))
}

func (f *fields) line(s string) { f.lines = append(f.lines, s) }

// failure is an error line with the adapter's advice under it, if any.
func (f *fields) failure(text string, err error) {
	f.line(f.theme.Danger.Render("✗ " + text + errText(err)))
	if h := hintOf(err); h != "" {
		f.line(f.theme.Muted.Render("  " + h))
	}
}

// resultText is a result code for a detail pane, with its meaning when the
// code came through v2 (the only interface that documents them).
func resultText(code string, source backend.Interface) string {
	rc := textsafe.Clean(code)
	if rc != "" && source == backend.V2 {
		if m := backend.ResultMeaning(code); m != "" {
			rc += " — " + textsafe.Clean(m)
		}
	}
	return rc
}
