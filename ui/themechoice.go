package ui

import (
	"fmt"
	"image/color"
	"slices"
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"
)

// The theme a person chooses (config theme and [colors]):
//
//   - "auto" (the default): the terminal's own 16-colour palette, light or
//     dark as the terminal says (NewTheme). A terminal theme made that
//     palette readable on its background.
//   - "dark" or "light": that variant whatever the terminal says. "light"
//     does not trust the palette's yellow and cyan, which many dark-minded
//     palettes leave pale on white: its statuses come from the fixed
//     256-colour cube, dark enough to read on white.
//   - "none": no colour at all, as NO_COLOR.
//
// [colors] overrides the few roles (accent, good, warning, bad, muted) with
// a colour of the 256 (a number), a name of the 16 ("red", "bright-blue")
// or "#rrggbb".

// ThemeModes are the values of theme.
var ThemeModes = []string{"auto", "dark", "light", "none"}

// ColorRoles are the keys of [colors].
var ColorRoles = []string{"accent", "good", "warning", "bad", "muted"}

// colorNames are the 16 colours by name.
var colorNames = []string{"black", "red", "green", "yellow", "blue", "magenta", "cyan", "white"}

// ParseColor reads a colour of [colors]: 0 to 255, "#rrggbb", or a name
// of the 16 ("red", "bright-red").
func ParseColor(s string) (color.Color, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	if n, err := strconv.Atoi(s); err == nil {
		if n < 0 || n > 255 {
			return nil, fmt.Errorf("%q: a colour number is 0 to 255", s)
		}
		return lipgloss.Color(s), nil
	}
	if strings.HasPrefix(s, "#") {
		if len(s) != 7 || strings.Trim(s[1:], "0123456789abcdef") != "" {
			return nil, fmt.Errorf("%q: a colour in hex is #rrggbb", s)
		}
		return lipgloss.Color(s), nil
	}
	name, bright := strings.CutPrefix(s, "bright-")
	if i := slices.Index(colorNames, name); i >= 0 {
		if bright {
			i += 8
		}
		return lipgloss.Color(strconv.Itoa(i)), nil
	}
	return nil, fmt.Errorf("%q is not a colour: give 0 to 255, #rrggbb, or one of %s (bright- before any)",
		s, strings.Join(colorNames, ", "))
}

// lightStatuses are the light theme's status colours, from the 256-colour
// cube: each reads on white.
var lightStatuses = struct{ accent, good, warning, held, bad string }{"25", "28", "130", "127", "160"}

// ChosenTheme is the theme for mode ("" is "auto") on a terminal that is
// dark or not, with colors (role → colour, checked by the config) over it.
func ChosenTheme(mode string, dark, noColor bool, colors map[string]string) Theme {
	switch mode {
	case "none":
		return NewTheme(dark, true)
	case "dark":
		dark = true
	case "light":
		dark = false
	}
	th := NewTheme(dark, noColor)
	if noColor {
		return th
	}
	fg := func(c string) lipgloss.Style { return lipgloss.NewStyle().Foreground(lipgloss.Color(c)) }
	if mode == "light" {
		th.Accent = fg(lightStatuses.accent).Bold(true)
		th.Success, th.Warning = fg(lightStatuses.good), fg(lightStatuses.warning)
		th.Held, th.Danger = fg(lightStatuses.held), fg(lightStatuses.bad)
	}
	for role, value := range colors {
		c, err := ParseColor(value)
		if err != nil {
			continue // the config refused it before
		}
		st := lipgloss.NewStyle().Foreground(c)
		switch role {
		case "accent":
			th.Accent = st.Bold(true)
		case "good":
			th.Success = st
		case "warning":
			th.Warning = st
		case "bad":
			th.Danger = st
		case "muted":
			th.Muted = st
		}
	}
	// The lists' status cells and flashes take the same colours.
	th.Table.Success, th.Table.Warning, th.Table.Held, th.Table.Danger = th.Success, th.Warning, th.Held, th.Danger
	th.Table.Flashed = th.Warning
	return th
}

// FollowsTerminal reports whether mode lets the terminal's answer about
// its background choose light or dark.
func FollowsTerminal(mode string) bool { return mode == "" || mode == "auto" }
