package keys

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestApplyRebinds(t *testing.T) {
	m := Default()
	err := m.Apply(map[string][]string{
		"refund":  {"ctrl+r"},
		"refresh": {"R", "f5"},
	})
	require.NoError(t, err)

	assert.Equal(t, []string{"ctrl+r"}, m.Actions.Refund.Keys())
	assert.Equal(t, "ctrl+r", m.Actions.Refund.Help().Key)
	assert.Equal(t, "refund", m.Actions.Refund.Help().Desc)
	assert.Equal(t, []string{"R", "f5"}, m.Global.Refresh.Keys())
	assert.Equal(t, []string{"q", "ctrl+c"}, m.Global.Quit.Keys(), "others keep their defaults")

	for key, want := range map[string]Action{"ctrl+r": ActRefund, "R": ActRefresh, "f5": ActRefresh} {
		action, _, ok := m.Lookup(press(t, key), ContextList)
		assert.True(t, ok, key)
		assert.Equal(t, want, action, key)
	}
	_, _, ok := m.Lookup(press(t, "r"), ContextList)
	assert.False(t, ok, "the old key of refresh is free")

	full := FullHelp(m, ContextList, nil, 160, 0, PlainHelpStyles())
	assert.Contains(t, full, "ctrl+r  refund")
	assert.Contains(t, full, "R/f5       refresh now")
	assert.NotContains(t, full, "R    refund")
	short := ShortHelp(m, ContextDetail, nil, 0, PlainHelpStyles())
	assert.Contains(t, short, "ctrl+r refund")
	assert.Contains(t, short, "R/f5 refresh now")
}

func TestApplySwapIsNotAConflict(t *testing.T) {
	m := Default()
	require.NoError(t, m.Apply(map[string][]string{"refund": {"r"}, "refresh": {"R"}}))
	action, _, _ := m.Lookup(press(t, "r"), ContextList)
	assert.Equal(t, ActRefund, action)
}

func TestApplyModalIsItsOwnContext(t *testing.T) {
	m := Default()
	// "c" is capture in the list, but a modal has the keyboard to itself.
	require.NoError(t, m.Apply(map[string][]string{"modal_confirm": {"c"}}))
	action, _, _ := m.Lookup(press(t, "c"), ContextModal)
	assert.Equal(t, ActModalConfirm, action)
	action, _, _ = m.Lookup(press(t, "c"), ContextList)
	assert.Equal(t, ActCapture, action)

	m = Default()
	err := m.Apply(map[string][]string{"modal_confirm": {"n"}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `key "n" is bound to both "modal_confirm" and "modal_cancel"`)
}

func TestApplyReportsEverythingAndLeavesMapUnchanged(t *testing.T) {
	m := Default()
	before := Default()
	err := m.Apply(map[string][]string{
		"refnd":   {"ctrl+r"},      // unknown action
		"refresh": {"ctrl+R", "c"}, // invalid key, and "c" is capture's
		"copy_id": {"y", "ctrl+y"}, // fine on its own
		"export":  {},              // empty
	})
	require.Error(t, err)
	var ce *ConfigError
	require.True(t, errors.As(err, &ce))
	assert.Len(t, ce.Problems, 4, ce.Error())

	msg := err.Error()
	assert.Contains(t, msg, "4 problems")
	assert.Contains(t, msg, `"refnd" is not an action; did you mean "refund"?`)
	assert.Contains(t, msg, `refresh: key "ctrl+R" cannot arrive`)
	assert.Contains(t, msg, `write "ctrl+shift+r"`)
	assert.Contains(t, msg, `key "c" is bound to both "refresh" and "capture"`)
	assert.Contains(t, msg, `export: no keys given`)
	assert.Equal(t, before, m, "a failed Apply changes nothing")
	// One problem per line, readable at a glance.
	assert.Len(t, strings.Split(msg, "\n"), 5)
}

func TestApplyUnknownActionSuggestions(t *testing.T) {
	cases := map[string]string{
		"Refund":       "refund",
		"cancel-hold":  "cancel_hold",
		"tab1":         "tab_1",
		"nexttab":      "next_tab",
		"revoke_token": "revoke",
		"confirm":      "modal_confirm",
		"copyid":       "copy_id",
	}
	for name, want := range cases {
		m := Default()
		err := m.Apply(map[string][]string{name: {"z"}})
		if assert.Error(t, err, name) {
			assert.Contains(t, err.Error(), `did you mean "`+want+`"?`, name)
		}
	}
	m := Default()
	err := m.Apply(map[string][]string{"xyzzy_plugh": {"z"}})
	require.Error(t, err)
	assert.NotContains(t, err.Error(), "did you mean", "no wild guesses")
}

func TestApplyUnreachableLeaveField(t *testing.T) {
	m := Default()
	err := m.Apply(map[string][]string{"modal_leave_field": {"d"}})
	require.Error(t, err)
	assert.Contains(t, err.Error(), `modal_leave_field: every key ("d") types text`)
}

func TestApplyDeduplicatesKeys(t *testing.T) {
	m := Default()
	require.NoError(t, m.Apply(map[string][]string{"quit": {"q", "q", "ctrl+q"}}))
	assert.Equal(t, []string{"q", "ctrl+q"}, m.Global.Quit.Keys())
}

func TestCheckKey(t *testing.T) {
	valid := []string{"a", "R", "?", "/", ":", "1", "é", "+", "space", "enter", "tab", "esc", "backspace", "delete",
		"up", "down", "left", "right", "home", "end", "pgup", "pgdown", "insert", "f1", "f5", "f12",
		"ctrl+r", "ctrl+c", "alt+x", "ctrl+alt+x", "ctrl+shift+r", "alt+shift+x", "ctrl+alt+shift+up", "shift+tab",
		"shift+enter", "ctrl++", "alt+!"}
	for _, k := range valid {
		assert.Empty(t, checkKey(k), "%q should be valid", k)
	}
	invalid := map[string]string{
		"":             "is empty",
		" ":            `write "space"`,
		" r":           `write "r"`,
		"shift+a":      `write "A"`,
		"shift+1":      "shifted character",
		"ctrl+R":       `write "ctrl+shift+r"`,
		"alt+ctrl+x":   `write "ctrl+alt+x"`,
		"shift+ctrl+x": `write "ctrl+shift+x"`,
		"ctrl+ctrl+x":  `write "ctrl+x"`,
		"Ctrl+s":       `write "ctrl+s"`,
		"Enter":        `write "enter"`,
		"F5":           `write "f5"`,
		"escape":       `write "esc"`,
		"pageup":       `write "pgup"`,
		"ctrl+return":  `write "ctrl+enter"`,
		"f13":          "not a key Bubble Tea reports",
		"ab":           "not a key Bubble Tea reports",
		"cmd+s":        `unknown modifier "cmd"`,
		"meta+x":       "meta+",
		"ctrl+":        "no key after",
		"\t":           "is blank",
		"ctrl+\x01":    "not a printable character",
	}
	for k, want := range invalid {
		got := checkKey(k)
		assert.Contains(t, got, want, "%q", k)
	}
}
