package v1

import (
	"bytes"
	"errors"
	"unicode/utf8"
)

// A fast path for XML answers. encoding/xml reads about 20 MB/s, so the
// XML register of 50,000 operations (~13 MB) would take over half a second
// against the 150 ms allowed for parsing it and drawing the first frame.
// The answers are plain: no namespaces, no CDATA, no DTD. fastXML reads
// exactly that subset straight into the answer types and gives up
// (errSlowPath) on anything else, or on any error at all, and decodeXML
// then runs encoding/xml on the same bytes. So the fast path
// decides nothing on its own: whenever it succeeds, the result is the one
// encoding/xml gives, which FuzzDecodeXML checks.
//
// The register has its own path (fastxml_register.go). On the benchmark's
// register (BenchmarkDecodeRegister, 2 cores) the fast path takes 25-40 ms
// (quiet to loaded machine) and 16 MB in 74 allocations, against 550-700
// ms for encoding/xml on the same bytes (the xml-encoding sub-benchmark),
// and 110-120 ms before the register had its own path.

var errSlowPath = errors.New("fastxml: not handled")

const fastMaxDepth = 64

type fastXML struct {
	b     []byte
	i     int
	depth int
	buf   []byte // the text of the element being read
}

// decodeXMLFast fills root from b (BOM and surrounding space already
// trimmed) or returns errSlowPath.
func decodeXMLFast(b []byte, root *xmlRoot) error {
	f := &fastXML{b: b}
	if err := f.prolog(); err != nil {
		return err
	}
	name, empty, err := f.startTag()
	if err != nil {
		return err
	}
	return f.root(root, name, empty)
	// Whatever follows the root element is not read, as by xml.Decoder.Decode.
}

// prolog skips what may precede the root: space, one XML declaration
// (version 1.0, UTF-8) at the very start, and comments.
func (f *fastXML) prolog() error {
	if bytes.HasPrefix(f.b, []byte("<?xml")) {
		end := bytes.Index(f.b, []byte("?>"))
		if end < 0 {
			return errSlowPath
		}
		decl := f.b[len("<?xml"):end]
		if len(decl) == 0 || !isSpace(decl[0]) {
			return errSlowPath
		}
		if !plainDeclaration(decl) {
			return errSlowPath
		}
		f.i = end + 2
	}
	for {
		f.skipSpace()
		if bytes.HasPrefix(f.b[f.i:], []byte("<!--")) {
			if err := f.comment(); err != nil {
				return err
			}
			continue
		}
		if f.i < len(f.b) && f.b[f.i] == '<' && f.i+1 < len(f.b) && isNameStart(f.b[f.i+1]) {
			return nil
		}
		return errSlowPath
	}
}

