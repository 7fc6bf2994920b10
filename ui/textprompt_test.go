package ui

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/keys"
)

// A reason typed for the screen behind, enter included, in the moment the
// prompt opens is not taken: nothing is done until a key after the guard.
func TestTextPromptIgnoresKeysAsItOpens(t *testing.T) {
	opened := time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	var done []string
	p := NewTextPrompt(TextPrompt{Title: "Reject", Label: "Reason", Opened: opened,
		Done: func(s string) tea.Cmd { done = append(done, s); return nil }}, keys.Default(), NewTheme(true, true))

	var m Modal = p
	closed := false
	type step struct {
		key string
		at  time.Duration
	}
	press := func(s step) {
		m, _, closed = m.Update(keyPress(s.key), opened.Add(s.at))
	}
	for _, s := range []step{{"j", 10 * time.Millisecond}, {"j", 50 * time.Millisecond}, {"enter", 100 * time.Millisecond}} {
		press(s)
		require.False(t, closed, s.key)
	}
	assert.Empty(t, done, "keys inside the guard did nothing")
	assert.Contains(t, unwrapped(m.View(80, 24)), "3 key(s) ignored")

	press(step{"enter", time.Second})
	assert.False(t, closed, "an empty reason is refused")
	assert.Contains(t, unwrapped(m.View(80, 24)), "type something first")

	for _, k := range []string{"d", "u", "p"} {
		press(step{k, time.Second})
	}
	press(step{"enter", 2 * time.Second})
	assert.True(t, closed)
	assert.Equal(t, []string{"dup"}, done)
}

func TestTextPromptEscLeavesDoingNothing(t *testing.T) {
	called := false
	p := NewTextPrompt(TextPrompt{Title: "Reject", Label: "Reason",
		Done: func(string) tea.Cmd { called = true; return nil }}, keys.Default(), NewTheme(true, true))
	_, _, closed := p.Update(keyPress("esc"), time.Now())
	assert.True(t, closed)
	assert.False(t, called)
}
