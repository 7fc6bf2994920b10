// Package textsafe neutralises text that came from a server before it
// reaches a terminal, an error message or a log line. A payment description
// or an error message is data, never instructions to the terminal: an
// escape sequence in it could recolour the screen, move the cursor, or set
// the window title.
package textsafe

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Clean removes terminal escape sequences (CSI, OSC, DCS and two-byte ESC
// sequences, in their 7-bit and 8-bit forms), turns every other control
// character (tabs and newlines included, and the line and paragraph
// separators U+2028 and U+2029) into a space, drops invisible
// format characters such as bidi overrides, and replaces invalid UTF-8.
// Printable text is kept as it is. Plain ASCII text is returned without
// copying, so calling it on every cell costs little.
func Clean(s string) string {
	if isPlain(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteRune(utf8.RuneError)
			i++
			continue
		case r == 0x1b: // ESC
			i += escapeLength(s[i:])
			continue
		case r == 0x9b || r == 0x9d || r == 0x90: // 8-bit CSI, OSC, DCS
			i += size + sequenceBody(s[i+size:], r == 0x9b)
			continue
		case unicode.IsControl(r) || r == '\u2028' || r == '\u2029':
			// Line and paragraph separators break lines like a newline.
			b.WriteByte(' ')
		case unicode.Is(unicode.Cf, r):
			// invisible format characters: dropped
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

func isPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return false
		}
	}
	return true
}

// escapeLength is the length of the escape sequence at the start of s
// (which begins with ESC): CSI "ESC [" up to a final byte, OSC "ESC ]" and
// DCS/SOS/PM/APC up to BEL or ST, otherwise ESC and one more character.
func escapeLength(s string) int {
	if len(s) < 2 {
		return len(s)
	}
	switch s[1] {
	case '[':
		return 2 + sequenceBody(s[2:], true)
	case ']', 'P', 'X', '^', '_':
		return 2 + sequenceBody(s[2:], false)
	}
	_, size := utf8.DecodeRuneInString(s[1:])
	return 1 + size
}

// sequenceBody measures a CSI body (parameters up to a final byte 0x40–0x7E)
// or a string body (up to BEL, ESC \ or the 8-bit ST), including the end.
// An unterminated sequence runs to the end of the text.
func sequenceBody(s string, csi bool) int {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if csi {
			if c >= 0x40 && c <= 0x7e {
				return i + 1
			}
			if c < 0x20 || c > 0x7e {
				return i // a broken sequence ends at the first byte that cannot belong
			}
			continue
		}
		switch {
		case c == 0x07:
			return i + 1
		case c == 0x1b && i+1 < len(s) && s[i+1] == '\\':
			return i + 2
		case c == 0xc2 && i+1 < len(s) && s[i+1] == 0x9c: // ST in UTF-8
			return i + 2
		}
	}
	return len(s)
}

// Line is Clean for one-line messages: runs of white space become one
// space and the result is cut to maxRunes, with "…" when cut.
func Line(s string, maxRunes int) string {
	s = strings.Join(strings.Fields(Clean(s)), " ")
	if maxRunes > 0 && utf8.RuneCountInString(s) > maxRunes {
		s = string([]rune(s)[:maxRunes]) + "…"
	}
	return s
}

// Excerpt summarises a body that is not the expected answer (a proxy's HTML
// error page, say) in one printable line: BOM dropped, tags removed.
func Excerpt(body []byte, contentType string, maxRunes int) string {
	b := bytes.TrimSpace(bytes.TrimPrefix(body, []byte("\xef\xbb\xbf")))
	s := string(b)
	if ct := strings.ToLower(contentType); strings.Contains(ct, "html") || strings.Contains(ct, "xml") || bytes.HasPrefix(b, []byte("<")) {
		s = stripTags(s)
	}
	return Line(s, maxRunes)
}

func stripTags(s string) string {
	var b strings.Builder
	inTag := false
	for _, r := range s {
		switch {
		case r == '<':
			inTag = true
		case r == '>' && inTag:
			inTag = false
			b.WriteByte(' ')
		case !inTag:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Redact replaces each non-empty secret in s with "[redacted]", for a
// server that echoes a token or login back. Run it before Line, which could
// cut a secret in half.
func Redact(s string, secrets ...string) string {
	for _, secret := range secrets {
		if secret != "" {
			s = strings.ReplaceAll(s, secret, "[redacted]")
		}
	}
	return s
}
