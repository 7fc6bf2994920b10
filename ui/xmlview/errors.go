package xmlview

import (
	"bytes"
	"fmt"
	"unicode/utf8"

	"paydash/backend/textsafe"
)

// SyntaxError says where and why the layout of a malformed document stopped.
type SyntaxError struct {
	Line   int    // 1-based line in the text as received
	Column int    // 1-based, in bytes
	Offset int    // byte offset in the raw document
	After  int    // number of laid-out lines before the error (the viewer scrolls there)
	Msg    string // e.g. "element <Operation> closed by </Operations>"; neutralised text
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Column, e.Msg)
}

func newSyntaxError(raw []byte, offset, after int, msg string) *SyntaxError {
	before := raw[:offset]
	lineStart := bytes.LastIndexByte(before, '\n') + 1
	return &SyntaxError{
		Line:   bytes.Count(before, []byte{'\n'}) + 1,
		Column: offset - lineStart + 1,
		Offset: offset,
		After:  after,
		Msg:    msg,
	}
}

// maxQuotedName bounds a name quoted in a message: a name can be a megabyte.
const maxQuotedName = 64

// quoteName makes a name from the document safe to put in a message:
// neutralised, and cut (on a rune boundary) when long.
func quoteName(name []byte) string {
	if len(name) <= maxQuotedName {
		return textsafe.Clean(string(name))
	}
	cut := maxQuotedName
	for cut > 0 && !utf8.RuneStart(name[cut]) {
		cut--
	}
	return textsafe.Clean(string(name[:cut])) + "…"
}

// describeByte names the byte found where something else was expected.
func describeByte(c byte) string {
	if isSpace(c) {
		return "white space"
	}
	if c > ' ' && c < 0x7f {
		return fmt.Sprintf("%q", rune(c))
	}
	return fmt.Sprintf("byte 0x%02X", c)
}
