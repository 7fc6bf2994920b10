package approvals

import (
	"context"
	"errors"
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"paydash/backend/action"
	"paydash/backend/approval"
	"paydash/backend/money"
	"paydash/backend/textsafe"
	"paydash/keys"
	"paydash/team"
	"paydash/ui"
	"paydash/views/tab"
)

// actionKeys are approve (a) and reject (x).
func (a *Approvals) actionKeys() tab.KeyTable {
	target := func() string {
		if r, ok := a.Target(); ok {
			return "request of " + r.Requester + ": " + action.Describe(r.Action)
		}
		return ""
	}
	return tab.KeyTable{
		{Key: keys.ActApprove, When: a.canDecide(true), Start: a.startApprove, Target: target},
		{Key: keys.ActReject, When: a.canDecide(false), Start: a.startReject, Target: target},
	}
}

// canDecide says whether the selected request can be approved (or
// rejected) by this person now, and if not, why.
func (a *Approvals) canDecide(approve bool) func() (bool, string) {
	return func() (bool, string) {
		me, ok := a.t.Me()
		if !ok || me.Role != team.Supervisor {
			return false, "only a supervisor approves or rejects requests"
		}
		r, ok := a.Target()
		switch {
		case !ok:
			return false, "no request is selected"
		case r.State != approval.Waiting:
			return false, "this request is " + strings.ToLower(string(r.State)) + orEmpty(" by ", r.Decider)
		case !r.Expires.IsZero() && !a.Deps.TimeNow().Before(r.Expires):
			return false, "this request has expired"
		}
		if can, why := me.CanApprove(r.Requester); approve && !can {
			return false, why
		}
		if approve {
			if ok, why := a.Deps.Backend.Can(r.Action.Kind); !ok {
				return false, why
			}
		}
		return true, ""
	}
}

// startApprove reads the object again, so that the confirmation shows it
// as it is now.
func (a *Approvals) startApprove(ticket int) tea.Cmd {
	r, _ := a.Target()
	return tab.ReadAgain(&a.Prep, ticket, keys.ActApprove, func(ctx context.Context) (row, error) {
		return a.readObject(ctx, r)
	})
}

// confirmApproval opens the confirmation of an approval: the request
// exactly as filed, the object as read now, the amount fixed, and the
// typed digits above the threshold as for any money action.
func (a *Approvals) confirmApproval(msg tab.ReadAgainMsg) tea.Cmd {
	r, ok := msg.Obj.(row)
	if !ok || msg.Err != nil {
		return tab.CouldNotRead(msg.Ticket, "the request's object", msg.Err)
	}
	c := textsafe.Clean
	req := r.Action
	lines := []string{
		"Asked by " + c(r.Requester) + " at " + tab.FmtTime(r.Filed) + " (expires " + tab.FmtTime(r.Expires) + ")",
		"Action: " + action.Describe(req),
	}
	for _, l := range r.now {
		lines = append(lines, "Now: "+l)
	}
	if req.IdempotencyKey != "" {
		lines = append(lines, "Sent once, under the key fixed when it was asked: "+c(req.IdempotencyKey))
	}
	lines = append(lines, "Sent through: "+string(req.Interface))
	spec := ui.ConfirmSpec{Title: "Approve: " + action.Describe(req), Lines: lines, Verb: "Approve and send", Danger: true}
	if req.Amount.Value.IsPositive() {
		amount := req.Amount
		spec.Fixed = &amount
		if over, ok := a.Deps.TypedOverFor(amount.Currency); ok && len(req.ObjectID) >= 4 {
			spec.Check = &ui.TypedCheck{Over: over, Digits: req.ObjectID[len(req.ObjectID)-4:], Of: "payment " + c(req.ObjectID)}
		}
	}
	id := r.ID
	spec.Confirm = func(money.Amount) tea.Cmd { return a.claim(id) }
	return tab.MsgCmd(ui.ConfirmDialog(msg.Ticket, spec))
}

// claimedMsg is the answer of the store to an approval: the request is
// this session's to send, or someone else was first.
type claimedMsg struct {
	owner uint64
	req   approval.Request
	err   error
}

// claim takes the request for sending, in a command: of two supervisors
// approving at once, one gets it.
func (a *Approvals) claim(id string) tea.Cmd {
	store, me, key, owner := a.t.Approvals, a.t.Person, a.t.Fingerprint, a.Owner
	return func() tea.Msg {
		r, err := store.Claim(id, me, key)
		return claimedMsg{owner: owner, req: r, err: err}
	}
}

// claimed sends an approved request as it was filed; the store's claim
// has named both people on it (the asker, the approver and their key).
func (a *Approvals) claimed(msg claimedMsg) tea.Cmd {
	if msg.owner != a.Owner {
		return nil
	}
	if msg.err != nil {
		return tab.MsgCmd(ui.ErrorMsg{Err: fmt.Errorf("not sent: %w", msg.err), Sticky: true})
	}
	a.sending[msg.req.Action.ID] = msg.req.ID
	return a.Acts.Send(msg.req.Action)
}

// settle writes what became of an approved action into its request, which
// tells the person who asked.
func (a *Approvals) settle(over tab.OutcomeMsg) tea.Cmd {
	id, ok := a.sending[over.Req.ID]
	if !ok {
		return nil
	}
	delete(a.sending, over.Req.ID)
	store, text := a.t.Approvals, over.Out.Text(over.Req)
	return func() tea.Msg {
		if err := store.Settle(id, text, true); err != nil {
			return ui.ErrorMsg{Err: fmt.Errorf("the outcome (%s) could not be written to the request: %w", text, err)}
		}
		return nil
	}
}

// startReject asks for the reason.
func (a *Approvals) startReject(ticket int) tea.Cmd {
	r, _ := a.Target()
	store, me, key, id := a.t.Approvals, a.t.Person, a.t.Fingerprint, r.ID
	p := ui.NewTextPrompt(ui.TextPrompt{
		Title: "Reject: " + action.Describe(r.Action),
		Lines: []string{"Asked by " + textsafe.Clean(r.Requester) + " at " + tab.FmtTime(r.Filed) + ".",
			"Nothing is sent. " + textsafe.Clean(r.Requester) + " sees your reason."},
		Label:  "Reason",
		Opened: a.Deps.TimeNow(),
		Done: func(reason string) tea.Cmd {
			return func() tea.Msg {
				if _, err := store.Reject(id, me, key, reason); err != nil {
					return ui.ErrorMsg{Err: fmt.Errorf("not rejected: %w", err), Sticky: true}
				}
				return ui.ToastMsg{Level: ui.ToastInfo, Text: "Rejected; " + r.Requester + " is told why"}
			}
		},
	}, a.Deps.Keys, a.Theme)
	return tab.MsgCmd(ui.OpenDialogMsg{Ticket: ticket, Modal: p})
}

// rejected is the requester's news of a rejection.
func rejected(r approval.Request) error {
	return errors.New(r.Decider + " rejected your " + action.Describe(r.Action) + ": " + textsafe.Line(r.Reason, 200) + " — nothing was sent")
}

func orEmpty(prefix, s string) string {
	if s == "" {
		return ""
	}
	return prefix + s
}

func shortID(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}
