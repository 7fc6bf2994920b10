package tokens

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend/known"
	"paydash/keys"
	"paydash/ui"
	"paydash/views/internal/viewtest"
)

// --- Tokens ----------------------------------------------------------------------

func TestCopyMoreTokens(t *testing.T) {
	t.Parallel()
	store := known.NewMemory()
	e := startedEnv(t, viewtest.Opts{Changes: true, Tab: withKnown(store)}, 140, 30)
	ok, why := e.Tab.Available(keys.ActCopyMore)
	assert.False(t, ok)
	assert.Equal(t, "no token is selected", why)

	tok := e.NewToken()
	e.Send(ui.JumpMsg{Query: tok.ID})
	require.True(t, e.Tab.(*Tokens).Pane.IsOpen())

	c := e.CopyChooser()
	text := viewtest.ChooserText(c)
	assert.Contains(t, text, "Copy from token "+tok.ID)
	assert.Contains(t, text, "c  card     "+tok.Title)
	clip, toast := viewtest.Choose(t, c, "c")
	assert.Equal(t, tok.Title, clip)
	assert.Equal(t, "Card sent to the terminal's clipboard: "+tok.Title, toast)

	v := e.Tab.(*Tokens).Pane.Obj
	n := len(viewtest.Offered(tokenCopyFields(v)))
	clip, _ = viewtest.Choose(t, e.CopyChooser(), viewtest.LastByArrows(n)...)
	assert.True(t, strings.HasPrefix(clip, "Token "+tok.ID+" · "+tok.Title+" · Active"), clip)
}
