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
//
// The tone styles (Success, Warning, Held, Danger) colour the text of a cell
// whose Column.Tone says so, inside the row's own style: over the selected
// row's reverse video a green status reads as green ground. Only their
// colours and attributes are used; a tone style with anything else (padding,
// width) is ignored, as are all of them under a row style that is not
// colours and attributes alone. What a tone means must also be in the text
// (a status marker such as "✓" or "✗"), since NO_COLOR shows none.
type Styles struct {
	Header   lipgloss.Style // the column titles
	Cell     lipgloss.Style // an ordinary row
	Selected lipgloss.Style // the row under the cursor
	Flashed  lipgloss.Style // a row changed by a refresh, until its flash expires
	Loading  lipgloss.Style // the "loading more" row after the last row
	End      lipgloss.Style // the "end of list" row
	Dimmed   lipgloss.Style // the empty-list and no-match messages

	Success lipgloss.Style // cells of ToneSuccess: done (settled, success, active)
	Warning lipgloss.Style // cells of ToneWarning: still to happen (pending, in progress)
	Held    lipgloss.Style // cells of ToneHeld: waiting for the merchant (a hold)
	Danger  lipgloss.Style // cells of ToneDanger: ended without money (declined, cancelled, revoked)
}

// Tone is what a cell's text means, for its colour (Column.Tone).
type Tone uint8

// The tones, each drawn in its Styles field.
const (
	ToneNone    Tone = iota // the row's style alone
	ToneSuccess             // Styles.Success
	ToneWarning             // Styles.Warning
	ToneHeld                // Styles.Held
	ToneDanger              // Styles.Danger
	toneCount
)

// DefaultStyles are the default looks for a dark or light terminal
// background (get isDark from tea.BackgroundColorMsg.IsDark()). They use
// the terminal's own palette (ANSI colours 1–6 and attributes, never a
// fixed RGB value), which the user's terminal theme has made readable on
// its background, light or dark; isDark only picks between palette
// entries. The selected row is reverse video.
func DefaultStyles(isDark bool) Styles {
	_ = isDark // the ANSI palette reads on either background
	return Styles{
		Header:   lipgloss.NewStyle().Bold(true).Underline(true),
		Cell:     lipgloss.NewStyle(),
		Selected: lipgloss.NewStyle().Bold(true).Reverse(true),
		Flashed:  lipgloss.NewStyle().Foreground(lipgloss.Yellow),
		Loading:  lipgloss.NewStyle().Italic(true).Faint(true),
		End:      lipgloss.NewStyle().Faint(true),
		Dimmed:   lipgloss.NewStyle().Faint(true),

		Success: lipgloss.NewStyle().Foreground(lipgloss.Green),
		Warning: lipgloss.NewStyle().Foreground(lipgloss.Yellow),
		Held:    lipgloss.NewStyle().Foreground(lipgloss.Magenta),
		Danger:  lipgloss.NewStyle().Foreground(lipgloss.Red),
	}
}
