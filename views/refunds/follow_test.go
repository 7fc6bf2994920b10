package refunds

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend/money"
	"paydash/backend/sandbox"
	"paydash/keys"
	"paydash/ui"
	"paydash/views/internal/viewtest"
)

// withRefundsTab adds the Refunds tab of the same dashboard beside the
// env's Payments tab, loaded and sized, scrolled down its list.
func withRefundsTab(t *testing.T, e *env) *Refunds {
	t.Helper()
	for range 2 * e.H {
		paid := e.NewPayment(false, "50.00")
		_, err := e.Sandbox().Store().CreateRefund(sandbox.RefundRequest{PaymentID: paid.ID, Amount: &paid.Amount})
		require.NoError(t, err)
	}
	rt := New(e.Deps).(*Refunds)
	e.Also = append(e.Also, rt)
	i := len(e.Also) - 1
	deliver := func(msg tea.Msg) {
		var cmd tea.Cmd
		e.Also[i], cmd = e.Also[i].Update(msg)
		e.RunAlso(i, cmd)
	}
	deliver(ui.SizeMsg{Width: e.W, Height: e.H})
	e.RunAlso(i, rt.Init(e.Scope))
	require.Greater(t, rt.List.Table.Len(), e.H, "more refunds than a screen")
	for range 3 {
		deliver(viewtest.KeyPress("pgdown"))
	}
	require.Positive(t, rt.List.Table.Offset())
	return rt
}

// A refund made in the Payments tab is in the Refunds tab at once,
// selected and on screen; another person's new refund still waits behind
// "↑ N new".
func TestYourOwnNewRefundIsSelectedInTheRefundsTab(t *testing.T) {
	t.Parallel()
	e := startedEnv(t, viewtest.Opts{Changes: true}, 100, 24)
	rt := withRefundsTab(t, e)
	paid := e.HeldOrPaid(false, "290.00")

	made := refundOf(t, e, paid, "15")

	tb := rt.List.Table
	assert.Equal(t, made[0].ID, tb.SelectedID(), "your refund is selected")
	assert.Zero(t, tb.NewAbove(), "and not hidden above the screen")
	assert.Contains(t, ansi.Strip(rt.View(e.W, e.H)), made[0].ID)

	// Someone else's refund comes with a refresh: it waits above.
	tb.SetCursor(tb.Filtered() - 1)
	other := e.HeldOrPaid(false, "100.00")
	_, err := e.Sandbox().Store().CreateRefund(sandbox.RefundRequest{PaymentID: other.ID, Amount: &other.Amount})
	require.NoError(t, err)
	sel := tb.SelectedID()
	var cmd tea.Cmd
	e.Also[0], cmd = e.Also[0].Update(ui.RefreshMsg{})
	e.RunAlso(0, cmd)
	assert.Equal(t, sel, rt.List.Table.SelectedID(), "the cursor stays")
	assert.Equal(t, 1, rt.List.Table.NewAbove(), "↑ 1 new")
}

// A refund made "after" the end of the Refunds tab's rolling period (the
// tab was not shown since the service's clock moved on) is selected when
// the refresh that moves the period on brings it.
func TestYourOwnRefundBeyondAStaleRollingPeriodIsSelectedWhenItComes(t *testing.T) {
	t.Parallel()
	e := newEnv(t, viewtest.Opts{Changes: true, Fixed: viewtest.GoldenNow})
	clock := e.Sandbox().Store()
	e.Scope = ui.PresetScope(e.Scope.MerchantID, ui.Preset7Days, clock.Now())
	e.Size(100, 24)
	e.Init()
	rt := withRefundsTab(t, e)
	_, err := clock.Advance(70 * time.Minute)
	require.NoError(t, err)
	e.Send(ui.RefreshMsg{Now: clock.Now()}) // the Payments tab moves on; the Refunds tab is not shown
	paid := e.HeldOrPaid(false, "290.00")

	made := refundOf(t, e, paid, "15")

	var cmd tea.Cmd
	e.Also[0], cmd = e.Also[0].Update(ui.RefreshMsg{Now: clock.Now()}) // the user looks at it
	e.RunAlso(0, cmd)
	assert.Equal(t, made[0].ID, rt.List.Table.SelectedID())
	assert.Zero(t, rt.List.Table.NewAbove())
}

// refundOf refunds value of the selected payment paid, confirmed as the
// dialog shows it, and returns the refunds the service then holds of it.
func refundOf(t *testing.T, e *env, paid sandbox.Payment, value string) []sandbox.Refund {
	t.Helper()
	e.Act(keys.ActRefund)
	spec, found := e.ConfirmSpec()
	require.True(t, found)
	e.Run(spec.Confirm(money.Amount{Value: money.MustParse(value), Currency: paid.Amount.Currency}))
	made, err := e.Store().RefundsOfPayment(paid.ID)
	require.NoError(t, err)
	require.Len(t, made, 1)
	return made
}
