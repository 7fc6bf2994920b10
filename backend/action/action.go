// Package action is the life cycle of a money action: a capture, a release
// of a hold, a refund. An action is journaled before it is sent and its
// outcome after; an outcome that is not known (the answer was lost, garbled
// or late, or paydash stopped before it came) is found out — asked again by
// idempotency key, looked up, or the object read — never guessed. Only the
// service's word or what paydash read from it makes an outcome final: a
// refusal is "not done", a lost answer stays "unknown" until it is found out.
//
// Runner.Send sends an action, Runner.Check finds out what became of one,
// Runner.Abandon records that paydash stopped waiting, and Pending rebuilds,
// from the journal at start, the actions whose outcome is still open.
package action

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"paydash/backend"
	"paydash/backend/journal"
	"paydash/backend/money"
	"paydash/backend/textsafe"
)

// Known reports whether a is one of the actions this package can send and
// find out.
func Known(a backend.Action) bool {
	return a == backend.ActionCapture || a == backend.ActionCancelHold || a == backend.ActionRefund
}

// How an outcome became known (Outcome.How, the journal's "how").
const (
	HowAnswered    = "answered"                                  // the service's answer to the action
	HowAskedAgain  = "asked again with the same idempotency key" // v2 refund
	HowLookedUp    = "looked up by its externalID"               // v1 refund
	HowReadPayment = "read the payment"                          // capture, cancel
)

// keyLifetime is how long after a v2 refund was sent asking again with its
// key is still safe: the service keeps keys 24 hours, and a replay after
// that would make a second refund. An hour is left for clocks and delays.
const keyLifetime = 23 * time.Hour

// ErrNotRecorded is wrapped by a NotDone outcome's error when the journal
// could not record the action before it was sent: nothing was sent.
var ErrNotRecorded = errors.New("not sent: the journal could not record the action first")

// Request is one action as the user confirmed it: everything needed to send
// it and, later, to find out what became of it. It is what the journal's
// "sent" line holds.
type Request struct {
	ID             string            // unique per action (backend.NewIdempotencyKey()); every journal line of the action carries it
	Kind           backend.Action    // capture, cancel_hold or refund (Pending may return another kind as written)
	ObjectID       string            // the payment id
	Amount         money.Amount      // what the user confirmed; for a cancel, the hold being released
	Interface      backend.Interface // the interface that carries it (the caller decides: v2 when configured, else v1)
	IdempotencyKey string            // a refund's key (v2 Idempotency-Key, v1 externalID); "" for capture and cancel
	Sent           time.Time         // when the sent line was written
}

// Carrier is the interface that carries b's actions: v2 when it is
// configured, else v1 ("" when b names none). A Request's Interface must be
// it: the outcome of a lost answer is found out through the same interface.
func Carrier(b backend.Backend) backend.Interface {
	ifs := b.Describe().Interfaces
	switch {
	case slices.Contains(ifs, backend.V2):
		return backend.V2
	case slices.Contains(ifs, backend.V1):
		return backend.V1
	}
	return ""
}

// New makes a Request with a fresh ID and, for a refund, a fresh
// idempotency key.
func New(kind backend.Action, objectID string, amount money.Amount, via backend.Interface) Request {
	r := Request{ID: backend.NewIdempotencyKey(), Kind: kind, ObjectID: objectID, Amount: amount, Interface: via}
	if kind == backend.ActionRefund {
		r.IdempotencyKey = backend.NewIdempotencyKey()
	}
	return r
}

// State is what is known of an action's outcome.
type State int

const (
	Done    State = iota + 1 // the service did it
	NotDone                  // the service did not do it: it refused, or it was found that nothing was made
	Unknown                  // no usable answer: not known yet
)

func (s State) String() string {
	switch s {
	case Done:
		return "done"
	case NotDone:
		return "not done"
	case Unknown:
		return "unknown"
	}
	return fmt.Sprintf("State(%d)", int(s))
}

