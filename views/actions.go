package views

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"paydash/backend"
	"paydash/backend/action"
	"paydash/backend/money"
	"paydash/backend/textsafe"
	"paydash/keys"
	"paydash/ui"
)

// The Payments tab's money actions (issue 7). The life cycle of one:
//
//	action key   the shell shows a "preparing" dialog at once and sends ActionMsg;
//	prepare      the payment (and, for a refund, its refunds) is read again, so the
//	             dialog names it as it is now; the dialog is bound to it;
//	y            Confirm marks the action as being sent on its payment, so nothing
//	             else can be sent on it, and the runner journals and sends it;
//	answer       done, refused (shown whole, kept above the status bar), or
//	             unknown: then it is found out (action.Runner.Check), again and
//	             again while the service cannot say, and never shown as a failure.
//
// Actions left without an outcome by an earlier run (Deps.Pending) are
// found out the same way at start, with a notice listing them.

// actionInfo describes one of the tab's actions.
type actionInfo struct {
	kind     backend.Action
	backend  backend.Action
	verb     string // the confirm button's verb ("Refund 500.00 RUB")
	noun     string // "the release of the hold" in "Could not read payment … before …"
	doing    string // the row's status while it is sent ("→ refunding")
	title    string // the dialog's title, %s = the payment id
	required backend.PaymentStatus
	wrong    string // the wrong-state reason, %s = the current status
}

var actionInfos = map[keys.Action]actionInfo{
	keys.ActCapture: {backend.ActionCapture, backend.ActionCapture, "Capture", "the capture", "capturing", "Capture payment %s",
		backend.PaymentAuthorized, "only an Authorized payment can be captured (this one is %s)"},
	keys.ActCancelHold: {backend.ActionCancelHold, backend.ActionCancelHold, "Release", "the release of its hold", "releasing", "Cancel the hold on payment %s",
		backend.PaymentAuthorized, "only an Authorized payment's hold can be cancelled (this one is %s)"},
	keys.ActRefund: {backend.ActionRefund, backend.ActionRefund, "Refund", "the refund", "refunding", "Refund payment %s",
		backend.PaymentSettled, "only a Settled payment can be refunded (this one is %s)"},
}

// tracked is an action of this tab whose outcome is not known yet.
type tracked struct {
	req   action.Request
	state trackState
	why   string // unknown: why (the lost answer, the failed check)
	tries int    // checks made
	// fromStart: left by an earlier run; its outcome goes to the notice.
	fromStart bool
}

type trackState int

const (
	stateSending  trackState = iota // sent, the answer awaited
	stateChecking                   // the answer was lost: being found out
	stateStuck                      // cannot be found out automatically: the user must look
)

// checkAfter is how long to wait before the check number tries+1 of an
// unknown outcome: the first after two seconds (a lost answer is usually
// a blip, and a request still on its way should have landed by then),
// then doubling up to a minute while the service cannot say. A variable
// so that tests need not wait.
var checkAfter = func(tries int) time.Duration {
	return min(2*time.Second<<min(tries, 5), time.Minute)
}

// Messages of the actions.
type (
	// prepareMsg brings a payment read in full (and its refunds) before its
	// confirmation opens.
	prepareMsg struct {
		owner   uint64
		ticket  int
		action  keys.Action
		id      string
		p       backend.Payment
		refunds []backend.Refund
		err     error
	}
	// outcomeMsg is what became of an action: its answer, or a check.
	outcomeMsg struct {
		owner uint64
		req   action.Request
		out   action.Outcome
	}
	// checkDueMsg: time to find out an unknown outcome again.
	checkDueMsg struct {
		owner uint64
		id    string // the action's id
	}
)

