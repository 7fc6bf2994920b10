// Package qrtest reads a QR code drawn by package qr back into its text,
// as a phone would from the screen. It is for tests (it pulls in a QR
// decoder the dashboard itself does not need).
package qrtest

import (
	"fmt"
	"image"
	"image/color"

	"github.com/makiuchi-d/gozxing"
	"github.com/makiuchi-d/gozxing/qrcode"
)

// Decode reads drawn lines (plain text, as qr.Code.Lines gives them) back
// into the payload; lightInk says the glyphs are the light colour.
func Decode(lines []string, lightInk bool) (string, error) {
	img, err := Render(lines, lightInk, 4)
	if err != nil {
		return "", err
	}
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
