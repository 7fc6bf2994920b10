package action

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"paydash/backend"
	"paydash/backend/money"
)

// The journal's "params" of an action (journal.Entry.Params): what a line
// needs besides its fixed fields to send the action again or find it out.
// A toggle's is the state it sets; a create's, everything its request
// sends but the idempotency key (the line's idempotencyKey). The names are
// the journal's, fixed here rather than taken from the backend's Go types,
// so that a journal stays readable when those change.
//
// Nothing here is a secret: no card number, no bearer token, no password
// (the requests hold none). A create may hold a customer's e-mail or phone,
// which the journal (0600, its directory 0700) keeps as it keeps payments.

type toggleParams struct {
	Active bool `json:"active"`
}

type invoiceParams struct {
	MerchantID    string       `json:"merchantId"`
	Amount        money.Amount `json:"amount"`
	Description   string       `json:"description,omitempty"`
	OrderNo       string       `json:"orderNo,omitempty"`
	Expires       time.Time    `json:"expires,omitzero"`
	DualMode      bool         `json:"dualMode,omitempty"`
	CustomerEmail string       `json:"customerEmail,omitempty"`
	CustomerPhone string       `json:"customerPhone,omitempty"`
	ReturnURL     string       `json:"returnUrl,omitempty"`
	CallbackURL   string       `json:"callbackUrl,omitempty"`
}

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

type tokenizationParams struct {
	MerchantID      string `json:"merchantId"`
	Purpose         string `json:"purpose,omitempty"`
	CustomerAccount string `json:"customerAccount,omitempty"`
	CustomerEmail   string `json:"customerEmail,omitempty"`
	ReturnURL       string `json:"returnUrl,omitempty"`
	CallbackURL     string `json:"callbackUrl,omitempty"`
}

// params is req's journal params (nil for a kind that has none).
func params(req Request) (json.RawMessage, error) {
	var v any
	switch req.Kind {
	case backend.ActionToggleSticker:
		v = toggleParams{Active: req.Active}
	case backend.ActionCreateInvoice:
		i := req.Invoice
		v = invoiceParams{MerchantID: i.MerchantID, Amount: i.Amount, Description: i.Description, OrderNo: i.OrderNo,
			Expires: i.Expires, DualMode: i.DualMode, CustomerEmail: i.CustomerEmail, CustomerPhone: i.CustomerPhone,
			ReturnURL: i.ReturnURL, CallbackURL: i.CallbackURL}
	case backend.ActionCreateSticker:
		s := req.Sticker
		v = stickerParams{MerchantID: s.MerchantID, StickerType: s.StickerType, Cashlink: s.Cashlink,
			Description: s.Description, ProductCode: s.ProductCode, PaymentPurpose: s.PaymentPurpose,
			Amount: s.Amount, CallbackURL: s.CallbackURL}
	case backend.ActionCreateTokenization:
		t := req.Tokenization
		v = tokenizationParams{MerchantID: t.MerchantID, Purpose: t.Purpose, CustomerAccount: t.CustomerAccount,
			CustomerEmail: t.CustomerEmail, ReturnURL: t.ReturnURL, CallbackURL: t.CallbackURL}
	default:
		return nil, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("its parameters cannot be written: %w", err)
	}
	return b, nil
}

// readParams fills r's toggle state or create request from a line's params,
// or says in r.unread why it cannot.
func readParams(raw json.RawMessage, r *Request) {
	var v any
	switch r.Kind {
	case backend.ActionToggleSticker:
		v = new(toggleParams)
	case backend.ActionCreateInvoice:
		v = new(invoiceParams)
	case backend.ActionCreateSticker:
		v = new(stickerParams)
	case backend.ActionCreateTokenization:
		v = new(tokenizationParams)
	default:
		return // no params, or none this paydash needs
	}
	if err := decodeParams(raw, v); err != nil {
		r.unread = err.Error()
		return
	}
	switch p := v.(type) {
	case *toggleParams:
		r.Active = p.Active
	case *invoiceParams:
		r.Invoice = backend.InvoiceLinkRequest{MerchantID: p.MerchantID, Amount: p.Amount, Description: p.Description,
			OrderNo: p.OrderNo, Expires: p.Expires, DualMode: p.DualMode, CustomerEmail: p.CustomerEmail,
			CustomerPhone: p.CustomerPhone, ReturnURL: p.ReturnURL, CallbackURL: p.CallbackURL,
			IdempotencyKey: r.IdempotencyKey}
	case *stickerParams:
		r.Sticker = backend.StickerRequest{MerchantID: p.MerchantID, StickerType: p.StickerType, Cashlink: p.Cashlink,
			Description: p.Description, ProductCode: p.ProductCode, PaymentPurpose: p.PaymentPurpose,
			Amount: p.Amount, CallbackURL: p.CallbackURL, IdempotencyKey: r.IdempotencyKey}
	case *tokenizationParams:
		r.Tokenization = backend.TokenizationLinkRequest{MerchantID: p.MerchantID, Purpose: p.Purpose,
			CustomerAccount: p.CustomerAccount, CustomerEmail: p.CustomerEmail, ReturnURL: p.ReturnURL,
			CallbackURL: p.CallbackURL, IdempotencyKey: r.IdempotencyKey}
	}
}

// decodeParams reads raw into v strictly: a params object with a field this
// paydash does not know was written by a newer one, and sending again
// without that field would not be the same request.
func decodeParams(raw json.RawMessage, v any) error {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return errors.New("the journal does not hold what was sent (a line without params)")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("the journal's params of it cannot be read (%v)", err)
	}
	if dec.More() {
		return errors.New("the journal's params of it cannot be read (more than one value)")
	}
	if m, ok := v.(interface{ merchant() string }); ok && m.merchant() == "" {
		return errors.New("the journal's params of it name no merchant")
	}
	return nil
}

func (p *invoiceParams) merchant() string      { return p.MerchantID }
func (p *stickerParams) merchant() string      { return p.MerchantID }
func (p *tokenizationParams) merchant() string { return p.MerchantID }
