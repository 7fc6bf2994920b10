package v2

import (
	"context"
	"iter"
	"time"

	"paydash/backend/money"
)

// PaymentsService covers /api/v2/payments: direct payments, their
// confirmation steps, capture and cancellation of holds, lookup and listing.
type PaymentsService service

// PaymentRequest creates a payment directly. Which members apply
// depends on the payment method.
type PaymentRequest struct {
	MerchantID   string               `json:"merchantId,omitempty"`
	DualMode     bool                 `json:"dualMode,omitempty"` // hold first, capture later with Confirm
	TestMode     bool                 `json:"testMode,omitempty"`
	Tokenization *TokenizationDetails `json:"tokenization,omitempty"`
	Invoice      *Invoice             `json:"invoice,omitempty"`
	Amount       *money.Amount        `json:"amount,omitempty"`
	PaymentData  *PaymentData         `json:"paymentData,omitempty"`
	Protocol     *Protocol            `json:"protocol,omitempty"`
	Customer     *Customer            `json:"customer,omitempty"`
	Device       *Device              `json:"device,omitempty"`
}

// Payment is the service's view of a payment, as answered by Create,
// Complete and Get.
type Payment struct {
	ID           string            `json:"id"`
	Created      time.Time         `json:"created"`
	Completed    time.Time         `json:"completed,omitzero"` // zero until finished
	TestMode     bool              `json:"testMode"`
	Status       PaymentStatus     `json:"status"`
	ResultCode   ResultCode        `json:"resultCode,omitempty"`
	Message      string            `json:"message,omitempty"` // authorization result description
	MerchantID   string            `json:"merchantId"`
	Invoice      Invoice           `json:"invoice"`
	Amount       money.Amount      `json:"amount"`
	Customer     Customer          `json:"customer"` // only IP is sent
	PaymentData  PaymentInfo       `json:"paymentData"`
	Confirmation *Confirmation     `json:"confirmation,omitempty"` // set when Status is Confirmation
	PaymentToken *PaymentTokenInfo `json:"paymentToken,omitempty"` // set when the payment made or used a token
}

// PaymentInfo is the answer side of paymentData: the instrument used.
type PaymentInfo struct {
	PaymentMethod          string    `json:"paymentMethod,omitempty"`
	PaymentInstrumentTitle string    `json:"paymentInstrumentTitle,omitempty"` // e.g. a masked card number
	Agreement              string    `json:"agreement,omitempty"`
	CardInfo               *CardInfo `json:"cardInfo,omitempty"`
}

// PaymentTokenInfo is the token a payment made or used.
type PaymentTokenInfo struct {
	ID      string    `json:"id"`
	Expires time.Time `json:"expires,omitzero"`
	Title   string    `json:"title,omitempty"`
}

// PaymentListItem is the short form of a payment in a list (2.10, last
// paragraph): no customer, confirmation or card details. The documentation
// gives it no result code either; ResultCode is read when the service sends
// one (the paydash sandbox does) and is "" otherwise (docs/service.md).
type PaymentListItem struct {
	ID          string        `json:"id"`
	Created     time.Time     `json:"created"`
	Completed   time.Time     `json:"completed,omitzero"`
	Status      PaymentStatus `json:"status"`
	ResultCode  ResultCode    `json:"resultCode,omitempty"`
	MerchantID  string        `json:"merchantId"`
	Invoice     Invoice       `json:"invoice"`
	Amount      money.Amount  `json:"amount"`
	PaymentData PaymentInfo   `json:"paymentData"`
}

// PaymentList is one page of payments; Cursor is "" on the last page.
type PaymentList struct {
	Items  []PaymentListItem `json:"items"`
	Cursor string            `json:"cursor,omitempty"`
}

// page is the list's items and the next page's cursor.
func (l *PaymentList) page() ([]PaymentListItem, string) { return l.Items, l.Cursor }

func (l *PaymentList) reserve(n int) { reserveItems(&l.Items, n) }

// Create makes a payment from the payment data in req. The answer may ask
// for a confirmation (Payment.Confirmation); pass it to the payer and call
// Complete.
func (s *PaymentsService) Create(ctx context.Context, req *PaymentRequest, opts *CreateOptions) (*Payment, *Response, error) {
	return createAs[Payment](ctx, s.client, "Payments.Create", apiPrefix+"/payments", req, opts)
}

// Complete passes the payer's answer to a confirmation. Like every PUT it is
// not retried automatically.
func (s *PaymentsService) Complete(ctx context.Context, id string, req *CompleteRequest) (*Payment, *Response, error) {
	return completeAs[Payment](ctx, s.client, "Payments.Complete", "payments", id, req)
}

// confirmBody is the body of a partial capture.
type confirmBody struct {
	Amount money.Amount `json:"amount"`
}

// Confirm captures a held (Authorized) payment. A nil amount sends no body,
// capturing the whole hold; an amount captures that much, at most the hold.
//
// Not retried automatically: a second confirm is invalid_operation, so after
// a timeout re-read the payment with Get before trying again.
func (s *PaymentsService) Confirm(ctx context.Context, id string, amount *money.Amount) (*Response, error) {
	path, err := idPath("payments", id, "confirm")
	if err != nil {
		return nil, err
	}
	var body any // a nil interface, not a nil *confirmBody: no body at all
	if amount != nil {
		body = confirmBody{Amount: *amount}
	}
	return s.client.put(ctx, path, body, nil)
}

// Cancel releases a held (Authorized) payment. Not retried automatically.
func (s *PaymentsService) Cancel(ctx context.Context, id string) (*Response, error) {
	path, err := idPath("payments", id, "cancel")
	if err != nil {
		return nil, err
	}
	return s.client.put(ctx, path, nil, nil)
}

// Get fetches one payment.
func (s *PaymentsService) Get(ctx context.Context, id string) (*Payment, *Response, error) {
	path, err := idPath("payments", id, "")
	if err != nil {
		return nil, nil, err
	}
	return fetch[Payment](ctx, s.client, path, nil)
}

// List fetches one page of a merchant's payments created between p.Start
// and p.End. For the next page, set p.Cursor to the answer's Cursor.
func (s *PaymentsService) List(ctx context.Context, p ListParams) (*PaymentList, *Response, error) {
	return listPage(ctx, s.client, apiPrefix+"/payments", p.query(), (*PaymentList).page)
}

// All iterates over every payment List would page through, starting at
// p.Cursor. It stops at the first error, yielded with a zero item.
func (s *PaymentsService) All(ctx context.Context, p ListParams) iter.Seq2[PaymentListItem, error] {
	return allPages(ctx, p, s.List, (*PaymentList).page)
}
