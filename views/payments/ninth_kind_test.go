package payments

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend"
	"paydash/backend/action"
	"paydash/backend/journal"
	"paydash/backend/money"
	"paydash/backend/textsafe"
	"paydash/ui"
	"paydash/views/internal/viewtest"
)

// A kind of action is one type registered in one table (backend/action's
// Kind): this file adds a ninth, known only to the tests, and runs it
// through the whole path without touching the runner or a view: the
// confirmation, the journal, the send, an answer lost, the check that
// finds it out, the result dialog, and the journal read back at a next
// start.

// tipLink is a "tip" payment link: a payment link of a fixed description,
// whose journal params are its own.
type tipLink struct{ action.Base }

func init() { action.Register(tipLink{}) }

// tipParams is a tip's own params (Request.Params), and its journal
// params too: no field of Request is the tip's.
type tipParams struct {
	MerchantID string       `json:"merchantId"`
	Amount     money.Amount `json:"amount"`
}

func tipOf(req action.Request) tipParams { return action.ParamsOf[tipParams](req) }

func (tipLink) Action() backend.ActionName { return viewtest.ActionTip }
func (tipLink) V2Only() bool               { return true }

func (tipLink) Validate(req action.Request) error {
	if tipOf(req).MerchantID == "" || req.IdempotencyKey == "" || req.Amount != tipOf(req).Amount {
		return errors.New("a tip needs a merchant, a key and its amount")
	}
	return nil
}

func (tipLink) Describe(req action.Request) string {
	return "tip link for " + req.Amount.Display()
}

func (k tipLink) DoneText(req action.Request, o action.Outcome) string {
	return "Tip link for " + req.Amount.Display() + " made: payment " + o.Invoice.PaymentID
}

func (tipLink) Where() string { return "the merchant's tips" }

func (tipLink) request(req action.Request) backend.InvoiceLinkRequest {
	return backend.InvoiceLinkRequest{MerchantID: tipOf(req).MerchantID, Amount: req.Amount,
		Description: "Tip", IdempotencyKey: req.IdempotencyKey}
}

func (k tipLink) Send(ctx context.Context, r *action.Runner, req action.Request) (o action.Outcome, err error) {
	o.Invoice, err = r.Backend.CreateInvoiceLink(ctx, k.request(req))
	if err == nil && viewtest.TipLose.Add(-1) >= 0 {
		return action.Outcome{}, &backend.Error{Kind: backend.KindUnavailable, Op: "tip", Message: "connection reset"}
	}
	return o, err
}

// Check asks again under the same key: the service answers with the link
// it made.
func (k tipLink) Check(ctx context.Context, r *action.Runner, req action.Request) action.Outcome {
	inv, err := r.Backend.CreateInvoiceLink(ctx, k.request(req))
	if err != nil {
		return action.Outcome{State: action.Unknown, Err: err, Retry: true}
	}
	return action.Outcome{State: action.Done, Invoice: inv, How: action.HowAskedAgain}
}

func (tipLink) Result(_ action.Request, o action.Outcome) string { return "tip " + o.Invoice.PaymentID }

func (tipLink) Params(req action.Request) any { return tipOf(req) }

func (tipLink) ReadParams(raw json.RawMessage, req *action.Request) error {
	var p tipParams
	if err := json.Unmarshal(raw, &p); err != nil || p.MerchantID == "" {
		return errors.New("the tip's params cannot be read")
	}
	req.Params = p
	return nil
}

func (tipLink) Locks(action.Request) (action.ObjectRef, bool) { return action.ObjectRef{}, false }

func (tipLink) Made(_ action.Request, o action.Outcome) (action.ObjectRef, bool) {
	return action.ObjectRef{Type: action.ObjectPayment, ID: o.Invoice.PaymentID}, true
}

