package v2

import (
	"context"

	"paydash/backend/money"
)

// InvoicesService covers POST /api/v2/invoices: a payment made through the
// service's payment page, whose address goes to the payer.
type InvoicesService service

// InvoiceRequest creates an invoice.
type InvoiceRequest struct {
	MerchantID    string               `json:"merchantId,omitempty"`
	DualMode      bool                 `json:"dualMode,omitempty"`
	TestMode      bool                 `json:"testMode,omitempty"`
	Tokenization  *TokenizationDetails `json:"tokenization,omitempty"`
	Invoice       *Invoice             `json:"invoice,omitempty"`
	Amount        *money.Amount        `json:"amount,omitempty"`
	PaymentMethod string               `json:"paymentMethod,omitempty"`
	Protocol      *Protocol            `json:"protocol,omitempty"` // ReturnURL and CallbackURL apply
	Customer      *Customer            `json:"customer,omitempty"`
}

// InvoiceCreated is the answer to an invoice: the payment it made and the
// payment page for the payer.
type InvoiceCreated struct {
	PaymentID string `json:"paymentId"`
	URL       string `json:"url"`
}

// Create makes an invoice.
func (s *InvoicesService) Create(ctx context.Context, req *InvoiceRequest, opts *CreateOptions) (*InvoiceCreated, *Response, error) {
	return createAs[InvoiceCreated](ctx, s.client, "Invoices.Create", apiPrefix+"/invoices", req, opts)
}
