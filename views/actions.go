package views

import (
	"context"
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"paydash/backend"
	"paydash/backend/journal"
	"paydash/backend/money"
	"paydash/backend/textsafe"
	"paydash/keys"
	"paydash/ui"
)

// Journal action names (design §6).
const (
	journalCapture    = "capture"
	journalCancelHold = "cancel_hold"
	journalRefund     = "refund"
)

// actionInfo describes one of the tab's actions.
type actionInfo struct {
	backend  backend.Action
	journal  string
	verb     string // the confirm button
	noun     string // "a capture" in "a capture of this payment is being sent"
	required backend.PaymentStatus
	wrong    string // the wrong-state reason, %s = the current status
}

var actionInfos = map[string]actionInfo{
	keys.ActCapture: {backend.ActionCapture, journalCapture, "Capture", "a capture", backend.PaymentAuthorized,
		"only an Authorized payment can be captured (this one is %s)"},
	keys.ActCancelHold: {backend.ActionCancel, journalCancelHold, "Cancel hold", "a cancellation of the hold", backend.PaymentAuthorized,
		"only an Authorized payment's hold can be cancelled (this one is %s)"},
	keys.ActRefund: {backend.ActionRefund, journalRefund, "Refund", "a refund", backend.PaymentSettled,
		"only a Settled payment can be refunded (this one is %s)"},
}

// Messages of the actions.
type (
	// prepareMsg brings a payment read in full (and its refunds) before its
	// confirmation opens.
	prepareMsg struct {
		owner   uint64
		action  string
		p       backend.Payment
		refunds []backend.Refund
		err     error
	}
	// actionMsg is an action's outcome.
	actionMsg struct {
		owner      uint64
		action     string
		id         string
		amount     money.Amount
		idemKey    string
		p          backend.Payment // the payment after the action (re-read after a refund)
		refund     backend.Refund
		refunds    []backend.Refund
		refundsErr error
		err        error
		notSent    bool  // the journal refused the "sent" entry: nothing went out
		journalErr error // the "done"/"failed" entry could not be written
	}
)

// Available implements ui.Tab.
func (t *Payments) Available(action string) (bool, string) {
	switch action {
	case keys.ActCapture, keys.ActCancelHold, keys.ActRefund:
		p, ok := t.target()
		if !ok {
			return false, "no payment is selected"
		}
		return t.availableFor(action, p)
	case keys.ActRevoke, keys.ActToggleSticker, keys.ActNew, keys.ActExport:
		return false, ""
	case keys.ActOpen, keys.ActRaw, keys.ActCopyID:
		if _, ok := t.target(); !ok {
			return false, "no payment is selected"
		}
	}
	return true, ""
}

// availableFor checks an action on p: the credentials, the journal, an
// action already under way, the payment's state.
func (t *Payments) availableFor(action string, p backend.Payment) (bool, string) {
	ai := actionInfos[action]
	if ok, why := t.d.Backend.Can(ai.backend); !ok {
		return false, why
	}
	if t.d.Journal == nil {
		return false, "no journal is open, so the action could not be recorded (see --journal)"
	}
	if a, busy := t.inflight[p.ID]; busy {
		return false, actionInfos[a].noun + " of this payment is being sent"
	}
	if a, busy := t.preparing[p.ID]; busy {
		return false, "this payment is being checked for " + actionInfos[a].noun
	}
	if p.Status != ai.required {
		return false, fmt.Sprintf(ai.wrong, textsafe.Clean(string(p.Status)))
	}
	if action == keys.ActRefund && t.det != nil && t.det.p.ID == p.ID && t.det.rLoaded && t.det.rErr == nil {
		refunded, left := refundable(p, t.det.refunds)
		if !left.Value.IsPositive() {
			return false, "nothing is left to refund (" + fmtAmount(refunded) + " already refunded)"
		}
	}
	return true, ""
}

