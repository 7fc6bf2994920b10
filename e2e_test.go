package main

import (
	"context"
	"crypto/x509"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend/journal"
	"paydash/backend/money"
	"paydash/backend/sandbox"
	v2 "paydash/backend/v2"
)

// The first end-to-end test: the built binary, in a pseudo-terminal of
// 120x40, against `paydash sandbox` in another process, captures a held
// payment and refunds part of a settled one by keyboard as a user would;
// the sandbox's state and the journal are checked afterwards.

func TestEndToEndCaptureAndPartialRefundInATerminal(t *testing.T) {
	skipUnlessE2E(t)
	start := time.Now()
	dir := t.TempDir()
	bin := paydashBinary(t)
	info := startSandboxProcess(t, bin, dir)
	ctx := context.Background()

	pem, err := os.ReadFile(info.CAFile)
	require.NoError(t, err)
	pool := x509.NewCertPool()
	require.True(t, pool.AppendCertsFromPEM(pem))
	api, err := v2.NewClient(info.BaseURL, info.V2Token, v2.WithRootCAs(pool))
	require.NoError(t, err)

	merchant := info.MerchantIDs[0]
	held := findOrMakePayment(t, api, merchant, v2.PaymentStatusAuthorized)
	settled := findOrMakePayment(t, api, merchant, v2.PaymentStatusSettled)
	t.Logf("held payment %s (%s), settled payment %s (%s)", held.ID, held.Amount, settled.ID, settled.Amount)
	before := refundsOf(t, api, merchant, settled.ID)
	partial := money.Amount{Value: money.MustParse("1"), Currency: settled.Amount.Currency}

	var accountant sandbox.V1User
	for _, u := range info.V1Users {
		if u.Role == sandbox.RoleAccountant {
			accountant = u
		}
	}
	journalPath := filepath.Join(dir, "state", "journal.jsonl")
	logPath := filepath.Join(dir, "requests.log")
	term := startInTerminal(t, bin, []string{
		"--base-url", info.BaseURL, "--ca-file", info.CAFile, "--merchant", merchant,
		"--journal", journalPath, "--log", logPath,
	}, []string{
		"PAYDASH_V2_TOKEN=" + info.V2Token,
		"PAYDASH_V1_LOGIN=" + accountant.Login,
		"PAYDASH_V1_PASSWORD=" + accountant.Password,
	}, dir)

	term.waitFor(t, "the payments list", func(s string) bool {
		return strings.Contains(s, "Payments") && strings.Contains(s, merchant)
	})

	// Capture the held payment: jump to it, c, wait out the guard, y.
	term.send(t, ":"+held.ID+"\r")
	term.waitFor(t, "the held payment's detail", func(s string) bool {
		return strings.Contains(s, "Payment "+held.ID) && strings.Contains(s, "Authorized")
	})
	term.settle()
	term.send(t, "c")
	// The confirmation itself (its buttons), not the "preparing" dialog
	// of the same title: the guard starts when the confirmation opens.
	term.waitFor(t, "the capture confirmation", func(s string) bool {
		return strings.Contains(s, "Capture payment "+held.ID) && buttonRE.MatchString(s)
	})
	pauseForGuard()
	term.send(t, "y")
	waitForService(t, term, "the held payment to be captured", func() (bool, string) {
		p, _, err := api.Payments.Get(ctx, held.ID)
		if err != nil {
			return false, err.Error()
		}
		return p.Status == v2.PaymentStatusSettled, string(p.Status)
	})

	// Refund part of the settled payment: jump, R, edit the amount, y.
	term.settle()
	term.send(t, ":"+settled.ID+"\r")
	term.waitFor(t, "the settled payment's detail", func(s string) bool {
		return strings.Contains(s, "Payment "+settled.ID) && strings.Contains(s, "Settled") && !strings.Contains(s, "Capture payment")
	})
	term.settle()
	term.send(t, "R")
	term.waitFor(t, "the refund confirmation", func(s string) bool {
		return strings.Contains(s, "Refund payment "+settled.ID) && buttonRE.MatchString(s)
	})
	pauseForGuard()
	term.send(t, "e")
	term.settle()
	term.send(t, strings.Repeat("\x7f", 24)+partial.Value.String())
	term.settle()
	term.send(t, "\r")
	term.waitFor(t, "the button naming "+partial.Value.String(), func(s string) bool {
		return strings.Contains(s, "Refund "+money.Group(partial.Value, partial.Currency)+" "+partial.Currency)
	})
	pauseForGuard() // y confirms only what stood still for the guard, from when the screen showed it
	term.send(t, "y")
	var refund v2.Refund
	waitForService(t, term, "one new refund of "+partial.String(), func() (bool, string) {
		after := refundsOf(t, api, merchant, settled.ID)
		added := newRefunds(before, after)
		if len(added) == 1 {
			refund = added[0]
		}
		return len(added) >= 1, fmt.Sprintf("%d new refunds", len(added))
	})
	assert.Equal(t, partial.Value, refund.Amount.Value, "the refund is of the amount typed: %s", refund.Amount)
	assert.Equal(t, partial.Currency, refund.Amount.Currency)

	// Quit.
	term.settle()
	term.send(t, "q")
	code := term.wait(t, 10*time.Second)
	assert.Equal(t, 0, code, "paydash exits 0 on q; the screen:\n%s\nthe last output:\n%s", term.vt.Screen(), term.tailIf(code != 0))

	// The service's state, read again after the dashboard is gone.
	p, _, err := api.Payments.Get(ctx, held.ID)
	require.NoError(t, err)
	assert.Equal(t, v2.PaymentStatusSettled, p.Status, "the held payment was captured")
	assert.Equal(t, held.Amount.Value, p.Amount.Value, "captured in full, as prefilled: %s", p.Amount)
	added := newRefunds(before, refundsOf(t, api, merchant, settled.ID))
	require.Len(t, added, 1, "exactly one new refund: nothing was sent twice")
	assert.Equal(t, partial.Value, added[0].Amount.Value)

	// The journal holds both actions, sent before done.
	entries, err := journal.Read(journalPath)
	require.NoError(t, err)
	assertJournaled(t, entries, "capture", held.ID, "", nil)
	assertJournaled(t, entries, "refund", settled.ID, refund.ID, &partial)

	// The request log has the requests and none of the secrets.
	logText, err := os.ReadFile(logPath)
	require.NoError(t, err)
	assert.Contains(t, string(logText), "v2 request")
	assert.NotContains(t, string(logText), info.V2Token)
	assert.NotContains(t, string(logText), accountant.Password)

	t.Logf("end to end in %s", time.Since(start).Round(time.Millisecond))
}

