package registers

import (
	tea "charm.land/bubbletea/v2"

	"paydash/backend"
	"paydash/views/tab"
)

func transferFields() []tab.ExportField[backend.Transfer] {
	type X = backend.Transfer
	return []tab.ExportField[X]{
		{Name: "date_utc", Value: func(t X) string { return tab.UTCTime(t.Created) }},
		{Name: "amount", Value: func(t X) string { return tab.ExactAmount(t.Amount) }},
		{Name: "currency", Value: func(t X) string { return t.Amount.Currency }, Text: true},
		{Name: "payment_order_id", Value: func(t X) string { return t.PaymentOrderID }, Text: true},
		{Name: "register_id", Value: func(t X) string { return t.RegisterID }, Text: true},
	}
}

func documentFields() []tab.ExportField[backend.Document] {
	type D = backend.Document
	return []tab.ExportField[D]{
		{Name: "id", Value: func(d D) string { return d.ID }, Text: true},
		{Name: "created_utc", Value: func(d D) string { return tab.UTCTime(d.Created) }},
		{Name: "file_name", Value: func(d D) string { return d.FileName }, Text: true},
		{Name: "description", Value: func(d D) string { return d.Description }, Text: true},
	}
}

// exportList is ctrl+s on the Registers tab's lists: the transfers or the
// documents shown (a register or a document is saved from its pane).
func (rg *Registers) exportList() tea.Cmd {
	if rg.docs {
		return tab.ExportRows(rg.Documents, tab.ExportSpec[backend.Document]{Noun: "documents",
			Stem: "documents", Fields: documentFields(), Now: rg.now()})
	}
	return tab.ExportRows(rg.transfers, tab.ExportSpec[backend.Transfer]{Noun: "transfers",
		Stem: "transfers", Fields: transferFields(), Now: rg.now()})
}
