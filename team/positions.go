package team

import (
	"strconv"
	"strings"

	"github.com/pelletier/go-toml/v2/unstable"
)

// spot is where something is written in the file: a line and a column,
// both from 1; 0 when not known.
type spot struct{ line, col int }

// spots are the places of the file's keys and values, by path: the key's
// parts joined by pathSep, an array's items by their index ("person", "0",
// "keys", "1"). The values come from go-toml's decoder, which keeps no
// places; the places come from its parser, reading the text a second time
// only to name lines, as config/positions.go does for the config file.
type spots struct {
	keys   map[string]spot // where a key, or a table's header, is written
	values map[string]spot // where a value, or a list's item, starts
}

const pathSep = "\x00"

// path joins key parts and indexes into a spots key.
func path(parts ...string) string { return strings.Join(parts, pathSep) }

// key is where the key at path is written, else where its value is.
func (s spots) key(parts ...string) spot {
	p := path(parts...)
	if at, ok := s.keys[p]; ok {
		return at
	}
	return s.values[p]
}

// value is where the value at path starts, else where its key is.
func (s spots) value(parts ...string) spot {
	p := path(parts...)
	if at, ok := s.values[p]; ok {
		return at
	}
	return s.keys[p]
}

// findSpots reads the places of text's keys and values. A table header
// [a.b] names the last table of an array of tables [[a]] before it, as
// TOML says.
func findSpots(text []byte) spots {
	s := spots{keys: map[string]spot{}, values: map[string]spot{}}
	var p unstable.Parser
	p.Reset(text)
	at := func(n *unstable.Node) spot {
		if r, ok := firstRange(n); ok {
			sh := p.Shape(r)
			return spot{sh.Start.Line, sh.Start.Column}
		}
		return spot{}
	}
	arrays := map[string]int{} // the tables an array of tables has so far
	var prefix []string
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			parts := keyParts(e.Key())
			prefix = nil
			for i, part := range parts {
				prefix = append(prefix, part)
				n, isArray := arrays[path(prefix...)]
				switch {
				case i == len(parts)-1 && e.Kind == unstable.ArrayTable:
					arrays[path(prefix...)] = n + 1
					prefix = append(prefix, strconv.Itoa(n))
				case isArray && n > 0:
					prefix = append(prefix, strconv.Itoa(n-1))
				}
			}
			s.keys[path(prefix...)] = at(e.Child())
		case unstable.KeyValue:
			s.keyValue(prefix, e, at)
		}
	}
	return s
}

// keyValue records a key = value line (or an inline table's entry) under
// prefix, and the items of its value.
func (s spots) keyValue(prefix []string, kv *unstable.Node, at func(*unstable.Node) spot) {
	k := kv.Key()
	var parts []string
	keyAt := spot{}
	for k.Next() {
		if keyAt == (spot{}) {
			keyAt = at(k.Node())
		}
		parts = append(parts, string(k.Node().Data))
	}
	full := append(append([]string(nil), prefix...), parts...)
	s.keys[path(full...)] = keyAt
	s.record(full, kv.Value(), at)
}

// record records where the value at full starts, and its items'.
func (s spots) record(full []string, v *unstable.Node, at func(*unstable.Node) spot) {
	s.values[path(full...)] = at(v)
	switch v.Kind {
	case unstable.Array:
		i := 0
		for it := v.Children(); it.Next(); i++ {
			s.record(append(append([]string(nil), full...), strconv.Itoa(i)), it.Node(), at)
		}
	case unstable.InlineTable:
		for it := v.Children(); it.Next(); {
			s.keyValue(full, it.Node(), at)
		}
	}
}

func keyParts(k unstable.Iterator) []string {
	var parts []string
	for k.Next() {
		parts = append(parts, string(k.Node().Data))
	}
	return parts
}

// firstRange is where a node starts: its own bytes, or for a list or table
// (which have none of their own) its first item's.
func firstRange(n *unstable.Node) (unstable.Range, bool) {
	if n == nil || !n.Valid() {
		return unstable.Range{}, false
	}
	if n.Raw.Length > 0 {
		return n.Raw, true
	}
	for it := n.Children(); it.Next(); {
		if r, ok := firstRange(it.Node()); ok {
			return r, true
		}
	}
	return unstable.Range{}, false
}
