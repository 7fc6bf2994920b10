package payments

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"paydash/backend"
	"paydash/ui"
	"paydash/views/tab"
)

func paymentCopyFields(p backend.Payment) []ui.CopyField {
	id, phone := tab.Customer(p)
	idLabel := "customer e-mail"
	if id != "" && !strings.Contains(id, "@") {
		idLabel = "customer identifier"
	}
	amount := ""
	if p.Amount.Currency != "" || !p.Amount.Value.IsZero() {
		amount = tab.FmtAmount(p.Amount)
	}
	link := ""
	if p.Confirmation != nil {
		link = p.Confirmation.PaymentURL
	}
	return []ui.CopyField{
		{Key: "o", Label: "order number", Value: p.OrderNo},
		{Key: "e", Label: idLabel, Value: id},
		{Key: "p", Label: "phone", Value: phone},
		{Key: "a", Label: "amount", Value: amount},
		{Key: "d", Label: "description", Value: p.Description},
		{Key: "u", Label: "payment link", Value: link},
		{Key: "s", Label: "summary", Value: paymentSummary(p)},
	}
}

// paymentSummary is a payment in one line, for a message or a ticket:
// "Payment 43149010 · 1,250.00 RUB · Settled · order 5561 ·
// m.petrov@example.com · 23 Nov 2026 14:02 UTC".
func paymentSummary(p backend.Payment) string {
	id, _ := tab.Customer(p)
	return tab.Summary("Payment "+p.ID, tab.FmtAmount(p.Amount), string(p.Status), tab.IfSet("order ", p.OrderNo), id,
		tab.SummaryTime(tab.PaymentTime(p)))
}

// --- the tabs' Y ---------------------------------------------------------------

func (ps *Payments) copyMore() tea.Cmd {
	p, ok := ps.Target()
	if !ok {
		return nil
	}
	return tab.CopyMore(ps.Deps.Keys, ps.Theme, &ps.Dialogs, "payment "+p.ID, paymentCopyFields(p))
}
