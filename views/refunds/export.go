package refunds

import (
	tea "charm.land/bubbletea/v2"

	"paydash/backend"
	"paydash/views/tab"
)

func refundFields() []tab.ExportField[backend.Refund] {
	type R = backend.Refund
	return []tab.ExportField[R]{
		{Name: "id", Value: func(r R) string { return r.ID }, Text: true},
		{Name: "status", Value: func(r R) string { return string(r.Status) }, Text: true},
		{Name: "amount", Value: func(r R) string { return tab.ExactAmount(r.Amount) }},
		{Name: "currency", Value: func(r R) string { return r.Amount.Currency }, Text: true},
		{Name: "payment_id", Value: func(r R) string { return r.PaymentID }, Text: true},
		{Name: "merchant_id", Value: func(r R) string { return r.MerchantID }, Text: true},
		{Name: "created_utc", Value: func(r R) string { return tab.UTCTime(r.Created) }},
		{Name: "updated_utc", Value: func(r R) string { return tab.UTCTime(r.Updated) }},
		{Name: "result_code", Value: func(r R) string { return r.ResultCode }, Text: true},
		{Name: "external_id", Value: func(r R) string { return r.ExternalID }, Text: true},
		{Name: "read_through", Value: func(r R) string { return string(r.Source) }},
	}
}

// export is ctrl+s on the Refunds tab.
func (rs *Refunds) export() tea.Cmd {
	return tab.ExportRows(rs.List, tab.ExportSpec[backend.Refund]{Noun: "refunds",
		Stem: tab.ExportStem("refunds", rs.Scope.MerchantID), Fields: refundFields(), Now: rs.Deps.TimeNow()})
}
