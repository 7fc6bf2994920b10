// Package xmlview lays out an XML document for reading in a terminal viewer
// pane. It was written for the transfer register a payment service returns:
// an XML answer of up to 50,000 operations (about 13 MB), usually written on
// one line, that a person wants to read one element a line, indented,
// highlighted and searchable.
//
// The package is pure: no I/O, no goroutines, no Bubble Tea model. Parse
// lays a document out, Doc.Search finds text in it, and Doc.Render draws one
// laid-out line; the pane that uses it keeps the scroll position and asks
// for the lines it shows.
//
// Decisions:
//
//   - Nothing is ever expanded. Entity references (&amp;, &#27;, &lol9;) are
//     drawn as written, and a DOCTYPE with an internal subset (a "billion
//     laughs" entity bomb, say) is laid out as its own text, with a note in
//     Doc.Notes. What is drawn is always a slice of what was received, so
//     the output stays proportional to the input.
//   - Elements nest at most 256 deep; deeper stops the layout with a
//     SyntaxError. Indentation stops growing at 40 levels so that deep
//     nesting cannot push the text off the screen.
//   - A malformed document is laid out as far as it parses; Doc.Err says
//     where it stopped, in lines and columns of the text as received.
//   - Lines are slices of the raw bytes: a laid-out line is a small record
//     (start and end offsets, depth, kind), 12 bytes, so 450,000 lines cost
//     about 5 MB and no string is built until a line is drawn.
//   - Highlighting uses chroma's XML lexer on the visible lines only, one
//     line at a time, cut to a prefix a few times the screen width so that
//     a 1 MB text node costs no more to draw than a short one. Comments,
//     CDATA sections, processing instructions and DOCTYPEs are styled from
//     what the layout already knows about the line, because chroma, seeing
//     one line without its context, would misread the middle of a
//     multi-line comment. A line that continues a start tag is lexed behind
//     a made-up "<x " so that chroma reads it as attributes.
//   - Every piece of text is neutralised with textsafe.Clean after it has
//     been cut into tokens and search matches, just before it is styled, so
//     that no escape sequence in the document can reach the terminal, whole
//     or reassembled from pieces.
//   - Doc keeps a small cache of drawn lines (a few hundred, keyed by line,
//     width, the styles and the matches on the line), so scrolling by one
//     line draws about one line. The cache makes Render unsafe to call from
//     several goroutines at once on the same Doc; Parse's result is
//     otherwise read-only, and Search may run beside Render.
//   - Search looks at the bytes of each laid-out line as received (without
//     the indentation), case-insensitively; a match never crosses the end of
//     a line.
package xmlview