// startAction opens the confirmation of an action on the target payment,
// reading the payment in full first when it is not (the confirmation names
// the customer, and a refund needs the payment's refunds).
func (t *Payments) startAction(action string) tea.Cmd {
	p, ok := t.target()
	if !ok {
		return nil
	}
	d := t.det
	ready := d != nil && d.p.ID == p.ID && p.Detailed && !d.loading
	if action == keys.ActRefund {
		ready = ready && d.rLoaded && d.rErr == nil && !d.rLoading
	}
	if ready {
		return t.confirm(action, p, d.refunds)
	}
	t.preparing[p.ID] = action
	owner, b := t.owner, t.d.Backend
	read := p
	cmd := func() tea.Msg {
		ctx := context.Background()
		full, err := b.GetPayment(ctx, read.ID)
		if err != nil {
			return prepareMsg{owner: owner, action: action, p: read, err: err}
		}
		msg := prepareMsg{owner: owner, action: action, p: full}
		if action == keys.ActRefund && full.Status == backend.PaymentSettled {
			msg.refunds, msg.err = b.RefundsOfPayment(ctx, full)
		}
		return msg
	}
	if action == keys.ActRefund {
		return tea.Batch(toastCmd(ui.ToastInfo, "checking refunds…"), cmd)
	}
	return cmd
}

func (t *Payments) onPrepared(msg prepareMsg) tea.Cmd {
	if msg.owner != t.owner {
		return nil
	}
	if t.preparing[msg.p.ID] != msg.action {
		return nil
	}
	delete(t.preparing, msg.p.ID)
	ai := actionInfos[msg.action]
	if msg.err != nil {
		text := "Could not check payment " + textsafe.Clean(msg.p.ID) + " before " + ai.noun + ": " + errText(msg.err)
		if h := hintOf(msg.err); h != "" {
			text += " — " + h
		}
		return toastCmd(ui.ToastError, text)
	}
	now := t.d.now()
	t.list.upsertOne(msg.p, msg.p.MerchantID, now)
	if d := t.det; d != nil && d.p.ID == msg.p.ID {
		d.p, d.rawLines, d.err = msg.p, nil, nil
		if msg.action == keys.ActRefund && msg.p.Status == backend.PaymentSettled {
			d.refunds, d.rLoaded, d.rErr = msg.refunds, true, nil
		}
	}
	ok, why := t.availableFor(msg.action, msg.p)
	if ok && msg.action == keys.ActRefund {
		if _, left := refundable(msg.p, msg.refunds); !left.Value.IsPositive() {
			ok, why = false, "nothing is left to refund of payment "+textsafe.Clean(msg.p.ID)
		}
	}
	if !ok {
		return toastCmd(ui.ToastWarning, why)
	}
	return t.confirm(msg.action, msg.p, msg.refunds)
}

// confirm asks the shell for the confirmation dialog of an action on p.
func (t *Payments) confirm(action string, p backend.Payment, refunds []backend.Refund) tea.Cmd {
	ai := actionInfos[action]
	c := textsafe.Clean
	id := c(p.ID)
	iface := t.carrier()
	order := c(p.OrderNo)
	if order == "" {
		order = "none"
	}
	lines := []string{
		"Payment " + id + " · order " + order + " · merchant " + c(p.MerchantID),
		"Customer: " + customerText(p),
	}
	spec := ui.ConfirmSpec{Verb: ai.verb}
	switch action {
	case keys.ActCapture:
		spec.Title = "Capture payment " + id
		lines = append(lines,
			"Authorized: "+fmtAmount(p.Amount),
			"The amount below is charged; the rest of the hold is released.",
			"Sent through: "+iface)
		spec.Amount = &ui.AmountField{Label: "Amount to capture", Value: p.Amount, Max: p.Amount.Value, MaxLabel: "authorized"}
	case keys.ActCancelHold:
		spec.Title = "Cancel the hold on payment " + id
		spec.Danger = true
		lines = append(lines,
			"Hold: "+fmtAmount(p.Amount)+" is released; nothing is charged.",
			"A released hold cannot be captured afterwards.",
			"Sent through: "+iface)
	case keys.ActRefund:
		spec.Title = "Refund payment " + id
		spec.Danger = true
		refunded, left := refundable(p, refunds)
		lines = append(lines,
			"Captured: "+fmtAmount(p.Amount)+" · refunded so far: "+fmtAmount(refunded),
			"Still refundable: "+fmtAmount(left))
		if p.InstrumentTitle != "" {
			lines = append(lines, "Goes back to: "+c(p.InstrumentTitle))
		}
		lines = append(lines, "Sent through: "+iface)
		spec.Amount = &ui.AmountField{Label: "Amount to refund", Value: left, Max: left.Value, MaxLabel: "still refundable"}
	}
	spec.Lines = lines
	spec.Confirm = t.confirmFunc(action, p)
	return msgCmd(ui.OpenConfirmMsg{Spec: spec})
}

