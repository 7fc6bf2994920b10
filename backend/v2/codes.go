package v2

// The service's documented dictionaries (states, types, codes) as typed
// strings. The service may send values not listed here; they decode as
// they are, so compare with the constants rather than switching
// exhaustively.

// PaymentStatus is a payment's state (docs/service.md has the moves).
type PaymentStatus string

const (
	PaymentStatusPending      PaymentStatus = "Pending"
	PaymentStatusConfirmation PaymentStatus = "Confirmation" // the answer carries Confirmation
	PaymentStatusAuthorized   PaymentStatus = "Authorized"   // held (dual mode): confirm or cancel
	PaymentStatusSettled      PaymentStatus = "Settled"
	PaymentStatusCancelled    PaymentStatus = "Cancelled"
	PaymentStatusRejected     PaymentStatus = "Rejected"
)

// RefundStatus is a refund's state; a new refund is Pending.
type RefundStatus string

const (
	RefundStatusPending  RefundStatus = "Pending"
	RefundStatusSuccess  RefundStatus = "Success"
	RefundStatusRejected RefundStatus = "Rejected"
)

// TokenStatus is a payment token's state; Created only in a creation answer.
type TokenStatus string

const (
	TokenStatusCreated  TokenStatus = "Created"
	TokenStatusActive   TokenStatus = "Active"
	TokenStatusRevoked  TokenStatus = "Revoked"
	TokenStatusDeclined TokenStatus = "Declined"
)

// StickerStatus is a sticker's state, toggled by StickersService.Update.
// The service's documentation shows only Active; Inactive is paydash's
// word for the other state (docs/service.md).
type StickerStatus string

const (
	StickerStatusActive   StickerStatus = "Active"
	StickerStatusInactive StickerStatus = "Inactive"
)

// TokenType is the kind of a payment token.
type TokenType string

const (
	TokenTypeCOF       TokenType = "cof" // card on file
	TokenTypeRecurring TokenType = "recurring"
)

// ConfirmationType names what the payer must do.
type ConfirmationType string

const (
	ConfirmationExternal         ConfirmationType = "External"
	ConfirmationSmsOtp           ConfirmationType = "SmsOtp"
	ConfirmationThreeDSMethod    ConfirmationType = "ThreeDSMethod"
	ConfirmationThreeDSChallenge ConfirmationType = "ThreeDSChallenge"
	ConfirmationThreeDSv1        ConfirmationType = "ThreeDSv1"
)

// Payment method aliases the service's documentation uses; its spelling varies.
const (
	PaymentMethodBankCard = "bankcard"
	PaymentMethodSBP      = "sbp"
)

// StickerTypeSbp is the sticker type the spec uses as its example.
const StickerTypeSbp = "Sbp"

// ResultCode is the authorization result of a payment, refund or token.
type ResultCode string

const (
	ResultCodeSuccess              ResultCode = "Success"
	ResultCodeTransactionDeclined  ResultCode = "TransactionDeclined"
	ResultCodeIssuerUnavailable    ResultCode = "IssuerUnavailable"
	ResultCodeRejectedByFraud      ResultCode = "RejectedByFraud"
	ResultCodeInvalidAmount        ResultCode = "InvalidAmount"
	ResultCodeInvalidAccount       ResultCode = "InvalidAccount"
	ResultCodeBlockedAccount       ResultCode = "BlockedAccount"
	ResultCodeOperationNotAllowed  ResultCode = "OperationNotAllowed"
	ResultCodeInsufficientFunds    ResultCode = "InsufficientFunds"
	ResultCodeExpiredAccount       ResultCode = "ExpiredAccount"
	ResultCodePaymentLimitExceeded ResultCode = "PaymentLimitExceeded"
	ResultCodePaymentCountExceeded ResultCode = "PaymentCountExceeded"
	ResultCodeCardNotEnrolled      ResultCode = "CardNotEnrolled"
	ResultCodeThreeDSecureFailed   ResultCode = "ThreeDSecureFailed"
	ResultCodeCancelledByUser      ResultCode = "CancelledByUser"
	ResultCodePaymentExpired       ResultCode = "PaymentExpired"
)

// resultMeanings are the spec's own explanations where it gives one, and a
// plain reading of the name where it does not.
var resultMeanings = map[ResultCode]string{
	ResultCodeSuccess:              "Successful",
	ResultCodeTransactionDeclined:  "Authorization declined",
	ResultCodeIssuerUnavailable:    "Issuer unavailable",
	ResultCodeRejectedByFraud:      "Rejected by fraud monitoring",
	ResultCodeInvalidAmount:        "Invalid amount",
	ResultCodeInvalidAccount:       "Incorrect or nonexistent card number",
	ResultCodeBlockedAccount:       "Card blocked or lost",
	ResultCodeOperationNotAllowed:  "Operation not allowed",
	ResultCodeInsufficientFunds:    "Insufficient funds",
	ResultCodeExpiredAccount:       "Expired or incorrect card date",
	ResultCodePaymentLimitExceeded: "Payment limit exceeded",
	ResultCodePaymentCountExceeded: "Payment count exceeded",
	ResultCodeCardNotEnrolled:      "Card not enrolled for 3-D Secure",
	ResultCodeThreeDSecureFailed:   "3-D Secure not passed",
	ResultCodeCancelledByUser:      "Cancelled by the payer",
	ResultCodePaymentExpired:       "Payment expired",
}

// ResultCodeMeaning is a short human reading of code for the UI, or "" for a
// code the spec does not list (show the code itself then).
func ResultCodeMeaning(code ResultCode) string { return resultMeanings[code] }

// Meaning is ResultCodeMeaning(c).
func (c ResultCode) Meaning() string { return resultMeanings[c] }
