// Package qr draws QR codes as plain terminal text, so that a phone camera
// can read a payment sticker's payload or a payment-page address straight
// off the screen.
//
// Encode makes the symbol with rsc.io/qr at error correction level M
// (falling back to L for payloads too long for M). Lines draws it with the
// half-block characters '▀', '▄', '█' and space: a terminal cell is about
// twice as tall as it is wide, so putting two module rows in each text line
// gives square modules and halves the height the code needs. Around the
// symbol Lines draws the quiet zone of QuietZone light modules that the
// standard requires on every side; without it a scanner cannot find the
// finder patterns, and the terminal's own background or the neighbouring
// text is no substitute.
//
// Lines gives plain text whose glyphs are the "ink" and whose blanks show
// the background; Draw gives the lines ready to print for a terminal: with
// colour, every cell in explicit black and white (foreground and
// background both set), and without, the glyphs in the terminal's own text
// colour. In both, the glyphs are the modules that are the same shade as
// the terminal's text, so that a code whose colours are lost on the way
// still reads right. docs/qr.md says why this is the drawing.
package qr

import (
	"errors"
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"
	"rsc.io/qr"
)

// QuietZone is the width, in modules, of the light margin drawn on every
// side of the symbol: the minimum that the QR code standard requires.
const QuietZone = 4

// ErrEmpty is returned by Encode for an empty payload.
var ErrEmpty = errors.New("qr: empty payload")

// ErrTooLong matches, with errors.Is, the error Encode returns for a payload
// that does not fit in the largest QR code even at error correction level L.
var ErrTooLong = errors.New("qr: payload is too long for a QR code")

type tooLongError struct{ n int }

func (e *tooLongError) Error() string {
	return fmt.Sprintf("qr: payload of %d bytes is too long for a QR code", e.n)
}

func (e *tooLongError) Is(target error) bool { return target == ErrTooLong }

// Code is an encoded QR symbol, ready to be drawn with Lines.
type Code struct {
	sym   *qr.Code
	level qr.Level
}

// Encode encodes payload (as its UTF-8 bytes, or in the QR numeric or
// alphanumeric mode when the payload allows it) at error correction level
// M, or at level L when the payload is too long for M. It fails with
// ErrEmpty for an empty payload and with an error matching ErrTooLong, whose
// message gives the payload's length in bytes, for one too long for L.
func Encode(payload string) (*Code, error) {
	if payload == "" {
		return nil, ErrEmpty
	}
	for _, level := range []qr.Level{qr.M, qr.L} {
		sym, err := qr.Encode(payload, level)
		if err == nil {
			return &Code{sym: sym, level: level}, nil
		}
	}
	// rsc.io/qr fails only when no version up to 40 holds the payload.
	return nil, &tooLongError{n: len(payload)}
}

// EncodeCompact is Encode at error correction level L: the smallest code
// for the payload (an SBP link of about 100 bytes is 37 modules a side at L,
// 41 at M), for a screen too short for Encode's. A screen shows it sharp, so
// the lower correction costs little.
func EncodeCompact(payload string) (*Code, error) {
	if payload == "" {
		return nil, ErrEmpty
	}
	sym, err := qr.Encode(payload, qr.L)
	if err != nil {
		return nil, &tooLongError{n: len(payload)}
	}
	return &Code{sym: sym, level: qr.L}, nil
}

// Size returns the number of modules on each side of the symbol, without
// the quiet zone.
func (c *Code) Size() int {
	if c.sym == nil {
		return 0
	}
	return c.sym.Size
}

// Width returns the width, in terminal cells, of every line that Lines
// draws: Size() plus the quiet zone on both sides.
func (c *Code) Width() int { return c.Size() + 2*QuietZone }

// Height returns the number of lines that Lines draws: two module rows per
// line, rounded up.
func (c *Code) Height() int { return (c.Width() + 1) / 2 }

// Options controls how Lines draws a Code.
type Options struct {
	// LightInk says the lines will be printed light-on-dark (as unstyled
	// text is on a dark-background terminal, or with an explicit light
	// foreground on a dark background), so Lines draws the light modules
	// and the quiet zone as glyphs and leaves the dark modules blank;
	// leave it false for dark-on-light, where the dark modules are glyphs.
	LightInk bool
	// Quiet is the quiet zone drawn, in modules: 0 means QuietZone, the
	// standard's. Phones read a code on a screen with 2, which a dialog in
	// an 80×24 terminal may need to fit; never use less.
	Quiet int
}

func (o Options) quiet() int {
	if o.Quiet <= 0 {
		return QuietZone
	}
	return o.Quiet
}

// HeightWith is the number of lines Lines(o) draws.
func (c *Code) HeightWith(o Options) int { return (c.Size() + 2*o.quiet() + 1) / 2 }

// WidthWith is the width, in cells, of every line Lines(o) draws.
func (c *Code) WidthWith(o Options) int { return c.Size() + 2*o.quiet() }

// Lines draws the code and its quiet zone as HeightWith(opt) lines of plain
// text (Height() with the standard quiet zone), top to bottom, with no
// escape sequences and no trimming: each line is exactly WidthWith(opt) cells (and runes) made of '▀', '▄', '█' and space, each
// cell one module wide and two module rows tall. The symbol has an odd
// number of module rows, so the lower half of the last line is one more
// light row below the quiet zone.
func (c *Code) Lines(opt Options) []string {
	q := opt.quiet()
	lines := make([]string, 0, c.HeightWith(opt))
	var b strings.Builder
	end := c.Size() + q
	for y := -q; y < end; y += 2 {
		b.Reset()
		for x := -q; x < end; x++ {
			top := c.dark(x, y) != opt.LightInk
			bottom := c.dark(x, y+1) != opt.LightInk
			switch {
			case top && bottom:
				b.WriteRune('█')
			case top:
				b.WriteRune('▀')
			case bottom:
				b.WriteRune('▄')
			default:
				b.WriteByte(' ')
			}
		}
		lines = append(lines, b.String())
	}
	return lines
}

// dark reports whether the module at (x, y) of the symbol is dark; modules
// outside the symbol, in the quiet zone, are light.
func (c *Code) dark(x, y int) bool {
	return c.sym != nil && c.sym.Black(x, y)
}

// Look is what the caller knows of the terminal a code is drawn for.
type Look struct {
	// Colour: colours may be used (not NO_COLOR).
	Colour bool
	// Dark: the terminal's background is dark and its text light (as it
	// answered the background colour query; dark when it did not).
	Dark bool
}

// The paper a code is printed on, with colour: black modules on white, the
// quiet zone included. The glyphs are whichever of the two the terminal's
// own text colour is nearer to.
var (
	blackInk = lipgloss.NewStyle().Foreground(lipgloss.Color("#000000")).Background(lipgloss.Color("#FFFFFF"))
	whiteInk = lipgloss.NewStyle().Foreground(lipgloss.Color("#FFFFFF")).Background(lipgloss.Color("#000000"))
)

// Draw draws the code for a terminal as Lines does, with o's quiet zone:
// the glyphs are the dark modules on a light terminal and the light ones
// (the quiet zone among them) on a dark one, so that they are what the
// terminal's own text colour shows right. With colour, every cell also
// says both its colours, black and white, so the code is black on white
// whatever the terminal's colours are (and even if Dark is a wrong guess).
func (c *Code) Draw(o Options, look Look) []string {
	o.LightInk = look.Dark
	lines := c.Lines(o)
	if !look.Colour {
		return lines
	}
	st := blackInk
	if look.Dark {
		st = whiteInk
	}
	for i, l := range lines {
		lines[i] = st.Render(l)
	}
	return lines
}
