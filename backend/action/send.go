package action

import (
	"context"
	"errors"
	"fmt"
	"time"

	"paydash/backend"
	"paydash/backend/journal"
	"paydash/backend/money"
	"paydash/backend/textsafe"
	"paydash/debuglog"
)

// Runner sends actions and finds out their outcomes, journaling each step.
// It is safe for concurrent use (the journal serialises its lines).
type Runner struct {
	Backend backend.Backend
	Journal *journal.Journal
	Now     func() time.Time // nil = time.Now
	// Debug is the debug log: each action sent and its outcome, by kind,
	// object id and amount (never its params); nil = none.
	Debug *debuglog.Logger
}

func (r *Runner) now() time.Time {
	if r.Now != nil {
		return r.Now()
	}
	return time.Now()
}

// Send journals req as sent (filling req.Sent), sends it, and journals the
// outcome: "done" or "failed" when the answer says, "unknown" when it does
// not. If the sent line cannot be written nothing is sent: the outcome is
// NotDone with an error wrapping ErrNotRecorded. A failure without a usable
// answer (backend.KindUnavailable, KindMalformed, KindUnknown, or the
// context ended) is Unknown with Retry; every other failure is the service
// (or the adapter, before sending) refusing: NotDone. A capture sends the
// amount, a cancel releases the hold, a refund goes under its idempotency
// key, a revoke ends the token, a toggle sets the sticker to the state it names, and
// a create sends its request (Invoice, Sticker or Tokenization) under its
// idempotency key. An answer of done that the object answered with denies
// (a payment not Settled after a capture, a token not Revoked after a
// revoke, a sticker not in the state set) is Unknown with Retry: Check
// reads it again.
//
// A request that cannot be sent (no payment, token, sticker or merchant; no
// amount where one is needed; a refund or create without a key; a token,
// sticker or link through v1; an Interface other than Carrier's) is NotDone
// with nothing journaled or sent. It returns req with Sent (and, if it was
// empty, ID) set, and a create's request under req.IdempotencyKey, its
// expiry (if any) in UTC.
func (r *Runner) Send(ctx context.Context, req Request) (Request, Outcome) {
	if req.ID == "" {
		req.ID = backend.NewIdempotencyKey()
	}
	if err := sendable(req); err != nil {
		return req, Outcome{State: NotDone, Err: err}
	}
	req = withKey(req)
	if via := Carrier(r.Backend); via != "" && via != req.Interface {
		if v2Only(req.Kind) {
			return req, Outcome{State: NotDone, Err: errors.New(
				"tokens, stickers and links exist only in the current interface (v2), which is not configured; set PAYDASH_V2_TOKEN")}
		}
		// Journaled under the wrong interface, a lost answer would be
		// looked for where it is not.
		return req, Outcome{State: NotDone, Err: fmt.Errorf("paydash sends actions through %s, not %s", via, req.Interface)}
	}
	if _, err := params(req); err != nil {
		return req, Outcome{State: NotDone, Err: fmt.Errorf("%w: %w", ErrNotRecorded, err)}
	}
	req.Sent = r.now()
	req.Service = r.Journal.ServiceFor(string(req.Interface))
	sent := entryOf(req, journal.PhaseSent)
	sent.Time = req.Sent
	if err := r.Journal.Record(sent); err != nil {
		return req, Outcome{State: NotDone, Err: fmt.Errorf("%w: %w", ErrNotRecorded, err)}
	}

	var (
		o   Outcome
		err error
	)
	o, err = KindOf(req.Kind).Send(ctx, r, req)
	switch {
	case err == nil && denied(req, o) != "":
		// "Done", but the object read after says otherwise: the answer
		// cannot be taken at its word. Reading the object again settles it.
		o = Outcome{State: Unknown, Retry: true, Payment: o.Payment, Token: o.Token, Sticker: o.Sticker,
			Err: fmt.Errorf("the service said done, but %s", denied(req, o))}
	case err == nil:
		o.State, o.How = Done, HowAnswered
	case noAnswer(err):
		o = Outcome{State: Unknown, Err: err, Retry: true}
	default:
		o = Outcome{State: NotDone, Err: err, How: HowAnswered}
	}
	o.JournalErr = r.record(req, o)
	r.Debug.Log("action", "kind", string(req.Kind), "id", req.ObjectID, "amount", req.Amount.Value.String(),
		"currency", req.Amount.Currency, "outcome", o.State, "retry", o.Retry)
	return req, o
}

