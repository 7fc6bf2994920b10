package action_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend"
	"paydash/backend/action"
	"paydash/backend/journal"
	"paydash/backend/money"
)

// fake is a v2 backend that answers the token, sticker and create actions
// with err (nil: done) and keeps every request it was sent.
type fake struct {
	backend.Backend // nil: anything else panics
	via             []backend.Interface

	mu           sync.Mutex
	err          error
	revokes      []string
	toggles      []bool
	invoices     []backend.InvoiceLinkRequest
	stickers     []backend.StickerRequest
	tokenization []backend.TokenizationLinkRequest
}

func newFake() *fake { return &fake{via: []backend.Interface{backend.V2}} }

func (f *fake) sent() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.revokes) + len(f.toggles) + len(f.invoices) + len(f.stickers) + len(f.tokenization)
}

func (f *fake) Describe() backend.Description { return backend.Description{Interfaces: f.via} }

func (f *fake) RevokeToken(_ context.Context, id string) (backend.Token, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.revokes = append(f.revokes, id)
	return backend.Token{ID: id, Status: backend.TokenRevoked, Title: "Visa *1111"}, f.err
}

func (f *fake) SetStickerActive(_ context.Context, id string, active bool) (backend.Sticker, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.toggles = append(f.toggles, active)
	st := "Inactive"
	if active {
		st = "Active"
	}
	return backend.Sticker{ID: id, Status: st}, f.err
}

func (f *fake) CreateInvoiceLink(_ context.Context, r backend.InvoiceLinkRequest) (backend.InvoiceLink, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.invoices = append(f.invoices, r)
	return backend.InvoiceLink{PaymentID: "43149999", URL: "https://pay.example/pay/43149999"}, f.err
}

func (f *fake) CreateSticker(_ context.Context, r backend.StickerRequest) (backend.Sticker, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.stickers = append(f.stickers, r)
	return backend.Sticker{ID: "7000124", Status: "Active", Payload: "https://qr.nspk.ru/AS1"}, f.err
}

func (f *fake) CreateTokenizationLink(_ context.Context, r backend.TokenizationLinkRequest) (backend.TokenizationLink, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.tokenization = append(f.tokenization, r)
	return backend.TokenizationLink{TokenID: "9000031", URL: "https://pay.example/tokenize/9000031"}, f.err
}

func fakeRunner(t *testing.T, b backend.Backend) (*action.Runner, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	j, err := journal.Open(path)
	require.NoError(t, err)
	t.Cleanup(func() { _ = j.Close() })
	return &action.Runner{Backend: b, Journal: j}, path
}

func readJournal(t *testing.T, path string) []journal.Entry {
	t.Helper()
	es, err := journal.Read(path)
	require.NoError(t, err)
	return es
}

var lost = &backend.Error{Kind: backend.KindUnavailable, Op: "x", Interface: backend.V2, Message: "no answer from the service in time"}

// filled sets every field of the struct *p to a value that is not zero, so
// that a field the journal forgets shows.
func filled(t *testing.T, p any) {
	t.Helper()
	v := reflect.ValueOf(p).Elem()
	for i := range v.NumField() {
		f, name := v.Field(i), v.Type().Field(i).Name
		switch f.Interface().(type) {
		case string:
			f.SetString("x-" + name + " «ü» <&>")
		case bool:
			f.SetBool(true)
		case money.Amount:
			f.Set(reflect.ValueOf(money.Amount{Value: money.MustParse("1500.5"), Currency: "RUB"}))
		case time.Time:
			f.Set(reflect.ValueOf(time.Date(2026, 11, 22, 13, 14, 15, 123456789, time.FixedZone("MSK", 3*3600))))
		default:
			t.Fatalf("filled: %T.%s is of a type the test does not know (%s); teach the journal's params and this test", p, name, f.Type())
		}
	}
	if k := v.FieldByName("IdempotencyKey"); k.IsValid() {
		k.SetString("") // the constructor makes one
	}
}

