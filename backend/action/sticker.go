package action

import (
	"context"
	"encoding/json"

	"paydash/backend"
	"paydash/backend/money"
	"paydash/backend/textsafe"
)

// createSticker makes a sticker (an SBP QR code of a fixed amount).
type createSticker struct{ Base }

func init() { Register(createSticker{}) }

// stickerParams is a sticker's journal params: everything its request
// sends but the idempotency key.
type stickerParams struct {
	MerchantID     string       `json:"merchantId"`
	StickerType    string       `json:"stickerType,omitempty"`
	Cashlink       bool         `json:"cashlink,omitempty"`
	Description    string       `json:"description,omitempty"`
	ProductCode    string       `json:"productCode,omitempty"`
	PaymentPurpose string       `json:"paymentPurpose,omitempty"`
	Amount         money.Amount `json:"amount,omitzero"`
	CallbackURL    string       `json:"callbackUrl,omitempty"`
}

func (p *stickerParams) merchant() string { return p.MerchantID }

// NewCreateSticker makes a sticker, sent through v2, with a fresh ID and,
// when req has none, a fresh idempotency key.
func NewCreateSticker(req backend.StickerRequest) Request {
	req.IdempotencyKey = keyOr(req.IdempotencyKey)
	return Request{ID: backend.NewIdempotencyKey(), Kind: backend.ActionCreateSticker, Amount: req.Amount,
		Interface: backend.V2, IdempotencyKey: req.IdempotencyKey, Params: req}
}

// stickerOf is the sticker a request makes (its Params).
func stickerOf(req Request) backend.StickerRequest { return ParamsOf[backend.StickerRequest](req) }

func (createSticker) Action() backend.ActionName { return backend.ActionCreateSticker }
func (createSticker) V2Only() bool               { return true }

// Validate: backend.CreateSticker always sends an amount.
func (createSticker) Validate(req Request) error {
	p := stickerOf(req)
	return validateCreate(req, p.MerchantID, p.IdempotencyKey, &p.Amount)
}

func (createSticker) Prepare(req Request) Request {
	st := stickerOf(req)
	st.IdempotencyKey = req.IdempotencyKey
	req.Params = st
	return req
}

func (createSticker) Describe(r Request) string {
	s := "sticker"
	if d := textsafe.Line(stickerOf(r).Description, 60); d != "" {
		s += ` "` + d + `"`
	}
	return s + " for " + amountText(r.Amount)
}

func (createSticker) DoneText(r Request, o Outcome) string {
	s := madeText(r, "sticker", o.Sticker.ID, o.Sticker.Payload)
	if st := textsafe.Line(o.Sticker.Status, 40); st != "" {
		s += " — " + st
	}
	return s
}

func (createSticker) Where() string { return "the merchant's stickers" }

func (createSticker) Send(ctx context.Context, r *Runner, req Request) (o Outcome, err error) {
	o.Sticker, err = r.Backend.CreateSticker(ctx, stickerOf(req))
	return o, err
}

func (k createSticker) Check(ctx context.Context, r *Runner, req Request) Outcome {
	return checkCreate(ctx, r, k, req, "sticker")
}

// Result is the sticker made and its status: "sticker 7000124 Active".
func (createSticker) Result(_ Request, o Outcome) string {
	return createdResult("sticker", o.Sticker.ID, 60, o.Sticker.Status, 40)
}

func (createSticker) Params(req Request) any {
	s := stickerOf(req)
	return stickerParams{MerchantID: s.MerchantID, StickerType: s.StickerType, Cashlink: s.Cashlink,
		Description: s.Description, ProductCode: s.ProductCode, PaymentPurpose: s.PaymentPurpose,
		Amount: s.Amount, CallbackURL: s.CallbackURL}
}

func (createSticker) ReadParams(raw json.RawMessage, r *Request) error {
	var p stickerParams
	if err := decodeParams(raw, &p); err != nil {
		return err
	}
	r.Params = backend.StickerRequest{MerchantID: p.MerchantID, StickerType: p.StickerType, Cashlink: p.Cashlink,
		Description: p.Description, ProductCode: p.ProductCode, PaymentPurpose: p.PaymentPurpose,
		Amount: p.Amount, CallbackURL: p.CallbackURL, IdempotencyKey: r.IdempotencyKey}
	return nil
}

func (createSticker) Locks(Request) (ObjectRef, bool) { return ObjectRef{}, false }

func (createSticker) Made(_ Request, o Outcome) (ObjectRef, bool) {
	return ObjectRef{ObjectSticker, o.Sticker.ID}, true
}

// Created shows the sticker's SBP link; its amount is "any amount" when
// the payer chooses it.
func (createSticker) Created(_ Request, o Outcome) (Created, bool) {
	amount := "any amount"
	if !o.Sticker.Amount.Value.IsZero() {
		amount = groupAmount(o.Sticker.Amount)
	}
	return Created{Title: "Sticker made", Link: o.Sticker.Payload,
		Facts: []string{"Sticker " + textsafe.Clean(o.Sticker.ID) + " for " + amount + " · " + textsafe.Clean(o.Sticker.Status)}}, true
}
