package payments

import (
	"strconv"

	"paydash/backend"
	"paydash/backend/textsafe"
	"paydash/ui"
	"paydash/views/tab"
)

// DetailLines is everything about the payment, one fact a line: what the
// pane is doing and the actions under way on it, then one section a block.
func (ps *Payments) DetailLines() []string {
	th := ps.Theme
	d := ps.Pane
	p := d.Obj
	f := &tab.Fields{Theme: th, LabelW: 16, Width: d.Inner()}
	if d.Loading && !p.Detailed {
		f.Line(th.Muted.Render("reading the full payment…"))
	}
	if d.Err != nil {
		f.Failure("", d.Err)
	}
	for _, l := range ps.Acts.PaneLines(th, tab.PaymentRef(p.ID)) {
		f.Line(l)
	}
	summarySection(f, th, p)
	invoiceSection(f, p)
	customerSection(f, th, p)
	methodSection(f, p)
	confirmationSection(f, p)
	ps.tokenSection(f, p)
	ps.refundsSection(f, p)
	v1Section(f, p)
	return f.Lines
}

// summarySection is the payment's state, amount and times, at the top.
func summarySection(f *tab.Fields, th ui.Theme, p backend.Payment) {
	c := textsafe.Clean
	f.AddAlways("Status", tab.StatusStyle(th, p.Status).Render(paymentStatusText(p.Status)))
	f.Add("Result", tab.ResultText(p.ResultCode, p.Source))
	f.Add("Message", c(p.Message))
	f.Add("Amount", tab.FmtAmount(p.Amount))
	f.Add("Merchant", c(p.MerchantID))
	f.Add("Created", tab.FmtTime(p.Created))
	f.Add("Completed", tab.FmtTime(p.Completed))
	f.Add("Updated", tab.FmtTime(p.Updated))
	if p.Detailed {
		f.Add("Test mode", tab.YesNo(p.TestMode))
	}
	f.Add("Read through", string(p.Source))
}

// invoiceSection is the merchant's invoice: order, description, params.
func invoiceSection(f *tab.Fields, p backend.Payment) {
	c := textsafe.Clean
	f.Heading("Invoice")
	f.Add("Order no", c(p.OrderNo))
	f.Add("Description", c(p.Description))
	f.Add("Expires", tab.FmtTime(p.InvoiceExpires))
	for _, k := range sortedKeys(p.InvoiceParams) {
		f.Add("  "+c(k), c(p.InvoiceParams[k]))
	}
}

// customerSection is who paid, or "not known (yet)".
func customerSection(f *tab.Fields, th ui.Theme, p backend.Payment) {
	c := textsafe.Clean
	f.Heading("Customer")
	f.Add("IP", c(p.CustomerIP))
	if v := p.V1; v != nil {
		f.Add("Identifier", c(v.UserIdentifier))
		f.Add("Phone", c(v.UserPhoneNumber))
	}
	if p.CustomerIP == "" && (p.V1 == nil || (p.V1.UserIdentifier == "" && p.V1.UserPhoneNumber == "")) {
		f.Line(th.Muted.Render("not known" + tab.IfThen(!p.Detailed, " yet")))
	}
}

// methodSection is how the customer paid, with the card's facts.
func methodSection(f *tab.Fields, p backend.Payment) {
	c := textsafe.Clean
	f.Heading("Payment method")
	f.Add("Method", c(p.PaymentMethod))
	f.Add("Instrument", c(p.InstrumentTitle))
	f.Add("Agreement", c(p.Agreement))
	if cd := p.Card; cd != nil {
		f.Add("Card brand", c(cd.Brand))
		f.Add("Issuer", c(cd.Issuer))
		f.Add("Country", c(cd.Country))
		f.Add("Card type", c(cd.Type))
		f.Add("Category", c(cd.Category))
	}
}

