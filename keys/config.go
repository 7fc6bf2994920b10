package keys

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
)

// ParseConfig reads the [keys] table of a TOML config file, ignoring every
// other table, for Apply:
//
//	[keys]
//	refund  = ["ctrl+r"]
//	refresh = ["r", "f5"]
//	quit    = "ctrl+q"          # one key may be written without brackets
//
// A file without [keys] gives an empty map. Errors carry the line number:
// a TOML syntax error (wrapping toml.ParseError), or a *ConfigError listing
// every value that is not a key or a list of keys.
func ParseConfig(tomlText []byte) (map[string][]string, error) {
	text := string(tomlText)
	var doc map[string]any
	if _, err := toml.Decode(text, &doc); err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, &syntaxError{line: pe.Position.Line, msg: pe.Message, err: err}
		}
		return nil, fmt.Errorf("config file: %w", err)
	}
	raw, ok := doc["keys"]
	if !ok {
		return map[string][]string{}, nil
	}
	table, ok := raw.(map[string]any)
	if !ok {
		return nil, &ConfigError{Problems: []string{
			at(lineOfKeysTable(text), fmt.Sprintf("keys must be a table of action = [\"key\", ...], not %s", TOMLKind(raw))),
		}}
	}

	names := make([]string, 0, len(table))
	for name := range table {
		names = append(names, name)
	}
	slices.Sort(names)

	out := make(map[string][]string, len(table))
	type problem struct {
		line int
		msg  string
	}
	var found []problem
	for _, name := range names {
		where := lineOfAction(text, name)
		switch v := table[name].(type) {
		case string:
			out[name] = []string{v}
		case []any:
			keys := make([]string, 0, len(v))
			for i, el := range v {
				s, isString := el.(string)
				if !isString {
					found = append(found, problem{where, fmt.Sprintf("keys.%s: item %d is %s; write keys in quotes, like [\"ctrl+r\"]",
						name, i+1, TOMLKind(el))})
					continue
				}
				keys = append(keys, s)
			}
			out[name] = keys
		default:
			found = append(found, problem{where, fmt.Sprintf("keys.%s is %s; write a list of keys, like [\"ctrl+r\"]",
				name, TOMLKind(v))})
		}
	}
	if len(found) > 0 {
		slices.SortStableFunc(found, func(a, b problem) int { return a.line - b.line })
		problems := make([]string, len(found))
		for i, p := range found {
			problems[i] = at(p.line, p.msg)
		}
		return nil, &ConfigError{Problems: problems}
	}
	return out, nil
}

// syntaxError is a TOML syntax error; it unwraps to toml.ParseError.
type syntaxError struct {
	line int
	msg  string
	err  error
}

func (e *syntaxError) Error() string {
	return fmt.Sprintf("config file: line %d: %s", e.line, e.msg)
}

func (e *syntaxError) Unwrap() error { return e.err }

func at(line int, msg string) string {
	if line <= 0 {
		return msg
	}
	return fmt.Sprintf("line %d: %s", line, msg)
}

// TOMLKind names the kind of a value the TOML decoder gave, for a message
// that says what was found instead ("not a number"): the config file's
// messages and the [keys] table's say it alike.
func TOMLKind(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case int64, float64:
		return "a number"
	case bool:
		return "true or false"
	case []any, []map[string]any:
		return "a list"
	case map[string]any:
		return "a table"
	}
	return "a date or time"
}

var (
	tableHeader = regexp.MustCompile(`^\s*\[\[?[^\]=]*\]\]?\s*(#.*)?$`)
	keysHeader  = regexp.MustCompile(`^\s*\[\s*(keys|"keys"|'keys')\s*\]`)
	keysValue   = regexp.MustCompile(`^\s*keys\s*=`)
)

// lineOfKeysTable finds the line (1-based) where the keys table or the keys
// value is written, or 0. The TOML decoder does not give positions for
// values, so this is a textual search.
func lineOfKeysTable(text string) int {
	for i, l := range strings.Split(text, "\n") {
		if keysHeader.MatchString(l) || keysValue.MatchString(l) {
			return i + 1
		}
	}
	return 0
}

// lineOfAction finds the line (1-based) where an action of the keys table
// is given, under [keys] or as keys.<name> at the top level, or 0.
func lineOfAction(text, name string) int {
	q := regexp.QuoteMeta(name)
	under := regexp.MustCompile(`^\s*(` + q + `|"` + q + `"|'` + q + `')\s*=`)
	header := regexp.MustCompile(`^\s*\[\s*keys\s*\.\s*(` + q + `|"` + q + `"|'` + q + `')\s*\]`)
	dotted := regexp.MustCompile(`^\s*keys\s*\.\s*(` + q + `|"` + q + `"|'` + q + `')\s*=`)
	inKeys, top := false, true
	for i, l := range strings.Split(text, "\n") {
		switch {
		case header.MatchString(l):
			return i + 1
		case keysHeader.MatchString(l):
			inKeys, top = true, false
			continue
		case tableHeader.MatchString(l):
			inKeys, top = false, false
			continue
		}
		if (inKeys && under.MatchString(l)) || (top && dotted.MatchString(l)) {
			return i + 1
		}
	}
	return 0
}
