package tab

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"paydash/backend"
	"paydash/backend/journal"
	"paydash/keys"
	"paydash/ui"
)

// ReadAgainMsg brings the object an action key was pressed on, read again
// before its confirmation opens, so that the dialog names it as it is now
// (a token revoked meanwhile, a sticker switched by a colleague).
type ReadAgainMsg struct {
	Stamp  Stamp // the tab's preparation's
	Ticket int
	act    keys.Action
	Obj    any
	Err    error
}

// ReadAgain reads the object of an action key in a command, in the tab's
// Preparation of ticket.
func ReadAgain[T any](prep *Preparation, ticket int, act keys.Action, read func(context.Context) (T, error)) tea.Cmd {
	ctx, st := prep.Begin(ticket)
	return func() tea.Msg {
		obj, err := read(ctx)
		return ReadAgainMsg{Stamp: st, Ticket: ticket, act: act, Obj: obj, Err: err}
	}
}

// Preparation is a tab's read before an action's confirmation, while the
// shell's preparing dialog is on screen: one at a time. The dialog's give
// up (esc, ui.CancelActionMsg) cancels the read and its answer is dropped:
// no confirmation opens and nothing is said.
type Preparation struct {
	reads  Reader
	ticket int
}

// Begin starts the read of ticket: its context and the stamp its answer
// carries.
func (p *Preparation) Begin(ticket int) (context.Context, Stamp) {
	p.ticket = ticket
	return p.reads.Next()
}

// GiveUp cancels the read of ticket, if it is the one under way.
func (p *Preparation) GiveUp(ticket int) {
	if ticket == p.ticket {
		p.reads.Stop()
	}
}

// Answered reports whether an answer stamped s is the read under way's,
// and if so ends that read.
func (p *Preparation) Answered(s Stamp) bool {
	if !p.reads.Fresh(s) {
		return false
	}
	p.reads.Stop()
	return true
}

// capable is the part of the backend that says whether an action may be
// sent with these credentials.
type capable interface {
	Can(a backend.ActionName) (bool, string)
}

// MayAct says whether an action of kind can be sent at all: the
// credentials allow it (a read-only token does not) and a journal is open
// to record it.
func MayAct(src capable, j *journal.Journal, kind backend.ActionName) (bool, string) {
	if ok, why := src.Can(kind); !ok {
		return false, why
	}
	if j == nil {
		return false, "no journal is open, so the action could not be recorded (see --journal)"
	}
	return true, ""
}

// CouldNotRead is the refusal of an action whose object could not be read
// again before its confirmation.
func CouldNotRead(ticket int, what string, err error) tea.Cmd {
	text := "Could not read " + what + ": " + backend.Reason(err)
	if h := HintOf(err); h != "" {
		text += " — " + h
	}
	return RefusedCmd(ticket, ui.ToastError, text)
}

func RefusedCmd(ticket int, level ui.ToastLevel, text string) tea.Cmd {
	return MsgCmd(ui.CloseDialogMsg{Ticket: ticket, Level: level, Text: text})
}
