package team

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"paydash/backend/money"

	"golang.org/x/crypto/ssh"
)

// personKeys are the keys a [[person]] may have, in the order messages
// name them.
var personKeys = []string{"name", "role", "keys", "limits"}

// keyOwner is who a key was first given to, for "the same key twice".
type keyOwner struct {
	name string
	line int
}

// checker checks the decoded file, gathering every problem with its place.
type checker struct {
	spots    spots
	problems []Problem
	warnings []string
	names    map[string]int // name → line of its first person
	keys     map[string]keyOwner
}

func (c *checker) fault(at spot, format string, args ...any) {
	c.problems = append(c.problems, Problem{at.line, at.col, fmt.Sprintf(format, args...)})
}

// file checks the whole document: [[person]] tables and nothing else.
func (c *checker) file(doc map[string]any) *People {
	for _, k := range slices.Sorted(maps.Keys(doc)) {
		if k != "person" {
			c.fault(c.spots.key(k), "unknown key %q: the file holds [[person]] tables only", k)
		}
	}
	list, ok := doc["person"].([]any)
	if _, found := doc["person"]; found && !ok {
		c.fault(c.spots.key("person"), "person must be written [[person]], with two brackets, once for each person")
		return nil
	}
	if len(list) == 0 && len(c.problems) == 0 {
		c.fault(spot{}, "no [[person]] in the file: nobody could connect")
	}
	people := &People{byName: map[string]int{}, byKey: map[string]int{}}
	for i, v := range list {
		t, ok := v.(map[string]any)
		if !ok {
			c.fault(c.spots.value("person", strconv.Itoa(i)), "person must be written [[person]], with two brackets, once for each person")
			continue
		}
		p, ok := c.person(i, t)
		if !ok {
			continue
		}
		idx := len(people.list)
		people.list = append(people.list, p)
		people.byName[p.Name] = idx
		for _, k := range p.Keys {
			people.byKey[string(k.Marshal())] = idx
		}
	}
	return people
}

// person checks the i-th [[person]]; false when it has a problem.
func (c *checker) person(i int, t map[string]any) (Person, bool) {
	n := strconv.Itoa(i)
	before := len(c.problems)
	head := c.spots.key("person", n)
	for _, k := range slices.Sorted(maps.Keys(t)) {
		if !slices.Contains(personKeys, k) {
			c.fault(c.spots.key("person", n, k), "unknown key %q in [[person]]%s (the keys are name, role, keys and limits)", k, didYouMean(k))
		}
	}
	p := Person{Line: head.line}
	p.Name = c.name(n, t["name"], head)
	who := "this person"
	if p.Name != "" {
		who = strconv.Quote(p.Name)
	}
	p.Role = c.role(n, t["role"], who, head)
	p.Keys = c.keyList(n, t["keys"], who, p.Name, head)
	p.Limits = c.limits(n, t["limits"])
	if p.Role != Support && p.Role != "" && len(p.Limits) > 0 {
		c.warnings = append(c.warnings, fmt.Sprintf("line %d: the limits of %s are not used: only support people have limits (%s is a %s)",
			c.spots.key("person", n, "limits").line, who, who, p.Role))
	}
	return p, len(c.problems) == before
}

// name checks a person's name: a line of text, not taken.
func (c *checker) name(n string, v any, head spot) string {
	at := c.spots.value("person", n, "name")
	switch s, ok := v.(string); {
	case v == nil:
		c.fault(head, `this person has no name: add name = "…", the name the journal and the other sessions show`)
	case !ok:
		c.fault(at, "name must be text in quotes, not %s", kindOf(v))
	case strings.TrimSpace(s) == "":
		c.fault(at, "name is empty")
	case strings.TrimSpace(s) != s:
		c.fault(at, "name %q begins or ends with a space", s)
	case strings.IndexFunc(s, unicode.IsControl) >= 0:
		c.fault(at, "name %q has a control character (a tab, a line break…)", s)
	case len(s) > 64:
		c.fault(at, "name is longer than 64 bytes")
	default:
		if line, taken := c.names[s]; taken {
			c.fault(at, "the name %q is taken by the person on line %d: each person needs a name of their own", s, line)
			return ""
		}
		c.names[s] = head.line
		return s
	}
	return ""
}

// role checks a person's role: one of Roles.
func (c *checker) role(n string, v any, who string, head spot) Role {
	s, ok := v.(string)
	r := Role(strings.ToLower(strings.TrimSpace(s)))
	switch {
	case v == nil:
		c.fault(head, `%s has no role: add role = "viewer", "support" or "supervisor"`, who)
	case !ok:
		c.fault(c.spots.value("person", n, "role"), `role must be "viewer", "support" or "supervisor" in quotes, not %s`, kindOf(v))
	case !slices.Contains(Roles, r):
		c.fault(c.spots.value("person", n, "role"), `%q is not a role: the roles are "viewer", "support" and "supervisor"`, s)
	default:
		return r
	}
	return ""
}

