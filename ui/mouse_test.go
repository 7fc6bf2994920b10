package ui

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMouseClickOnTabBarSwitchesTab(t *testing.T) {
	ta := newTestApp(t)
	require.Equal(t, 0, ta.active)
	// " [1 Payments]  2 Refunds  ": Refunds' label starts at column 15.
	ta.send(tea.MouseClickMsg{X: 17, Y: 0, Button: tea.MouseLeft})
	assert.Equal(t, 1, ta.active)
	ta.send(tea.MouseClickMsg{X: 2, Y: 0, Button: tea.MouseLeft})
	assert.Equal(t, 0, ta.active)
	ta.send(tea.MouseClickMsg{X: 60, Y: 0, Button: tea.MouseLeft}) // blank bar
	assert.Equal(t, 0, ta.active)
	for _, tb := range ta.tabs {
		assert.Empty(t, msgsOf[MouseMsg](tb), "a tab bar click reaches no tab")
	}
}

func TestMouseInTabAreaReachesActiveTabRelative(t *testing.T) {
	ta := newTestApp(t)
	ta.send(tea.MouseClickMsg{X: 10, Y: 5, Button: tea.MouseLeft})
	ta.send(tea.MouseReleaseMsg{X: 10, Y: 5, Button: tea.MouseLeft})
	ta.clock.advance(100 * time.Millisecond)
	ta.send(tea.MouseClickMsg{X: 10, Y: 5, Button: tea.MouseLeft})
	ta.send(tea.MouseWheelMsg{X: 3, Y: 2, Button: tea.MouseWheelDown})
	ta.send(tea.MouseClickMsg{X: 10, Y: 5, Button: tea.MouseRight})
	ta.send(tea.MouseMotionMsg{X: 11, Y: 5})
	ta.send(tea.MouseClickMsg{X: 10, Y: 23, Button: tea.MouseLeft}) // the help bar
	assert.Equal(t, []MouseMsg{
		{Kind: MouseClick, X: 10, Y: 4},
		{Kind: MouseDoubleClick, X: 10, Y: 4},
		{Kind: MouseWheelDown, X: 3, Y: 1},
	}, msgsOf[MouseMsg](ta.tabs[0]))
	assert.Empty(t, msgsOf[MouseMsg](ta.tabs[1]))

	// Too slow for a double click: two clicks.
	ta.tabs[0].reset()
	ta.send(tea.MouseClickMsg{X: 1, Y: 1, Button: tea.MouseLeft})
	ta.clock.advance(time.Second)
	ta.send(tea.MouseClickMsg{X: 1, Y: 1, Button: tea.MouseLeft})
	assert.Equal(t, []MouseMsg{{Kind: MouseClick, X: 1}, {Kind: MouseClick, X: 1}}, msgsOf[MouseMsg](ta.tabs[0]))
}

func TestMouseDoesNothingBehindADialog(t *testing.T) {
	ta := newTestApp(t)
	ta.press("p") // the period chooser
	require.NotNil(t, ta.modal)
	ta.send(tea.MouseClickMsg{X: 10, Y: 5, Button: tea.MouseLeft})
	ta.send(tea.MouseWheelMsg{X: 10, Y: 5, Button: tea.MouseWheelUp})
	ta.send(tea.MouseClickMsg{X: 17, Y: 0, Button: tea.MouseLeft})
	assert.Empty(t, msgsOf[MouseMsg](ta.tabs[0]))
	assert.Equal(t, 0, ta.active, "no tab switch behind the dialog")
	assert.NotNil(t, ta.modal)

	// Below the minimum size: nothing, and the terminal keeps the mouse.
	ta.press("esc")
	require.Nil(t, ta.modal)
	ta.send(tea.WindowSizeMsg{Width: 60, Height: 20})
	ta.send(tea.MouseClickMsg{X: 10, Y: 5, Button: tea.MouseLeft})
	assert.Empty(t, msgsOf[MouseMsg](ta.tabs[0]))
	assert.Equal(t, tea.MouseModeNone, ta.View().MouseMode)
}

func TestMouseToggleKeyAndConfig(t *testing.T) {
	ta := newTestApp(t)
	assert.Equal(t, tea.MouseModeCellMotion, ta.View().MouseMode, "on by default")
	ta.send(tea.KeyPressMsg{Code: 'o', Mod: tea.ModCtrl})
	assert.Equal(t, tea.MouseModeNone, ta.View().MouseMode)
	ta.send(tea.MouseClickMsg{X: 10, Y: 5, Button: tea.MouseLeft})
	assert.Empty(t, msgsOf[MouseMsg](ta.tabs[0]), "off: events do nothing")
	ta.send(tea.KeyPressMsg{Code: 'o', Mod: tea.ModCtrl})
	assert.Equal(t, tea.MouseModeCellMotion, ta.View().MouseMode)

	off := newTestApp(t, func(c *Config) { c.NoMouse = true })
	assert.Equal(t, tea.MouseModeNone, off.View().MouseMode)
	assert.False(t, off.MouseOn())
}