func TestEveryParameterOfACreateIsJournaledAndSentAgainTheSame(t *testing.T) {
	var inv backend.InvoiceLinkRequest
	filled(t, &inv)
	var st backend.StickerRequest
	filled(t, &st)
	var tok backend.TokenizationLinkRequest
	filled(t, &tok)
	reqs := []action.Request{action.NewCreateInvoice(inv), action.NewCreateSticker(st), action.NewCreateTokenization(tok),
		action.NewToggle("7000123", false, backend.V2), action.NewToggle("7000123", true, backend.V2), action.NewRevoke("5f0c2a", backend.V2)}

	f := newFake()
	f.err = lost
	run, path := fakeRunner(t, f)
	var sent []action.Request
	for _, r := range reqs {
		r, o := run.Send(context.Background(), r)
		require.Equal(t, action.Unknown, o.State, "%s: %v", r.Kind, o.Err)
		sent = append(sent, withoutMono(r))
	}
	first := struct {
		invoices     []backend.InvoiceLinkRequest
		stickers     []backend.StickerRequest
		tokenization []backend.TokenizationLinkRequest
		toggles      []bool
	}{slices.Clone(f.invoices), slices.Clone(f.stickers), slices.Clone(f.tokenization), slices.Clone(f.toggles)}

	// paydash stops here; at the next start the journal is all there is.
	pending := action.Pending(readJournal(t, path))
	for i := range pending {
		pending[i] = withoutMono(pending[i])
	}
	require.Equal(t, sent, pending, "every request is rebuilt whole from the journal")
	assert.Equal(t, inv.Expires.UTC(), action.ParamsOf[backend.InvoiceLinkRequest](pending[0]).Expires, "the expiry is the same instant")

	f.err = nil
	for _, r := range pending {
		o := run.Check(context.Background(), r)
		if r.Kind == backend.ActionRevokeToken || r.Kind == backend.ActionToggleSticker {
			continue // read, not sent again: the fake has no reads
		}
		require.Equal(t, action.Done, o.State, "%s: %v", r.Kind, o.Err)
		assert.Equal(t, action.HowAskedAgain, o.How)
	}
	// What was sent again is what was sent first: the same key, the same body.
	require.Len(t, f.invoices, 2)
	assert.Equal(t, first.invoices[0], f.invoices[1])
	assert.Equal(t, first.stickers[0], f.stickers[1])
	assert.Equal(t, first.tokenization[0], f.tokenization[1])
	assert.NotEmpty(t, f.invoices[1].IdempotencyKey)
	assert.Equal(t, pending[0].IdempotencyKey, f.invoices[1].IdempotencyKey)
	assert.Equal(t, []bool{false, true}, first.toggles, "each toggle sends its own state")
}

func (f *fake) GetToken(_ context.Context, id string) (backend.Token, error) {
	return backend.Token{}, &backend.Error{Kind: backend.KindUnavailable, Op: "read token " + id}
}

func (f *fake) GetSticker(_ context.Context, id string) (backend.Sticker, error) {
	return backend.Sticker{}, &backend.Error{Kind: backend.KindUnavailable, Op: "read sticker " + id}
}

