package datatable

import "charm.land/lipgloss/v2"

// Styles are the widget's looks. The zero value is plain text, which is also
// what a NO_COLOR terminal sees of any Styles: the selected row is marked by
// a leading '>' and a recently changed row by a '*' in the gutter, so neither
// depends on colour.
//
// Styles are applied to whole lines. A style made only of attributes and
// colours (the usual case) is applied by wrapping the line in its escape
// sequences, which is cheap; other styles (padding, width, transforms) go
// through Style.Render and the result is cut or padded back to the width.
type Styles struct {
	Header   lipgloss.Style // the column titles
	Cell     lipgloss.Style // an ordinary row
	Selected lipgloss.Style // the row under the cursor
	Flashed  lipgloss.Style // a row changed by a refresh, until its flash expires
	Loading  lipgloss.Style // the "loading more" row after the last row
	End      lipgloss.Style // the "end of list" row
	Dimmed   lipgloss.Style // the empty-list and no-match messages
}

// DefaultStyles are the default looks for a dark or light terminal
// background (get isDark from tea.BackgroundColorMsg.IsDark()).
func DefaultStyles(isDark bool) Styles {
	ld := lipgloss.LightDark(isDark)
	return Styles{
		Header:   lipgloss.NewStyle().Bold(true).Foreground(ld(lipgloss.Color("#303030"), lipgloss.Color("#E4E4E4"))).Underline(true),
		Cell:     lipgloss.NewStyle(),
		Selected: lipgloss.NewStyle().Bold(true).Foreground(ld(lipgloss.Color("#1A1A1A"), lipgloss.Color("#FFFFFF"))).Background(ld(lipgloss.Color("#C6D0FF"), lipgloss.Color("#3C4577"))),
		Flashed:  lipgloss.NewStyle().Foreground(ld(lipgloss.Color("#9A5B00"), lipgloss.Color("#FFCF66"))),
		Loading:  lipgloss.NewStyle().Italic(true).Foreground(ld(lipgloss.Color("#6C6C6C"), lipgloss.Color("#9E9E9E"))),
		End:      lipgloss.NewStyle().Faint(true),
		Dimmed:   lipgloss.NewStyle().Foreground(ld(lipgloss.Color("#8A8A8A"), lipgloss.Color("#767676"))),
	}
}
