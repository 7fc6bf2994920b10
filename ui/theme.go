package ui

import (
	"image/color"
	"strconv"
	"strings"

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
	Success  lipgloss.Style // Settled, Success, Active: done
	Warning  lipgloss.Style // Pending, Confirmation, Created: something is still to happen
	Held     lipgloss.Style // Authorized: money held, waiting for the merchant (capture or release)
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
//
// The colours are the terminal's own ANSI palette, never RGB values: the
// user's terminal theme made its palette readable on its background, light
// or dark, so the dashboard reads wherever the terminal does. Statuses use
// the six hues every palette keeps (Solarized's "bright" colours are
// greys): green done, yellow still to happen, magenta held (blue is too dark
// on many dark palettes), red ended without money. Secondary text is faint
// rather than grey (grey is the background of some palettes); the selected
// row and button are reverse video; the accent is blue on a light
// background and cyan on a dark one.
func NewTheme(dark, noColor bool) Theme {
	if noColor {
		plain := lipgloss.NewStyle()
		return Theme{
			Dark: dark, NoColor: true,
			Title: plain.Bold(true), Text: plain, Muted: plain, Accent: plain.Bold(true),
			Success: plain, Warning: plain, Held: plain, Danger: plain.Bold(true), Border: plain, Selected: plain.Reverse(true),
			Table: datatable.Styles{Header: plain.Bold(true), Selected: plain.Reverse(true)},
			Help:  keys.PlainHelpStyles(),
		}
	}
	fg := func(c color.Color) lipgloss.Style { return lipgloss.NewStyle().Foreground(c) }
	faint := lipgloss.NewStyle().Faint(true)
	accent := lipgloss.Blue
	if dark {
		accent = lipgloss.Cyan
	}
	th := Theme{
		Dark:     dark,
		Title:    lipgloss.NewStyle().Bold(true),
		Text:     lipgloss.NewStyle(),
		Muted:    faint,
		Accent:   fg(accent).Bold(true),
		Success:  fg(lipgloss.Green),
		Warning:  fg(lipgloss.Yellow),
		Held:     fg(lipgloss.Magenta),
		Danger:   fg(lipgloss.Red),
		Border:   fg(lipgloss.BrightBlack),
		Selected: lipgloss.NewStyle().Bold(true).Reverse(true),
		Table:    datatable.DefaultStyles(dark),
		Help: keys.HelpStyles{
			Key:          lipgloss.NewStyle().Bold(true),
			Desc:         lipgloss.NewStyle(),
			DisabledKey:  faint,
			DisabledDesc: faint,
			Reason:       faint.Italic(true),
			Title:        lipgloss.NewStyle().Bold(true),
			Separator:    faint,
			Ellipsis:     faint,
		},
	}
	th.Table.Success, th.Table.Warning, th.Table.Held, th.Table.Danger = th.Success, th.Warning, th.Held, th.Danger
	return th
}

// DarkFromColorFGBG reads the COLORFGBG variable some terminals (rxvt,
// Konsole, iTerm2, …) set: "foreground;background" as colour numbers of
// the 16-colour palette, the background last. It reports whether the
// background is dark, and false for known when the value says nothing.
// It is the guess until the terminal answers the background colour query,
// which some never do: without it, a light terminal under NO_COLOR would
// get a QR code drawn for a dark one, inverted.
func DarkFromColorFGBG(v string) (dark, known bool) {
	i := strings.LastIndexByte(v, ';')
	n, err := strconv.Atoi(strings.TrimSpace(v[i+1:]))
	if v == "" || err != nil || n < 0 || n > 15 {
		return false, false
	}
	// 7 is light grey and 9–15 the bright colours: light backgrounds;
	// 0–6 and 8 (dark grey) are dark.
	return n <= 6 || n == 8, true
}
