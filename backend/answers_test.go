package backend_test

import (
	"context"
	"crypto/tls"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend"
	"paydash/backend/internal/testkit"
	"paydash/backend/money"
	"paydash/backend/sandbox"
)

// configs are the three ways to reach srv: v2, v1, both.
func configs(t *testing.T, srv *sandbox.Server, baseURL string) map[string]backend.Config {
	user := v1User(t, srv, "Accountant")
	base := backend.Config{BaseURL: baseURL, RootCAs: srv.CertPool(), MerchantIDs: srv.Info().MerchantIDs}
	v2, v1, both := base, base, base
	v2.V2Token = srv.Info().V2Token
	v1.V1Login, v1.V1Password = user.Login, user.Password
	both.V2Token, both.V1Login, both.V1Password = v2.V2Token, v1.V1Login, v1.V1Password
	return map[string]backend.Config{"v2": v2, "v1": v1, "both": both}
}

// The service's time is what its answers say, not the laptop's clock: a
// sandbox clock a tester moves on 70 minutes moves ServiceNow with it.
func TestServiceNowIsTheServicesClock(t *testing.T) {
	srv := startSandbox(t) // its clock stands still unless moved
	ctx := context.Background()
	for name, cfg := range configs(t, srv, srv.BaseURL()) {
		t.Run(name, func(t *testing.T) {
			laptop := testkit.NewClock(time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC))
			cfg.Now = laptop.Now
			b, err := backend.Open(cfg)
			require.NoError(t, err)
			assert.Equal(t, laptop.Now(), b.ServiceNow(), "before any answer: the local clock")

			require.NoError(t, b.Probe(ctx))
			// Date has whole seconds; the estimate is the middle of one.
			service := srv.Store().Now().Truncate(time.Second).Add(500 * time.Millisecond)
			assert.WithinDuration(t, service, b.ServiceNow(), 0)
			laptop.Advance(time.Minute)
			assert.WithinDuration(t, service.Add(time.Minute), b.ServiceNow(), 0, "and the time elapsed since")

			_, err = srv.Store().Advance(70 * time.Minute)
			require.NoError(t, err)
			_, err = b.GetPayment(ctx, "0") // an error's answer is dated too
			require.Error(t, err)
			assert.WithinDuration(t, srv.Store().Now().Truncate(time.Second).Add(500*time.Millisecond), b.ServiceNow(), 0,
				"the clock moved on 70 minutes, and the next answer said so")
		})
	}
}

// A sandbox reached by URL (paydash --base-url) is "sandbox" once it has
// said so, and not before.
func TestASandboxReachedByURLIsASandbox(t *testing.T) {
	srv := startSandbox(t)
	for name, cfg := range configs(t, srv, srv.BaseURL()) {
		b, err := backend.Open(cfg)
		require.NoError(t, err, name)
		assert.False(t, b.Describe().Sandbox, "%s: not before its own word", name)
		require.NoError(t, b.Probe(context.Background()), name)
		assert.True(t, b.Describe().Sandbox, name)
	}
}

// A service that answers like the sandbox but does not announce itself is
// live; one that cannot be reached stays live.
func TestAServiceThatDoesNotAnnounceASandboxIsLive(t *testing.T) {
	srv := startSandbox(t)
	target, err := url.Parse(srv.BaseURL())
	require.NoError(t, err)
	// The sandbox's answers, without the announcement: a service like it.
	service := httptest.NewServer(&httputil.ReverseProxy{
		Rewrite:   func(r *httputil.ProxyRequest) { r.SetURL(target) },
		Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: srv.CertPool()}},
		ModifyResponse: func(resp *http.Response) error {
			resp.Header.Del("Paydash-Sandbox")
			return nil
		},
	})
	defer service.Close()
	for name, cfg := range configs(t, srv, service.URL) {
		b, err := backend.Open(cfg)
		require.NoError(t, err, name)
		require.NoError(t, b.Probe(context.Background()), name)
		assert.False(t, b.Describe().Sandbox, name)
	}

	gone := httptest.NewServer(http.NotFoundHandler())
	gone.Close()
	cfg := configs(t, srv, gone.URL)["v2"]
	b, err := backend.Open(cfg)
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	require.Error(t, b.Probe(ctx))
	assert.False(t, b.Describe().Sandbox, "no answer, no word: live")
}

// A payment made on the service's clock, which runs ahead of this
// machine's, has its refunds read up to the service's now, not up to a
// "now" here that is before the payment was made.
func TestRefundsOfAPaymentMadeAheadOfTheClockHere(t *testing.T) {
	srv := startSandbox(t)
	ctx := context.Background()
	_, err := srv.Store().Advance(70 * time.Minute) // a tester moved the sandbox on
	require.NoError(t, err)
	cfg := configs(t, srv, srv.BaseURL())["v2"]
	laptop := testkit.NewClock(srv.Store().Now().Add(-70 * time.Minute))
	cfg.Now = laptop.Now
	b, err := backend.Open(cfg)
	require.NoError(t, err)
	require.NoError(t, b.Probe(ctx))

	st := srv.Store()
	m, ok := st.Merchant(cfg.MerchantIDs[0])
	require.True(t, ok)
	amount := money.Amount{Value: money.MustParse("250"), Currency: m.Currencies[0]}
	made, err := st.CreatePayment(sandbox.PaymentRequest{MerchantID: m.ID, Amount: &amount,
		PaymentMethod: sandbox.MethodBankCard, Card: &sandbox.CardData{PAN: "4111111111111111", Expiry: "12/30", CVC: "123"}})
	require.NoError(t, err)
	p, err := b.GetPayment(ctx, made.ID)
	require.NoError(t, err)
	require.True(t, p.Created.After(laptop.Now()), "made after the clock here says now")
	_, err = b.RefundsOfPayment(ctx, p)
	assert.NoError(t, err)
}