// Outcome is what became of an action, as far as it is known.
type Outcome struct {
	State   State
	Payment backend.Payment // capture and cancel: the payment as read after (when read); a refund: the payment if read (may be zero)
	Refund  backend.Refund  // a refund that was made
	Err     error           // NotDone: the refusal; Unknown: why it is not known
	How     string          // how it is known: HowAnswered, HowAskedAgain, HowLookedUp, HowReadPayment ("" while Unknown)
	// Retry (Unknown only): asking again later may tell. False when it
	// cannot be found out automatically (the interface is not configured,
	// the key has expired, the credentials may not ask): the user must
	// check by hand, and Err says why.
	Retry      bool
	JournalErr error // the outcome line could not be written
}

// Final reports whether the outcome is settled (Done or NotDone).
func (o Outcome) Final() bool { return o.State == Done || o.State == NotDone }

// Describe names the action, lower-case first: "refund of 500.00 RUB for
// payment 43149010".
func Describe(r Request) string {
	id := textsafe.Line(r.ObjectID, 80)
	amt := amountText(r.Amount)
	switch r.Kind {
	case backend.ActionCapture:
		return "capture of " + amt + " for payment " + id
	case backend.ActionCancelHold:
		return "release of the hold of " + amt + " on payment " + id
	case backend.ActionRefund:
		return "refund of " + amt + " for payment " + id
	}
	return fmt.Sprintf("action %q of %s on %s", textsafe.Line(string(r.Kind), 40), amt, id)
}

// Text is the outcome in one sentence for people (toasts, the notice at
// start, the messages view), amounts as money.Amount.Display writes them,
// no trailing period:
//
//	Captured 500.00 RUB of payment 43149010 — now Settled
//	Released the hold of 500.00 RUB on payment 43149010 — now Cancelled
//	Refund 7000123 of 500.00 RUB made for payment 43149010 — Pending
//	Capture of 500.00 RUB for payment 43149010 was refused: <reason>
//	Refund of 500.00 RUB for payment 43149010 was not made: no refund carries its externalID
//	Refund of 500.00 RUB for payment 43149010: outcome unknown — checking (<reason>)
//	Refund of 500.00 RUB for payment 43149010: outcome unknown — <reason>; check the payment by hand
func (o Outcome) Text(r Request) string {
	c := textsafe.Clean
	id := textsafe.Line(r.ObjectID, 80)
	amt := amountText(r.Amount)
	reason := textsafe.Line(backend.Reason(o.Err), 300)
	switch o.State {
	case Done:
		// What the service holds, when the payment was read.
		held := o.Payment.Amount
		if held.Currency == "" {
			held.Currency = r.Amount.Currency
		}
		known := o.Payment.ID != "" && held.Value.IsPositive() && held.Currency == r.Amount.Currency
		switch r.Kind {
		case backend.ActionCapture:
			s := "Captured " + amt + " of payment " + id
			switch {
			case known && r.Amount.Value.IsZero():
				s = "Captured " + amountText(held) + " of payment " + id
			case known && held.Value != r.Amount.Value:
				s = "Captured " + amountText(held) + " of payment " + id + " (" + amt + " was sent)"
			}
			if st := c(string(o.Payment.Status)); st != "" {
				s += " — now " + st
			}
			return s
		case backend.ActionCancelHold:
			if known && r.Amount.Value.IsZero() {
				amt = amountText(held)
			}
			s := "Released the hold of " + amt + " on payment " + id
			if st := c(string(o.Payment.Status)); st != "" {
				s += " — now " + st
			}
			return s
		case backend.ActionRefund:
			s := "Refund "
			if rid := textsafe.Line(o.Refund.ID, 40); rid != "" {
				s += rid + " "
			}
			s += "of " + amt + " made for payment " + id
			if st := c(string(o.Refund.Status)); st != "" {
				s += " — " + st
			}
			return s
		}
		return upperFirst(Describe(r)) + ": done"
	case NotDone:
		switch {
		case errors.Is(o.Err, ErrNotRecorded):
			return upperFirst(Describe(r)) + " was " + reason
		case o.How == "":
			return upperFirst(Describe(r)) + " was not sent: " + reason
		case o.How == HowAnswered:
			return upperFirst(Describe(r)) + " was refused: " + reason
		}
		return upperFirst(Describe(r)) + " was not made: " + reason
	}
	if reason == "" {
		reason = "no answer"
	}
	if !o.Retry {
		return upperFirst(Describe(r)) + ": outcome unknown — " + reason + "; check the payment by hand"
	}
	return upperFirst(Describe(r)) + ": outcome unknown — checking (" + reason + ")"
}

