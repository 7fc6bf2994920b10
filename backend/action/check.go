package action

import (
	"context"
	"errors"
	"fmt"

	"paydash/backend"
	"paydash/backend/textsafe"
)

// Check finds out what became of req (an earlier Send whose outcome is
// Unknown, or an action found by Pending at start) and journals a final line
// ("done" or "failed", with how it was learned) when it is known; nothing
// when it is still unknown. An action whose lines name a service the
// journal was not opened for (req.Service) is not asked about at all: it
// stays Unknown, for a paydash configured for that service to find out.
//
// A capture or a cancel reads the payment: Settled means captured (the
// amount the service holds is noted), Cancelled released; a payment still
// Authorized, or moved the other way, was not. A refund asks the interface
// that carried it (backend.CheckRefund): v2 asks again with the same key,
// which answers with the refund made under it or makes it now, so exactly
// one exists; v1 looks for a refund whose externalID is the key, and none
// means none was made. A v2 refund sent more than 23 hours ago is never
// asked again (the service keeps keys 24 hours; a late replay could make a
// second refund): Unknown, for the user to check by hand.
//
// A revoke reads the token: Revoked means done (whoever revoked it); a token
// still Active was not revoked, as a payment still Authorized was not
// captured (see below); a token Created or Declined was never Active, so
// no revoke of it can have been done. A toggle reads the sticker: in the
// state it set means done, in the other state not done. A create (payment
// link, sticker, card-saving link) is sent again with the same key and the
// same body, as a v2 refund is: the service answers with the object it made
// under the key, or makes it now if the first request never arrived, so
// exactly one exists either way; never more than 23 hours after it was sent.
//
// A NotDone learned by reading (the payment, the token, the sticker, a v1
// lookup) is the service's state when it was asked: call Check only after
// Send has returned, and against a real service give a request that may
// still be on its way a few seconds first. (A revoke or a toggle whose
// answer was lost and whose object still reads as before may still be in
// flight; it is said "not done", as a capture is, because what the service
// holds is what the user acts on: if it lands later, the token or sticker
// shows it, and a second revoke or toggle is refused or harmless.) Asking
// again by v2 key has no such window.
func (r *Runner) Check(ctx context.Context, req Request) Outcome {
	o := r.check(ctx, req)
	if o.Final() {
		o.JournalErr = r.record(req, o)
	}
	return o
}

func (r *Runner) check(ctx context.Context, req Request) Outcome {
	if !req.Service.IsZero() && len(r.Journal.Services()) > 0 && !r.Journal.Serves(req.Service) {
		// Asked of another service, a refund would be made there, a second
		// time, and the journal would say done for the first.
		return Outcome{State: Unknown, Err: fmt.Errorf("it was sent to %s, not to the service paydash is configured for now; start paydash against that service to find it out",
			textsafe.Line(req.Service.String(), 200))}
	}
	k, ok := Lookup(req.Kind)
	if !ok {
		return KindOf(req.Kind).Check(ctx, r, req)
	}
	if req.unread != "" {
		return Outcome{State: Unknown, Err: errors.New(req.unread)}
	}
	if v2Only(req.Kind) && req.Interface != backend.V2 {
		return Outcome{State: Unknown, Err: fmt.Errorf("it is journaled as sent through %q, but tokens, stickers and links exist only in v2",
			textsafe.Line(string(req.Interface), 20))}
	}
	return k.Check(ctx, r, req)
}

// unreadable is the Outcome of a read that failed: asking again later may
// tell, unless the object is not found or paydash may not ask.
func unreadable(err error) Outcome {
	return Outcome{State: Unknown, Err: err, Retry: !cannotAsk(err) && backend.KindOf(err) != backend.KindNotFound}
}

// checkPayment reads the payment of a capture (want Settled) or a cancel
// (want Cancelled).
func (r *Runner) checkPayment(ctx context.Context, req Request, want backend.PaymentStatus) Outcome {
	p, err := r.Backend.GetPayment(ctx, req.ObjectID)
	if err != nil {
		return unreadable(err)
	}
	o := Outcome{Payment: p, How: HowReadPayment}
	switch {
	case p.Status == want:
		o.State = Done
	case p.Status == backend.PaymentAuthorized:
		o.State, o.Err = NotDone, errors.New("the payment is still Authorized")
	case p.Status == backend.PaymentSettled:
		o.State, o.Err = NotDone, errors.New("it was captured, not released")
	case p.Status == backend.PaymentCancelled:
		o.State, o.Err = NotDone, errors.New("the payment was cancelled")
	case p.Status == backend.PaymentRejected:
		o.State, o.Err = NotDone, errors.New("the payment was rejected")
	case p.Status == backend.PaymentPending || p.Status == backend.PaymentConfirmation:
		// A payment moves forward only: it was never Authorized.
		o.State, o.Err = NotDone, fmt.Errorf("the payment is %s", p.Status)
	default:
		return Outcome{State: Unknown, Payment: p,
			Err: fmt.Errorf("the payment is %q, a state paydash does not know", textsafe.Line(string(p.Status), 40))}
	}
	return o
}

// expired says why a request sent under a v2 key may no longer be sent
// again ("" when it may): the service keeps keys 24 hours, and a replay
// after that would make a second what.
func (r *Runner) expired(req Request, what string) string {
	if !req.Sent.IsZero() && r.now().Sub(req.Sent) <= keyLifetime {
		return ""
	}
	when := "at a time the journal does not say"
	if !req.Sent.IsZero() {
		when = req.Sent.Local().Format("2006-01-02 15:04") + ", more than 23 hours ago"
	}
	return fmt.Sprintf("it was sent %s, and the service keeps idempotency keys only 24 hours: asking again could make a second %s", when, what)
}

// cannotAsk reports whether a failure to find out says that asking again
// later cannot help by itself: the credentials, the configuration or the
// request must change first.
func cannotAsk(err error) bool {
	switch backend.KindOf(err) {
	case backend.KindUnsupported, backend.KindNotAuthorized, backend.KindUnauthenticated, backend.KindConflict:
		return true
	}
	return false
}
