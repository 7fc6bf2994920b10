package views

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend"
	"paydash/backend/money"
	"paydash/backend/sandbox"
	"paydash/keys"
	"paydash/ui"
)

// searchHeld narrows the Payments list to the held payments, as the
// service selects them (the legacy interface's listPaymentsFilter).
func searchHeld(t *testing.T, e *env) *Payments {
	t.Helper()
	p := e.tab.(*Payments)
	e.press("/")
	e.typeText("status:authorized")
	e.press("enter")
	require.NotEmpty(t, p.list.narrowed, "the service narrows the list")
	require.NotZero(t, p.list.table.Len())
	return p
}

// A list the service narrowed for a search follows the service at every
// refresh: a payment captured elsewhere leaves it.
func TestANarrowedListDropsARowThatNoLongerMatchesAtARefresh(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{withV1: true})
	e.size(120, 30)
	e.init()
	held := e.newPayment(true, "8000.00")
	p := searchHeld(t, e)
	require.Contains(t, loadedIDs(p), held.ID)

	_, err := e.srv.Store().CapturePayment(held.ID, &money.Amount{Value: money.MustParse("5000"), Currency: held.Amount.Currency})
	require.NoError(t, err)
	e.send(ui.RefreshMsg{})
	assert.NotContains(t, loadedIDs(p), held.ID, "captured: no longer held")
	for _, r := range p.list.table.Rows() {
		assert.Equal(t, backend.PaymentAuthorized, r.Status, r.ID)
	}
}

// After an action, the row shows the service's state at once: in a list
// narrowed to held payments, a captured one leaves it.
func TestACapturedPaymentLeavesAListOfHeldOnesAtOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{withV1: true})
	e.size(120, 30)
	e.init()
	held := e.newPayment(true, "8000.00")
	p := searchHeld(t, e)
	require.True(t, p.list.table.SelectByID(held.ID))

	e.act(keys.ActCapture)
	spec, found := e.confirmSpec()
	require.True(t, found)
	e.run(spec.Confirm(money.Amount{Value: money.MustParse("5000"), Currency: held.Amount.Currency}))
	assert.NotContains(t, loadedIDs(p), held.ID, "captured: it left the held ones")
	got, err := e.srv.Store().GetPayment(held.ID)
	require.NoError(t, err)
	assert.Equal(t, money.MustParse("5000"), got.Captured)
}

// withRefundsTab adds the Refunds tab of the same dashboard beside the
// env's Payments tab, loaded and sized, scrolled down its list.
func withRefundsTab(t *testing.T, e *env) *Refunds {
	t.Helper()
	for range 2 * e.h {
		paid := e.newPayment(false, "50.00")
		_, err := e.srv.Store().CreateRefund(sandbox.RefundRequest{PaymentID: paid.ID, Amount: &paid.Amount})
		require.NoError(t, err)
	}
	rt := NewRefunds(e.deps).(*Refunds)
	e.also = append(e.also, rt)
	i := len(e.also) - 1
	deliver := func(msg tea.Msg) {
		var cmd tea.Cmd
		e.also[i], cmd = e.also[i].Update(msg)
		e.runAlso(i, cmd)
	}
	deliver(ui.SizeMsg{Width: e.w, Height: e.h})
	e.runAlso(i, rt.Init(e.scope))
	require.Greater(t, rt.list.table.Len(), e.h, "more refunds than a screen")
	for range 3 {
		deliver(keyPress("pgdown"))
	}
	require.Positive(t, rt.list.table.Offset())
	return rt
}

