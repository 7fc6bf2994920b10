package action_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend"
	"paydash/backend/action"
	"paydash/backend/journal"
	"paydash/backend/money"
	"paydash/backend/sandbox"
)

// The revoke, the toggle and the three creates against the embedded
// sandbox, the store telling the truth: which tokens are revoked, which
// stickers are on, how many payments, stickers and tokens a create made.

// v2Setups are the setups whose actions go through v2, the only interface
// that has tokens, stickers and links.
var v2Setups = []setup{setups[0], setups[2]}

func (f *fixture) merchant() string { return f.srv.Info().MerchantIDs[0] }

// activeToken makes an Active card token in the store directly.
func (f *fixture) activeToken() string {
	f.t.Helper()
	tok, err := f.srv.Store().CreatePaymentToken(sandbox.PaymentTokenRequest{
		MerchantID: f.merchant(), Type: "recurring", Purpose: "action test", PaymentMethod: "bankcard",
		Card: &sandbox.CardData{PAN: "4111111111111111", Expiry: "12/30", CVC: "123"},
	})
	require.NoError(f.t, err)
	tok, err = f.srv.Store().CompletePaymentToken(tok.ID, sandbox.CompleteRequest{})
	require.NoError(f.t, err)
	require.Equal(f.t, sandbox.TokenActive, tok.Status)
	return tok.ID
}

func (f *fixture) tokenStatus(id string) sandbox.TokenStatus {
	f.t.Helper()
	tok, err := f.srv.Store().GetPaymentToken(id)
	require.NoError(f.t, err)
	return tok.Status
}

// sticker makes a sticker in the store directly, on or off.
func (f *fixture) sticker(active bool) string {
	f.t.Helper()
	a := rub("150")
	st, err := f.srv.Store().CreateSticker(sandbox.StickerRequest{MerchantID: f.merchant(), Description: "action test", Amount: &a})
	require.NoError(f.t, err)
	if !active {
		st, err = f.srv.Store().SetStickerActive(st.ID, false)
		require.NoError(f.t, err)
	}
	return st.ID
}

func (f *fixture) stickerStatus(id string) sandbox.StickerStatus {
	f.t.Helper()
	st, err := f.srv.Store().GetSticker(id)
	require.NoError(f.t, err)
	return st.Status
}

// paymentsWithOrder are the merchant's payments with that order number.
func (f *fixture) paymentsWithOrder(orderNo string) []sandbox.Payment {
	f.t.Helper()
	ps, _ := f.srv.Store().FilterPayments(sandbox.PaymentFilter{MerchantIDs: []string{f.merchant()}, OrderNo: orderNo})
	return ps
}

// stickersWithCode are the merchant's stickers with that product code.
func (f *fixture) stickersWithCode(code string) []sandbox.Sticker {
	f.t.Helper()
	var out []sandbox.Sticker
	q := sandbox.ListQuery{MerchantID: f.merchant()}
	for {
		page, err := f.srv.Store().ListStickers(q)
		require.NoError(f.t, err)
		for _, st := range page.Items {
			if st.ProductCode == code {
				out = append(out, st)
			}
		}
		if page.Cursor == "" {
			return out
		}
		q.Cursor = page.Cursor
	}
}

// tokensOfAccount are the merchant's tokens of that customer account.
func (f *fixture) tokensOfAccount(account string) []sandbox.PaymentToken {
	f.t.Helper()
	var out []sandbox.PaymentToken
	for _, tok := range f.srv.Store().TokensOf(f.merchant()) {
		if tok.Customer != nil && tok.Customer.Account == account {
			out = append(out, tok)
		}
	}
	return out
}

// lines are the phases of the journal lines of one action, checking that
// each line carries the whole request, its params too.
func (f *fixture) lines(req action.Request) []string {
	f.t.Helper()
	var (
		out    []string
		params json.RawMessage
	)
	for _, e := range f.journal() {
		if e.ActionID != req.ID {
			continue
		}
		out = append(out, e.Phase)
		assert.Equal(f.t, string(req.Kind), e.Action)
		assert.Equal(f.t, req.ObjectID, e.ObjectID)
		assert.Equal(f.t, string(req.Interface), e.Interface)
		assert.Equal(f.t, req.IdempotencyKey, e.IdempotencyKey)
		if params == nil {
			params = e.Params
		}
		assert.Equal(f.t, string(params), string(e.Params), "every line holds the same params")
	}
	return out
}

