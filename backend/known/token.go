package known

import (
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"paydash/backend"
)

// Source is how paydash came to know a token.
type Source string

const (
	// SeenInPayment: a payment paydash read used or made the token.
	SeenInPayment Source = "seenInPayment"
	// LookedUp: paydash read the token by its id.
	LookedUp Source = "lookedUp"
	// Created: paydash created the token (a tokenization link).
	Created Source = "created"
)

// rank orders sources for the merge: the higher one wins. Unknown sources
// (from a hand-edited file) rank lowest.
func (s Source) rank() int {
	switch s {
	case Created:
		return 3
	case LookedUp:
		return 2
	case SeenInPayment:
		return 1
	}
	return 0
}

// Valid reports whether s is one of SeenInPayment, LookedUp and Created.
func (s Source) Valid() bool { return s.rank() > 0 }

// Token is what the store knows of one saved card token. Its JSON form is
// the one written to the file (see the package doc).
type Token struct {
	ID        string              `json:"id"`
	Title     string              `json:"title,omitempty"`  // e.g. a masked card "4111 11•• •••• 1111"
	Status    backend.TokenStatus `json:"status,omitempty"` // the last status paydash saw
	Expires   time.Time           `json:"expires,omitzero"`
	FirstSeen time.Time           `json:"firstSeen"` // set by the store
	LastSeen  time.Time           `json:"lastSeen"`  // set by the store
	Source    Source              `json:"source"`
	Payments  []string            `json:"payments,omitempty"` // payments known to use it, newest first
}

// FromPayment is the note for the token a payment used or made: its
// summary, Source SeenInPayment and the payment's id. ok is false when the
// payment carries no token.
func FromPayment(p backend.Payment) (t Token, ok bool) {
	if p.Token == nil || p.Token.ID == "" {
		return Token{}, false
	}
	t = Token{ID: p.Token.ID, Title: p.Token.Title, Expires: p.Token.Expires, Source: SeenInPayment}
	if p.ID != "" {
		t.Payments = []string{p.ID}
	}
	return t, true
}

// FromToken is the note for a token read from the service (LookedUp) or
// just created through it (Created).
func FromToken(t backend.Token, src Source) Token {
	return Token{ID: t.ID, Title: t.Title, Status: t.Status, Expires: t.Expires, Source: src}
}

// validText reports whether s is valid UTF-8 without control characters.
func validText(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	return !strings.ContainsFunc(s, unicode.IsControl)
}

// ValidID reports whether Note accepts id as a token id (or keeps it as a
// payment id): 1 to MaxIDLen bytes of valid UTF-8, no control characters.
func ValidID(id string) bool {
	return id != "" && len(id) <= MaxIDLen && validText(id)
}

func validKey(service, merchant string) bool {
	return service != "" && len(service) <= maxServiceLen && validText(service) &&
		len(merchant) <= MaxIDLen && validText(merchant)
}

// cut shortens s to at most n bytes at a character boundary, replacing
// invalid UTF-8 (as the file would).
func cut(s string, n int) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// cleanPayments returns the valid ids of ps, without duplicates (the first
// kept), at most MaxPayments, in a new slice.
func cleanPayments(ps ...[]string) []string {
	var out []string
	for _, list := range ps {
		for _, p := range list {
			if len(out) == MaxPayments {
				return out
			}
			if ValidID(p) && !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	return out
}

// utc drops t's location and monotonic reading, as the file would.
func utc(t time.Time) time.Time {
	if t.IsZero() {
		return time.Time{}
	}
	return t.UTC()
}

// normalize bounds t's fields, in a copy that shares nothing with t.
func normalize(t Token) Token {
	t.Title = cut(t.Title, MaxTitleLen)
	t.Status = backend.TokenStatus(cut(string(t.Status), MaxStatusLen))
	t.Expires = utc(t.Expires)
	t.FirstSeen = utc(t.FirstSeen)
	t.LastSeen = utc(t.LastSeen)
	t.Payments = cleanPayments(t.Payments)
	return t
}

// combine merges two entries of one token by the package's merge rule;
// newer is the note being made, or the one seen last.
func combine(older, newer Token) Token {
	m := newer
	m.FirstSeen = older.FirstSeen
	if m.FirstSeen.IsZero() || (!newer.FirstSeen.IsZero() && newer.FirstSeen.Before(m.FirstSeen)) {
		m.FirstSeen = newer.FirstSeen
	}
	if older.LastSeen.After(m.LastSeen) {
		m.LastSeen = older.LastSeen
	}
	if m.Title == "" {
		m.Title = older.Title
	}
	if m.Status == "" {
		m.Status = older.Status
	}
	if m.Expires.IsZero() {
		m.Expires = older.Expires
	}
	if older.Source.rank() > m.Source.rank() {
		m.Source = older.Source
	}
	m.Payments = cleanPayments(newer.Payments, older.Payments)
	return m
}

func sameToken(a, b Token) bool {
	return a.ID == b.ID && a.Title == b.Title && a.Status == b.Status && a.Source == b.Source &&
		a.Expires.Equal(b.Expires) && a.FirstSeen.Equal(b.FirstSeen) && a.LastSeen.Equal(b.LastSeen) &&
		slices.Equal(a.Payments, b.Payments)
}

func cloneToken(t Token) Token {
	t.Payments = slices.Clone(t.Payments)
	return t
}

// newerFirst orders tokens by LastSeen, newest first, then by id.
func newerFirst(a, b Token) int {
	if c := b.LastSeen.Compare(a.LastSeen); c != 0 {
		return c
	}
	return strings.Compare(a.ID, b.ID)
}
