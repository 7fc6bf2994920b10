// Package search reads what a support person types at a list's "/" prompt:
// free words and field conditions, all of which a row must satisfy.
//
//	petrov status:authorized,pending amount:>=100 card:4242
//
// Free words are looked for in every field of a row (its haystack). A field
// condition is name:value; which names exist, and what they compare, is up
// to the list (Field). Parse gives a message that says what is wrong and
// what would be right, for the prompt to show while the user types.
package search

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"paydash/backend/money"
	"paydash/backend/textsafe"
)

// Kind is how a field compares its value.
type Kind int

const (
	// Contains: the field contains the value, ignoring case (email:, desc:).
	Contains Kind = iota
	// Exact: the field is the value, ignoring case (id:, order:).
	Exact
	// Enum: the field is one of a comma-separated list of known values
	// (status:authorized,pending); a unique prefix of a value is enough.
	Enum
	// Amount: a number compared with >, <, >=, <=, = or a range lo..hi.
	Amount
	// Digits: the field's digits contain the value's digits (phone:).
	Digits
	// Card: last digits of the card number, or a brand (card:4242, card:visa).
	Card
)

// Field is one name a list accepts before a colon.
type Field struct {
	Name string
	Kind Kind
	// Values are the accepted values of an Enum field, lower-case.
	Values []string
	// Aliases are other words for Values ("held" for "authorized").
	Aliases map[string]string
	// Example is shown in messages ("status:authorized,pending").
	Example string
}

// Query is a parsed search. The zero Query matches every row.
type Query struct {
	Words []string // lower-cased free words
	Conds []Cond
}

// Empty reports whether the query matches every row.
func (q Query) Empty() bool { return len(q.Words) == 0 && len(q.Conds) == 0 }

// Cond returns the condition on the named field, if the query has one.
func (q Query) Cond(name string) (Cond, bool) {
	for _, c := range q.Conds {
		if c.Field == name {
			return c, true
		}
	}
	return Cond{}, false
}

// Cond is one field condition.
type Cond struct {
	Field string
	Kind  Kind
	// Value is the value as typed (trimmed), for a service that compares
	// it itself.
	Value string
	// Text is the value of Contains, Exact and Card (lower-cased) and the
	// digits of Digits.
	Text string
	// Values are an Enum's chosen values (canonical, lower-case).
	Values []string
	// Op and Lo, Hi are an Amount's comparison: Op is one of ">", "<",
	// ">=", "<=", "=" (Lo is the number) or ".." (Lo..Hi, both included).
	Op     string
	Lo, Hi money.Decimal
}

// String is the condition's canonical text: two conditions with the same
// String select the same rows.
func (c Cond) String() string {
	switch c.Kind {
	case Enum:
		return c.Field + ":" + strings.Join(c.Values, ",")
	case Amount:
		if c.Op == ".." {
			return c.Field + ":" + c.Lo.String() + ".." + c.Hi.String()
		}
		return c.Field + ":" + c.Op + c.Lo.String()
	}
	return c.Field + ":" + c.Text
}

// MatchAmount reports whether v satisfies an Amount condition.
func (c Cond) MatchAmount(v money.Decimal) bool {
	switch c.Op {
	case ">":
		return v > c.Lo
	case "<":
		return v < c.Lo
	case ">=":
		return v >= c.Lo
	case "<=":
		return v <= c.Lo
	case "..":
		return v >= c.Lo && v <= c.Hi
	}
	return v == c.Lo
}

// MatchEnum reports whether the lower-cased value v is one of an Enum's values.
func (c Cond) MatchEnum(v string) bool {
	for _, x := range c.Values {
		if x == v {
			return true
		}
	}
	return false
}

// Parse reads text against the fields a list has. Words are separated by
// spaces; a value with spaces is quoted (desc:"gift card"). A word is a
// Field condition when the part before its first colon, or comparison,
// is a word of letters: amount>1000 is amount:>1000, status=held is
// status:held; "12:30" stays a free word. A field and its value typed
// apart ("amount > 1000") are said (did you mean amount:>1000?).
//
// With an error, the Query still holds the words and conditions that make
// sense (the one being typed is usually the wrong one), and the error is
// the first thing wrong.
func Parse(text string, fields []Field) (Query, error) {
	var q Query
	toks, err := tokens(textsafe.Clean(text))
	var first error
	if err != nil {
		first = err
	}
	for i := 0; i < len(toks); i++ {
		tok := toks[i]
		name, sep, value, isField := splitField(tok)
		if !isField {
			// "amount >1000", "amount > 1000": the field and its value
			// apart; said, not searched as words that match nothing.
			if f, ok := findField(fields, strings.ToLower(tok.text)); ok && i+1 < len(toks) && startsWithSep(toks[i+1].text) {
				joined, n := spaced(f, toks[i:])
				if first == nil {
					first = fmt.Errorf("did you mean %s? (no space between %s and its value)", joined, f.Name)
				}
				i += n - 1
				continue
			}
			q.Words = append(q.Words, strings.ToLower(tok.text))
			continue
		}
		var c Cond
		f, ok := findField(fields, name)
		switch {
		case !ok:
			err = fmt.Errorf("%s: is not a field here; the fields are %s", name, fieldNames(fields))
		case strings.TrimSpace(value) == "" && i+1 < len(toks) && !isCond(toks[i+1]):
			// "amount: >1000", "amount> 1000"
			joined, n := spaced(f, toks[i:])
			err = fmt.Errorf("did you mean %s? (no space between %s and its value)", joined, f.Name)
			i += n - 1
		default:
			if _, dup := q.Cond(f.Name); dup {
				err = fmt.Errorf("%s: is given twice; give it once (%s)", f.Name, f.example())
			} else {
				c, err = parseCond(f, sep, value)
			}
		}
		if err != nil {
			if first == nil {
				first = err
			}
			continue
		}
		q.Conds = append(q.Conds, c)
	}
	return q, first
}

