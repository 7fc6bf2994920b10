package xmlview

import (
	"sort"
	"strings"
	"unicode/utf8"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"paydash/backend/textsafe"
)

// Styles draw the parts of a line. Only colours, text attributes,
// hyperlinks and transforms are used: Render draws them inline, without the
// widths, padding, margins, borders or strings a theme's style may carry.
// Zero-value styles draw plain text, which is what NO_COLOR wants.
type Styles struct {
	Tag       lipgloss.Style // tag brackets "<", "</", ">", "/>"; XML declaration, processing instructions, DOCTYPE
	Name      lipgloss.Style // element names
	AttrName  lipgloss.Style // attribute names
	AttrValue lipgloss.Style // attribute values, with their quotes
	Text      lipgloss.Style // text content, and the inside of CDATA sections
	Comment   lipgloss.Style // comments
	Punct     lipgloss.Style // "=" between an attribute and its value; "<![CDATA[" and "]]>"
	Entity    lipgloss.Style // entity and character references, as written
	Error     lipgloss.Style // characters the lexer could not read (a stray "&", say)
	Match     lipgloss.Style // search matches
	Current   lipgloss.Style // the current search match
}

// role is what a piece of a line is, and so which style draws it.
type role uint8

const (
	roleText role = iota
	roleTag
	roleName
	roleAttrName
	roleAttrValue
	roleComment
	rolePunct
	roleEntity
	roleError
	roleMatch
	roleCurrent
)

func (st *Styles) of(r role) *lipgloss.Style {
	switch r {
	case roleTag:
		return &st.Tag
	case roleName:
		return &st.Name
	case roleAttrName:
		return &st.AttrName
	case roleAttrValue:
		return &st.AttrValue
	case roleComment:
		return &st.Comment
	case rolePunct:
		return &st.Punct
	case roleEntity:
		return &st.Entity
	case roleError:
		return &st.Error
	case roleMatch:
		return &st.Match
	case roleCurrent:
		return &st.Current
	}
	return &st.Text
}

// span is content[from:to] drawn in a role; offsets are within the line.
type span struct {
	from, to int
	role     role
}

// piece is neutralised text ready to style, with its width in cells.
type piece struct {
	text  string
	width int
	role  role
}

// Render draws line i cut to width cells ("…" when cut; never wider, never
// padded), highlighted with st. Every match of m on the line is drawn with
// st.Match and match cur (an index into m; -1 for none) with st.Current.
// m may be nil; matches of another Doc are ignored. Render keeps drawn lines
// in a cache, so it must not be called from two goroutines at once. To
// draw a screen, Lines is cheaper: it reads the styles once.
func (d *Doc) Render(i, width int, st Styles, m *Matches, cur int) string {
	if i < 0 || i >= len(d.lines) || width <= 0 {
		return ""
	}
	return d.render(i, width, d.cache.stylesFor(&st), m, cur)
}

// Lines draws lines [from, to) as Render does, one string a line; lines
// out of range are left out.
func (d *Doc) Lines(from, to, width int, st Styles, m *Matches, cur int) []string {
	from, to = max(from, 0), min(to, len(d.lines))
	if from >= to || width <= 0 {
		return nil
	}
	styles := d.cache.stylesFor(&st)
	out := make([]string, 0, to-from)
	for i := from; i < to; i++ {
		out = append(out, d.render(i, width, styles, m, cur))
	}
	return out
}

func (d *Doc) render(i, width int, styles *Styles, m *Matches, cur int) string {
	if m != nil && m.doc != d {
		m = nil
	}
	hits, first := m.onLine(i)
	key := renderKey{line: i, width: width, current: -1}
	if len(hits) > 0 {
		key.matches = m
		if cur >= first && cur < first+len(hits) {
			key.current = cur - first
		}
	}
	if s, ok := d.cache.get(key); ok {
		return s
	}
	s := d.draw(d.lines[i], width, styles, hits, key.current)
	d.cache.put(key, s)
	return s
}

