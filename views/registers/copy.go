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
func (rg *Registers) copyMore() tea.Cmd {
	switch {
	case rg.Register.IsOpen():
		return rg.copyTransfer(rg.Register.transfer)
	case rg.document.isOpen():
		return rg.copyDocument(rg.document.doc)
	case rg.docs:
		if doc, ok := rg.Documents.Selected(); ok {
			return rg.copyDocument(doc)
		}
	default:
		if tr, ok := rg.transfers.Selected(); ok {
			return rg.copyTransfer(tr)
		}
	}
	return nil
}

func (rg *Registers) copyTransfer(tr backend.Transfer) tea.Cmd {
	return tab.CopyMore(rg.keys, rg.theme, &rg.dialogs, "the transfer of "+transferDay(tr.Created), transferCopyFields(tr))
}

func (rg *Registers) copyDocument(doc backend.Document) tea.Cmd {
	return tab.CopyMore(rg.keys, rg.theme, &rg.dialogs, "document "+doc.ID, documentCopyFields(doc))
}

// paneCopyMore is Y while the register or the document is open (the panes
// handle their own keys, but not this one); ok is false for another key.
func (rg *Registers) paneCopyMore(msg tea.KeyPressMsg) (tea.Cmd, bool) {
	if !rg.Register.IsOpen() && !rg.document.isOpen() {
		return nil, false
	}
	p, ok := rg.keys.Resolve(msg, rg.Context(), rg.Available)
	if !ok || p.Action != keys.ActCopyMore {
		return nil, false
	}
	if !p.Enabled {
		return tab.RefusedKey(p), true
	}
	return rg.copyMore(), true
}
