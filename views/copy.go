package views

import (
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"paydash/backend"
	"paydash/backend/textsafe"
	"paydash/keys"
	"paydash/ui"
)

// Copy more than the id: Y opens a chooser of the fields of the
// object y would copy the id of (the pane's, else the selected row's), each
// shown with its value; only the fields that have one are offered. The
// chooser (ui.NewCopyChooser) copies what is chosen itself and says so.

// copyMore opens the chooser over the fields of what ("payment 43149010");
// when none has a value it says so instead.
func copyMore(km keys.Map, th ui.Theme, dialogs *dialogSlot, what string, fields []ui.CopyField) tea.Cmd {
	what = textsafe.Line(what, 80)
	if len(ui.CopyFields(fields)) == 0 {
		return toastCmd(ui.ToastInfo, "nothing to copy from "+what+" but its id")
	}
	return dialogs.open(ui.NewCopyChooser("Copy from "+what, fields, km, th))
}

// summaryTime is a time in a one-line summary: UTC, so that it means the
// same wherever it is pasted.
func summaryTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format("02 Jan 2006 15:04") + " UTC"
}

// summary joins the parts that have a value with " · ".
func summary(parts ...string) string {
	kept := parts[:0]
	for _, p := range parts {
		if p = strings.TrimSpace(textsafe.Clean(p)); p != "" {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, " · ")
}

// ifSet is prefix+v, or "" when v is empty.
func ifSet(prefix, v string) string {
	if strings.TrimSpace(v) == "" {
		return ""
	}
	return prefix + v
}

// customer is what the service knows of a payment's customer: the e-mail
// (or another identifier the merchant gave) and the phone, from the legacy
// interface's view of it.
func customer(p backend.Payment) (id, phone string) {
	if p.V1 == nil {
		return "", ""
	}
	return p.V1.UserIdentifier, p.V1.UserPhoneNumber
}

func paymentCopyFields(p backend.Payment) []ui.CopyField {
	id, phone := customer(p)
	idLabel := "customer e-mail"
	if id != "" && !strings.Contains(id, "@") {
		idLabel = "customer identifier"
	}
	amount := ""
	if p.Amount.Currency != "" || !p.Amount.Value.IsZero() {
		amount = fmtAmount(p.Amount)
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
	id, _ := customer(p)
	return summary("Payment "+p.ID, fmtAmount(p.Amount), string(p.Status), ifSet("order ", p.OrderNo), id,
		summaryTime(paymentTime(p)))
}

func refundCopyFields(r backend.Refund) []ui.CopyField {
	return []ui.CopyField{
		{Key: "p", Label: "payment id", Value: r.PaymentID},
		{Key: "a", Label: "amount", Value: fmtAmount(r.Amount)},
		{Key: "x", Label: "external id", Value: r.ExternalID},
		{Key: "s", Label: "summary", Value: summary("Refund "+r.ID, fmtAmount(r.Amount), string(r.Status),
			ifSet("payment ", r.PaymentID), summaryTime(refundTime(r)))},
	}
}

func tokenCopyFields(v tokenView) []ui.CopyField {
	card, expires := v.Title, v.Expires
	if v.read != nil {
		if v.read.Title != "" {
			card = v.read.Title
		}
		if !v.read.Expires.IsZero() {
			expires = v.read.Expires
		}
	}
	latest := ""
	if len(v.Payments) > 0 {
		latest = v.Payments[0]
	}
	return []ui.CopyField{
		{Key: "c", Label: "card", Value: card},
		{Key: "e", Label: "expiry", Value: fmtExpiry(expires)},
		{Key: "p", Label: "latest payment", Value: latest},
		{Key: "s", Label: "summary", Value: summary("Token "+v.ID, card, string(v.newestStatus()),
			ifSet("expires ", fmtExpiry(expires)), ifSet("latest payment ", latest))},
	}
}

func stickerCopyFields(s backend.Sticker) []ui.CopyField {
	amount := ""
	if !s.Amount.Value.IsZero() {
		amount = fmtAmount(s.Amount)
	}
	return []ui.CopyField{
		{Key: "l", Label: "payment link", Value: s.Payload},
		{Key: "d", Label: "description", Value: s.Description},
		{Key: "a", Label: "amount", Value: amount},
		{Key: "u", Label: "payment purpose", Value: s.PaymentPurpose},
		{Key: "s", Label: "summary", Value: summary("Sticker "+s.ID, s.Status, stickerAmount(s), s.Description,
			s.Payload)},
	}
}

func transferCopyFields(tr backend.Transfer) []ui.CopyField {
	return []ui.CopyField{
		{Key: "o", Label: "payment order", Value: tr.PaymentOrderID},
		{Key: "r", Label: "register id", Value: tr.RegisterID},
		{Key: "a", Label: "amount", Value: fmtAmount(tr.Amount)},
		{Key: "s", Label: "summary", Value: summary("Transfer of "+transferDay(tr.Created), fmtAmount(tr.Amount),
			ifSet("payment order ", tr.PaymentOrderID), ifSet("register ", tr.RegisterID))},
	}
}

func documentCopyFields(doc backend.Document) []ui.CopyField {
	return []ui.CopyField{
		{Key: "f", Label: "file name", Value: doc.FileName},
		{Key: "d", Label: "description", Value: doc.Description},
	}
}

// --- the tabs' Y ---------------------------------------------------------------

func (t *Payments) copyMore() tea.Cmd {
	p, ok := t.target()
	if !ok {
		return nil
	}
	return copyMore(t.deps.Keys, t.theme, &t.dialogs, "payment "+p.ID, paymentCopyFields(p))
}

func (t *Refunds) copyMore() tea.Cmd {
	r, ok := t.target()
	if !ok {
		return nil
	}
	return copyMore(t.keys, t.theme, &t.dialogs, "refund "+r.ID, refundCopyFields(r))
}

func (t *Tokens) copyMore() tea.Cmd {
	v, ok := t.target()
	if !ok {
		return nil
	}
	return copyMore(t.keys, t.theme, &t.dialogs, "token "+v.ID, tokenCopyFields(v))
}

func (t *Stickers) copyMore() tea.Cmd {
	s, ok := t.target()
	if !ok {
		return nil
	}
	return copyMore(t.keys, t.theme, &t.dialogs, "sticker "+s.ID, stickerCopyFields(s))
}

// copyMore copies from the open register's transfer, the open document,
// or the selected row of the list shown.
func (t *Registers) copyMore() tea.Cmd {
	switch {
	case t.register.isOpen():
		return t.copyTransfer(t.register.transfer)
	case t.document.isOpen():
		return t.copyDocument(t.document.doc)
	case t.docs:
		if doc, ok := t.documents.selected(); ok {
			return t.copyDocument(doc)
		}
	default:
		if tr, ok := t.transfers.selected(); ok {
			return t.copyTransfer(tr)
		}
	}
	return nil
}

func (t *Registers) copyTransfer(tr backend.Transfer) tea.Cmd {
	return copyMore(t.keys, t.theme, &t.dialogs, "the transfer of "+transferDay(tr.Created), transferCopyFields(tr))
}

func (t *Registers) copyDocument(doc backend.Document) tea.Cmd {
	return copyMore(t.keys, t.theme, &t.dialogs, "document "+doc.ID, documentCopyFields(doc))
}

// paneCopyMore is Y while the register or the document is open (the panes
// handle their own keys, but not this one); ok is false for another key.
func (t *Registers) paneCopyMore(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	if !t.register.isOpen() && !t.document.isOpen() {
		return nil, false
	}
	p, ok := t.keys.Resolve(msg, t.Context(), t.Available)
	if !ok || p.Action != keys.ActCopyMore {
		return nil, false
	}
	if !p.Enabled {
		return refusedKey(p), true
	}
	return t.copyMore(), true
}