// TestEndToEndEmbeddedSandbox is `make run`: paydash with no base URL opens
// on the sandbox it starts inside itself, with both interfaces.
func TestEndToEndEmbeddedSandbox(t *testing.T) {
	skipUnlessE2E(t)
	dir := t.TempDir()
	bin := paydashBinary(t)
	launched := time.Now()
	term := startInTerminal(t, bin, nil, nil, dir)
	screen := term.waitFor(t, "the first screen with data", func(s string) bool {
		return strings.Contains(s, "sandbox") && strings.Contains(s, "v2+v1") && strings.Contains(s, "RUB")
	})
	t.Logf("first screen with data %s after launch (100,000 payments seeded%s)",
		time.Since(launched).Round(time.Millisecond), map[bool]string{true: ", built with -race"}[raceEnabled && os.Getenv(e2eBinaryEnv) == ""])
	assert.Contains(t, screen, "Payments")
	assert.True(t, term.vt.AltScreen())

	// SIGTERM ends it cleanly, leaving the terminal as it was.
	term.settle()
	require.NoError(t, term.cmd.Process.Signal(syscall.SIGTERM))
	stopping := time.Now()
	code := term.wait(t, 10*time.Second)
	assert.Equal(t, 0, code, "exit status; the last output:\n%s", term.tailIf(code != 0))
	t.Logf("stopped %s after SIGTERM", time.Since(stopping).Round(time.Millisecond))
	assert.Eventually(t, func() bool { return !term.vt.AltScreen() }, e2eWait, 10*time.Millisecond,
		"the alternate screen is left on exit (the last output may still be in the pty)")
	_, err := os.Stat(filepath.Join(dir, "home", ".local", "state", "paydash", "sandbox-journal.jsonl"))
	assert.NoError(t, err, "the sandbox's journal is opened in XDG_STATE_HOME")
}