// plainDeclaration accepts version="1.0" with an optional UTF-8 encoding,
// in either quotes, and nothing else.
func plainDeclaration(decl []byte) bool {
	fields := bytes.Fields(decl)
	if len(fields) == 0 || len(fields) > 2 {
		return false
	}
	ok := func(field []byte, name string, values ...string) bool {
		for _, v := range values {
			if string(field) == name+`="`+v+`"` || string(field) == name+`='`+v+`'` {
				return true
			}
		}
		return false
	}
	if !ok(fields[0], "version", "1.0") {
		return false
	}
	return len(fields) == 1 || ok(fields[1], "encoding", "UTF-8", "utf-8")
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func isNameStart(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c == '_'
}

func isNameChar(c byte) bool { return nameChars[c] }

// nameChars is isNameChar as a table: names are scanned a byte at a time,
// and a register has a few hundred thousand of them.
var nameChars = func() (t [256]bool) {
	for c := range t {
		b := byte(c)
		t[c] = isNameStart(b) || b >= '0' && b <= '9' || b == '-' || b == '.'
	}
	return t
}()

func (f *fastXML) skipSpace() {
	for f.i < len(f.b) && isSpace(f.b[f.i]) {
		f.i++
	}
}

// comment skips <!-- ... -->, with plain ASCII inside and no "--".
func (f *fastXML) comment() error {
	f.i += len("<!--")
	end := bytes.Index(f.b[f.i:], []byte("--"))
	if end < 0 || f.i+end+2 >= len(f.b) || f.b[f.i+end+2] != '>' {
		return errSlowPath
	}
	for _, c := range f.b[f.i : f.i+end] {
		if c >= 0x7f || c < 0x20 && !isSpace(c) {
			return errSlowPath
		}
	}
	f.i += end + 3
	return nil
}

// name reads an element or attribute name: ASCII letters, digits, _ - .;
// a prefix (":") sends the document to the slow path.
func (f *fastXML) name() ([]byte, error) {
	start := f.i
	if f.i >= len(f.b) || !isNameStart(f.b[f.i]) {
		return nil, errSlowPath
	}
	i := f.i + 1
	for i < len(f.b) && isNameChar(f.b[i]) {
		i++
	}
	f.i = i
	return f.b[start:i], nil
}

// startTag reads <name attr="v" ...> or <name .../> from f.i at '<'.
// Attributes are checked and skipped.
func (f *fastXML) startTag() (name []byte, empty bool, err error) {
	f.i++ // '<'
	if name, err = f.name(); err != nil {
		return nil, false, err
	}
	for {
		hadSpace := f.i < len(f.b) && isSpace(f.b[f.i])
		f.skipSpace()
		if f.i >= len(f.b) {
			return nil, false, errSlowPath
		}
		switch f.b[f.i] {
		case '>':
			f.i++
			return name, false, nil
		case '/':
			if f.i+1 < len(f.b) && f.b[f.i+1] == '>' {
				f.i += 2
				return name, true, nil
			}
			return nil, false, errSlowPath
		}
		if !hadSpace {
			return nil, false, errSlowPath
		}
		if _, err := f.name(); err != nil {
			return nil, false, err
		}
		f.skipSpace()
		if f.i >= len(f.b) || f.b[f.i] != '=' {
			return nil, false, errSlowPath
		}
		f.i++
		f.skipSpace()
		if f.i >= len(f.b) || (f.b[f.i] != '"' && f.b[f.i] != '\'') {
			return nil, false, errSlowPath
		}
		q := f.b[f.i]
		f.i++
		end := bytes.IndexByte(f.b[f.i:], q)
		if end < 0 {
			return nil, false, errSlowPath
		}
		for _, c := range f.b[f.i : f.i+end] {
			if c == '<' || c == '&' || c >= 0x7f || c < 0x20 {
				return nil, false, errSlowPath
			}
		}
		f.i += end + 1
	}
}

// content reads an element's content up to and including its end tag.
// Text goes to f.buf when keep is set (checked either way); each child
// start tag is handed to child, which must consume the child.
func (f *fastXML) content(name []byte, keep bool, child func(name []byte, empty bool) error) error {
	f.depth++
	defer func() { f.depth-- }()
	if f.depth > fastMaxDepth {
		return errSlowPath
	}
	for f.i < len(f.b) {
		c := f.b[f.i]
		if c != '<' {
			if err := f.text(keep); err != nil {
				return err
			}
			continue
		}
		if f.i+1 >= len(f.b) {
			return errSlowPath
		}
		switch next := f.b[f.i+1]; {
		case next == '/':
			f.i += 2
			end, err := f.name()
			if err != nil || !bytes.Equal(end, name) {
				return errSlowPath
			}
			f.skipSpace()
			if f.i >= len(f.b) || f.b[f.i] != '>' {
				return errSlowPath
			}
			f.i++
			return nil
		case next == '!':
			if !bytes.HasPrefix(f.b[f.i:], []byte("<!--")) {
				return errSlowPath // CDATA, a DOCTYPE inside...
			}
			if err := f.comment(); err != nil {
				return err
			}
		case isNameStart(next):
			cname, empty, err := f.startTag()
			if err != nil {
				return err
			}
			if err := child(cname, empty); err != nil {
				return err
			}
		default:
			return errSlowPath // a processing instruction, a stray '<'
		}
	}
	return errSlowPath // the document ends inside the element
}

// text reads character data up to the next '<': the five predefined
// entities are decoded, "\r\n" and "\r" become "\n" (as encoding/xml
// does), and anything unusual (character references, "]]>", characters
// XML does not allow, invalid UTF-8) sends the document to the slow path.
func (f *fastXML) text(keep bool) error {
	start := f.i
	end := bytes.IndexByte(f.b[f.i:], '<')
	if end < 0 {
		return errSlowPath
	}
	seg := f.b[start : start+end]
	f.i += end
	plain := true
	for _, c := range seg {
		if !plainTextByte(c) {
			plain = false
			break
		}
	}
	if plain {
		if keep {
			f.buf = append(f.buf, seg...)
		}
		return nil
	}
	if bytes.Contains(seg, []byte("]]>")) {
		return errSlowPath
	}
	for j := 0; j < len(seg); {
		c := seg[j]
		switch {
		case c == '&':
			semi := bytes.IndexByte(seg[j:], ';')
			if semi < 0 {
				return errSlowPath
			}
			var r byte
			switch string(seg[j+1 : j+semi]) {
			case "lt":
				r = '<'
			case "gt":
				r = '>'
			case "amp":
				r = '&'
			case "apos":
				r = '\''
			case "quot":
				r = '"'
			default:
				return errSlowPath
			}
			if keep {
				f.buf = append(f.buf, r)
			}
			j += semi + 1
		case c == '\r':
			if keep {
				f.buf = append(f.buf, '\n')
			}
			j++
			if j < len(seg) && seg[j] == '\n' {
				j++
			}
		case c < 0x20 && c != '\t' && c != '\n':
			return errSlowPath
		case c < 0x80:
			if keep {
				f.buf = append(f.buf, c)
			}
			j++
		default:
			r, size := utf8.DecodeRune(seg[j:])
			if r == utf8.RuneError || !xmlChar(r) {
				return errSlowPath
			}
			if keep {
				f.buf = append(f.buf, seg[j:j+size]...)
			}
			j += size
		}
	}
	return nil
}

// xmlChar is XML 1.0's Char production for non-ASCII runes.
func xmlChar(r rune) bool {
	return r >= 0x80 && r <= 0xD7FF || r >= 0xE000 && r <= 0xFFFD || r >= 0x10000 && r <= 0x10FFFF
}

// skip consumes a child that is not read.
func (f *fastXML) skip(name []byte, empty bool) error {
	if empty {
		return nil
	}
	return f.content(name, false, f.skip)
}

// value reads a child's text (its own character data, without that of any
// element inside it, as encoding/xml gives a text field) into set.
func (f *fastXML) value(name []byte, empty bool, set func([]byte) error) error {
	f.buf = f.buf[:0]
	if !empty {
		if err := f.content(name, true, f.skip); err != nil {
			return err
		}
	}
	if set(f.buf) != nil {
		return errSlowPath
	}
	return nil
}

// fieldText reads a text field up to its end tag and returns its text, as
// value does, but the usual <Name>plain text</Name> comes back as a slice
// of the document, neither copied nor checked twice. The slice is valid
// until the next read.
func (f *fastXML) fieldText(name []byte, empty bool) ([]byte, error) {
	if empty {
		return nil, nil
	}
	if text, ok := f.plainField(name); ok {
		return text, nil
	}
	f.buf = f.buf[:0]
	if err := f.content(name, true, f.skip); err != nil {
		return nil, err
	}
	return f.buf, nil
}

// plainField consumes "text</name>" when the text is all plainTextByte,
// and reports whether it did; anything else is left to content.
func (f *fastXML) plainField(name []byte) ([]byte, bool) {
	if f.depth >= fastMaxDepth {
		return nil, false // content refuses it
	}
	rest := f.b[f.i:]
	end := bytes.IndexByte(rest, '<')
	if end < 0 {
		return nil, false
	}
	text := rest[:end]
	for _, c := range text {
		if !plainTextByte(c) {
			return nil, false
		}
	}
	tag := rest[end:] // "</name>", without space before the '>'
	n := len(name)
	if len(tag) < n+3 || tag[1] != '/' || !bytes.Equal(tag[2:2+n], name) || tag[2+n] != '>' {
		return nil, false
	}
	f.i += end + n + 3
	return text, true
}

// plainTextByte reports whether c stands for itself in character data:
// text made only of such bytes is what text copies unchanged.
func plainTextByte(c byte) bool {
	return c >= 0x20 && c < 0x80 && c != '&' && c != ']' || c == '\t' || c == '\n'
}
