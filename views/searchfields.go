package views

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"paydash/backend"
	"paydash/backend/money"
	"paydash/ui/datatable"
	"paydash/views/search"
)

// searchSpec is what a list can be searched by at its "/" prompt: its
// fields (search.Field) and how each reads a row. Free words are looked for
// in the row's haystack (the table's Config.FilterText, else its cells).
type searchSpec[T any] struct {
	fields []search.Field
	// get reads the field of a row: its text for Contains, Exact, Digits
	// and Enum fields (compared ignoring case), brand and title for Card.
	get    map[string]func(*T) string
	amount map[string]func(*T) money.Decimal
	card   func(*T) (brand, title string)
	// unavailable are fields the connection cannot fill, with the reason
	// (a customer's e-mail without the legacy interface).
	unavailable map[string]string
}

// compile parses text into the table's query; the error says at the
// prompt what is wrong, and the query is then made of the parts that make
// sense.
func (s *searchSpec[T]) compile(text string) (datatable.Query[T], search.Query, error) {
	var fields []search.Field
	if s != nil {
		fields = s.fields
	}
	q, err := search.Parse(text, fields)
	// What cannot be searched here is an error too, and left out.
	kept := q.Conds[:0:0]
	for _, c := range q.Conds {
		if why, ok := s.unavailable[c.Field]; ok {
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
func (s *searchSpec[T]) test(c search.Cond) func(*T) bool {
	switch c.Kind {
	case search.Amount:
		get := s.amount[c.Field]
		return func(r *T) bool { return c.MatchAmount(get(r)) }
	case search.Card:
		return cardMatches(c.Text, s.card)
	}
	get := s.get[c.Field]
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

// statusValues are a tab's statuses as search values, lower-case.
func statusValues[S ~string](ss ...S) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = strings.ToLower(string(s))
	}
	return out
}

// --- the tabs' fields ------------------------------------------------------------

var (
	amountField = search.Field{Name: "amount", Kind: search.Amount, Example: "amount:>100, amount:<=50 or amount:100..500"}
	idField     = search.Field{Name: "id", Kind: search.Exact, Example: "id:7000123"}
	descField   = search.Field{Name: "desc", Kind: search.Contains, Example: "desc:coffee"}
)

// paymentStatuses are every payment status, in the order they come.
var paymentStatuses = []backend.PaymentStatus{backend.PaymentPending, backend.PaymentConfirmation,
	backend.PaymentAuthorized, backend.PaymentSettled, backend.PaymentCancelled, backend.PaymentRejected}

// paymentSearch: status, amount, card, email, phone, order, id, desc.
func paymentSearch() *searchSpec[backend.Payment] {
	return &searchSpec[backend.Payment]{
		fields: []search.Field{
			{Name: "status", Kind: search.Enum, Example: "status:authorized,pending",
				Values: statusValues(paymentStatuses...),
				Aliases: map[string]string{"held": "authorized", "hold": "authorized", "declined": "rejected",
					"captured": "settled", "paid": "settled"}},
			amountField,
			{Name: "card", Kind: search.Card, Example: "card:4242 or card:visa"},
			{Name: "email", Kind: search.Contains, Example: "email:petrov"},
			{Name: "phone", Kind: search.Digits, Example: "phone:9125550101"},
			{Name: "order", Kind: search.Exact, Example: "order:ORD-33931 (the whole number)"},
			idField,
			descField,
		},
		get: map[string]func(*backend.Payment) string{
			"status": func(p *backend.Payment) string { return string(p.Status) },
			"email":  func(p *backend.Payment) string { return v1View(p).UserIdentifier },
			"phone":  func(p *backend.Payment) string { return v1View(p).UserPhoneNumber },
			"order":  func(p *backend.Payment) string { return p.OrderNo },
			"id":     func(p *backend.Payment) string { return p.ID },
			"desc":   func(p *backend.Payment) string { return p.Description },
		},
		amount: map[string]func(*backend.Payment) money.Decimal{
			"amount": func(p *backend.Payment) money.Decimal { return p.Amount.Value },
		},
		card: func(p *backend.Payment) (string, string) {
			if p.Card != nil {
				return p.Card.Brand, p.InstrumentTitle
			}
			return "", p.InstrumentTitle
		},
	}
}

// v1View is the payment's legacy view, empty when it has none.
func v1View(p *backend.Payment) *backend.PaymentV1View {
	if p.V1 == nil {
		return &noV1View
	}
	return p.V1
}

// noV1View stands for a missing legacy view; it is only ever read.
var noV1View backend.PaymentV1View

// paymentHaystack is every field of a payment row that free words look in:
// the cells, the customer's e-mail and phone, the card brand and the
// merchant.
func paymentHaystack(cols []datatable.Column[backend.Payment]) func(backend.Payment) string {
	return func(p backend.Payment) string {
		var b strings.Builder
		for _, c := range cols {
			b.WriteString(c.Text(p))
			b.WriteByte('\n')
		}
		email, phone := customer(p)
		b.WriteString(email)
		b.WriteByte('\n')
		b.WriteString(phone)
		if p.Card != nil {
			b.WriteByte('\n')
			b.WriteString(p.Card.Brand)
		}
		b.WriteByte('\n')
		b.WriteString(p.MerchantID)
		return b.String()
	}
}

// refundSearch: status, amount, id, payment.
func refundSearch() *searchSpec[backend.Refund] {
	return &searchSpec[backend.Refund]{
		fields: []search.Field{
			{Name: "status", Kind: search.Enum, Example: "status:pending",
				Values:  statusValues(backend.RefundPending, backend.RefundSuccess, backend.RefundRejected),
				Aliases: map[string]string{"declined": "rejected", "done": "success", "failed": "rejected"}},
			amountField,
			idField,
			{Name: "payment", Kind: search.Exact, Example: "payment:7000123"},
		},
		get: map[string]func(*backend.Refund) string{
			"status":  func(r *backend.Refund) string { return string(r.Status) },
			"id":      func(r *backend.Refund) string { return r.ID },
			"payment": func(r *backend.Refund) string { return r.PaymentID },
		},
		amount: map[string]func(*backend.Refund) money.Decimal{
			"amount": func(r *backend.Refund) money.Decimal { return r.Amount.Value },
		},
	}
}

// tokenSearch: status, card, id.
func tokenSearch() *searchSpec[tokenView] {
	return &searchSpec[tokenView]{
		fields: []search.Field{
			{Name: "status", Kind: search.Enum, Example: "status:active",
				Values: statusValues(backend.TokenCreated, backend.TokenActive, backend.TokenRevoked, backend.TokenDeclined)},
			{Name: "card", Kind: search.Card, Example: "card:4242 or card:visa"},
			idField,
		},
		get: map[string]func(*tokenView) string{
			"status": func(v *tokenView) string { return string(v.newestStatus()) },
			"id":     func(v *tokenView) string { return v.ID },
		},
		card: func(v *tokenView) (string, string) {
			if v.read != nil && v.read.Card != nil {
				return v.read.Card.Brand, v.Title
			}
			return "", v.Title
		},
	}
}

// stickerSearch: status, amount, id, desc.
func stickerSearch() *searchSpec[backend.Sticker] {
	return &searchSpec[backend.Sticker]{
		fields: []search.Field{
			{Name: "status", Kind: search.Enum, Example: "status:inactive", Values: []string{"active", "inactive"},
				Aliases: map[string]string{"on": "active", "off": "inactive"}},
			amountField,
			idField,
			descField,
		},
		get: map[string]func(*backend.Sticker) string{
			"status": func(s *backend.Sticker) string { return s.Status },
			"id":     func(s *backend.Sticker) string { return s.ID },
			"desc":   func(s *backend.Sticker) string { return s.Description },
		},
		amount: map[string]func(*backend.Sticker) money.Decimal{
			"amount": func(s *backend.Sticker) money.Decimal { return s.Amount.Value },
		},
	}
}

// transferSearch: amount, register (its id), order (the payment order).
func transferSearch() *searchSpec[backend.Transfer] {
	return &searchSpec[backend.Transfer]{
		fields: []search.Field{
			amountField,
			{Name: "register", Kind: search.Exact, Example: "register:R-1001-20261122"},
			{Name: "order", Kind: search.Exact, Example: "order:PO-5561 (the payment order)"},
		},
		get: map[string]func(*backend.Transfer) string{
			"register": func(t *backend.Transfer) string { return t.RegisterID },
			"order":    func(t *backend.Transfer) string { return t.PaymentOrderID },
		},
		amount: map[string]func(*backend.Transfer) money.Decimal{
			"amount": func(t *backend.Transfer) money.Decimal { return t.Amount.Value },
		},
	}
}
