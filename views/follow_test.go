package views

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend"
	"paydash/backend/money"
	"paydash/keys"
	"paydash/ui"
)

// searchHeld narrows the Payments list to the held payments, as the
// service selects them (the legacy interface's listPaymentsFilter).
func searchHeld(t *testing.T, e *env) *Payments {
	t.Helper()
	p := e.payments()
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
