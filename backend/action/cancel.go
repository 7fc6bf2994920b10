package action

import (
	"context"

	"paydash/backend"
	"paydash/backend/textsafe"
)

// cancelHold releases the hold of an Authorized payment (req.Amount is
// the hold being released, as the user confirmed it).
type cancelHold struct{ Base }

func init() { Register(cancelHold{}) }

func (cancelHold) Action() backend.ActionName { return backend.ActionCancelHold }

func (cancelHold) Validate(req Request) error { return validatePayment(req) }

func (cancelHold) Describe(r Request) string {
	return "release of the hold of " + amountText(r.Amount) + " on payment " + textsafe.Line(r.ObjectID, 80)
}

func (cancelHold) DoneText(r Request, o Outcome) string {
	amt := amountText(r.Amount)
	if held, known := heldOf(r, o); known && r.Amount.Value.IsZero() {
		amt = amountText(held)
	}
	s := "Released the hold of " + amt + " on payment " + textsafe.Line(r.ObjectID, 80)
	if st := textsafe.Clean(string(o.Payment.Status)); st != "" {
		s += " — now " + st
	}
	return s
}

func (cancelHold) Where() string { return "the payment" }
func (cancelHold) Doing() string { return "releasing" }

func (cancelHold) Send(ctx context.Context, r *Runner, req Request) (o Outcome, err error) {
	o.Payment, err = r.Backend.CancelPayment(ctx, req.ObjectID)
	return o, err
}

func (cancelHold) Denied(_ Request, o Outcome) string {
	return paymentNot(o, backend.PaymentCancelled)
}

// Check reads the payment: Cancelled means released.
func (cancelHold) Check(ctx context.Context, r *Runner, req Request) Outcome {
	return r.checkPayment(ctx, req, backend.PaymentCancelled)
}

// Result is the payment's status: "Cancelled".
func (cancelHold) Result(_ Request, o Outcome) string {
	return textsafe.Line(string(o.Payment.Status), 40)
}

func (cancelHold) Locks(req Request) (ObjectRef, bool) {
	return ObjectRef{ObjectPayment, req.ObjectID}, true
}
