package views

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/keys"
	"paydash/ui/qr/qrtest"
	"paydash/views/internal/viewtest"
	"paydash/views/tab"
)

// The dialog of a link made shows a code that a phone reads off the
// screen, on a dark and on a light terminal, with and without colour, in
// a roomy window and at 80×24 (the narrower quiet zone, the smaller code).
func TestQRCodeOfAResultScansOnEveryTerminal(t *testing.T) {
	t.Parallel()
	for _, c := range viewtest.QRCases() {
		for _, at := range []struct {
			w, h int
			link string
		}{{116, 37, viewtest.QRLink}, {76, 21, "https://pay.example.ru/p/7000124"}} {
			m := &tab.ResultModal{Title: "Payment link made", Facts: []string{"Payment 7000124 for 1,500.00 RUB"},
				Link: at.link, Km: keys.Default(), Th: c.Th}
			view := m.View(at.w, at.h)
			require.Contains(t, view, "▀", "a code is drawn at %dx%d", at.w, at.h)
			got, err := qrtest.DecodeScreen(strings.Split(view, "\n"), c.Term)
			if assert.NoError(t, err, "theme dark=%v noColor=%v on a %s terminal at %dx%d", c.Th.Dark, c.Th.NoColor, c.Term, at.w, at.h) {
				assert.Equal(t, at.link, got)
			}
		}
	}
}