// String is the query in its canonical form: its words, then its
// conditions.
func (q Query) String() string {
	parts := slices.Clone(q.Words)
	for _, c := range q.Conds {
		parts = append(parts, c.String())
	}
	return strings.Join(parts, " ")
}

// token is one word of the text, its quotes dropped.
type token struct {
	text     string
	sepQuote bool // its first separator (: < > =) was inside quotes: not a field ("a:b" quoted stays a word)
}

// isSep reports whether r may end a field's name: name:value, and the
// comparisons name>v, name>=v, name<v, name<=v, name=v.
func isSep(r rune) bool { return r == ':' || r == '<' || r == '>' || r == '=' }

// tokens splits text at spaces outside double quotes, dropping the quotes.
func tokens(text string) ([]token, error) {
	var out []token
	var b strings.Builder
	inQuote, started, sepSeen, sepQuoted := false, false, false, false
	flush := func() {
		if started {
			out = append(out, token{text: b.String(), sepQuote: sepQuoted})
		}
		b.Reset()
		started, sepSeen, sepQuoted = false, false, false
	}
	for _, r := range text {
		switch {
		case r == '"':
			inQuote = !inQuote
			started = true
		case unicode.IsSpace(r) && !inQuote:
			flush()
		default:
			if isSep(r) && !sepSeen {
				sepSeen, sepQuoted = true, inQuote
			}
			b.WriteRune(r)
			started = true
		}
	}
	if inQuote {
		return nil, errors.New(`a quote is not closed: add " at the end of the value`)
	}
	flush()
	return out, nil
}

// splitField splits "name:value", "name>value" and the like when name is
// a word of letters: sep is the separator (":" or a comparison, "=" "<"
// ">" "<=" ">="), value what follows it.
func splitField(t token) (name, sep, value string, ok bool) {
	if t.sepQuote {
		return "", "", "", false
	}
	i := strings.IndexFunc(t.text, isSep)
	if i <= 0 {
		return "", "", "", false
	}
	name = t.text[:i]
	for _, r := range name {
		if !unicode.IsLetter(r) {
			return "", "", "", false
		}
	}
	sep, value = t.text[i:i+1], t.text[i+1:]
	if (sep == "<" || sep == ">") && strings.HasPrefix(value, "=") {
		sep, value = sep+"=", value[1:]
	}
	return strings.ToLower(name), sep, value, true
}

func findField(fields []Field, name string) (Field, bool) {
	for _, f := range fields {
		if f.Name == name {
			return f, true
		}
	}
	return Field{}, false
}

func fieldNames(fields []Field) string {
	names := make([]string, len(fields))
	for i, f := range fields {
		names[i] = f.Name + ":"
	}
	if len(names) == 0 {
		return "none (type words only)"
	}
	return strings.Join(names, " ")
}

func (f Field) example() string {
	if f.Example != "" {
		return "e.g. " + f.Example
	}
	return "e.g. " + f.Name + ":…"
}

// startsWithSep reports whether s begins with a separator (":>1000", ">1000").
func startsWithSep(s string) bool {
	return s != "" && isSep(rune(s[0]))
}

// isCond reports whether t is a field condition of its own.
func isCond(t token) bool {
	_, _, _, ok := splitField(t)
	return ok
}

// spaced is a condition typed with spaces in it ("amount > 1000",
// "amount: >1000"), toks starting at its field, written as one
// ("amount:>1000"), and how many tokens it took.
func spaced(f Field, toks []token) (string, int) {
	head := toks[0].text
	if i := strings.IndexFunc(head, isSep); i >= 0 {
		head = head[i:]
	} else {
		head = ""
	}
	n := 1
	for n < len(toks) && isCompOnly(head) {
		head += toks[n].text
		n++
	}
	if f.Kind != Amount {
		head = strings.TrimPrefix(head, "=") // status=held is status:held
	}
	if !strings.HasPrefix(head, ":") {
		head = ":" + head
	}
	if isCompOnly(head) {
		head += "…"
	}
	return f.Name + head, n
}

