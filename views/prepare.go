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
	owner  uint64
	ticket int
	act    keys.Action
	obj    any
	err    error
}

// readAgain reads the object of an action key in a command.
func readAgain[T any](owner uint64, ticket int, act keys.Action, read func(context.Context) (T, error)) tea.Cmd {
	return func() tea.Msg {
		obj, err := read(context.Background())
		return readAgainMsg{owner: owner, ticket: ticket, act: act, obj: obj, err: err}
	}
}

// capable is the part of the backend that says whether an action may be
// sent with these credentials.
type capable interface {
	Can(a backend.Action) (bool, string)
}

// mayAct says whether an action of kind can be sent at all: the
// credentials allow it (a read-only token does not) and a journal is open
// to record it.
func mayAct(src capable, j *journal.Journal, kind backend.Action) (bool, string) {
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
