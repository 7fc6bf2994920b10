package sandbox

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Serving at once (seed_async.go): the sandbox answers while the seed is
// still being made, and every answer is the one the whole seed gives.

// bigSeed is large enough to be made in many chunks (seedSyncMin of it
// before serving, the rest beside it), and small enough to be made in a
// moment under the race detector. A test that needs the seed incomplete
// when it asks holds it back (holdSeed) rather than betting on its size.
const bigSeed = 40_000

// rawGet sends a GET and returns the status and body as they came.
func (c *client) rawGet(path string) (int, string) {
	c.t.Helper()
	resp, body := c.call("GET", path, nil)
	return resp.StatusCode, string(body)
}

// v2PaymentsPath asks for a merchant's payments created in [start, end);
// zero bounds ask for everything (2000 to 2100).
func v2PaymentsPath(merchant string, start, end time.Time) string {
	return v2ListPath("payments", merchant, start, end)
}

func v2ListPath(kind, merchant string, start, end time.Time) string {
	if start.IsZero() {
		start = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	if end.IsZero() {
		end = time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC)
	}
	v := url.Values{"merchantId": {merchant}, "start": {start.Format(time.RFC3339)}, "end": {end.Format(time.RFC3339)}}
	return "/api/v2/" + kind + "?" + v.Encode()
}

// v1Raw sends a signed v1 request and returns the body as it came.
func (c *v1Client) raw(op string, params ...string) string {
	c.t.Helper()
	resp, body := c.send(v1Req{op: op, params: params})
	require.Equal(c.t, http.StatusOK, resp.StatusCode, string(body))
	return string(body)
}

// holdSeed holds back the background part of the seeds begun until the
// returned func is called (also at the end of the test): the first answers
// come from the part made before serving, however fast the seed would run
// beside them.
func holdSeed(t *testing.T) (release func()) {
	gate := make(chan struct{})
	seedRestGate = gate
	var once sync.Once
	release = func() { once.Do(func() { close(gate) }) }
	t.Cleanup(func() {
		seedRestGate = nil
		release()
	})
	return release
}

func TestNewestPageAtOnceIsTheFullSeedsPage(t *testing.T) {
	clock := newFakeClock() // nothing comes due meanwhile: answers may be compared as they are
	release := holdSeed(t)
	srv := start(t, Options{Payments: bigSeed, Now: clock.Now})
	st := srv.Store()
	c := newClient(t, srv)
	v1 := newV1Client(t, srv, "accountant")
	now := clock.Now()
	today := now.Truncate(24 * time.Hour)

	type ask struct{ name, path string }
	var asks []ask
	for _, m := range st.MerchantIDs() {
		asks = append(asks,
			ask{"v2 all " + m, v2PaymentsPath(m, time.Time{}, time.Time{})},
			ask{"v2 today " + m, v2PaymentsPath(m, today, now.Add(time.Hour))},
			ask{"v2 7 days " + m, v2PaymentsPath(m, today.AddDate(0, 0, -6), now.Add(time.Hour))},
		)
	}
	first := map[string]string{}
	for _, a := range asks {
		code, body := c.rawGet(a.path)
		require.Equal(t, 200, code, "%s: %s", a.name, body)
		first[a.name] = body
	}
	day := now.Format(time.DateOnly)
	firstV1 := v1.raw("listPaymentsFilter", "periodFrom", day, "periodTo", day)
	firstV1All := v1.raw("listPaymentsFilter", "periodFrom", "2000-01-01")
	require.False(t, st.Seeded(), "the first pages were answered before the seed was complete")

	release()
	require.NoError(t, st.WaitSeeded(t.Context()))
	for _, a := range asks {
		code, body := c.rawGet(a.path)
		require.Equal(t, 200, code)
		assert.Equal(t, body, first[a.name], "%s: the page at once is the full seed's page", a.name)
	}
	assert.Equal(t, v1.raw("listPaymentsFilter", "periodFrom", day, "periodTo", day), firstV1, "v1 today")
	assert.Equal(t, v1.raw("listPaymentsFilter", "periodFrom", "2000-01-01"), firstV1All, "v1 newest 1,000")

	// Item by item, and full pages.
	var page struct {
		Items []tPayment `json:"items"`
	}
	c.want(200, "GET", asks[0].path, nil, &page)
	require.Len(t, page.Items, PageSize)
	env := response[tPaymentList](t, v1.ok("listPaymentsFilter", "periodFrom", "2000-01-01"))
	require.Len(t, env.Payments, 1000)
	require.NotNil(t, env.Overflow)
	assert.True(t, *env.Overflow)
}

