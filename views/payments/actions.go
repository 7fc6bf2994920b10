package payments

import (
	"cmp"
	"context"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"paydash/backend"
	"paydash/backend/action"
	"paydash/backend/known"
	"paydash/backend/money"
	"paydash/backend/textsafe"
	"paydash/keys"
	"paydash/ui"
	"paydash/views/tab"
)

// The Payments tab's money actions (docs/confirmation.md). Before the confirmation:
//
//	action key   the shell shows a "preparing" dialog at once and sends ActionMsg;
//	prepare      the payment (and, for a refund, its refunds) is read again, so the
//	             dialog names it as it is now; the dialog is bound to it;
//
// and after it the tracker (views/tab/track.go) sends it and follows it to its outcome.

// actionInfo describes one of the tab's actions.
type actionInfo struct {
	kind     backend.ActionName
	verb     string // the confirm button's verb ("Refund 500.00 RUB")
	noun     string // "the release of the hold" in "Could not read payment … before …"
	title    string // the dialog's title, %s = the payment id
	required backend.PaymentStatus
	wrong    string // the wrong-state reason, %s = the current status
}

var actionInfos = map[keys.Action]actionInfo{
	keys.ActCapture: {backend.ActionCapture, "Capture", "the capture", "Capture payment %s",
		backend.PaymentAuthorized, "only an Authorized payment can be captured (this one is %s)"},
	keys.ActCancelHold: {backend.ActionCancelHold, "Release", "the release of its hold", "Cancel the hold on payment %s",
		backend.PaymentAuthorized, "only an Authorized payment's hold can be cancelled (this one is %s)"},
	keys.ActRefund: {backend.ActionRefund, "Refund", "the refund", "Refund payment %s",
		backend.PaymentSettled, "only a Settled payment can be refunded (this one is %s)"},
}

// Messages of the actions.
type (
	// prepareMsg brings a payment read in full (and its refunds) before its
	// confirmation opens.
	prepareMsg struct {
		stamp   tab.Stamp // the tab's preparation's
		ticket  int
		action  keys.Action
		id      string
		p       backend.Payment
		refunds []backend.Refund
		err     error
	}
)

// keyTable is every key of the Payments tab: the list's, and the actions.
func (ps *Payments) keyTable() tab.KeyTable {
	kt := ps.ListKeys("payment", ps.refresh, ps.copyMore, ps.export)
	for _, act := range []keys.Action{keys.ActCapture, keys.ActCancelHold, keys.ActRefund} {
		kt = append(kt, tab.KeyAction{Key: act,
			When:   func() (bool, string) { return ps.mayActOnTarget(act) },
			Start:  func(ticket int) tea.Cmd { return ps.prepare(act, ticket) },
			Target: func() string { return ps.paymentTarget(act) }})
	}
	return append(kt,
		tab.KeyAction{Key: keys.ActRevoke, When: ps.mayRevokeToken, Start: ps.startRevoke, Target: ps.revokeTarget},
		tab.KeyAction{Key: keys.ActNew, Start: ps.StartCreate(tab.CreateInvoice), Target: func() string { return "New payment link" },
			When: func() (bool, string) { return tab.MayAct(ps.src, ps.Deps.Journal, backend.ActionCreateInvoice) }})
}

// mayActOnTarget checks a money action on the payment a key acts on.
func (ps *Payments) mayActOnTarget(act keys.Action) (bool, string) {
	p, ok := ps.Target()
	if !ok {
		return false, "no payment is selected"
	}
	return ps.availableFor(act, p)
}

// paymentTarget names the payment act would act on, for the preparing
// dialog ("Capture payment 7000123").
func (ps *Payments) paymentTarget(act keys.Action) string {
	p, ok := ps.Target()
	if !ok {
		return ""
	}
	return fmt.Sprintf(actionInfos[act].title, textsafe.Clean(p.ID))
}

