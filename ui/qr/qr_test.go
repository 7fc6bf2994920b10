package qr

import (
	"errors"
	"fmt"
	"image"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
	"github.com/makiuchi-d/gozxing"
	"github.com/makiuchi-d/gozxing/qrcode"
	rscqr "rsc.io/qr"

	"paydash/ui/qr/qrtest"
)

const sbpLink = "https://qr.nspk.ru/AS1000670LSS7DN18SJQDNP4B05KLJL2?type=01&bank=100000000001&sum=150000&cur=RUB&crc=C08B"

// cyrillic300 returns a 300-byte payload, mostly two-byte Cyrillic letters.
func cyrillic300(t *testing.T) string {
	t.Helper()
	s := "https://pay.example.ru/p?comment="
	for _, r := range strings.Repeat("Оплата заказа №4711, получатель ООО «Ромашка». ", 10) {
		if len(s)+utf8.RuneLen(r) > 300 {
			break
		}
		s += string(r)
	}
	s += strings.Repeat(".", 300-len(s))
	if len(s) != 300 || !utf8.ValidString(s) || utf8.RuneCountInString(s) > 200 {
		t.Fatalf("bad test payload: %d bytes, %d runes", len(s), utf8.RuneCountInString(s))
	}
	return s
}

func payloads(t *testing.T) map[string]string {
	return map[string]string{
		"sbp":          sbpLink,
		"short-url":    "https://example.com/p/42",
		"cyrillic-300": cyrillic300(t),
		"numeric":      "4100123456789",              // rsc.io/qr numeric mode
		"alphanumeric": "HTTPS://EXAMPLE.COM/PAY/42", // rsc.io/qr alphanumeric mode
	}
}

func modules(t *testing.T, lines []string) [][]bool {
	t.Helper()
	grid, err := qrtest.Modules(lines)
	if err != nil {
		t.Fatal(err)
	}
	return grid
}

func render(t *testing.T, lines []string, lightInk bool, scale int) *image.Gray {
	t.Helper()
	img, err := qrtest.Render(lines, lightInk, scale)
	if err != nil {
		t.Fatal(err)
	}
	return img
}

func decode(img image.Image) (string, error) {
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

func TestLinesDecodeToPayload(t *testing.T) {
	for name, payload := range payloads(t) {
		c, err := Encode(payload)
		if err != nil {
			t.Fatalf("%s: Encode: %v", name, err)
		}
		for _, lightInk := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/LightInk=%v", name, lightInk), func(t *testing.T) {
				lines := c.Lines(Options{LightInk: lightInk})
				got, err := decode(render(t, lines, lightInk, 4))
				if err != nil {
					t.Fatalf("decode %d-module code: %v\n%s", c.Size(), err, strings.Join(lines, "\n"))
				}
				if got != payload {
					t.Errorf("decoded %q, want %q", got, payload)
				}
			})
		}
	}
}

// The decoder does not read inverted codes, so the round trip above does
// check that each setting of LightInk yields dark-on-light on screen.
func TestWrongInkDoesNotDecode(t *testing.T) {
	c, err := Encode(sbpLink)
	if err != nil {
		t.Fatal(err)
	}
	for _, lightInk := range []bool{false, true} {
		lines := c.Lines(Options{LightInk: lightInk})
		if got, err := decode(render(t, lines, !lightInk, 4)); err == nil {
			t.Errorf("LightInk=%v drawn, shown as LightInk=%v: decoded %q, want a failure", lightInk, !lightInk, got)
		}
	}
}

func TestGeometry(t *testing.T) {
	for name, payload := range payloads(t) {
		c, err := Encode(payload)
		if err != nil {
			t.Fatalf("%s: Encode: %v", name, err)
		}
		if (c.Size()-17)%4 != 0 || c.Size() < 21 || c.Size() > 177 {
			t.Errorf("%s: Size() = %d, not a QR symbol size", name, c.Size())
		}
		if want := c.Size() + 2*QuietZone; c.Width() != want {
			t.Errorf("%s: Width() = %d, want %d", name, c.Width(), want)
		}
		if want := (c.Size() + 2*QuietZone + 1) / 2; c.Height() != want {
			t.Errorf("%s: Height() = %d, want %d", name, c.Height(), want)
		}
		for _, lightInk := range []bool{false, true} {
			lines := c.Lines(Options{LightInk: lightInk})
			if len(lines) != c.Height() {
				t.Errorf("%s/LightInk=%v: %d lines, Height() = %d", name, lightInk, len(lines), c.Height())
			}
			for i, line := range lines {
				if n := utf8.RuneCountInString(line); n != c.Width() {
					t.Errorf("%s/LightInk=%v: line %d has %d runes, Width() = %d", name, lightInk, i, n, c.Width())
				}
				if n := ansi.StringWidth(line); n != c.Width() {
					t.Errorf("%s/LightInk=%v: line %d is %d cells wide, Width() = %d", name, lightInk, i, n, c.Width())
				}
				if strings.ContainsRune(line, '\x1b') {
					t.Errorf("%s/LightInk=%v: line %d has an escape sequence: %q", name, lightInk, i, line)
				}
			}
		}
	}
}

