package config

import (
	"github.com/pelletier/go-toml/v2/unstable"
)

// merchantLines finds where the file writes merchants, for messages: the
// line of the key (or of its first table header) and the line each item
// starts on (0 for an item whose start is not known, such as an empty
// nested list); 0 and nil when not found.
//
// The decoder that reads the values (BurntSushi/toml) keeps one position
// per key, out of reach of its callers, and none for the items of a list,
// so the lines come from go-toml's parser, which gives every key and value
// the bytes it was read from. It reads the text a second time, only ever to
// name lines: where it cannot read the file, the messages name fewer lines
// (docs/config.md).
func merchantLines(text []byte) (key int, items []int) {
	var p unstable.Parser
	p.Reset(text)
	line := func(n *unstable.Node) int {
		if r, ok := firstRange(n); ok {
			return p.Shape(r).Start.Line
		}
		return 0
	}
	inTable := false // past the first table header: no top-level key follows
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			inTable = true
			k := e.Key()
			if !isMerchants(k) {
				continue
			}
			if key == 0 {
				key = line(e.Child())
			}
			if e.Kind == unstable.ArrayTable {
				items = append(items, line(e.Child()))
			}
		case unstable.KeyValue:
			if inTable || key != 0 || !isMerchants(e.Key()) {
				continue
			}
			k := e.Key()
			key = line(k.Node())
			if v := e.Value(); v.Kind == unstable.Array {
				for it := v.Children(); it.Next(); {
					items = append(items, line(it.Node()))
				}
			}
		}
	}
	return key, items
}

// isMerchants reports whether the key is merchants alone (bare or quoted),
// not a dotted key such as merchants.x.
func isMerchants(k unstable.Iterator) bool {
	return k.Next() && string(k.Node().Data) == "merchants" && !k.Next()
}

// firstRange is where a value starts: its own bytes, or for a list (which
// has none of its own) its first item's.
func firstRange(n *unstable.Node) (unstable.Range, bool) {
	if n == nil {
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

// keyLine is the line of the top-level key name in the file (before any
// table header), 0 when not found: for the messages about one value.
func keyLine(text []byte, name string) int {
	var p unstable.Parser
	p.Reset(text)
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			return 0
		case unstable.KeyValue:
			k := e.Key()
			if k.Next() && string(k.Node().Data) == name && !k.Next() {
				k = e.Key()
				k.Next()
				if r, ok := firstRange(k.Node()); ok {
					return p.Shape(r).Start.Line
				}
			}
		}
	}
	return 0
}
