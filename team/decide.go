package team

import (
	"slices"
	"strings"

	"paydash/backend"
	"paydash/backend/money"
)

// Verdict is what may happen to an action a person asks for.
type Verdict int

const (
	Denied        Verdict = iota // the person may not do it at all
	NeedsApproval                // a supervisor must approve it first
	Allowed                      // it is sent as soon as it is confirmed
)

func (v Verdict) String() string {
	switch v {
	case Allowed:
		return "allowed"
	case NeedsApproval:
		return "needs approval"
	}
	return "denied"
}

// Decision is a Verdict with its reason, a short sentence for a dialog.
type Decision struct {
	Verdict Verdict
	Reason  string
}

// amountless are the actions that move no money: revoking a card token,
// switching a sticker on or off, a link that saves a card.
var amountless = []backend.ActionName{
	backend.ActionRevokeToken, backend.ActionToggleSticker, backend.ActionCreateTokenization,
}

// reads are backend.ActionNames that are reads, not actions: whoever may
// look may do them.
var reads = []backend.ActionName{backend.ReadRefunds, backend.ReadRegisters}

// Decide says whether p may do an action of this kind on this amount
// (docs/team.md): a viewer never acts; a supervisor does anything; a
// support person does an action that moves no money, and one that does
// when its amount is at most their limit for its currency (its own, else
// "*"), else it needs a supervisor's approval. Every kind with an amount
// counts against the limit: a capture, a release of a hold and a refund
// move a customer's money, and a payment link or a sticker asks it of a
// customer. A kind paydash does not know needs approval unless amount is
// within the limit.
func (p Person) Decide(kind backend.ActionName, amount money.Amount) Decision {
	switch {
	case slices.Contains(reads, kind):
		return Decision{Allowed, "reading needs no approval"}
	case p.Role == Viewer:
		return Decision{Denied, p.Name + " is a viewer: viewers can look but not act"}
	case p.Role == Supervisor:
		return Decision{Allowed, "supervisors need no approval"}
	case p.Role != Support:
		return Decision{Denied, p.Name + " has no role: nobody without a role acts"}
	case slices.Contains(amountless, kind):
		return Decision{Allowed, "this moves no money: no approval needed"}
	}
	cur := strings.ToUpper(strings.TrimSpace(amount.Currency))
	if !amount.Value.IsPositive() || !money.ValidCurrency(cur) {
		return Decision{NeedsApproval, "the amount is not known: needs approval by a supervisor"}
	}
	limit, ok := p.Limits[cur]
	if !ok {
		limit, ok = p.Limits["*"]
	}
	switch {
	case !ok && len(p.Limits) == 0:
		return Decision{NeedsApproval, "you have no limits: every amount needs approval by a supervisor"}
	case !ok:
		return Decision{NeedsApproval, "you have no limit for " + cur + ": needs approval by a supervisor"}
	case limit.IsZero():
		return Decision{NeedsApproval, "every amount in " + cur + " needs approval by a supervisor"}
	}
	shown := money.Amount{Value: limit, Currency: cur}.Display()
	if amount.Value > limit {
		return Decision{NeedsApproval, "above your limit of " + shown + ": needs approval by a supervisor"}
	}
	return Decision{Allowed, "within your limit of " + shown}
}

// CanApprove reports whether p may approve a request made by requester
// (a name), and if not, why: only a supervisor approves, and never their
// own request.
func (p Person) CanApprove(requester string) (bool, string) {
	switch {
	case p.Role != Supervisor:
		return false, "only supervisors approve requests: " + p.Name + " is " + p.Role.words()
	case requester == p.Name:
		return false, "nobody approves their own request: another supervisor must"
	}
	return true, ""
}

// words names the role in a sentence: "a support person".
func (r Role) words() string {
	switch r {
	case Viewer:
		return "a viewer"
	case Support:
		return "a support person"
	case Supervisor:
		return "a supervisor"
	}
	return "without a role"
}
