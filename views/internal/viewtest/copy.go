package viewtest

import (
	"fmt"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/require"

	"paydash/ui"
)

// --- helpers -------------------------------------------------------------------

// flatten runs a command and the commands of the batches it returns.
func flatten(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	switch m := cmd().(type) {
	case nil:
		return nil
	case tea.BatchMsg:
		var out []tea.Msg
		for _, c := range m {
			out = append(out, flatten(c)...)
		}
		return out
	default:
		return []tea.Msg{m}
	}
}

// clipboardOf is the text a tea.SetClipboard command's message puts on the
// clipboard (Bubble Tea keeps the message type to itself).
func clipboardOf(msg tea.Msg) (string, bool) {
	if fmt.Sprintf("%T", msg) != "tea.setClipboardMsg" {
		return "", false
	}
	return fmt.Sprint(msg), true
}

// CopyChooser presses Y on the tab and returns the dialog it opens.
func (e *Env) CopyChooser() ui.Modal {
	e.T.Helper()
	e.Press("Y")
	opened := e.TakeModals()
	require.Len(e.T, opened, 1, "Y opens the copy chooser")
	require.NotNil(e.T, opened[0].Modal)
	return opened[0].Modal
}

// Choose presses keys in the chooser, the last of which closes it, and
// returns what it copied and the toast that says so.
func Choose(t *testing.T, m ui.Modal, keys ...string) (clip, toast string) {
	t.Helper()
	var cmd tea.Cmd
	for i, k := range keys {
		var closed bool
		m, cmd, closed = m.Update(KeyPress(k), GoldenNow)
		require.Equal(t, i == len(keys)-1, closed, "after %q", k)
	}
	clips, toasts := 0, 0
	for _, msg := range flatten(cmd) {
		if s, ok := clipboardOf(msg); ok {
			clip = s
			clips++
		}
		if cm, ok := msg.(ui.CopiedMsg); ok {
			toast = ui.CopiedText(cm, false)
			toasts++
		}
	}
	require.Equal(t, 1, clips, "one clipboard command")
	require.Equal(t, 1, toasts, "one toast")
	return clip, toast
}

// LastByArrows are the keys that choose the last of n fields by the arrows.
func LastByArrows(n int) []string {
	var ks []string
	for range n - 1 {
		ks = append(ks, "down")
	}
	return append(ks, "enter")
}

// Offered is the fields the chooser of fields shows.
func Offered(fields []ui.CopyField) []ui.CopyField { return ui.CopyFields(fields) }

func ChooserText(m ui.Modal) string { return ansi.Strip(m.View(120, 30)) }
