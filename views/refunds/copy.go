package refunds

import (
	tea "charm.land/bubbletea/v2"

	"paydash/backend"
	"paydash/ui"
	"paydash/views/tab"
)

func refundCopyFields(r backend.Refund) []ui.CopyField {
	return []ui.CopyField{
		{Key: "p", Label: "payment id", Value: r.PaymentID},
		{Key: "a", Label: "amount", Value: tab.FmtAmount(r.Amount)},
		{Key: "x", Label: "external id", Value: r.ExternalID},
		{Key: "s", Label: "summary", Value: tab.Summary("Refund "+r.ID, tab.FmtAmount(r.Amount), string(r.Status),
			tab.IfSet("payment ", r.PaymentID), tab.SummaryTime(tab.RefundTime(r)))},
	}
}

func (rs *Refunds) copyMore() tea.Cmd {
	r, ok := rs.Target()
	if !ok {
		return nil
	}
	return tab.CopyMore(rs.Deps.Keys, rs.Theme, &rs.Dialogs, "refund "+r.ID, refundCopyFields(r))
}