// revokeTarget names the token v would revoke: the pane's payment's.
func (ps *Payments) revokeTarget() string {
	if p := ps.Pane.Obj; ps.Pane.IsOpen() && p.Token != nil {
		return "Revoke token " + textsafe.Clean(p.Token.ID) + " of payment " + textsafe.Clean(p.ID)
	}
	return ""
}

// mayRevokeToken says whether v can revoke the token of the payment in
// the pane (the lost-card call: find the customer's payment, revoke the
// card it saved).
func (ps *Payments) mayRevokeToken() (bool, string) {
	if !ps.Pane.IsOpen() {
		return false, "open a payment (enter) to revoke the saved card it used"
	}
	p := ps.Pane.Obj
	if p.Token == nil || p.Token.ID == "" {
		if ps.Pane.Loading && !p.Detailed {
			return false, "the payment is still being read"
		}
		return false, "payment " + textsafe.Clean(p.ID) + " used no saved card token"
	}
	return tab.MayRevoke(ps.src, ps.Deps, ps.Acts, p.Token.ID, ps.memo.Status(ps.paneMerchant(), p.Token.ID))
}

// availableFor checks an action on p: the credentials, the journal, an
// action under way or of unknown outcome on it, the payment's state.
func (ps *Payments) availableFor(act keys.Action, p backend.Payment) (bool, string) {
	info := actionInfos[act]
	if ok, why := tab.MayAct(ps.src, ps.Deps.Journal, info.kind); !ok {
		return false, why
	}
	if tr := ps.Acts.On(tab.PaymentRef(p.ID)); tr != nil {
		return false, tr.BusyReason()
	}
	if p.Status != info.required {
		return false, fmt.Sprintf(info.wrong, textsafe.Clean(string(p.Status)))
	}
	if act == keys.ActRefund && ps.Pane.IsOpen() && ps.Pane.Obj.ID == p.ID && ps.refunds.loaded && ps.refunds.err == nil {
		refunded, left := refundable(p, ps.refunds.items)
		if !left.Value.IsPositive() {
			return false, "nothing is left to refund (" + tab.FmtAmount(refunded) + " already refunded)"
		}
	}
	return true, ""
}

// prepare prepares the confirmation of an action on the payment the key
// was pressed on: it reads the payment (and a refund's refunds) again, so
// that the dialog shows it as it is now.
func (ps *Payments) prepare(act keys.Action, ticket int) tea.Cmd {
	p, _ := ps.Target()
	ctx, st := ps.Prep.Begin(ticket)
	b, id := ps.src, p.ID
	return func() tea.Msg {
		msg := prepareMsg{stamp: st, ticket: ticket, action: act, id: id}
		msg.p, msg.err = b.GetPayment(ctx, id)
		if msg.err == nil && act == keys.ActRefund && msg.p.Status == backend.PaymentSettled {
			msg.refunds, msg.err = b.RefundsOfPayment(ctx, msg.p)
		}
		return msg
	}
}

func (ps *Payments) onPrepared(msg prepareMsg) tea.Cmd {
	if !ps.Prep.Answered(msg.stamp) {
		return nil
	}
	info := actionInfos[msg.action]
	id := textsafe.Clean(msg.id)
	if msg.err != nil {
		return tab.CouldNotRead(msg.ticket, "payment "+id+" before "+info.noun, msg.err)
	}
	now := ps.Deps.TimeNow()
	ps.List.Upsert(msg.p, now)
	if d := ps.Pane; d.IsOpen() && d.Obj.ID == msg.p.ID {
		d.Set(msg.p)
		d.Err = nil
		if msg.action == keys.ActRefund && msg.p.Status == backend.PaymentSettled {
			ps.refunds = paneRefunds{items: msg.refunds, loaded: true}
		}
	}
	ok, why := ps.availableFor(msg.action, msg.p)
	if ok && msg.action == keys.ActRefund {
		if _, left := refundable(msg.p, msg.refunds); !left.Value.IsPositive() {
			ok, why = false, "nothing is left to refund of payment "+id
		}
	}
	if !ok {
		return tab.RefusedCmd(msg.ticket, ui.ToastWarning, why)
	}
	return tab.MsgCmd(ui.ConfirmDialog(msg.ticket, ps.confirmSpec(msg.action, msg.p, msg.refunds)))
}

