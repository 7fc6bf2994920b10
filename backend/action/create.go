package action

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"paydash/backend/money"
	"paydash/backend/textsafe"
)

// What the three creates (invoice.go, sticker.go, tokenization.go) share:
// each is sent through v2 under an idempotency key, the same in the
// request as in the journal, and found out by sending it again with that
// key and the same body.

// validateCreate refuses a create without a merchant or a key, with two
// different keys, or (amount non-nil: a payment link, a sticker) without
// an amount that can be sent or with a journal amount other than it.
func validateCreate(req Request, merchant, key string, amount *money.Amount) error {
	if amount != nil && !sendableAmount(*amount) {
		return fmt.Errorf("the amount %q is not one that can be sent", amount.String())
	}
	switch {
	case merchant == "":
		return errors.New("no merchant is named")
	case req.IdempotencyKey == "":
		// Without a key, a lost answer could never be found out, and
		// sending it again could make a second one.
		return errors.New("a create needs an idempotency key")
	case key != "" && key != req.IdempotencyKey:
		return errors.New("the request carries two different idempotency keys")
	case amount != nil && req.Amount != *amount:
		// The journal's amount is the one that is sent.
		return fmt.Errorf("the amount %q is not the one to be sent (%s)", req.Amount.String(), amount.String())
	}
	return nil
}

// linkMaker is what the two kinds that make a link (invoice.go,
// tokenization.go) share: a v2-only create that acts on no existing
// object, makes one with a page, and is found out by sending it again.
type linkMaker struct {
	Base
	object string // the type of what it makes, as ObjectRef names it: "payment", "token"
	link   string // what it is called in a replay's warning: "payment link"
	where  string // where what it made is listed
	// made is the ID and the page of what an outcome says was made.
	made func(Outcome) (id, url string)
}

func (linkMaker) V2Only() bool                    { return true }
func (linkMaker) Locks(Request) (ObjectRef, bool) { return ObjectRef{}, false }
func (l linkMaker) Where() string                 { return l.where }

func (l linkMaker) DoneText(r Request, o Outcome) string {
	id, url := l.made(o)
	return madeText(r, l.object, id, url)
}

func (l linkMaker) Check(ctx context.Context, r *Runner, req Request) Outcome {
	return checkCreate(ctx, r, KindOf(req.Kind), req, l.link)
}

// Result is what was made and its page: "payment 43149999 https://…".
func (l linkMaker) Result(_ Request, o Outcome) string {
	id, url := l.made(o)
	return createdResult(l.object, id, 60, url, 500)
}

func (l linkMaker) Made(_ Request, o Outcome) (ObjectRef, bool) {
	id, _ := l.made(o)
	return ObjectRef{l.object, id}, true
}

// checkCreate sends a create of kind k again with the same key and body;
// what names what a replay after the key expired could make a second of.
func checkCreate(ctx context.Context, r *Runner, k Kind, req Request, what string) Outcome {
	if req.IdempotencyKey == "" {
		return Outcome{State: Unknown, Err: errors.New("it has no idempotency key to find it by")}
	}
	if why := r.expired(req, what); why != "" {
		return Outcome{State: Unknown, Err: errors.New(why)}
	}
	o, err := k.Send(ctx, r, k.Prepare(req))
	switch {
	case err == nil:
		o.State, o.How = Done, HowAskedAgain
		return o
	case noAnswer(err):
		return Outcome{State: Unknown, Err: err, Retry: true}
	case cannotAsk(err):
		// Not the service's word: paydash could not ask (the key was used
		// with another body, the credentials may not, v2 is not configured).
		return Outcome{State: Unknown, Err: err}
	}
	// The service refused the request under the key (the first time, whose
	// answer it repeats, or now): nothing was made with it.
	return Outcome{State: NotDone, Err: err, How: HowAskedAgain}
}

// madeText is a create's DoneText: its description and what it made.
func madeText(r Request, what, id, link string) string {
	return upperFirst(KindOf(r.Kind).Describe(r)) + " made" + made(what, id, link)
}

// made is what a create made, for DoneText: ": payment 43149999, https://…"
// ("" when the answer named nothing).
func made(what, id, link string) string {
	var parts []string
	if id = textsafe.Line(id, 60); id != "" {
		parts = append(parts, what+" "+id)
	}
	if link = textsafe.Line(link, 500); link != "" {
		parts = append(parts, link)
	}
	if len(parts) == 0 {
		return ""
	}
	return ": " + strings.Join(parts, ", ")
}

// createdResult is a create's journal result: "payment 43149999 https://…".
func createdResult(what, id string, maxID int, rest string, maxRest int) string {
	return strings.TrimSpace(what + " " + textsafe.Line(id, maxID) + " " + textsafe.Line(rest, maxRest))
}

// groupAmount is an amount as the result dialog shows it: "1,500.00 RUB".
func groupAmount(a money.Amount) string {
	s := money.Group(a.Value, a.Currency)
	if a.Currency != "" {
		s += " " + textsafe.Clean(a.Currency)
	}
	return s
}