// unique is a value no other test uses.
func unique(prefix string) string { return prefix + "-" + backend.NewIdempotencyKey()[:13] }

func TestRevokeAToken(t *testing.T) {
	srv := startSandbox(t)
	for _, s := range v2Setups {
		t.Run(s.name, func(t *testing.T) {
			f := newFixture(t, srv, s)
			ctx := context.Background()
			id := f.activeToken()

			req, o := f.run.Send(ctx, action.NewRevoke(id, f.via))
			require.Equal(t, action.Done, o.State, "%s", o.Text(req))
			assert.Equal(t, action.HowAnswered, o.How)
			assert.Equal(t, "Revoked token "+id+" (Visa *1111) — now Revoked", o.Text(req))
			assert.Equal(t, sandbox.TokenRevoked, f.tokenStatus(id))
			assert.Equal(t, []string{journal.PhaseSent, journal.PhaseDone}, f.lines(req))
			assert.Equal(t, "Revoked", f.last().Result)
			assert.Empty(t, action.Pending(f.journal()))

			// Revoked already: the service refuses, and says why.
			again, o := f.run.Send(ctx, action.NewRevoke(id, f.via))
			require.Equal(t, action.NotDone, o.State)
			assert.Equal(t, action.HowAnswered, o.How)
			assert.Equal(t, backend.KindRefused, backend.KindOf(o.Err))
			assert.Equal(t, "Revoke of token "+id+" was refused: payment token "+id+" is Revoked; "+
				"only an Active token can be revoked (code invalid_operation)", o.Text(again))
			assert.Equal(t, []string{journal.PhaseSent, journal.PhaseFailed}, f.lines(again))

			// No such token.
			none, o := f.run.Send(ctx, action.NewRevoke("999999999999", f.via))
			require.Equal(t, action.NotDone, o.State)
			assert.Equal(t, backend.KindNotFound, backend.KindOf(o.Err))
			assert.Contains(t, o.Text(none), "Revoke of token 999999999999 was refused: ")
			assert.Equal(t, []string{journal.PhaseSent, journal.PhaseFailed}, f.lines(none))
			assert.Empty(t, action.Pending(f.journal()))
		})
	}

	t.Run("v1 alone", func(t *testing.T) {
		f := newFixture(t, srv, setups[1])
		id := f.activeToken()
		for _, via := range []backend.Interface{backend.V1, backend.V2} {
			req, o := f.run.Send(context.Background(), action.NewRevoke(id, via))
			require.Equal(t, action.NotDone, o.State)
			assert.Contains(t, o.Text(req), "was not sent: tokens, stickers and links exist only in the current interface (v2)")
		}
		assert.Equal(t, sandbox.TokenActive, f.tokenStatus(id))
		assert.Empty(t, f.journal())
	})
}

func TestSwitchASticker(t *testing.T) {
	srv := startSandbox(t)
	for _, s := range v2Setups {
		t.Run(s.name, func(t *testing.T) {
			f := newFixture(t, srv, s)
			ctx := context.Background()
			id := f.sticker(true)

			off, o := f.run.Send(ctx, action.NewToggle(id, false, f.via))
			require.Equal(t, action.Done, o.State, "%s", o.Text(off))
			assert.Equal(t, "Sticker "+id+" switched off — now Inactive", o.Text(off))
			assert.Equal(t, sandbox.StickerInactive, f.stickerStatus(id))
			assert.Equal(t, []string{journal.PhaseSent, journal.PhaseDone}, f.lines(off))
			assert.Equal(t, "Inactive", f.last().Result)
			assert.JSONEq(t, `{"active":false}`, string(f.last().Params), "the state it sets is journaled")

			on, o := f.run.Send(ctx, action.NewToggle(id, true, f.via))
			require.Equal(t, action.Done, o.State, "%s", o.Text(on))
			assert.Equal(t, "Sticker "+id+" switched on — now Active", o.Text(on))
			assert.Equal(t, sandbox.StickerActive, f.stickerStatus(id))
			assert.JSONEq(t, `{"active":true}`, string(f.last().Params))

			// No such sticker: refused.
			none, o := f.run.Send(ctx, action.NewToggle("999999999999", false, f.via))
			require.Equal(t, action.NotDone, o.State)
			assert.Equal(t, backend.KindNotFound, backend.KindOf(o.Err))
			assert.Contains(t, o.Text(none), "Switch-off of sticker 999999999999 was refused: ")
			assert.Empty(t, action.Pending(f.journal()))
		})
	}
}

