package qr

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/ui/qr/qrtest"
)

// A code drawn for a terminal scans on it: dark or light, with colour or
// without, and with either quiet zone.
func TestDrawScansOnEveryTerminal(t *testing.T) {
	c, err := Encode(sbpLink)
	require.NoError(t, err)
	for _, term := range qrtest.Terminals {
		for _, o := range []Options{{}, {Quiet: 2}} {
			look := Look{Colour: term.Colour, Dark: term.Dark}
			got, err := qrtest.DecodeScreen(c.Draw(o, look), term)
			if assert.NoError(t, err, "%s, quiet zone %d", term, o.quiet()) {
				assert.Equal(t, sbpLink, got, "%s", term)
			}
		}
	}
}

// With colour the code is black on white whatever the terminal's own
// colours are, so it scans even where the dashboard took a light terminal
// for a dark one (the terminal did not say); and if the colours are lost
// on the way (a terminal that shows none), the glyphs still have the
// terminal's own colours the right way round.
func TestDrawWithColourDoesNotDependOnTheTerminal(t *testing.T) {
	c, err := Encode(sbpLink)
	require.NoError(t, err)
	for _, term := range qrtest.Terminals {
		if !term.Colour {
			continue
		}
		for _, guess := range []bool{true, false} {
			got, err := qrtest.DecodeScreen(c.Draw(Options{}, Look{Colour: true, Dark: guess}), term)
			if assert.NoError(t, err, "%s terminal taken for dark=%v", term, guess) {
				assert.Equal(t, sbpLink, got)
			}
		}
	}
	for _, dark := range []bool{true, false} {
		term := qrtest.Terminal{Dark: dark}
		got, err := qrtest.DecodeScreen(c.Draw(Options{}, Look{Colour: true, Dark: dark}), term)
		if assert.NoError(t, err, "colour asked for, %s", term) {
			assert.Equal(t, sbpLink, got)
		}
	}
}

// Every cell says both its colours, the quiet zone's blanks included; and
// without colour there is no colour at all.
func TestDrawSetsBothColours(t *testing.T) {
	c, err := Encode("https://pay.example/x")
	require.NoError(t, err)
	for _, dark := range []bool{true, false} {
		lines := c.Draw(Options{}, Look{Colour: true, Dark: dark})
		require.Len(t, lines, c.Height())
		for _, l := range lines {
			assert.Equal(t, c.Width(), ansi.StringWidth(l))
			assert.True(t, strings.HasPrefix(l, "\x1b["), "styled from its first cell: %q", l)
			assert.Contains(t, l, "38;2;", "a foreground")
			assert.Contains(t, l, "48;2;", "a background")
		}
		plain := c.Draw(Options{}, Look{Dark: dark})
		assert.Equal(t, c.Lines(Options{LightInk: dark}), plain, "no colour: the plain lines, ink as the terminal's text is")
	}
}

// qrtest reads a code at the first of several sizes that reads it (a few
// correct codes fool gozxing's detector at one size); a code drawn wrong
// reads at none of them.
func TestACodeWithAWrongModuleReadsAtNoSize(t *testing.T) {
	link := "https://127.0.0.1:33223/pay/43132579" // fools the detector at 4 pixels a module
	c, err := Encode(link)
	require.NoError(t, err)
	lines := c.Lines(Options{})
	got, err := qrtest.Decode(lines, false)
	require.NoError(t, err)
	assert.Equal(t, link, got)

	// A finder pattern's centre blanked: no phone finds the code.
	broken := append([]string(nil), lines...)
	row := []rune(broken[QuietZone/2+2])
	for x := QuietZone + 2; x <= QuietZone+4; x++ {
		row[x] = ' '
	}
	broken[QuietZone/2+2] = string(row)
	_, err = qrtest.Decode(broken, false)
	assert.Error(t, err)
}
