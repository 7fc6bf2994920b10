package keys

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// ConfigError lists every problem found in the [keys] table, so the user
// can fix them all in one go.
type ConfigError struct {
	Problems []string
}

func (e *ConfigError) Error() string {
	var b strings.Builder
	if len(e.Problems) == 1 {
		b.WriteString("keys: 1 problem in the [keys] table of the config file:")
	} else {
		fmt.Fprintf(&b, "keys: %d problems in the [keys] table of the config file:", len(e.Problems))
	}
	for _, p := range e.Problems {
		b.WriteString("\n  - ")
		b.WriteString(p)
	}
	return b.String()
}

// Apply rebinds actions from the config file's [keys] table: action name →
// the keys that trigger it, spelled as Bubble Tea spells them ("ctrl+r",
// "shift+tab", "space", "R", "f5"). The listed keys replace the action's
// default keys; actions not listed keep theirs.
//
// Every problem is reported in one *ConfigError: unknown action names (with
// the closest known name), empty key lists, keys Bubble Tea cannot report,
// one key bound to two actions that are live at the same time, and an
// action left with no key that can reach it. On error m is unchanged.
func (m *Map) Apply(overrides map[string][]string) error {
	next := *m // bindings are replaced, never mutated in place
	var problems []string

	names := make([]string, 0, len(overrides))
	for name := range overrides {
		names = append(names, name)
	}
	slices.Sort(names)

	for _, name := range names {
		keys := overrides[name]
		s, known := specByName[Action(name)]
		if !known {
			p := fmt.Sprintf("%q is not an action", name)
			if sug := closestAction(name); sug != "" {
				p += fmt.Sprintf("; did you mean %q?", sug)
			}
			problems = append(problems, p)
		}
		if len(keys) == 0 {
			if known {
				problems = append(problems, fmt.Sprintf("%s: no keys given (remove the line to keep the default %s)",
					name, quoteList(s.keys)))
			}
			continue
		}
		// Keys are checked even for an unknown action, and the good keys of
		// an action with a bad one still take part in the conflict check,
		// so that one pass reports everything.
		var clean []string
		for _, k := range keys {
			if why := checkKey(k); why != "" {
				problems = append(problems, fmt.Sprintf("%s: key %q %s", name, k, why))
				continue
			}
			if !slices.Contains(clean, k) {
				clean = append(clean, k)
			}
		}
		if !known || len(clean) == 0 {
			continue
		}
		b := next.field(Action(name))
		desc := b.Help().Desc
		if desc == "" {
			desc = s.desc
		}
		b.SetKeys(clean...)
		b.SetHelp(Label(clean), desc)
	}

	problems = append(problems, conflicts(next)...)
	problems = append(problems, unreachable(next)...)
	if len(problems) > 0 {
		return &ConfigError{Problems: problems}
	}
	*m = next
	return nil
}

// Validate reports the conflicts and unreachable actions of m, as Apply
// would; useful after the app has changed bindings by hand.
func (m Map) Validate() error {
	problems := append(conflicts(m), unreachable(m)...)
	if len(problems) > 0 {
		return &ConfigError{Problems: problems}
	}
	return nil
}

// conflicts finds keys bound to two actions that are live in one context.
func conflicts(m Map) []string {
	var out []string
	seen := map[string]bool{}
	for _, ctx := range Contexts() {
		owner := map[string]Action{}
		for _, name := range ctx.live() {
			b := *m.field(name)
			for _, k := range ctx.effectiveKeys(b.Keys()) {
				prev, taken := owner[k]
				if !taken {
					owner[k] = name
					continue
				}
				if prev == name {
					continue
				}
				id := k + "\x00" + string(prev) + "\x00" + string(name)
				if seen[id] {
					continue
				}
				seen[id] = true
				out = append(out, fmt.Sprintf("key %q is bound to both %q and %q, which work at the same time (in the %s)",
					k, prev, name, ctx))
			}
		}
	}
	return out
}

// unreachable finds actions whose every key types text in every context
// where the action is live, so that no key press can ever trigger them.
func unreachable(m Map) []string {
	var out []string
	for _, s := range specs {
		b := *m.field(s.name)
		if len(b.Keys()) == 0 {
			continue // unbound on purpose by the app
		}
		var where []string
		reachable := false
		for _, ctx := range Contexts() {
			if !ctx.Live(s.name) {
				continue
			}
			where = append(where, ctx.String())
			if len(ctx.effectiveKeys(b.Keys())) > 0 {
				reachable = true
				break
			}
		}
		if !reachable && len(where) > 0 {
			out = append(out, fmt.Sprintf("%s: every key (%s) types text in the %s, the only place this action works; add a key such as \"enter\" or \"tab\"",
				s.name, quoteList(b.Keys()), strings.Join(where, " and ")))
		}
	}
	return out
}

func quoteList(keys []string) string {
	q := make([]string, len(keys))
	for i, k := range keys {
		q[i] = fmt.Sprintf("%q", k)
	}
	return strings.Join(q, ", ")
}

// keyNames are the multi-character key names accepted in the config file.
var keyNames = func() map[string]bool {
	names := map[string]bool{}
	for _, n := range []string{"enter", "tab", "esc", "space", "backspace", "delete", "up", "down", "left", "right",
		"home", "end", "pgup", "pgdown", "insert"} {
		names[n] = true
	}
	for i := 1; i <= 12; i++ {
		names[fmt.Sprintf("f%d", i)] = true
	}
	return names
}()

