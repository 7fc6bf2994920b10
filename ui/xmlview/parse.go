package xmlview

import (
	"bytes"
	"fmt"
	"math"
	"slices"
)

// Parse lays raw out: one element a line, indented two spaces a level. It
// never fails: a malformed document is laid out as far as it parses and
// Err says where it stopped. Parse keeps raw without copying it.
//
// It is a byte scanner, not a validating parser: it checks what the layout
// needs (tags balanced and well-formed, nothing outside the root but
// comments and processing instructions) and leaves the rest (entity syntax,
// '<' in attribute values, duplicate attributes) to be shown as written.
func Parse(raw []byte) *Doc {
	p := &parser{
		raw:    raw,
		lines:  make([]line, 0, estimateLines(len(raw))),
		nextNL: -1,
	}
	p.run()
	lines := p.lines
	if cap(lines) > 2*len(lines)+1024 {
		// Few lines for the size (long text nodes): give back the estimate.
		lines = slices.Clone(lines)
	}
	return &Doc{raw: raw, lines: lines, err: p.err, notes: p.notes}
}

// estimateLines guesses the number of lines from the size: a register's
// lines average about 29 bytes, so a slight overestimate saves the copies
// of growing a 450,000-line slice.
func estimateLines(size int) int {
	return size/24 + 16
}

var byteOrderMark = []byte("\xef\xbb\xbf")

// parser holds the state of one layout.
type parser struct {
	raw   []byte
	pos   int
	lines []line
	open  []openElement // elements started and not yet ended

	rootSeen     bool // the root element has started
	rootDone     bool // the root element has ended
	doctypeSeen  bool
	deepNoteMade bool

	// nextNL caches the position of the next '\n' (len(raw) when none, -1
	// before the first look), so that finding line breaks costs one pass.
	nextNL int

	err   *SyntaxError
	notes []string
}

// openElement is a started element; its name is raw[tagStart+1 : nameEnd].
type openElement struct {
	tagStart, nameEnd int
}

func (p *parser) name(e openElement) []byte { return p.raw[e.tagStart+1 : e.nameEnd] }

func (p *parser) depth() int { return len(p.open) }

func (p *parser) fail(offset int, format string, args ...any) {
	p.err = newSyntaxError(p.raw, offset, len(p.lines), fmt.Sprintf(format, args...))
}

func (p *parser) note(msg string) { p.notes = append(p.notes, msg) }

func (p *parser) run() {
	if len(p.raw) > math.MaxInt32 {
		// Line records hold 32-bit offsets.
		p.fail(0, "document larger than 2 GiB")
		return
	}
	if bytes.HasPrefix(p.raw, byteOrderMark) {
		p.pos = len(byteOrderMark)
	}
	for p.err == nil && p.pos < len(p.raw) {
		lt := bytes.IndexByte(p.raw[p.pos:], '<')
		if lt < 0 {
			p.text(p.pos, len(p.raw))
			break
		}
		at := p.pos + lt
		if lt > 0 {
			if p.text(p.pos, at); p.err != nil {
				return
			}
		}
		p.markup(at)
	}
	if p.err == nil {
		p.checkEnd()
	}
}

// checkEnd reports what is still missing when the document has ended.
func (p *parser) checkEnd() {
	switch {
	case len(p.open) > 0:
		e := p.open[len(p.open)-1]
		at := newSyntaxError(p.raw, e.tagStart, 0, "")
		p.fail(len(p.raw), "element <%s> (opened at line %d, column %d) not closed at the end of the document",
			quoteName(p.name(e)), at.Line, at.Column)
	case !p.rootSeen && len(p.lines) == 0:
		p.fail(0, "empty document")
	case !p.rootSeen:
		p.fail(len(p.raw), "no root element")
	}
}

