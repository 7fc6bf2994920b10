package payments

import (
	"strings"

	"paydash/backend"
	"paydash/backend/money"
	"paydash/ui/datatable"
	"paydash/views/search"
	"paydash/views/tab"
)

// paymentStatuses are every payment status, in the order they come.
var paymentStatuses = []backend.PaymentStatus{backend.PaymentPending, backend.PaymentConfirmation,
	backend.PaymentAuthorized, backend.PaymentSettled, backend.PaymentCancelled, backend.PaymentRejected}

// paymentSearch: status, amount, card, email, phone, order, code, id, desc.
func paymentSearch() *tab.SearchSpec[backend.Payment] {
	return &tab.SearchSpec[backend.Payment]{
		Fields: []search.Field{
			{Name: "status", Kind: search.Enum, Example: "status:authorized,pending",
				Values: tab.StatusValues(paymentStatuses...),
				Aliases: map[string]string{"held": "authorized", "hold": "authorized", "declined": "rejected",
					"captured": "settled", "paid": "settled"}},
			tab.AmountField,
			{Name: "card", Kind: search.Card, Example: "card:4242 or card:visa"},
			{Name: "email", Kind: search.Contains, Example: "email:petrov"},
			{Name: "phone", Kind: search.Digits, Example: "phone:9125550101"},
			{Name: "order", Kind: search.Exact, Example: "order:ORD-33931 (the whole number)"},
			{Name: "code", Kind: search.Exact, Example: "code:IssuerUnavailable (the result code)"},
			tab.IDField,
			tab.DescField,
		},
		Get: map[string]func(*backend.Payment) string{
			"status": func(p *backend.Payment) string { return string(p.Status) },
			"email":  func(p *backend.Payment) string { return v1View(p).UserIdentifier },
			"phone":  func(p *backend.Payment) string { return v1View(p).UserPhoneNumber },
			"order":  func(p *backend.Payment) string { return p.OrderNo },
			"code":   func(p *backend.Payment) string { return p.ResultCode },
			"id":     func(p *backend.Payment) string { return p.ID },
			"desc":   func(p *backend.Payment) string { return p.Description },
		},
		Amount: map[string]func(*backend.Payment) money.Decimal{
			"amount": func(p *backend.Payment) money.Decimal { return p.Amount.Value },
		},
		Card: func(p *backend.Payment) (string, string) {
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
		email, phone := tab.Customer(p)
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
