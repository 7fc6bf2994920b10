package views

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/ui/qr/qrtest"
)

func TestStickersListAndQRDecodesToPayload(t *testing.T) {
	e := newEnv(t, envOpts{tab: NewStickers})
	e.size(200, 50)
	e.init()
	s := e.tab.(*Stickers)
	require.NotZero(t, s.list.table.Len(), "the merchant's stickers are listed")
	assert.True(t, s.list.done, "the end of the list is reached")
	v := ansi.Strip(e.view(200, 50))
	assert.Contains(t, v, "— end of the list —")

	e.press("enter")
	require.True(t, s.detail.isOpen())
	st := s.detail.obj
	require.NotEmpty(t, st.Payload)
	assert.NotEmpty(t, st.Raw, "the sticker was read in full")

	// The pane draws the payload as a QR code: read it back as a phone would.
	lines := s.detailLines()
	var code []string
	for _, l := range lines {
		l = ansi.Strip(l)
		if strings.ContainsAny(l, "█▀▄") && strings.Trim(l, "█▀▄ ") == "" {
			code = append(code, l)
		}
	}
	require.NotEmpty(t, code, "a QR code is drawn")
	got, err := qrtest.Decode(code, true) // no colour, dark terminal: light ink
	require.NoError(t, err)
	assert.Equal(t, st.Payload, got)
}

func TestStickersWithoutV2SaysWhy(t *testing.T) {
	e := newEnv(t, envOpts{tab: NewStickers, v1Only: true})
	e.size(80, 24)
	e.init()
	v := ansi.Strip(e.view(80, 24))
	assert.Contains(t, strings.Join(strings.Fields(v), " "), "exist only in its current (v2) interface")
	assert.Zero(t, e.count.pages.Load(), "nothing is asked of a v1-only service")
}
