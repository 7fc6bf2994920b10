package tab

import (
	tea "charm.land/bubbletea/v2"

	"paydash/backend"
	"paydash/backend/action"
)

// ChangedMsg says that an action of this paydash is over, done: it changed
// an object or made one. The shell hands a message it does not know to
// every tab, so every tab hears it and brings what it shows of those
// objects up to date at once, from what the service answered or read
// after the outcome: the Refunds tab shows (and selects) a refund made in
// the Payments tab, the Tokens tab a token revoked from a payment's pane,
// the payment's pane the state of its token revoked in the Tokens tab.
// The tab that acted (from) has shown the outcome itself.
type ChangedMsg struct {
	From uint64
	Over OutcomeMsg
}

// Changed is the changedMsg of an action over, nil when it was not done.
func Changed(from uint64, over OutcomeMsg) tea.Cmd {
	if over.Out.State != action.Done {
		return nil
	}
	return MsgCmd(ChangedMsg{From: from, Over: over})
}

// MadeRefund is the refund an action made, if it made one.
func (m ChangedMsg) MadeRefund() (backend.Refund, bool) {
	r := m.Over.Out.Refund
	made, ok := action.KindOf(m.Over.Req.Kind).Made(m.Over.Req, m.Over.Out)
	return r, ok && made.Type == action.ObjectRefund && r.ID != ""
}

// RevokedToken is the id of the token an action revoked (the token its
// kind locks: only a revoke acts on a token), "" when none.
func (m ChangedMsg) RevokedToken() string {
	k := action.KindOf(m.Over.Req.Kind)
	if ref, ok := k.Locks(m.Over.Req); ok && ref.Type == action.ObjectToken {
		return ref.ID
	}
	return ""
}

// PaneTokenMsg brings the token of the payment in the pane, read with the
// pane so that its Token section shows the token's state (Active,
// Revoked, …) whatever the Tokens tab knew of it.
type PaneTokenMsg struct {
	Stamp    Stamp // the pane's read it was asked in
	Merchant string
	Tok      backend.Token
	Err      error
}
