package tokens

import (
	"paydash/backend"
	"paydash/views/search"
	"paydash/views/tab"
)

// tokenSearch: status, card, id.
func tokenSearch() *tab.SearchSpec[tab.TokenView] {
	return &tab.SearchSpec[tab.TokenView]{
		Fields: []search.Field{
			{Name: "status", Kind: search.Enum, Example: "status:active",
				Values: tab.StatusValues(backend.TokenCreated, backend.TokenActive, backend.TokenRevoked, backend.TokenDeclined)},
			{Name: "card", Kind: search.Card, Example: "card:4242 or card:visa"},
			tab.IDField,
		},
		Get: map[string]func(*tab.TokenView) string{
			"status": func(v *tab.TokenView) string { return string(v.NewestStatus()) },
			"id":     func(v *tab.TokenView) string { return v.ID },
		},
		Card: func(v *tab.TokenView) (string, string) {
			if v.Read != nil && v.Read.Card != nil {
				return v.Read.Card.Brand, v.Title
			}
			return "", v.Title
		},
	}
}
