package main

import (
	"context"
	"crypto/x509"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend"
	"paydash/backend/action"
	"paydash/backend/journal"
	"paydash/backend/money"
	"paydash/backend/sandbox"
	v2 "paydash/backend/v2"
)

// The built binary, two `paydash sandbox` processes of one seed (the same
// payment ids) and one journal: a refund that sandbox A made, whose answer
// paydash never read (it was killed: the journal holds only the sent line),
// is not checked nor replayed when paydash starts against sandbox B — the
// dashboard lists it with A's address, B makes no refund, the journal gets
// no outcome — and a start against A finds it out.
func TestEndToEndAnActionOfAnotherServiceIsNotSentThere(t *testing.T) {
	skipUnlessE2E(t)
	dir := t.TempDir()
	bin := paydashBinary(t)
	type side struct {
		info sandbox.Info
		api  *v2.Client
		env  []string
	}
	start := func(name string) side {
		sub := filepath.Join(dir, name)
		require.NoError(t, os.MkdirAll(sub, 0o700))
		info := startSandboxProcess(t, bin, sub)
		pem, err := os.ReadFile(info.CAFile)
		require.NoError(t, err)
		pool := x509.NewCertPool()
		require.True(t, pool.AppendCertsFromPEM(pem))
		api, err := v2.NewClient(info.BaseURL, info.V2Token, v2.WithRootCAs(pool))
		require.NoError(t, err)
		return side{info: info, api: api, env: []string{"PAYDASH_V2_TOKEN=" + info.V2Token}}
	}
	a, b := start("a"), start("b")
	require.NotEqual(t, a.info.BaseURL, b.info.BaseURL)
	merchant := a.info.MerchantIDs[0]
	p := settledOnBoth(t, a.api, b.api, merchant, time.Now())
	beforeA, beforeB := refundsOf(t, a.api, merchant, p.ID), refundsOf(t, b.api, merchant, p.ID)

	// A makes the refund; paydash is killed before its answer: the journal
	// holds the sent line alone, naming A.
	amount := money.Amount{Value: money.MustParse("1.00"), Currency: p.Amount.Currency}
	req := action.New(backend.ActionRefund, p.ID, amount, backend.V2)
	made, _, err := a.api.Refunds.Create(context.Background(), &v2.RefundRequest{PaymentID: p.ID, Amount: &amount},
		&v2.CreateOptions{IdempotencyKey: req.IdempotencyKey})
	require.NoError(t, err)
	onA := action.ServicesOf(backend.Config{BaseURL: a.info.BaseURL, V2Token: a.info.V2Token})[0]
	jpath := filepath.Join(dir, "state", "journal.jsonl")
	require.NoError(t, os.MkdirAll(filepath.Dir(jpath), 0o700))
	sent, err := json.Marshal(journal.Entry{Time: time.Now(), Action: string(req.Kind), Phase: journal.PhaseSent, ObjectID: p.ID,
		Amount: "1.00", Currency: amount.Currency, Interface: "v2", IdempotencyKey: req.IdempotencyKey, ActionID: req.ID, Service: &onA})
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(jpath, append(sent, '\n'), 0o600))

	run := func(s side) *terminal {
		return startInTerminal(t, bin, []string{"--base-url", s.info.BaseURL, "--ca-file", s.info.CAFile,
			"--merchant", merchant, "--journal", jpath}, s.env, dir)
	}
	tm := run(b)
	tm.waitFor(t, "the action of A listed in a notice, not checked", func(sc string) bool {
		sc = unwrappedScreen(sc)
		return strings.Contains(sc, "Actions left open on other services") &&
			strings.Contains(sc, "1 action left open on "+journal.Origin(a.info.BaseURL)) && strings.Contains(sc, "not checked here")
	})
	tm.settle()
	tm.send(t, "\r") // the notice closes
	tm.waitFor(t, "the notice closed", func(sc string) bool { return !strings.Contains(sc, "Actions left open on other services") })
	tm.settle()
	tm.send(t, "q")
	assert.Equal(t, 0, tm.wait(t, 15*time.Second))
	assert.Empty(t, newRefunds(beforeB, refundsOf(t, b.api, merchant, p.ID)), "B made no refund")
	entries, err := journal.Read(jpath)
	require.NoError(t, err)
	assert.Nil(t, finalLine(entries, req.ID), "no outcome was written for A's refund from B")

	// Against A, it is found out: the refund A made.
	tm = run(a)
	tm.waitFor(t, "the notice saying the refund was made", func(sc string) bool {
		return strings.Contains(unwrappedScreen(sc), "Refund "+made.ID+" of ")
	})
	tm.send(t, "\r")
	tm.settle()
	tm.send(t, "q")
	tm.wait(t, 15*time.Second)
	entries, err = journal.Read(jpath)
	require.NoError(t, err)
	final := finalLine(entries, req.ID)
	require.NotNil(t, final)
	assert.Equal(t, journal.PhaseDone, final.Phase)
	assert.Contains(t, final.Result, made.ID)
	assert.Equal(t, onA, *final.Service)
	assert.Len(t, newRefunds(beforeA, refundsOf(t, a.api, merchant, p.ID)), 1, "A holds one new refund: finding out made no second")
}

