package xmlview

import (
	"slices"
	"strings"

	"paydash/backend/textsafe"
)

const (
	// maxDepth bounds element nesting; a deeper document stops the layout.
	maxDepth = 256
	// maxIndentLevels caps indentation so deep nesting stays on screen.
	maxIndentLevels = 40
	// indentWidth is the number of spaces a level indents.
	indentWidth = 2
)

// lineKind says what construct a laid-out line belongs to; Render styles
// some kinds without lexing them.
type lineKind uint8

const (
	kindDecl    lineKind = iota // <?xml version="1.0"?>
	kindPI                      // <?target data?>
	kindComment                 // <!-- ... -->
	kindCDATA                   // <![CDATA[ ... ]]>
	kindDoctype                 // <!DOCTYPE ...>
	kindOpen                    // the start tag of an element with children
	kindClose                   // the end tag of an element with children
	kindLeaf                    // <a>text</a>: an element holding only text
	kindEmpty                   // <a/>
	kindText                    // text between elements, trimmed
)

// Line flags: where a line stands in a construct split at its newlines.
const (
	flagContinued uint8 = 1 << iota // not the construct's first physical line
	flagInTag                       // begins inside a tag, among attributes
)

// line is one laid-out line: raw[start:end] drawn at depth. 12 bytes, so a
// 50,000-operation register (450,000 lines) costs about 5 MB of them.
type line struct {
	start, end int32
	depth      uint16
	kind       lineKind
	flags      uint8
}

func (l line) indent() int {
	return min(int(l.depth), maxIndentLevels) * indentWidth
}

// Doc is an XML document laid out one element a line. Make one with Parse.
type Doc struct {
	raw   []byte
	lines []line
	err   *SyntaxError
	notes []string
	cache renderCache
}

// Len is the number of laid-out lines.
func (d *Doc) Len() int { return len(d.lines) }

// Raw is the document as received, whole (even past a syntax error), for
// saving. Parse does not copy it: the caller must not change it.
func (d *Doc) Raw() []byte { return d.raw }

// Err is where the layout stopped on a malformed document, or nil.
func (d *Doc) Err() *SyntaxError { return d.err }

// Notes are remarks about the document worth showing beside it, such as a
// DOCTYPE that declares entities (never expanded).
func (d *Doc) Notes() []string { return slices.Clone(d.notes) }

// Plain is line i without styles: its indentation and its whole text (not
// cut to a width), neutralised with textsafe.Clean. It is "" for a line out
// of range.
func (d *Doc) Plain(i int) string {
	if i < 0 || i >= len(d.lines) {
		return ""
	}
	l := d.lines[i]
	return spaces(l.indent()) + textsafe.Clean(string(d.raw[l.start:l.end]))
}

var indentation = strings.Repeat(" ", maxIndentLevels*indentWidth)

// spaces is n spaces (n at most the indentation cap) without allocating.
func spaces(n int) string { return indentation[:n] }
