package sandbox

import (
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Control of time and state (reset.go, the store's side):
// Advance, Reset, and the log of every state change the clock makes.

func TestAdvanceSettlesWhatIsDue(t *testing.T) {
	var logs logBuffer
	// A clock that moves only by Advance: on the real one, the settler
	// would settle what is due by itself once 5 s had passed (a loaded
	// machine can take that long), and Advance would find less to do.
	clock := newFakeClock()
	srv := start(t, Options{Now: clock.Now, SettleDelay: 5 * time.Second, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	st := srv.Store()
	c := newClient(t, srv)

	s := c.pay(cardPayment("1001", "4111111111111111", "300"))
	require.Equal(t, "Settled", s.Status)
	var r tRefund
	c.want(200, "POST", "/api/v2/refunds", map[string]any{"paymentId": s.ID, "amount": map[string]any{"value": 100, "currency": "RUB"}}, &r)
	require.Equal(t, "Pending", r.Status)
	var bad tRefund
	c.want(200, "POST", "/api/v2/refunds", map[string]any{"paymentId": s.ID, "amount": map[string]any{"value": 100.13, "currency": "RUB"}}, &bad)
	p := c.pay(cardPayment("1001", "4000000000000259", "250"))
	require.Equal(t, "Pending", p.Status)
	made, err := st.GetRefund(r.ID)
	require.NoError(t, err)

	before := st.Now()
	n, err := st.Advance(6 * time.Second)
	require.NoError(t, err)
	assert.Equal(t, 3, n, "two refunds and a payment were due")
	assert.Equal(t, before.Add(6*time.Second), st.Now(), "the clock moved on")

	c.want(200, "GET", "/api/v2/refunds/"+r.ID, nil, &r)
	assert.Equal(t, "Success", r.Status)
	c.want(200, "GET", "/api/v2/refunds/"+bad.ID, nil, &bad)
	assert.Equal(t, "Rejected", bad.Status)
	got := c.getPayment(p.ID)
	assert.Equal(t, "Settled", got.Status)
	settled, err := st.GetRefund(r.ID)
	require.NoError(t, err)
	assert.Equal(t, made.Created.Add(5*time.Second), settled.Updated, "stamped with its due time, not the time it ran")
	sp, err := st.GetPayment(p.ID)
	require.NoError(t, err)
	assert.Equal(t, sp.Created.Add(5*time.Second), sp.Completed)

	// An invoice expires when its time is passed; nothing else is due.
	var inv struct {
		PaymentID string `json:"paymentId"`
	}
	c.want(200, "POST", "/api/v2/invoices", map[string]any{"merchantId": "1002", "amount": map[string]any{"value": 50, "currency": "RUB"}}, &inv)
	n, err = st.Advance(23 * time.Hour)
	require.NoError(t, err)
	assert.Zero(t, n)
	assert.Equal(t, "Pending", c.getPayment(inv.PaymentID).Status)
	n, err = st.Advance(time.Hour + time.Second)
	require.NoError(t, err)
	assert.Equal(t, 1, n)
	assert.Equal(t, "Rejected", c.getPayment(inv.PaymentID).Status)

	// Out of range.
	for _, d := range []time.Duration{0, -time.Second, MaxAdvance + time.Nanosecond} {
		_, err := st.Advance(d)
		assert.ErrorIs(t, err, ErrValidation, "%v", d)
		var ve *ValidationError
		require.True(t, errors.As(err, &ve))
		assert.Contains(t, ve.Problems[0], "at most 8784h0m0s")
	}
	n, err = st.Advance(MaxAdvance)
	require.NoError(t, err)
	assert.Zero(t, n)

	// Every move by the clock is logged, before Advance returns: kind, id,
	// from -> to; no secret.
	out := logs.String()
	for _, want := range []string{
		fmt.Sprintf("kind=refund id=%s from=Pending to=Success", r.ID),
		fmt.Sprintf("kind=refund id=%s from=Pending to=Rejected resultCode=OperationNotAllowed", bad.ID),
		fmt.Sprintf("kind=payment id=%s from=Pending to=Settled", p.ID),
		fmt.Sprintf("kind=invoice id=%s from=Pending to=Rejected resultCode=PaymentExpired", inv.PaymentID),
	} {
		assert.Contains(t, out, want)
	}
	for _, secret := range []string{st.V2Token(), st.V2ReadOnlyToken(), st.V1Users()[0].Password, st.V1Users()[1].Password} {
		assert.NotContains(t, out, secret)
	}
}

func TestSettlerLogsTokenAndArrivals(t *testing.T) {
	var logs logBuffer
	clock := newFakeClock()
	srv := start(t, Options{Payments: 100, Now: clock.Now, Arrivals: 5 * time.Millisecond,
		Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	// The seed's tokenization page is filled in 12 s after start.
	_, err := srv.Store().Advance(13 * time.Second)
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		out := logs.String()
		return strings.Contains(out, "kind=\"payment token\"") && strings.Contains(out, "sandbox payment arrived")
	}, eventually, 10*time.Millisecond, logs.String())
	out := logs.String()
	assert.Contains(t, out, "from=Created to=Active")
	assert.NotContains(t, out, srv.Store().V2Token())
}

func TestResetBringsBackTheSeed(t *testing.T) {
	clock := newFakeClock()
	srv := start(t, Options{Payments: 5000, Now: clock.Now, SettleDelay: time.Hour})
	st := srv.Store()
	require.NoError(t, st.WaitSeeded(t.Context()))
	c := newClient(t, srv)
	token, users := st.V2Token(), st.V1Users()
	pages := func() map[string]string {
		out := map[string]string{}
		for _, m := range st.MerchantIDs() {
			_, out["payments "+m] = c.rawGet(v2PaymentsPath(m, time.Time{}, time.Time{}))
			_, out["refunds "+m] = c.rawGet(v2ListPath("refunds", m, time.Time{}, time.Time{}))
			_, out["stickers "+m] = c.rawGet("/api/v2/stickers?merchantId=" + m)
		}
		return out
	}
	atStart := pages()
	v1 := newV1Client(t, srv, "accountant")
	transfersAtStart := v1.raw("listTransfers", "periodFrom", "2000-01-01")

	// Make, move and settle things.
	var inv struct {
		PaymentID string `json:"paymentId"`
	}
	c.want(200, "POST", "/api/v2/invoices", map[string]any{"merchantId": "1002", "amount": map[string]any{"value": 50, "currency": "RUB"}}, &inv)
	s := c.pay(cardPayment("1001", "4111111111111111", "300"))
	var r tRefund
	c.want(200, "POST", "/api/v2/refunds", map[string]any{"paymentId": s.ID, "amount": map[string]any{"value": 100, "currency": "RUB"}}, &r)
	n, err := st.Advance(2 * time.Hour)
	require.NoError(t, err)
	assert.Positive(t, n, "the seed's live part and the refund settled")
	require.NotEqual(t, atStart, pages())

	require.NoError(t, st.Reset(t.Context()))
	assert.Equal(t, clock.Now(), st.Now(), "the clock offset is back to zero")
	c.wantError(404, "invalid_operation", "not found", "GET", "/api/v2/payments/"+inv.PaymentID, nil)
	c.wantError(404, "invalid_operation", "not found", "GET", "/api/v2/payments/"+s.ID, nil)
	c.wantError(404, "invalid_operation", "not found", "GET", "/api/v2/refunds/"+r.ID, nil)
	after := pages()
	for k, v := range atStart {
		assert.Equal(t, v, after[k], k)
	}
	assert.Equal(t, transfersAtStart, v1.raw("listTransfers", "periodFrom", "2000-01-01"))
	assert.Equal(t, token, st.V2Token(), "credentials stay")
	assert.Equal(t, users, st.V1Users())

	// New objects take the ids they took the first time.
	again := c.pay(cardPayment("1001", "4111111111111111", "300"))
	assert.Equal(t, inv.PaymentID, again.ID)
}

func TestResetWhileSeeding(t *testing.T) {
	clock := newFakeClock()
	release := holdSeed(t)
	srv := start(t, Options{Payments: bigSeed, Now: clock.Now})
	st := srv.Store()
	c := newClient(t, srv)
	_, first := c.rawGet(v2PaymentsPath("1003", time.Time{}, time.Time{}))
	require.False(t, st.Seeded(), "reset while the seed is being made")
	require.NoError(t, st.Reset(t.Context()))
	_, again := c.rawGet(v2PaymentsPath("1003", time.Time{}, time.Time{}))
	assert.Equal(t, first, again)
	release()
	require.NoError(t, st.WaitSeeded(t.Context()))
	assert.Equal(t, bigSeed, st.PaymentCount())
	_, again = c.rawGet(v2PaymentsPath("1003", time.Time{}, time.Time{}))
	assert.Equal(t, first, again)
}

// TestClockAndResetUnderLoad runs Advance and Reset while requests, the
// settler and arrivals run (for the race detector).
func TestClockAndResetUnderLoad(t *testing.T) {
	srv := start(t, Options{Payments: 15_000, SettleDelay: 20 * time.Millisecond, Arrivals: 2 * time.Millisecond})
	st := srv.Store()
	stop := make(chan struct{})
	var served atomic.Int64 // lists answered: each Advance and Reset comes amid requests
	amid := func() {
		t.Helper()
		from := served.Load()
		require.Eventually(t, func() bool { return served.Load() >= from+3 }, eventually, time.Millisecond)
	}
	var wg sync.WaitGroup
	for w := range 3 {
		wg.Go(func() {
			c := newClient(t, srv)
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				m := st.MerchantIDs()[(w+i)%4]
				code, body := c.rawGet(v2PaymentsPath(m, time.Time{}, time.Time{}))
				if code != 200 {
					t.Errorf("list: %d %s", code, body)
					return
				}
				served.Add(1)
				if w == 0 {
					resp, b := c.call("POST", "/api/v2/payments", cardPayment("1001", "4000000000000259", "10"))
					if resp.StatusCode != 200 {
						t.Errorf("pay: %d %s", resp.StatusCode, b)
						return
					}
				}
			}
		})
	}
	for range 3 {
		amid()
		_, err := st.Advance(time.Minute)
		require.NoError(t, err)
		amid()
		require.NoError(t, st.Reset(t.Context()))
	}
	close(stop)
	wg.Wait()
	require.NoError(t, st.WaitSeeded(t.Context()))
	assert.GreaterOrEqual(t, st.PaymentCount(), 15_000)
}