func TestConstructors(t *testing.T) {
	rv := action.NewRevoke("tok-1", backend.V2)
	assert.Equal(t, backend.ActionRevokeToken, rv.Kind)
	assert.Equal(t, "tok-1", rv.ObjectID)
	assert.NotEmpty(t, rv.ID)
	assert.Empty(t, rv.IdempotencyKey)

	tg := action.NewToggle("st-1", true, backend.V2)
	assert.Equal(t, backend.ActionToggleSticker, tg.Kind)
	assert.True(t, action.SwitchesOn(tg))
	assert.False(t, action.SwitchesOn(action.NewToggle("st-1", false, backend.V2)))

	inv := action.NewCreateInvoice(backend.InvoiceLinkRequest{MerchantID: "1001", Amount: rub("1500")})
	assert.NotEmpty(t, inv.IdempotencyKey, "a fresh key when none is given")
	assert.Equal(t, inv.IdempotencyKey, action.ParamsOf[backend.InvoiceLinkRequest](inv).IdempotencyKey)
	assert.NotEqual(t, inv.ID, inv.IdempotencyKey)
	assert.Equal(t, rub("1500"), inv.Amount)
	assert.Equal(t, backend.V2, inv.Interface)
	assert.Empty(t, inv.ObjectID)
	other := action.NewCreateInvoice(backend.InvoiceLinkRequest{MerchantID: "1001", Amount: rub("1500")})
	assert.NotEqual(t, inv.IdempotencyKey, other.IdempotencyKey)
	kept := action.NewCreateInvoice(backend.InvoiceLinkRequest{MerchantID: "1001", Amount: rub("1500"), IdempotencyKey: "mine"})
	assert.Equal(t, "mine", kept.IdempotencyKey, "a given key is kept")

	st := action.NewCreateSticker(backend.StickerRequest{MerchantID: "1001", Amount: rub("150")})
	assert.Equal(t, st.IdempotencyKey, action.ParamsOf[backend.StickerRequest](st).IdempotencyKey)
	assert.Equal(t, rub("150"), st.Amount)
	tk := action.NewCreateTokenization(backend.TokenizationLinkRequest{MerchantID: "1001"})
	assert.Equal(t, tk.IdempotencyKey, action.ParamsOf[backend.TokenizationLinkRequest](tk).IdempotencyKey)
	assert.NotEmpty(t, tk.IdempotencyKey)
	assert.Zero(t, tk.Amount)

	for _, a := range backend.Actions {
		assert.True(t, action.Known(a), a)
	}
	assert.False(t, action.Known("revoke"))
	assert.False(t, action.Known(backend.ReadRefunds))
}