// A refund made in the Payments tab is in the Refunds tab at once,
// selected and on screen; another person's new refund still waits behind
// "↑ N new".
func TestYourOwnNewRefundIsSelectedInTheRefundsTab(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{})
	e.size(100, 24)
	e.init()
	rt := withRefundsTab(t, e)
	paid := e.heldOrPaid(false, "290.00")

	made := refundOf(t, e, paid, "15")

	tb := rt.list.table
	assert.Equal(t, made[0].ID, tb.SelectedID(), "your refund is selected")
	assert.Zero(t, tb.NewAbove(), "and not hidden above the screen")
	assert.Contains(t, ansi.Strip(rt.View(e.w, e.h)), made[0].ID)

	// Someone else's refund comes with a refresh: it waits above.
	tb.SetCursor(tb.Filtered() - 1)
	other := e.heldOrPaid(false, "100.00")
	_, err := e.srv.Store().CreateRefund(sandbox.RefundRequest{PaymentID: other.ID, Amount: &other.Amount})
	require.NoError(t, err)
	sel := tb.SelectedID()
	var cmd tea.Cmd
	e.also[0], cmd = e.also[0].Update(ui.RefreshMsg{})
	e.runAlso(0, cmd)
	assert.Equal(t, sel, rt.list.table.SelectedID(), "the cursor stays")
	assert.Equal(t, 1, rt.list.table.NewAbove(), "↑ 1 new")
}

// A payment paid by a saved card shows its token's state in the pane,
// read with the pane, before anyone revoked it.
func TestThePaymentPaneShowsItsTokensState(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{})
	e.size(160, 40)
	e.init()
	tok := e.newToken()
	paid := e.payWithToken(tok.ID, "321.00")
	e.send(ui.RefreshMsg{})
	p := e.tab.(*Payments)
	require.True(t, p.list.table.SelectByID(paid.ID))
	e.press("enter")
	require.True(t, p.detail.isOpen())
	view := ansi.Strip(e.view(160, 40))
	i := strings.Index(view, "Token")
	require.GreaterOrEqual(t, i, 0, view)
	assert.Regexp(t, `Status\s+✓ Active`, view[i:], "the token's state, read with the pane")

	// Revoked elsewhere (another person): the next refresh reads it again.
	_, err := e.srv.Store().RevokePaymentToken(tok.ID)
	require.NoError(t, err)
	e.send(ui.RefreshMsg{})
	view = ansi.Strip(e.view(160, 40))
	assert.Regexp(t, `Status\s+✗ Revoked`, view[strings.Index(view, "Token"):])
}

// A refund made "after" the end of the Refunds tab's rolling period (the
// tab was not shown since the service's clock moved on) is selected when
// the refresh that moves the period on brings it.
func TestYourOwnRefundBeyondAStaleRollingPeriodIsSelectedWhenItComes(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{fixed: goldenNow})
	clock := e.srv.Store()
	e.scope = ui.PresetScope(e.scope.MerchantID, ui.Preset7Days, clock.Now())
	e.size(100, 24)
	e.init()
	rt := withRefundsTab(t, e)
	_, err := clock.Advance(70 * time.Minute)
	require.NoError(t, err)
	e.send(ui.RefreshMsg{Now: clock.Now()}) // the Payments tab moves on; the Refunds tab is not shown
	paid := e.heldOrPaid(false, "290.00")

	made := refundOf(t, e, paid, "15")

	var cmd tea.Cmd
	e.also[0], cmd = e.also[0].Update(ui.RefreshMsg{Now: clock.Now()}) // the user looks at it
	e.runAlso(0, cmd)
	assert.Equal(t, made[0].ID, rt.list.table.SelectedID())
	assert.Zero(t, rt.list.table.NewAbove())
}

// refundOf refunds value of the selected payment paid, confirmed as the
// dialog shows it, and returns the refunds the service then holds of it.
func refundOf(t *testing.T, e *env, paid sandbox.Payment, value string) []sandbox.Refund {
	t.Helper()
	e.act(keys.ActRefund)
	spec, found := e.confirmSpec()
	require.True(t, found)
	e.run(spec.Confirm(money.Amount{Value: money.MustParse(value), Currency: paid.Amount.Currency}))
	made, err := e.srv.Store().RefundsOfPayment(paid.ID)
	require.NoError(t, err)
	require.Len(t, made, 1)
	return made
}
