package keys

import (
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// press builds the key press Bubble Tea delivers for a key string, and
// checks that Bubble Tea would spell it so.
func press(t *testing.T, s string) tea.KeyPressMsg {
	t.Helper()
	named := map[string]tea.KeyPressMsg{
		"enter":     {Code: tea.KeyEnter},
		"esc":       {Code: tea.KeyEscape},
		"tab":       {Code: tea.KeyTab},
		"shift+tab": {Code: tea.KeyTab, Mod: tea.ModShift},
		"space":     {Code: ' ', Text: " "},
		"up":        {Code: tea.KeyUp},
		"down":      {Code: tea.KeyDown},
		"pgup":      {Code: tea.KeyPgUp},
		"pgdown":    {Code: tea.KeyPgDown},
		"home":      {Code: tea.KeyHome},
		"end":       {Code: tea.KeyEnd},
		"f5":        {Code: tea.KeyF5},
		"ctrl+c":    {Code: 'c', Mod: tea.ModCtrl},
		"ctrl+s":    {Code: 's', Mod: tea.ModCtrl},
		"ctrl+r":    {Code: 'r', Mod: tea.ModCtrl},
	}
	msg, ok := named[s]
	if !ok {
		r := []rune(s)
		require.Len(t, r, 1, "press: no recipe for %q", s)
		msg = tea.KeyPressMsg{Code: r[0], Text: s}
	}
	require.Equal(t, s, msg.String(), "press(%q) spells differently", s)
	return msg
}

// The default keymap is a contract (README.md, Using paydash; scripts and
// people's habits rely on it): every key string, read
// through the struct fields the app uses.
func TestDefaultMatchesDesign(t *testing.T) {
	m := Default()
	want := []struct {
		action string
		b      func(Map) []string
		keys   []string
	}{
		{"next_tab", func(m Map) []string { return m.Global.NextTab.Keys() }, []string{"tab"}},
		{"prev_tab", func(m Map) []string { return m.Global.PrevTab.Keys() }, []string{"shift+tab"}},
		{"tab_0", func(m Map) []string { return m.Global.Tab0.Keys() }, []string{"0"}},
		{"tab_1", func(m Map) []string { return m.Global.Tab1.Keys() }, []string{"1"}},
		{"tab_2", func(m Map) []string { return m.Global.Tab2.Keys() }, []string{"2"}},
		{"tab_3", func(m Map) []string { return m.Global.Tab3.Keys() }, []string{"3"}},
		{"tab_4", func(m Map) []string { return m.Global.Tab4.Keys() }, []string{"4"}},
		{"tab_5", func(m Map) []string { return m.Global.Tab5.Keys() }, []string{"5"}},
		{"help", func(m Map) []string { return m.Global.Help.Keys() }, []string{"?"}},
		{"quit", func(m Map) []string { return m.Global.Quit.Keys() }, []string{"q", "ctrl+c"}},
		{"refresh", func(m Map) []string { return m.Global.Refresh.Keys() }, []string{"r"}},
		{"jump", func(m Map) []string { return m.Global.Jump.Keys() }, []string{":"}},
		{"filter", func(m Map) []string { return m.Global.Filter.Keys() }, []string{"/"}},
		{"copy_id", func(m Map) []string { return m.Global.CopyID.Keys() }, []string{"y"}},
		{"export", func(m Map) []string { return m.Global.Export.Keys() }, []string{"ctrl+s"}},
		{"up", func(m Map) []string { return m.List.Up.Keys() }, []string{"k", "up"}},
		{"down", func(m Map) []string { return m.List.Down.Keys() }, []string{"j", "down"}},
		{"page_up", func(m Map) []string { return m.List.PageUp.Keys() }, []string{"pgup"}},
		{"page_down", func(m Map) []string { return m.List.PageDown.Keys() }, []string{"pgdown"}},
		{"top", func(m Map) []string { return m.List.Top.Keys() }, []string{"g", "home"}},
		{"bottom", func(m Map) []string { return m.List.Bottom.Keys() }, []string{"G", "end"}},
		{"left", func(m Map) []string { return m.List.Left.Keys() }, []string{"h", "left"}},
		{"right", func(m Map) []string { return m.List.Right.Keys() }, []string{"l", "right"}},
		{"open", func(m Map) []string { return m.List.Open.Keys() }, []string{"enter"}},
		{"close", func(m Map) []string { return m.List.Close.Keys() }, []string{"esc"}},
		{"capture", func(m Map) []string { return m.Actions.Capture.Keys() }, []string{"c"}},
		{"cancel_hold", func(m Map) []string { return m.Actions.CancelHold.Keys() }, []string{"x"}},
		{"refund", func(m Map) []string { return m.Actions.Refund.Keys() }, []string{"R"}},
		{"revoke", func(m Map) []string { return m.Actions.Revoke.Keys() }, []string{"v"}},
		{"toggle_sticker", func(m Map) []string { return m.Actions.ToggleSticker.Keys() }, []string{"t"}},
		{"new", func(m Map) []string { return m.Actions.New.Keys() }, []string{"n"}},
		{"modal_confirm", func(m Map) []string { return m.Modal.Confirm.Keys() }, []string{"y"}},
		{"modal_cancel", func(m Map) []string { return m.Modal.Cancel.Keys() }, []string{"n", "esc"}},
		{"modal_edit_field", func(m Map) []string { return m.Modal.EditField.Keys() }, []string{"tab", "e"}},
		{"modal_leave_field", func(m Map) []string { return m.Modal.LeaveField.Keys() }, []string{"enter", "tab"}},
		// The period presets, the merchant switcher, and the raw view of the
		// detail pane.
		{"period", func(m Map) []string { return m.Global.Period.Keys() }, []string{"p"}},
		{"merchant", func(m Map) []string { return m.Global.Merchant.Keys() }, []string{"m"}},
		{"raw", func(m Map) []string { return m.List.Raw.Keys() }, []string{"w"}},
		// Every toast and error since start, to re-read.
		{"messages", func(m Map) []string { return m.Global.Messages.Keys() }, []string{"M"}},
		// The Registers tab's second list and the viewer's search.
		{"documents", func(m Map) []string { return m.List.Documents.Keys() }, []string{"d"}},
		{"next_match", func(m Map) []string { return m.List.NextMatch.Keys() }, []string{"n"}},
		{"prev_match", func(m Map) []string { return m.List.PrevMatch.Keys() }, []string{"N"}},
		// s chooses the sort column, S reverses it, Y copies another field.
		{"sort", func(m Map) []string { return m.Global.Sort.Keys() }, []string{"s"}},
		{"sort_reverse", func(m Map) []string { return m.Global.SortReverse.Keys() }, []string{"S"}},
		{"copy_more", func(m Map) []string { return m.Global.CopyMore.Keys() }, []string{"Y"}},
		// The mouse on or off (ctrl+k is the palette's).
		{"toggle_mouse", func(m Map) []string { return m.Global.Mouse.Keys() }, []string{"ctrl+o"}},
		{"palette", func(m Map) []string { return m.Global.Palette.Keys() }, []string{"ctrl+k"}},
		// paydash serve: the Approvals and Activity tabs, and the
		// Approvals tab's approve and reject.
		{"tab_6", func(m Map) []string { return m.Global.Tab6.Keys() }, []string{"6"}},
		{"tab_7", func(m Map) []string { return m.Global.Tab7.Keys() }, []string{"7"}},
		{"approve", func(m Map) []string { return m.Actions.Approve.Keys() }, []string{"a"}},
		{"reject", func(m Map) []string { return m.Actions.Reject.Keys() }, []string{"x"}},
	}
	require.Len(t, ActionNames(), len(want), "every action is in the contract")
	for _, w := range want {
		assert.Equal(t, w.keys, w.b(m), w.action)
		b, ok := m.Binding(Action(w.action))
		require.True(t, ok, w.action)
		assert.Equal(t, w.keys, b.Keys(), "Binding(%q) is the field", w.action)
		assert.NotEmpty(t, b.Help().Key, w.action)
		assert.NotEmpty(t, b.Help().Desc, w.action)
		assert.True(t, b.Enabled(), w.action)
	}
	assert.NoError(t, m.Validate(), "the default map has no conflicts")

	for _, a := range []Action{ActCapture, ActCancelHold, ActRefund, ActRevoke, ActToggleSticker, ActNew} {
		assert.Equal(t, GroupActions, GroupOf(a), "%s changes something at the service", a)
	}
	assert.Equal(t, GroupGlobal, GroupOf(ActMessages))
	assert.Equal(t, GroupNavigation, GroupOf(ActDown))

	// Help written for a support person.
	desc := map[Action]string{
		ActRefund: "refund", ActCapture: "capture hold", ActCancelHold: "cancel hold", ActRevoke: "revoke token",
		ActToggleSticker: "switch sticker on/off", ActNew: "new invoice/sticker/link", ActCopyID: "copy id",
		ActExport: "export rows", ActJump: "jump to id", ActFilter: "search rows",
	}
	for action, d := range desc {
		b, _ := m.Binding(action)
		assert.Equal(t, d, b.Help().Desc, action)
	}
	assert.Equal(t, "k/↑", m.List.Up.Help().Key)
	assert.Equal(t, "q/ctrl+c", m.Global.Quit.Help().Key)
}

func TestDefaultReturnsIndependentMaps(t *testing.T) {
	a := Default()
	a.Actions.Refund.SetKeys("z")
	assert.Equal(t, []string{"R"}, Default().Actions.Refund.Keys())
}

func TestLookupPerContext(t *testing.T) {
	m := Default()
	cases := []struct {
		ctx    Context
		key    string
		action Action // "" = no action
	}{
		{ContextList, "y", ActCopyID},
		{ContextList, "R", ActRefund},
		{ContextList, "r", ActRefresh},
		{ContextList, "enter", ActOpen},
		{ContextList, "esc", ActClose},
		{ContextList, "tab", ActNextTab},
		{ContextList, "shift+tab", ActPrevTab},
		{ContextList, "3", ActTab3},
		{ContextList, "G", ActBottom},
		{ContextList, "end", ActBottom},
		{ContextList, "ctrl+c", ActQuit},
		{ContextList, "ctrl+s", ActExport},
		{ContextList, "n", ActNew},
		{ContextList, "e", ""},     // modal only
		{ContextList, "space", ""}, // nothing
		{ContextDetail, "y", ActCopyID},
		{ContextDetail, "esc", ActClose},
		{ContextDetail, "j", ActDown},

		{ContextModal, "y", ActModalConfirm},
		{ContextModal, "n", ActModalCancel},
		{ContextModal, "esc", ActModalCancel},
		{ContextModal, "tab", ActModalEditField},
		{ContextModal, "e", ActModalEditField},
		{ContextModal, "enter", ""}, // enter never confirms
		{ContextModal, "q", ""},
		{ContextModal, "R", ""},
		{ContextModal, "ctrl+c", ""},

		{ContextModalField, "tab", ActModalLeaveField},
		{ContextModalField, "enter", ActModalLeaveField},
		{ContextModalField, "esc", ActModalCancel},
		{ContextModalField, "n", ""}, // typed into the field
		{ContextModalField, "y", ""},
		{ContextModalField, "e", ""},

		{ContextFilter, "enter", ActOpen},
		{ContextFilter, "esc", ActClose},
		{ContextFilter, "up", ActUp},
		{ContextFilter, "k", ""}, // typed into the filter
		{ContextFilter, "q", ""},
		{ContextFilter, "space", ""},
		{ContextFilter, "ctrl+c", ActQuit},
		{ContextFilter, "tab", ""},
		{ContextJump, "enter", ActOpen},
		{ContextJump, "esc", ActClose},
		{ContextJump, "1", ""},
		{ContextJump, "down", ""},
	}
	for _, c := range cases {
		action, b, ok := m.Lookup(press(t, c.key), c.ctx)
		if c.action == "" {
			assert.False(t, ok, "%s: %q should do nothing, got %q", c.ctx, c.key, action)
			continue
		}
		if assert.True(t, ok, "%s: %q should be %q", c.ctx, c.key, c.action) {
			assert.Equal(t, c.action, action, "%s: %q", c.ctx, c.key)
			assert.True(t, Matches(press(t, c.key), b))
		}
	}
}

func TestModalKeysOnlyInModal(t *testing.T) {
	m := Default()
	for _, name := range []Action{ActModalConfirm, ActModalCancel, ActModalEditField, ActModalLeaveField} {
		b, _ := m.Binding(name)
		for _, k := range b.Keys() {
			for _, ctx := range []Context{ContextList, ContextDetail, ContextFilter, ContextJump} {
				action, _, _ := m.Lookup(press(t, k), ctx)
				assert.NotEqual(t, name, action, "%q in %s", k, ctx)
			}
		}
		assert.False(t, ContextList.Live(name))
	}
	for _, name := range ActionNames() {
		if ContextModal.Live(name) || ContextModalField.Live(name) {
			assert.Contains(t, name, "modal_", "only modal bindings are live in a modal")
		}
	}
}

func TestMatchesIgnoresDisabled(t *testing.T) {
	m := Default()
	assert.True(t, Matches(press(t, "R"), m.Actions.Refund))
	assert.False(t, Matches(press(t, "r"), m.Actions.Refund))
	m.Actions.Refund.SetEnabled(false)
	assert.False(t, Matches(press(t, "R"), m.Actions.Refund))
}

func TestResolveSaysWhyNot(t *testing.T) {
	m := Default()
	avail := Availability(func(action Action) (bool, string) {
		switch action {
		case ActRefund:
			return false, "read-only mode"
		case ActRevoke:
			return false, ""
		}
		return true, ""
	})

	p, ok := m.Resolve(press(t, "R"), ContextList, avail)
	require.True(t, ok)
	assert.Equal(t, Press{Action: ActRefund, Binding: m.Actions.Refund, Enabled: false, Reason: "read-only mode"}, p)

	p, ok = m.Resolve(press(t, "v"), ContextList, avail)
	require.True(t, ok)
	assert.False(t, p.Enabled)
	assert.Equal(t, NotHere, p.Reason)

	p, ok = m.Resolve(press(t, "c"), ContextList, avail)
	require.True(t, ok)
	assert.True(t, p.Enabled)
	assert.Equal(t, ActCapture, p.Action)

	p, ok = m.Resolve(press(t, "c"), ContextList, nil)
	require.True(t, ok)
	assert.True(t, p.Enabled, "nil Availability allows everything")

	_, ok = m.Resolve(press(t, "z"), ContextList, avail)
	assert.False(t, ok)
}

func TestLabel(t *testing.T) {
	assert.Equal(t, "k/↑", Label([]string{"k", "up"}))
	assert.Equal(t, "ctrl+↓/shift+tab/+", Label([]string{"ctrl+down", "shift+tab", "+"}))
	assert.Equal(t, "ctrl++", Label([]string{"ctrl++"}))
}
