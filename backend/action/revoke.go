package action

import (
	"context"
	"errors"
	"fmt"

	"paydash/backend"
	"paydash/backend/textsafe"
)

// revokeToken ends a saved card (token): it can no longer be charged.
type revokeToken struct{ Base }

func init() { Register(revokeToken{}) }

// NewRevoke makes the revocation of the token tokenID, with a fresh ID. via
// must be v2 (Send refuses v1: tokens are not in the legacy interface).
func NewRevoke(tokenID string, via backend.Interface) Request {
	return Request{ID: backend.NewIdempotencyKey(), Kind: backend.ActionRevokeToken, ObjectID: tokenID, Interface: via}
}

func (revokeToken) Action() backend.ActionName { return backend.ActionRevokeToken }
func (revokeToken) V2Only() bool               { return true }

func (revokeToken) Validate(req Request) error {
	if req.ObjectID == "" {
		return errors.New("no token is named")
	}
	return nil
}

func (revokeToken) Describe(r Request) string {
	return "revoke of token " + textsafe.Line(r.ObjectID, 80)
}

func (revokeToken) DoneText(r Request, o Outcome) string {
	s := "Revoked token " + textsafe.Line(r.ObjectID, 80)
	if t := textsafe.Line(o.Token.Title, 60); t != "" {
		s += " (" + t + ")"
	}
	if st := textsafe.Line(string(o.Token.Status), 40); st != "" {
		s += " — now " + st
	}
	return s
}

func (revokeToken) Where() string { return "the token" }
func (revokeToken) Doing() string { return "revoking" }

func (revokeToken) Send(ctx context.Context, r *Runner, req Request) (o Outcome, err error) {
	o.Token, err = r.Backend.RevokeToken(ctx, req.ObjectID)
	return o, err
}

func (revokeToken) Denied(_ Request, o Outcome) string {
	if o.Token.Status != backend.TokenRevoked {
		return "the token is " + textsafe.Line(string(o.Token.Status), 40)
	}
	return ""
}

// Check reads the token. Still Active is "not done", as a capture whose
// payment is still Authorized is: the revoke had not landed when the token
// was read (see Runner.Check on a request still in flight).
func (revokeToken) Check(ctx context.Context, r *Runner, req Request) Outcome {
	if req.ObjectID == "" {
		return Outcome{State: Unknown, Err: errors.New("its journal line names no token or sticker")}
	}
	t, err := r.Backend.GetToken(ctx, req.ObjectID)
	if err != nil {
		return unreadable(err)
	}
	o := Outcome{Token: t, How: HowReadToken}
	switch t.Status {
	case backend.TokenRevoked:
		o.State = Done
	case backend.TokenActive:
		o.State, o.Err = NotDone, errors.New("the token is still Active")
	case backend.TokenCreated, backend.TokenDeclined:
		// Only an Active token can be revoked, and these never were.
		o.State, o.Err = NotDone, fmt.Errorf("the token is %s; only an Active token can be revoked", t.Status)
	default:
		return Outcome{State: Unknown, Token: t,
			Err: fmt.Errorf("the token is %q, a state paydash does not know", textsafe.Line(string(t.Status), 40))}
	}
	return o
}

// Result is the token's status: "Revoked".
func (revokeToken) Result(_ Request, o Outcome) string {
	return textsafe.Line(string(o.Token.Status), 40)
}

func (revokeToken) Locks(req Request) (ObjectRef, bool) {
	return ObjectRef{ObjectToken, req.ObjectID}, true
}

// TokenAfter is the token as answered or read, Revoked when the answer
// named no status.
func (revokeToken) TokenAfter(req Request, o Outcome) (backend.Token, bool, bool) {
	tok := o.Token
	tok.ID = req.ObjectID
	if tok.Status == "" {
		tok.Status = backend.TokenRevoked
	}
	return tok, false, true
}
