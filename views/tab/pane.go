package tab

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

// PaneWidth is the width of a detail pane beside the list.
func PaneWidth(w int) int { return min(max(60, w*2/5), 100) }

// Scroller is the scroll position of a detail pane's view. Keys move it
// knowing how many lines there are (Update); drawing clamps a copy, so
// View changes nothing.
type Scroller struct {
	Offset int
}

// Key scrolls for a movement action over total lines of which body are
// shown; it reports whether the action was one.
func (s *Scroller) Key(action keys.Action, total, body int) bool {
	page := max(body-1, 1)
	switch action {
	case keys.ActUp:
		s.Offset--
	case keys.ActDown:
		s.Offset++
	case keys.ActPageUp:
		s.Offset -= page
	case keys.ActPageDown:
		s.Offset += page
	case keys.ActTop:
		s.Offset = 0
	case keys.ActBottom:
		s.Offset = total
	default:
		return false
	}
	s.Offset = ClampOffset(s.Offset, total, body)
	return true
}

func ClampOffset(offset, total, body int) int {
	return max(min(offset, total-body), 0)
}

// PaneBody is the number of content lines a pane of height h shows (the
// title takes one).
func PaneBody(h int) int { return max(h-1, 0) }

// Render draws a pane of exactly w × h cells: a title line (with the scroll
// position when the content is taller than the pane) and the content. With
// border, a vertical rule on the left (three cells with its margins)
// separates it from the list.
func (s Scroller) Render(theme ui.Theme, title string, lines []string, w, h int, border bool) []string {
	if w <= 0 || h <= 0 {
		return nil
	}
	inner, prefix := w, ""
	if border {
		inner = w - 3
		prefix = " " + theme.Border.Render("│") + " "
	}
	total, body := len(lines), PaneBody(h)
	offset := ClampOffset(s.Offset, total, body)
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
	out = append(out, prefix+Fit(head, inner))
	end := min(offset+body, total)
	var shown []string
	if offset < end {
		shown = lines[offset:end]
	}
	for _, l := range Block(shown, inner, body) {
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

// Fields are the "label  value" lines of a detail pane; an empty value
// gives no line (add). With width set (the pane's inner width, detail's
// inner), a value longer than the room right of its label is wrapped
// under it, at spaces, a word longer than the room (a link, a payload)
// cut into lines: never cut short, so every value shows whole.
type Fields struct {
	Theme  ui.Theme
	LabelW int
	Width  int // 0: values are not wrapped (the pane cuts them)
	Lines  []string
}

// minValueRoom is the narrowest room right of a label worth wrapping in.
const minValueRoom = 8

func (f *Fields) Add(label, value string) {
	if value == "" {
		return
	}
	f.AddAlways(label, value)
}

// AddAlways is add, with a line even for an empty value (a value already
// styled, such as the status).
func (f *Fields) AddAlways(label, value string) {
	head := f.Theme.Muted.Render(Fit(label, f.LabelW)) + " "
	room := f.Width - f.LabelW - 1
	if f.Width <= 0 || room < minValueRoom || ansi.StringWidth(value) <= room {
		f.Lines = append(f.Lines, head+value)
		return
	}
	pad := strings.Repeat(" ", f.LabelW+1)
	for i, l := range ui.WrapWords(value, room) {
		if i == 0 {
			f.Lines = append(f.Lines, head+l)
		} else {
			f.Lines = append(f.Lines, pad+l)
		}
	}
}

func (f *Fields) Heading(title string) {
	if len(f.Lines) > 0 {
		f.Lines = append(f.Lines, "")
	}
	f.Lines = append(f.Lines, f.Theme.Title.Render(title))
}

func (f *Fields) Line(s string) { f.Lines = append(f.Lines, s) }

// Failure is an error line with the adapter's advice under it, if any.
func (f *Fields) Failure(text string, err error) {
	f.Line(f.Theme.Danger.Render("✗ " + text + ErrText(err)))
	if h := HintOf(err); h != "" {
		f.Line(f.Theme.Muted.Render("  " + h))
	}
}

// ResultText is a result code for a detail pane, with its meaning when the
// code came through v2 (the only interface that documents them).
func ResultText(code string, source backend.Interface) string {
	rc := textsafe.Clean(code)
	if rc != "" && source == backend.V2 {
		if m := backend.ResultMeaning(code); m != "" {
			rc += " — " + textsafe.Clean(m)
		}
	}
	return rc
}
