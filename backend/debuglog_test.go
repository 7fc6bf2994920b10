package backend_test

import (
	"bytes"
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend"
	"paydash/debuglog"
)

// The debug log gets each request's method, path without query values,
// status and duration, on both interfaces, and never a credential.
func TestDebugLogRecordsRequests(t *testing.T) {
	srv := startSandbox(t)
	info := srv.Info()
	user := v1User(t, srv, "Accountant")
	for _, tc := range []struct {
		name, v2 string
		v1       bool
		want     []string
	}{
		{"v2", info.V2Token, false, []string{"request interface=v2 method=GET path=/api/v2/payments/4111", "status=", "duration="}},
		{"v1", "", true, []string{"request interface=v1 operation=getPaymentByInvoiceID", "status=200", "duration="}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			login, password := "", ""
			if tc.v1 {
				login, password = user.Login, user.Password
			}
			var buf bytes.Buffer
			dl := debuglog.New(&buf, nil)
			b, err := backend.Open(backend.Config{
				BaseURL: srv.BaseURL(), RootCAs: srv.CertPool(), V2Token: tc.v2,
				V1Login: login, V1Password: password, MerchantIDs: info.MerchantIDs, Sandbox: true,
				Debug: dl,
			})
			require.NoError(t, err)
			// Not found: an answer all the same.
			_, _, _ = b.FindPaymentByOrderNo(context.Background(), info.MerchantIDs[0], "NO-SUCH-ORDER-4111")
			_, _ = b.GetPayment(context.Background(), "4111")
			require.NoError(t, dl.Close())
			got := buf.String()
			for _, w := range tc.want {
				assert.Contains(t, got, w)
			}
			for _, secret := range []string{info.V2Token, user.Password, "NO-SUCH-ORDER-4111", "Bearer", "Authorization"} {
				assert.NotContains(t, got, secret)
			}
		})
	}
}
