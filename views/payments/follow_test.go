package payments

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend"
	"paydash/backend/money"
	"paydash/keys"
	"paydash/ui"
	"paydash/views/internal/viewtest"
)

// searchHeld narrows the Payments list to the held payments, as the
// service selects them (the legacy interface's listPaymentsFilter).
func searchHeld(t *testing.T, e *env) *Payments {
	t.Helper()
	p := e.Tab.(*Payments)
	e.Press("/")
	e.TypeText("status:authorized")
	e.Press("enter")
	require.NotEmpty(t, p.List.Narrowed, "the service narrows the list")
	require.NotZero(t, p.List.Table.Len())
	return p
}

// A list the service narrowed for a search follows the service at every
// refresh: a payment captured elsewhere leaves it.
func TestANarrowedListDropsARowThatNoLongerMatchesAtARefresh(t *testing.T) {
	t.Parallel()
	e := startedEnv(t, viewtest.Opts{Changes: true, WithV1: true}, 120, 30)
	held := e.NewPayment(true, "8000.00")
	p := searchHeld(t, e)
	require.Contains(t, loadedIDs(p), held.ID)

	_, err := e.Sandbox().Store().CapturePayment(held.ID, &money.Amount{Value: money.MustParse("5000"), Currency: held.Amount.Currency})
	require.NoError(t, err)
	e.Send(ui.RefreshMsg{})
	assert.NotContains(t, loadedIDs(p), held.ID, "captured: no longer held")
	for _, r := range p.List.Table.Rows() {
		assert.Equal(t, backend.PaymentAuthorized, r.Status, r.ID)
	}
}

// After an action, the row shows the service's state at once: in a list
// narrowed to held payments, a captured one leaves it.
func TestACapturedPaymentLeavesAListOfHeldOnesAtOnce(t *testing.T) {
	t.Parallel()
	e := startedEnv(t, viewtest.Opts{Changes: true, WithV1: true}, 120, 30)
	held := e.NewPayment(true, "8000.00")
	p := searchHeld(t, e)
	require.True(t, p.List.Table.SelectByID(held.ID))

	e.Act(keys.ActCapture)
	spec, found := e.ConfirmSpec()
	require.True(t, found)
	e.Run(spec.Confirm(money.Amount{Value: money.MustParse("5000"), Currency: held.Amount.Currency}))
	assert.NotContains(t, loadedIDs(p), held.ID, "captured: it left the held ones")
	got, err := e.Store().GetPayment(held.ID)
	require.NoError(t, err)
	assert.Equal(t, money.MustParse("5000"), got.Captured)
}

// A payment paid by a saved card shows its token's state in the pane,
// read with the pane, before anyone revoked it.
func TestThePaymentPaneShowsItsTokensState(t *testing.T) {
	t.Parallel()
	e := startedEnv(t, viewtest.Opts{Changes: true}, 160, 40)
	tok := e.NewToken()
	paid := e.PayWithToken(tok.ID, "321.00")
	e.Send(ui.RefreshMsg{})
	p := e.Tab.(*Payments)
	require.True(t, p.List.Table.SelectByID(paid.ID))
	e.Press("enter")
	require.True(t, p.Pane.IsOpen())
	view := ansi.Strip(e.View(160, 40))
	i := strings.Index(view, "Token")
	require.GreaterOrEqual(t, i, 0, view)
	assert.Regexp(t, `Status\s+✓ Active`, view[i:], "the token's state, read with the pane")

	// Revoked elsewhere (another person): the next refresh reads it again.
	_, err := e.Sandbox().Store().RevokePaymentToken(tok.ID)
	require.NoError(t, err)
	e.Send(ui.RefreshMsg{})
	view = ansi.Strip(e.View(160, 40))
	assert.Regexp(t, `Status\s+✗ Revoked`, view[strings.Index(view, "Token"):])
}