// text handles the characters between two pieces of markup.
func (p *parser) text(from, to int) {
	p.pos = to
	if len(p.open) == 0 {
		if i := firstNonSpace(p.raw, from, to); i >= 0 {
			if p.rootDone {
				p.fail(i, "text after the root element")
			} else {
				p.fail(i, "text before the root element")
			}
		}
		return
	}
	if s := firstNonSpace(p.raw, from, to); s >= 0 {
		e := lastNonSpace(p.raw, s, to) + 1
		p.emit(s, e, p.depth(), kindText, 0)
	}
	// Whitespace-only text between elements is formatting: dropped.
}

// markup handles the construct that starts with the '<' at at.
func (p *parser) markup(at int) {
	if at+1 >= len(p.raw) {
		p.fail(at, "'<' at the end of the document")
		return
	}
	switch c := p.raw[at+1]; {
	case c == '?':
		p.processingInstruction(at)
	case c == '!':
		p.bang(at)
	case c == '/':
		p.endTag(at)
	case isNameStart(c):
		p.startTag(at)
	default:
		p.fail(at, "'<' followed by %s, not a name", describeByte(c))
	}
}

func (p *parser) processingInstruction(at int) {
	if at+2 >= len(p.raw) || !isNameStart(p.raw[at+2]) {
		p.fail(at, "processing instruction without a target")
		return
	}
	end := p.indexFrom(at+2, "?>")
	if end < 0 {
		p.fail(at, "unterminated processing instruction")
		return
	}
	end += len("?>")
	kind := kindPI
	if decl := p.raw[at:end]; isXMLDecl(decl) {
		kind = kindDecl
		p.noteEncoding(decl)
	}
	p.emit(at, end, p.depth(), kind, end)
	p.pos = end
}

// bang handles "<!": a comment, a CDATA section or a DOCTYPE.
func (p *parser) bang(at int) {
	rest := p.raw[at:]
	switch {
	case bytes.HasPrefix(rest, []byte("<!--")):
		p.delimited(at, len("<!--"), "-->", kindComment, "unterminated comment")
	case bytes.HasPrefix(rest, []byte("<![CDATA[")):
		if len(p.open) == 0 {
			p.fail(at, "CDATA section outside the root element")
			return
		}
		p.delimited(at, len("<![CDATA["), "]]>", kindCDATA, "unterminated CDATA section")
	case bytes.HasPrefix(rest, []byte("<!DOCTYPE")):
		p.doctype(at)
	default:
		p.fail(at, "'<!' not followed by a comment, a CDATA section or a DOCTYPE")
	}
}

// delimited lays out a construct that runs from at to the terminator.
func (p *parser) delimited(at, openLen int, terminator string, kind lineKind, unterminated string) {
	end := p.indexFrom(at+openLen, terminator)
	if end < 0 {
		p.fail(at, "%s", unterminated)
		return
	}
	end += len(terminator)
	p.emit(at, end, p.depth(), kind, 0)
	p.pos = end
}

func (p *parser) doctype(at int) {
	switch {
	case p.rootSeen:
		p.fail(at, "DOCTYPE after the root element")
		return
	case p.doctypeSeen:
		p.fail(at, "second DOCTYPE")
		return
	}
	end := p.doctypeEnd(at + len("<!DOCTYPE"))
	if end < 0 {
		p.fail(at, "unterminated DOCTYPE")
		return
	}
	p.doctypeSeen = true
	if bytes.Contains(p.raw[at:end], []byte("<!ENTITY")) {
		p.note("the DOCTYPE declares entities; they are shown as written, never expanded")
	}
	p.emit(at, end, 0, kindDoctype, 0)
	p.pos = end
}

