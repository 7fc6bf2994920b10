package action

import (
	"context"
	"encoding/json"
	"time"

	"paydash/backend"
	"paydash/backend/money"
	"paydash/backend/textsafe"
)

// createInvoice makes a payment link (invoice): a payment and its page.
type createInvoice struct{ linkMaker }

func init() {
	Register(createInvoice{linkMaker{object: ObjectPayment, link: "payment link", where: "the merchant's payments",
		made: func(o Outcome) (string, string) { return o.Invoice.PaymentID, o.Invoice.URL }}})
}

// invoiceParams is a payment link's journal params: everything its request
// sends but the idempotency key (the line's idempotencyKey).
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

func (p *invoiceParams) merchant() string { return p.MerchantID }

// NewCreateInvoice makes a payment link (invoice), sent through v2, with a
// fresh ID and, when req has none, a fresh idempotency key.
func NewCreateInvoice(req backend.InvoiceLinkRequest) Request {
	req.IdempotencyKey = keyOr(req.IdempotencyKey)
	return Request{ID: backend.NewIdempotencyKey(), Kind: backend.ActionCreateInvoice, Amount: req.Amount,
		Interface: backend.V2, IdempotencyKey: req.IdempotencyKey, Params: req}
}

// invoiceOf is the payment link a request makes (its Params).
func invoiceOf(req Request) backend.InvoiceLinkRequest {
	return ParamsOf[backend.InvoiceLinkRequest](req)
}

func (createInvoice) Action() backend.ActionName { return backend.ActionCreateInvoice }

func (createInvoice) Validate(req Request) error {
	p := invoiceOf(req)
	return validateCreate(req, p.MerchantID, p.IdempotencyKey, &p.Amount)
}

// Prepare puts the request under req.IdempotencyKey and its expiry in UTC
// (as v2 sends it, and as the journal gives it back).
func (createInvoice) Prepare(req Request) Request {
	inv := invoiceOf(req)
	inv.IdempotencyKey = req.IdempotencyKey
	if !inv.Expires.IsZero() {
		inv.Expires = inv.Expires.Round(0).UTC()
	}
	req.Params = inv
	return req
}

func (createInvoice) Describe(r Request) string {
	s := "payment link for " + amountText(r.Amount)
	if o := textsafe.Line(invoiceOf(r).OrderNo, 60); o != "" {
		s += " (order " + o + ")"
	}
	return s
}

func (createInvoice) Send(ctx context.Context, r *Runner, req Request) (o Outcome, err error) {
	o.Invoice, err = r.Backend.CreateInvoiceLink(ctx, invoiceOf(req))
	return o, err
}

func (createInvoice) Params(req Request) any {
	i := invoiceOf(req)
	return invoiceParams{MerchantID: i.MerchantID, Amount: i.Amount, Description: i.Description, OrderNo: i.OrderNo,
		Expires: i.Expires, DualMode: i.DualMode, CustomerEmail: i.CustomerEmail, CustomerPhone: i.CustomerPhone,
		ReturnURL: i.ReturnURL, CallbackURL: i.CallbackURL}
}

func (createInvoice) ReadParams(raw json.RawMessage, r *Request) error {
	var p invoiceParams
	if err := decodeParams(raw, &p); err != nil {
		return err
	}
	r.Params = backend.InvoiceLinkRequest{MerchantID: p.MerchantID, Amount: p.Amount, Description: p.Description,
		OrderNo: p.OrderNo, Expires: p.Expires, DualMode: p.DualMode, CustomerEmail: p.CustomerEmail,
		CustomerPhone: p.CustomerPhone, ReturnURL: p.ReturnURL, CallbackURL: p.CallbackURL,
		IdempotencyKey: r.IdempotencyKey}
	return nil
}

func (createInvoice) Created(req Request, o Outcome) (Created, bool) {
	c := Created{Title: "Payment link made", Link: o.Invoice.URL,
		Facts: []string{"Payment " + textsafe.Clean(o.Invoice.PaymentID) + " for " + groupAmount(req.Amount)}}
	if n := textsafe.Line(invoiceOf(req).OrderNo, 60); n != "" {
		c.Facts[0] += " · order " + n
	}
	return c, true
}