// ConfirmSpec is the confirmation of an action on p, in words that leave
// no doubt; its Confirm sends exactly what the dialog shows, on p.
func (ps *Payments) confirmSpec(act keys.Action, p backend.Payment, refunds []backend.Refund) ui.ConfirmSpec {
	info := actionInfos[act]
	c := textsafe.Clean
	id := c(p.ID)
	order := c(p.OrderNo)
	if order == "" {
		order = "none"
	}
	lines := []string{
		"Payment " + id + " · order " + order + " · merchant " + c(p.MerchantID),
		"Customer: " + customerText(p),
	}
	spec := ui.ConfirmSpec{Title: fmt.Sprintf(info.title, id), Verb: info.verb}
	amount := p.Amount
	switch act {
	case keys.ActCapture:
		lines = append(lines,
			"Authorized: "+tab.FmtAmount(p.Amount)+"; the amount below is charged, the rest of the hold released.")
		spec.Amount = &ui.AmountField{Label: "Amount to capture", Value: p.Amount, Max: p.Amount.Value, MaxLabel: "authorized"}
	case keys.ActCancelHold:
		spec.Danger = true
		lines = append(lines,
			"Hold: "+tab.FmtAmount(p.Amount)+" is released; nothing is charged.",
			"A released hold cannot be captured afterwards.")
		spec.Fixed = &amount
	case keys.ActRefund:
		spec.Danger = true
		refunded, left := refundable(p, refunds)
		lines = append(lines,
			"Captured: "+tab.FmtAmount(p.Amount)+" · refunded so far: "+tab.FmtAmount(refunded)+" · left: "+tab.FmtAmount(left))
		if p.InstrumentTitle != "" {
			lines = append(lines, "Goes back to: "+c(p.InstrumentTitle))
		}
		spec.Amount = &ui.AmountField{Label: "Amount to refund", Value: left, Max: left.Value, MaxLabel: "still refundable"}
	}
	lines = append(lines, "Sent through: "+ps.carrier())
	if over, ok := ps.Deps.TypedOverFor(p.Amount.Currency); ok && len(p.ID) >= 4 {
		spec.Check = &ui.TypedCheck{Over: over, Digits: p.ID[len(p.ID)-4:], Of: "payment " + id}
	}
	spec.Lines = lines
	spec.Confirm = ps.confirmFunc(act, p)
	spec.Approval = ps.Acts.ApprovalNote(info.kind)
	return spec
}

// carrier names the interface that will carry an action.
func (ps *Payments) carrier() string {
	if ps.via == backend.V2 {
		return "v2 (the current interface)"
	}
	return "v1 (the legacy interface)"
}

// customerText is who paid: the e-mail and phone of the v1 view when it is
// known, else the IP address.
func customerText(p backend.Payment) string {
	var parts []string
	if v := p.V1; v != nil {
		if v.UserIdentifier != "" {
			parts = append(parts, textsafe.Clean(v.UserIdentifier))
		}
		if v.UserPhoneNumber != "" {
			parts = append(parts, "phone "+textsafe.Clean(v.UserPhoneNumber))
		}
	}
	if len(parts) == 0 && p.CustomerIP != "" {
		parts = append(parts, "IP "+textsafe.Clean(p.CustomerIP))
	}
	if len(parts) == 0 {
		return "not known"
	}
	return strings.Join(parts, ", ")
}

// confirmFunc is the ConfirmSpec's Confirm: the tracker sends the action
// on p with the amount the dialog showed.
func (ps *Payments) confirmFunc(act keys.Action, p backend.Payment) func(money.Amount) tea.Cmd {
	return func(amount money.Amount) tea.Cmd {
		if amount.Currency == "" {
			amount = p.Amount // a cancel: the hold it releases, for the record
		}
		return ps.Acts.Send(action.New(actionInfos[act].kind, p.ID, amount, ps.via))
	}
}

