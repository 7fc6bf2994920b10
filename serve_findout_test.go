package main

import (
	"bytes"
	"context"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend"
	"paydash/backend/action"
	"paydash/backend/approval"
	"paydash/backend/journal"
	"paydash/backend/money"
	"paydash/backend/sandbox"
	"paydash/team"
	"paydash/views/tab"
)

// A server killed between journaling an approved refund and its answer
// finds it out at the next start: the refund is made once, under its key,
// and the request gets its outcome; an approved request whose action never
// reached the journal is said in the log, not sent.
func TestServeFindsOutWhatAnEarlierRunLeftOpen(t *testing.T) {
	ctx := context.Background()
	srv, err := sandbox.Start(ctx, sandbox.Options{Seed: 3, Payments: 300})
	require.NoError(t, err)
	t.Cleanup(func() { _ = srv.Close() })
	cfg := backend.Config{BaseURL: srv.BaseURL(), RootCAs: srv.CertPool(), Sandbox: true,
		MerchantIDs: srv.Info().MerchantIDs, V2Token: srv.Info().V2Token}
	b, err := backend.Open(cfg)
	require.NoError(t, err)
	dir := t.TempDir()
	j, err := journal.OpenWith(filepath.Join(dir, "journal.jsonl"), journal.Options{Services: action.ServicesOf(cfg)})
	require.NoError(t, err)
	t.Cleanup(func() { _ = j.Close() })
	store, err := approval.Open(filepath.Join(dir, "approvals.jsonl"), approval.Options{})
	require.NoError(t, err)
	t.Cleanup(func() { _ = store.Close() })

	p := settledPayment(t, srv)
	amount := money.Amount{Value: money.Decimal(10000), Currency: p.Amount.Currency} // 1.00
	filed, err := store.File(action.New(backend.ActionRefund, p.ID, amount, backend.V2), "desk-1", "SHA256:desk")
	require.NoError(t, err)
	claimed, err := store.Claim(filed.ID, "boss-1", "SHA256:boss")
	require.NoError(t, err)
	// The run that was killed: its sent line is in the journal, nothing was sent.
	sent := claimed.Action
	sent.Service, sent.Sent = j.ServiceFor(string(backend.V2)), time.Now()
	line := action.EntryOf(sent, journal.PhaseSent)
	line.Time = sent.Sent
	require.NoError(t, j.Record(line))
	// Another approved request whose action the journal never had.
	other, err := store.File(action.New(backend.ActionRefund, p.ID, amount, backend.V2), "desk-1", "SHA256:desk")
	require.NoError(t, err)
	_, err = store.Claim(other.ID, "boss-2", "SHA256:boss2")
	require.NoError(t, err)

	events, stop := store.Subscribe()
	defer stop()
	var logged bytes.Buffer
	locks := team.NewLocks()
	pending := action.Pending([]journal.Entry{line})
	require.Len(t, pending, 1)
	findOutLeftOpen(ctx, &action.Runner{Backend: b, Journal: j}, pending, store, locks, slog.New(slog.NewTextHandler(&logged, nil)))

	deadline := time.After(time.Minute)
	for settled := false; !settled; {
		select {
		case ev := <-events:
			settled = ev.Request.ID == filed.ID && ev.Request.State == approval.Sent
		case <-deadline:
			t.Fatalf("the request was not settled; the log:\n%s", logged.String())
		}
	}
	got, _ := store.Get(filed.ID)
	assert.Contains(t, got.Outcome, "made for payment "+p.ID)
	assert.Contains(t, logged.String(), "was never sent")
	assert.Equal(t, 1, refundsInStore(t, srv, p.MerchantID, p.ID, p.Created), "one refund, under the key fixed when it was asked")
	key := tab.LockKey(tab.ObjectRef{Kind: action.ObjectPayment, ID: p.ID})
	assert.Eventually(t, func() bool { return locks.Holder(key) == "" }, time.Minute, 10*time.Millisecond,
		"the object is free again once found out")
}

// settledPayment is a settled payment of the sandbox's first merchant.
func settledPayment(t *testing.T, srv *sandbox.Server) sandbox.Payment {
	t.Helper()
	page, err := srv.Store().ListPayments(sandbox.ListQuery{MerchantID: srv.Info().MerchantIDs[0],
		Start: time.Now().AddDate(0, 0, -90), End: time.Now().Add(time.Hour)})
	require.NoError(t, err)
	for _, p := range page.Items {
		if p.Status == sandbox.PaymentSettled {
			return p
		}
	}
	t.Fatal("no settled payment in the sandbox")
	return sandbox.Payment{}
}
