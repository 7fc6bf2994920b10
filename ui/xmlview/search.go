package xmlview

import (
	"bytes"
	"slices"
	"sort"
	"unicode"
	"unicode/utf8"
)

// Matches are the places a query was found in a Doc, in document order.
// A nil *Matches has no matches.
type Matches struct {
	doc   *Doc
	query string
	hits  []hit
}

// hit is one match: raw[start:end], on laid-out line `line`.
type hit struct {
	line, start, end int32
}

// Search finds query in the laid-out lines, case-insensitively: ASCII
// letters fold for an ASCII query, Unicode simple folding applies to any
// other. It looks at each line's bytes as received, without indentation,
// and a match never crosses the end of a line. An empty query finds nothing.
func (d *Doc) Search(query string) *Matches {
	m := &Matches{doc: d, query: query}
	if query == "" || len(d.lines) == 0 {
		return m
	}
	// Nothing after the last line can match: the text past a syntax error
	// is not laid out.
	hay := d.raw[:d.lines[len(d.lines)-1].end]
	cursor := &lineCursor{lines: d.lines}
	if isASCII(query) {
		m.hits = searchASCII(hay, lowerASCII(query), cursor)
	} else {
		m.hits = searchFolded(hay, []rune(query), cursor)
	}
	return m
}

// Len is the number of matches.
func (m *Matches) Len() int {
	if m == nil {
		return 0
	}
	return len(m.hits)
}

// Query is the text searched for.
func (m *Matches) Query() string {
	if m == nil {
		return ""
	}
	return m.query
}

// Line is the laid-out line of match k, or -1 when there is no match k.
func (m *Matches) Line(k int) int {
	if k < 0 || k >= m.Len() {
		return -1
	}
	return int(m.hits[k].line)
}

// After is the index of the first match on a line after line, wrapping to
// the first match; -1 when there are none.
func (m *Matches) After(line int) int {
	return m.wrapForward(m.firstOnOrAfter(line + 1))
}

// Before is the index of the last match on a line before line, wrapping to
// the last match; -1 when there are none.
func (m *Matches) Before(line int) int {
	n := m.Len()
	if n == 0 {
		return -1
	}
	if k := m.firstOnOrAfter(line) - 1; k >= 0 {
		return k
	}
	return n - 1
}

// First is the index of the first match on line or after it, wrapping to
// the first match; -1 when there are none.
func (m *Matches) First(line int) int {
	return m.wrapForward(m.firstOnOrAfter(line))
}

func (m *Matches) wrapForward(k int) int {
	switch n := m.Len(); {
	case n == 0:
		return -1
	case k == n:
		return 0
	default:
		return k
	}
}

// firstOnOrAfter is the index of the first match on a line >= line
// (Len when none).
func (m *Matches) firstOnOrAfter(line int) int {
	n := m.Len()
	return sort.Search(n, func(k int) bool { return int(m.hits[k].line) >= line })
}

// onLine is the matches on line i and the index of the first of them. A
// line can hold a great many (a 1 MB text node), so both ends are found by
// bisection.
func (m *Matches) onLine(i int) (hits []hit, first int) {
	first = m.firstOnOrAfter(i)
	end := m.firstOnOrAfter(i + 1)
	if first == end {
		return nil, first
	}
	return m.hits[first:end], first
}

// lineCursor finds the line holding a match; matches come in document
// order, so it only moves forward.
type lineCursor struct {
	lines []line
	i     int
}

// holding is the line that holds raw[from:to] whole, or -1.
func (c *lineCursor) holding(from, to int) int {
	for c.i < len(c.lines) && int(c.lines[c.i].end) <= from {
		c.i++
	}
	if c.i < len(c.lines) && int(c.lines[c.i].start) <= from && to <= int(c.lines[c.i].end) {
		return c.i
	}
	return -1
}

func (c *lineCursor) done() bool { return c.i >= len(c.lines) }

// searchASCII finds q (lower-case ASCII) in hay, ignoring ASCII case. It
// jumps with IndexByte to the query's least common byte (both cases of it),
// so a rare word costs a memchr-speed pass and a common one a check per
// occurrence of its rarest byte.
func searchASCII(hay, q []byte, lines *lineCursor) []hit {
	sample := sampleBytes(hay)
	anchor := rarestByte(q, sample)
	lower, upper := q[anchor], upperASCII(q[anchor])
	// Room for as many matches as the sample has anchors, scaled: growing a
	// slice of 300,000 matches would cost a third of the search.
	hits := make([]hit, 0, min(sample.scaled(lower, len(hay)), len(hay)/len(q)+1))
	nextLower, nextUpper := indexByteFrom(hay, lower, anchor), -1
	if upper != lower {
		nextUpper = indexByteFrom(hay, upper, anchor)
	}
	for {
		at := earlier(nextLower, nextUpper)
		if at < 0 {
			return clipped(hits)
		}
		resume := at + 1
		start, end := at-anchor, at-anchor+len(q)
		if end <= len(hay) && equalFoldASCII(hay[start:end], q) {
			if line := lines.holding(start, end); line >= 0 {
				hits = append(hits, hit{line: int32(line), start: int32(start), end: int32(end)})
				resume = end + anchor // matches do not overlap
			} else if lines.done() {
				return clipped(hits)
			}
		}
		if nextLower >= 0 && nextLower < resume {
			nextLower = indexByteFrom(hay, lower, resume)
		}
		if nextUpper >= 0 && nextUpper < resume {
			nextUpper = indexByteFrom(hay, upper, resume)
		}
	}
}

