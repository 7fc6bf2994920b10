package views

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/keys"
	"paydash/ui"
)

func TestRefundsListDetailAndPaymentLink(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{tab: NewRefunds})
	e.size(80, 24)
	e.init()
	r := e.tab.(*Refunds)
	st := r.Status()
	require.Positive(t, st.Rows)
	assert.Empty(t, e.errors())
	assert.Equal(t, "Refunds", e.tab.Title())
	v := ansi.Strip(e.view(80, 24))
	head := strings.Split(v, "\n")[0]
	for _, col := range []string{"ID", "Created", "Status", "Amount", "Payment"} {
		assert.Contains(t, head, col)
	}
	for _, a := range []keys.Action{keys.ActCapture, keys.ActCancelHold, keys.ActRefund, keys.ActRevoke} {
		ok, why := e.tab.Available(a)
		assert.False(t, ok)
		assert.Empty(t, why)
	}

	sel, ok := r.list.table.Selected()
	require.True(t, ok)
	e.press("enter")
	require.True(t, r.detail.isOpen())
	assert.Equal(t, keys.ContextDetail, e.tab.Context())
	assert.NotEmpty(t, r.detail.obj.Raw, "the refund was read in full")
	d := ansi.Strip(e.view(80, 24))
	assert.Contains(t, d, "Refund "+sel.ID)
	assert.Contains(t, d, "Payment          "[:14]+" "+sel.PaymentID)
	assert.Contains(t, d, "enter: open payment "+sel.PaymentID)

	e.press("w")
	assert.Contains(t, ansi.Strip(e.view(80, 24)), `"id": "`+sel.ID+`"`)
	e.press("w")

	// enter again opens the refunded payment on the Payments tab.
	e.press("enter")
	require.NotEmpty(t, e.shell)
	sw, ok := e.shell[len(e.shell)-1].(ui.SwitchTabMsg)
	require.True(t, ok)
	assert.Equal(t, ui.TabPayments, sw.Tab)
	assert.Equal(t, ui.JumpMsg{Query: sel.PaymentID}, sw.Then)

	e.press("esc")
	assert.False(t, r.detail.isOpen())

	// At 160 columns the pane opens beside the list.
	e.size(160, 48)
	e.press("enter")
	wide := ansi.Strip(e.view(160, 48))
	assert.Contains(t, strings.Split(wide, "\n")[0], "Payment")
	assert.Contains(t, strings.Split(wide, "\n")[0], "Refund "+sel.ID)
}

func TestRefundsOverV1Only(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{tab: NewRefunds, v1Only: true})
	e.size(100, 30)
	e.init()
	r := e.tab.(*Refunds)
	require.Empty(t, e.errors())
	require.Positive(t, r.Status().Rows)
	sel, _ := r.list.table.Selected()
	assert.Empty(t, sel.Amount.Currency, "v1 lists give no currency")
	assert.True(t, sel.Created.IsZero())
	v := ansi.Strip(e.view(100, 30))
	assert.Contains(t, v, fmtListTime(sel.Updated))

	e.press("enter")
	require.True(t, r.detail.isOpen())
	assert.Nil(t, r.detail.err, "v1 cannot read one refund: not an error")
	d := ansi.Strip(e.view(100, 30))
	assert.Contains(t, d, "Refund "+sel.ID)
	assert.Contains(t, d, fmtAmount(sel.Amount))
	assert.NotContains(t, d, "✗")
	e.press("w")
	assert.Contains(t, ansi.Strip(e.view(100, 30)), "no body")
	for _, sz := range [][2]int{{80, 24}, {160, 48}, {200, 50}} {
		e.view(sz[0], sz[1])
	}
}

func TestRefundsFilterAndScope(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{tab: NewRefunds})
	e.size(80, 24)
	e.init()
	r := e.tab.(*Refunds)
	all := r.Status().Rows
	e.press("/")
	e.typeText("rejected")
	assert.Less(t, r.Status().Shown, all)
	e.press("esc")
	assert.Equal(t, all, r.Status().Shown)

	other := e.scope
	other.MerchantID = e.srv.Info().MerchantIDs[1]
	e.send(ui.ScopeMsg{Scope: other})
	for _, x := range r.list.table.Rows() {
		assert.Equal(t, other.MerchantID, x.MerchantID)
	}
}
