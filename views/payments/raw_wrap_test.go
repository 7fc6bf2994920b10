package payments

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend/money"
	"paydash/backend/sandbox"
	"paydash/ui"
	"paydash/views/internal/viewtest"
)

// The raw view wraps a line longer than the pane instead of cutting it:
// every character of the answer can be read, at 80 columns and beside the
// list.
func TestTheRawViewWrapsLongLines(t *testing.T) {
	t.Parallel()
	e := newEnv(t, viewtest.Opts{Changes: true})
	st := e.Sandbox().Store()
	m, ok := st.Merchant(e.Scope.MerchantID)
	require.True(t, ok)
	long := "Order for the office: " + strings.Repeat("flat white, ", 12) + "and a receipt to accounts@example.com"
	amount := money.Amount{Value: money.MustParse("10"), Currency: m.Currencies[0]}
	made, err := st.CreatePayment(sandbox.PaymentRequest{MerchantID: m.ID, Amount: &amount,
		PaymentMethod: sandbox.MethodBankCard, Card: &sandbox.CardData{PAN: "4111111111111111", Expiry: "12/30", CVC: "123"},
		Invoice: sandbox.Invoice{OrderNo: "RAW-1", Description: long}})
	require.NoError(t, err)
	for _, size := range [][2]int{{80, 24}, {200, 50}} {
		e.Size(size[0], size[1])
		e.Init()
		p := e.Tab.(*Payments)
		e.Send(ui.RefreshMsg{})
		require.True(t, p.List.Table.SelectByID(made.ID))
		e.Press("enter", "w")
		require.True(t, p.Pane.Raw)
		var text strings.Builder
		for _, l := range p.Pane.Lines(e.Tab.(*Payments).Theme, "Payment") {
			l = ansi.Strip(l)
			assert.LessOrEqual(t, ansi.StringWidth(l), size[0], "no line is wider than the screen")
			text.WriteString(strings.TrimRight(strings.TrimLeft(l, "│ "), " "))
		}
		// The pane pads its lines: compare without spaces.
		unspaced := func(s string) string { return strings.ReplaceAll(s, " ", "") }
		assert.Contains(t, unspaced(text.String()), unspaced(`"description": "`+long+`"`), "%dx%d: the whole line, wrapped", size[0], size[1])
		e.Press("esc", "esc")
	}
}
