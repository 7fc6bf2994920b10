package payments

import (
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/ui"
	"paydash/views/internal/viewtest"
	"paydash/views/tab"
)

func loadedIDs(t *Payments) []string { return paymentIDs(t.List.Table.Rows()) }

// A rolling period reads up to the service's now at every refresh: a
// payment made after the sandbox's clock was moved on 70 minutes shows,
// although the period was chosen before it.
func TestARollingPeriodShowsPaymentsMadeAfterItWasChosen(t *testing.T) {
	t.Parallel()
	e := newEnv(t, viewtest.Opts{Changes: true, Fixed: viewtest.GoldenNow})
	clock := e.Sandbox().Store()
	e.Scope = ui.PresetScope(e.Scope.MerchantID, ui.PresetToday, clock.Now())
	e.Size(120, 30)
	e.Init()
	p := e.Tab.(*Payments)
	require.NotEmpty(t, loadedIDs(p))

	_, err := clock.Advance(70 * time.Minute)
	require.NoError(t, err)
	late := e.NewPayment(false, "777.00")

	e.Send(ui.RefreshMsg{}) // the service's now not known: the period as it was
	assert.NotContains(t, loadedIDs(p), late.ID, "made after the period's end as chosen")

	e.Send(ui.RefreshMsg{Now: clock.Now()})
	assert.Contains(t, loadedIDs(p), late.ID, "the period now ends at the service's now")
	assert.Equal(t, clock.Now().Add(time.Minute), p.Scope.End)
}

// When a rolling period's start moves on (a new day for "today"), the
// rows older than it leave the list, and the cursor's row, if it stays,
// stays selected.
func TestRowsOlderThanARollingPeriodsNewStartLeave(t *testing.T) {
	t.Parallel()
	e := newEnv(t, viewtest.Opts{Changes: true, Fixed: viewtest.GoldenNow})
	clock := e.Sandbox().Store()
	e.Scope = ui.PresetScope(e.Scope.MerchantID, ui.PresetToday, clock.Now())
	e.Size(120, 30)
	e.Init()
	p := e.Tab.(*Payments)
	yesterday := loadedIDs(p)
	require.NotEmpty(t, yesterday)

	next := clock.Now().AddDate(0, 0, 1)
	midnight := time.Date(next.Year(), next.Month(), next.Day(), 0, 0, 0, 0, next.Location())
	_, err := clock.Advance(midnight.Sub(clock.Now()) + 5*time.Minute)
	require.NoError(t, err)
	fresh := e.NewPayment(false, "12.00")

	e.Send(ui.RefreshMsg{Now: clock.Now()})
	ids := loadedIDs(p)
	assert.Equal(t, midnight, p.Scope.Start)
	assert.Contains(t, ids, fresh.ID)
	for _, id := range yesterday {
		assert.NotContains(t, ids, id, "yesterday's payments left today")
	}
	for _, row := range p.List.Table.Rows() {
		assert.False(t, tab.PaymentTime(row).Before(midnight), row.ID)
	}
}

// A fixed period does not move at a refresh, whatever the service's time.
func TestAFixedPeriodDoesNotMoveAtARefresh(t *testing.T) {
	t.Parallel()
	e := newEnv(t, viewtest.Opts{Changes: true, Fixed: viewtest.GoldenNow})
	clock := e.Sandbox().Store()
	now := clock.Now()
	e.Scope = ui.CustomScope(e.Scope.MerchantID, now.AddDate(0, 0, -2), now)
	e.Size(120, 30)
	e.Init()
	p := e.Tab.(*Payments)
	before := slices.Clone(loadedIDs(p))
	_, err := clock.Advance(70 * time.Minute)
	require.NoError(t, err)
	e.Send(ui.RefreshMsg{Now: clock.Now()})
	assert.Equal(t, e.Scope, p.Scope)
	assert.ElementsMatch(t, before, loadedIDs(p))
}
