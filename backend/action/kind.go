package action

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"paydash/backend"
	"paydash/backend/textsafe"
)

// Kind is one kind of action: everything paydash does differently for a
// capture, a refund, a revoke… Each kind is one file of this package
// (capture.go, cancel.go, refund.go, revoke.go, toggle.go, invoice.go,
// sticker.go, tokenization.go) and is registered in one table (Register);
// the Runner, the journal and the views ask a request's kind (KindOf)
// rather than switch on its name. Embed Base for the methods most kinds
// leave as they are.
type Kind interface {
	// Action is the kind's name: the journal's "action", the capability
	// asked of the backend (backend.Backend.Can).
	Action() backend.ActionName
	// V2Only reports whether the kind exists only in the current interface
	// (v2): a request through v1 is refused.
	V2Only() bool
	// Validate refuses a request of this kind that cannot be sent or found
	// out later (no object, no amount, no key…); nil when it can be.
	Validate(req Request) error
	// Prepare is req as it is journaled and sent (a create's request under
	// req.IdempotencyKey).
	Prepare(req Request) Request

	// Describe names the action before its outcome, lower-case first
	// ("refund of 500.00 RUB for payment 43149010").
	Describe(req Request) string
	// DoneText is the outcome in one sentence once it is done
	// ("Refund 7000123 of 500.00 RUB made for payment 43149010 — Pending").
	DoneText(req Request, o Outcome) string
	// Where is what to check by hand when the outcome cannot be found out
	// ("the payment", "the merchant's stickers").
	Where() string
	// Doing is what a row shows while the action is sent on its object
	// ("refunding"); "" for the kinds that act on no shown row.
	Doing() string

	// Send sends req through r.Backend; the outcome's State and How are the
	// Runner's to set.
	Send(ctx context.Context, r *Runner, req Request) (Outcome, error)
	// Denied says how the object an answer of done came with denies that
	// the action was done ("" when it does not).
	Denied(req Request, o Outcome) string
	// Check finds out what became of req, whose outcome is not known: the
	// object read, or the request asked again under its key. The Runner
	// has checked the service, the interface and the params first.
	Check(ctx context.Context, r *Runner, req Request) Outcome

	// Result is what the journal's "done" line says the service did
	// ("refund 7000123 Pending").
	Result(req Request, o Outcome) string
	// Params is what the journal's lines hold of req besides their fixed
	// fields (nil: none); ReadParams puts them back into a request rebuilt
	// from a line, or says why it cannot.
	Params(req Request) any
	ReadParams(raw json.RawMessage, req *Request) error

	// Locks is the object the action acts on, on which no second action
	// may start while it is under way; false for a create.
	Locks(req Request) (ObjectRef, bool)
	// Made is the object the action makes (its ID "" when the outcome
	// names none yet); false for a kind that makes none.
	Made(req Request, o Outcome) (ObjectRef, bool)
	// TokenAfter is the token a done action leaves, for the tokens paydash
	// knows: the one it revoked, as answered or read (made false), or the
	// one it made (made true); ok false when it is about no token.
	TokenAfter(req Request, o Outcome) (tok backend.Token, made, ok bool)
	// Created is what the result dialog of a create shows; false when the
	// kind has none.
	Created(req Request, o Outcome) (Created, bool)
}

// The types of ObjectRef.
const (
	ObjectPayment = "payment"
	ObjectRefund  = "refund"
	ObjectToken   = "token"
	ObjectSticker = "sticker"
)

// ObjectRef names an object of the service: ids of different types may
// look alike.
type ObjectRef struct {
	Type string // ObjectPayment, ObjectRefund, ObjectToken, ObjectSticker
	ID   string
}

// Created is the result dialog of a create: its title, the address it made
// (shown with its QR code; no dialog without one) and what else it made.
type Created struct {
	Title string
	Link  string
	Facts []string
}

var registry = struct {
	sync.RWMutex
	kinds map[backend.ActionName]Kind
}{kinds: map[backend.ActionName]Kind{}}

// Register adds k to the kinds paydash can send and find out, under
// k.Action(); it panics when that name is taken. The kinds of this package
// register themselves; a test may register one of its own.
func Register(k Kind) {
	registry.Lock()
	defer registry.Unlock()
	if _, ok := registry.kinds[k.Action()]; ok {
		panic(fmt.Sprintf("action: kind %q registered twice", k.Action()))
	}
	registry.kinds[k.Action()] = k
	if k.V2Only() {
		backend.MarkV2Only(k.Action())
	}
}

// Lookup is the registered kind a, false when there is none.
func Lookup(a backend.ActionName) (Kind, bool) {
	registry.RLock()
	defer registry.RUnlock()
	k, ok := registry.kinds[a]
	return k, ok
}

// KindOf is the kind a: the registered one, or, for a name no kind has (a
// journal line of a newer paydash), one that describes it and can neither
// be sent nor found out.
func KindOf(a backend.ActionName) Kind {
	if k, ok := Lookup(a); ok {
		return k
	}
	return unknownKind{name: a}
}

// Known reports whether a is one of the actions this package can send and
// find out: a registered kind (every backend.ActionName).
func Known(a backend.ActionName) bool {
	_, ok := Lookup(a)
	return ok
}

// Base is the methods a kind may leave as they are: any interface, the
// request as given, no row mark, an answer taken at its word, no params,
// nothing made, no token, no result dialog.
type Base struct{}

func (Base) V2Only() bool                               { return false }
func (Base) Prepare(req Request) Request                { return req }
func (Base) Doing() string                              { return "" }
func (Base) Denied(Request, Outcome) string             { return "" }
func (Base) Params(Request) any                         { return nil }
func (Base) ReadParams(json.RawMessage, *Request) error { return nil }
func (Base) Made(Request, Outcome) (ObjectRef, bool)    { return ObjectRef{}, false }
func (Base) TokenAfter(Request, Outcome) (backend.Token, bool, bool) {
	return backend.Token{}, false, false
}
func (Base) Created(Request, Outcome) (Created, bool) { return Created{}, false }

// unknownKind is a kind no registered kind has: it is reported, never sent
// or found out.
type unknownKind struct {
	Base
	name backend.ActionName
}

func (k unknownKind) Action() backend.ActionName { return k.name }

func (k unknownKind) Validate(Request) error {
	return fmt.Errorf("paydash cannot send the action %q", k.name)
}

func (k unknownKind) Describe(r Request) string {
	return fmt.Sprintf("action %q of %s on %s", textsafe.Line(string(r.Kind), 40), amountText(r.Amount),
		textsafe.Line(r.ObjectID, 80))
}

func (k unknownKind) DoneText(r Request, _ Outcome) string {
	return upperFirst(k.Describe(r)) + ": done"
}
func (unknownKind) Where() string { return "the payment" }

func (k unknownKind) Send(context.Context, *Runner, Request) (Outcome, error) {
	return Outcome{}, fmt.Errorf("paydash cannot send the action %q", k.name)
}

func (k unknownKind) Check(context.Context, *Runner, Request) Outcome {
	return Outcome{State: Unknown, Err: fmt.Errorf("paydash does not know the action %q, so it cannot find out what became of it",
		textsafe.Line(string(k.name), 40))}
}

func (unknownKind) Result(_ Request, o Outcome) string {
	return textsafe.Line(string(o.Payment.Status), 40)
}
func (unknownKind) Locks(Request) (ObjectRef, bool) { return ObjectRef{}, false }