// A revoke and a toggle whose connection is dropped: about half of the
// drops happen after the service did it, the others before. Whichever it
// was, Send says unknown and Check, reading the object, says what the store
// holds.
func TestADroppedRevokeOrToggleIsFoundOut(t *testing.T) {
	srv := startSandbox(t)
	ctx := context.Background()
	f := newFixture(t, srv, setups[0])
	seen := map[string]map[bool]bool{"revoke": {}, "toggle": {}}
	for i := 0; i < 40 && !(len(seen["revoke"]) == 2 && len(seen["toggle"]) == 2); i++ {
		kind := []string{"revoke", "toggle"}[i%2]
		var req action.Request
		if kind == "revoke" {
			req = action.NewRevoke(f.activeToken(), backend.V2)
		} else {
			req = action.NewToggle(f.sticker(true), false, backend.V2)
		}
		require.NoError(t, srv.SetFaults(sandbox.Faults{DropRate: 1}))
		req, o := f.run.Send(ctx, req)
		require.NoError(t, srv.SetFaults(sandbox.Faults{}))
		require.Equal(t, action.Unknown, o.State, "%s", o.Text(req))
		assert.True(t, o.Retry)
		assert.Contains(t, o.Text(req), "outcome unknown — checking (")
		assert.Equal(t, []string{journal.PhaseSent, journal.PhaseUnknown}, f.lines(req))
		assert.Equal(t, []action.Request{withoutMono(req)}, pendingOf(f), "an unknown outcome is pending, rebuilt whole")

		var landed bool
		if kind == "revoke" {
			landed = f.tokenStatus(req.ObjectID) == sandbox.TokenRevoked
		} else {
			landed = f.stickerStatus(req.ObjectID) == sandbox.StickerInactive
		}
		seen[kind][landed] = true

		o = f.run.Check(ctx, pendingOf(f)[0])
		if landed {
			require.Equal(t, action.Done, o.State, "%s: %s", kind, o.Text(req))
			assert.Equal(t, []string{journal.PhaseSent, journal.PhaseUnknown, journal.PhaseDone}, f.lines(req))
		} else {
			require.Equal(t, action.NotDone, o.State, "%s: %s", kind, o.Text(req))
			assert.Equal(t, []string{journal.PhaseSent, journal.PhaseUnknown, journal.PhaseFailed}, f.lines(req))
		}
		if kind == "revoke" {
			assert.Equal(t, action.HowReadToken, o.How)
			if landed {
				assert.Equal(t, "Revoked token "+req.ObjectID+" (Visa *1111) — now Revoked", o.Text(req))
			} else {
				assert.Equal(t, "Revoke of token "+req.ObjectID+" was not made: the token is still Active", o.Text(req))
			}
		} else {
			assert.Equal(t, action.HowReadSticker, o.How)
			if landed {
				assert.Equal(t, "Sticker "+req.ObjectID+" switched off — now Inactive", o.Text(req))
			} else {
				assert.Equal(t, "Switch-off of sticker "+req.ObjectID+" was not made: the sticker is still Active", o.Text(req))
			}
		}
		assert.Equal(t, o.How, f.last().How)
		assert.Empty(t, action.Pending(f.journal()))
	}
	assert.Len(t, seen["revoke"], 2, "both a revoke dropped before and one dropped after it was done")
	assert.Len(t, seen["toggle"], 2, "both a toggle dropped before and one dropped after it was done")
}

// A garbled answer: the service did it, Send cannot tell, Check reads it.
func TestAGarbledRevokeOrToggleIsFoundOut(t *testing.T) {
	srv := startSandbox(t)
	ctx := context.Background()
	f := newFixture(t, srv, setups[0])
	for _, req := range []action.Request{action.NewRevoke(f.activeToken(), backend.V2), action.NewToggle(f.sticker(false), true, backend.V2)} {
		require.NoError(t, srv.SetFaults(sandbox.Faults{MalformedRate: 1}))
		req, o := f.run.Send(ctx, req)
		require.NoError(t, srv.SetFaults(sandbox.Faults{}))
		require.Equal(t, action.Unknown, o.State, "%s", o.Text(req))
		assert.True(t, o.Retry)
		o = f.run.Check(ctx, req)
		require.Equal(t, action.Done, o.State, "%s", o.Text(req))
		assert.Equal(t, []string{journal.PhaseSent, journal.PhaseUnknown, journal.PhaseDone}, f.lines(req))
	}
	assert.Empty(t, action.Pending(f.journal()))
}

