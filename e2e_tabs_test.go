package main

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend/journal"
	"paydash/backend/money"
	"paydash/backend/sandbox"
	v2 "paydash/backend/v2"
)

// The end-to-end test of the Tokens and Stickers tabs and of the payment
// link form: the built binary in a pseudo-terminal against `paydash
// sandbox` in another process, driven by keys as a support person would,
// revokes a saved card token (3, :, its id, enter, v, y), switches a
// sticker off (4, /, its id, enter, enter, t, y) and makes a payment link
// (1, n, the form's fields, y). The service is then asked through its own
// API what became of each, and the journal must hold a sent and a done
// line for each action, and nothing sent twice.

func TestEndToEndTokensStickersAndPaymentLink(t *testing.T) {
	s := newOwnSession(t, false)
	start := time.Now()
	ctx := context.Background()

	tokenID, usedBy := s.activeTokenOfAPayment()
	sticker := s.activeSticker()
	before := s.recentPayments()
	link := money.Amount{Value: money.MustParse("1234.56"), Currency: "RUB"}
	const description = "End-to-end payment link"
	orderNo := fmt.Sprintf("E2E-LINK-%d", time.Now().UnixNano()%1e9)
	t.Logf("token %s (used by payment %s), sticker %s (%s), order %s", tokenID, usedBy, sticker.ID, sticker.Description, orderNo)

	tm := s.start(s.merchant)

	// 1. Revoke the token: the Tokens tab, look it up by id, v, y.
	tm.settle()
	tm.send(t, "3")
	tm.waitFor(t, "the Tokens tab", func(sc string) bool {
		return strings.Contains(sc, "[3 Tokens]") && strings.Contains(unwrappedScreen(sc), "by id")
	})
	tm.settle()
	tm.send(t, ":")
	tm.waitFor(t, "the token lookup prompt", func(sc string) bool { return strings.Contains(sc, "Look up a token") })
	tm.send(t, tokenID)
	tm.waitFor(t, "the token id typed", func(sc string) bool { return strings.Contains(sc, "> "+tokenID) })
	tm.send(t, "\r")
	tm.waitFor(t, "the token's pane, Active", func(sc string) bool {
		return strings.Contains(sc, "Token "+tokenID) && paneShowsStatus(sc, "✓ Active") && !strings.Contains(sc, "Look up a token")
	})
	tm.settle()
	tm.send(t, "v")
	tm.waitFor(t, "the revoke confirmation", func(sc string) bool {
		u := unwrappedScreen(sc)
		return strings.Contains(u, "Revoke token "+tokenID) && strings.Contains(u, "Now: ✓ Active → after: Revoked")
	})
	pauseForGuard()
	tm.send(t, "y")
	waitForService(t, tm, "the token to be revoked", func() (bool, string) {
		tok, _, err := s.api.PaymentTokens.Get(ctx, tokenID)
		if err != nil {
			return false, err.Error()
		}
		return tok.Status == v2.TokenStatusRevoked, string(tok.Status)
	})
	tm.waitFor(t, "the pane saying Revoked", func(sc string) bool {
		return paneShowsStatus(sc, "✗ Revoked") && !strings.Contains(sc, "→ after: Revoked")
	})

	// 2. Switch the sticker off: the Stickers tab, filter the list by its
	// id, open it, t, y.
	tm.settle()
	tm.send(t, "4")
	tm.waitFor(t, "the Stickers tab with the sticker", func(sc string) bool {
		return strings.Contains(sc, "[4 Stickers]") && strings.Contains(sc, sticker.ID)
	})
	tm.settle()
	tm.send(t, "/")
	tm.waitFor(t, "the search input", func(sc string) bool { return strings.Contains(sc, "enter searches the whole list") })
	tm.send(t, sticker.ID)
	tm.waitFor(t, "the sticker id typed", func(sc string) bool { return strings.Contains(sc, "/ "+sticker.ID) })
	tm.send(t, "\r")
	tm.waitFor(t, "the list filtered to the sticker", func(sc string) bool {
		return strings.Contains(sc, "search: "+sticker.ID) && !strings.Contains(sc, "/ "+sticker.ID) &&
			regexp.MustCompile(`│ 1 of \d+ rows`).MatchString(sc)
	})
	tm.settle()
	tm.send(t, "\r")
	tm.waitFor(t, "the sticker's pane, Active", func(sc string) bool {
		return strings.Contains(sc, "Sticker "+sticker.ID) && paneShowsStatus(sc, "✓ Active")
	})
	tm.settle()
	tm.send(t, "t")
	tm.waitFor(t, "the switch-off confirmation", func(sc string) bool {
		u := unwrappedScreen(sc)
		return strings.Contains(u, "Switch off sticker "+sticker.ID) && strings.Contains(u, "Now: Active → after: Inactive")
	})
	pauseForGuard()
	tm.send(t, "y")
	waitForService(t, tm, "the sticker to be switched off", func() (bool, string) {
		st, _, err := s.api.Stickers.Get(ctx, sticker.ID)
		if err != nil {
			return false, err.Error()
		}
		return st.Status == v2.StickerStatusInactive, string(st.Status)
	})
	tm.waitFor(t, "the pane saying Inactive", func(sc string) bool {
		return paneShowsStatus(sc, "- Inactive") && !strings.Contains(sc, "→ after: Inactive")
	})

	// 3. A payment link: the Payments tab, n, the form field by field
	// (enter goes to the next one, and from the last of a page to the next
	// page), y.
	tm.settle()
	tm.send(t, "1")
	tm.waitFor(t, "the Payments tab", func(sc string) bool {
		return strings.Contains(sc, "[1 Payments]") && strings.Contains(sc, "merchant "+s.merchant)
	})
	tm.settle()
	tm.send(t, "n")
	tm.waitFor(t, "the payment link form", func(sc string) bool { return strings.Contains(sc, "┃ Amount") })
	tm.fillField(t, "Amount", "1234.56", "")
	tm.fillField(t, "Currency", "", "← RUB →")
	tm.fillField(t, "Description", description, "")
	tm.fillField(t, "Order number (optional)", orderNo, "")
	tm.waitFor(t, "the customer page", func(sc string) bool { return strings.Contains(sc, "┃ Customer e-mail") })
	tm.fillField(t, "Customer e-mail (optional)", "", "")
	tm.fillField(t, "Customer phone (optional)", "", "")
	tm.waitFor(t, "the link page", func(sc string) bool { return strings.Contains(sc, "┃ Expires") })
	tm.fillField(t, "Expires (optional", "", "")
	tm.fillField(t, "Hold the money, capture later?", "", "")
	tm.fillField(t, "Return page (optional)", "", "")
	tm.fillField(t, "Callback address (optional", "", "")
	tm.waitFor(t, "the create confirmation", func(sc string) bool {
		u := unwrappedScreen(sc)
		return strings.Contains(u, "Create this payment link?") && strings.Contains(u, "Amount: 1,234.56 RUB") &&
			strings.Contains(u, "Order number: "+orderNo) && strings.Contains(u, "Hold (dual mode): no") &&
			strings.Contains(u, "Create 1,234.56 RUB")
	})
	pauseForGuard()
	tm.send(t, "y")
	sc := tm.waitFor(t, "the link made", func(sc string) bool { return strings.Contains(sc, "Payment link made") })
	var made []v2.PaymentListItem
	waitForService(t, tm, "a new payment", func() (bool, string) {
		made = paymentsAdded(before, s.recentPayments())
		return len(made) >= 1, fmt.Sprintf("%d new payments", len(made))
	})
	assert.Contains(t, unwrappedScreen(sc), "Payment "+made[0].ID+" for 1,234.56 RUB · order "+orderNo,
		"the result names the payment made")

	// Close the result, quit.
	tm.settle()
	tm.send(t, "\x1b")
	tm.waitFor(t, "the result closed", func(sc string) bool { return !strings.Contains(sc, "Payment link made") })
	tm.settle()
	tm.send(t, "q")
	code := tm.wait(t, 15*time.Second)
	assert.Equal(t, 0, code, "paydash exits 0 on q; the last output:\n%s", tm.tailIf(code != 0))

	// The service, asked after the dashboard is gone.
	tok, _, err := s.api.PaymentTokens.Get(ctx, tokenID)
	require.NoError(t, err)
	assert.Equal(t, v2.TokenStatusRevoked, tok.Status, "token %s", tokenID)
	st, _, err := s.api.Stickers.Get(ctx, sticker.ID)
	require.NoError(t, err)
	assert.Equal(t, v2.StickerStatusInactive, st.Status, "sticker %s", sticker.ID)
	made = paymentsAdded(before, s.recentPayments())
	require.Len(t, made, 1, "exactly one new payment, the link's: nothing was sent twice")
	p := s.payment(made[0].ID)
	assert.Equal(t, link.Value, p.Amount.Value, "the amount typed: %s", p.Amount)
	assert.Equal(t, link.Currency, p.Amount.Currency)
	assert.Equal(t, orderNo, p.Invoice.OrderNo)
	assert.Equal(t, description, p.Invoice.Description)
	assert.Equal(t, s.merchant, p.MerchantID)
	assert.Equal(t, v2.PaymentStatusPending, p.Status, "a link not yet paid")

	// The journal: each action sent once, then done, with what it did.
	entries := s.entries()
	_, done := journaledOnce(t, entries, "revoke_token", func(e journal.Entry) bool { return e.ObjectID == tokenID })
	assert.Equal(t, "Revoked", done.Result)
	_, done = journaledOnce(t, entries, "toggle_sticker", func(e journal.Entry) bool { return e.ObjectID == sticker.ID })
	assert.Equal(t, "Inactive", done.Result)
	sent, done := journaledOnce(t, entries, "create_invoice_link", func(journal.Entry) bool { return true })
	assert.Equal(t, "1234.56", sent.Amount)
	assert.Equal(t, "RUB", sent.Currency)
	assert.NotEmpty(t, sent.IdempotencyKey, "a create is keyed")
	assert.Contains(t, string(sent.Params), orderNo, "the sent line holds the request")
	assert.True(t, strings.HasPrefix(done.Result, "payment "+p.ID+" "), "the done line names the payment made: %q", done.Result)

	t.Logf("tokens, stickers and a payment link end to end in %s", time.Since(start).Round(time.Millisecond))
}

