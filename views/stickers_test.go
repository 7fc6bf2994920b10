package views

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/ui/qr/qrtest"
)

func TestStickersListAndQRDecodesToPayload(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
	e := newEnv(t, envOpts{tab: NewStickers, v1Only: true})
	e.size(80, 24)
	e.init()
	v := ansi.Strip(e.view(80, 24))
	assert.Contains(t, strings.Join(strings.Fields(v), " "), "exist only in its current (v2) interface")
	assert.Zero(t, e.count.pages.Load(), "nothing is asked of a v1-only service")
}

// The sticker's pane shows its payload whole: the line is wrapped under
// its label, never cut, at 80x24 (the pane instead of the list) and at
// 200x50 (beside it); Y copies it whole too (TestCopyMoreStickers).
func TestGoldenStickerPaneShowsThePayloadWhole(t *testing.T) {
	t.Parallel()
	for _, sz := range [][2]int{{80, 24}, {200, 50}} {
		e := newEnv(t, envOpts{tab: NewStickers, fixed: goldenNow})
		e.size(sz[0], sz[1])
		e.init()
		e.press("enter")
		s := e.tab.(*Stickers)
		require.True(t, s.detail.isOpen())
		payload := s.detail.obj.Payload
		require.Greater(t, len(payload), 80, "a payload longer than the pane is wide")
		v := ansi.Strip(e.view(sz[0], sz[1]))
		assert.Equal(t, payload, paneValue(v, "Payload"), "%dx%d: the payload whole", sz[0], sz[1])
		goldenCheck(t, fmt.Sprintf("stickers_pane_payload_%dx%d", sz[0], sz[1]), v)
	}
}

// paneValue is the value of a pane's field as the screen shows it: the
// text right of its label and the lines wrapped under it (blank where the
// label is), joined.
func paneValue(screen, label string) string {
	var out strings.Builder
	from, col := -1, -1
	for _, l := range strings.Split(screen, "\n") {
		r := []rune(l)
		if col < 0 {
			i := strings.Index(l, label+" ")
			if i < 0 {
				continue
			}
			from = len([]rune(l[:i]))
			col = from + len([]rune(label))
			for col < len(r) && r[col] == ' ' {
				col++
			}
			out.WriteString(strings.TrimRight(string(r[col:]), " "))
			continue
		}
		if len(r) <= col || strings.TrimSpace(string(r[from:col])) != "" {
			break
		}
		next := strings.TrimRight(string(r[col:]), " ")
		if next == "" {
			break
		}
		out.WriteString(next)
	}
	return out.String()
}