// doctypeEnd finds the end of a DOCTYPE: the '>' that is outside quotes and
// outside the internal subset [...], which holds declarations with '>' of
// their own. It is -1 when there is none.
func (p *parser) doctypeEnd(i int) int {
	inSubset := false
	for i < len(p.raw) {
		switch c := p.raw[i]; {
		case c == '"' || c == '\'':
			q := bytes.IndexByte(p.raw[i+1:], c)
			if q < 0 {
				return -1
			}
			i += q + 2
			continue
		case inSubset && bytes.HasPrefix(p.raw[i:], []byte("<!--")):
			e := p.indexFrom(i+len("<!--"), "-->")
			if e < 0 {
				return -1
			}
			i = e + len("-->")
			continue
		case c == '[':
			inSubset = true
		case c == ']':
			inSubset = false
		case c == '>' && !inSubset:
			return i + 1
		}
		i++
	}
	return -1
}

func (p *parser) startTag(at int) {
	nameEnd := p.scanName(at + 1)
	name := p.raw[at+1 : nameEnd]
	switch {
	case p.rootDone:
		p.fail(at, "second root element <%s>", quoteName(name))
		return
	case len(p.open) >= maxDepth:
		p.fail(at, "elements nested deeper than %d", maxDepth)
		return
	}
	tagEnd, selfClosing := p.scanAttributes(at, nameEnd)
	if p.err != nil {
		return
	}
	p.rootSeen = true
	depth := p.depth()
	p.noteDeepNesting(depth)
	if selfClosing {
		p.emit(at, tagEnd, depth, kindEmpty, tagEnd)
		p.closed(tagEnd)
		return
	}
	if leafEnd := p.leafEnd(name, tagEnd); leafEnd > 0 {
		p.emit(at, leafEnd, depth, kindLeaf, tagEnd)
		p.closed(leafEnd)
		return
	}
	p.emit(at, tagEnd, depth, kindOpen, tagEnd)
	p.open = append(p.open, openElement{tagStart: at, nameEnd: nameEnd})
	p.pos = tagEnd
}

// closed moves past an element that ended at end.
func (p *parser) closed(end int) {
	p.pos = end
	if len(p.open) == 0 {
		p.rootDone = true
	}
}

// scanAttributes reads a start tag's attributes, from just after its name,
// and returns the offset after its '>' and whether it ended with "/>".
// On malformed input it sets p.err.
func (p *parser) scanAttributes(at, i int) (tagEnd int, selfClosing bool) {
	name := func() string { return quoteName(p.raw[at+1 : p.scanName(at+1)]) }
	for {
		spaced := i
		i = p.skipSpace(i)
		if i >= len(p.raw) {
			p.fail(at, "unterminated start tag <%s", name())
			return 0, false
		}
		switch c := p.raw[i]; {
		case c == '>':
			return i + 1, false
		case c == '/':
			if i+1 < len(p.raw) && p.raw[i+1] == '>' {
				return i + 2, true
			}
			p.fail(i, "'/' in start tag <%s> not followed by '>'", name())
			return 0, false
		case !isNameStart(c):
			p.fail(i, "unexpected %s in start tag <%s>", describeByte(c), name())
			return 0, false
		case i == spaced:
			p.fail(i, "attributes in start tag <%s> not separated by white space", name())
			return 0, false
		}
		if i = p.scanAttribute(at, i, name); p.err != nil {
			return 0, false
		}
	}
}

// scanAttribute reads name="value" from i and returns the offset after it.
func (p *parser) scanAttribute(at, i int, tagName func() string) int {
	nameEnd := p.scanName(i)
	attr := quoteName(p.raw[i:nameEnd])
	j := p.skipSpace(nameEnd)
	switch {
	case j >= len(p.raw):
		p.fail(at, "unterminated start tag <%s", tagName())
		return 0
	case p.raw[j] != '=':
		p.fail(i, "attribute %s in <%s> has no value", attr, tagName())
		return 0
	}
	j = p.skipSpace(j + 1)
	if j >= len(p.raw) {
		p.fail(at, "unterminated start tag <%s", tagName())
		return 0
	}
	quote := p.raw[j]
	if quote != '"' && quote != '\'' {
		p.fail(j, "value of attribute %s in <%s> not quoted", attr, tagName())
		return 0
	}
	closing := bytes.IndexByte(p.raw[j+1:], quote)
	if closing < 0 {
		p.fail(j, "value of attribute %s in <%s> not closed", attr, tagName())
		return 0
	}
	return j + 1 + closing + 1
}

