package views

import (
	tea "charm.land/bubbletea/v2"

	"paydash/backend"
	"paydash/backend/action"
)

// changedMsg says that an action of this paydash is over, done: it changed
// an object or made one. The shell hands a message it does not know to
// every tab, so every tab hears it and brings what it shows of those
// objects up to date at once, from what the service answered or read
// after the outcome: the Refunds tab shows (and selects) a refund made in
// the Payments tab, the Tokens tab a token revoked from a payment's pane,
// the payment's pane the state of its token revoked in the Tokens tab.
// The tab that acted (from) has shown the outcome itself.
type changedMsg struct {
	from uint64
	over outcomeMsg
}

// changed is the changedMsg of an action over, nil when it was not done.
func changed(from uint64, over outcomeMsg) tea.Cmd {
	if over.out.State != action.Done {
		return nil
	}
	return msgCmd(changedMsg{from: from, over: over})
}

// madeRefund is the refund an action made, if it made one.
func (m changedMsg) madeRefund() (backend.Refund, bool) {
	r := m.over.out.Refund
	made, ok := action.KindOf(m.over.req.Kind).Made(m.over.req, m.over.out)
	return r, ok && made.Type == action.ObjectRefund && r.ID != ""
}

// revokedToken is the id of the token an action revoked (the token its
// kind locks: only a revoke acts on a token), "" when none.
func (m changedMsg) revokedToken() string {
	k := action.KindOf(m.over.req.Kind)
	if ref, ok := k.Locks(m.over.req); ok && ref.Type == action.ObjectToken {
		return ref.ID
	}
	return ""
}

// paneTokenMsg brings the token of the payment in the pane, read with the
// pane so that its Token section shows the token's state (Active,
// Revoked, …) whatever the Tokens tab knew of it.
type paneTokenMsg struct {
	stamp    stamp // the pane's read it was asked in
	merchant string
	tok      backend.Token
	err      error
}
