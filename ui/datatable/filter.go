package datatable

import (
	"bytes"
	"math/bits"
	"runtime"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"paydash/backend/textsafe"
)

// Query is what the table shows of its loaded rows: those whose haystack
// contains every one of Words and that Keep accepts.
type Query[T any] struct {
	Text  string   // as the user typed it; FilterText returns it
	Words []string // lower-cased, cleaned free words (the caller prepares them)
	Conds []string // the canonical text of each field condition ("status:authorized")
	// Keep is every field condition together; nil when there is none. It
	// gets the row by pointer (a payment row is hundreds of bytes: copying
	// it per call would cost more than the test) and must only read it:
	// it is called from several goroutines at once.
	Keep func(*T) bool
}

// filtering reports whether q hides any row: it has words or conditions.
func (q Query[T]) filtering() bool {
	return len(q.Words) > 0 || len(q.Conds) > 0 || q.Keep != nil
}

// SetQuery shows the loaded rows that match q. A query narrows the previous one when
// its Conds include every one of the previous Conds and each previous word is part of
// one of its Words: then only the previous matches are searched.
//
// Conds name what Keep does: a query with the same Words and Conds as the
// current one is taken to show the same rows, and only its Text is stored.
// The selected row keeps its screen line; when it is filtered out, the
// nearest remaining row is selected.
func (m *Model[T]) SetQuery(q Query[T]) {
	c := m.c
	q.Words, q.Conds = slices.Clone(q.Words), slices.Clone(q.Conds)
	old := c.query
	c.query = q
	if slices.Equal(q.Words, old.Words) && slices.Equal(q.Conds, old.Conds) && (q.Keep == nil) == (old.Keep == nil) {
		c.want.keep = q.Keep
		return
	}
	c.want = newMatcher(q)
	c.syncHay()
	line, had := c.line()
	if !had {
		line = 0
	}
	if !q.filtering() {
		c.match = nil
		c.visible = c.order
		c.anchor(line, max(c.locate(c.sel), 0))
		return
	}
	narrow := old.filtering() && narrows(old, q)
	c.matchAll(narrow)
	src, dst := c.order, []int32(nil)
	switch {
	case narrow:
		src, dst = c.visible, c.visible[:0]
	case old.filtering():
		dst = c.visible[:0] // a filter's own slice, not order
	}
	var pos int
	c.visible, pos = keepList(dst, src, c.sel, c.match)
	c.anchor(line, max(pos, 0))
}

// Query is the query as last set (SetQuery, or SetFilter's words).
func (m Model[T]) Query() Query[T] {
	q := m.c.query
	q.Words, q.Conds = slices.Clone(q.Words), slices.Clone(q.Conds)
	return q
}

// SetFilter shows only the loaded rows whose text (the cells, or
// Config.FilterText) contains every space-separated term of text, ignoring
// case: a Query of free words only. When the new terms narrow the previous
// ones (typing on), only the previous matches are searched. The selected row
// keeps its screen line; when it is filtered out, the nearest remaining row
// is selected.
func (m *Model[T]) SetFilter(text string) {
	m.SetQuery(Query[T]{Text: text, Words: strings.Fields(strings.ToLower(textsafe.Clean(text)))})
}

// narrows reports whether every row matching q also matches old: q has all
// of old's conditions, and each old word is part of some word of q.
func narrows[T any](old, q Query[T]) bool {
	if old.Keep != nil && q.Keep == nil {
		return false
	}
	for _, o := range old.Conds {
		if !slices.Contains(q.Conds, o) {
			return false
		}
	}
	for _, o := range old.Words {
		if !slices.ContainsFunc(q.Words, func(w string) bool { return strings.Contains(w, o) }) {
			return false
		}
	}
	return true
}

// matcher is a query prepared for testing rows.
type matcher[T any] struct {
	words [][]byte
	keep  func(*T) bool
}

func newMatcher[T any](q Query[T]) matcher[T] {
	m := matcher[T]{keep: q.Keep}
	for _, w := range q.Words {
		if w == "" {
			continue // every row contains it
		}
		m.words = append(m.words, []byte(w))
	}
	return m
}

// test reports whether item it matches: the words, then Keep.
func (m *matcher[T]) test(c *core[T], it int32) bool {
	if len(m.words) > 0 {
		text := c.hay.text(it)
		for _, w := range m.words {
			if !bytes.Contains(text, w) {
				return false
			}
		}
	}
	if m.keep == nil {
		return true
	}
	if c.store == nil {
		return m.keep(&c.items[it])
	}
	r := c.row(it)
	return m.keep(&r)
}