// leafEnd is the offset after the end tag when the element whose start tag
// ends at tagEnd holds only text, else -1. A leaf is laid out on one line.
func (p *parser) leafEnd(name []byte, tagEnd int) int {
	lt := bytes.IndexByte(p.raw[tagEnd:], '<')
	if lt < 0 {
		return -1
	}
	endTag := tagEnd + lt
	if endTag+1 >= len(p.raw) || p.raw[endTag+1] != '/' {
		return -1
	}
	nameEnd := p.scanName(endTag + 2)
	if !bytes.Equal(p.raw[endTag+2:nameEnd], name) {
		return -1 // the main loop reports the mismatch
	}
	gt := p.skipSpace(nameEnd)
	if gt >= len(p.raw) || p.raw[gt] != '>' {
		return -1
	}
	return gt + 1
}

func (p *parser) endTag(at int) {
	nameStart := at + len("</")
	nameEnd := p.scanName(nameStart)
	name := p.raw[nameStart:nameEnd]
	if nameEnd == nameStart {
		p.fail(at, "'</' not followed by a name")
		return
	}
	gt := p.skipSpace(nameEnd)
	switch {
	case gt >= len(p.raw):
		p.fail(at, "unterminated end tag </%s", quoteName(name))
		return
	case p.raw[gt] != '>':
		p.fail(gt, "unexpected %s in end tag </%s>", describeByte(p.raw[gt]), quoteName(name))
		return
	case len(p.open) == 0 && p.rootDone:
		p.fail(at, "end tag </%s> after the root element", quoteName(name))
		return
	case len(p.open) == 0:
		p.fail(at, "end tag </%s> without a start tag", quoteName(name))
		return
	}
	top := p.open[len(p.open)-1]
	if !bytes.Equal(p.name(top), name) {
		p.fail(at, "element <%s> closed by </%s>", quoteName(p.name(top)), quoteName(name))
		return
	}
	p.open = p.open[:len(p.open)-1]
	p.emit(at, gt+1, p.depth(), kindClose, gt+1)
	p.closed(gt + 1)
}

// noteDeepNesting says once that indentation stops growing.
func (p *parser) noteDeepNesting(depth int) {
	if depth > maxIndentLevels && !p.deepNoteMade {
		p.deepNoteMade = true
		p.note(fmt.Sprintf("elements nested deeper than %d levels are drawn at the indentation of level %d", maxIndentLevels, maxIndentLevels))
	}
}

// noteEncoding warns when the XML declaration names an encoding other than
// UTF-8: the bytes are shown as UTF-8 all the same (nothing is converted).
func (p *parser) noteEncoding(decl []byte) {
	enc := attributeValue(decl, "encoding")
	if enc == nil || bytes.EqualFold(enc, []byte("UTF-8")) || bytes.EqualFold(enc, []byte("UTF8")) {
		return
	}
	p.note(fmt.Sprintf("the declaration names the encoding %s; the text is shown as UTF-8", quoteName(enc)))
}

// emit lays out raw[start:end], one line per physical line when it holds
// newlines. tagEnd is the offset after the construct's start tag (0 when
// it has none), to tell a line that continues the tag's attributes.
func (p *parser) emit(start, end, depth int, kind lineKind, tagEnd int) {
	if p.newlineIn(start, end) < 0 {
		p.lines = append(p.lines, line{start: int32(start), end: int32(end), depth: uint16(depth), kind: kind})
		return
	}
	flags := uint8(0)
	for s := start; ; {
		nl := p.newlineIn(s, end)
		e := end
		if nl >= 0 {
			e = nl
		}
		if s > start {
			flags = flagContinued
			if s < tagEnd {
				flags |= flagInTag
			}
		}
		p.addPhysicalLine(s, e, depth, kind, flags)
		if nl < 0 {
			return
		}
		s = nl + 1
	}
}