// Available implements ui.Tab.
func (t *Payments) Available(act keys.Action) (bool, string) {
	switch act {
	case keys.ActCapture, keys.ActCancelHold, keys.ActRefund:
		p, ok := t.target()
		if !ok {
			return false, "no payment is selected"
		}
		return t.availableFor(act, p)
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
// action under way or of unknown outcome on it, the payment's state.
func (t *Payments) availableFor(act keys.Action, p backend.Payment) (bool, string) {
	ai := actionInfos[act]
	if ok, why := t.src.Can(ai.backend); !ok {
		return false, why
	}
	if t.d.Journal == nil {
		return false, "no journal is open, so the action could not be recorded (see --journal)"
	}
	if tr := t.trackedOn(p.ID); tr != nil {
		return false, tr.busyReason()
	}
	if p.Status != ai.required {
		return false, fmt.Sprintf(ai.wrong, textsafe.Clean(string(p.Status)))
	}
	if act == keys.ActRefund && t.detail.isOpen() && t.detail.obj.ID == p.ID && t.refunds.loaded && t.refunds.err == nil {
		refunded, left := refundable(p, t.refunds.items)
		if !left.Value.IsPositive() {
			return false, "nothing is left to refund (" + fmtAmount(refunded) + " already refunded)"
		}
	}
	return true, ""
}

// busyReason is why no other action may be sent on the payment now.
func (tr *tracked) busyReason() string {
	what := action.Describe(tr.req)
	switch tr.state {
	case stateSending:
		return "the " + what + " is being sent; wait for its answer"
	case stateChecking:
		return "the outcome of the " + what + " (sent " + fmtClock(tr.req.Sent) +
			") is not known yet; paydash is finding it out with the service"
	}
	return "the outcome of the " + what + " (sent " + fmtClock(tr.req.Sent) + ") could not be found out: " +
		tr.why + "; check the payment by hand, then restart paydash"
}

func fmtClock(t time.Time) string {
	if t.IsZero() {
		return "earlier"
	}
	if t.Local().YearDay() != time.Now().Local().YearDay() {
		return t.Local().Format("02 Jan 15:04:05")
	}
	return t.Local().Format("15:04:05")
}

// actionLines say, at the top of the pane, what is under way on the
// payment: short lines, since the pane may be narrow.
func actionLines(tr *tracked) []string {
	what := action.Describe(tr.req)
	what = strings.ToUpper(what[:1]) + what[1:]
	switch tr.state {
	case stateSending:
		return []string{"→ " + what, "  being sent, the answer awaited"}
	case stateChecking:
		return []string{"? " + what, "  outcome unknown: finding it out", "  (" + tr.why + ")"}
	}
	return []string{"✗ " + what, "  outcome unknown: " + tr.why, "  check the payment by hand"}
}

// trackedOn is the action not yet over on a payment, nil when none.
func (t *Payments) trackedOn(paymentID string) *tracked {
	for _, tr := range t.actions {
		if tr.req.ObjectID == paymentID {
			return tr
		}
	}
	return nil
}

// ActionTarget names what an action key would act on, for the preparing
// dialog (the shell asks while the key is pressed).
func (t *Payments) ActionTarget(act keys.Action) string {
	p, ok := t.target()
	ai, known := actionInfos[act]
	if !ok || !known {
		return ""
	}
	return fmt.Sprintf(ai.title, textsafe.Clean(p.ID))
}

// startAction prepares the confirmation of an action on the payment the
// key was pressed on: it reads the payment (and a refund's refunds) again,
// so that the dialog shows it as it is now.
func (t *Payments) startAction(act keys.Action, ticket int) tea.Cmd {
	p, ok := t.target()
	if !ok {
		return refusedCmd(ticket, ui.ToastWarning, "no payment is selected")
	}
	if ok, why := t.availableFor(act, p); !ok {
		return refusedCmd(ticket, ui.ToastWarning, why)
	}
	owner, b, id := t.owner, t.src, p.ID
	return func() tea.Msg {
		ctx := context.Background()
		msg := prepareMsg{owner: owner, ticket: ticket, action: act, id: id}
		msg.p, msg.err = b.GetPayment(ctx, id)
		if msg.err == nil && act == keys.ActRefund && msg.p.Status == backend.PaymentSettled {
			msg.refunds, msg.err = b.RefundsOfPayment(ctx, msg.p)
		}
		return msg
	}
}

func refusedCmd(ticket int, level ui.ToastLevel, text string) tea.Cmd {
	return msgCmd(ui.ActionRefusedMsg{Ticket: ticket, Level: level, Text: text})
}

func (t *Payments) onPrepared(msg prepareMsg) tea.Cmd {
	if msg.owner != t.owner {
		return nil
	}
	ai := actionInfos[msg.action]
	id := textsafe.Clean(msg.id)
	if msg.err != nil {
		text := "Could not read payment " + id + " before " + ai.noun + ": " + backend.Reason(msg.err)
		if h := hintOf(msg.err); h != "" {
			text += " — " + h
		}
		return refusedCmd(msg.ticket, ui.ToastError, text)
	}
	now := t.d.now()
	t.list.upsert(msg.p, now)
	if d := t.detail; d.isOpen() && d.obj.ID == msg.p.ID {
		d.set(msg.p)
		d.err = nil
		if msg.action == keys.ActRefund && msg.p.Status == backend.PaymentSettled {
			t.refunds = paneRefunds{items: msg.refunds, loaded: true}
		}
	}
	ok, why := t.availableFor(msg.action, msg.p)
	if ok && msg.action == keys.ActRefund {
		if _, left := refundable(msg.p, msg.refunds); !left.Value.IsPositive() {
			ok, why = false, "nothing is left to refund of payment "+id
		}
	}
	if !ok {
		return refusedCmd(msg.ticket, ui.ToastWarning, why)
	}
	return msgCmd(ui.OpenConfirmMsg{Ticket: msg.ticket, Spec: t.confirmSpec(msg.action, msg.p, msg.refunds)})
}

// confirmSpec is the confirmation of an action on p, in words that leave
// no doubt; its Confirm sends exactly what the dialog shows, on p.
func (t *Payments) confirmSpec(act keys.Action, p backend.Payment, refunds []backend.Refund) ui.ConfirmSpec {
	ai := actionInfos[act]
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
	spec := ui.ConfirmSpec{Title: fmt.Sprintf(ai.title, id), Verb: ai.verb}
	amount := p.Amount
	switch act {
	case keys.ActCapture:
		lines = append(lines,
			"Authorized: "+fmtAmount(p.Amount)+"; the amount below is charged, the rest of the hold released.")
		spec.Amount = &ui.AmountField{Label: "Amount to capture", Value: p.Amount, Max: p.Amount.Value, MaxLabel: "authorized"}
	case keys.ActCancelHold:
		spec.Danger = true
		lines = append(lines,
			"Hold: "+fmtAmount(p.Amount)+" is released; nothing is charged.",
			"A released hold cannot be captured afterwards.")
		spec.Fixed = &amount
	case keys.ActRefund:
		spec.Danger = true
		refunded, left := refundable(p, refunds)
		lines = append(lines,
			"Captured: "+fmtAmount(p.Amount)+" · refunded so far: "+fmtAmount(refunded)+" · left: "+fmtAmount(left))
		if p.InstrumentTitle != "" {
			lines = append(lines, "Goes back to: "+c(p.InstrumentTitle))
		}
		spec.Amount = &ui.AmountField{Label: "Amount to refund", Value: left, Max: left.Value, MaxLabel: "still refundable"}
	}
	lines = append(lines, "Sent through: "+t.carrier())
	if over, ok := t.typedOver(p.Amount.Currency); ok && len(p.ID) >= 4 {
		spec.Check = &ui.TypedCheck{Over: over, Digits: p.ID[len(p.ID)-4:], Of: "payment " + id}
	}
	spec.Lines = lines
	spec.Confirm = t.confirmFunc(act, p)
	return spec
}

// typedOver is the amount above which a confirmation in currency asks for
// typed digits: the currency's own, else the one for every currency ("*").
func (t *Payments) typedOver(currency string) (money.Decimal, bool) {
	if over, ok := t.d.TypedOver[strings.ToUpper(currency)]; ok {
		return over, true
	}
	over, ok := t.d.TypedOver["*"]
	return over, ok
}

// carrier names the interface that will carry an action.
func (t *Payments) carrier() string {
	if t.via == backend.V2 {
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

// confirmFunc is the ConfirmSpec's Confirm. The shell calls it once, from
// its Update (the program's event loop, like this tab's Update), when the
// user confirms: it marks the action as under way on p at once, so that
// nothing else can be sent on p, and returns the command that journals and
// sends it.
func (t *Payments) confirmFunc(act keys.Action, p backend.Payment) func(money.Amount) tea.Cmd {
	return func(amount money.Amount) tea.Cmd {
		if tr := t.trackedOn(p.ID); tr != nil {
			return toastCmd(ui.ToastWarning, "Not sent: "+tr.busyReason())
		}
		if amount.Currency == "" {
			amount = p.Amount // a cancel: the hold it releases, for the record
		}
		req := action.New(actionInfos[act].kind, p.ID, amount, t.via)
		t.track(&tracked{req: req, state: stateSending})
		return t.sendCmd(req)
	}
}

// track notes an action not yet over, and draws its row again.
func (t *Payments) track(tr *tracked) {
	t.actions[tr.req.ID] = tr
	t.list.table.Redraw(tr.req.ObjectID)
}

// untrack forgets an action that is over.
func (t *Payments) untrack(req action.Request) {
	delete(t.actions, req.ID)
	t.list.table.Redraw(req.ObjectID)
}

// sendCmd journals and sends an action. Its outcome comes back at once:
// reading the pane again after it is the pane's business (showPayment).
func (t *Payments) sendCmd(req action.Request) tea.Cmd {
	owner, run := t.owner, t.run
	return func() tea.Msg {
		sent, out := run.Send(context.Background(), req)
		return outcomeMsg{owner: owner, req: sent, out: out}
	}
}

// checkCmd finds out what became of an action whose answer was lost.
func (t *Payments) checkCmd(req action.Request) tea.Cmd {
	owner, run := t.owner, t.run
	return func() tea.Msg {
		return outcomeMsg{owner: owner, req: req, out: run.Check(context.Background(), req)}
	}
}

// checkLater asks for another check of tr after a delay that grows with
// its tries.
func (t *Payments) checkLater(tr *tracked) tea.Cmd {
	owner, id := t.owner, tr.req.ID
	return tea.Tick(checkAfter(tr.tries), func(time.Time) tea.Msg { return checkDueMsg{owner: owner, id: id} })
}

func (t *Payments) onCheckDue(msg checkDueMsg) tea.Cmd {
	if msg.owner != t.owner {
		return nil
	}
	tr, ok := t.actions[msg.id]
	if !ok || tr.state != stateChecking {
		return nil
	}
	tr.tries++
	return t.checkCmd(tr.req)
}

// onOutcome shows what became of an action, in the toast, the error line,
// the row, the pane and (for one of an earlier run) the notice.
func (t *Payments) onOutcome(msg outcomeMsg) tea.Cmd {
	if msg.owner != t.owner {
		return nil
	}
	tr, ok := t.actions[msg.req.ID]
	if !ok {
		return nil
	}
	tr.req = msg.req
	out := msg.out
	text := out.Text(msg.req)
	if out.JournalErr != nil {
		text += " (the journal could not record it: " + errText(out.JournalErr) + ")"
	}
	var cmds []tea.Cmd
	switch out.State {
	case action.Unknown:
		wasSending := tr.state == stateSending
		tr.state, tr.why = stateChecking, reasonOf(out.Err)
		if !out.Retry {
			tr.state = stateStuck
		}
		t.list.table.Redraw(msg.req.ObjectID)
		switch {
		case tr.fromStart:
			cmds = append(cmds, t.noticeCmd(tr, ui.ToastWarning, text))
		case wasSending || tr.state == stateStuck:
			cmds = append(cmds, toastCmd(ui.ToastWarning, text))
		}
		if tr.state == stateStuck {
			cmds = append(cmds, msgCmd(ui.ErrorMsg{Err: errors.New(text), Sticky: true,
				Hint: "look at the payment's refunds in the merchant portal; paydash will not send it again"}))
		} else {
			cmds = append(cmds, t.checkLater(tr))
		}
		return tea.Batch(cmds...)
	case action.Done:
		t.untrack(msg.req)
		level := ui.ToastSuccess
		if out.JournalErr != nil {
			level = ui.ToastWarning
		}
		cmds = append(cmds, toastCmd(level, text))
	case action.NotDone:
		t.untrack(msg.req)
		if !tr.fromStart { // one of the last run is news for the notice, not this session's failure
			cmds = append(cmds, msgCmd(ui.ErrorMsg{Err: errors.New(text), Hint: hintOf(out.Err), Sticky: true}))
		}
	}
	if tr.fromStart {
		level := ui.ToastSuccess
		if out.State == action.NotDone {
			level = ui.ToastInfo
		}
		cmds = append(cmds, t.noticeCmd(tr, level, text))
	}
	cmds = append(cmds, t.showPayment(msg))
	return tea.Batch(cmds...)
}

// showPayment puts the payment an action's outcome brought into the row,
// and reads the pane on it again: the answer may lack the v1 view, and
// the refunds have moved.
func (t *Payments) showPayment(msg outcomeMsg) tea.Cmd {
	p := msg.out.Payment
	if p.ID != "" {
		t.list.upsert(p, t.d.now())
	}
	d := t.detail
	if !d.isOpen() || d.obj.ID != msg.req.ObjectID {
		return nil
	}
	if p.ID != "" {
		d.set(p)
	}
	return t.reloadDetail()
}

func reasonOf(err error) string {
	if err == nil {
		return "no answer"
	}
	return backend.Reason(err)
}

// --- actions of an earlier run ---------------------------------------------

// noticeTitle heads the notice of the actions found without an outcome.
const noticeTitle = "Actions left without an outcome when paydash last stopped"

func (t *Payments) noticeCmd(tr *tracked, level ui.ToastLevel, text string) tea.Cmd {
	return msgCmd(ui.NoticeMsg{Title: noticeTitle, ID: tr.req.ID, Level: level, Text: text})
}

// adopt takes the actions an earlier run left without an outcome: each
// blocks its payment from the start until it is found out (resume).
func (t *Payments) adopt(pending []action.Request) {
	for _, req := range pending {
		switch req.Kind {
		case backend.ActionCapture, backend.ActionCancelHold, backend.ActionRefund:
			t.track(&tracked{req: req, state: stateChecking, fromStart: true})
		}
	}
}

// resume starts finding out what became of the actions of an earlier run,
// with a notice that lists them.
func (t *Payments) resume() tea.Cmd {
	var open []*tracked
	for _, tr := range t.actions {
		if tr.fromStart && tr.tries == 0 {
			open = append(open, tr)
		}
	}
	slices.SortFunc(open, func(a, b *tracked) int { return a.req.Sent.Compare(b.req.Sent) })
	var cmds []tea.Cmd
	for _, tr := range open {
		tr.tries++
		req := tr.req
		text := strings.ToUpper(action.Describe(req)[:1]) + action.Describe(req)[1:] +
			", sent " + fmtClock(req.Sent) + " through " + string(req.Interface) + ": finding out what became of it…"
		cmds = append(cmds, t.noticeCmd(tr, ui.ToastInfo, text), t.checkCmd(req))
	}
	return tea.Batch(cmds...)
}

// abandon journals the actions still awaiting their answer as abandoned:
// paydash is stopping without it (the next start finds out).
func (t *Payments) abandon() tea.Cmd {
	var reqs []action.Request
	for _, tr := range t.actions {
		if tr.state == stateSending {
			reqs = append(reqs, tr.req)
		}
	}
	if len(reqs) == 0 {
		return nil
	}
	run := t.run
	return func() tea.Msg {
		for _, req := range reqs {
			_ = run.Abandon(req, "paydash stopped before the answer came")
		}
		return nil
	}
}
