package viewtest

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/require"

	"paydash/ui"
)

// Ctrl is a key press with ctrl held: ctrl('s') is ctrl+s.
func Ctrl(r rune) tea.KeyPressMsg { return tea.KeyPressMsg{Code: r, Mod: tea.ModCtrl} }

// OpenModal returns the dialog the tab asked the shell to open, driven as
// the shell drives it (create_test.go's dialog).
func (e *Env) OpenModal() *Dialog {
	e.T.Helper()
	opened := e.TakeModals()
	require.Len(e.T, opened, 1, "one dialog; the shell got %v", e.Shell)
	return &Dialog{E: e, M: opened[0].Modal, Now: e.Now()}
}

// SaveTo replaces the save dialog's path with p and presses enter; the
// Dialog's commands run to their end.
func (d *Dialog) SaveTo(p string) {
	d.E.T.Helper()
	d.Clear()
	d.Typ(p)
	d.Press("enter")
}

// Saved is the "Saved …" toast the save dialog sent, and forgets the toasts.
func (e *Env) Saved() string {
	e.T.Helper()
	for _, t := range e.Toasts() {
		if t.Level == ui.ToastSuccess && strings.HasPrefix(t.Text, "Saved ") {
			return t.Text
		}
	}
	require.FailNow(e.T, "no Saved toast", "the shell got %v", e.Shell)
	return ""
}
