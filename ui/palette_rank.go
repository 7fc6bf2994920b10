package ui

import (
	"cmp"
	"slices"
	"strings"

	"github.com/sahilm/fuzzy"
)

// paletteHit is one entry that matches: its index, its rank (lower is
// better), the fuzzy matcher's score and the name's matched bytes.
type paletteHit struct {
	entry, rank, score int
	marks              []int
}

// The palette's ranks, best first (filter, in palette.go, says what each is).
const (
	rankKey = iota
	rankPrefix
	rankWord
	rankInside
	rankLabel
	rankFuzzy
)

// rankPalette is the entries of all that match raw, best first (the
// ranks filter describes, in palette.go).
func rankPalette(all []paletteEntry, raw string) []paletteHit {
	q := strings.ToLower(raw)
	var hits []paletteHit
	var fuzzyNames []string
	var fuzzyIdx []int
	for i, e := range all {
		name := strings.ToLower(e.name)
		label := strings.ToLower(e.label)
		at := strings.Index(name, q)
		sameBytes := len(name) == len(e.name) // ToLower kept the offsets
		span := func(from int) []int {
			if !sameBytes {
				return nil
			}
			out := make([]int, 0, len(q))
			for j := from; j < from+len(q); j++ {
				out = append(out, j)
			}
			return out
		}
		switch {
		case isKeyOf(e, raw):
			hits = append(hits, paletteHit{entry: i, rank: rankKey})
		case at == 0:
			hits = append(hits, paletteHit{entry: i, rank: rankPrefix, marks: span(0)})
		case wordAt(name, q) >= 0:
			hits = append(hits, paletteHit{entry: i, rank: rankWord, marks: span(wordAt(name, q))})
		case at > 0:
			hits = append(hits, paletteHit{entry: i, rank: rankInside, marks: span(at)})
		case strings.Contains(label, q):
			hits = append(hits, paletteHit{entry: i, rank: rankLabel})
		default:
			fuzzyNames = append(fuzzyNames, e.name)
			fuzzyIdx = append(fuzzyIdx, i)
		}
	}
	for _, m := range fuzzy.Find(raw, fuzzyNames) {
		hits = append(hits, paletteHit{entry: fuzzyIdx[m.Index], rank: rankFuzzy, score: m.Score,
			marks: m.MatchedIndexes})
	}
	slices.SortStableFunc(hits, func(a, b paletteHit) int {
		if c := cmp.Compare(a.rank, b.rank); c != 0 {
			return c
		}
		if c := cmp.Compare(b.score, a.score); c != 0 {
			return c
		}
		return cmp.Compare(a.entry, b.entry)
	})
	return hits
}

// isKeyOf reports whether s is one of e's keys exactly.
func isKeyOf(e paletteEntry, s string) bool {
	if s == e.keyStr || s == e.label {
		return true
	}
	return slices.Contains(strings.Split(e.label, "/"), s) && s != ""
}

// wordAt is the offset of the first word of name (after a space or a
// slash) that starts with q, -1 when none does.
func wordAt(name, q string) int {
	for i := 1; i < len(name); i++ {
		if (name[i-1] == ' ' || name[i-1] == '/') && strings.HasPrefix(name[i:], q) {
			return i
		}
	}
	return -1
}