// searchFolded finds q in hay with Unicode simple case folding. It jumps to
// each folding of the query's first rune with bytes.Index, then compares
// rune by rune (a folded match may differ from the query in length).
func searchFolded(hay []byte, q []rune, lines *lineCursor) []hit {
	variants := foldings(q[0])
	next := make([]int, len(variants))
	for v := range variants {
		next[v] = indexFrom(hay, variants[v], 0)
	}
	var hits []hit
	for {
		at := earliest(next...)
		if at < 0 {
			return hits
		}
		resume := at + 1
		if end, ok := matchFoldedAt(hay, at, q); ok {
			if line := lines.holding(at, end); line >= 0 {
				hits = append(hits, hit{line: int32(line), start: int32(at), end: int32(end)})
				resume = end
			} else if lines.done() {
				return hits
			}
		}
		for v := range variants {
			if next[v] >= 0 && next[v] < resume {
				next[v] = indexFrom(hay, variants[v], resume)
			}
		}
	}
}

// matchFoldedAt tells whether q matches hay at at, and where the match ends.
func matchFoldedAt(hay []byte, at int, q []rune) (end int, ok bool) {
	for _, want := range q {
		if at >= len(hay) {
			return 0, false
		}
		got, size := utf8.DecodeRune(hay[at:])
		if !equalFoldRune(got, want) {
			return 0, false
		}
		at += size
	}
	return at, true
}

func equalFoldRune(a, b rune) bool {
	if a == b {
		return true
	}
	for f := unicode.SimpleFold(b); f != b; f = unicode.SimpleFold(f) {
		if f == a {
			return true
		}
	}
	return false
}

// foldings is r and every rune it folds to, UTF-8 encoded.
func foldings(r rune) [][]byte {
	out := [][]byte{utf8.AppendRune(nil, r)}
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		out = append(out, utf8.AppendRune(nil, f))
	}
	return out
}

// clipped gives back the room estimated for matches that were not found.
func clipped(hits []hit) []hit {
	if cap(hits) > 2*len(hits)+1024 {
		return slices.Clone(hits)
	}
	return hits
}

// earlier is the smaller non-negative position of two, or -1.
func earlier(a, b int) int {
	if a < 0 || (b >= 0 && b < a) {
		return b
	}
	return a
}

// earliest is the smallest non-negative position, or -1.
func earliest(positions ...int) int {
	best := -1
	for _, p := range positions {
		if p >= 0 && (best < 0 || p < best) {
			best = p
		}
	}
	return best
}

func indexByteFrom(b []byte, c byte, from int) int {
	if from >= len(b) {
		return -1
	}
	if i := bytes.IndexByte(b[from:], c); i >= 0 {
		return from + i
	}
	return -1
}

func indexFrom(b, sub []byte, from int) int {
	if from >= len(b) {
		return -1
	}
	if i := bytes.Index(b[from:], sub); i >= 0 {
		return from + i
	}
	return -1
}

func equalFoldASCII(b, lowerQuery []byte) bool {
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lowerQuery[i] {
			return false
		}
	}
	return true
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func lowerASCII(s string) []byte {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return b
}

func upperASCII(c byte) byte {
	if 'a' <= c && c <= 'z' {
		return c - ('a' - 'A')
	}
	return c
}

// Sampling: the rarest byte of a query is judged from a sample of the
// document (sampleChunks pieces of sampleChunk bytes spread through it),
// about 64 KB, which costs a few tens of microseconds against the
// milliseconds a poor choice costs on a 13 MB register.
const (
	sampleChunks = 16
	sampleChunk  = 4 << 10
)

// byteSample counts the bytes of a sample of a document.
type byteSample struct {
	counts [256]int
	size   int
}

func sampleBytes(hay []byte) *byteSample {
	s := &byteSample{}
	count := func(b []byte) {
		for _, c := range b {
			s.counts[c]++
		}
		s.size += len(b)
	}
	if len(hay) <= sampleChunks*sampleChunk {
		count(hay)
		return s
	}
	stride := len(hay) / sampleChunks
	for k := range sampleChunks {
		count(hay[k*stride : k*stride+sampleChunk])
	}
	return s
}

// frequency is how often c (lower-case) occurs in the sample, either case.
func (s *byteSample) frequency(c byte) int {
	if u := upperASCII(c); u != c {
		return s.counts[c] + s.counts[u]
	}
	return s.counts[c]
}

// scaled estimates how often c occurs in a document of size bytes.
func (s *byteSample) scaled(c byte, size int) int {
	if s.size == 0 {
		return 0
	}
	return int(float64(s.frequency(c))*float64(size)/float64(s.size)) + 16
}

// rarestByte is the index in q (lower-case) of the byte least frequent in
// the sample, both cases counted: the cheapest to jump to.
func rarestByte(q []byte, sample *byteSample) int {
	best := 0
	for i := range q {
		if sample.frequency(q[i]) < sample.frequency(q[best]) {
			best = i
		}
	}
	return best
}
