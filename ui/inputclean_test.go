package ui

import (
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hostileText holds what a paste or an unusual keyboard can carry: a bidi
// override (U+202E would draw "ABC-555" as "555-CBA"), an escape sequence
// that recolours the screen, a control character and a line separator.
const hostileText = "ORD\u202e-555\x1b[31m\x07\u2028x\n"

func TestTypedAndPastedTextIsCleanedBeforeAnyInputSeesIt(t *testing.T) {
	ta := newTestApp(t)

	// A tab (the list's / prompt, a form) gets what the shell cleaned.
	ta.send(tea.PasteMsg{Content: hostileText})
	ta.send(tea.KeyPressMsg{Code: 0x202e, Text: "\u202e"})
	ta.send(tea.KeyPressMsg{Code: 'a', Text: "a\u202e"})
	pastes := msgsOf[tea.PasteMsg](ta.tabs[0])
	require.Len(t, pastes, 1)
	assert.Equal(t, "ORD-555  x", pastes[0].Content, "escape and bidi characters gone, controls and separators spaces, the line break at the end dropped")
	presses := msgsOf[tea.KeyPressMsg](ta.tabs[0])
	require.Len(t, presses, 2, "a key of invisible text still arrives, in its place")
	assert.Empty(t, presses[0].Text, "typing nothing")
	assert.Equal(t, "a", presses[1].Text)
	assert.Equal(t, "a", presses[1].String())

	// A prompt of the shell draws only the clean text.
	ta.press(":")
	require.NotNil(t, ta.modal)
	ta.send(tea.PasteMsg{Content: "A\u202eBC"})
	ta.send(tea.KeyPressMsg{Code: 0x202e, Text: "\u202e"})
	ta.typeText("9")
	view := ta.View().Content
	assert.NotContains(t, view, "\u202e")
	assert.Contains(t, ta.screen(), "ABC9")
	ta.press("enter")
	assert.Equal(t, []JumpMsg{{Query: "ABC9"}}, msgsOf[JumpMsg](ta.tabs[0]))
}
