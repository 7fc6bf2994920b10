package sandbox

import (
	"crypto/x509"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fingerprintStore renders everything seeded, as the interfaces show it.
func fingerprintStore(t *testing.T, st *Store) string {
	t.Helper()
	var b strings.Builder
	enc := json.NewEncoder(&b)
	for _, p := range st.payments {
		var tok *PaymentToken
		if p.TokenID != "" {
			tok = lookup(st.tokens, tokenBase, p.TokenID)
		}
		require.NoError(t, enc.Encode(renderPayment(p, tok)))
		require.NoError(t, enc.Encode([]any{p.Customer, p.Captured, p.Refunded, p.DualMode, p.IsInvoice}))
	}
	for _, r := range st.refunds {
		require.NoError(t, enc.Encode(renderRefund(r, true)))
	}
	for _, tk := range st.tokens {
		require.NoError(t, enc.Encode(renderToken(tk)))
	}
	for _, s := range st.stickers {
		require.NoError(t, enc.Encode(renderSticker(s)))
	}
	return b.String()
}

func TestSeedIsDeterministic(t *testing.T) {
	clock := newFakeClock()
	a := NewStore(Options{Seed: 42, Payments: 3000, Now: clock.Now})
	b := NewStore(Options{Seed: 42, Payments: 3000, Now: clock.Now})
	c := NewStore(Options{Seed: 43, Payments: 3000, Now: clock.Now})
	fa := fingerprintStore(t, a)
	assert.Equal(t, fa, fingerprintStore(t, b), "same seed, same data")
	assert.NotEqual(t, fa, fingerprintStore(t, c), "another seed, other data")
	assert.NotEqual(t, a.V2Token(), b.V2Token(), "credentials are random per store")
}

func TestSeedShape(t *testing.T) {
	clock := newFakeClock()
	st := NewStore(Options{Payments: 3000, Now: clock.Now})
	now := clock.Now()
	require.Equal(t, 3000, st.PaymentCount())
	assert.Equal(t, []string{"1001", "1002", "1003", "1004"}, st.MerchantIDs())

	statuses := map[PaymentStatus]int{}
	results := map[string]bool{}
	currencies := map[string]bool{}
	var sbp, tokens, partial, withCard int
	var prev *Payment
	for _, p := range st.payments {
		statuses[p.Status]++
		results[p.ResultCode] = true
		currencies[p.Amount.Currency] = true
		assert.False(t, p.Created.After(now), p.ID)
		assert.True(t, p.Created.After(now.Add(-90*24*time.Hour)), p.ID)
		if prev != nil {
			assert.False(t, p.Created.Before(prev.Created), "ids ascend with created: %s", p.ID)
		}
		prev = p
		if p.Status.Final() {
			assert.False(t, p.Completed.Before(p.Created), p.ID)
			assert.False(t, p.Completed.After(now), p.ID)
		}
		if p.Status == PaymentAuthorized {
			assert.Less(t, now.Sub(p.Created), 7*24*time.Hour, "holds are recent")
		}
		assert.LessOrEqual(t, p.Refunded, p.Captured, p.ID)
		if p.Instrument != nil && p.Instrument.Method == MethodSBP {
			sbp++
		}
		if p.Instrument != nil && p.Instrument.Card != nil {
			withCard++
		}
		if p.TokenID != "" {
			tokens++
		}
		if p.Status == PaymentSettled && p.Captured < p.Amount.Value {
			partial++
		}
		assert.NotEmpty(t, p.Invoice.OrderNo)
	}
	for _, s := range []PaymentStatus{PaymentPending, PaymentConfirmation, PaymentAuthorized, PaymentSettled, PaymentCancelled, PaymentRejected} {
		assert.Positive(t, statuses[s], "status %s", s)
	}
	assert.Greater(t, statuses[PaymentSettled], len(st.payments)*3/4, "mostly Settled")
	for _, code := range []string{"TransactionDeclined", "InsufficientFunds", "ThreeDSecureFailed"} {
		assert.True(t, results[code], code)
	}
	assert.Equal(t, map[string]bool{"RUB": true, "EUR": true, "USD": true}, currencies)
	assert.Positive(t, sbp)
	assert.Positive(t, tokens, "payments by saved tokens")
	assert.Positive(t, partial, "partial captures")
	assert.Greater(t, withCard, len(st.payments)/2)

	refundStatus := map[RefundStatus]int{}
	several := map[string]int{}
	for _, r := range st.refunds {
		refundStatus[r.Status]++
		several[r.PaymentID]++
	}
	assert.Positive(t, refundStatus[RefundSuccess])
	assert.Positive(t, refundStatus[RefundRejected])
	assert.Positive(t, refundStatus[RefundPending])
	maxPer := 0
	for _, n := range several {
		maxPer = max(maxPer, n)
	}
	assert.Greater(t, maxPer, 1, "several refunds of one payment")

	tokenStatus := map[TokenStatus]int{}
	blocked := 0
	for _, tk := range st.tokens {
		tokenStatus[tk.Status]++
		if tk.Blocked {
			blocked++
		}
	}
	assert.Positive(t, tokenStatus[TokenActive])
	assert.Positive(t, tokenStatus[TokenRevoked])
	assert.Positive(t, tokenStatus[TokenDeclined])
	assert.Equal(t, 1, blocked)

	stickerStatus := map[StickerStatus]int{}
	for _, s := range st.stickers {
		stickerStatus[s.Status]++
		assert.True(t, strings.HasPrefix(s.Payload, "https://qr.nspk.ru/AS"), s.Payload)
		assert.NotEmpty(t, s.CallbackURL)
		assert.Error(t, checkCallbackURL(s.CallbackURL), "seeded addresses are never contacted")
	}
	assert.Positive(t, stickerStatus[StickerActive])
	assert.Positive(t, stickerStatus[StickerInactive])

	// Order numbers find their payment (v1 getPaymentByInvoiceID).
	p := st.payments[len(st.payments)/2]
	got, err := st.PaymentByOrderNo(p.MerchantID, p.Invoice.OrderNo)
	require.NoError(t, err)
	assert.Equal(t, p.ID, got.ID)

	// FilterPayments overflows like v1 lists.
	list, overflow := st.FilterPayments(PaymentFilter{Limit: 100})
	assert.Len(t, list, 100)
	assert.True(t, overflow)
	held, _ := st.FilterPayments(PaymentFilter{Statuses: []PaymentStatus{PaymentAuthorized}})
	assert.Equal(t, statuses[PaymentAuthorized], len(held))
}

func TestEmptyStore(t *testing.T) {
	st := NewStore(Options{})
	assert.Zero(t, st.PaymentCount())
	page, err := st.ListPayments(ListQuery{MerchantID: "1001"})
	require.NoError(t, err)
	assert.Empty(t, page.Items)
	assert.Empty(t, page.Cursor)
	users := st.V1Users()
	require.Len(t, users, 2)
	assert.Equal(t, "cashier", users[0].Login)
	assert.Equal(t, RoleCashier, users[0].Role)
	assert.Equal(t, RoleAccountant, users[1].Role)
	assert.NotEmpty(t, users[0].Password)
}

func TestWriteInfoFile(t *testing.T) {
	srv := start(t, Options{Payments: 50})
	dir := t.TempDir()
	path := filepath.Join(dir, "sandbox.json")
	require.NoError(t, srv.WriteInfoFile(path))

	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	var info Info
	require.NoError(t, json.Unmarshal(raw, &info))
	// The v1 logins are served, so the file lists them, with their account.
	require.Len(t, info.V1Users, 2)
	assert.Equal(t, V1User{Login: "cashier", Password: srv.Store().V1Users()[0].Password, Role: RoleCashier, AccountID: V1AccountID}, info.V1Users[0])
	assert.Equal(t, "accountant", info.V1Users[1].Login)
	assert.Equal(t, RoleAccountant, info.V1Users[1].Role)
	assert.Contains(t, string(raw), `"accountId": "ACC-1"`)
	assert.Equal(t, srv.BaseURL(), info.BaseURL)
	assert.Equal(t, filepath.Join(dir, "sandbox-ca.pem"), info.CAFile)
	assert.True(t, filepath.IsAbs(info.CAFile))
	assert.Equal(t, []string{"1001", "1002", "1003", "1004"}, info.MerchantIDs)
	// The merchants with their names, beside merchantIds (kept for the
	// tools that read it).
	assert.Equal(t, []InfoMerchant{{"1001", "Daily Grind Coffee"}, {"1002", "Page Turner Books"},
		{"1003", "Horizon Travel"}, {"1004", "Volt Electronics"}}, info.Merchants)
	assert.Contains(t, string(raw), `"merchants": [`)
	assert.Contains(t, string(raw), `"name": "Volt Electronics"`)
	assert.Equal(t, srv.Info(), info)
	st, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), st.Mode().Perm())
	leftovers, _ := filepath.Glob(filepath.Join(dir, ".*tmp*"))
	assert.Empty(t, leftovers)

	// Another program: trust the CA file, use the token.
	pem, err := os.ReadFile(info.CAFile)
	require.NoError(t, err)
	pool := x509.NewCertPool()
	require.True(t, pool.AppendCertsFromPEM(pem))
	c := newClient(t, srv)
	c.hc.Transport.(*http.Transport).TLSClientConfig.RootCAs = pool
	c.token = info.V2Token
	c.want(200, "GET", "/api/v2/stickers?merchantId="+info.MerchantIDs[0], nil, nil)
	c.token = info.V2ReadOnlyToken
	c.want(200, "GET", "/api/v2/stickers?merchantId="+info.MerchantIDs[0], nil, nil)
}