// TestModules checks the drawing module by module against the encoder's
// symbol: the quiet zone (and the extra row under it) is light on every
// side, and every module of the symbol has its own colour.
func TestModules(t *testing.T) {
	for name, payload := range payloads(t) {
		c, err := Encode(payload)
		if err != nil {
			t.Fatalf("%s: Encode: %v", name, err)
		}
		for _, lightInk := range []bool{false, true} {
			grid := modules(t, c.Lines(Options{LightInk: lightInk}))
			if len(grid) != c.Size()+2*QuietZone+1 {
				t.Fatalf("%s/LightInk=%v: %d module rows, want %d", name, lightInk, len(grid), c.Size()+2*QuietZone+1)
			}
			// The top-left finder pattern's corner is dark: the drawing
			// is not all light.
			if dark := grid[QuietZone][QuietZone] != lightInk; !dark {
				t.Errorf("%s/LightInk=%v: finder pattern corner is light", name, lightInk)
			}
			bad := 0
			for y, row := range grid {
				for x, ink := range row {
					dark := ink != lightInk
					sx, sy := x-QuietZone, y-QuietZone
					inSymbol := sx >= 0 && sx < c.Size() && sy >= 0 && sy < c.Size()
					switch {
					case !inSymbol && dark:
						t.Errorf("%s/LightInk=%v: quiet zone module (%d,%d) is dark", name, lightInk, x, y)
						bad++
					case inSymbol && dark != c.sym.Black(sx, sy):
						t.Errorf("%s/LightInk=%v: module (%d,%d) dark=%v, symbol has %v", name, lightInk, sx, sy, dark, !dark)
						bad++
					}
					if bad > 10 {
						t.FailNow()
					}
				}
			}
		}
	}
}

func TestLevelFallback(t *testing.T) {
	tests := []struct {
		payload string
		level   rscqr.Level
	}{
		{sbpLink, rscqr.M},
		{cyrillic300(t), rscqr.M},
		{strings.Repeat("a", 2331), rscqr.M}, // the most bytes level M holds
		{strings.Repeat("a", 2332), rscqr.L},
		{strings.Repeat("a", 2953), rscqr.L}, // the most bytes level L holds
	}
	for _, tt := range tests {
		c, err := Encode(tt.payload)
		if err != nil {
			t.Errorf("%d bytes: Encode: %v", len(tt.payload), err)
			continue
		}
		if c.level != tt.level {
			t.Errorf("%d bytes: level %c, want %c", len(tt.payload), "LMQH"[c.level], "LMQH"[tt.level])
		}
	}

	// A code at level L still reads back.
	payload := strings.Repeat("платёж ", 200) // 2600 bytes
	c, err := Encode(payload)
	if err != nil {
		t.Fatal(err)
	}
	if c.level != rscqr.L {
		t.Errorf("level %c, want L", "LMQH"[c.level])
	}
	got, err := decode(render(t, c.Lines(Options{}), false, 3))
	if err != nil {
		t.Fatalf("decode %d-module code: %v", c.Size(), err)
	}
	if got != payload {
		t.Errorf("decoded %q, want %q", got, payload)
	}
}

func TestEncodeErrors(t *testing.T) {
	if c, err := Encode(""); !errors.Is(err, ErrEmpty) || c != nil {
		t.Errorf(`Encode("") = %v, %v; want nil, ErrEmpty`, c, err)
	}
	for _, n := range []int{2954, 5000} {
		c, err := Encode(strings.Repeat("x", n))
		if c != nil || !errors.Is(err, ErrTooLong) {
			t.Fatalf("Encode(%d bytes) = %v, %v; want nil, ErrTooLong", n, c, err)
		}
		if want := fmt.Sprintf("qr: payload of %d bytes is too long for a QR code", n); err.Error() != want {
			t.Errorf("Encode(%d bytes) error %q, want %q", n, err, want)
		}
	}
}

// TestReportSizes logs what typical payloads need on screen (go test -v),
// and what they would need at level L.
func TestReportSizes(t *testing.T) {
	url80 := "https://pay.example.com/invoice/" + strings.Repeat("0123456789abcdef", 3) // 80 bytes
	for _, p := range []string{"https://example.com/p/42", url80, sbpLink, cyrillic300(t)} {
		c, err := Encode(p)
		if err != nil {
			t.Fatal(err)
		}
		atL, err := rscqr.Encode(p, rscqr.L)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%3d bytes: level %c, %d modules, %d×%d cells (at level L: %d×%d)",
			len(p), "LMQH"[c.level], c.Size(), c.Width(), c.Height(),
			atL.Size+2*QuietZone, (atL.Size+2*QuietZone+1)/2)
	}
}
