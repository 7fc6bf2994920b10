package xmlview

import (
	"bytes"
	"sync"
	"unicode/utf8"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
)

// xmlLexer is chroma's XML lexer, looked up once.
var xmlLexer = sync.OnceValue(func() chroma.Lexer { return lexers.Get("xml") })

// lexOptions start in the root state and leave "\r" alone: token lengths
// must add up to the bytes given.
var lexOptions = &chroma.TokeniseOptions{State: "root"}

// tagContext is put before a line that continues a start tag, so that
// chroma, which sees one line without its context, reads attributes.
const tagContext = "<x "

var (
	cdataOpen  = []byte("<![CDATA[")
	cdataClose = []byte("]]>")
)

// tokenise cuts a line's visible content into styled spans. Tags and text
// go through chroma; the constructs the layout already knows are styled by
// their kind, since chroma would misread, say, the middle of a multi-line
// comment.
func tokenise(l line, content []byte) []span {
	switch l.kind {
	case kindComment:
		return []span{{0, len(content), roleComment}}
	case kindDecl, kindPI, kindDoctype:
		return []span{{0, len(content), roleTag}}
	case kindCDATA:
		return cdataSpans(content, 0, len(content), nil)
	}
	context := ""
	if l.flags&flagInTag != 0 {
		context = tagContext
	}
	return lexSpans(content, context)
}

// lexSpans runs chroma over context+content and maps its tokens to spans
// of content. Tokens are used for their lengths only: the text drawn is
// always cut from content itself.
func lexSpans(content []byte, context string) []span {
	lexer := xmlLexer()
	if lexer == nil {
		return []span{{0, len(content), roleText}}
	}
	it, err := lexer.Tokenise(lexOptions, context+lexableText(content))
	if err != nil {
		return []span{{0, len(content), roleText}}
	}
	spans := make([]span, 0, 8)
	offset := -len(context)
	for tok := it(); tok != chroma.EOF; tok = it() {
		from, to := max(offset, 0), min(offset+len(tok.Value), len(content))
		offset += len(tok.Value)
		if from < to {
			spans = tokenSpans(spans, tok.Type, content, from, to)
		}
		if offset >= len(content) {
			break // chroma may add a "\n" of its own
		}
	}
	if end := spansEnd(spans); end < len(content) {
		spans = append(spans, span{end, len(content), roleText})
	}
	return spans
}

func spansEnd(spans []span) int {
	if len(spans) == 0 {
		return 0
	}
	return spans[len(spans)-1].to
}

// lexableText is content as a string chroma reads byte for byte: chroma
// works on runes, and would turn an invalid byte into the three bytes of
// U+FFFD, putting every later token out of step. Invalid bytes become 'x'
// (a name byte, as the layout counts them) only in what chroma sees.
func lexableText(content []byte) string {
	if utf8.Valid(content) {
		return string(content)
	}
	b := make([]byte, 0, len(content))
	for i := 0; i < len(content); {
		r, size := utf8.DecodeRune(content[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, 'x')
		} else {
			b = append(b, content[i:i+size]...)
		}
		i += size
	}
	return string(b)
}

// tokenSpans maps one chroma token, content[from:to], to spans.
func tokenSpans(spans []span, t chroma.TokenType, content []byte, from, to int) []span {
	switch {
	case t == chroma.NameTag:
		// "<Name", "</Name>", ">", "/>": brackets around a name.
		return nameSpans(spans, content, from, to, roleTag, roleName, roleTag)
	case t == chroma.NameAttribute:
		// "name=" with any spaces around "=".
		return nameSpans(spans, content, from, to, roleAttrName, roleAttrName, rolePunct)
	case t == chroma.CommentPreproc && bytes.HasPrefix(content[from:to], cdataOpen):
		return cdataSpans(content, from, to, spans)
	case t == chroma.CommentPreproc:
		return append(spans, span{from, to, roleTag})
	case t == chroma.NameEntity:
		return append(spans, span{from, to, roleEntity})
	case t.InCategory(chroma.Comment):
		return append(spans, span{from, to, roleComment})
	case t.InCategory(chroma.LiteralString):
		return append(spans, span{from, to, roleAttrValue})
	case t == chroma.Error:
		return append(spans, span{from, to, roleError})
	}
	return append(spans, span{from, to, roleText})
}

// nameSpans splits content[from:to] around its first name: the bytes before
// it, the name, and the bytes after it get the three roles given.
func nameSpans(spans []span, content []byte, from, to int, before, name, after role) []span {
	start := from
	for start < to && !nameByte[content[start]] {
		start++
	}
	end := start
	for end < to && nameByte[content[end]] {
		end++
	}
	return appendNonEmpty(spans, span{from, start, before}, span{start, end, name}, span{end, to, after})
}

// cdataSpans styles a CDATA section's delimiters apart from its text;
// either may be on another line of a multi-line section.
func cdataSpans(content []byte, from, to int, spans []span) []span {
	textFrom, textTo := from, to
	if bytes.HasPrefix(content[from:to], cdataOpen) {
		textFrom += len(cdataOpen)
	}
	if bytes.HasSuffix(content[textFrom:to], cdataClose) {
		textTo -= len(cdataClose)
	}
	return appendNonEmpty(spans, span{from, textFrom, rolePunct}, span{textFrom, textTo, roleText}, span{textTo, to, rolePunct})
}

func appendNonEmpty(spans []span, more ...span) []span {
	for _, sp := range more {
		if sp.from < sp.to {
			spans = append(spans, sp)
		}
	}
	return spans
}