// paneShowsStatus reports whether a detail pane on screen says status.
func paneShowsStatus(screen, status string) bool {
	return regexp.MustCompile(`Status +` + regexp.QuoteMeta(status) + `\b`).MatchString(screen)
}

// fillField fills in the form's field titled title once it has the focus
// (huh marks it with a thick bar), waits until it shows what it must (the
// text typed, or shows), and leaves it with enter, which goes to the next
// field, or page, or submits the form from its last field.
func (tm *terminal) fillField(t *testing.T, title, typed, shows string) {
	t.Helper()
	tm.waitFor(t, "the focus on "+title, func(sc string) bool { return strings.Contains(sc, "┃ "+title) })
	if typed != "" {
		tm.send(t, typed)
		shows = "> " + typed
	}
	if shows != "" {
		tm.waitFor(t, title+" showing "+shows, func(sc string) bool { return strings.Contains(sc, "┃ "+shows) })
	}
	tm.send(t, "\r")
}

// journaledOnce checks that the journal holds one sent line of action
// (among those match picks) and a done line of the same action after it,
// and returns both.
func journaledOnce(t *testing.T, entries []journal.Entry, action string, match func(journal.Entry) bool) (sent, done journal.Entry) {
	t.Helper()
	si, di := -1, -1
	for i, e := range entries {
		if e.Action != action || !match(e) {
			continue
		}
		switch {
		case e.Phase == journal.PhaseSent:
			assert.Equal(t, -1, si, "one sent %s line in %+v", action, entries)
			si = i
		case e.Phase == journal.PhaseDone && si >= 0 && e.ActionID == entries[si].ActionID:
			di = i
		}
	}
	require.GreaterOrEqual(t, si, 0, "a sent %s line in %+v", action, entries)
	require.Greater(t, di, si, "a done %s line after the sent one in %+v", action, entries)
	return entries[si], entries[di]
}

