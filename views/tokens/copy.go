package tokens

import (
	tea "charm.land/bubbletea/v2"

	"paydash/ui"
	"paydash/views/tab"
)

func tokenCopyFields(v tab.TokenView) []ui.CopyField {
	card, expires := v.Title, v.Expires
	if v.Read != nil {
		if v.Read.Title != "" {
			card = v.Read.Title
		}
		if !v.Read.Expires.IsZero() {
			expires = v.Read.Expires
		}
	}
	latest := ""
	if len(v.Payments) > 0 {
		latest = v.Payments[0]
	}
	return []ui.CopyField{
		{Key: "c", Label: "card", Value: card},
		{Key: "e", Label: "expiry", Value: tab.FmtExpiry(expires)},
		{Key: "p", Label: "latest payment", Value: latest},
		{Key: "s", Label: "summary", Value: tab.Summary("Token "+v.ID, card, string(v.NewestStatus()),
			tab.IfSet("expires ", tab.FmtExpiry(expires)), tab.IfSet("latest payment ", latest))},
	}
}

func (ts *Tokens) copyMore() tea.Cmd {
	v, ok := ts.Target()
	if !ok {
		return nil
	}
	return tab.CopyMore(ts.Deps.Keys, ts.Theme, &ts.Dialogs, "token "+v.ID, tokenCopyFields(v))
}
