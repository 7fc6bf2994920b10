package tokens

import (
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

	"paydash/backend"
	"paydash/views/tab"
)

func tokenFields() []tab.ExportField[tab.TokenView] {
	type V = tab.TokenView
	card := func(get func(*backend.CardInfo) string) func(V) string {
		return func(v V) string {
			if v.Read == nil || v.Read.Card == nil {
				return ""
			}
			return get(v.Read.Card)
		}
	}
	return []tab.ExportField[V]{
		{Name: "id", Value: func(v V) string { return v.ID }, Text: true},
		{Name: "status", Value: func(v V) string { return string(v.NewestStatus()) }, Text: true},
		{Name: "card", Value: func(v V) string { return v.Title }, Text: true},
		{Name: "expires_utc", Value: func(v V) string { return tab.UTCTime(v.Expires) }},
		{Name: "result_code", Value: func(v V) string {
			if v.Read == nil {
				return ""
			}
			return v.Read.ResultCode
		}, Text: true},
		{Name: "card_brand", Value: card(func(c *backend.CardInfo) string { return c.Brand }), Text: true},
		{Name: "card_issuer", Value: card(func(c *backend.CardInfo) string { return c.Issuer }), Text: true},
		{Name: "card_country", Value: card(func(c *backend.CardInfo) string { return c.Country }), Text: true},
		{Name: "card_type", Value: card(func(c *backend.CardInfo) string { return c.Type }), Text: true},
		{Name: "card_category", Value: card(func(c *backend.CardInfo) string { return c.Category }), Text: true},
		{Name: "known_from", Value: func(v V) string { return string(v.Source) }, Text: true},
		{Name: "first_seen_utc", Value: func(v V) string { return tab.UTCTime(v.FirstSeen) }},
		{Name: "last_seen_utc", Value: func(v V) string { return tab.UTCTime(v.LastSeen) }},
		{Name: "payments", Value: func(v V) string { return strconv.Itoa(len(v.Payments)) }},
		{Name: "payment_ids", Value: func(v V) string { return strings.Join(v.Payments, " ") }, Text: true},
	}
}

// export is ctrl+s on the Tokens tab.
func (ts *Tokens) export() tea.Cmd {
	return tab.ExportRows(ts.List, tab.ExportSpec[tab.TokenView]{Noun: "tokens",
		Stem: tab.ExportStem("tokens", ts.Scope.MerchantID), Fields: tokenFields(), Now: ts.Deps.TimeNow()})
}
