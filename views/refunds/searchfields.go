package refunds

import (
	"paydash/backend"
	"paydash/backend/money"
	"paydash/views/search"
	"paydash/views/tab"
)

// refundSearch: status, amount, id, payment.
func refundSearch() *tab.SearchSpec[backend.Refund] {
	return &tab.SearchSpec[backend.Refund]{
		Fields: []search.Field{
			{Name: "status", Kind: search.Enum, Example: "status:pending",
				Values:  tab.StatusValues(backend.RefundPending, backend.RefundSuccess, backend.RefundRejected),
				Aliases: map[string]string{"declined": "rejected", "done": "success", "failed": "rejected"}},
			tab.AmountField,
			tab.IDField,
			{Name: "payment", Kind: search.Exact, Example: "payment:7000123"},
		},
		Get: map[string]func(*backend.Refund) string{
			"status":  func(r *backend.Refund) string { return string(r.Status) },
			"id":      func(r *backend.Refund) string { return r.ID },
			"payment": func(r *backend.Refund) string { return r.PaymentID },
		},
		Amount: map[string]func(*backend.Refund) money.Decimal{
			"amount": func(r *backend.Refund) money.Decimal { return r.Amount.Value },
		},
	}
}
