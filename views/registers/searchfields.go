package registers

import (
	"paydash/backend"
	"paydash/backend/money"
	"paydash/views/search"
	"paydash/views/tab"
)

// transferSearch: amount, register (its id), order (the payment order).
func transferSearch() *tab.SearchSpec[backend.Transfer] {
	return &tab.SearchSpec[backend.Transfer]{
		Fields: []search.Field{
			tab.AmountField,
			{Name: "register", Kind: search.Exact, Example: "register:R-1001-20261122"},
			{Name: "order", Kind: search.Exact, Example: "order:PO-5561 (the payment order)"},
		},
		Get: map[string]func(*backend.Transfer) string{
			"register": func(t *backend.Transfer) string { return t.RegisterID },
			"order":    func(t *backend.Transfer) string { return t.PaymentOrderID },
		},
		Amount: map[string]func(*backend.Transfer) money.Decimal{
			"amount": func(t *backend.Transfer) money.Decimal { return t.Amount.Value },
		},
	}
}