// activeTokenOfAPayment is an Active token that a payment used, found in
// the seed or made (activeTokenOfAPaymentAt).
func (s *e2eSession) activeTokenOfAPayment() (tokenID, paymentID string) {
	s.t.Helper()
	return activeTokenOfAPaymentAt(s.t, s.api, s.merchant, s.info.MerchantIDs, time.Now())
}

// activeTokenOfAPaymentAt finds an Active token that a payment of the
// seed used, the merchant's first (the seed spans the 90 days before now,
// the service's clock), or, when the seed has none, makes one for the
// merchant and pays with it. A small seed has a dozen tokens and a few
// payments by them at most, and which payments there are follows the clock
// the seed was made at: at some clocks no payment used a token
// (TestEndToEndTokensWhenTheSeedPaidByNone).
func activeTokenOfAPaymentAt(t *testing.T, api *v2.Client, merchant string, others []string, now time.Time) (tokenID, paymentID string) {
	t.Helper()
	if tokenID, paymentID, ok := seededActiveTokenOfAPayment(t, api, merchant, others, now); ok {
		return tokenID, paymentID
	}
	return makeTokenPayment(t, api, merchant)
}

// seededActiveTokenOfAPayment looks through the card payments of the last
// 91 days before now for one by a token still Active: a payment in a list
// names no token, so each is read until one does.
func seededActiveTokenOfAPayment(t *testing.T, api *v2.Client, merchant string, others []string, now time.Time) (tokenID, paymentID string, ok bool) {
	t.Helper()
	ctx := context.Background()
	for i, m := range append([]string{merchant}, others...) {
		if i > 0 && m == merchant {
			continue
		}
		for p, err := range api.Payments.All(ctx, v2.ListParams{MerchantID: m, Start: now.AddDate(0, 0, -91), End: now.Add(time.Hour)}) {
			require.NoError(t, err)
			if !strings.EqualFold(p.PaymentData.PaymentMethod, v2.PaymentMethodBankCard) {
				continue
			}
			full := retry(t, "read payment "+p.ID, func() (*v2.Payment, error) {
				full, _, err := api.Payments.Get(ctx, p.ID)
				return full, err
			})
			if full.PaymentToken == nil {
				continue
			}
			tok, _, err := api.PaymentTokens.Get(ctx, full.PaymentToken.ID)
			require.NoError(t, err)
			if tok.Status == v2.TokenStatusActive {
				return tok.ID, p.ID, true
			}
		}
	}
	return "", "", false
}