// keyList checks a person's keys: a list of authorized_keys lines, each
// key no one else's.
func (c *checker) keyList(n string, v any, who, name string, head spot) []ssh.PublicKey {
	list, ok := v.([]any)
	switch {
	case v == nil || (ok && len(list) == 0):
		c.fault(head, `%s has no keys: add keys = ["ssh-ed25519 AAAA… %s"], lines of the person's authorized_keys (their ~/.ssh/id_ed25519.pub)`, who, name)
		return nil
	case !ok:
		c.fault(c.spots.value("person", n, "keys"), `keys must be a list of authorized_keys lines in quotes, keys = ["ssh-ed25519 AAAA…"], not %s`, kindOf(v))
		return nil
	}
	var keys []ssh.PublicKey
	for j, item := range list {
		at := c.spots.value("person", n, "keys", strconv.Itoa(j))
		k, msg := parseKey(item)
		if msg != "" {
			c.fault(at, "key %d of %s %s", j+1, who, msg)
			continue
		}
		wire := string(k.Marshal())
		if o, taken := c.keys[wire]; taken {
			owner := strconv.Quote(o.name)
			if o.name == name {
				owner = "the same person"
			}
			c.fault(at, "key %d of %s (%s) is also given to %s, on line %d: a key names one person", j+1, who, Fingerprint(k), owner, o.line)
			continue
		}
		c.keys[wire] = keyOwner{name, at.line}
		keys = append(keys, k)
	}
	return keys
}

// parseKey reads one authorized_keys line; the message says why not.
func parseKey(v any) (ssh.PublicKey, string) {
	s, ok := v.(string)
	switch {
	case !ok:
		return nil, "must be an authorized_keys line in quotes, not " + kindOf(v)
	case strings.ContainsAny(strings.TrimSpace(s), "\r\n"):
		return nil, "holds more than one line: give each key as a string of its own"
	}
	k, _, options, _, err := ssh.ParseAuthorizedKey([]byte(s))
	switch {
	case err != nil:
		why, _, _ := strings.Cut(strings.TrimPrefix(err.Error(), "ssh: "), ";")
		return nil, `is not an authorized_keys line such as "ssh-ed25519 AAAAC3Nza… desk-1" (` + why + ")"
	case len(options) > 0:
		return nil, "has options (" + strings.Join(options, ",") + ") that paydash does not apply: give the key type, the key and a comment only"
	}
	if _, cert := k.(*ssh.Certificate); cert {
		return nil, "is a certificate: give the plain public key"
	}
	return k, ""
}

// limits checks a person's [person.limits]: currency = amount.
func (c *checker) limits(n string, v any) map[string]money.Decimal {
	if v == nil {
		return nil
	}
	t, ok := v.(map[string]any)
	if !ok {
		c.fault(c.spots.value("person", n, "limits"), `limits must be a table, [person.limits] with lines like RUB = "10000", not %s`, kindOf(v))
		return nil
	}
	out := map[string]money.Decimal{}
	written := map[string]string{}
	for _, cur := range slices.Sorted(maps.Keys(t)) {
		keyAt := c.spots.key("person", n, "limits", cur)
		code := strings.ToUpper(strings.TrimSpace(cur))
		if code != "*" && !money.ValidCurrency(code) {
			c.fault(keyAt, `%q is not a currency: write a three-letter code such as RUB, or "*" for any other currency`, cur)
			continue
		}
		if first, twice := written[code]; twice {
			c.fault(keyAt, "the limit for %s is given twice (as %q and %q)", code, first, cur)
			continue
		}
		written[code] = cur
		d, msg := limitAmount(t[cur])
		if msg != "" {
			c.fault(c.spots.value("person", n, "limits", cur), "the limit for %s %s", cur, msg)
			continue
		}
		out[code] = d
	}
	return out
}

// limitAmount reads one limit: an amount not below zero, as a string
// ("10000.50") or a number; the message says why not.
func limitAmount(v any) (money.Decimal, string) {
	var text string
	switch x := v.(type) {
	case int64:
		text = strconv.FormatInt(x, 10)
	case float64:
		text = strconv.FormatFloat(x, 'f', -1, 64)
	case string:
		text = strings.ReplaceAll(strings.TrimSpace(x), "_", "")
	default:
		return 0, `must be an amount such as "10000" or "10000.50", not ` + kindOf(v)
	}
	q := strconv.Quote(text)
	d, err := money.Parse(text)
	switch {
	case strings.ContainsAny(text, " \u00a0\u202f"):
		return 0, q + ` has a space in it: write the amount without spaces, like "10000"`
	case strings.Contains(text, ","):
		return 0, q + ` has a comma: write the amount with no thousands separator and a point before the decimals, like "10000.50"`
	case err != nil && strings.Contains(err.Error(), "4 decimals"):
		return 0, q + " has more than four decimals"
	case err != nil && strings.Contains(err.Error(), "too large"):
		return 0, q + " is too large"
	case err != nil:
		return 0, q + ` is not an amount: write it like "10000" or "10000.50"`
	case d.IsNegative():
		return 0, q + ` is below zero: write 0 to have every amount approved`
	}
	return d, ""
}

// kindOf names a TOML value's type for a message.
func kindOf(v any) string {
	switch v.(type) {
	case string:
		return "text"
	case int64:
		return "a whole number"
	case float64:
		return "a number"
	case bool:
		return "true or false"
	case []any:
		return "a list"
	case map[string]any:
		return "a table"
	}
	return "a date or time"
}

// didYouMean suggests the person key k is a typo of: ` (did you mean
// "role"?)`, or "".
func didYouMean(k string) string {
	for _, want := range personKeys {
		if distance(strings.ToLower(k), want) <= 2 {
			return fmt.Sprintf(" (did you mean %q?)", want)
		}
	}
	return ""
}

// distance is the Levenshtein distance between a and b.
func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}
