package views

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"paydash/backend"
	"paydash/backend/journal"
	"paydash/keys"
	"paydash/ui"
)

// readAgainMsg brings the object an action key was pressed on, read again
// before its confirmation opens, so that the dialog names it as it is now
// (a token revoked meanwhile, a sticker switched by a colleague).
type readAgainMsg struct {
	stamp  stamp // the tab's preparation's
	ticket int
	act    keys.Action
	obj    any
	err    error
}

// readAgain reads the object of an action key in a command, in the tab's
// preparation of ticket.
func readAgain[T any](prep *preparation, ticket int, act keys.Action, read func(context.Context) (T, error)) tea.Cmd {
	ctx, st := prep.begin(ticket)
	return func() tea.Msg {
		obj, err := read(ctx)
		return readAgainMsg{stamp: st, ticket: ticket, act: act, obj: obj, err: err}
	}
}

// preparation is a tab's read before an action's confirmation, while the
// shell's preparing dialog is on screen: one at a time. The dialog's give
// up (esc, ui.CancelActionMsg) cancels the read and its answer is dropped:
// no confirmation opens and nothing is said.
type preparation struct {
	reads  reader
	ticket int
}

// begin starts the read of ticket: its context and the stamp its answer
// carries.
func (p *preparation) begin(ticket int) (context.Context, stamp) {
	p.ticket = ticket
	return p.reads.next()
}

// giveUp cancels the read of ticket, if it is the one under way.
func (p *preparation) giveUp(ticket int) {
	if ticket == p.ticket {
		p.reads.stop()
	}
}

// answered reports whether an answer stamped s is the read under way's,
// and if so ends that read.
func (p *preparation) answered(s stamp) bool {
	if !p.reads.fresh(s) {
		return false
	}
	p.reads.stop()
	return true
}

// capable is the part of the backend that says whether an action may be
// sent with these credentials.
type capable interface {
	Can(a backend.ActionName) (bool, string)
}

// mayAct says whether an action of kind can be sent at all: the
// credentials allow it (a read-only token does not) and a journal is open
// to record it.
func mayAct(src capable, j *journal.Journal, kind backend.ActionName) (bool, string) {
	if ok, why := src.Can(kind); !ok {
		return false, why
	}
	if j == nil {
		return false, "no journal is open, so the action could not be recorded (see --journal)"
	}
	return true, ""
}

// couldNotRead is the refusal of an action whose object could not be read
// again before its confirmation.
func couldNotRead(ticket int, what string, err error) tea.Cmd {
	text := "Could not read " + what + ": " + backend.Reason(err)
	if h := hintOf(err); h != "" {
		text += " — " + h
	}
	return refusedCmd(ticket, ui.ToastError, text)
}