func TestDescribeAndTextOfTokensStickersAndLinks(t *testing.T) {
	revoke := action.NewRevoke("5f0c2a", backend.V2)
	off := action.NewToggle("7000123", false, backend.V2)
	on := action.NewToggle("7000123", true, backend.V2)
	inv := action.NewCreateInvoice(backend.InvoiceLinkRequest{MerchantID: "1001", Amount: rub("1500"), OrderNo: "A-17"})
	st := action.NewCreateSticker(backend.StickerRequest{MerchantID: "1001", Amount: rub("150"), Description: "Coffee 0.3"})
	tok := action.NewCreateTokenization(backend.TokenizationLinkRequest{MerchantID: "1001", CustomerAccount: "42"})

	assert.Equal(t, "revoke of token 5f0c2a", action.Describe(revoke))
	assert.Equal(t, "switch-off of sticker 7000123", action.Describe(off))
	assert.Equal(t, "switch-on of sticker 7000123", action.Describe(on))
	assert.Equal(t, "payment link for 1,500.00 RUB (order A-17)", action.Describe(inv))
	assert.Equal(t, `sticker "Coffee 0.3" for 150.00 RUB`, action.Describe(st))
	assert.Equal(t, "card-saving link for customer account 42", action.Describe(tok))
	assert.Equal(t, "card-saving link for a@example.com",
		action.Describe(action.NewCreateTokenization(backend.TokenizationLinkRequest{MerchantID: "1", CustomerEmail: "a@example.com"})))
	assert.Equal(t, "payment link for 1,500.00 RUB",
		action.Describe(action.NewCreateInvoice(backend.InvoiceLinkRequest{MerchantID: "1", Amount: rub("1500")})))

	done := func(o action.Outcome) action.Outcome { o.State, o.How = action.Done, action.HowAnswered; return o }
	assert.Equal(t, "Revoked token 5f0c2a (Visa *1111) — now Revoked",
		done(action.Outcome{Token: backend.Token{ID: "5f0c2a", Status: backend.TokenRevoked, Title: "Visa *1111"}}).Text(revoke))
	assert.Equal(t, "Sticker 7000123 switched off — now Inactive",
		done(action.Outcome{Sticker: backend.Sticker{ID: "7000123", Status: "Inactive"}}).Text(off))
	assert.Equal(t, "Sticker 7000123 switched on — now Active",
		done(action.Outcome{Sticker: backend.Sticker{ID: "7000123", Status: "Active"}}).Text(on))
	assert.Equal(t, "Payment link for 1,500.00 RUB (order A-17) made: payment 43149999, https://pay.example/pay/43149999",
		done(action.Outcome{Invoice: backend.InvoiceLink{PaymentID: "43149999", URL: "https://pay.example/pay/43149999"}}).Text(inv))
	assert.Equal(t, `Sticker "Coffee 0.3" for 150.00 RUB made: sticker 7000124, https://qr.nspk.ru/AS1 — Active`,
		done(action.Outcome{Sticker: backend.Sticker{ID: "7000124", Status: "Active", Payload: "https://qr.nspk.ru/AS1"}}).Text(st))
	assert.Equal(t, "Card-saving link for customer account 42 made: token 9000031, https://pay.example/tokenize/9000031",
		done(action.Outcome{Tokenization: backend.TokenizationLink{TokenID: "9000031", URL: "https://pay.example/tokenize/9000031"}}).Text(tok))

	refused := &backend.Error{Kind: backend.KindRefused, Op: "revoke token 5f0c2a", Interface: backend.V2,
		Code: "invalid_operation", Message: "payment token 5f0c2a is Revoked; only an Active token can be revoked"}
	assert.Equal(t, "Revoke of token 5f0c2a was refused: payment token 5f0c2a is Revoked; only an Active token can be revoked (code invalid_operation)",
		action.Outcome{State: action.NotDone, Err: refused, How: action.HowAnswered}.Text(revoke))
	assert.Equal(t, "Revoke of token 5f0c2a was not made: the token is still Active",
		action.Outcome{State: action.NotDone, Err: errors.New("the token is still Active"), How: action.HowReadToken}.Text(revoke))
	assert.Equal(t, "Switch-off of sticker 7000123 was not made: the sticker is still Active",
		action.Outcome{State: action.NotDone, Err: errors.New("the sticker is still Active"), How: action.HowReadSticker}.Text(off))
	assert.Equal(t, "Revoke of token 5f0c2a: outcome unknown — checking (no answer from the service in time)",
		action.Outcome{State: action.Unknown, Err: lost, Retry: true}.Text(revoke))
	assert.Equal(t, "Payment link for 1,500.00 RUB (order A-17): outcome unknown — checking (no answer from the service in time)",
		action.Outcome{State: action.Unknown, Err: lost, Retry: true}.Text(inv))
	for r, what := range map[*action.Request]string{&revoke: "the token", &off: "the sticker", &inv: "the merchant's payments",
		&st: "the merchant's stickers", &tok: "the merchant's tokens"} {
		assert.True(t, strings.HasSuffix(action.Outcome{State: action.Unknown, Err: errors.New("why")}.Text(*r), "why; check "+what+" by hand"),
			action.Describe(*r))
	}

	// Text from the server is cleaned.
	evil := done(action.Outcome{Invoice: backend.InvoiceLink{PaymentID: "1\x1b[2J", URL: "https://x\u202e/\n"}})
	assert.False(t, strings.ContainsAny(evil.Text(inv), "\x1b\u202e\n"))
	evil = done(action.Outcome{Token: backend.Token{Title: "Visa\x1b]0;pwned\x07", Status: "Revoked\u202e"}})
	assert.False(t, strings.ContainsAny(evil.Text(revoke), "\x1b\x07\u202e"))
}

