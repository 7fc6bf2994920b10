package views

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/keys"
	"paydash/ui"
	"paydash/ui/qr/qrtest"
)

const qrLink = "https://qr.nspk.ru/AS1000670LSS7DN18SJQDNP4B05KLJL2?type=01&bank=100000000001&sum=150000&cur=RUB&crc=C08B"

// qrCases are the dashboard's themes, each with the terminals it may be
// shown on: the one it was made for, and for a colour theme also that
// terminal showing no colours (the colours lost on the way).
func qrCases() []struct {
	th   ui.Theme
	term qrtest.Terminal
} {
	var out []struct {
		th   ui.Theme
		term qrtest.Terminal
	}
	for _, dark := range []bool{true, false} {
		for _, noColor := range []bool{false, true} {
			th := ui.NewTheme(dark, noColor)
			out = append(out, struct {
				th   ui.Theme
				term qrtest.Terminal
			}{th, qrtest.Terminal{Dark: dark, Colour: !noColor}})
			if !noColor {
				out = append(out, struct {
					th   ui.Theme
					term qrtest.Terminal
				}{th, qrtest.Terminal{Dark: dark}})
			}
		}
	}
	return out
}

// The dialog of a link made shows a code that a phone reads off the
// screen, on a dark and on a light terminal, with and without colour, in
// a roomy window and at 80×24 (the narrower quiet zone, the smaller code).
func TestQRCodeOfAResultScansOnEveryTerminal(t *testing.T) {
	t.Parallel()
	for _, c := range qrCases() {
		for _, at := range []struct {
			w, h int
			link string
		}{{116, 37, qrLink}, {76, 21, "https://pay.example.ru/p/7000124"}} {
			m := &resultModal{title: "Payment link made", facts: []string{"Payment 7000124 for 1,500.00 RUB"},
				link: at.link, km: keys.Default(), th: c.th}
			view := m.View(at.w, at.h)
			require.Contains(t, view, "▀", "a code is drawn at %dx%d", at.w, at.h)
			got, err := qrtest.DecodeScreen(strings.Split(view, "\n"), c.term)
			if assert.NoError(t, err, "theme dark=%v noColor=%v on a %s terminal at %dx%d", c.th.Dark, c.th.NoColor, c.term, at.w, at.h) {
				assert.Equal(t, at.link, got)
			}
		}
	}
}

// So does the code in the sticker pane.
func TestQRCodeOfAStickerScansOnEveryTerminal(t *testing.T) {
	t.Parallel()
	for _, c := range qrCases() {
		lines := qrLines(c.th, qrLink, 60, 80)
		require.NotEmpty(t, lines)
		got, err := qrtest.DecodeScreen(lines, c.term)
		if assert.NoError(t, err, "theme dark=%v noColor=%v on a %s terminal", c.th.Dark, c.th.NoColor, c.term) {
			assert.Equal(t, qrLink, got)
		}
	}
}