// showPayment puts the payment an action's outcome brought into the row,
// and reads the pane on it again: the answer may lack the v1 view, and
// the refunds have moved.
func (ps *Payments) showPayment(msg tab.OutcomeMsg) tea.Cmd {
	p := msg.Out.Payment
	if p.ID != "" {
		ps.List.Upsert(p, ps.Deps.TimeNow())
	}
	d := ps.Pane
	if !d.IsOpen() || d.Obj.ID != msg.Req.ObjectID {
		return nil
	}
	if p.ID != "" {
		d.Set(p)
	}
	return ps.reloadDetail()
}

// startRevoke reads the pane's payment's token again before the
// confirmation of its revocation.
func (ps *Payments) startRevoke(ticket int) tea.Cmd {
	src, id := ps.src, ps.Pane.Obj.Token.ID
	return tab.ReadAgain(&ps.Prep, ticket, keys.ActRevoke, func(ctx context.Context) (backend.Token, error) {
		return src.GetToken(ctx, id)
	})
}

// onTokenRead opens the confirmation of revoking the pane's payment's
// token as the service has it now.
func (ps *Payments) onTokenRead(msg tab.ReadAgainMsg) tea.Cmd {
	tok, _ := msg.Obj.(backend.Token)
	if msg.Err != nil {
		return tab.CouldNotRead(msg.Ticket, "the token before revoking it", msg.Err)
	}
	if !ps.Pane.IsOpen() || ps.Pane.Obj.Token == nil || ps.Pane.Obj.Token.ID != tok.ID {
		return tab.RefusedCmd(msg.Ticket, ui.ToastWarning, "the payment's pane was closed; nothing was sent")
	}
	p := ps.Pane.Obj
	merchant := ps.paneMerchant()
	ps.tokenMerchant[tok.ID] = merchant
	save := ps.memo.Note(merchant, known.FromToken(tok, known.LookedUp))
	if ok, why := tab.MayRevoke(ps.src, ps.Deps, ps.Acts, tok.ID, tok.Status); !ok {
		return tea.Batch(save, tab.RefusedCmd(msg.Ticket, ui.ToastWarning, why))
	}
	k, _ := ps.memo.Get(merchant, tok.ID)
	return tea.Batch(save, tab.MsgCmd(ui.ConfirmDialog(msg.Ticket, tab.RevokeSpec(tok, k.Payments, p.ID, ps.Acts))))
}

// showOutcome shows what an action over changed: the payment, a token's
// status, or the payment link made (and the new payment in the list).
func (ps *Payments) showOutcome(msg tab.OutcomeMsg) tea.Cmd {
	k := action.KindOf(msg.Req.Kind)
	locked, locks := k.Locks(msg.Req)
	made, makes := k.Made(msg.Req, msg.Out)
	switch {
	case locks && locked.Type == action.ObjectToken:
		if msg.Out.State == action.Done {
			return ps.memo.NoteOutcome(cmp.Or(ps.tokenMerchant[locked.ID], ps.Scope.MerchantID), msg.Req, msg.Out)
		}
		return nil
	case !locks && makes && made.Type == action.ObjectPayment:
		if msg.Out.State == action.Done {
			// The payment made is selected as soon as the refresh brings it.
			ps.List.Own(made.ID)
			return tea.Batch(tab.CreatedDialog(msg.Req, msg.Out, ps.Deps.Keys, ps.Theme), ps.List.Refresh())
		}
		return nil
	}
	return ps.showPayment(msg)
}

// paneMerchant is the merchant of the payment in the pane (a jump by id
// may show another merchant's), the scope's when it names none.
func (ps *Payments) paneMerchant() string { return cmp.Or(ps.Pane.Obj.MerchantID, ps.Scope.MerchantID) }
