package refunds

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/views/internal/viewtest"
	"paydash/views/tab"
)

// --- Refunds ---------------------------------------------------------------------

// On the golden clock: the seed's first merchant has few refunds, and at
// some real clocks none in the scope (2026-02-13 19:27:07 UTC).
func TestCopyMoreRefunds(t *testing.T) {
	t.Parallel()
	e := startedEnv(t, viewtest.Opts{Tab: New, Fixed: viewtest.GoldenNow}, 120, 30)
	sel := viewtest.Selected(t, e.Tab.(*Refunds).List)
	require.NotEmpty(t, sel.PaymentID)

	c := e.CopyChooser()
	text := viewtest.ChooserText(c)
	assert.Contains(t, text, "Copy from refund "+sel.ID)
	assert.Contains(t, text, "p  payment id  "+sel.PaymentID)
	clip, toast := viewtest.Choose(t, c, "p")
	assert.Equal(t, sel.PaymentID, clip)
	assert.Equal(t, "Payment id sent to the terminal's clipboard: "+sel.PaymentID, toast)

	clip, _ = viewtest.Choose(t, e.CopyChooser(), "down", "enter")
	assert.Equal(t, tab.FmtAmount(sel.Amount), clip, "the second field: the amount")

	n := len(viewtest.Offered(refundCopyFields(sel)))
	clip, _ = viewtest.Choose(t, e.CopyChooser(), viewtest.LastByArrows(n)...)
	assert.True(t, strings.HasPrefix(clip, "Refund "+sel.ID+" · "+tab.FmtAmount(sel.Amount)+" · "+string(sel.Status)+
		" · payment "+sel.PaymentID), clip)
}