// draw renders one line; current indexes hits (-1 for none).
func (d *Doc) draw(l line, width int, st *Styles, hits []hit, current int) string {
	content, cut := visiblePrefix(d.raw[l.start:l.end], width)
	hits = hitsBefore(hits, int(l.start)+len(content))
	spans := tokenise(l, content)
	spans = markMatches(spans, hits, int(l.start), current)
	pieces := neutralise(content, spans)
	return compose(l.indent(), pieces, cut, width, st)
}

// visiblePrefix bounds the bytes to draw: at most four bytes a cell (and
// some slack for escapes and combining marks), cut on a rune boundary, so
// a 1 MB text node costs what a short one does. cut says bytes were left.
func visiblePrefix(content []byte, width int) ([]byte, bool) {
	limit := 4*width + 64
	if len(content) <= limit {
		return content, false
	}
	for limit > 0 && !utf8.RuneStart(content[limit]) {
		limit--
	}
	return content[:limit], true
}

// hitsBefore drops the matches that start at or after end (past the visible
// prefix), so that drawing costs the same however many matches a line has.
func hitsBefore(hits []hit, end int) []hit {
	return hits[:sort.Search(len(hits), func(k int) bool { return int(hits[k].start) >= end })]
}

// markMatches splits spans at the matches' edges and gives the parts inside
// a match the match's role. Offsets of hits are in raw; base is the line's.
func markMatches(spans []span, hits []hit, base, current int) []span {
	if len(hits) == 0 {
		return spans
	}
	out := make([]span, 0, len(spans)+2*len(hits))
	h := 0
	for _, sp := range spans {
		for from := sp.from; from < sp.to; {
			for h < len(hits) && int(hits[h].end)-base <= from {
				h++
			}
			if h == len(hits) || int(hits[h].start)-base >= sp.to {
				out = append(out, span{from, sp.to, sp.role})
				break
			}
			if start := int(hits[h].start) - base; start > from {
				out = append(out, span{from, start, sp.role})
				from = start
				continue
			}
			to := min(int(hits[h].end)-base, sp.to)
			r := roleMatch
			if h == current {
				r = roleCurrent
			}
			out = append(out, span{from, to, r})
			from = to
		}
	}
	return out
}

// neutralise cleans each span's text on its own, after every cut has been
// made, so that no escape sequence can be reassembled from pieces; pieces
// of one role that touch are then joined (cleaned text holds no ESC, so
// joining cannot make one).
func neutralise(content []byte, spans []span) []piece {
	pieces := make([]piece, 0, len(spans))
	for _, sp := range spans {
		text := textsafe.Clean(string(content[sp.from:sp.to]))
		if text == "" {
			continue
		}
		if n := len(pieces); n > 0 && pieces[n-1].role == sp.role {
			pieces[n-1].text += text
			continue
		}
		pieces = append(pieces, piece{text: text, role: sp.role})
	}
	for k := range pieces {
		pieces[k].width = ansi.StringWidth(pieces[k].text)
	}
	return pieces
}

// ellipsis marks a line cut at the right edge.
const ellipsis = "…"

// compose lays the indentation and pieces into width cells, cutting with
// "…" when they do not fit or the content was cut already, and styles them.
func compose(indent int, pieces []piece, cut bool, width int, st *Styles) string {
	total := indent
	for _, p := range pieces {
		total += p.width
	}
	budget := width
	if cut || total > width {
		budget = width - 1 // room for the ellipsis
	}
	var b strings.Builder
	used := min(indent, budget)
	b.WriteString(spaces(used))
	for _, p := range pieces {
		if used+p.width > budget {
			if rest := ansi.Truncate(p.text, budget-used, ""); rest != "" {
				b.WriteString(st.of(p.role).Render(rest))
			}
			break
		}
		b.WriteString(st.of(p.role).Render(p.text))
		used += p.width
	}
	if budget < width {
		b.WriteString(ellipsis)
	}
	return neverWider(b.String(), width)
}

// neverWider is the last guard on the width. Widths summed piece by piece
// can fall short of the whole: a variation selector starting one piece
// widens the character ending the one before.
func neverWider(s string, width int) string {
	if ansi.StringWidth(s) <= width {
		return s
	}
	return ansi.Truncate(s, width, ellipsis)
}