// settledOnBoth is a Settled payment of merchant that the seed of both
// sandboxes holds alike (the same id, status and amount), worth at least
// 2 and not refunded, from the 30 days before now. Not one of today only,
// nor one made when there is none (findOrMakePayment): in the first
// seconds of a day the seed has no Settled payment of that day
// (seedClockWithoutSettledToday), and a payment made on A is not on B.
func settledOnBoth(t *testing.T, a, b *v2.Client, merchant string, now time.Time) v2.PaymentListItem {
	t.Helper()
	ctx := context.Background()
	period := v2.ListParams{MerchantID: merchant, Start: now.AddDate(0, 0, -30), End: now.Add(time.Hour)}
	refunded := map[string]bool{}
	for r, err := range a.Refunds.All(ctx, period) {
		require.NoError(t, err)
		refunded[r.PaymentID] = true
	}
	for p, err := range a.Payments.All(ctx, period) {
		require.NoError(t, err)
		if p.Status != v2.PaymentStatusSettled || refunded[p.ID] || p.Amount.Value < money.MustParse("2") {
			continue
		}
		onB, _, err := b.Payments.Get(ctx, p.ID)
		if err == nil && onB.Status == p.Status && onB.Amount == p.Amount {
			return p
		}
	}
	require.FailNow(t, "no Settled payment of merchant "+merchant+" in the 30 days before "+now.String()+" on both sandboxes")
	return v2.PaymentListItem{}
}

// seedClockWithoutSettledToday is a clock in the first seconds of a day,
// when the end-to-end tests' seed (5, 2000 payments) has no Settled
// payment of the first merchant made that day: findOrMakePayment then
// makes one, on one sandbox only, which failed
// TestEndToEndAnActionOfAnotherServiceIsNotSentThere when it took its
// payment from there.
var seedClockWithoutSettledToday = time.Date(2026, 6, 1, 0, 0, 9, 0, time.UTC)

// TestEndToEndSettledOnBothWhenTheSeedHasNoneToday: two sandboxes of the
// seed in the test's process, their clocks stopped at that clock, have no
// Settled payment of that day, and settledOnBoth finds one that both hold.
func TestEndToEndSettledOnBothWhenTheSeedHasNoneToday(t *testing.T) {
	skipUnlessE2E(t)
	now := seedClockWithoutSettledToday
	var apis []*v2.Client
	var merchant string
	for range 2 {
		srv, err := sandbox.Start(context.Background(), sandbox.Options{Seed: 5, Payments: 2000,
			SettleDelay: 200 * time.Millisecond, Now: func() time.Time { return now }})
		require.NoError(t, err)
		t.Cleanup(func() { _ = srv.Close() })
		merchant = srv.Info().MerchantIDs[0]
		today, _ := srv.Store().FilterPayments(sandbox.PaymentFilter{MerchantIDs: []string{merchant},
			Start: now.Truncate(24 * time.Hour), End: now.Add(time.Hour),
			Statuses: []sandbox.PaymentStatus{sandbox.PaymentSettled}})
		require.Empty(t, today, "the seed at %s has a Settled payment of that day: pick another clock", now)
		dir := t.TempDir()
		require.NoError(t, srv.WriteInfoFile(filepath.Join(dir, "sandbox.json")))
		apis = append(apis, sessionOn(t, "", dir, srv.Info(), false).api)
	}
	p := settledOnBoth(t, apis[0], apis[1], merchant, now)
	onB, _, err := apis[1].Payments.Get(context.Background(), p.ID)
	require.NoError(t, err)
	assert.Equal(t, v2.PaymentStatusSettled, onB.Status)
	assert.Equal(t, merchant, onB.MerchantID)
}
