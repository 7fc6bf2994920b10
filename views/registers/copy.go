package registers

import (
	tea "charm.land/bubbletea/v2"

	"paydash/backend"
	"paydash/keys"
	"paydash/ui"
	"paydash/views/tab"
)

func transferCopyFields(tr backend.Transfer) []ui.CopyField {
	return []ui.CopyField{
		{Key: "o", Label: "payment order", Value: tr.PaymentOrderID},
		{Key: "r", Label: "register id", Value: tr.RegisterID},
		{Key: "a", Label: "amount", Value: tab.FmtAmount(tr.Amount)},
		{Key: "s", Label: "summary", Value: tab.Summary("Transfer of "+transferDay(tr.Created), tab.FmtAmount(tr.Amount),
			tab.IfSet("payment order ", tr.PaymentOrderID), tab.IfSet("register ", tr.RegisterID))},
	}
}

func documentCopyFields(doc backend.Document) []ui.CopyField {
	return []ui.CopyField{
		{Key: "f", Label: "file name", Value: doc.FileName},
		{Key: "d", Label: "description", Value: doc.Description},
	}
}

// copyMore copies from the open register's transfer, the open document,
// or the selected row of the list shown.
func (t *Registers) copyMore() tea.Cmd {
	switch {
	case t.Register.IsOpen():
		return t.copyTransfer(t.Register.transfer)
	case t.document.isOpen():
		return t.copyDocument(t.document.doc)
	case t.docs:
		if doc, ok := t.Documents.Selected(); ok {
			return t.copyDocument(doc)
		}
	default:
		if tr, ok := t.transfers.Selected(); ok {
			return t.copyTransfer(tr)
		}
	}
	return nil
}

func (t *Registers) copyTransfer(tr backend.Transfer) tea.Cmd {
	return tab.CopyMore(t.keys, t.theme, &t.dialogs, "the transfer of "+transferDay(tr.Created), transferCopyFields(tr))
}

func (t *Registers) copyDocument(doc backend.Document) tea.Cmd {
	return tab.CopyMore(t.keys, t.theme, &t.dialogs, "document "+doc.ID, documentCopyFields(doc))
}

// paneCopyMore is Y while the register or the document is open (the panes
// handle their own keys, but not this one); ok is false for another key.
func (t *Registers) paneCopyMore(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	if !t.Register.IsOpen() && !t.document.isOpen() {
		return nil, false
	}
	p, ok := t.keys.Resolve(msg, t.Context(), t.Available)
	if !ok || p.Action != keys.ActCopyMore {
		return nil, false
	}
	if !p.Enabled {
		return tab.RefusedKey(p), true
	}
	return t.copyMore(), true
}