// amountText is an amount for people, or "an unknown amount" for the zero
// one that Pending gives when a journal line's amount cannot be read.
func amountText(a money.Amount) string {
	if a.Value.IsZero() {
		return "an unknown amount"
	}
	return textsafe.Line(a.Display(), 40)
}

func upperFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}

// Runner sends actions and finds out their outcomes, journaling each step.
// It is safe for concurrent use (the journal serialises its lines).
type Runner struct {
	Backend backend.Backend
	Journal *journal.Journal
	Now     func() time.Time // nil = time.Now
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
// key. A request that cannot be sent (no payment, no amount, a refund
// without a key, an Interface other than Carrier's) is NotDone with nothing
// journaled or sent. It returns req with Sent (and, if it was empty, ID) set.
func (r *Runner) Send(ctx context.Context, req Request) (Request, Outcome) {
	if req.ID == "" {
		req.ID = backend.NewIdempotencyKey()
	}
	if err := sendable(req); err != nil {
		return req, Outcome{State: NotDone, Err: err}
	}
	if via := Carrier(r.Backend); via != "" && via != req.Interface {
		// Journaled under the wrong interface, a lost answer would be
		// looked for where it is not.
		return req, Outcome{State: NotDone, Err: fmt.Errorf("paydash sends actions through %s, not %s", via, req.Interface)}
	}
	req.Sent = r.now()
	sent := entryOf(req, journal.PhaseSent)
	sent.Time = req.Sent
	if err := r.Journal.Record(sent); err != nil {
		return req, Outcome{State: NotDone, Err: fmt.Errorf("%w: %w", ErrNotRecorded, err)}
	}

	var (
		o   Outcome
		err error
	)
	switch req.Kind {
	case backend.ActionCapture:
		a := req.Amount
		o.Payment, err = r.Backend.CapturePayment(ctx, backend.CaptureRequest{PaymentID: req.ObjectID, Amount: &a})
	case backend.ActionCancelHold:
		o.Payment, err = r.Backend.CancelPayment(ctx, req.ObjectID)
	case backend.ActionRefund:
		o.Refund, err = r.Backend.RefundPayment(ctx, refundRequest(req))
	}
	switch {
	case err == nil && !moved(req.Kind, o.Payment):
		// "Done", but the payment read after says otherwise: the answer
		// cannot be taken at its word. Reading the payment again settles it.
		o = Outcome{State: Unknown, Retry: true, Payment: o.Payment,
			Err: fmt.Errorf("the service said done, but the payment is %s", textsafe.Line(string(o.Payment.Status), 40))}
	case err == nil:
		o.State, o.How = Done, HowAnswered
	case noAnswer(err):
		o = Outcome{State: Unknown, Err: err, Retry: true}
	default:
		o = Outcome{State: NotDone, Err: err, How: HowAnswered}
	}
	o.JournalErr = r.record(req, o)
	return req, o
}

// moved reports whether the payment an action answered with is where the
// action takes it: a capture Settled, a release Cancelled. A refund's
// answer is the refund itself.
func moved(k backend.Action, p backend.Payment) bool {
	switch k {
	case backend.ActionCapture:
		return p.Status == backend.PaymentSettled
	case backend.ActionCancelHold:
		return p.Status == backend.PaymentCancelled
	}
	return true
}

// sendable refuses a request that cannot be sent or found out later.
func sendable(req Request) error {
	switch {
	case !Known(req.Kind):
		return fmt.Errorf("paydash cannot send the action %q", req.Kind)
	case req.ObjectID == "":
		return errors.New("no payment is named")
	case !req.Amount.Value.IsPositive() || req.Amount.Currency == "":
		return fmt.Errorf("the amount %q is not one that can be sent", req.Amount.String())
	case req.Kind == backend.ActionRefund && req.IdempotencyKey == "":
		// Without a key, a lost answer could never be found out.
		return errors.New("a refund needs an idempotency key")
	case req.Interface != backend.V2 && req.Interface != backend.V1:
		return fmt.Errorf("the interface %q is not one paydash knows", req.Interface)
	}
	return nil
}

func refundRequest(req Request) backend.RefundRequest {
	return backend.RefundRequest{PaymentID: req.ObjectID, Amount: req.Amount, IdempotencyKey: req.IdempotencyKey}
}

// noAnswer reports whether a failure leaves it open what the service did.
func noAnswer(err error) bool {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return true
	}
	switch backend.KindOf(err) {
	case backend.KindUnavailable, backend.KindMalformed, backend.KindUnknown:
		return true
	}
	return false
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

// Check finds out what became of req (an earlier Send whose outcome is
// Unknown, or an action found by Pending at start) and journals a final line
// ("done" or "failed", with how it was learned) when it is known; nothing
// when it is still unknown.
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
// A NotDone learned by reading (the payment, a v1 lookup) is the service's
// state when it was asked: call Check only after Send has returned, and
// against a real service give a request that may still be on its way a few
// seconds first. Asking again by v2 key has no such window.
func (r *Runner) Check(ctx context.Context, req Request) Outcome {
	o := r.check(ctx, req)
	if o.Final() {
		o.JournalErr = r.record(req, o)
	}
	return o
}

func (r *Runner) check(ctx context.Context, req Request) Outcome {
	switch req.Kind {
	case backend.ActionCapture:
		return r.checkPayment(ctx, req, backend.PaymentSettled)
	case backend.ActionCancelHold:
		return r.checkPayment(ctx, req, backend.PaymentCancelled)
	case backend.ActionRefund:
		return r.checkRefund(ctx, req)
	}
	return Outcome{State: Unknown, Err: fmt.Errorf("paydash does not know the action %q, so it cannot find out what became of it",
		textsafe.Line(string(req.Kind), 40))}
}

// checkPayment reads the payment of a capture (want Settled) or a cancel
// (want Cancelled).
func (r *Runner) checkPayment(ctx context.Context, req Request, want backend.PaymentStatus) Outcome {
	p, err := r.Backend.GetPayment(ctx, req.ObjectID)
	if err != nil {
		return Outcome{State: Unknown, Err: err, Retry: !cannotAsk(err) && backend.KindOf(err) != backend.KindNotFound}
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

func (r *Runner) checkRefund(ctx context.Context, req Request) Outcome {
	switch {
	case !req.Amount.Value.IsPositive():
		return Outcome{State: Unknown, Err: errors.New("its amount is not known (the journal line could not be read)")}
	case req.IdempotencyKey == "":
		return Outcome{State: Unknown, Err: errors.New("it has no idempotency key to find it by")}
	case req.Interface == backend.V2 && (req.Sent.IsZero() || r.now().Sub(req.Sent) > keyLifetime):
		when := "at a time the journal does not say"
		if !req.Sent.IsZero() {
			when = req.Sent.Local().Format("2006-01-02 15:04") + ", more than 23 hours ago"
		}
		return Outcome{State: Unknown, Err: fmt.Errorf("it was sent %s, and the service keeps idempotency keys only 24 hours: "+
			"asking again could make a second refund", when)}
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
// "refund 7000123 Pending".
func result(req Request, o Outcome) string {
	switch req.Kind {
	case backend.ActionRefund:
		return strings.TrimSpace("refund " + textsafe.Line(o.Refund.ID, 60) + " " + textsafe.Line(string(o.Refund.Status), 40))
	case backend.ActionCapture:
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
	return textsafe.Line(string(o.Payment.Status), 40)
}

// entryOf is req as a journal line of phase.
func entryOf(req Request, phase string) journal.Entry {
	return journal.Entry{
		Action: string(req.Kind), Phase: phase, ObjectID: req.ObjectID,
		Amount: req.Amount.Value.StringFixed(money.Decimals(req.Amount.Currency)), Currency: req.Amount.Currency,
		Interface: string(req.Interface), IdempotencyKey: req.IdempotencyKey, ActionID: req.ID,
	}
}

// Pending returns the actions of a journal's entries that have no final
// line, oldest first, rebuilt from their "sent" lines. An action whose
// later lines are only unknown or abandoned is pending; one with any done
// or failed line is resolved, whatever the order of its lines.
//
// Lines without an actionId come from older versions of paydash: a sent
// line is resolved by a later done or failed line with the same action,
// objectId and idempotencyKey (the oldest open one first). Such an action,
// when pending, gets an ID made from its sent line, the same at every
// start, so that the final line Check writes under it resolves it next
// time.
//
// A sent line whose amount cannot be read or whose kind is unknown is
// still returned (the kind as written, the amount zero) so that it is
// reported, not silently dropped; Check then says it cannot be found out.
func Pending(entries []journal.Entry) []Request {
	type action struct {
		req      Request
		fromSent bool // req was rebuilt from the sent line
		old      bool // journaled by an older paydash, without actionId
		final    bool
	}
	var (
		byID    = map[string]*action{}
		order   []*action
		oldByID = map[string]*action{}
		oldOpen = map[[3]string][]*action{} // older paydash: sent lines not yet resolved, by action, object and key
	)
	for _, e := range entries {
		if e.ActionID == "" {
			key := [3]string{e.Action, e.ObjectID, e.IdempotencyKey}
			switch {
			case e.Phase == journal.PhaseSent:
				a := &action{req: requestOf(e), fromSent: true, old: true}
				a.req.ID = oldID(e)
				oldByID[a.req.ID] = a
				order = append(order, a)
				oldOpen[key] = append(oldOpen[key], a)
			case journal.Final(e.Phase):
				if open := oldOpen[key]; len(open) > 0 {
					open[0].final = true
					oldOpen[key] = open[1:]
				}
			}
			continue
		}
		a := byID[e.ActionID]
		if a == nil {
			// Usually the sent line; if that is missing (a torn line), the
			// action is rebuilt from the first line it has, and when it
			// was sent is not known.
			a = &action{req: requestOf(e), fromSent: e.Phase == journal.PhaseSent}
			if !a.fromSent {
				a.req.Sent = time.Time{}
			}
			byID[e.ActionID] = a
			order = append(order, a)
		} else if e.Phase == journal.PhaseSent && !a.fromSent {
			a.req, a.fromSent = requestOf(e), true // the sent line came after another line
		}
		if journal.Final(e.Phase) {
			a.final = true
		}
	}
	var out []Request
	for _, a := range order {
		switch {
		case !a.old && oldByID[a.req.ID] != nil:
			continue // lines written under an older action's made ID belong to it
		case a.final:
			continue
		case a.old && byID[a.req.ID] != nil && byID[a.req.ID].final:
			continue // resolved by a line written under its made ID
		}
		out = append(out, a.req)
	}
	return out
}

// requestOf rebuilds a request from one of its journal lines.
func requestOf(e journal.Entry) Request {
	r := Request{
		ID: e.ActionID, Kind: backend.Action(e.Action), ObjectID: e.ObjectID, Interface: backend.Interface(e.Interface),
		IdempotencyKey: e.IdempotencyKey, Sent: e.Time,
		Amount: money.Amount{Currency: e.Currency},
	}
	if v, err := money.Parse(strings.TrimSpace(e.Amount)); err == nil {
		r.Amount.Value = v
	}
	return r
}

// oldID is the ID of an action journaled by an older paydash, made from its
// sent line so that it is the same at every start.
func oldID(e journal.Entry) string {
	h := sha256.Sum256([]byte(strings.Join([]string{e.Time.UTC().Format(time.RFC3339Nano), e.Action, e.ObjectID,
		e.Amount, e.Currency, e.Interface, e.IdempotencyKey}, "\x00")))
	return "old-" + hex.EncodeToString(h[:12])
}
