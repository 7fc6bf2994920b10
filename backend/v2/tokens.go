package v2

import (
	"context"
	"time"
)

// TokenizationService covers POST /api/v2/tokenization: a payment token made
// through the service's tokenization page.
type TokenizationService service

// TokenizationRequest asks for a tokenization page.
type TokenizationRequest struct {
	MerchantID    string    `json:"merchantId,omitempty"`
	TestMode      bool      `json:"testMode,omitempty"`
	Type          TokenType `json:"type,omitempty"`
	Purpose       string    `json:"purpose,omitempty"`
	PaymentMethod string    `json:"paymentMethod,omitempty"`
	CallbackURL   string    `json:"callbackUrl,omitempty"` // notified of the token's status
	ReturnURL     string    `json:"returnUrl,omitempty"`   // where the customer comes back to
	Customer      *Customer `json:"customer,omitempty"`    // Account and Email apply
}

// TokenizationCreated is the token being made and the page for the customer.
type TokenizationCreated struct {
	TokenID string `json:"tokenId"`
	URL     string `json:"url"`
}

// Create starts a tokenization.
func (s *TokenizationService) Create(ctx context.Context, req *TokenizationRequest, opts *CreateOptions) (*TokenizationCreated, *Response, error) {
	return createAs[TokenizationCreated](ctx, s.client, "Tokenization.Create", apiPrefix+"/tokenization", req, opts)
}

// PaymentTokensService covers /api/v2/paymenttokens: saved cards and other
// instruments for repeat payments.
type PaymentTokensService service

// PaymentTokenRequest creates a payment token directly from card data.
type PaymentTokenRequest struct {
	MerchantID  string       `json:"merchantId,omitempty"`
	TestMode    bool         `json:"testMode,omitempty"`
	Type        TokenType    `json:"type,omitempty"`
	Purpose     string       `json:"purpose,omitempty"`
	PaymentData *PaymentData `json:"paymentData,omitempty"` // PaymentMethod and Card apply
	Protocol    *Protocol    `json:"protocol,omitempty"`
	Customer    *Customer    `json:"customer,omitempty"` // Account and Email apply
	Device      *Device      `json:"device,omitempty"`
}

// PaymentToken is a payment token.
type PaymentToken struct {
	ID           string        `json:"id"`
	Status       TokenStatus   `json:"status"`
	ResultCode   ResultCode    `json:"resultCode,omitempty"`
	Title        string        `json:"title,omitempty"`
	Expires      time.Time     `json:"expires,omitzero"`
	CardInfo     *CardInfo     `json:"cardInfo,omitempty"`
	Confirmation *Confirmation `json:"confirmation,omitempty"` // External only
}

// Create makes a payment token; the answer may ask for a confirmation.
func (s *PaymentTokensService) Create(ctx context.Context, req *PaymentTokenRequest, opts *CreateOptions) (*PaymentToken, *Response, error) {
	return createAs[PaymentToken](ctx, s.client, "PaymentTokens.Create", apiPrefix+"/paymenttokens", req, opts)
}

// Complete passes the customer's answer to a token's confirmation. Not
// retried automatically.
func (s *PaymentTokensService) Complete(ctx context.Context, id string, req *CompleteRequest) (*PaymentToken, *Response, error) {
	return completeAs[PaymentToken](ctx, s.client, "PaymentTokens.Complete", "paymenttokens", id, req)
}

// Get fetches one payment token.
func (s *PaymentTokensService) Get(ctx context.Context, id string) (*PaymentToken, *Response, error) {
	path, err := idPath("paymenttokens", id, "")
	if err != nil {
		return nil, nil, err
	}
	return fetch[PaymentToken](ctx, s.client, path, nil)
}

// Revoke ends a payment token for good (a lost card, say). Not retried
// automatically; after a timeout, Get tells whether it happened.
func (s *PaymentTokensService) Revoke(ctx context.Context, id string) (*Response, error) {
	path, err := idPath("paymenttokens", id, "revoke")
	if err != nil {
		return nil, err
	}
	return s.client.put(ctx, path, nil, nil)
}
