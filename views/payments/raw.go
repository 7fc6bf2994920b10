package payments

import (
	"slices"

	"paydash/backend"
	"paydash/backend/money"
	"paydash/ui"
	"paydash/views/tab"
)

// paymentRawLines is the raw view of a payment: its body, and the v1
// answer beside it when there is one.
func paymentRawLines(p backend.Payment, th ui.Theme) []string {
	var out []string
	switch {
	case len(p.Raw) > 0:
		out = append(out, th.Muted.Render("— "+string(p.Source)+" answer —"))
		out = append(out, tab.RawLines(p.Raw)...)
	case p.V1 == nil || len(p.V1.Raw) == 0:
		out = append(out, th.Muted.Render("no body yet: the full payment is being read"))
	}
	if p.V1 != nil && len(p.V1.Raw) > 0 && (p.Source != backend.V1 || len(p.Raw) == 0) {
		if len(out) > 0 {
			out = append(out, "")
		}
		out = append(out, th.Muted.Render("— v1 answer —"))
		out = append(out, tab.RawLines(p.V1.Raw)...)
	}
	return out
}

// refundable is what the refunds of a settled payment add up to (all but
// the Rejected ones) and what is left to refund.
func refundable(p backend.Payment, refunds []backend.Refund) (refunded, left money.Amount) {
	cur := p.Amount.Currency
	refunded.Currency, left.Currency = cur, cur
	for _, r := range refunds {
		if r.Status == backend.RefundRejected || r.PaymentID != p.ID && r.PaymentID != "" {
			continue
		}
		if r.Amount.Currency != "" && cur != "" && r.Amount.Currency != cur {
			continue
		}
		refunded.Value += r.Amount.Value
	}
	left.Value = max(p.Amount.Value-refunded.Value, 0)
	return refunded, left
}

func sortedKeys(m map[string]string) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	return ks
}
