package tab

import (
	"fmt"
	"sync"

	tea "charm.land/bubbletea/v2"

	"paydash/backend"
	"paydash/backend/action"
	"paydash/backend/approval"
	"paydash/backend/money"
	"paydash/team"
	"paydash/ui"
)

// Team is what a dashboard served to a team (paydash serve) knows of the
// person at it and of what the sessions share: the people (read again at
// every use, so that a reload applies at once), the approvals, and the
// objects being acted on in any session. Deps.Team is nil in the
// single-user paydash, which then acts as it always has.
type Team struct {
	Person      string // the person's name
	Fingerprint string // the key they came in with
	People      *team.Directory
	Approvals   *approval.Store
	Locks       *team.Locks

	mu      sync.Mutex
	held    map[string]bool // the locks this session holds, released when it ends
	closers []func()
}

// OnClose adds what ends with the session (a subscription).
func (t *Team) OnClose(f func()) {
	t.mu.Lock()
	t.closers = append(t.closers, f)
	t.mu.Unlock()
}

// Me is the person as the people file says now; ok is false once they
// were removed (the server then ends the session).
func (t *Team) Me() (team.Person, bool) { return t.People.Current().ByName(t.Person) }

// Decide is what the person may do with an action of kind on amount now.
func (t *Team) Decide(kind backend.ActionName, amount money.Amount) team.Decision {
	p, ok := t.Me()
	if !ok {
		return team.Decision{Verdict: team.Denied, Reason: "you are no longer in the people file"}
	}
	return p.Decide(kind, amount)
}

// Can says whether the person's role lets them start actions at all (a
// viewer's does not): the keys of the actions are greyed out with the
// reason otherwise.
func (t *Team) Can(kind backend.ActionName) (bool, string) {
	p, ok := t.Me()
	if !ok {
		return false, "you are no longer in the people file"
	}
	if p.Role == team.Viewer {
		return false, "you are a viewer: you can look, not act (the people file gives your role)"
	}
	return true, ""
}

// ApprovalNote is a confirmation's line for an amount that needs a
// supervisor's approval, "" when the person may send it themselves.
func (t *Team) ApprovalNote(kind backend.ActionName) func(money.Amount) string {
	if t == nil {
		return nil
	}
	return func(a money.Amount) string {
		d := t.Decide(kind, a)
		if d.Verdict != team.NeedsApproval {
			return ""
		}
		return d.Reason
	}
}

// LockKey is how an object is named in the locks shared by the sessions
// (and by the server, while it finds out an action left open).
func LockKey(ref ObjectRef) string { return ref.Kind + ":" + ref.ID }

// claim marks ref as acted on by this person in every session, or says
// who is acting on it.
func (t *Team) claim(ref ObjectRef) (ok bool, why string) {
	holder, ok := t.Locks.Claim(LockKey(ref), t.Person)
	if !ok {
		return false, fmt.Sprintf("%s is acting on it now", holder)
	}
	t.mu.Lock()
	if t.held == nil {
		t.held = map[string]bool{}
	}
	t.held[LockKey(ref)] = true
	t.mu.Unlock()
	return true, ""
}

// release ends this session's mark on ref.
func (t *Team) release(ref ObjectRef) {
	t.mu.Lock()
	had := t.held[LockKey(ref)]
	delete(t.held, LockKey(ref))
	t.mu.Unlock()
	if had {
		t.Locks.Release(LockKey(ref), t.Person)
	}
}

// Close releases every lock the session still holds (it ended with an
// action in doubt: the journal keeps it, and it is found out on the
// server).
func (t *Team) Close() {
	t.mu.Lock()
	held, closers := t.held, t.closers
	t.held, t.closers = nil, nil
	t.mu.Unlock()
	for k := range held {
		t.Locks.Release(k, t.Person)
	}
	for _, f := range closers {
		f()
	}
}

// gate is what Send asks first under paydash serve: the person is named
// on the request, and the action is sent (go), filed for a supervisor, or
// refused. An approved request (Approver set) is not decided again.
func (t *Team) gate(req action.Request) (action.Request, tea.Cmd, bool) {
	if req.Person == "" { // an approved request keeps the person who asked
		req.Person = t.Person
	}
	if req.Approver != "" {
		return req, nil, true
	}
	switch d := t.Decide(req.Kind, req.Amount); d.Verdict {
	case team.Denied:
		return req, ToastCmd(ui.ToastWarning, "Not sent: "+d.Reason), false
	case team.NeedsApproval:
		return req, t.file(req), false
	}
	return req, nil, true
}

// file files req for a supervisor's approval, in a command (the store
// writes its file), and says so; nothing is sent.
func (t *Team) file(req action.Request) tea.Cmd {
	store, person, key := t.Approvals, t.Person, t.Fingerprint
	return func() tea.Msg {
		if _, err := store.File(req, person, key); err != nil {
			return ui.ErrorMsg{Err: fmt.Errorf("not sent, and the request for approval could not be filed: %w", err), Sticky: true,
				Hint: "nothing was sent or asked; tell whoever runs paydash serve, and ask again once it can write its files"}
		}
		return ui.ToastMsg{Level: ui.ToastInfo, Text: "Not sent: asked a supervisor to approve the " + action.Describe(req) +
			"; their answer comes here (and in the Approvals tab, 6)"}
	}
}
