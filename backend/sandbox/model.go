package sandbox

import (
	"time"

	"paydash/backend/money"
)

// The store's types. They are the service's own objects, independent of
// either wire format: v2api.go renders them as JSON, v1api.go will render the
// same objects in the legacy shape. Store methods hand out copies (values), so
// a caller can read one without holding a lock; pointer members (Customer,
// Instrument, CardInfo, Confirmation, Protocol) are never modified once made,
// the store replaces them instead, which makes those shallow copies safe.

// PaymentStatus is a payment's v2 status (docs/service.md has the moves).
type PaymentStatus string

const (
	PaymentPending      PaymentStatus = "Pending"
	PaymentConfirmation PaymentStatus = "Confirmation"
	PaymentAuthorized   PaymentStatus = "Authorized"
	PaymentSettled      PaymentStatus = "Settled"
	PaymentCancelled    PaymentStatus = "Cancelled"
	PaymentRejected     PaymentStatus = "Rejected"
)

// Final reports whether no further move is possible (and `completed` is set).
func (s PaymentStatus) Final() bool {
	return s == PaymentSettled || s == PaymentCancelled || s == PaymentRejected
}

// V1State is the legacy interface's view of the status (docs/service.md).
func (s PaymentStatus) V1State() string {
	switch s {
	case PaymentPending:
		return "INITIATED"
	case PaymentConfirmation:
		return "PROCESSING"
	case PaymentAuthorized:
		return "HOLD"
	case PaymentSettled:
		return "COMPLETE"
	default: // Cancelled, Rejected
		return "CANCELLED"
	}
}

// RefundStatus is a refund's v2 status.
type RefundStatus string

const (
	RefundPending  RefundStatus = "Pending"
	RefundSuccess  RefundStatus = "Success"
	RefundRejected RefundStatus = "Rejected"
)

// V1State is the legacy view: a new refund is EXECUTING, as the service
// documents.
func (s RefundStatus) V1State() string {
	switch s {
	case RefundSuccess:
		return "SUCCESS"
	case RefundRejected:
		return "FAILURE"
	default:
		return "EXECUTING"
	}
}

// TokenStatus is a payment token's status; Created only until confirmed.
type TokenStatus string

const (
	TokenCreated  TokenStatus = "Created"
	TokenActive   TokenStatus = "Active"
	TokenRevoked  TokenStatus = "Revoked"
	TokenDeclined TokenStatus = "Declined"
)

// StickerStatus toggles through PUT /stickers/{id}.
type StickerStatus string

const (
	StickerActive   StickerStatus = "Active"
	StickerInactive StickerStatus = "Inactive"
)

// Payment methods as they appear on the wire.
const (
	MethodBankCard = "BankCard"
	MethodSBP      = "sbp"
)

// Merchant is one v2 merchant, which is also one v1 site (same digits).
type Merchant struct {
	ID         string
	Name       string
	Kind       string   // coffee, books, travel, electronics: what the seed generates for it
	Currencies []string // accepted currencies, the first is the usual one
	// CallbackURL is where the seeded payments say they notify: an example
	// host that the callback sender refuses to contact.
	CallbackURL string
}

// Accepts reports whether the merchant takes payments in currency.
func (m Merchant) Accepts(currency string) bool {
	for _, c := range m.Currencies {
		if c == currency {
			return true
		}
	}
	return false
}

// CardInfo is the spec's paymentData.cardInfo. Seeded payments point into a
// shared table instead of carrying their own copy.
type CardInfo struct {
	Brand    string
	Issuer   string
	Country  string
	Type     string // credit, debit
	Category string // classic, gold, platinum...
}

// Instrument is how a payment was (or will be) paid: shared by all payments
// of one card of one customer.
type Instrument struct {
	Method string // MethodBankCard or MethodSBP
	Title  string // paymentInstrumentTitle, e.g. "427638******1234"
	Card   *CardInfo
}

// Customer is the payer as the merchant knows them. Shared between the
// payments of one seeded customer.
type Customer struct {
	Email   string
	Phone   string // E.164 without the plus sign
	IP      string
	Account string
}

// Identifier is what v1 calls UserIdentifier: the e-mail, else the account.
func (c *Customer) Identifier() string {
	if c == nil {
		return ""
	}
	if c.Email != "" {
		return c.Email
	}
	return c.Account
}

// Protocol holds the merchant's addresses for one payment or token.
type Protocol struct {
	ReturnURL          string
	CallbackURL        string
	ThreeDSCompleteURL string
}

// Confirmation types.
const (
	ConfirmExternal         = "External"
	ConfirmSmsOtp           = "SmsOtp"
	ConfirmThreeDSMethod    = "ThreeDSMethod"
	ConfirmThreeDSChallenge = "ThreeDSChallenge"
	ConfirmThreeDSv1        = "ThreeDSv1"
)

// Confirmation is what the payer still has to do; only the members of its
// Type are set.
type Confirmation struct {
	Type          string
	PaymentURL    string // External
	UniversalLink bool   // External
	Instruction   string // External
	MaskedPhone   string // SmsOtp
	MethodURL     string // ThreeDSMethod
	TransactionID string // ThreeDSMethod
	AcsURL        string // ThreeDSChallenge, ThreeDSv1
	CReq          string // ThreeDSChallenge
	PAReq         string // ThreeDSv1
}

// Invoice is the merchant's description of what is paid for.
type Invoice struct {
	Description string
	OrderNo     string
	Expires     time.Time // zero = none
	Params      map[string]any
}

