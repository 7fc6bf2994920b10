package views

import (
	tea "charm.land/bubbletea/v2"

	"paydash/ui"
)

// dialogSlot is where a tab and its parts (lists, panes) put the dialog a
// key opens (sort, copy, export, save): the shell takes it at once, right
// after the key's Update (ui.DialogOpener), so that a key typed in the
// same burst goes to the dialog, not to the screen behind it. A dialog
// sent as an OpenModalMsg from a command would open only after the keys
// already queued, which would act on the list.
type dialogSlot struct{ m ui.Modal }

// open puts m in the slot; without a slot (a part used alone, in tests)
// it is sent the slow way.
func (s *dialogSlot) open(m ui.Modal) tea.Cmd {
	if s == nil {
		return msgCmd(ui.OpenModalMsg{Modal: m})
	}
	s.m = m
	return nil
}

// take empties the slot.
func (s *dialogSlot) take() ui.Modal {
	m := s.m
	s.m = nil
	return m
}

// TakeDialog implements ui.DialogOpener.
func (t *Payments) TakeDialog() ui.Modal { return t.dialogs.take() }

// TakeDialog implements ui.DialogOpener.
func (t *Refunds) TakeDialog() ui.Modal { return t.dialogs.take() }

// TakeDialog implements ui.DialogOpener.
func (t *Tokens) TakeDialog() ui.Modal { return t.dialogs.take() }

// TakeDialog implements ui.DialogOpener.
func (t *Stickers) TakeDialog() ui.Modal { return t.dialogs.take() }

// TakeDialog implements ui.DialogOpener.
func (t *Registers) TakeDialog() ui.Modal { return t.dialogs.take() }
