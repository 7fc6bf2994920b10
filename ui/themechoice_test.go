package ui

import (
	"image/color"
	"testing"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestChosenTheme(t *testing.T) {
	// auto follows the terminal; dark and light do not.
	assert.True(t, ChosenTheme("auto", true, false, nil).Dark)
	assert.False(t, ChosenTheme("auto", false, false, nil).Dark)
	assert.True(t, ChosenTheme("dark", false, false, nil).Dark)
	assert.False(t, ChosenTheme("light", true, false, nil).Dark)
	assert.True(t, ChosenTheme("none", true, false, nil).NoColor)
	assert.True(t, ChosenTheme("light", true, true, nil).NoColor, "NO_COLOR wins over a theme")

	// light reads on white: no status in the palette's yellow or cyan.
	light := ChosenTheme("light", true, false, nil)
	for name, st := range map[string]lipgloss.Style{"accent": light.Accent, "good": light.Success,
		"warning": light.Warning, "held": light.Held, "bad": light.Danger} {
		fg := st.GetForeground()
		assert.NotEqual(t, lipgloss.Yellow, fg, name)
		assert.NotEqual(t, lipgloss.Cyan, fg, name)
		assert.NotEqual(t, lipgloss.BrightYellow, fg, name)
	}
	assert.Equal(t, lipgloss.Color("130"), light.Warning.GetForeground())
	assert.Equal(t, lipgloss.Color("130"), light.Table.Warning.GetForeground(), "the lists' status cells too")
	assert.Equal(t, lipgloss.Color("28"), light.Table.Success.GetForeground())

	// [colors] over the theme.
	th := ChosenTheme("auto", true, false, map[string]string{"good": "#1b7f3b", "bad": "bright-red", "muted": "8"})
	assert.Equal(t, lipgloss.Color("#1b7f3b"), th.Success.GetForeground())
	assert.Equal(t, lipgloss.Color("9"), th.Danger.GetForeground())
	assert.Equal(t, lipgloss.Color("8"), th.Muted.GetForeground())
}

func TestParseColor(t *testing.T) {
	for in, want := range map[string]color.Color{"0": lipgloss.Color("0"), "255": lipgloss.Color("255"),
		"#A0b1C2": lipgloss.Color("#a0b1c2"), "red": lipgloss.Color("1"), " Bright-White ": lipgloss.Color("15")} {
		got, err := ParseColor(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
	}
	for _, bad := range []string{"256", "-1", "#12", "#gggggg", "crimson", "bright-", ""} {
		_, err := ParseColor(bad)
		assert.Error(t, err, bad)
	}
}

// A theme chosen light or dark stays so when the terminal says what its
// background is; auto follows it.
func TestAChosenThemeIgnoresTheTerminalsBackground(t *testing.T) {
	ta := newTestApp(t, withColour(true), func(c *Config) { c.Theme = "light" })
	require.False(t, ta.theme.Dark)
	ta.send(tea.BackgroundColorMsg{Color: lipgloss.Color("#000000")})
	assert.False(t, ta.theme.Dark, "light whatever the terminal says")

	auto := newTestApp(t, withColour(false))
	auto.send(tea.BackgroundColorMsg{Color: lipgloss.Color("#000000")})
	assert.True(t, auto.theme.Dark, "auto follows the terminal")
}