// create is one of the three creates against the sandbox: how to make its
// request with a tag no other test uses, and how many objects with that
// tag the store holds, and what the outcome names.
type create struct {
	kind  string
	new   func(f *fixture, tag string) action.Request
	count func(f *fixture, tag string) int
	made  func(o action.Outcome) string // the id the outcome names
	ids   func(f *fixture, tag string) []string
}

var creates = []create{
	{
		kind: "payment link",
		new: func(f *fixture, tag string) action.Request {
			return action.NewCreateInvoice(backend.InvoiceLinkRequest{MerchantID: f.merchant(), Amount: rub("1500"),
				Description: "action test", OrderNo: tag, Expires: time.Now().Add(2 * time.Hour),
				CustomerEmail: "payer@example.com", ReturnURL: "https://shop.example/back"})
		},
		count: func(f *fixture, tag string) int { return len(f.paymentsWithOrder(tag)) },
		made:  func(o action.Outcome) string { return o.Invoice.PaymentID },
		ids: func(f *fixture, tag string) (out []string) {
			for _, p := range f.paymentsWithOrder(tag) {
				out = append(out, p.ID)
			}
			return out
		},
	},
	{
		kind: "sticker",
		new: func(f *fixture, tag string) action.Request {
			return action.NewCreateSticker(backend.StickerRequest{MerchantID: f.merchant(), Description: "Coffee 0.3",
				ProductCode: tag, PaymentPurpose: "coffee", Amount: rub("150")})
		},
		count: func(f *fixture, tag string) int { return len(f.stickersWithCode(tag)) },
		made:  func(o action.Outcome) string { return o.Sticker.ID },
		ids: func(f *fixture, tag string) (out []string) {
			for _, s := range f.stickersWithCode(tag) {
				out = append(out, s.ID)
			}
			return out
		},
	},
	{
		kind: "card-saving link",
		new: func(f *fixture, tag string) action.Request {
			return action.NewCreateTokenization(backend.TokenizationLinkRequest{MerchantID: f.merchant(), Purpose: "subscription",
				CustomerAccount: tag, CustomerEmail: "payer@example.com"})
		},
		count: func(f *fixture, tag string) int { return len(f.tokensOfAccount(tag)) },
		made:  func(o action.Outcome) string { return o.Tokenization.TokenID },
		ids: func(f *fixture, tag string) (out []string) {
			for _, tok := range f.tokensOfAccount(tag) {
				out = append(out, tok.ID)
			}
			return out
		},
	},
}

func TestCreate(t *testing.T) {
	srv := startSandbox(t)
	for _, s := range v2Setups {
		for _, c := range creates {
			t.Run(s.name+"/"+c.kind, func(t *testing.T) {
				f := newFixture(t, srv, s)
				tag := unique("C")
				req, o := f.run.Send(context.Background(), c.new(f, tag))
				require.Equal(t, action.Done, o.State, "%s", o.Text(req))
				assert.Equal(t, action.HowAnswered, o.How)
				require.Equal(t, []string{c.made(o)}, c.ids(f, tag), "one made, the one the outcome names")
				assert.Equal(t, []string{journal.PhaseSent, journal.PhaseDone}, f.lines(req))
				assert.NotEmpty(t, f.last().Params, "what was sent is journaled")
				assert.Contains(t, f.last().Result, c.made(o))
				assert.Empty(t, action.Pending(f.journal()))

				switch req.Kind {
				case backend.ActionCreateInvoice:
					assert.Regexp(t, `^Payment link for 1,500\.00 RUB \(order `+tag+`\) made: payment \d+, https://\S+$`, o.Text(req))
				case backend.ActionCreateSticker:
					assert.Regexp(t, `^Sticker "Coffee 0\.3" for 150\.00 RUB made: sticker \d+, \S+ — Active$`, o.Text(req))
				case backend.ActionCreateTokenization:
					assert.Regexp(t, `^Card-saving link for customer account `+tag+` made: token \d+, https://\S+$`, o.Text(req))
				}
			})
		}
	}
}

