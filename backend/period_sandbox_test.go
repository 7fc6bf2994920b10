package backend_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend"
	"paydash/backend/money"
	"paydash/backend/sandbox"
)

// A period read in slices against the sandbox (backend/period.go): the
// service reads a period as [start, end), and so does every slice.

func openSliced(t testing.TB, srv *sandbox.Server, n int) backend.Backend {
	t.Helper()
	info := srv.Info()
	b, err := backend.Open(backend.Config{BaseURL: srv.BaseURL(), RootCAs: srv.CertPool(), V2Token: info.V2Token,
		MerchantIDs: info.MerchantIDs, Sandbox: true, ParallelReads: n})
	require.NoError(t, err)
	return b
}

// readWhole reads q's payments to the end, asking the pager to read ahead
// from the first page.
func readWhole(ctx context.Context, b backend.Backend, q backend.PeriodQuery) ([]backend.Payment, error) {
	p := b.ListPayments(q)
	if ra, ok := p.(backend.ReadAheader); ok {
		ra.ReadAhead(true)
	}
	return backend.Collect(ctx, p)
}

// Payments created on a slice's edge (the sandbox's clock stands still, so
// they all have its time, which the period puts on an edge) come once.
func TestSlicedPeriodKeepsPaymentsOnAnEdgeOnce(t *testing.T) {
	srv := startSandbox(t)
	st := srv.Store()
	merchant := st.MerchantIDs()[0]
	var made []string
	for i := range 5 {
		a := money.Amount{Value: money.MustParse("100"), Currency: "RUB"}
		p, err := st.CreatePayment(sandbox.PaymentRequest{
			MerchantID: merchant, Amount: &a, PaymentMethod: "bankcard",
			Invoice: sandbox.Invoice{Description: "edge", OrderNo: "EDGE-" + strconv.Itoa(i)},
			Card:    &sandbox.CardData{PAN: "4111111111111111", Expiry: "12/30", CVC: "123"},
		})
		require.NoError(t, err)
		made = append(made, p.ID)
	}
	// 4 readers cut the period in 16 slices of an hour: the second edge
	// from the end is the sandbox's now, where the payments were made.
	edge := st.Now()
	q := backend.PeriodQuery{MerchantID: merchant, Start: edge.Add(-15 * time.Hour), End: edge.Add(time.Hour)}
	want, err := backend.Collect(context.Background(), openSliced(t, srv, 1).ListPayments(q))
	require.NoError(t, err)
	for _, n := range []int{2, 4} {
		got, err := readWhole(context.Background(), openSliced(t, srv, n), q)
		require.NoError(t, err)
		assert.Equal(t, ids(want), ids(got), "%d readers", n)
		count := map[string]int{}
		for _, p := range got {
			count[p.ID]++
		}
		for _, id := range made {
			assert.Equal(t, 1, count[id], "payment %s on the edge, %d readers", id, n)
		}
	}
	// The period's own bounds: one ending at the edge leaves them out, one
	// starting there has them.
	before, err := readWhole(context.Background(), openSliced(t, srv, 4), backend.PeriodQuery{MerchantID: merchant, Start: q.Start, End: edge})
	require.NoError(t, err)
	after, err := readWhole(context.Background(), openSliced(t, srv, 4), backend.PeriodQuery{MerchantID: merchant, Start: edge, End: q.End})
	require.NoError(t, err)
	assert.Len(t, after, len(made))
	assert.Len(t, before, len(want)-len(made))
}

func ids(ps []backend.Payment) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.ID
	}
	return out
}

// --- the whole period of a million payments --------------------------------

// benchSeed is the sandbox of BenchmarkReadPeriod, made once per process:
// the sandbox seeds 90 days for four merchants, the first with 45% of the
// payments, so 2,222,222 give it about a million. PAYDASH_BENCH_PAYMENTS
// sets another total (a quicker look).
var benchSeed = sync.OnceValues(func() (*sandbox.Server, error) {
	total := 2_222_222
	if v, err := strconv.Atoi(os.Getenv("PAYDASH_BENCH_PAYMENTS")); err == nil && v > 0 {
		total = v
	}
	now := time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)
	srv, err := sandbox.Start(context.Background(), sandbox.Options{Payments: total, Seed: 1,
		Now: func() time.Time { return now }})
	if err != nil {
		return nil, err
	}
	return srv, srv.Store().WaitSeeded(context.Background())
})

// BenchmarkReadPeriod reads the first merchant's whole seeded period
// (about 1,000,000 payments) through the current interface over HTTPS,
// page after page (parallel=1, the baseline) and in slices, in the same
// run: go test ./backend -run '^$' -bench ReadPeriod -benchtime 1x.
func BenchmarkReadPeriod(b *testing.B) {
	srv, err := benchSeed()
	if err != nil {
		b.Fatal(err)
	}
	merchant := srv.Store().MerchantIDs()[0]
	now := srv.Store().Now()
	q := backend.PeriodQuery{MerchantID: merchant, Start: now.AddDate(0, 0, -91), End: now.Add(time.Hour)}
	for _, n := range []int{1, 4, 8} {
		b.Run(fmt.Sprintf("parallel=%d", n), func(b *testing.B) {
			be := openSliced(b, srv, n)
			rows := 0
			for b.Loop() {
				rows = countWhole(b, be, q)
			}
			b.ReportMetric(float64(rows), "rows")
		})
	}
}

// countWhole reads q's payments to the end as readWhole does, counting
// them: what the list does with the rows is the list's cost, not the
// read's.
func countWhole(b *testing.B, be backend.Backend, q backend.PeriodQuery) int {
	p := be.ListPayments(q)
	if ra, ok := p.(backend.ReadAheader); ok {
		ra.ReadAhead(true)
	}
	rows := 0
	for {
		page, err := p.Next(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		rows += len(page.Items)
		if page.Done {
			return rows
		}
	}
}

// BenchmarkReadPeriodLatency is BenchmarkReadPeriod against a service
// that takes 5 ms a request on its way (the sandbox's latency fault), as a
// service across a network does, with about 100,000 payments: there the
// requests out at once overlap their waits, where on this machine's own
// sandbox they share its cores.
func BenchmarkReadPeriodLatency(b *testing.B) {
	now := time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	srv, err := sandbox.Start(ctx, sandbox.Options{Payments: 222_222, Seed: 1, Now: func() time.Time { return now },
		Faults: sandbox.Faults{Latency: 5 * time.Millisecond}})
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	if err := srv.Store().WaitSeeded(ctx); err != nil {
		b.Fatal(err)
	}
	q := backend.PeriodQuery{MerchantID: srv.Store().MerchantIDs()[0], Start: now.AddDate(0, 0, -91), End: now.Add(time.Hour)}
	for _, n := range []int{1, 4, 8} {
		b.Run(fmt.Sprintf("parallel=%d", n), func(b *testing.B) {
			be := openSliced(b, srv, n)
			rows := 0
			for b.Loop() {
				rows = countWhole(b, be, q)
			}
			b.ReportMetric(float64(rows), "rows")
		})
	}
}
