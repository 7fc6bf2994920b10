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
	"errors"
	"fmt"
	"slices"
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
	// the one in its Params); zero for a revoke, a toggle and a
	// card-saving link.
	Amount    money.Amount
	Interface backend.Interface // the interface that carries it (the caller decides: v2 when configured, else v1); tokens, stickers and links: v2 only
	// IdempotencyKey is a refund's key (v2 Idempotency-Key, v1 externalID)
	// or a create's (the same as the key in its Params); "" for capture,
	// cancel, revoke and toggle.
	IdempotencyKey string
	Sent           time.Time // when the sent line was written
	// Params is what the kind sends beyond the object and the amount, in
	// the kind's own type, which its file names (a create's request, the
	// state a toggle sets; ParamsOf reads it); nil for the kinds that need
	// none. The journal holds it (Kind.Params), so that after a restart the
	// very same request can be sent again under its key.
	Params any

	// Service is the service the action was sent to, as its journal lines
	// name it: Send sets it (the journal's service for the interface), and
	// Pending reads it back. Check finds out only an action of a service
	// the journal was opened for; zero for a line of an older paydash.
	Service journal.Service

	// Person is who confirmed or asked for the action; Approver and
	// ApproverKey, for an action sent after a supervisor approved it, who
	// approved it and the fingerprint of the SSH key they came in with
	// (docs/approvals.md). Every journal line of the action names them, and
	// Pending reads them back; empty in the single-user paydash.
	Person, Approver, ApproverKey string

	// unread says why Pending could not rebuild the whole request from the
	// journal (a toggle's state, a create's parameters missing or
	// unreadable): Check then says it cannot find it out.
	unread string
}

// ParamsOf is req's Params as the kind's type P; P's zero value when it
// holds another (a request of another kind).
func ParamsOf[P any](req Request) P {
	p, _ := req.Params.(P)
	return p
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
