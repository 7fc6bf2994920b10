package forms

import (
	"regexp"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/help"
	"github.com/charmbracelet/x/ansi"

	"paydash/ui"
)

// View draws the form in width×height cells, never more: which page of
// how many (or the form's title, when it is all on one page), the page's
// fields, and the keys that work on the focused field (below 6 lines, the
// fields only). When the size changes it plans the pages again (as many
// fields a page as fit: layout.go) and lays huh out again. A form on
// several pages takes the whole height, so that its size does not change
// from page to page; a form on one page takes only the lines it needs. A
// form that is no longer being edited draws nothing.
func (f *Form) View(width, height int) string {
	if width <= 0 || height <= 0 || f.state != Editing {
		return ""
	}
	chrome := 3 // header, a blank line, the help line
	if height < 6 {
		chrome = 0
	}
	bodyH := height - chrome
	if width != f.width || bodyH != f.height {
		f.repage(width, bodyH)
		f.layout(width, bodyH)
	}
	body := f.hf.View()
	if len(f.pages) == 1 { // its lines and a blank one above the keys
		bodyH = min(bodyH, f.contentHeight(0)+1)
	}
	var lines []string
	if chrome > 0 {
		lines = append(lines, f.header(), "")
	}
	bl := strings.Split(body, "\n")
	for i := range bodyH {
		line := ""
		if i < len(bl) {
			line = bl[i]
		}
		lines = append(lines, line)
	}
	if chrome > 0 {
		lines = append(lines, f.helpLine(width))
	}
	for i, l := range lines {
		if f.d.Theme.NoColor {
			l = dropColours(l)
		}
		if ansi.StringWidth(l) > width {
			l = ansi.Truncate(l, width, "")
		}
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}

// layout sizes huh's groups and fields and redraws their content.
func (f *Form) layout(width, bodyH int) {
	f.width, f.height = width, bodyH
	f.hf.WithWidth(width).WithHeight(bodyH)
	f.refresh()
}

// refresh redraws the page's content: huh rebuilds it only in Update.
func (f *Form) refresh() { f.hf.Update(relayoutMsg{}) }

type relayoutMsg struct{}

func (f *Form) header() string {
	t := f.d.Theme
	i := f.pageIndex()
	title := f.pages[i].title
	if title == "" { // a page of several sections, each under its heading
		title = f.title
	}
	if len(f.pages) == 1 {
		return t.Title.Render(title)
	}
	return t.Title.Render(title) + t.Muted.Render(" · page "+itoa(i+1)+" of "+itoa(len(f.pages)))
}

// helpLine lists the focused field's keys (huh's, as enabled for its
// position) and esc; keys are dropped from the end to fit, esc never.
func (f *Form) helpLine(width int) string {
	st := f.d.Theme.Help
	var items []string
	for _, b := range f.hf.KeyBinds() {
		h := b.Help()
		if !b.Enabled() || h.Key == "" {
			continue
		}
		items = append(items, st.Key.Render(h.Key)+" "+st.Desc.Render(h.Desc))
	}
	esc := st.Key.Render("esc") + " " + st.Desc.Render("cancel")
	sep := st.Separator.Render(" • ")
	for {
		line := strings.Join(append(items[:len(items):len(items)], esc), sep)
		if ansi.StringWidth(line) <= width || len(items) == 0 {
			return line
		}
		items = items[:len(items)-1]
	}
}

func helpStyles(t ui.Theme) help.Styles {
	return help.Styles{
		Ellipsis: t.Help.Ellipsis,
		ShortKey: t.Help.Key, ShortDesc: t.Help.Desc, ShortSeparator: t.Help.Separator,
		FullKey: t.Help.Key, FullDesc: t.Help.Desc, FullSeparator: t.Help.Separator,
	}
}

// dropColours removes the colour parameters from the SGR sequences in s
// and keeps the attributes (bold, reverse, …). huh gives a blurred text
// input the text input's own default colours, which no huh theme reaches;
// with NoColor they must go.
func dropColours(s string) string {
	if !strings.Contains(s, "\x1b[") {
		return s
	}
	return sgrSeq.ReplaceAllStringFunc(s, func(seq string) string {
		params := seq[2 : len(seq)-1]
		if params == "" {
			return seq
		}
		var keep []string
		ps := strings.Split(params, ";")
		for i := 0; i < len(ps); i++ {
			p := ps[i]
			n, err := strconv.Atoi(p)
			switch {
			case err != nil: // "38:5:240" and other colon forms: a colour
				if !strings.HasPrefix(p, "38:") && !strings.HasPrefix(p, "48:") && !strings.HasPrefix(p, "58:") {
					keep = append(keep, p)
				}
			case n == 38 || n == 48 || n == 58:
				if i+1 < len(ps) && ps[i+1] == "5" {
					i += 2
				} else if i+1 < len(ps) && ps[i+1] == "2" {
					i += 4
				}
			case n >= 30 && n <= 49, n == 59, n >= 90 && n <= 107:
			default:
				keep = append(keep, p)
			}
		}
		if len(keep) == 0 {
			return ""
		}
		return "\x1b[" + strings.Join(keep, ";") + "m"
	})
}

var sgrSeq = regexp.MustCompile(`\x1b\[[0-9;:]*m`)
