// Package action is the life cycle of an action that changes the service: a
// capture, a release of a hold, a refund, the revocation of a saved card
// (token), switching a sticker on or off, and the making of a payment link
// (invoice), a sticker or a card-saving (tokenization) link. An action is
// journaled before it is sent and its outcome after; an outcome that is not
// known (the answer was lost, garbled or late, or paydash stopped before it
// came) is found out — asked again by idempotency key, looked up, or the
// object read — never guessed. Only the service's word or what paydash read
// from it makes an outcome final: a refusal is "not done", a lost answer
// stays "unknown" until it is found out.
//
// Runner.Send sends an action, Runner.Check finds out what became of one,
// Runner.Abandon records that paydash stopped waiting, and Pending rebuilds,
// from the journal at start, the actions whose outcome is still open.
package action

import (
	"context"
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

// v2Only reports whether a exists only in the current interface (v2):
// tokens, stickers and links are not in the legacy one.
func v2Only(a backend.ActionName) bool {
	k, ok := Lookup(a)
	return ok && k.V2Only()
}

// How an outcome became known (Outcome.How, the journal's "how").
const (
	HowAnswered    = "answered"                                  // the service's answer to the action
	HowAskedAgain  = "asked again with the same idempotency key" // v2 refund, every create
	HowLookedUp    = "looked up by its externalID"               // v1 refund
	HowReadPayment = "read the payment"                          // capture, cancel
	HowReadToken   = "read the token"                            // revoke
	HowReadSticker = "read the sticker"                          // toggle
)

// keyLifetime is how long after a v2 refund or create was sent asking again
// with its key is still safe: the service keeps keys 24 hours, and a replay
// after that would make a second refund (link, sticker). An hour is left
// for clocks and delays.
const keyLifetime = 23 * time.Hour

// ErrNotRecorded is wrapped by a NotDone outcome's error when the journal
// could not record the action before it was sent: nothing was sent.
var ErrNotRecorded = errors.New("not sent: the journal could not record the action first")

// Request is one action as the user confirmed it: everything needed to send
// it and, later, to find out what became of it. It is what the journal's
// "sent" line holds. Make one with New (capture, cancel, refund), NewRevoke,
// NewToggle, NewCreateInvoice, NewCreateSticker or NewCreateTokenization.
type Request struct {
	ID   string             // unique per action (backend.NewIdempotencyKey()); every journal line of the action carries it
	Kind backend.ActionName // one of backend.Actions (Pending may return another kind as written)
	// ObjectID is what the action works on: the payment (capture, cancel,
	// refund), the token (revoke), the sticker (toggle); "" for a create,
	// whose object does not exist yet (the outcome names it).
	ObjectID string
	// Amount is what the user confirmed: for a cancel, the hold being
	// released; for a payment link or a sticker, its amount (the same as
	// Invoice.Amount or Sticker.Amount); zero for a revoke, a toggle and a
	// card-saving link.
	Amount    money.Amount
	Interface backend.Interface // the interface that carries it (the caller decides: v2 when configured, else v1); tokens, stickers and links: v2 only
	// IdempotencyKey is a refund's key (v2 Idempotency-Key, v1 externalID)
	// or a create's (the same as the key in Invoice, Sticker or
	// Tokenization); "" for capture, cancel, revoke and toggle.
	IdempotencyKey string
	Sent           time.Time // when the sent line was written
	Active         bool      // toggle: the state the sticker is switched to (true: on, Active)
	// What a create sends, the one of its kind (the others are zero). The
	// journal holds all of it, so that after a restart the very same
	// request can be sent again under its key.
	Invoice      backend.InvoiceLinkRequest      // create_invoice_link
	Sticker      backend.StickerRequest          // create_sticker
	Tokenization backend.TokenizationLinkRequest // create_tokenization_link

	// Service is the service the action was sent to, as its journal lines
	// name it: Send sets it (the journal's service for the interface), and
	// Pending reads it back. Check finds out only an action of a service
	// the journal was opened for; zero for a line of an older paydash.
	Service journal.Service

	// unread says why Pending could not rebuild the whole request from the
	// journal (a toggle's state, a create's parameters missing or
	// unreadable): Check then says it cannot find it out.
	unread string
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
// idempotency key. It is for the actions on a payment (capture, cancel,
// refund); the others have their own constructors.
func New(kind backend.ActionName, objectID string, amount money.Amount, via backend.Interface) Request {
	r := Request{ID: backend.NewIdempotencyKey(), Kind: kind, ObjectID: objectID, Amount: amount, Interface: via}
	if k, ok := Lookup(kind); ok {
		if keyed, ok := k.(interface{ keyed() bool }); ok && keyed.keyed() {
			r.IdempotencyKey = backend.NewIdempotencyKey()
		}
	}
	return r
}

func keyOr(key string) string {
	if key == "" {
		return backend.NewIdempotencyKey()
	}
	return key
}

// withKey is req as its kind journals and sends it (Kind.Prepare): a
// create's request under req.IdempotencyKey.
func withKey(req Request) Request { return KindOf(req.Kind).Prepare(req) }

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
	State        State
	Payment      backend.Payment          // capture and cancel: the payment as read after (when read); a refund: the payment if read (may be zero)
	Refund       backend.Refund           // a refund that was made
	Token        backend.Token            // revoke: the token as answered or read
	Sticker      backend.Sticker          // toggle: the sticker as answered or read; create_sticker: the sticker made
	Invoice      backend.InvoiceLink      // create_invoice_link: the payment made and its page
	Tokenization backend.TokenizationLink // create_tokenization_link: the token being made and its page
	Err          error                    // NotDone: the refusal; Unknown: why it is not known
	// How it is known: HowAnswered, HowAskedAgain, HowLookedUp,
	// HowReadPayment, HowReadToken, HowReadSticker ("" while Unknown).
	How string
	// Retry (Unknown only): asking again later may tell. False when it
	// cannot be found out automatically (the interface is not configured,
	// the key has expired, the credentials may not ask): the user must
	// check by hand, and Err says why.
	Retry      bool
	JournalErr error // the outcome line could not be written
}

// Final reports whether the outcome is settled (Done or NotDone).
func (o Outcome) Final() bool { return o.State == Done || o.State == NotDone }

// Describe names the action, lower-case first:
//
//	refund of 500.00 RUB for payment 43149010
//	revoke of token 5f0c2a
//	switch-off of sticker 7000123
//	payment link for 1,500.00 RUB (order A-17)
//	sticker "Coffee 0.3" for 150.00 RUB
//	card-saving link for customer account 42
func Describe(r Request) string { return KindOf(r.Kind).Describe(r) }

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
//	Revoked token 5f0c2a (Visa *1111) — now Revoked
//	Revoke of token 5f0c2a was not made: the token is still Active
//	Sticker 7000123 switched off — now Inactive
//	Payment link for 1,500.00 RUB (order A-17) made: payment 43149999, https://pay.example/pay/43149999
//	Sticker "Coffee 0.3" for 150.00 RUB made: sticker 7000124, https://qr.nspk.ru/AS1… — Active
//	Card-saving link for customer account 42 made: token 9000031, https://pay.example/tokenize/9000031
//	Payment link for 1,500.00 RUB: outcome unknown — checking (<reason>)
func (o Outcome) Text(r Request) string {
	reason := textsafe.Line(backend.Reason(o.Err), 300)
	switch o.State {
	case Done:
		return KindOf(r.Kind).DoneText(r, o)
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
		return upperFirst(Describe(r)) + ": outcome unknown — " + reason + "; check " + Where(r.Kind) + " by hand"
	}
	return upperFirst(Describe(r)) + ": outcome unknown — checking (" + reason + ")"
}

// Where is what to check by hand when the outcome of an action of kind k
// cannot be found out: "the payment", "the token", "the merchant's stickers"…
func Where(k backend.ActionName) string { return KindOf(k).Where() }

// heldOf is what the service holds of a capture's or a release's payment,
// known when the payment was read and holds an amount in the currency
// sent.
func heldOf(r Request, o Outcome) (money.Amount, bool) {
	held := o.Payment.Amount
	if held.Currency == "" {
		held.Currency = r.Amount.Currency
	}
	return held, o.Payment.ID != "" && held.Value.IsPositive() && held.Currency == r.Amount.Currency
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
// key, a revoke ends the token, a toggle sets the sticker to req.Active, and
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

// entryOf is req as a journal line of phase. Every line of an action holds
// the whole request, its parameters too (Params), so that it can be rebuilt
// from any of them.
func entryOf(req Request, phase string) journal.Entry {
	e := journal.Entry{
		Action: string(req.Kind), Phase: phase, ObjectID: req.ObjectID,
		Amount: req.Amount.Value.StringFixed(money.Decimals(req.Amount.Currency)), Currency: req.Amount.Currency,
		Interface: string(req.Interface), IdempotencyKey: req.IdempotencyKey, ActionID: req.ID,
	}
	if v2Only(req.Kind) && req.Amount == (money.Amount{}) {
		e.Amount = "" // a revoke, a toggle, a card-saving link: no amount
	}
	if !req.Service.IsZero() {
		s := req.Service // every line of an action names the service of its sent line
		e.Service = &s
	}
	// Send has checked that the parameters encode: nothing is sent otherwise.
	e.Params, _ = params(req)
	return e
}

// Pending returns the actions of a journal's entries that have no final
// line, oldest first, rebuilt from their "sent" lines, each with the
// service its line names (PendingHere splits them by service). An action whose
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
// A toggle's state and a create's request are rebuilt from the line's
// params. A sent line whose amount or params cannot be read (or has none:
// a line of an older paydash) or whose kind is unknown is still returned
// (the kind as written, the amount zero) so that it is reported, not
// silently dropped; Check then says it cannot be found out.
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
		ID: e.ActionID, Kind: backend.ActionName(e.Action), ObjectID: e.ObjectID, Interface: backend.Interface(e.Interface),
		IdempotencyKey: e.IdempotencyKey, Sent: e.Time,
		Amount: money.Amount{Currency: e.Currency},
	}
	if v, err := money.Parse(strings.TrimSpace(e.Amount)); err == nil {
		r.Amount.Value = v
	}
	if e.Service != nil {
		r.Service = *e.Service
	}
	readParams(e.Params, &r)
	return r
}

// oldID is the ID of an action journaled by an older paydash, made from its
// sent line so that it is the same at every start (journal.LegacyID, which
// the journal's own reading of open actions uses too).
func oldID(e journal.Entry) string { return journal.LegacyID(e) }