// denied says how the object an action answered with denies that it is
// where the action takes it ("" when it does not): a capture Settled, a
// release Cancelled, a revoked token Revoked, a sticker in the state set.
// A refund's and a create's answer is the object made.
func denied(req Request, o Outcome) string { return KindOf(req.Kind).Denied(req, o) }

// paymentNot says how a payment answered after a capture or a release is
// not in the state want ("" when it is).
func paymentNot(o Outcome, want backend.PaymentStatus) string {
	if o.Payment.Status != want {
		return "the payment is " + textsafe.Line(string(o.Payment.Status), 40)
	}
	return ""
}

// sendable refuses a request that cannot be sent or found out later.
func sendable(req Request) error {
	k, ok := Lookup(req.Kind)
	if !ok {
		return fmt.Errorf("paydash cannot send the action %q", req.Kind)
	}
	known := req.Interface == backend.V2 || req.Interface == backend.V1
	if k.V2Only() && known && req.Interface != backend.V2 {
		return fmt.Errorf("tokens, stickers and links exist only in the current interface (v2), not in %s", req.Interface)
	}
	if err := k.Validate(req); err != nil {
		return err
	}
	if !known {
		return fmt.Errorf("the interface %q is not one paydash knows", req.Interface)
	}
	return nil
}

// validatePayment refuses an action on a payment (capture, cancel,
// refund) without a payment or an amount that can be sent.
func validatePayment(req Request) error {
	switch {
	case req.ObjectID == "":
		return errors.New("no payment is named")
	case !sendableAmount(req.Amount):
		return fmt.Errorf("the amount %q is not one that can be sent", req.Amount.String())
	}
	return nil
}

func sendableAmount(a money.Amount) bool { return a.Value.IsPositive() && a.Currency != "" }

// noAnswer reports whether a failure leaves it open what the service did.
func noAnswer(err error) bool {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return true
	}
	switch backend.KindOf(err) {
	case backend.KindUnavailable, backend.KindMalformed, backend.KindTooLarge, backend.KindUnknown:
		return true
	}
	return false
}

// Abandon journals that paydash stopped before req's answer came
// ("abandoned", with why; not final: the next start finds it out).
func (r *Runner) Abandon(req Request, why string) error {
	e := entryOf(req, journal.PhaseAbandoned)
	e.Time = r.now()
	e.Error = textsafe.Line(why, 500)
	return r.Journal.Record(e)
}

// record journals an outcome: done, failed, or unknown.
func (r *Runner) record(req Request, o Outcome) error {
	e := entryOf(req, journal.PhaseUnknown)
	e.Time = r.now()
	switch o.State {
	case Done:
		e.Phase, e.How = journal.PhaseDone, o.How
		e.Result = result(req, o)
	case NotDone:
		e.Phase, e.How = journal.PhaseFailed, o.How
	}
	if o.Err != nil {
		e.Error = textsafe.Line(backend.Reason(o.Err), 500)
	}
	return r.Journal.Record(e)
}

// result says what the service did: "Settled 500.00", "Cancelled",
// "refund 7000123 Pending", "Revoked", "Inactive", "payment 43149999
// https://…", "sticker 7000124 Active", "token 9000031 https://…".
func result(req Request, o Outcome) string { return KindOf(req.Kind).Result(req, o) }

// Validate refuses, with why, a request Send would refuse before sending
// anything: an unknown kind, what the kind itself refuses (Kind.Validate:
// no object, no amount, no key…), an interface paydash does not know, or
// parameters that cannot be journaled. Send still checks the interface
// against the backend's.
func Validate(req Request) error {
	if err := sendable(req); err != nil {
		return err
	}
	if _, err := params(withKey(req)); err != nil {
		return err
	}
	return nil
}