func (tipLink) Created(req action.Request, o action.Outcome) (action.Created, bool) {
	return action.Created{Title: "Tip link made", Link: o.Invoice.URL,
		Facts: []string{"Payment " + textsafe.Clean(o.Invoice.PaymentID) + " for " + req.Amount.Display()}}, true
}

func newTip(merchant string, amount money.Amount) action.Request {
	return action.Request{ID: backend.NewIdempotencyKey(), Kind: viewtest.ActionTip, Amount: amount, Interface: backend.V2,
		IdempotencyKey: backend.NewIdempotencyKey(), Params: tipParams{MerchantID: merchant, Amount: amount}}
}

func TestANinthKindRunsTheWholePath(t *testing.T) {
	t.Parallel()
	viewtest.TipLose.Store(1)
	t.Cleanup(func() { viewtest.TipLose.Store(0) })
	e, pay := started(t, viewtest.Opts{Changes: true}, 100, 30)
	amount := money.Amount{Value: money.MustParse("50.00"), Currency: "RUB"}
	req := newTip(e.Scope.MerchantID, amount)

	// The confirmation says what the kind describes, and sends it.
	spec := ui.ConfirmSpec{Title: "New " + action.Describe(req), Verb: "Make",
		Confirm: func(money.Amount) tea.Cmd { return pay.Acts.Send(req) }}
	assert.Equal(t, "New tip link for 50.00 RUB", spec.Title)
	e.Run(spec.Confirm(amount))

	// The answer was lost: said unknown, then found out by the kind's check.
	ts := e.Toasts()
	require.Len(t, ts, 2)
	assert.Equal(t, "Tip link for 50.00 RUB: outcome unknown — checking (connection reset)", ts[0].Text)
	assert.True(t, strings.HasPrefix(ts[1].Text, "Tip link for 50.00 RUB made: payment "), ts[1].Text)
	payment := strings.TrimPrefix(ts[1].Text, "Tip link for 50.00 RUB made: payment ")
	require.NotEmpty(t, payment)
	assert.Empty(t, e.Errors())
	assert.Zero(t, e.Tab.Status().Checking+e.Tab.Status().Sending, "nothing left under way")

	// The result dialog is the kind's.
	r := e.Result()
	assert.Equal(t, "Tip link made", r.Title)
	assert.Equal(t, []string{"Payment " + payment + " for 50.00 RUB"}, r.Facts)
	assert.NotEmpty(t, r.Link)

	// The journal: sent with the kind's own params, unknown, done as the
	// kind says, every line under the kind's name.
	j := e.Journal()
	require.Len(t, j, 3)
	for i, phase := range []string{journal.PhaseSent, journal.PhaseUnknown, journal.PhaseDone} {
		assert.Equal(t, phase, j[i].Phase)
		assert.Equal(t, string(viewtest.ActionTip), j[i].Action)
		assert.Equal(t, req.ID, j[i].ActionID)
		assert.JSONEq(t, `{"merchantId":"`+e.Scope.MerchantID+`","amount":{"value":50,"currency":"RUB"}}`, string(j[i].Params))
	}
	assert.Equal(t, action.HowAskedAgain, j[2].How)
	assert.Equal(t, "tip "+payment, j[2].Result)

	// Read back at a next start: the open action (the sent and unknown
	// lines alone) is rebuilt with its params, and its check asks again
	// under the same key: the same payment, not a second one.
	open := action.Pending(j[:2])
	require.Len(t, open, 1)
	assert.Equal(t, tipOf(req), tipOf(open[0]), "the tip's own params, read back")
	assert.Equal(t, amount, tipOf(open[0]).Amount)
	run := &action.Runner{Backend: e.B, Journal: e.J}
	o := run.Check(context.Background(), open[0])
	require.Equal(t, action.Done, o.State, o.Err)
	assert.Equal(t, payment, o.Invoice.PaymentID)
	assert.Equal(t, "the merchant's tips", action.Where(viewtest.ActionTip))
}
