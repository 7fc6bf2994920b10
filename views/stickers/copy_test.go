package stickers

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/views/internal/viewtest"
)

// --- Stickers --------------------------------------------------------------------

func TestCopyMoreStickers(t *testing.T) {
	t.Parallel()
	e := startedEnv(t, viewtest.Opts{Tab: New}, 160, 40)
	s := viewtest.Selected(t, e.Tab.(*Stickers).List)
	require.NotEmpty(t, s.Payload)

	c := e.CopyChooser()
	assert.Contains(t, viewtest.ChooserText(c), "Copy from sticker "+s.ID)
	clip, toast := viewtest.Choose(t, c, "l")
	assert.Equal(t, s.Payload, clip, "the payment link, whole")
	assert.True(t, strings.HasPrefix(toast, "Payment link sent to the terminal's clipboard: "), toast)

	if s.Description != "" {
		clip, _ = viewtest.Choose(t, e.CopyChooser(), "d")
		assert.Equal(t, strings.TrimSpace(s.Description), clip)
	}
	n := len(viewtest.Offered(stickerCopyFields(s)))
	clip, _ = viewtest.Choose(t, e.CopyChooser(), viewtest.LastByArrows(n)...)
	assert.True(t, strings.HasPrefix(clip, "Sticker "+s.ID+" · "+s.Status), clip)
}