func TestOldestDayWaitsForTheSeed(t *testing.T) {
	clock := newFakeClock()
	srv := start(t, Options{Payments: bigSeed, Now: clock.Now})
	st := srv.Store()
	c := newClient(t, srv)
	v1 := newV1Client(t, srv, "accountant")
	oldest := clock.Now().Add(-seedDays*24*time.Hour).Truncate(24*time.Hour).AddDate(0, 0, 1)
	path := v2PaymentsPath("1001", oldest, oldest.AddDate(0, 0, 1))
	day := oldest.Format(time.DateOnly)
	first := map[string]string{}

	_, first["v2"] = c.rawGet(path)
	first["v1"] = v1.raw("listPaymentsFilter", "periodFrom", day, "periodTo", day, "siteAlias", "1002")
	// The oldest payment by id, and by its order number (the coffee shop's first).
	_, first["get"] = c.rawGet("/api/v2/payments/" + strconv.Itoa(paymentBase))
	byOrder, err := st.PaymentByOrderNo("1001", "ORD-1001")
	require.NoError(t, err)
	seededThen := st.Seeded()

	var page struct {
		Items  []tPayment `json:"items"`
		Cursor string     `json:"cursor"`
	}
	c.want(200, "GET", path, nil, &page)
	assert.NotEmpty(t, page.Items)
	for _, p := range page.Items {
		created, err := time.Parse(time.RFC3339, p.Created)
		require.NoError(t, err)
		assert.False(t, created.Before(oldest), p.Created)
	}
	require.NoError(t, st.WaitSeeded(t.Context()))
	_, again := c.rawGet(path)
	assert.Equal(t, again, first["v2"])
	assert.Equal(t, v1.raw("listPaymentsFilter", "periodFrom", day, "periodTo", day, "siteAlias", "1002"), first["v1"])
	_, again = c.rawGet("/api/v2/payments/" + strconv.Itoa(paymentBase))
	assert.Equal(t, again, first["get"])
	assert.Contains(t, first["get"], `"id":"`+strconv.Itoa(paymentBase)+`"`)
	again2, err := st.PaymentByOrderNo("1001", "ORD-1001")
	require.NoError(t, err)
	assert.Equal(t, again2.ID, byOrder.ID)
	if seededThen {
		t.Log("the seed was complete before the oldest day was asked for: nothing waited")
	}
}

func TestWritesDuringTheSeedComeAfterIt(t *testing.T) {
	clock := newFakeClock()
	srv := start(t, Options{Payments: bigSeed, Now: clock.Now})
	c := newClient(t, srv)
	// A new payment takes the id after every seeded one; a refund of an old
	// payment finds it; the refunds list is the whole seed's.
	p := c.pay(cardPayment("1001", "4111111111111111", "10"))
	assert.Equal(t, strconv.Itoa(paymentBase+bigSeed), p.ID)
	assert.True(t, srv.Store().Seeded(), "writes wait for the whole seed")
	var r tRefund
	c.want(200, "POST", "/api/v2/refunds", map[string]any{"paymentId": p.ID, "amount": map[string]any{"value": 1, "currency": "RUB"}}, &r)
	seeded := len(srv.Store().refunds) - 1
	assert.Equal(t, strconv.Itoa(refundBase+seeded), r.ID, "a new refund comes after the seeded ones")
}

func TestSeedIsTheSameHoweverItIsMade(t *testing.T) {
	clock := newFakeClock()
	a := NewStore(Options{Seed: 7, Payments: 12_000, Now: clock.Now})
	b, err := OpenStore(t.Context(), Options{Seed: 7, Payments: 12_000, Now: clock.Now})
	require.NoError(t, err)
	require.NoError(t, b.WaitSeeded(t.Context()))
	assert.Equal(t, fingerprintStore(t, a), fingerprintStore(t, b))
	for i, p := range a.payments {
		if i > 0 {
			require.False(t, p.Created.Before(a.payments[i-1].Created), "ids ascend with created")
		}
	}
	for i, r := range a.refunds {
		if i > 0 {
			require.False(t, r.Created.Before(a.refunds[i-1].Created), "refund ids ascend with created")
		}
	}
	// Order numbers stay unique and ascending per merchant, as one pass
	// from the oldest would number them.
	for _, m := range a.merchants {
		seen := map[string]bool{}
		for _, p := range m.payments {
			require.False(t, seen[p.Invoice.OrderNo], p.Invoice.OrderNo)
			seen[p.Invoice.OrderNo] = true
		}
	}
	first, err := a.PaymentByOrderNo("1001", "ORD-1001")
	require.NoError(t, err)
	assert.Equal(t, "1001", first.MerchantID)
}

func TestSeedStopsOnCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	holdSeed(t) // the background part waits: the cancel comes before it ends, on any machine
	srv, err := Start(ctx, Options{Payments: bigSeed})
	require.NoError(t, err)
	defer srv.Close()
	st := srv.Store()
	c := newClient(t, srv)
	code, _ := c.rawGet(v2PaymentsPath("1001", time.Time{}, time.Time{}))
	assert.Equal(t, 200, code, "the newest page is served while millions are seeded")
	require.False(t, st.Seeded())

	t0 := time.Now()
	cancel() // as SIGTERM does in `paydash sandbox`
	err = st.WaitSeeded(context.Background())
	stopped := time.Since(t0)
	require.Error(t, err, "seeding stopped before it was complete")
	require.NoError(t, srv.Close())
	closed := time.Since(t0)
	// How soon is a figure, not a test (the machine's load decides it);
	// that the seed stops at its next look at the context is
	// TestSeedCancelledBeforeServing's.
	t.Logf("seeding stopped %v after the cancel, server closed after %v", stopped, closed)
	assert.False(t, st.Seeded(), "and did not go on to the end")
}

