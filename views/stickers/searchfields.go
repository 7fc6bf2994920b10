package stickers

import (
	"paydash/backend"
	"paydash/backend/money"
	"paydash/views/search"
	"paydash/views/tab"
)

// stickerSearch: status, amount, id, desc.
func stickerSearch() *tab.SearchSpec[backend.Sticker] {
	return &tab.SearchSpec[backend.Sticker]{
		Fields: []search.Field{
			{Name: "status", Kind: search.Enum, Example: "status:inactive", Values: []string{"active", "inactive"},
				Aliases: map[string]string{"on": "active", "off": "inactive"}},
			tab.AmountField,
			tab.IDField,
			tab.DescField,
		},
		Get: map[string]func(*backend.Sticker) string{
			"status": func(s *backend.Sticker) string { return s.Status },
			"id":     func(s *backend.Sticker) string { return s.ID },
			"desc":   func(s *backend.Sticker) string { return s.Description },
		},
		Amount: map[string]func(*backend.Sticker) money.Decimal{
			"amount": func(s *backend.Sticker) money.Decimal { return s.Amount.Value },
		},
	}
}
