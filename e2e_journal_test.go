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
	p := findOrMakePayment(t, a.api, merchant, v2.PaymentStatusSettled)
	onB, _, err := b.api.Payments.Get(context.Background(), p.ID)
	require.NoError(t, err, "the same seed: payment %s is on B too", p.ID)
	require.Equal(t, v2.PaymentStatusSettled, onB.Status)
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