// cancelAfter is a context that ends at its n+1st look (Err): a cancel in
// the middle of the work, at the same point of it every run, with no clock.
type cancelAfter struct {
	context.Context
	left, looks atomic.Int64
	once        sync.Once
	done        chan struct{}
}

func newCancelAfter(n int64) *cancelAfter {
	c := &cancelAfter{Context: context.Background(), done: make(chan struct{})}
	c.left.Store(n)
	return c
}

func (c *cancelAfter) Done() <-chan struct{} { return c.done }

func (c *cancelAfter) Err() error {
	c.looks.Add(1)
	if c.left.Add(-1) >= 0 {
		return nil
	}
	c.once.Do(func() { close(c.done) })
	return context.Canceled
}

// A cancel while the part served at once is made (the customers and the
// newest chunk of 20,000,000 payments: hundreds of looks at the context)
// stops it, and OpenStore returns the context's error. How soon is counted
// in work, not time: each of the goroutines making customers (at most
// GOMAXPROCS, and 8) stops at its next look, and then OpenStore looks once
// to return.
func TestSeedCancelledBeforeServing(t *testing.T) {
	const before = 20
	ctx := newCancelAfter(before)
	st, err := OpenStore(ctx, Options{Payments: 20_000_000})
	if err == nil {
		st.Stop()
	}
	require.ErrorIs(t, err, context.Canceled)
	workers := int64(min(runtime.GOMAXPROCS(0), 8))
	assert.LessOrEqual(t, ctx.looks.Load(), int64(before+1)+workers, "no work after the looks that saw the cancel")
}

func TestTooManyPaymentsRefused(t *testing.T) {
	_, err := OpenStore(t.Context(), Options{Payments: MaxPayments + 1})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "at most 50000000")
	assert.Panics(t, func() { NewStore(Options{Payments: MaxPayments + 1}) })
}

func TestStartRefusesTooManyPayments(t *testing.T) {
	_, err := Start(t.Context(), Options{Payments: 9999999999999})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "9999999999999 payments")
}

func TestStopWithoutSeedAndTwice(t *testing.T) {
	st := NewStore(Options{Payments: 100})
	st.Stop()
	st.Stop()
	require.NoError(t, st.WaitSeeded(t.Context()))
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, err := OpenStore(ctx, Options{Payments: 100})
	assert.True(t, errors.Is(err, context.Canceled), "%v", err)
}

// --- launch figures ---
//
//	go test -run '^$' -bench 'StartToFirstPage|BaselineStartEmpty' -benchtime 10x ./backend/sandbox/
//
// Each run starts a sandbox (certificate authority, listener, seed) and
// times it until one v2 GET of the newest page over a new HTTPS connection
// has answered; ns/op is the mean, median-ms the median of the runs.

func benchStartToFirstPage(b *testing.B, payments int) {
	var runs []time.Duration
	for b.Loop() {
		t0 := time.Now()
		srv, err := Start(context.Background(), Options{Payments: payments})
		if err != nil {
			b.Fatal(err)
		}
		c := newClient(b, srv)
		req, _ := http.NewRequest("GET", srv.BaseURL()+v2PaymentsPath("1001", time.Time{}, time.Time{}), nil)
		req.Header.Set("Authorization", "Bearer "+srv.Store().V2Token())
		resp, err := c.hc.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			b.Fatal(resp.Status)
		}
		runs = append(runs, time.Since(t0))
		b.StopTimer()
		c.hc.CloseIdleConnections()
		_ = srv.Close()
		b.StartTimer()
	}
	reportMedianMS(b, runs)
}

func reportMedianMS(b *testing.B, runs []time.Duration) {
	if len(runs) == 0 {
		return
	}
	sorted := append([]time.Duration(nil), runs...)
	for i := range sorted { // insertion sort: ten runs
		for j := i; j > 0 && sorted[j] < sorted[j-1]; j-- {
			sorted[j], sorted[j-1] = sorted[j-1], sorted[j]
		}
	}
	m := sorted[len(sorted)/2]
	if len(sorted)%2 == 0 {
		m = (sorted[len(sorted)/2-1] + m) / 2
	}
	b.ReportMetric(float64(m)/float64(time.Millisecond), "median-ms")
}

// BenchmarkStartToFirstPage: the default seed of 100,000 payments.
func BenchmarkStartToFirstPage(b *testing.B) { benchStartToFirstPage(b, DefaultPayments) }

// BenchmarkBaselineStartEmpty: the same with nothing seeded, the floor.
func BenchmarkBaselineStartEmpty(b *testing.B) { benchStartToFirstPage(b, 0) }
