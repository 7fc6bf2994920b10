package action

import (
	"context"
	"errors"
	"strings"

	"paydash/backend"
	"paydash/backend/textsafe"
)

// refund returns money of a Settled payment, under an idempotency key (v2
// Idempotency-Key, v1 externalID) by which a lost answer is found out.
type refund struct{ Base }

func init() { Register(refund{}) }

func (refund) Action() backend.ActionName { return backend.ActionRefund }

// keyed: New gives a refund a fresh idempotency key.
func (refund) keyed() bool { return true }

func (refund) Validate(req Request) error {
	if err := validatePayment(req); err != nil {
		return err
	}
	if req.IdempotencyKey == "" {
		// Without a key, a lost answer could never be found out.
		return errors.New("a refund needs an idempotency key")
	}
	return nil
}

func (refund) Describe(r Request) string {
	return "refund of " + amountText(r.Amount) + " for payment " + textsafe.Line(r.ObjectID, 80)
}

func (refund) DoneText(r Request, o Outcome) string {
	s := "Refund "
	if rid := textsafe.Line(o.Refund.ID, 40); rid != "" {
		s += rid + " "
	}
	s += "of " + amountText(r.Amount) + " made for payment " + textsafe.Line(r.ObjectID, 80)
	if st := textsafe.Clean(string(o.Refund.Status)); st != "" {
		s += " — " + st
	}
	return s
}

func (refund) Where() string { return "the payment" }
func (refund) Doing() string { return "refunding" }

func (refund) Send(ctx context.Context, r *Runner, req Request) (o Outcome, err error) {
	o.Refund, err = r.Backend.RefundPayment(ctx, refundRequest(req))
	return o, err
}

// Check asks the interface that carried it (backend.CheckRefund): v2 asks
// again with the same key, v1 looks for a refund whose externalID is the
// key.
func (refund) Check(ctx context.Context, r *Runner, req Request) Outcome {
	switch {
	case !req.Amount.Value.IsPositive():
		return Outcome{State: Unknown, Err: errors.New("its amount is not known (the journal line could not be read)")}
	case req.IdempotencyKey == "":
		return Outcome{State: Unknown, Err: errors.New("it has no idempotency key to find it by")}
	case req.Interface == backend.V2:
		if why := r.expired(req, "refund"); why != "" {
			return Outcome{State: Unknown, Err: errors.New(why)}
		}
	}
	ref, found, err := r.Backend.CheckRefund(ctx, refundRequest(req), req.Interface)
	how := HowAskedAgain
	if req.Interface == backend.V1 {
		how = HowLookedUp
	}
	switch {
	case err == nil && found:
		return Outcome{State: Done, Refund: ref, How: how}
	case err == nil:
		return Outcome{State: NotDone, How: how, Err: errors.New("no refund carries its externalID")}
	case noAnswer(err):
		return Outcome{State: Unknown, Err: err, Retry: true}
	case cannotAsk(err):
		// Not the service's word on the refund: paydash could not ask.
		return Outcome{State: Unknown, Err: err}
	}
	// The service refused the request under the key: nothing was made with it.
	return Outcome{State: NotDone, Err: err, How: how}
}

// Result is the refund made: "refund 7000123 Pending".
func (refund) Result(_ Request, o Outcome) string {
	return strings.TrimSpace("refund " + textsafe.Line(o.Refund.ID, 60) + " " + textsafe.Line(string(o.Refund.Status), 40))
}

func (refund) Locks(req Request) (ObjectRef, bool) {
	return ObjectRef{ObjectPayment, req.ObjectID}, true
}

func (refund) Made(_ Request, o Outcome) (ObjectRef, bool) {
	return ObjectRef{ObjectRefund, o.Refund.ID}, true
}

func refundRequest(req Request) backend.RefundRequest {
	return backend.RefundRequest{PaymentID: req.ObjectID, Amount: req.Amount, IdempotencyKey: req.IdempotencyKey}
}