func TestSendRefusesTokensStickersAndLinksItCouldNotFindOut(t *testing.T) {
	f := newFake()
	run, path := fakeRunner(t, f)
	inv := action.NewCreateInvoice(backend.InvoiceLinkRequest{MerchantID: "1001", Amount: rub("1500")})
	through := func(r action.Request, via backend.Interface) action.Request { r.Interface = via; return r }
	twoKeys := inv
	twoKeys.IdempotencyKey = "another"
	noKey := inv
	noKey.IdempotencyKey = ""
	noKeyInvoice := action.ParamsOf[backend.InvoiceLinkRequest](noKey)
	noKeyInvoice.IdempotencyKey = ""
	noKey.Params = noKeyInvoice
	otherAmount := inv
	otherAmount.Amount = rub("15")

	for name, c := range map[string]struct {
		req  action.Request
		says string
	}{
		"a revoke through v1": {action.NewRevoke("5f0c2a", backend.V1), "exist only in the current interface (v2), not in v1"},
		"a toggle through v1": {action.NewToggle("7", true, backend.V1), "exist only in the current interface (v2), not in v1"},
		"a link through v1":   {through(inv, backend.V1), "exist only in the current interface (v2), not in v1"},
		"a sticker through v1": {through(action.NewCreateSticker(backend.StickerRequest{MerchantID: "1", Amount: rub("1")}), backend.V1),
			"exist only in the current interface (v2)"},
		"a card-saving link through v1": {through(action.NewCreateTokenization(backend.TokenizationLinkRequest{MerchantID: "1"}), backend.V1),
			"exist only in the current interface (v2)"},
		"no token":       {action.NewRevoke("", backend.V2), "no token is named"},
		"no sticker":     {action.NewToggle("", true, backend.V2), "no sticker is named"},
		"no merchant":    {action.NewCreateTokenization(backend.TokenizationLinkRequest{}), "no merchant is named"},
		"no link amount": {action.NewCreateInvoice(backend.InvoiceLinkRequest{MerchantID: "1001"}), "is not one that can be sent"},
		"no sticker amount": {action.NewCreateSticker(backend.StickerRequest{MerchantID: "1001"}),
			"is not one that can be sent"},
		"no key":           {noKey, "a create needs an idempotency key"},
		"two keys":         {twoKeys, "two different idempotency keys"},
		"two amounts":      {otherAmount, `the amount "15.00 RUB" is not the one to be sent (1500.00 RUB)`},
		"no interface":     {through(inv, ""), "is not one paydash knows"},
		"an unknown kind":  {action.Request{Kind: "revoke", ObjectID: "5f0c2a", Interface: backend.V2}, "cannot send the action"},
		"a kind not known": {action.Request{Kind: backend.ReadRefunds, ObjectID: "1", Interface: backend.V2}, "cannot send the action"},
	} {
		req, o := run.Send(context.Background(), c.req)
		assert.Equal(t, action.NotDone, o.State, name)
		assert.Contains(t, o.Text(req), " was not sent: ", name)
		assert.Contains(t, o.Text(req), c.says, name)
	}
	assert.Zero(t, f.sent(), "nothing was sent")
	assert.Empty(t, readJournal(t, path), "nothing was journaled")

	// Connected through v1 alone: a v2 request says what to configure.
	f.via = []backend.Interface{backend.V1}
	_, o := run.Send(context.Background(), action.NewRevoke("5f0c2a", backend.V2))
	assert.Equal(t, action.NotDone, o.State)
	assert.Contains(t, o.Err.Error(), "PAYDASH_V2_TOKEN")
	assert.Zero(t, f.sent())
}

func TestAnAnswerTheObjectDeniesIsNotTakenForDone(t *testing.T) {
	f := newFake()
	run, path := fakeRunner(t, &denying{f})
	for _, r := range []action.Request{action.NewRevoke("5f0c2a", backend.V2), action.NewToggle("7", false, backend.V2)} {
		r, o := run.Send(context.Background(), r)
		require.Equal(t, action.Unknown, o.State, o.Text(r))
		assert.True(t, o.Retry)
		assert.Contains(t, o.Text(r), "the service said done, but the ")
		var phases []string
		for _, e := range readJournal(t, path) {
			if e.ActionID == r.ID {
				phases = append(phases, e.Phase)
			}
		}
		assert.Equal(t, []string{journal.PhaseSent, journal.PhaseUnknown}, phases)
	}
}