// isCompOnly reports whether s is only separators, the value still to come.
func isCompOnly(s string) bool {
	return strings.TrimFunc(s, isSep) == ""
}

// parseCond reads a condition: sep is ":" or the comparison typed instead
// of it (amount>1000 is amount:>1000; status=held is status:held).
func parseCond(f Field, sep, value string) (Cond, error) {
	value = strings.TrimSpace(value)
	if sep != ":" {
		if f.Kind != Amount && sep != "=" {
			return Cond{}, fmt.Errorf("%s%s%s: %s compares with : or = only, %s", f.Name, sep, value, f.Name, f.example())
		}
		if f.Kind == Amount && sep != "=" {
			value = sep + value
		}
	}
	if value == "" {
		return Cond{}, fmt.Errorf("%s: needs a value, %s", f.Name, f.example())
	}
	c := Cond{Field: f.Name, Kind: f.Kind, Value: value}
	switch f.Kind {
	case Contains, Exact:
		c.Text = strings.ToLower(value)
	case Digits:
		c.Text = digits(value)
		if c.Text == "" {
			return Cond{}, fmt.Errorf("%s:%s has no digits to look for, %s", f.Name, value, f.example())
		}
	case Card:
		c.Text = strings.ToLower(value)
		if d := digits(value); d != "" && d != value {
			return Cond{}, fmt.Errorf("card:%s: give the last digits (card:4242) or a brand (card:visa)", value)
		}
	case Enum:
		seen := map[string]bool{}
		for _, v := range strings.Split(strings.ToLower(value), ",") {
			if v == "" {
				return Cond{}, fmt.Errorf("%s:%s has an empty value between commas, %s", f.Name, value, f.example())
			}
			canon, err := f.enumValue(v)
			if err != nil {
				return Cond{}, err
			}
			if !seen[canon] {
				seen[canon] = true
				c.Values = append(c.Values, canon)
			}
		}
	case Amount:
		if err := parseAmount(&c, value); err != nil {
			return Cond{}, fmt.Errorf("%s:%s: %v, %s", f.Name, value, err, f.example())
		}
	}
	return c, nil
}

// enumValue is the value v names: itself, an alias, or the one value it is
// a prefix of.
func (f Field) enumValue(v string) (string, error) {
	for _, x := range f.Values {
		if x == v {
			return x, nil
		}
	}
	if x, ok := f.Aliases[v]; ok {
		return x, nil
	}
	var found []string
	for _, x := range f.Values {
		if strings.HasPrefix(x, v) {
			found = append(found, x)
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		return "", fmt.Errorf("%s:%s: %q is not a %s here; it is one of %s", f.Name, v, v, f.Name, strings.Join(f.Values, ", "))
	}
	return "", fmt.Errorf("%s:%s could be %s; type more of it", f.Name, v, orList(found))
}

func orList(xs []string) string {
	if len(xs) < 2 {
		return strings.Join(xs, "")
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " or " + xs[len(xs)-1]
}

// parseAmount reads >100, <=5.50, =7, 7 and 100..500. A comma is taken as
// the decimal point (1250,50), as many support people type it.
func parseAmount(c *Cond, v string) error {
	if lo, hi, ok := strings.Cut(v, ".."); ok {
		l, err := number(lo)
		if err != nil {
			return err
		}
		h, err := number(hi)
		if err != nil {
			return err
		}
		if l > h {
			return fmt.Errorf("the range starts above its end (%s > %s)", l, h)
		}
		c.Op, c.Lo, c.Hi = "..", l, h
		return nil
	}
	for _, op := range []string{">=", "<=", ">", "<", "="} {
		if rest, ok := strings.CutPrefix(v, op); ok {
			n, err := number(rest)
			if err != nil {
				return err
			}
			c.Op, c.Lo = op, n
			return nil
		}
	}
	n, err := number(v)
	if err != nil {
		return err
	}
	c.Op, c.Lo = "=", n
	return nil
}

func number(s string) (money.Decimal, error) {
	s = strings.TrimSpace(strings.ReplaceAll(s, ",", "."))
	if s == "" {
		return 0, errors.New("a number is missing")
	}
	d, err := money.Parse(s)
	if err != nil {
		if errors.Is(err, money.ErrPrecision) {
			return 0, fmt.Errorf("%q has more than 4 decimals", s)
		}
		return 0, fmt.Errorf("%q is not a number", s)
	}
	if d < 0 {
		return 0, fmt.Errorf("%q is below zero", s)
	}
	return d, nil
}

// digits keeps only the ASCII digits of s ("+7 (912) 555" → "7912555").
func digits(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] >= '0' && s[i] <= '9' {
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// DigitsOf keeps only the ASCII digits of s: a Digits field compares the
// row's DigitsOf with the condition's Text.
func DigitsOf(s string) string { return digits(s) }