// makeTokenPayment saves a test card as a token of the merchant (created,
// then confirmed: Active) and pays with it, as a customer's repeat payment.
func makeTokenPayment(t *testing.T, api *v2.Client, merchant string) (tokenID, paymentID string) {
	t.Helper()
	ctx := context.Background()
	tok, _, err := api.PaymentTokens.Create(ctx, &v2.PaymentTokenRequest{
		MerchantID: merchant, Type: v2.TokenTypeCOF, Purpose: "End-to-end saved card",
		PaymentData: &v2.PaymentData{PaymentMethod: v2.PaymentMethodBankCard, Card: &v2.Card{PAN: "4111111111111111", Expiry: "12/30", CVC: "123"}},
		Customer:    &v2.Customer{Email: "e2e@example.com"},
	}, nil)
	require.NoError(t, err)
	tok, _, err = api.PaymentTokens.Complete(ctx, tok.ID, &v2.CompleteRequest{})
	require.NoError(t, err)
	require.Equal(t, v2.TokenStatusActive, tok.Status, "token %s once confirmed", tok.ID)
	amount := money.Amount{Value: money.MustParse("990.00"), Currency: "RUB"}
	p, _, err := api.Payments.Create(ctx, &v2.PaymentRequest{
		MerchantID: merchant, Amount: &amount,
		Invoice:     &v2.Invoice{Description: "End-to-end payment by a saved card", OrderNo: "E2E-TOKEN"},
		PaymentData: &v2.PaymentData{PaymentMethod: v2.PaymentMethodBankCard, Token: &v2.TokenRef{ID: tok.ID}},
	}, nil)
	require.NoError(t, err)
	t.Logf("no payment in the seed used an Active token: made token %s and payment %s by it", tok.ID, p.ID)
	return tok.ID, p.ID
}

