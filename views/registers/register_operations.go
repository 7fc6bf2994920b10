package registers

import (
	"fmt"
	"strconv"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"paydash/backend"
	"paydash/backend/money"
	"paydash/backend/textsafe"
	"paydash/keys"
	"paydash/ui"
	"paydash/ui/datatable"
	"paydash/views/tab"
)

// newOperationsTable is the operations view's table: a row is an index
// into the register's operations, drawn from them when shown.
func newOperationsTable(ops []backend.Operation, km keys.Map, th ui.Theme) datatable.Model[int32] {
	text := func(f func(*backend.Operation) string) func(int32) string {
		return func(i int32) string { return f(&ops[i]) }
	}
	cols := []datatable.Column[int32]{
		{Key: "id", Title: "Operation", Width: 10, MaxWidth: 24, Priority: 100, Text: text(func(o *backend.Operation) string { return o.ID })},
		{Key: "kind", Title: "Kind", Width: 7, Priority: 92, Text: text(operationKind)},
		{Key: "site", Title: "Site", Width: 6, Priority: 40, Text: text(func(o *backend.Operation) string { return o.SiteAlias })},
		{Key: "invoice", Title: "Invoice", Width: 16, MaxWidth: 32, Priority: 70,
			Text: text(func(o *backend.Operation) string { return o.InvoiceID })},
		{Key: "time", Title: "Time (UTC)", Width: 12, Priority: 80, Text: text(func(o *backend.Operation) string {
			if o.Stamp.IsZero() {
				return ""
			}
			// The year is the register's; the seconds are in the XML and the CSV.
			return o.Stamp.UTC().Format(tab.ListTimeLayout)
		})},
		{Key: "currency", Title: "Cur", Width: 3, Priority: 50, Text: text(func(o *backend.Operation) string { return o.Currency })},
		{Key: "amount", Title: "Amount", Width: 13, Priority: 95, Align: lipgloss.Right,
			Text: text(func(o *backend.Operation) string { return money.Group(o.OperationAmount, o.Currency) })},
		{Key: "transfer", Title: "To transfer", Width: 13, Priority: 90, Align: lipgloss.Right,
			Text: text(func(o *backend.Operation) string { return money.Group(o.TransferAmount, o.Currency) })},
	}
	m := datatable.New(datatable.Config[int32]{
		ID:      func(i int32) string { return strconv.Itoa(int(i)) },
		Columns: cols,
		// The XML view is where a register is searched; the table keeps no
		// text to filter, so 50,000 rows cost only their index.
		FilterText: func(int32) string { return "" },
		Styles:     th.Table,
		EmptyText:  "The register lists no operations",
		EndText:    "— end of the register —",
	})
	m.KeyMap = tab.TableKeys(km)
	rows := make([]int32, len(ops))
	for i := range rows {
		rows[i] = int32(i)
	}
	m.SetRows(rows)
	m.SetEnd(true)
	return m
}

// operationKind: a register lists payments with positive amounts and
// refunds with negative ones.
func operationKind(o *backend.Operation) string {
	if o.OperationAmount < 0 {
		return "refund"
	}
	return "payment"
}

// operationTargetMsg is where enter on a refund's row leads, found in a
// command: its payment, or its order number when the payment is unknown.
type operationTargetMsg struct {
	stamp tab.Stamp
	jump  string
	toast string
	err   error
}

// openOperation opens the selected operation's payment in the Payments
// tab. A payment's operation id is the payment's; a refund's is the
// refund's, whose payment is read first (v2), or found by the order
// number when it cannot be read.
func (rp *registerPane) openOperation() tea.Cmd {
	i, ok := rp.ops.Selected()
	if !ok || rp.data == nil || int(i) >= len(rp.data.reg.Operations) {
		return nil
	}
	op := rp.data.reg.Operations[i]
	if op.OperationAmount >= 0 {
		return tab.MsgCmd(ui.SwitchTabMsg{Tab: ui.TabPayments, Then: ui.JumpMsg{Query: op.ID}})
	}
	ctx, st := rp.reads.Current()
	src := rp.src
	return func() tea.Msg {
		r, err := src.GetRefund(ctx, op.ID)
		switch {
		case err == nil && r.PaymentID != "":
			return operationTargetMsg{stamp: st, jump: r.PaymentID}
		case op.InvoiceID != "":
			return operationTargetMsg{stamp: st, jump: op.InvoiceID,
				toast: "Refund " + textsafe.Line(op.ID, 30) + " cannot be read here; looking for its payment by order number " +
					textsafe.Line(op.InvoiceID, 40)}
		case err == nil:
			err = fmt.Errorf("refund %s names no payment", textsafe.Line(op.ID, 30))
		}
		return operationTargetMsg{stamp: st, err: err}
	}
}

// onTarget goes to the refund's payment, unless the register was closed
// or read again meanwhile: then the user has moved on.
func (rp *registerPane) onTarget(msg operationTargetMsg) tea.Cmd {
	if !rp.open || !rp.reads.Fresh(msg.stamp) || tab.Cancelled(msg.err) {
		return nil
	}
	if msg.err != nil {
		return tab.ToastCmd(ui.ToastError, "Could not find the refund's payment: "+tab.ErrText(msg.err))
	}
	var note tea.Cmd
	if msg.toast != "" {
		note = tab.ToastCmd(ui.ToastInfo, msg.toast)
	}
	return tea.Batch(note, tab.MsgCmd(ui.SwitchTabMsg{Tab: ui.TabPayments, Then: ui.JumpMsg{Query: msg.jump}}))
}
