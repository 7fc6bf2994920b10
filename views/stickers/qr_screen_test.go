package stickers

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/ui/qr/qrtest"
	"paydash/views/internal/viewtest"
)

// So does the code in the sticker pane.
func TestQRCodeOfAStickerScansOnEveryTerminal(t *testing.T) {
	t.Parallel()
	for _, c := range viewtest.QRCases() {
		lines := qrLines(c.Th, viewtest.QRLink, 60, 80)
		require.NotEmpty(t, lines)
		got, err := qrtest.DecodeScreen(lines, c.Term)
		if assert.NoError(t, err, "theme dark=%v noColor=%v on a %s terminal", c.Th.Dark, c.Th.NoColor, c.Term) {
			assert.Equal(t, viewtest.QRLink, got)
		}
	}
}
