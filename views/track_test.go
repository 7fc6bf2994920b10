package views

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend"
	"paydash/backend/action"
	"paydash/backend/money"
	"paydash/keys"
	"paydash/ui"
	"paydash/views/internal/viewtest"
	"paydash/views/payments"
	"paydash/views/refunds"
	"paydash/views/stickers"
	"paydash/views/tab"
	"paydash/views/tokens"
)

// Actions an earlier run left without an outcome are adopted by the tab of
// their kind, whatever the order the tabs are built in, and each blocks
// its object in every tab sharing the register until it is found out.
func TestEachTabAdoptsItsKindOfPendingAction(t *testing.T) {
	t.Parallel()
	revoke := action.NewRevoke("5100001", backend.V2)
	toggle := action.NewToggle("20001", false, backend.V2)
	capture := action.New(backend.ActionCapture, "43000001", backend.Payment{}.Amount, backend.V2)
	e := newEnv(t, viewtest.Opts{})
	flights := tab.NewInFlight()
	d := tab.Deps{Backend: e.B, Keys: keys.Default(), Journal: e.J, Theme: ui.NewTheme(true, true),
		Pending: []action.Request{revoke, toggle, capture}, InFlight: flights}
	tabs := []ui.Tab{tokens.New(d), stickers.New(d), payments.New(d), refunds.New(d)}
	want := map[ui.TabID]int{ui.TabTokens: 1, ui.TabStickers: 1, ui.TabPayments: 1, ui.TabRefunds: 0}
	for _, tab := range tabs {
		assert.Equal(t, want[tab.ID()], tab.Status().Checking, tab.Title())
	}
	require.Len(t, flights.ByObject, 3)
	pay := tabs[2].(*payments.Payments)
	for _, ref := range []tab.ObjectRef{tab.TokenRef("5100001"), tab.StickerRef("20001"), tab.PaymentRef("43000001")} {
		tr := pay.Acts.On(ref)
		require.NotNil(t, tr, ref)
		assert.Contains(t, tr.BusyReason(), "is not known yet", "every tab sees it busy")
	}
}

// Every kind of action an earlier run can leave open is found out at the
// next start by exactly one tab: none is forgotten, none checked twice.
func TestEveryKindOfPendingActionHasOneTab(t *testing.T) {
	t.Parallel()
	e := newEnv(t, viewtest.Opts{})
	amount := money.Amount{Value: money.MustParse("10.00"), Currency: "RUB"}
	pending := []action.Request{
		action.New(backend.ActionCapture, "43000001", amount, backend.V2),
		action.New(backend.ActionCancelHold, "43000002", amount, backend.V2),
		action.New(backend.ActionRefund, "43000003", amount, backend.V2),
		action.NewRevoke("5100001", backend.V2),
		action.NewToggle("20001", false, backend.V2),
		action.NewCreateInvoice(backend.InvoiceLinkRequest{MerchantID: "1001", Amount: amount}),
		action.NewCreateSticker(backend.StickerRequest{MerchantID: "1001", Amount: amount}),
		action.NewCreateTokenization(backend.TokenizationLinkRequest{MerchantID: "1001"}),
	}
	for _, req := range pending {
		d := tab.Deps{Backend: e.B, Keys: keys.Default(), Journal: e.J, Theme: ui.NewTheme(true, true),
			Pending: []action.Request{req}, InFlight: tab.NewInFlight()}
		adopters := 0
		for _, tab := range []ui.Tab{payments.New(d), refunds.New(d), tokens.New(d), stickers.New(d)} {
			adopters += tab.Status().Checking
		}
		assert.Equal(t, 1, adopters, "%s is found out by exactly one tab", req.Kind)
	}
}

// What is open when the dashboard stops is said, one line an action,
// across every tab that shares the register, oldest first; an action
// whose outcome became known is not listed.
func TestOpenListsEveryActionWithoutAKnownOutcome(t *testing.T) {
	t.Parallel()
	e := newEnv(t, viewtest.Opts{})
	refund := action.New(backend.ActionRefund, "43019998", money.Amount{Value: money.MustParse("260.00"), Currency: "RUB"}, backend.V2)
	refund.Sent = time.Date(2026, 11, 27, 10, 0, 0, 0, time.UTC)
	revoke := action.NewRevoke("5100001", backend.V2)
	revoke.Sent = refund.Sent.Add(time.Minute)
	flights := tab.NewInFlight()
	d := tab.Deps{Backend: e.B, Keys: keys.Default(), Journal: e.J, Theme: ui.NewTheme(true, true),
		Pending: []action.Request{revoke, refund}, InFlight: flights}
	tokens.New(d)
	pay := payments.New(d).(*payments.Payments)
	assert.Equal(t, []string{
		"1 refund of 260.00 RUB for payment 43019998 — outcome unknown; it is checked at the next start",
		"1 revoke of token 5100001 — outcome unknown; it is checked at the next start",
	}, flights.Open())

	pay.Acts.Untrack(refund)
	assert.Equal(t, []string{"1 revoke of token 5100001 — outcome unknown; it is checked at the next start"}, flights.Open())
	assert.Empty(t, tab.NewInFlight().Open())
}