// addPhysicalLine adds one physical line of a construct split at newlines.
func (p *parser) addPhysicalLine(s, e, depth int, kind lineKind, flags uint8) {
	if e > s && p.raw[e-1] == '\r' {
		e--
	}
	if flags&flagInTag != 0 {
		// Attributes continuing a tag: drawn one level in, whatever their
		// indentation in the source.
		s = min(p.skipSpace(s), e)
		depth++
	}
	if kind == kindText {
		if s = firstNonSpace(p.raw, s, e); s < 0 {
			return // a blank line inside text
		}
		e = lastNonSpace(p.raw, s, e) + 1
	}
	p.lines = append(p.lines, line{start: int32(s), end: int32(e), depth: uint16(depth), kind: kind, flags: flags})
}

// newlineIn is the offset of the first '\n' in raw[from:to], or -1. It
// remembers the next newline, so the whole document is scanned once.
func (p *parser) newlineIn(from, to int) int {
	if p.nextNL < from {
		if i := bytes.IndexByte(p.raw[from:], '\n'); i >= 0 {
			p.nextNL = from + i
		} else {
			p.nextNL = len(p.raw)
		}
	}
	if p.nextNL < to {
		return p.nextNL
	}
	return -1
}

func (p *parser) indexFrom(from int, s string) int {
	if i := bytes.Index(p.raw[from:], []byte(s)); i >= 0 {
		return from + i
	}
	return -1
}

func (p *parser) scanName(i int) int {
	for i < len(p.raw) && nameByte[p.raw[i]] {
		i++
	}
	return i
}

func (p *parser) skipSpace(i int) int {
	for i < len(p.raw) && isSpace(p.raw[i]) {
		i++
	}
	return i
}

func isSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\t' || c == '\r' }

func firstNonSpace(b []byte, from, to int) int {
	for i := from; i < to; i++ {
		if !isSpace(b[i]) {
			return i
		}
	}
	return -1
}

func lastNonSpace(b []byte, from, to int) int {
	for i := to - 1; i >= from; i-- {
		if !isSpace(b[i]) {
			return i
		}
	}
	return -1
}

// nameByte says which bytes may appear in a name. Every byte of a multi-byte
// UTF-8 sequence counts, so non-ASCII names work without decoding.
var nameByte = func() (t [256]bool) {
	for c := range 256 {
		t[c] = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
			c == '_' || c == ':' || c == '.' || c == '-' || c >= 0x80
	}
	return t
}()

func isNameStart(c byte) bool {
	return nameByte[c] && !(c >= '0' && c <= '9') && c != '.' && c != '-'
}

// isXMLDecl tells the XML declaration from other processing instructions.
func isXMLDecl(pi []byte) bool {
	rest, ok := bytes.CutPrefix(pi, []byte("<?xml"))
	return ok && len(rest) > 0 && (isSpace(rest[0]) || rest[0] == '?')
}

// attributeValue finds name="value" in a declaration, or nil.
func attributeValue(decl []byte, name string) []byte {
	i := bytes.Index(decl, []byte(name))
	if i < 0 {
		return nil
	}
	rest := bytes.TrimLeft(decl[i+len(name):], " \t\r\n")
	rest, ok := bytes.CutPrefix(rest, []byte("="))
	if !ok {
		return nil
	}
	rest = bytes.TrimLeft(rest, " \t\r\n")
	if len(rest) == 0 || rest[0] != '"' && rest[0] != '\'' {
		return nil
	}
	end := bytes.IndexByte(rest[1:], rest[0])
	if end < 0 {
		return nil
	}
	return rest[1 : 1+end]
}
