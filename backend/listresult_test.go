package backend_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend"
	"paydash/backend/sandbox"
)

// A v2 list item's resultCode (sent by the sandbox, docs/service.md)
// reaches backend.Payment, so a list shows why a payment was declined
// before anyone reads it in full.
func TestListedPaymentCarriesItsResultCode(t *testing.T) {
	srv := startSandbox(t)
	b := openV2(t, srv, srv.Info().V2Token, true)
	_, err := srv.Store().SetScenario(sandbox.ScenarioRequest{
		Kind: sandbox.ScenarioDeclineSpike, ResultCode: "IssuerUnavailable", Rate: 1, Duration: time.Hour})
	require.NoError(t, err)
	declined := srv.Store().Arrive()
	require.Equal(t, "IssuerUnavailable", declined.ResultCode)

	page, err := b.ListPayments(last90Days(declined.MerchantID)).Next(context.Background())
	require.NoError(t, err)
	require.NotEmpty(t, page.Items)
	got := page.Items[0]
	require.Equal(t, declined.ID, got.ID, "the newest first")
	assert.False(t, got.Detailed)
	assert.Equal(t, backend.PaymentStatus("Rejected"), got.Status)
	assert.Equal(t, "IssuerUnavailable", got.ResultCode)
	assert.Empty(t, got.Message, "list items carry no message")
}
