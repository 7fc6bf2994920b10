// Package qrtest reads a QR code drawn by package qr back into its text,
// as a phone would from the screen. It is for tests (it pulls in a QR
// decoder the dashboard itself does not need).
package qrtest

import (
	"fmt"
	"image"
	"image/color"
	"strings"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
	"github.com/makiuchi-d/gozxing"
	"github.com/makiuchi-d/gozxing/qrcode"
)

// Decode reads drawn lines (plain text, as qr.Code.Lines gives them) back
// into the payload; lightInk says the glyphs are the light colour.
func Decode(lines []string, lightInk bool) (string, error) {
	return atSomeSize(func(scale int) (*image.Gray, error) { return Render(lines, lightInk, scale) })
}

// scales are the sizes a code is looked at, largest first, in pixels a
// module. A phone sees a code at many sizes as it moves; gozxing's
// detector, which sees one picture, misjudges the version of a few
// correct codes at one size and reads them at another (the same picture
// decodes when it is told where the code is), so a code counts as
// readable when some size reads it. A code drawn wrong reads at none.
var scales = []int{4, 3, 2, 1}

// atSomeSize decodes the image paint gives at each of scales, and gives
// the first text read, or the error at the largest size.
func atSomeSize(paint func(scale int) (*image.Gray, error)) (string, error) {
	var first error
	for _, scale := range scales {
		img, err := paint(scale)
		if err != nil {
			return "", err
		}
		text, err := decodeImage(img)
		if err == nil {
			return text, nil
		}
		if first == nil {
			first = err
		}
	}
	return "", first
}

// decodeImage reads the QR code in an image, as a phone would.
func decodeImage(img image.Image) (string, error) {
	bmp, err := gozxing.NewBinaryBitmapFromImage(img)
	if err != nil {
		return "", err
	}
	res, err := qrcode.NewQRCodeReader().Decode(bmp, nil)
	if err != nil {
		return "", err
	}
	return res.GetText(), nil
}

// Modules parses drawn lines back into a grid of ink, one entry per
// module: each cell is one module wide and two module rows tall.
func Modules(lines []string) ([][]bool, error) {
	var grid [][]bool
	for i, line := range lines {
		var top, bottom []bool
		for _, r := range line {
			switch r {
			case '█':
				top, bottom = append(top, true), append(bottom, true)
			case '▀':
				top, bottom = append(top, true), append(bottom, false)
			case '▄':
				top, bottom = append(top, false), append(bottom, true)
			case ' ':
				top, bottom = append(top, false), append(bottom, false)
			default:
				return nil, fmt.Errorf("line %d: unexpected rune %q in %q", i, r, line)
			}
		}
		grid = append(grid, top, bottom)
	}
	return grid, nil
}

// Render paints drawn lines as a phone would see them on screen: every
// module as scale×scale pixels, ink in the foreground colour and blanks
// in the background colour, with a margin of terminal background around
// the drawing. lightInk picks white-on-black instead of black-on-white.
func Render(lines []string, lightInk bool, scale int) (*image.Gray, error) {
	fg, bg := color.Gray{Y: 0}, color.Gray{Y: 255}
	if lightInk {
		fg, bg = bg, fg
	}
	grid, err := Modules(lines)
	if err != nil {
		return nil, err
	}
	if len(grid) == 0 {
		return nil, fmt.Errorf("no lines")
	}
	const margin = 3 // modules of terminal background outside the drawing
	w, h := len(grid[0]), len(grid)
	img := image.NewGray(image.Rect(0, 0, (w+2*margin)*scale, (h+2*margin)*scale))
	for py := range img.Bounds().Dy() {
		for px := range img.Bounds().Dx() {
			x, y := px/scale-margin, py/scale-margin
			c := bg
			if y >= 0 && y < h && x >= 0 && x < w && grid[y][x] {
				c = fg
			}
			img.SetGray(px, py, c)
		}
	}
	return img, nil
}

// Terminal is how a terminal shows styled text: its own default colours
// (light text on a dark background, or dark on light) and whether it shows
// the colours a line asks for at all. Without colour, only the attributes
// apply: reverse video swaps the default colours.
type Terminal struct {
	Dark   bool // a dark background and light text; else light and dark
	Colour bool // shows the colours lines ask for
}

// Terminals are the four kinds of terminal a code must scan on.
var Terminals = []Terminal{{Dark: true, Colour: true}, {Dark: false, Colour: true}, {Dark: true}, {Dark: false}}

func (t Terminal) String() string {
	s := "light"
	if t.Dark {
		s = "dark"
	}
	if !t.Colour {
		s += ", no colour"
	}
	return s
}

// The grey levels of a terminal's default colours.
func (t Terminal) defaults() (fg, bg uint8) {
	if t.Dark {
		return 0xd0, 0x1c // light grey text on near black
	}
	return 0x24, 0xf4 // near black text on off-white
}

// Screen paints lines of styled text (SGR escape sequences, as a view
// draws them) the way terminal t shows them, every cell scale pixels wide
// and 2×scale tall, with a margin of the terminal's background around: a
// cell's upper and lower half are in its foreground or its background
// colour as its glyph says ('█', '▀', '▄'); any other glyph (text, a
// border) is drawn as background. The colours are the ones the cell's
// style sets where the terminal shows colours, else the terminal's own,
// swapped by reverse video. The styles are read by the terminal screen
// model Bubble Tea itself draws with (ultraviolet).
func Screen(lines []string, t Terminal, scale int) (*image.Gray, error) {
	w := 0
	for _, l := range lines {
		w = max(w, ansi.StringWidth(l))
	}
	h := len(lines)
	if w == 0 || h == 0 {
		return nil, fmt.Errorf("nothing drawn")
	}
	scr := uv.NewScreenBuffer(w, h)
	uv.NewStyledString(strings.Join(lines, "\n")).Draw(scr, scr.Bounds())
	dfg, dbg := t.defaults()
	grey := func(c color.Color, def uint8) uint8 {
		if c == nil || !t.Colour {
			return def
		}
		return color.GrayModel.Convert(c).(color.Gray).Y
	}
	const margin = 3 // cells of terminal background outside the drawing
	img := image.NewGray(image.Rect(0, 0, (w+2*margin)*scale, (h+2*margin)*2*scale))
	for i := range img.Pix {
		img.Pix[i] = dbg
	}
	for y := range h {
		for x := range w {
			c := scr.CellAt(x, y)
			if c == nil {
				continue
			}
			fg, bg := grey(c.Style.Fg, dfg), grey(c.Style.Bg, dbg)
			if c.Style.Attrs&uv.AttrReverse != 0 {
				fg, bg = bg, fg
			}
			top, bottom := bg, bg
			switch c.Content {
			case "█":
				top, bottom = fg, fg
			case "▀":
				top = fg
			case "▄":
				bottom = fg
			}
			for py := range 2 * scale {
				v := top
				if py >= scale {
					v = bottom
				}
				for px := range scale {
					img.SetGray((x+margin)*scale+px, ((y+margin)*2)*scale+py, color.Gray{Y: v})
				}
			}
		}
	}
	return img, nil
}

// DecodeScreen reads the QR code in lines of styled text back into its
// payload, as a phone would from terminal t's screen (Screen).
func DecodeScreen(lines []string, t Terminal) (string, error) {
	return atSomeSize(func(scale int) (*image.Gray, error) { return Screen(lines, t, scale) })
}