// confirmationSection is what the customer is asked to do to confirm the
// payment; nothing when there is no confirmation.
func confirmationSection(f *tab.Fields, p backend.Payment) {
	cf := p.Confirmation
	if cf == nil {
		return
	}
	c := textsafe.Clean
	f.Heading("Confirmation")
	f.Add("Type", c(cf.Type))
	f.Add("Payment URL", c(cf.PaymentURL))
	if cf.PaymentURL != "" {
		f.Add("Universal link", tab.YesNo(cf.UniversalLink))
	}
	f.Add("Instruction", c(cf.Instruction))
	f.Add("Masked phone", c(cf.MaskedPhone))
	f.Add("Method URL", c(cf.MethodURL))
	f.Add("Transaction", c(cf.TransactionID))
	f.Add("ACS URL", c(cf.AcsURL))
	f.Add("CReq", c(cf.CReq))
	f.Add("PAReq", c(cf.PAReq))
}

// tokenSection is the token the payment saved or used, with its status as
// far as it is known and the actions under way on it; nothing without one.
func (ps *Payments) tokenSection(f *tab.Fields, p backend.Payment) {
	tk := p.Token
	if tk == nil {
		return
	}
	th, c := ps.Theme, textsafe.Clean
	f.Heading("Token")
	f.Add("ID", c(tk.ID))
	f.Add("Title", c(tk.Title))
	f.Add("Expires", tab.FmtTime(tk.Expires))
	switch st := ps.memo.Status(ps.paneMerchant(), tk.ID); {
	case st != "":
		f.AddAlways("Status", tab.TokenStatusStyle(th, st)(tab.TokenStatusText(st)))
	case ps.paneToken.err != nil:
		f.Failure("status: cannot read it: ", ps.paneToken.err)
	default:
		f.AddAlways("Status", th.Muted.Render("reading…"))
	}
	for _, l := range ps.Acts.PaneLines(th, tab.TokenRef(tk.ID)) {
		f.Line(l)
	}
}

// refundsSection is the payment's refunds, a line each, and for a settled
// payment what is left to refund.
func (ps *Payments) refundsSection(f *tab.Fields, p backend.Payment) {
	th, rf, c := ps.Theme, ps.refunds, textsafe.Clean
	f.Heading("Refunds")
	switch {
	case rf.err != nil:
		f.Failure("cannot read them: ", rf.err)
	case !rf.loaded:
		f.Line(th.Muted.Render("reading…"))
	case len(rf.items) == 0:
		f.Line(th.Muted.Render("none"))
	default:
		for _, r := range rf.items {
			when := tab.FmtListTime(r.Created)
			if when == "" {
				when = tab.FmtListTime(r.Updated)
			}
			f.Line(tab.Fit(c(r.ID), 9) + " " + tab.RefundStyle(th, r.Status).Render(tab.Fit(tab.RefundStatusText(r.Status), 11)) +
				" " + tab.Fit(tab.FmtAmount(r.Amount), 15) + " " + th.Muted.Render(when))
		}
	}
	if rf.loaded && rf.err == nil && p.Status == backend.PaymentSettled {
		refunded, left := refundable(p, rf.items)
		f.Add("Captured", tab.FmtAmount(p.Amount))
		f.Add("Refunded", tab.FmtAmount(refunded)+th.Muted.Render(" (pending included)"))
		f.AddAlways("Refundable", th.Accent.Render(tab.FmtAmount(left)))
	}
}

// v1Section is the payment as the legacy interface sees it; nothing when
// it was not read through it.
func v1Section(f *tab.Fields, p backend.Payment) {
	v := p.V1
	if v == nil {
		return
	}
	c := textsafe.Clean
	f.Heading("v1 view")
	f.Add("State", c(v.State))
	f.Add("PaymentAmount", tab.FmtAmount(v.PaymentAmount))
	f.Add("UserIdentifier", c(v.UserIdentifier))
	f.Add("UserPhoneNumber", c(v.UserPhoneNumber))
	f.Add("LastUpdate", tab.FmtTime(v.LastUpdate))
	if v.ErrorCode != 0 {
		f.Add("ErrorCode", strconv.Itoa(v.ErrorCode))
	}
}
