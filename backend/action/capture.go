package action

import (
	"context"

	"paydash/backend"
	"paydash/backend/money"
	"paydash/backend/textsafe"
)

// capture takes the money of an Authorized payment: the amount confirmed
// (req.Amount), at most the hold.
type capture struct{ Base }

func init() { Register(capture{}) }

func (capture) Action() backend.ActionName { return backend.ActionCapture }

func (capture) Validate(req Request) error { return validatePayment(req) }

func (capture) Describe(r Request) string {
	return "capture of " + amountText(r.Amount) + " for payment " + textsafe.Line(r.ObjectID, 80)
}

// DoneText names the amount the service holds when the payment was read
// and it differs from the one sent (or none was known).
func (capture) DoneText(r Request, o Outcome) string {
	id, amt := textsafe.Line(r.ObjectID, 80), amountText(r.Amount)
	held, known := heldOf(r, o)
	s := "Captured " + amt + " of payment " + id
	switch {
	case known && r.Amount.Value.IsZero():
		s = "Captured " + amountText(held) + " of payment " + id
	case known && held.Value != r.Amount.Value:
		s = "Captured " + amountText(held) + " of payment " + id + " (" + amt + " was sent)"
	}
	if st := textsafe.Clean(string(o.Payment.Status)); st != "" {
		s += " — now " + st
	}
	return s
}

func (capture) Where() string { return "the payment" }
func (capture) Doing() string { return "capturing" }

func (capture) Send(ctx context.Context, r *Runner, req Request) (o Outcome, err error) {
	a := req.Amount
	o.Payment, err = r.Backend.CapturePayment(ctx, backend.CaptureRequest{PaymentID: req.ObjectID, Amount: &a})
	return o, err
}

func (capture) Denied(_ Request, o Outcome) string {
	return paymentNot(o, backend.PaymentSettled)
}

// Check reads the payment: Settled means captured.
func (capture) Check(ctx context.Context, r *Runner, req Request) Outcome {
	return r.checkPayment(ctx, req, backend.PaymentSettled)
}

// Result is the payment's status and, when read, the amount it holds:
// "Settled 500.00".
func (capture) Result(req Request, o Outcome) string {
	s := textsafe.Line(string(o.Payment.Status), 40)
	if p := o.Payment.Amount; p.Value.IsPositive() {
		cur := p.Currency
		if cur == "" {
			cur = req.Amount.Currency
		}
		s += " " + p.Value.StringFixed(money.Decimals(cur))
	}
	return s
}

func (capture) Locks(req Request) (ObjectRef, bool) {
	return ObjectRef{ObjectPayment, req.ObjectID}, true
}
