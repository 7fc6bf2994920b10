package refunds

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/keys"
	"paydash/ui"
	"paydash/views/internal/viewtest"
	"paydash/views/tab"
)

// On the golden clock: the seed's first merchant has few refunds, and at
// some real clocks none in the scope (2026-02-13 19:27:07 UTC).
func TestRefundsListDetailAndPaymentLink(t *testing.T) {
	t.Parallel()
	e, r := started(t, viewtest.Opts{Fixed: viewtest.GoldenNow}, 80, 24)
	st := r.Status()
	require.Positive(t, st.Rows)
	assert.Empty(t, e.Errors())
	assert.Equal(t, "Refunds", e.Tab.Title())
	v := ansi.Strip(e.View(80, 24))
	head := strings.Split(v, "\n")[0]
	for _, col := range []string{"ID", "Created", "Status", "Amount", "Payment"} {
		assert.Contains(t, head, col)
	}
	for _, a := range []keys.Action{keys.ActCapture, keys.ActCancelHold, keys.ActRefund, keys.ActRevoke} {
		ok, why := e.Tab.Available(a)
		assert.False(t, ok)
		assert.Empty(t, why)
	}

	sel, ok := r.List.Table.Selected()
	require.True(t, ok)
	e.Press("enter")
	require.True(t, r.Pane.IsOpen())
	assert.Equal(t, keys.ContextDetail, e.Tab.Context())
	assert.NotEmpty(t, r.Pane.Obj.Raw, "the refund was read in full")
	d := ansi.Strip(e.View(80, 24))
	assert.Contains(t, d, "Refund "+sel.ID)
	assert.Contains(t, d, "Payment          "[:14]+" "+sel.PaymentID)
	assert.Contains(t, d, "enter: open payment "+sel.PaymentID)

	e.Press("w")
	assert.Contains(t, ansi.Strip(e.View(80, 24)), `"id": "`+sel.ID+`"`)
	e.Press("w")

	// enter again opens the refunded payment on the Payments tab.
	e.Press("enter")
	require.NotEmpty(t, e.Shell)
	sw, ok := e.Shell[len(e.Shell)-1].(ui.SwitchTabMsg)
	require.True(t, ok)
	assert.Equal(t, ui.TabPayments, sw.Tab)
	assert.Equal(t, ui.JumpMsg{Query: sel.PaymentID}, sw.Then)

	e.Press("esc")
	assert.False(t, r.Pane.IsOpen())

	// At 160 columns the pane opens beside the list.
	e.Size(160, 48)
	e.Press("enter")
	wide := ansi.Strip(e.View(160, 48))
	assert.Contains(t, strings.Split(wide, "\n")[0], "Payment")
	assert.Contains(t, strings.Split(wide, "\n")[0], "Refund "+sel.ID)
}

func TestRefundsOverV1Only(t *testing.T) {
	t.Parallel()
	e, r := started(t, viewtest.Opts{Tab: New, V1Only: true}, 100, 30)
	require.Empty(t, e.Errors())
	require.Positive(t, r.Status().Rows)
	sel, _ := r.List.Table.Selected()
	assert.Empty(t, sel.Amount.Currency, "v1 lists give no currency")
	assert.True(t, sel.Created.IsZero())
	v := ansi.Strip(e.View(100, 30))
	assert.Contains(t, v, tab.FmtListTime(sel.Updated))

	e.Press("enter")
	require.True(t, r.Pane.IsOpen())
	assert.Nil(t, r.Pane.Err, "v1 cannot read one refund: not an error")
	d := ansi.Strip(e.View(100, 30))
	assert.Contains(t, d, "Refund "+sel.ID)
	assert.Contains(t, d, tab.FmtAmount(sel.Amount))
	assert.NotContains(t, d, "✗")
	e.Press("w")
	assert.Contains(t, ansi.Strip(e.View(100, 30)), "no body")
	for _, sz := range [][2]int{{80, 24}, {160, 48}, {200, 50}} {
		e.View(sz[0], sz[1])
	}
}

// On the golden clock, whose scope holds refunds of the first merchant
// that are not rejected: at some real clocks it has none in the scope
// (2026-02-13 19:27:07 UTC), and the filter had nothing to hide.
func TestRefundsFilterAndScope(t *testing.T) {
	t.Parallel()
	e, r := started(t, viewtest.Opts{Fixed: viewtest.GoldenNow}, 80, 24)
	all := r.Status().Rows
	e.Press("/")
	e.TypeText("rejected")
	assert.Less(t, r.Status().Shown, all)
	e.Press("esc")
	assert.Equal(t, all, r.Status().Shown)

	other := e.Scope
	other.MerchantID = e.Info().MerchantIDs[1]
	e.Send(ui.ScopeMsg{Scope: other})
	for _, x := range r.List.Table.Rows() {
		assert.Equal(t, other.MerchantID, x.MerchantID)
	}
}

// started is a fresh env with o's tab (this package's when o names none),
// sized w × h and started, and that tab.
func started(t *testing.T, o viewtest.Opts, w, h int) (*env, *Refunds) {
	if o.Tab == nil {
		o.Tab = New
	}
	e := startedEnv(t, o, w, h)
	return e, e.Tab.(*Refunds)
}