// denying says done but answers with the object as it was.
type denying struct{ *fake }

func (d *denying) RevokeToken(ctx context.Context, id string) (backend.Token, error) {
	_, _ = d.fake.RevokeToken(ctx, id)
	return backend.Token{ID: id, Status: backend.TokenActive}, nil
}

func (d *denying) SetStickerActive(ctx context.Context, id string, active bool) (backend.Sticker, error) {
	_, _ = d.fake.SetStickerActive(ctx, id, active)
	return backend.Sticker{ID: id, Status: "Active"}, nil
}

func TestACreateOlderThan23HoursIsNotSentAgain(t *testing.T) {
	f := newFake()
	run, path := fakeRunner(t, f)
	for _, r := range []action.Request{
		action.NewCreateInvoice(backend.InvoiceLinkRequest{MerchantID: "1001", Amount: rub("1500")}),
		action.NewCreateSticker(backend.StickerRequest{MerchantID: "1001", Amount: rub("150")}),
		action.NewCreateTokenization(backend.TokenizationLinkRequest{MerchantID: "1001"}),
	} {
		r.Sent = time.Now().Add(-23*time.Hour - time.Minute)
		o := run.Check(context.Background(), r)
		require.Equal(t, action.Unknown, o.State)
		assert.False(t, o.Retry)
		assert.Contains(t, o.Err.Error(), "24 hours")
		assert.Contains(t, o.Text(r), "by hand")

		r.Sent = time.Time{} // a torn sent line: when is not known
		o = run.Check(context.Background(), r)
		require.Equal(t, action.Unknown, o.State)
		assert.Contains(t, o.Err.Error(), "at a time the journal does not say")
	}
	assert.Zero(t, f.sent(), "nothing is sent again")
	assert.Empty(t, readJournal(t, path))
}

func TestPendingOfLinesWithoutParams(t *testing.T) {
	at := func(min int) time.Time { return t0.Add(time.Duration(min) * time.Minute) }
	entries := []journal.Entry{
		// Lines as an older paydash wrote them: no params.
		{Time: at(0), Action: "capture", Phase: journal.PhaseSent, ObjectID: "43149010", Amount: "500.00", Currency: "RUB",
			Interface: "v2", ActionID: "a"},
		{Time: at(1), Action: "create_invoice_link", Phase: journal.PhaseSent, Amount: "1500.00", Currency: "RUB",
			Interface: "v2", IdempotencyKey: "k-b", ActionID: "b"},
		{Time: at(2), Action: "toggle_sticker", Phase: journal.PhaseSent, ObjectID: "7000123", Interface: "v2", ActionID: "c"},
		// Params this paydash cannot read, or does not know all of.
		{Time: at(3), Action: "create_sticker", Phase: journal.PhaseSent, Amount: "150.00", Currency: "RUB",
			Interface: "v2", IdempotencyKey: "k-d", ActionID: "d", Params: []byte(`{"merchantId":"1001","amount":"lots"}`)},
		{Time: at(4), Action: "create_tokenization_link", Phase: journal.PhaseSent, Interface: "v2", IdempotencyKey: "k-e",
			ActionID: "e", Params: []byte(`{"merchantId":"1001","newerField":1}`)},
		{Time: at(5), Action: "create_tokenization_link", Phase: journal.PhaseSent, Interface: "v2", IdempotencyKey: "k-f",
			ActionID: "f", Params: []byte(`{"purpose":"no merchant"}`)},
		// A revoke needs no params.
		{Time: at(6), Action: "revoke_token", Phase: journal.PhaseSent, ObjectID: "5f0c2a", Interface: "v2", ActionID: "g"},
	}
	got := action.Pending(entries)
	require.Equal(t, []string{"a", "b", "c", "d", "e", "f", "g"}, ids(got), "reported, not dropped")
	assert.Equal(t, "capture of 500.00 RUB for payment 43149010", action.Describe(got[0]))
	assert.Equal(t, "payment link for 1,500.00 RUB", action.Describe(got[1]))
	assert.Equal(t, "switch of sticker 7000123 on or off", action.Describe(got[2]), "which way is not known")
	assert.Equal(t, "5f0c2a", got[6].ObjectID)
	assert.Zero(t, got[6].Amount, "a revoke has no amount")

	f := newFake()
	run, path := fakeRunner(t, f)
	for _, r := range got[1:6] {
		o := run.Check(context.Background(), r)
		require.Equal(t, action.Unknown, o.State, action.Describe(r))
		assert.False(t, o.Retry, action.Describe(r))
		assert.Contains(t, o.Text(r), "by hand")
	}
	assert.Contains(t, run.Check(context.Background(), got[1]).Text(got[1]),
		"outcome unknown — the journal does not hold what was sent (a line without params); check the merchant's payments by hand")
	assert.Contains(t, run.Check(context.Background(), got[4]).Err.Error(), "newerField")
	noToken := got[6]
	noToken.ObjectID = ""
	o := run.Check(context.Background(), noToken)
	assert.Equal(t, action.Unknown, o.State)
	assert.False(t, o.Retry, "a line that names no token cannot be found out by asking again")
	assert.Zero(t, f.sent(), "nothing half-known is sent again")
	assert.Empty(t, readJournal(t, path))
}

