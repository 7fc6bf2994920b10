package tab

import (
	tea "charm.land/bubbletea/v2"

	"paydash/ui"
)

// DialogSlot is where a tab and its parts (lists, panes) put the dialog a
// key opens (sort, copy, export, save): the shell takes it at once, right
// after the key's Update (ui.DialogOpener), so that a key typed in the
// same burst goes to the dialog, not to the screen behind it. A dialog
// sent as an OpenDialogMsg from a command would open only after the keys
// already queued, which would act on the list.
type DialogSlot struct {
	msg  ui.OpenDialogMsg
	full bool
}

// Open puts m in the slot; without a slot (a part used alone, in tests)
// it is sent the slow way.
func (s *DialogSlot) Open(m ui.Modal) tea.Cmd {
	if s == nil {
		return MsgCmd(ui.OpenDialogMsg{Modal: m})
	}
	s.msg, s.full = ui.OpenDialogMsg{Modal: m}, true
	return nil
}

// Take empties the slot (ui.DialogOpener's TakeDialog).
func (s *DialogSlot) Take() (ui.OpenDialogMsg, bool) {
	msg, full := s.msg, s.full
	*s = DialogSlot{}
	return msg, full
}