// Payment is one payment, the same object in v2 and v1 (same id).
type Payment struct {
	ID         string
	MerchantID string
	Created    time.Time
	Completed  time.Time // zero until the status is final
	Updated    time.Time // last status change (v1 LastUpdateTime)
	TestMode   bool
	DualMode   bool
	IsInvoice  bool // created by POST /invoices (a payment page, paid later)
	Status     PaymentStatus
	ResultCode string
	Message    string
	Invoice    Invoice
	Amount     money.Amount // the amount asked (authorized, for a hold)
	// Captured is what was actually charged: the amount for a Settled
	// payment, possibly less than Amount after a partial capture; zero
	// otherwise. Refunds are bounded by it.
	Captured money.Decimal
	// Refunded is the sum of the payment's refunds that are not Rejected.
	Refunded     money.Decimal
	Customer     *Customer
	Instrument   *Instrument // nil for an invoice nobody has paid yet
	Agreement    string
	Confirmation *Confirmation // set only while Status is Confirmation
	TokenID      string        // the payment token used or made by the payment
	StickerID    string        // cashlink payment
	Protocol     *Protocol
	// CancelCode is the v1 failure code (V1FailureCode, e.g. -17) given
	// with cancelPayment's `error` when the hold was released; 0 if none.
	CancelCode int

	seq      int64
	flow     flow
	tokenize *tokenizeIntent
	refunds  []*Refund
	stalled  bool // a confirmation_stall picked it: completing it changes nothing (scenario.go)
}

// tokenizeIntent is the payment request's `tokenization` member: a token is
// made from the card once the payment is approved.
type tokenizeIntent struct {
	Type, Purpose, CallbackURL string
}

// SiteInvoiceID is the v1 name of the merchant's order number.
func (p Payment) SiteInvoiceID() string { return p.Invoice.OrderNo }

// Purpose is the v1 name of the description.
func (p Payment) Purpose() string { return p.Invoice.Description }

// PaidAmount is v1's PaymentAmount: what was captured (zero if nothing was).
func (p Payment) PaidAmount() money.Decimal { return p.Captured }

// Remaining is what can still be refunded.
func (p Payment) Remaining() money.Decimal { return p.Captured - p.Refunded }

// UserPhoneNumber and UserIdentifier are v1's customer fields.
func (p Payment) UserPhoneNumber() string {
	if p.Customer == nil {
		return ""
	}
	return p.Customer.Phone
}
func (p Payment) UserIdentifier() string { return p.Customer.Identifier() }

// CallbackURL is where status notifications go: the payment's own address,
// else that of its sticker (filled in at creation for cashlink payments).
func (p Payment) CallbackURL() string {
	if p.Protocol == nil {
		return ""
	}
	return p.Protocol.CallbackURL
}

// Refund is one refund of a Settled payment.
type Refund struct {
	ID         string
	PaymentID  string
	MerchantID string
	Created    time.Time
	Updated    time.Time
	Amount     money.Amount
	Status     RefundStatus
	ResultCode string // empty while Pending
	Message    string // why a refund was Rejected (v1 ErrorDesc)
	ExternalID string // v1 externalID: the merchant's own refund id, not unique

	seq int64
}

// PaymentToken is a saved card (or SBP subscription) of a customer.
type PaymentToken struct {
	ID           string
	MerchantID   string
	Type         string // cof, recurring
	Purpose      string
	Status       TokenStatus
	Blocked      bool // locked out by the issuer or fraud monitoring: payments get payment_token_blocked
	ResultCode   string
	Title        string
	Expires      time.Time
	Created      time.Time
	Updated      time.Time
	TestMode     bool
	Instrument   *Instrument
	Customer     *Customer
	Confirmation *Confirmation // set only while Created and awaiting the payer
	Protocol     *Protocol     // callbackUrl is the token status notification address
	FromPage     bool          // made by POST /tokenization (the customer fills a page)

	seq int64
}

// CardInfo is the token's card, nil for a token not bound to a card yet.
func (t PaymentToken) CardInfo() *CardInfo {
	if t.Instrument == nil {
		return nil
	}
	return t.Instrument.Card
}

// Sticker is a payment code (SBP QR) for a product or a cash desk.
type Sticker struct {
	ID             string
	MerchantID     string
	StickerType    string
	Cashlink       bool
	Description    string
	ProductCode    string
	PaymentPurpose string
	Amount         *money.Amount // nil: the payer enters the amount
	Status         StickerStatus
	Payload        string
	CallbackURL    string
	Created        time.Time
	Updated        time.Time

	seq int64
}

// V1User is a legacy-interface login; all of them belong to one account
// (V1AccountID) holding every merchant as a site.
type V1User struct {
	Login     string `json:"login"`
	Password  string `json:"password"`
	Role      string `json:"role"`      // Cashier or Accountant
	AccountID string `json:"accountId"` // the v1 accountID: V1AccountID
}

// V1AccountID is the one v1 account; its sites are the merchants (same ids).
const V1AccountID = "ACC-1"

// Roles of the v1 users (docs/service.md).
const (
	RoleCashier    = "Cashier"
	RoleAccountant = "Accountant"
)

// Access is what a v2 bearer token may do.
type Access int

const (
	AccessNone Access = iota
	AccessReadOnly
	AccessFull
)

// Page is one page of a list, newest first; Cursor is empty on the last page.
type Page[T any] struct {
	Items  []T
	Cursor string
}

// ListQuery asks for one page of a merchant's payments or refunds created in
// [Start, End).
type ListQuery struct {
	MerchantID string
	Start, End time.Time
	Cursor     string
	Limit      int // 0 = PageSize
}

// PageSize is the number of items in a list page.
const PageSize = 100
