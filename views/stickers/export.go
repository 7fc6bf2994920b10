package stickers

import (
	tea "charm.land/bubbletea/v2"

	"paydash/backend"
	"paydash/views/tab"
)

func stickerFields() []tab.ExportField[backend.Sticker] {
	type S = backend.Sticker
	return []tab.ExportField[S]{
		{Name: "id", Value: func(s S) string { return s.ID }, Text: true},
		{Name: "status", Value: func(s S) string { return s.Status }, Text: true},
		{Name: "description", Value: func(s S) string { return s.Description }, Text: true},
		{Name: "amount", Value: func(s S) string {
			if s.Amount.Value.IsZero() {
				return "" // the payer chooses
			}
			return tab.ExactAmount(s.Amount)
		}},
		{Name: "currency", Value: func(s S) string { return s.Amount.Currency }, Text: true},
		{Name: "any_amount", Value: func(s S) string { return tab.BoolText(s.Amount.Value.IsZero()) }},
		{Name: "type", Value: func(s S) string { return s.StickerType }, Text: true},
		{Name: "cash_link", Value: func(s S) string { return tab.BoolText(s.Cashlink) }},
		{Name: "product_code", Value: func(s S) string { return s.ProductCode }, Text: true},
		{Name: "purpose", Value: func(s S) string { return s.PaymentPurpose }, Text: true},
		{Name: "merchant_id", Value: func(s S) string { return s.MerchantID }, Text: true},
		{Name: "payload", Value: func(s S) string { return s.Payload }, Text: true},
		{Name: "read_through", Value: func(s S) string { return string(s.Source) }},
	}
}

// export is ctrl+s on the Stickers tab.
func (ss *Stickers) export() tea.Cmd {
	return tab.ExportRows(ss.List, tab.ExportSpec[backend.Sticker]{Noun: "stickers",
		Stem: tab.ExportStem("stickers", ss.Scope.MerchantID), Fields: stickerFields(), Now: ss.Deps.TimeNow()})
}