// testGroup is test for the candidates cand among the 64 items of bit-set
// word w. Each word is searched for in runs of candidates whose texts lie
// side by side in a block (searchRuns), not row by row: a rare word is then
// one fast scan of the whole run. A per-row mask of the characters present
// was measured as well: it cut the runs short and was no faster.
func (m *matcher[T]) testGroup(c *core[T], w int, cand uint64) uint64 {
	base := int32(w * 64)
	got := cand
	for _, word := range m.words {
		if got == 0 {
			return 0
		}
		got = c.hay.searchRuns(base, got, word)
	}
	if m.keep != nil {
		var tmp T
		for rest := got; rest != 0; rest &= rest - 1 {
			b := bits.TrailingZeros64(rest)
			if !m.keep(c.rowRef(base+int32(b), &tmp)) {
				got &^= 1 << b
			}
		}
	}
	return got
}

// matchItem tests item it against the query and records the answer.
func (c *core[T]) matchItem(it int32) bool {
	ok := c.want.test(c, it)
	c.setBit(it, ok)
	return ok
}

// parallelMin is the number of rows to test from which matchAll splits the
// work among goroutines; below it, starting them costs more than it saves.
// A variable so that tests can force either path.
var parallelMin = 32 << 10

// matchAll sets the match bits from the query: of every item or, when
// narrow, of the items that matched the previous query (no other can
// match). The items are tested in item order, which is the order their
// texts are stored in, whatever the sort. From parallelMin rows, the bit set
// is split among GOMAXPROCS goroutines, each owning whole words of it.
func (c *core[T]) matchAll(narrow bool) {
	c.growBits()
	n := c.count()
	run := func(lo, hi int) { // words of the bit set
		for w := lo; w < hi; w++ {
			cand := ^uint64(0)
			if narrow {
				cand = c.match[w]
			} else if rest := n - w*64; rest < 64 {
				cand = 1<<rest - 1
			}
			c.match[w] = c.want.testGroup(c, w, cand)
		}
	}
	words := (n + 63) / 64
	work := n
	if narrow {
		work = len(c.visible)
	}
	procs := min(runtime.GOMAXPROCS(0), words)
	if work < parallelMin || procs < 2 {
		run(0, words)
		return
	}
	var wg sync.WaitGroup
	per := (words + procs - 1) / procs
	for lo := 0; lo < words; lo += per {
		wg.Go(func() { run(lo, min(lo+per, words)) })
	}
	wg.Wait()
}

// haystack is the text the filter searches for row r: the cleaned,
// lower-cased cells joined by newlines (no word contains one, so no word
// matches across two cells). It is scratch space, valid until the next call.
func (c *core[T]) haystack(r T) []byte {
	buf := c.render.hayBuf[:0]
	if c.filterFn != nil {
		buf = appendLower(buf, textsafe.Clean(c.filterFn(r)))
	} else {
		for i := range c.cols {
			if i > 0 {
				buf = append(buf, '\n')
			}
			buf = appendLower(buf, textsafe.Clean(c.cols[i].Text(r)))
		}
	}
	c.render.hayBuf = buf
	return buf
}

func appendLower(buf []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return append(buf, strings.ToLower(s)...)
		}
	}
	for i := 0; i < len(s); i++ {
		b := s[i]
		if 'A' <= b && b <= 'Z' {
			b += 'a' - 'A'
		}
		buf = append(buf, b)
	}
	return buf
}

// syncHay builds the filter texts when the query first has free words: a
// table nobody searches by word keeps no text per row (at 100,000 payment
// rows, about 110 bytes a row). The first word typed pays for building
// them, one pass over the rows like the one loading them made (about half
// a second at 1,000,000 payment rows: BenchmarkFilterFirstWord); once
// built they are kept with the rows, so that every later search, a word
// typed again after the filter was cleared included, costs what it did
// before (BenchmarkFilterRareWord).
func (c *core[T]) syncHay() {
	if len(c.want.words) == 0 || c.hayOn {
		return
	}
	n := c.count()
	c.hay.reset(n)
	for it := range int32(n) {
		c.hay.add(c.haystack(c.row(it)))
	}
	c.hayOn = true
}