// Each create's answer lost in each way the sandbox can lose it: dropped
// (before or after it was made), a server error (never made), garbled
// (made). Send says unknown; paydash stops; at the next start the journal
// gives the request back whole and Check sends it again under its key: the
// object made the first time, or made now, and exactly one either way.
func TestALostCreateIsFoundOutAndMadeOnce(t *testing.T) {
	srv := startSandbox(t)
	faults := map[string]sandbox.Faults{
		"drop":      {DropRate: 1},
		"error":     {ErrorRate: 1},
		"malformed": {MalformedRate: 1},
	}
	for _, c := range creates {
		for name, fault := range faults {
			t.Run(c.kind+"/"+name, func(t *testing.T) {
				f := newFixture(t, srv, setups[0])
				ctx := context.Background()
				tag := unique("L")
				require.NoError(t, srv.SetFaults(fault))
				req, o := f.run.Send(ctx, c.new(f, tag))
				require.NoError(t, srv.SetFaults(sandbox.Faults{}))
				require.Equal(t, action.Unknown, o.State, "%s", o.Text(req))
				assert.True(t, o.Retry)
				assert.Contains(t, o.Text(req), ": outcome unknown — checking (")
				before := c.count(f, tag)
				assert.LessOrEqual(t, before, 1, "the client's own retries go under the same key")
				switch name {
				case "error":
					assert.Zero(t, before, "a server error is answered without serving")
				case "malformed":
					assert.Equal(t, 1, before, "a garbled answer is served first")
				}
				assert.Equal(t, []string{journal.PhaseSent, journal.PhaseUnknown}, f.lines(req))

				// A restart: only the journal is left.
				pending := pendingOf(f)
				require.Equal(t, []action.Request{withoutMono(req)}, pending)
				o = f.run.Check(ctx, pending[0])
				require.Equal(t, action.Done, o.State, "%s", o.Text(req))
				assert.Equal(t, action.HowAskedAgain, o.How)
				require.Equal(t, []string{c.made(o)}, c.ids(f, tag), "exactly one, the one the outcome names")
				assert.Equal(t, []string{journal.PhaseSent, journal.PhaseUnknown, journal.PhaseDone}, f.lines(req))
				assert.Equal(t, action.HowAskedAgain, f.last().How)
				assert.Empty(t, action.Pending(f.journal()))

				// Checking again (a second paydash reading an old journal)
				// still makes no second one.
				o = f.run.Check(ctx, pending[0])
				require.Equal(t, action.Done, o.State)
				assert.Equal(t, 1, c.count(f, tag))
			})
		}
	}
}

func TestACreateTheServiceRefuses(t *testing.T) {
	srv := startSandbox(t)
	ctx := context.Background()
	f := newFixture(t, srv, setups[0])
	for _, req := range []action.Request{
		action.NewCreateInvoice(backend.InvoiceLinkRequest{MerchantID: f.merchant(), Amount: money.Amount{Value: money.MustParse("10"), Currency: "EUR"}}),
		action.NewCreateSticker(backend.StickerRequest{MerchantID: "999999", Amount: rub("150")}),
		action.NewCreateTokenization(backend.TokenizationLinkRequest{MerchantID: f.merchant(), ReturnURL: "not a link"}),
	} {
		req, o := f.run.Send(ctx, req)
		require.Equal(t, action.NotDone, o.State, "%s", o.Text(req))
		assert.Equal(t, action.HowAnswered, o.How)
		assert.Equal(t, backend.KindInvalid, backend.KindOf(o.Err))
		assert.Contains(t, o.Text(req), " was refused: ")
		assert.Contains(t, o.Text(req), "(code validation_error)")
		assert.Equal(t, []string{journal.PhaseSent, journal.PhaseFailed}, f.lines(req))

		// Sent again under its key, the refusal is the service's word:
		// nothing was made with it.
		o = f.run.Check(ctx, req)
		require.Equal(t, action.NotDone, o.State)
		assert.Equal(t, action.HowAskedAgain, o.How)
		assert.Contains(t, o.Text(req), " was not made: ")
	}
	assert.Empty(t, action.Pending(f.journal()))
}