// keyAliases are names people write for keys Bubble Tea names otherwise.
var keyAliases = map[string]string{
	"escape": "esc", "return": "enter", "ret": "enter", "cr": "enter",
	"pageup": "pgup", "page_up": "pgup", "page-up": "pgup", "pgdn": "pgdown",
	"pagedown": "pgdown", "page_down": "pgdown", "page-down": "pgdown",
	"del": "delete", "ins": "insert", "bs": "backspace", "bksp": "backspace",
	"spacebar": "space", "arrowup": "up", "arrowdown": "down", "arrowleft": "left", "arrowright": "right",
}

const keyNameList = "enter, tab, esc, space, backspace, delete, up, down, left, right, home, end, pgup, pgdown, insert, f1 to f12"

// checkKey says what is wrong with a key string, or "" if Bubble Tea can
// report it exactly so.
func checkKey(k string) string {
	if why := checkSpaces(k); why != "" {
		return why
	}
	mods, base, why := parseMods(k)
	if why != "" {
		return why
	}
	canonBase, why := checkBase(base, mods)
	if why != "" {
		return why
	}
	if canon := mods.prefix(mods.shift) + canonBase; canon != k {
		return fmt.Sprintf("is not written the way Bubble Tea writes it; write %q", canon)
	}
	return ""
}

// checkSpaces refuses an empty key and spaces around one.
func checkSpaces(k string) string {
	if k == "" {
		return "is empty"
	}
	if k == " " {
		return `is a space; write "space"`
	}
	if t := strings.TrimSpace(k); t != k {
		if t == "" {
			return "is blank"
		}
		return fmt.Sprintf("has spaces around it; write %q", t)
	}
	return ""
}

// modSet is the modifiers of a key.
type modSet struct{ ctrl, alt, shift bool }

// prefix writes the modifiers the way Bubble Tea does ("ctrl+alt+"), with
// shift as given.
func (m modSet) prefix(shift bool) string {
	var b strings.Builder
	if m.ctrl {
		b.WriteString("ctrl+")
	}
	if m.alt {
		b.WriteString("alt+")
	}
	if shift {
		b.WriteString("shift+")
	}
	return b.String()
}

// parseMods splits k into its modifiers and its base key, refusing a
// modifier paydash does not support and a base that still holds a "+".
func parseMods(k string) (mods modSet, base, why string) {
	prefix, base := splitMods(k)
	if i := strings.Index(base, "+"); i > 0 && len(base) > 1 {
		if slices.Contains(modifierNames, strings.ToLower(base[:i])) && i == len(base)-1 {
			return modSet{}, "", fmt.Sprintf("has no key after %s", base)
		}
		return modSet{}, "", fmt.Sprintf("has an unknown modifier %q; use ctrl+, alt+ or shift+", base[:i])
	}
	if prefix == "" {
		return mods, base, ""
	}
	for _, mod := range strings.Split(strings.TrimSuffix(prefix, "+"), "+") {
		switch strings.ToLower(mod) {
		case "ctrl":
			mods.ctrl = true
		case "alt":
			mods.alt = true
		case "shift":
			mods.shift = true
		default:
			return modSet{}, "", fmt.Sprintf("uses %s+, which paydash does not support; use ctrl+, alt+ or shift+", strings.ToLower(mod))
		}
	}
	return mods, base, ""
}

// checkBase says how Bubble Tea writes the base key under mods, or why it
// cannot arrive so: a single character as it is, a key name in lower case.
func checkBase(base string, mods modSet) (canon, why string) {
	if r, size := utf8.DecodeRuneInString(base); size == len(base) {
		return base, checkChar(r, mods)
	}
	lower := strings.ToLower(base)
	switch {
	case keyNames[lower]:
		return lower, ""
	case keyAliases[lower] != "":
		return "", fmt.Sprintf("is not a key name Bubble Tea uses; write %q", mods.prefix(mods.shift)+keyAliases[lower])
	}
	return "", "is not a key Bubble Tea reports; use a single character or one of " + keyNameList +
		", optionally after ctrl+, alt+ or shift+"
}

// checkChar refuses a character key that cannot arrive as written.
func checkChar(r rune, mods modSet) string {
	switch {
	case r == utf8.RuneError || !unicode.IsPrint(r) || unicode.IsSpace(r):
		return "is not a printable character"
	case mods.shift && !mods.ctrl && !mods.alt:
		if unicode.IsLetter(r) {
			return fmt.Sprintf("cannot arrive: Bubble Tea reports shift with a character as the character itself; write %q",
				string(unicode.ToUpper(r)))
		}
		return "cannot arrive: Bubble Tea reports shift with a character as the shifted character itself (\"!\" for shift+1)"
	case (mods.ctrl || mods.alt) && unicode.IsUpper(r):
		return fmt.Sprintf("cannot arrive: with ctrl or alt Bubble Tea reports the lower-case letter and shift; write %q",
			mods.prefix(true)+string(unicode.ToLower(r)))
	}
	return ""
}

// closestAction suggests the known action name nearest to a wrong one.
func closestAction(name string) string {
	norm := strings.NewReplacer("-", "_", " ", "_", ".", "_").Replace(strings.ToLower(strings.TrimSpace(name)))
	best, bestDist := "", -1
	for _, s := range specs {
		name := string(s.name)
		d := levenshtein(norm, name)
		if len(norm) >= 3 && (strings.Contains(name, norm) || strings.Contains(norm, name)) {
			// "cancel" → "cancel_hold", "revoke_token" → "revoke"
			d = min(d, 2)
		}
		if bestDist < 0 || d < bestDist {
			best, bestDist = name, d
		}
	}
	if bestDist > max(2, utf8.RuneCountInString(norm)/3) {
		return ""
	}
	return best
}

func levenshtein(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
