package ui

import (
	"charm.land/lipgloss/v2"

	"paydash/keys"
	"paydash/ui/datatable"
)

// Theme is every style of the dashboard, in one place. The shell makes it
// from the terminal's background (light or dark) and NO_COLOR, and sends
// it to the tabs as a ThemeMsg whenever it changes.
type Theme struct {
	Dark    bool
	NoColor bool

	Title    lipgloss.Style // headings in panes and dialogs
	Text     lipgloss.Style // ordinary text
	Muted    lipgloss.Style // labels, hints, secondary facts
	Accent   lipgloss.Style // the active tab, keys in prose
	Success  lipgloss.Style // Settled, Success, Active
	Warning  lipgloss.Style // Pending, Authorized, Confirmation: something is still to happen
	Danger   lipgloss.Style // Rejected, Cancelled, Revoked, errors, dangerous confirmations
	Border   lipgloss.Style // pane and dialog borders (use with lipgloss.RoundedBorder)
	Selected lipgloss.Style // a focused button or field

	Table datatable.Styles
	Help  keys.HelpStyles
}

// ThemeMsg carries a new theme from the shell to the tabs.
type ThemeMsg struct{ Theme Theme }

// NewTheme builds the theme for a dark or light terminal. With noColor
// every style is plain (NO_COLOR, https://no-color.org): emphasis that must
// survive, such as the selected row, is carried by markers, not colour.
func NewTheme(dark, noColor bool) Theme {
	if noColor {
		plain := lipgloss.NewStyle()
		return Theme{
			Dark: dark, NoColor: true,
			Title: plain.Bold(true), Text: plain, Muted: plain, Accent: plain.Bold(true),
			Success: plain, Warning: plain, Danger: plain.Bold(true), Border: plain, Selected: plain.Reverse(true),
			Table: datatable.Styles{Header: plain.Bold(true), Selected: plain.Reverse(true)},
			Help:  keys.PlainHelpStyles(),
		}
	}
	ld := lipgloss.LightDark(dark)
	c := func(light, darkColor string) lipgloss.Style {
		return lipgloss.NewStyle().Foreground(ld(lipgloss.Color(light), lipgloss.Color(darkColor)))
	}
	return Theme{
		Dark:     dark,
		Title:    c("#1F2A5C", "#C6D0FF").Bold(true),
		Text:     lipgloss.NewStyle(),
		Muted:    c("#6C6C6C", "#9E9E9E"),
		Accent:   c("#3B4FC4", "#8FA2FF").Bold(true),
		Success:  c("#1E7B34", "#7BD88F"),
		Warning:  c("#9A5B00", "#FFCF66"),
		Danger:   c("#B3261E", "#FF8A80"),
		Border:   c("#B0B0B0", "#5A5A5A"),
		Selected: lipgloss.NewStyle().Bold(true).Reverse(true),
		Table:    datatable.DefaultStyles(dark),
		Help:     keys.DefaultHelpStyles(dark),
	}
}
