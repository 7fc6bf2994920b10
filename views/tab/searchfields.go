package tab

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"paydash/backend/money"
	"paydash/ui/datatable"
	"paydash/views/search"
)

// SearchSpec is what a list can be searched by at its "/" prompt: its
// fields (search.Field) and how each reads a row. Free words are looked for
// in the row's haystack (the table's Config.FilterText, else its cells).
type SearchSpec[T any] struct {
	Fields []search.Field
	// Get reads the field of a row: its text for Contains, Exact, Digits
	// and Enum fields (compared ignoring case), brand and title for Card.
	Get    map[string]func(*T) string
	Amount map[string]func(*T) money.Decimal
	Card   func(*T) (brand, title string)
	// Unavailable are fields the connection cannot fill, with the reason
	// (a customer's e-mail without the legacy interface).
	Unavailable map[string]string
}

// compile parses text into the table's query; the error says at the
// prompt what is wrong, and the query is then made of the parts that make
// sense.
func (s *SearchSpec[T]) compile(text string) (datatable.Query[T], search.Query, error) {
	var fields []search.Field
	if s != nil {
		fields = s.Fields
	}
	q, err := search.Parse(text, fields)
	// What cannot be searched here is an error too, and left out.
	kept := q.Conds[:0:0]
	for _, c := range q.Conds {
		if why, ok := s.Unavailable[c.Field]; ok {
			if err == nil {
				err = fmt.Errorf("%s: cannot be searched: %s", c.Field, why)
			}
			continue
		}
		kept = append(kept, c)
	}
	q.Conds = kept
	dq := datatable.Query[T]{Text: text, Words: q.Words}
	if err != nil {
		// The parts that make sense apply meanwhile; the text shown is theirs.
		dq.Text = q.String()
	}
	if len(q.Conds) == 0 {
		return dq, q, err
	}
	tests := make([]func(*T) bool, 0, len(q.Conds))
	for _, c := range q.Conds {
		dq.Conds = append(dq.Conds, c.String())
		tests = append(tests, s.test(c))
	}
	dq.Keep = func(r *T) bool {
		for _, t := range tests {
			if !t(r) {
				return false
			}
		}
		return true
	}
	return dq, q, err
}

// test is one condition as a function of a row. It only reads the row: the
// table may call it from several goroutines at once.
func (s *SearchSpec[T]) test(c search.Cond) func(*T) bool {
	switch c.Kind {
	case search.Amount:
		get := s.Amount[c.Field]
		return func(r *T) bool { return c.MatchAmount(get(r)) }
	case search.Card:
		return cardMatches(c.Text, s.Card)
	}
	get := s.Get[c.Field]
	switch c.Kind {
	case search.Enum:
		return func(r *T) bool {
			v := get(r)
			for _, x := range c.Values {
				if strings.EqualFold(v, x) {
					return true
				}
			}
			return false
		}
	case search.Exact:
		return func(r *T) bool { return strings.EqualFold(strings.TrimSpace(get(r)), c.Text) }
	case search.Digits:
		return func(r *T) bool { return strings.Contains(search.DigitsOf(get(r)), c.Text) }
	}
	return func(r *T) bool { return containsFold(get(r), c.Text) }
}

// cardMatches is card:4242 (the masked number ends in those digits) or
// card:visa (the brand, or the instrument's title, names it).
func cardMatches[T any](want string, card func(*T) (brand, title string)) func(*T) bool {
	if search.DigitsOf(want) == want {
		return func(r *T) bool {
			_, title := card(r)
			return strings.HasSuffix(search.DigitsOf(title), want)
		}
	}
	return func(r *T) bool {
		brand, title := card(r)
		return strings.EqualFold(brand, want) || containsFold(title, want)
	}
}

// containsFold reports whether s contains lower (lower-case), ignoring
// case, without allocating for ASCII text: it runs on every loaded row.
func containsFold(s, lower string) bool {
	if lower == "" {
		return true
	}
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return strings.Contains(strings.ToLower(s), lower)
		}
	}
	n := len(lower)
	for i := 0; i+n <= len(s); i++ {
		if asciiLowerEq(s[i:i+n], lower) {
			return true
		}
	}
	return false
}

func asciiLowerEq(s, lower string) bool {
	for i := 0; i < len(s); i++ {
		b := s[i]
		if 'A' <= b && b <= 'Z' {
			b += 'a' - 'A'
		}
		if b != lower[i] {
			return false
		}
	}
	return true
}

// StatusValues are a tab's statuses as search values, lower-case.
func StatusValues[S ~string](ss ...S) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = strings.ToLower(string(s))
	}
	return out
}

// --- the tabs' fields ------------------------------------------------------------

var (
	AmountField = search.Field{Name: "amount", Kind: search.Amount, Example: "amount:>100, amount:<=50 or amount:100..500"}
	IDField     = search.Field{Name: "id", Kind: search.Exact, Example: "id:7000123"}
	DescField   = search.Field{Name: "desc", Kind: search.Contains, Example: "desc:coffee"}
)
