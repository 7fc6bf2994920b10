package sandbox

import "paydash/backend/money"

// The requests the store's moves take, as the API handlers decode them
// (decode_requests.go, v1api*.go); the rules that check them are in rules*.go.

// CardData is paymentData.card.
type CardData struct{ PAN, Expiry, CVC string }

// DSRP is a wallet payment (Apple Pay / Google Pay).
type DSRP struct{ Type, Cryptogram, ECI string }

// TokenizationDetails asks a payment to save its card as a token.
type TokenizationDetails struct{ Type, Purpose, CallbackURL string }

// PaymentRequest is a direct payment (POST /payments).
type PaymentRequest struct {
	MerchantID         string
	DualMode, TestMode bool
	Invoice            Invoice
	Amount             *money.Amount // nil: absent (allowed for a sticker with an amount)
	PaymentMethod      string
	Card               *CardData
	DSRP               *DSRP
	TokenID            string
	StickerID          string
	Protocol           Protocol
	Customer           Customer
	Tokenization       *TokenizationDetails

	// Filled by a wire decoder: problems it found itself, and whether the
	// amount was present but unreadable (so it is not reported twice).
	problems  []string
	amountBad bool
}

// InvoiceRequest is POST /invoices: a payment the customer pays on a page.
type InvoiceRequest struct {
	MerchantID         string
	DualMode, TestMode bool
	Tokenization       *TokenizationDetails
	Invoice            Invoice
	Amount             *money.Amount
	PaymentMethod      string
	Protocol           Protocol
	Customer           Customer

	problems  []string
	amountBad bool
}

// CompleteRequest carries the payer's answer to a confirmation.
type CompleteRequest struct{ Code, ThreeDSCompInd, CRes, PARes string }

func (c CompleteRequest) empty() bool { return c == CompleteRequest{} }

// RefundRequest refunds part or all of a Settled payment. An empty currency
// means the payment's (the v1 refund has none).
type RefundRequest struct {
	PaymentID  string
	Amount     *money.Amount
	ExternalID string

	problems  []string
	amountBad bool
}

// TokenizationRequest is POST /tokenization: the customer saves a card on a page.
type TokenizationRequest struct {
	MerchantID    string
	TestMode      bool
	Type, Purpose string
	PaymentMethod string
	CallbackURL   string
	ReturnURL     string
	Customer      Customer

	problems []string
}

// PaymentTokenRequest is POST /paymenttokens: a token from card data.
type PaymentTokenRequest struct {
	MerchantID    string
	TestMode      bool
	Type, Purpose string
	PaymentMethod string
	Card          *CardData
	Protocol      Protocol
	Customer      Customer

	problems []string
}

// StickerRequest is POST /stickers.
type StickerRequest struct {
	MerchantID     string
	StickerType    string
	Cashlink       bool
	Description    string
	ProductCode    string
	PaymentPurpose string
	Amount         *money.Amount // nil: the payer enters the amount
	CallbackURL    string

	problems  []string
	amountBad bool
}
