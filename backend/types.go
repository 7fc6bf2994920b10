package backend

import (
	"time"

	"paydash/backend/money"
)

// Interface names which of the service's two interfaces an object came from.
type Interface string

const (
	V2 Interface = "v2" // the current JSON interface, bearer token
	V1 Interface = "v1" // the legacy signed interface, login and password
)

// PaymentStatus uses the v2 names; a v1 State maps onto them
// (docs/service.md).
type PaymentStatus string

const (
	PaymentPending      PaymentStatus = "Pending"
	PaymentConfirmation PaymentStatus = "Confirmation"
	PaymentAuthorized   PaymentStatus = "Authorized"
	PaymentSettled      PaymentStatus = "Settled"
	PaymentCancelled    PaymentStatus = "Cancelled"
	PaymentRejected     PaymentStatus = "Rejected"
)

// Final reports whether no further move is possible except refunds.
func (s PaymentStatus) Final() bool {
	return s == PaymentSettled || s == PaymentCancelled || s == PaymentRejected
}

// RefundStatus uses the v2 names.
type RefundStatus string

const (
	RefundPending  RefundStatus = "Pending"
	RefundSuccess  RefundStatus = "Success"
	RefundRejected RefundStatus = "Rejected"
)

// TokenStatus uses the v2 names.
type TokenStatus string

const (
	TokenCreated  TokenStatus = "Created"
	TokenActive   TokenStatus = "Active"
	TokenRevoked  TokenStatus = "Revoked"
	TokenDeclined TokenStatus = "Declined"
)

// Payment is one payment as the UI shows it, filled from either interface.
// List answers carry a subset of the fields; Detailed is true once a full
// read has filled the rest.
type Payment struct {
	Source     Interface
	Detailed   bool
	ID         string
	MerchantID string
	Created    time.Time // zero when only v1 answered: it gives no creation time
	Completed  time.Time // zero while the payment can still move
	Updated    time.Time // the last status change (v1 LastUpdateTime); zero from v2
	Status     PaymentStatus
	// ResultCode is the authorization result code; ResultMeaning explains
	// it. A v2 list item fills it only when the service sends it there (the
	// sandbox does, the documentation does not say so: docs/service.md);
	// otherwise only a full read does.
	ResultCode string
	Message    string // the service's own text for the result
	TestMode   bool

	Amount         money.Amount
	OrderNo        string
	Description    string
	InvoiceExpires time.Time
	InvoiceParams  map[string]string
	CustomerIP     string

	PaymentMethod   string
	InstrumentTitle string // e.g. a masked card number
	Agreement       string
	Card            *CardInfo
	Confirmation    *Confirmation // set while Status is Confirmation
	Token           *TokenRef     // the saved card token the payment used or made

	V1  *PaymentV1View // the legacy interface's view, when v1 is configured too
	Raw []byte         // the body as received, for the raw view
}

// CardInfo describes the card behind a payment or token.
type CardInfo struct {
	Brand, Issuer, Country, Type, Category string
}

// Confirmation is what the payer still has to do; only the members of its
// Type are set.
type Confirmation struct {
	Type          string
	PaymentURL    string
	UniversalLink bool
	Instruction   string
	MaskedPhone   string
	MethodURL     string
	TransactionID string
	AcsURL        string
	CReq          string
	PAReq         string
}

// TokenRef is the token summary a payment carries.
type TokenRef struct {
	ID      string
	Title   string
	Expires time.Time
}

// PaymentV1View is what the legacy interface says of the same payment.
type PaymentV1View struct {
	State           string // INITIATED, PROCESSING, COMPLETE, CANCELLED, HOLD
	SiteInvoiceID   string
	PaymentAmount   money.Amount // what was actually paid (a partial capture shows here)
	UserIdentifier  string
	UserPhoneNumber string
	Purpose         string
	LastUpdate      time.Time
	ErrorCode       int
	Raw             []byte
}

// Refund is one refund of a payment.
type Refund struct {
	Source     Interface
	ID         string
	PaymentID  string
	MerchantID string    // the merchant whose list it came from, when known
	Created    time.Time // zero when only v1 answered
	Updated    time.Time // v1 LastUpdate; zero from v2
	Amount     money.Amount
	Status     RefundStatus
	ResultCode string // only on single reads
	ExternalID string // v1 only: the merchant-side refund id
	Raw        []byte
}

// Token is a saved card (payment token).
type Token struct {
	Source       Interface
	ID           string
	Status       TokenStatus
	ResultCode   string
	Title        string
	Expires      time.Time
	Card         *CardInfo
	Confirmation *Confirmation
	Raw          []byte
}

// Sticker is a payment sticker (an SBP-style payment code for a product).
type Sticker struct {
	Source         Interface
	ID             string
	MerchantID     string
	StickerType    string
	Cashlink       bool
	Description    string
	ProductCode    string
	PaymentPurpose string
	Amount         money.Amount
	Status         string // "Active" or "Inactive"
	Payload        string // the payment link
	Raw            []byte
}

// Active reports whether the sticker currently accepts payments.
func (s Sticker) Active() bool { return s.Status == "Active" }

// InvoiceLink is a payment page made for a customer.
type InvoiceLink struct {
	PaymentID string
	URL       string
}

// TokenizationLink is a page where a customer saves a card.
type TokenizationLink struct {
	TokenID string
	URL     string
}

// Transfer is a payout of a site's money to the merchant, with the register
// that lists what it pays for (v1 only).
type Transfer struct {
	Created        time.Time
	Amount         money.Amount // TransferAmount in CurrencyCode
	PaymentOrderID string
	RegisterID     string
	Raw            []byte
}

// Register lists the operations a transfer pays for (v1 only).
type Register struct {
	ID         string
	Number     string
	PeriodFrom time.Time
	PeriodTo   time.Time
	Operations []Operation
	Raw        []byte // the XML as received, for the raw view
}

// Operation is one line of a register: a payment (positive) or a refund (negative).
type Operation struct {
	ID              string
	SiteAlias       string
	InvoiceID       string
	Stamp           time.Time
	Currency        string
	OperationAmount money.Decimal
	TransferAmount  money.Decimal
}

// Document is a report or act the service keeps for the account (v1 only).
type Document struct {
	ID          string
	Created     time.Time
	Description string
	FileName    string
}

// DocumentContent is a downloaded document.
type DocumentContent struct {
	FileName    string
	ContentType string
	Data        []byte
}
