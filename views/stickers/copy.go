package stickers

import (
	tea "charm.land/bubbletea/v2"

	"paydash/backend"
	"paydash/ui"
	"paydash/views/tab"
)

func stickerCopyFields(s backend.Sticker) []ui.CopyField {
	amount := ""
	if !s.Amount.Value.IsZero() {
		amount = tab.FmtAmount(s.Amount)
	}
	return []ui.CopyField{
		{Key: "l", Label: "payment link", Value: s.Payload},
		{Key: "d", Label: "description", Value: s.Description},
		{Key: "a", Label: "amount", Value: amount},
		{Key: "u", Label: "payment purpose", Value: s.PaymentPurpose},
		{Key: "s", Label: "summary", Value: tab.Summary("Sticker "+s.ID, s.Status, stickerAmount(s), s.Description,
			s.Payload)},
	}
}

func (ss *Stickers) copyMore() tea.Cmd {
	s, ok := ss.Target()
	if !ok {
		return nil
	}
	return tab.CopyMore(ss.Deps.Keys, ss.Theme, &ss.Dialogs, "sticker "+s.ID, stickerCopyFields(s))
}