// carrier names the interface that will carry an action.
func (t *Payments) carrier() string {
	ifs := t.d.Backend.Describe().Interfaces
	if slices.Contains(ifs, backend.V2) {
		return "v2 (the current interface)"
	}
	if slices.Contains(ifs, backend.V1) {
		return "v1 (the legacy interface)"
	}
	return "none configured"
}

func (t *Payments) carrierCode() string {
	if slices.Contains(t.d.Backend.Describe().Interfaces, backend.V2) {
		return string(backend.V2)
	}
	return string(backend.V1)
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

func idemKey(id string, a money.Amount) string {
	return id + "|" + a.Value.String() + "|" + a.Currency
}

// confirmFunc is the ConfirmSpec's Confirm. The shell calls it once, from
// its Update (the program's event loop, like this tab's Update), when the
// user confirms: it marks the action as under way at once, so it cannot be
// started twice, and returns the command that journals and sends it.
func (t *Payments) confirmFunc(action string, p backend.Payment) func(money.Amount) tea.Cmd {
	return func(amount money.Amount) tea.Cmd {
		if a, busy := t.inflight[p.ID]; busy {
			return toastCmd(ui.ToastWarning, actionInfos[a].noun+" of payment "+textsafe.Clean(p.ID)+" is being sent")
		}
		if amount.Currency == "" {
			amount.Currency = p.Amount.Currency
		}
		t.inflight[p.ID] = action
		var key string
		if action == keys.ActRefund {
			k := idemKey(p.ID, amount)
			key = t.idem[k]
			if key == "" {
				key = backend.NewIdempotencyKey()
				t.idem[k] = key
			}
		}
		return t.sendCmd(action, p, amount, key)
	}
}

// sendCmd journals the action as sent, sends it, journals the answer and
// reports the outcome. Nothing is sent when the first journal write fails.
func (t *Payments) sendCmd(action string, p backend.Payment, amount money.Amount, key string) tea.Cmd {
	owner, b, j, now := t.owner, t.d.Backend, t.d.Journal, t.d.now
	ai := actionInfos[action]
	entry := journal.Entry{
		Action: ai.journal, Phase: journal.PhaseSent, ObjectID: p.ID,
		Amount: amount.Value.StringFixed(money.Decimals(amount.Currency)), Currency: amount.Currency,
		Interface: t.carrierCode(), IdempotencyKey: key,
	}
	if action == keys.ActCancelHold {
		// A cancel has no amount of its own: the journal names the hold.
		entry.Amount = p.Amount.Value.StringFixed(money.Decimals(p.Amount.Currency))
		entry.Currency = p.Amount.Currency
		amount = p.Amount
	}
	return func() tea.Msg {
		res := actionMsg{owner: owner, action: action, id: p.ID, amount: amount, idemKey: key}
		entry.Time = now()
		if err := j.Record(entry); err != nil {
			res.err, res.notSent = err, true
			return res
		}
		ctx := context.Background()
		var err error
		switch action {
		case keys.ActCapture:
			a := amount
			res.p, err = b.CapturePayment(ctx, backend.CaptureRequest{PaymentID: p.ID, Amount: &a})
		case keys.ActCancelHold:
			res.p, err = b.CancelPayment(ctx, p.ID)
		case keys.ActRefund:
			res.refund, err = b.RefundPayment(ctx, backend.RefundRequest{PaymentID: p.ID, Amount: amount, IdempotencyKey: key})
		}
		answer := entry
		answer.Time = now()
		if err != nil {
			answer.Phase, answer.Error = journal.PhaseFailed, textsafe.Line(err.Error(), 500)
		} else {
			answer.Phase = journal.PhaseDone
			if action == keys.ActRefund {
				answer.Result = "refund " + res.refund.ID + " " + string(res.refund.Status)
			} else {
				answer.Result = string(res.p.Status)
			}
		}
		res.err = err
		res.journalErr = j.Record(answer)
		if err == nil && action == keys.ActRefund {
			// The payment and its refunds as they are now, for the row and
			// the pane; the refund is made whatever these reads say.
			if full, perr := b.GetPayment(ctx, p.ID); perr == nil {
				res.p = full
				res.refunds, res.refundsErr = b.RefundsOfPayment(ctx, full)
			} else {
				res.refundsErr = perr
			}
		}
		return res
	}
}

// onAction shows an action's outcome and updates the row and the pane.
func (t *Payments) onAction(msg actionMsg) tea.Cmd {
	if msg.owner != t.owner {
		return nil
	}
	if t.inflight[msg.id] == msg.action {
		delete(t.inflight, msg.id)
	}
	ai := actionInfos[msg.action]
	id := textsafe.Clean(msg.id)
	amt := fmtAmount(msg.amount)
	if msg.err != nil {
		var text string
		if msg.notSent {
			text = "Not sent: " + ai.noun + " of " + amt + " for payment " + id + " could not be written to the journal first: " + errText(msg.err)
		} else {
			text = strings.ToUpper(ai.noun[:1]) + ai.noun[1:] + " of " + amt + " for payment " + id + " failed: " + errText(msg.err)
			if h := hintOf(msg.err); h != "" {
				text += " — " + h
			}
			if msg.action == keys.ActRefund && !uncertain(msg.err) {
				delete(t.idem, idemKey(msg.id, msg.amount))
			}
		}
		if msg.journalErr != nil {
			text += " (the journal could not record the answer: " + errText(msg.journalErr) + ")"
		}
		return toastCmd(ui.ToastError, text)
	}

	var text string
	switch msg.action {
	case keys.ActCapture:
		text = "Captured " + amt + " of payment " + id + " — " + textsafe.Clean(string(msg.p.Status))
	case keys.ActCancelHold:
		text = "Hold of " + amt + " on payment " + id + " released — " + textsafe.Clean(string(msg.p.Status))
	case keys.ActRefund:
		delete(t.idem, idemKey(msg.id, msg.amount))
		text = "Refund " + textsafe.Clean(msg.refund.ID) + " of " + amt + " sent for payment " + id + " — " +
			textsafe.Clean(string(msg.refund.Status))
	}
	level := ui.ToastSuccess
	if msg.journalErr != nil {
		level = ui.ToastWarning
		text += " (but the journal could not record it: " + errText(msg.journalErr) + ")"
	}
	cmds := []tea.Cmd{toastCmd(level, text)}

	now := t.d.now()
	if msg.p.ID != "" {
		t.list.upsertOne(msg.p, msg.p.MerchantID, now)
	}
	if d := t.det; d != nil && d.p.ID == msg.id {
		if msg.p.ID != "" {
			d.p, d.rawLines = msg.p, nil
		}
		if msg.action == keys.ActRefund && msg.refundsErr == nil && msg.p.ID != "" {
			d.refunds, d.rLoaded, d.rErr = msg.refunds, true, nil
		} else {
			// Read the pane again: the action's answer may lack the v1
			// view, and the refunds may have moved.
			cmds = append(cmds, t.loadDetail(d.p, true))
		}
	}
	return tea.Batch(cmds...)
}

// uncertain reports whether an action's failure leaves its outcome unknown
// (no answer, or one that could not be read): a retry must then reuse the
// idempotency key.
func uncertain(err error) bool {
	switch backend.KindOf(err) {
	case backend.KindUnavailable, backend.KindMalformed, backend.KindUnknown:
		return true
	}
	return false
}