// activeSticker is the session's merchant's last Active sticker in the
// service's order, so that finding it on screen takes the filter, not
// just the first row.
func (s *e2eSession) activeSticker() v2.Sticker {
	t := s.t
	t.Helper()
	var found *v2.Sticker
	for st, err := range s.api.Stickers.All(context.Background(), v2.StickerListParams{MerchantID: s.merchant}) {
		require.NoError(t, err)
		if st.Status == v2.StickerStatusActive {
			found = &st
		}
	}
	require.NotNil(t, found, "merchant %s has an Active sticker", s.merchant)
	return *found
}

// recentPayments lists the session's merchant's payments of the last day.
func (s *e2eSession) recentPayments() []v2.PaymentListItem {
	t := s.t
	t.Helper()
	now := time.Now()
	var out []v2.PaymentListItem
	for p, err := range s.api.Payments.All(context.Background(), v2.ListParams{MerchantID: s.merchant,
		Start: now.AddDate(0, 0, -1), End: now.Add(time.Hour)}) {
		require.NoError(t, err)
		out = append(out, p)
	}
	return out
}

// paymentsAdded are the payments of after that before does not hold.
func paymentsAdded(before, after []v2.PaymentListItem) []v2.PaymentListItem {
	seen := map[string]bool{}
	for _, p := range before {
		seen[p.ID] = true
	}
	var added []v2.PaymentListItem
	for _, p := range after {
		if !seen[p.ID] {
			added = append(added, p)
		}
	}
	return added
}

// seedClockWithoutTokenPayments is a clock at which the end-to-end tests'
// seed (5, 2000 payments) has no payment by a token at all: the sandbox
// run at it failed TestEndToEndTokensStickersAndPaymentLink when it
// counted on the seed for one.
var seedClockWithoutTokenPayments = time.Date(2026, 3, 11, 3, 45, 0, 0, time.UTC)

// TestEndToEndTokensWhenTheSeedPaidByNone: on the seed of that clock (a
// sandbox in the test's process, its clock stopped there), no payment used
// a token, and activeTokenOfAPaymentAt makes an Active token and a payment
// by it rather than failing.
func TestEndToEndTokensWhenTheSeedPaidByNone(t *testing.T) {
	skipUnlessE2E(t)
	now := seedClockWithoutTokenPayments
	srv, err := sandbox.Start(context.Background(), sandbox.Options{Seed: 5, Payments: 2000,
		SettleDelay: 200 * time.Millisecond, Now: func() time.Time { return now }})
	require.NoError(t, err)
	t.Cleanup(func() { _ = srv.Close() })
	dir := t.TempDir()
	require.NoError(t, srv.WriteInfoFile(filepath.Join(dir, "sandbox.json")))
	s := sessionOn(t, "", dir, srv.Info(), false)

	_, _, seeded := seededActiveTokenOfAPayment(t, s.api, s.merchant, s.info.MerchantIDs, now)
	require.False(t, seeded, "the seed at %s has a payment by an Active token: pick another clock", now)

	tokenID, paymentID := activeTokenOfAPaymentAt(t, s.api, s.merchant, s.info.MerchantIDs, now)
	tok, _, err := s.api.PaymentTokens.Get(context.Background(), tokenID)
	require.NoError(t, err)
	assert.Equal(t, v2.TokenStatusActive, tok.Status)
	p := s.payment(paymentID)
	require.NotNil(t, p.PaymentToken, "payment %s names its token", paymentID)
	assert.Equal(t, tokenID, p.PaymentToken.ID)
	assert.Equal(t, s.merchant, p.MerchantID)
	again, _, ok := seededActiveTokenOfAPayment(t, s.api, s.merchant, s.info.MerchantIDs, now)
	assert.True(t, ok, "the payment made is found as the seed's would be")
	assert.Equal(t, tokenID, again)
}
