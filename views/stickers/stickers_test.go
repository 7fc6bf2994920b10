package stickers

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/ui/qr/qrtest"
	"paydash/views/internal/viewtest"
)

func TestStickersListAndQRDecodesToPayload(t *testing.T) {
	t.Parallel()
	e, s := started(t, viewtest.Opts{}, 200, 50)
	require.NotZero(t, s.List.Table.Len(), "the merchant's stickers are listed")
	assert.True(t, s.List.Done, "the end of the list is reached")
	v := ansi.Strip(e.View(200, 50))
	assert.Contains(t, v, "— end of the list —")

	e.Press("enter")
	require.True(t, s.Pane.IsOpen())
	st := s.Pane.Obj
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
	t.Parallel()
	e := startedEnv(t, viewtest.Opts{Tab: New, V1Only: true}, 80, 24)
	v := ansi.Strip(e.View(80, 24))
	assert.Contains(t, strings.Join(strings.Fields(v), " "), "exist only in its current (v2) interface")
	assert.Zero(t, e.Count.Pages.Load(), "nothing is asked of a v1-only service")
}

// The sticker's pane shows its payload whole: the line is wrapped under
// its label, never cut, at 80x24 (the pane instead of the list) and at
// 200x50 (beside it); Y copies it whole too (TestCopyMoreStickers).
func TestGoldenStickerPaneShowsThePayloadWhole(t *testing.T) {
	t.Parallel()
	for _, sz := range [][2]int{{80, 24}, {200, 50}} {
		e := newEnv(t, viewtest.Opts{Tab: New, Fixed: viewtest.GoldenNow})
		e.Size(sz[0], sz[1])
		e.Init()
		e.Press("enter")
		s := e.Tab.(*Stickers)
		require.True(t, s.Pane.IsOpen())
		payload := s.Pane.Obj.Payload
		require.Greater(t, len(payload), 80, "a payload longer than the pane is wide")
		v := ansi.Strip(e.View(sz[0], sz[1]))
		assert.Equal(t, payload, viewtest.PaneValue(v, "Payload"), "%dx%d: the payload whole", sz[0], sz[1])
		viewtest.GoldenCheck(t, fmt.Sprintf("stickers_pane_payload_%dx%d", sz[0], sz[1]), v)
	}
}

// started is a fresh env with o's tab (this package's when o names none),
// sized w × h and started, and that tab.
func started(t *testing.T, o viewtest.Opts, w, h int) (*env, *Stickers) {
	if o.Tab == nil {
		o.Tab = New
	}
	e := startedEnv(t, o, w, h)
	return e, e.Tab.(*Stickers)
}