func TestJournalLinesOfTheNewKinds(t *testing.T) {
	f := newFake()
	run, path := fakeRunner(t, f)
	req, o := run.Send(context.Background(), action.NewToggle("7000123", false, backend.V2))
	require.Equal(t, action.Done, o.State)
	req2, o := run.Send(context.Background(), action.NewRevoke("5f0c2a", backend.V2))
	require.Equal(t, action.Done, o.State)
	req3, o := run.Send(context.Background(), action.NewCreateInvoice(backend.InvoiceLinkRequest{MerchantID: "1001", Amount: rub("1500")}))
	require.Equal(t, action.Done, o.State)

	es := readJournal(t, path)
	require.Len(t, es, 6)
	for i, e := range es {
		assert.Equal(t, []string{journal.PhaseSent, journal.PhaseDone}[i%2], e.Phase)
	}
	assert.JSONEq(t, `{"active":false}`, string(es[0].Params))
	assert.JSONEq(t, `{"active":false}`, string(es[1].Params), "every line holds the whole request")
	assert.Equal(t, "Inactive", es[1].Result)
	assert.Empty(t, es[0].Amount+es[0].Currency, "a toggle has no amount")
	assert.Equal(t, req.ID, es[1].ActionID)

	assert.Nil(t, es[2].Params, "a revoke has no params")
	assert.Equal(t, "5f0c2a", es[2].ObjectID)
	assert.Equal(t, "Revoked", es[3].Result)
	assert.Equal(t, req2.ID, es[3].ActionID)

	assert.Equal(t, "1500.00", es[4].Amount)
	assert.Equal(t, req3.IdempotencyKey, es[4].IdempotencyKey)
	assert.JSONEq(t, `{"merchantId":"1001","amount":{"value":1500,"currency":"RUB"}}`, string(es[4].Params),
		"the key is the line's idempotencyKey, not in params")
	assert.Equal(t, "payment 43149999 https://pay.example/pay/43149999", es[5].Result)
	assert.Equal(t, action.HowAnswered, es[5].How)
	assert.Empty(t, action.Pending(es))
}

func ExampleOutcome_Text() {
	req := action.NewToggle("7000123", false, backend.V2)
	o := action.Outcome{State: action.Done, How: action.HowReadSticker, Sticker: backend.Sticker{ID: "7000123", Status: "Inactive"}}
	fmt.Println(o.Text(req))
	// Output: Sticker 7000123 switched off — now Inactive
}
