package ui

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/keys"
)

// openerTab opens a dialog on "s", the way the tabs open the sort chooser
// and the save dialog (DialogOpener).
type openerTab struct {
	*fakeTab
	pending Modal
}

func (t *openerTab) Update(msg tea.Msg) (Tab, tea.Cmd) {
	t.fakeTab.Update(msg)
	if k, ok := msg.(tea.KeyPressMsg); ok && k.String() == "s" {
		t.pending = &keyRecorder{}
	}
	return t, nil
}

func (t *openerTab) TakeDialog() (OpenDialogMsg, bool) {
	m := t.pending
	t.pending = nil
	return OpenDialogMsg{Modal: m}, m != nil
}

// keyRecorder is a dialog that keeps the keys it gets.
type keyRecorder struct{ keys []string }

func (r *keyRecorder) Update(msg tea.Msg, _ time.Time) (Modal, tea.Cmd, bool) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		r.keys = append(r.keys, k.String())
	}
	return r, nil, false
}
func (r *keyRecorder) View(int, int) string  { return "recorder" }
func (r *keyRecorder) Context() keys.Context { return keys.ContextModal }

// A key typed right after the one that opens a dialog (in the same burst,
// before any command could run) goes to the dialog, never to the list
// behind it: "s" then "c" must not become "capture".
func TestADialogOpenedOnAKeyTakesTheNextKey(t *testing.T) {
	ta := newTestApp(t)
	tab := &openerTab{fakeTab: ta.tabs[0]}
	ta.App.tabs[0] = tab

	ta.press("s", "c")

	rec, ok := ta.modal.(*keyRecorder)
	require.True(t, ok, "the dialog is open at once, without a command")
	assert.Equal(t, []string{"c"}, rec.keys)
	assert.Equal(t, []string{"s"}, keysOf(tab.fakeTab), "the tab got only the key that opened the dialog")
	assert.Empty(t, msgsOf[ActionMsg](tab.fakeTab), "c did not start a capture")
}

// A second dialog never stacks on the first: a tab's dialog while another
// is open is dropped.
func TestATabsDialogDoesNotStackOnAnOpenOne(t *testing.T) {
	ta := newTestApp(t)
	tab := &openerTab{fakeTab: ta.tabs[0]}
	ta.App.tabs[0] = tab
	first := &keyRecorder{}
	ta.openModal(first)
	tab.pending = &keyRecorder{}
	ta.send(RefreshMsg{}) // any message the tab handles
	ta.send(TickMsg{})
	assert.Same(t, first, ta.modal)
}