// findOrMakePayment finds a payment of the merchant created today in the
// given status (a Settled one still fully refundable and worth at least 2),
// or makes one with a test card when the seed has none today.
func findOrMakePayment(t *testing.T, api *v2.Client, merchant string, status v2.PaymentStatus) v2.PaymentListItem {
	t.Helper()
	ctx := context.Background()
	now := time.Now()
	y, m, d := now.Date()
	today := v2.ListParams{MerchantID: merchant, Start: time.Date(y, m, d, 0, 0, 0, 0, now.Location()), End: now.Add(time.Hour)}
	var refunded map[string]bool
	if status == v2.PaymentStatusSettled {
		refunded = map[string]bool{}
		for r, err := range api.Refunds.All(ctx, today) {
			require.NoError(t, err)
			refunded[r.PaymentID] = true
		}
	}
	for p, err := range api.Payments.All(ctx, today) {
		require.NoError(t, err)
		if p.Status != status || refunded[p.ID] {
			continue
		}
		if status == v2.PaymentStatusSettled && p.Amount.Value < money.MustParse("2") {
			continue
		}
		return p
	}
	amount := money.Amount{Value: money.MustParse("1250.00"), Currency: "RUB"}
	p, _, err := api.Payments.Create(ctx, &v2.PaymentRequest{
		MerchantID: merchant, DualMode: status == v2.PaymentStatusAuthorized, Amount: &amount,
		Invoice:     &v2.Invoice{Description: "End-to-end " + string(status), OrderNo: "E2E-" + string(status)},
		PaymentData: &v2.PaymentData{PaymentMethod: v2.PaymentMethodBankCard, Card: &v2.Card{PAN: "4111111111111111", Expiry: "12/30", CVC: "123"}},
		Customer:    &v2.Customer{Email: "e2e@example.com", IP: "203.0.113.9"},
	}, nil)
	require.NoError(t, err)
	require.Equal(t, status, p.Status)
	t.Logf("no %s payment of merchant %s today in the seed: made %s", status, merchant, p.ID)
	return v2.PaymentListItem{ID: p.ID, Created: p.Created, Status: p.Status, MerchantID: p.MerchantID,
		Invoice: p.Invoice, Amount: p.Amount, PaymentData: p.PaymentData}
}

// refundsOf lists the refunds of a payment made today (a refund of a
// payment of today cannot be older).
func refundsOf(t *testing.T, api *v2.Client, merchant, paymentID string) []v2.Refund {
	t.Helper()
	now := time.Now()
	var out []v2.Refund
	for r, err := range api.Refunds.All(context.Background(), v2.ListParams{MerchantID: merchant,
		Start: now.AddDate(0, 0, -2), End: now.Add(time.Hour)}) {
		require.NoError(t, err)
		if r.PaymentID == paymentID {
			out = append(out, r)
		}
	}
	return out
}

func newRefunds(before, after []v2.Refund) []v2.Refund {
	var added []v2.Refund
	for _, r := range after {
		if !slices.ContainsFunc(before, func(b v2.Refund) bool { return b.ID == r.ID }) {
			added = append(added, r)
		}
	}
	return added
}

// assertJournaled checks that the journal has a "sent" entry for the
// payment followed by a "done" one (for a refund, the done entry may name
// the new refund instead), with the amount when given.
func assertJournaled(t *testing.T, entries []journal.Entry, action, paymentID, refundID string, amount *money.Amount) {
	t.Helper()
	sent, done := -1, -1
	for i, e := range entries {
		switch {
		case e.Action != action:
		case e.Phase == journal.PhaseSent && e.ObjectID == paymentID && sent < 0:
			sent = i
			if amount != nil {
				v, err := money.Parse(e.Amount)
				if assert.NoError(t, err, "the sent entry's amount %q", e.Amount) {
					assert.Equal(t, amount.Value, v, "the journal has the amount sent")
				}
				assert.Equal(t, amount.Currency, e.Currency)
				assert.NotEmpty(t, e.IdempotencyKey, "a refund is keyed")
			}
		case e.Phase == journal.PhaseDone && (e.ObjectID == paymentID || (refundID != "" && e.ObjectID == refundID)):
			done = i
		}
	}
	assert.GreaterOrEqual(t, sent, 0, "a sent %s entry for %s in %+v", action, paymentID, entries)
	assert.Greater(t, done, sent, "a done %s entry for %s after the sent one in %+v", action, paymentID, entries)
}
