package config

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"paydash/backend/textsafe"
	"paydash/keys"
)

// The config file's merchants is one list; each item is a
// merchant id, or a table of the id and the merchant's name:
//
//	merchants = ["1001", { id = "1002", name = "Page Turner Books" }]
//
// so the old list of ids (merchants = ["1001", 1002]) reads as before. The
// same list may be written as [[merchants]] tables, TOML's other spelling
// of a list of tables. An id is a string or a whole number. A name is
// cleaned (textsafe.Line: control characters and escape sequences out) and
// cut to maxMerchantName characters; the status bar and the switcher show
// it beside the id.
//
// Problems that leave paydash nothing sensible to do stop it (exit 2), all
// at once, each naming its line and item: an item that is neither an id nor
// a table, a table without an id (a name alone), an empty id or one with
// spaces, a key other than id and name, a name that is not a string.
// Problems it can get past are warnings: an id listed again is left out
// (the first stays), a name with control characters is shown cleaned.

// configMerchant is one merchant of the config file, checked.
type configMerchant struct {
	ID   string
	Name string // cleaned; "" when the file gives none
}

// maxMerchantName bounds a name from the config file (in characters); the
// status bar cuts it further when the bar is tight.
const maxMerchantName = 64

// merchantExample is how an item is written, for messages.
const merchantExample = `{ id = "1002", name = "Page Turner Books" }`

// parseMerchants reads the value of merchants (text is the whole file, to
// name lines): the merchants in order without repeats, the problems that
// stop paydash and the warnings that do not.
func parseMerchants(v any, text []byte) (list []configMerchant, problems, warnings []string) {
	keyLine, itemLines := merchantLines(text)
	var items []any
	switch t := v.(type) {
	case []any:
		items = t
	case []map[string]any: // [[merchants]]
		for _, m := range t {
			items = append(items, m)
		}
	default:
		return nil, []string{at(keyLine, `merchants must be a list of merchant ids or tables of id and name, like ["1001", `+
			merchantExample+`], not `+keys.TOMLKind(v))}, nil
	}
	first := map[string]int{} // id → its item number
	for i, el := range items {
		line := keyLine
		if i < len(itemLines) && itemLines[i] > 0 {
			line = itemLines[i]
		}
		item := fmt.Sprintf("merchants item %d", i+1)
		m, bad, notes := readMerchant(el)
		for _, msg := range bad {
			problems = append(problems, at(line, item+" "+msg))
		}
		for _, msg := range notes {
			warnings = append(warnings, at(line, fmt.Sprintf("%s (%s): %s", item, m.ID, msg)))
		}
		if len(bad) > 0 {
			continue
		}
		if j, seen := first[m.ID]; seen {
			warnings = append(warnings, at(line, fmt.Sprintf("%s repeats merchant %s (item %d); it is left out", item, m.ID, j)))
			continue
		}
		first[m.ID] = i + 1
		list = append(list, m)
	}
	return list, problems, warnings
}

// readMerchant checks one item of merchants, an id or a table of id and
// name: the merchant, what is wrong with it (each message follows
// "merchants item N ") and what was done to its name (each follows
// "merchants item N (ID): ").
func readMerchant(el any) (m configMerchant, bad, notes []string) {
	switch t := el.(type) {
	case string, int64:
		m.ID = idString(t)
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(t)) {
			if k != "id" && k != "name" {
				bad = append(bad, fmt.Sprintf("has the unknown key %q; a merchant is written %s", k, merchantExample))
			}
		}
		rawID, hasID := t["id"]
		rawName, hasName := t["name"]
		switch {
		case !hasID && hasName:
			return m, append(bad, "has a name but no id; write it "+merchantExample), nil
		case !hasID:
			return m, append(bad, "has no id; write it "+merchantExample), nil
		}
		if msg := isID(rawID); msg != "" {
			return m, append(bad, "id "+msg), nil
		}
		m.ID = idString(rawID)
		if hasName {
			name, ok := rawName.(string)
			if !ok {
				return m, append(bad, "name must be a string in quotes, not "+keys.TOMLKind(rawName)), nil
			}
			m.Name = textsafe.Line(name, maxMerchantName)
			switch {
			case m.Name == "" && strings.TrimSpace(name) != "":
				notes = append(notes, "the name has nothing printable in it; the merchant is shown by its id")
			case textsafe.Clean(name) != name:
				notes = append(notes, fmt.Sprintf("the name holds control characters or escape sequences; it is shown as %q", m.Name))
			}
		}
	default:
		return m, []string{fmt.Sprintf("must be a merchant id (a string or a whole number) or a table %s, not %s", merchantExample, keys.TOMLKind(el))}, nil
	}
	if m.ID == "" {
		return m, append(bad, "has an empty id; give the merchant's id"), notes
	}
	if err := checkMerchantID(m.ID); err != nil {
		return m, append(bad, fmt.Sprintf("id %q: %v", m.ID, err)), notes
	}
	return m, bad, notes
}

// at prefixes a message with the line it is about, when known.
func at(line int, msg string) string {
	if line <= 0 {
		return msg
	}
	return fmt.Sprintf("line %d: %s", line, msg)
}

// MerchantList names merchants in a message: "1001 Daily Grind, 1002".
func MerchantList(ids []string, names map[string]string) string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = id
		if n := names[id]; n != "" {
			out[i] += " " + n
		}
	}
	return strings.Join(out, ", ")
}
