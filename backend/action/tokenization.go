package action

import (
	"context"
	"encoding/json"

	"paydash/backend"
	"paydash/backend/textsafe"
)

// createTokenization makes a card-saving (tokenization) link: a token,
// Created until the customer saves a card on its page.
type createTokenization struct{ linkMaker }

func init() {
	Register(createTokenization{linkMaker{object: ObjectToken, link: "card-saving link", where: "the merchant's tokens",
		made: func(o Outcome) (string, string) { return o.Tokenization.TokenID, o.Tokenization.URL }}})
}

// tokenizationParams is a card-saving link's journal params: everything
// its request sends but the idempotency key.
type tokenizationParams struct {
	MerchantID      string `json:"merchantId"`
	Purpose         string `json:"purpose,omitempty"`
	CustomerAccount string `json:"customerAccount,omitempty"`
	CustomerEmail   string `json:"customerEmail,omitempty"`
	ReturnURL       string `json:"returnUrl,omitempty"`
	CallbackURL     string `json:"callbackUrl,omitempty"`
}

func (p *tokenizationParams) merchant() string { return p.MerchantID }

// NewCreateTokenization makes a card-saving (tokenization) link, sent
// through v2, with a fresh ID and, when req has none, a fresh idempotency
// key.
func NewCreateTokenization(req backend.TokenizationLinkRequest) Request {
	req.IdempotencyKey = keyOr(req.IdempotencyKey)
	return Request{ID: backend.NewIdempotencyKey(), Kind: backend.ActionCreateTokenization,
		Interface: backend.V2, IdempotencyKey: req.IdempotencyKey, Params: req}
}

// tokenizationOf is the card-saving link a request makes (its Params).
func tokenizationOf(req Request) backend.TokenizationLinkRequest {
	return ParamsOf[backend.TokenizationLinkRequest](req)
}

func (createTokenization) Action() backend.ActionName { return backend.ActionCreateTokenization }

func (createTokenization) Validate(req Request) error {
	p := tokenizationOf(req)
	return validateCreate(req, p.MerchantID, p.IdempotencyKey, nil)
}

func (createTokenization) Prepare(req Request) Request {
	tk := tokenizationOf(req)
	tk.IdempotencyKey = req.IdempotencyKey
	req.Params = tk
	return req
}

func (createTokenization) Describe(r Request) string {
	s := "card-saving link"
	switch t := tokenizationOf(r); {
	case t.CustomerAccount != "":
		s += " for customer account " + textsafe.Line(t.CustomerAccount, 60)
	case t.CustomerEmail != "":
		s += " for " + textsafe.Line(t.CustomerEmail, 60)
	}
	return s
}

func (createTokenization) Send(ctx context.Context, r *Runner, req Request) (o Outcome, err error) {
	o.Tokenization, err = r.Backend.CreateTokenizationLink(ctx, tokenizationOf(req))
	return o, err
}

func (createTokenization) Params(req Request) any {
	t := tokenizationOf(req)
	return tokenizationParams{MerchantID: t.MerchantID, Purpose: t.Purpose, CustomerAccount: t.CustomerAccount,
		CustomerEmail: t.CustomerEmail, ReturnURL: t.ReturnURL, CallbackURL: t.CallbackURL}
}

func (createTokenization) ReadParams(raw json.RawMessage, r *Request) error {
	var p tokenizationParams
	if err := decodeParams(raw, &p); err != nil {
		return err
	}
	r.Params = backend.TokenizationLinkRequest{MerchantID: p.MerchantID, Purpose: p.Purpose,
		CustomerAccount: p.CustomerAccount, CustomerEmail: p.CustomerEmail, ReturnURL: p.ReturnURL,
		CallbackURL: p.CallbackURL, IdempotencyKey: r.IdempotencyKey}
	return nil
}

// TokenAfter is the token made, Created (as the creation answers) until
// the customer saves a card; none when the answer named no token.
func (createTokenization) TokenAfter(_ Request, o Outcome) (backend.Token, bool, bool) {
	if o.Tokenization.TokenID == "" {
		return backend.Token{}, false, false
	}
	return backend.Token{ID: o.Tokenization.TokenID, Status: backend.TokenCreated}, true, true
}

func (createTokenization) Created(_ Request, o Outcome) (Created, bool) {
	return Created{Title: "Card-saving link made", Link: o.Tokenization.URL,
		Facts: []string{"Token " + textsafe.Clean(o.Tokenization.TokenID) + " · Created: Active once the customer saves a card"}}, true
}
