package v2

import (
	"bytes"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// Objects shared by several resources. Request members carry
// omitempty (omitzero for dates) so that what the caller leaves out is not
// sent at all; the service applies its own defaults. Amounts are
// money.Amount everywhere: exact, never float64.

// Invoice describes what is paid for. It appears in requests and answers.
type Invoice struct {
	Description string    `json:"description,omitempty"`
	OrderNo     string    `json:"orderNo,omitempty"`
	Expires     time.Time `json:"expires,omitzero"`
	Params      Params    `json:"params,omitempty"`
}

// MarshalJSON sends Expires in UTC, the form the service documents
// (docs/service.md).
func (i Invoice) MarshalJSON() ([]byte, error) {
	type plain Invoice // without this method, to avoid recursion
	p := plain(i)
	if !p.Expires.IsZero() {
		p.Expires = p.Expires.UTC()
	}
	return json.Marshal(p)
}

// Params is the invoice's free key/value set.
type Params map[string]string

// UnmarshalJSON accepts any JSON values, keeping a non-string one as its
// JSON text: "free key/value set" promises nothing about value types, and one
// odd parameter must not make a whole page of payments unreadable. For the
// same reason a params member that is not an object is ignored.
func (p *Params) UnmarshalJSON(b []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil || raw == nil {
		*p = nil
		return nil
	}
	out := make(Params, len(raw))
	for k, v := range raw {
		var s string
		if json.Unmarshal(v, &s) == nil {
			out[k] = s
			continue
		}
		var buf bytes.Buffer
		if json.Compact(&buf, v) == nil {
			out[k] = buf.String()
		}
	}
	*p = out
	return nil
}

// Customer is the payer. Answers carry only IP; token creation uses
// Account and Email; invoice creation wants Phone in E.164 without the plus.
type Customer struct {
	Email   string `json:"email,omitempty"`
	Phone   string `json:"phone,omitempty"`
	IP      string `json:"ip,omitempty"`
	Account string `json:"account,omitempty"`
}

// Protocol holds the merchant's addresses.
type Protocol struct {
	ReturnURL          string `json:"returnUrl,omitempty"`
	CallbackURL        string `json:"callbackUrl,omitempty"`
	ThreeDSCompleteURL string `json:"threeDSCompleteUrl,omitempty"`
}

// Device describes the payer's browser for 3-D Secure. All members are
// strings on the wire, numbers included.
type Device struct {
	Language         string `json:"language,omitempty"`
	AcceptHeader     string `json:"acceptHeader,omitempty"`
	UserAgent        string `json:"userAgent,omitempty"`
	ColorDepth       string `json:"colorDepth,omitempty"`
	ScreenHeight     string `json:"screenHeight,omitempty"`
	ScreenWidth      string `json:"screenWidth,omitempty"`
	UTCOffsetMinutes string `json:"utcOffsetMinutes,omitempty"`
}

// TokenizationDetails asks a payment to also create a payment token.
type TokenizationDetails struct {
	Type        TokenType `json:"type,omitempty"`
	Purpose     string    `json:"purpose,omitempty"`
	CallbackURL string    `json:"callbackUrl,omitempty"`
}

// PaymentData is the request side of paymentData: how the payer pays.
// Which members apply depends on PaymentMethod.
type PaymentData struct {
	PaymentMethod     string    `json:"paymentMethod,omitempty"`
	Card              *Card     `json:"card,omitempty"`
	DSRP              *DSRP     `json:"dsrp,omitempty"`
	AuthorizationCode string    `json:"authorizationCode,omitempty"`
	Account           string    `json:"account,omitempty"`
	Phone             string    `json:"phone,omitempty"`
	Token             *TokenRef `json:"token,omitempty"` // payment by a saved token
	StickerID         string    `json:"stickerId,omitempty"`
}

// Card is a card's details. String masks them, so a stray %v cannot print a
// card number into a log.
type Card struct {
	PAN    string `json:"pan,omitempty"`
	Expiry string `json:"expiry,omitempty"`
	CVC    string `json:"cvc,omitempty"`
}

func (c Card) String() string {
	last4 := c.PAN
	if len(last4) > 4 {
		last4 = last4[len(last4)-4:]
	}
	return "card ****" + last4
}

// GoString keeps %#v from printing the card number either.
func (c Card) GoString() string { return "v2.Card{" + c.String() + "}" }

// DSRP is a wallet payment's cryptogram (ApplePay, GooglePay).
type DSRP struct {
	Type       string `json:"type,omitempty"`
	Cryptogram string `json:"cryptogram,omitempty"`
	ECI        string `json:"eci,omitempty"`
}

// TokenRef names a payment token in a payment request.
type TokenRef struct {
	ID string `json:"id"`
}

// CardInfo describes a card (2.10 paymentData.cardInfo, 2.13).
type CardInfo struct {
	Brand    string `json:"brand,omitempty"`
	Issuer   string `json:"issuer,omitempty"`
	Country  string `json:"country,omitempty"`
	Type     string `json:"type,omitempty"` // credit or debit
	Category string `json:"category,omitempty"`
}

// Confirmation is what the payer must still do. It is one struct for
// every Type; only the members of its Type are set. Payments answer with one
// confirmation at a time; after the payer acts, call Complete with the
// matching member of CompleteRequest.
type Confirmation struct {
	Type ConfirmationType `json:"type"`

	// External
	PaymentURL    string `json:"paymentUrl,omitempty"`
	UniversalLink bool   `json:"universalLink,omitempty"`
	Instruction   string `json:"instruction,omitempty"`
	// SmsOtp
	MaskedPhone string `json:"maskedPhone,omitempty"`
	// ThreeDSMethod
	MethodURL     string `json:"methodUrl,omitempty"`
	TransactionID string `json:"transactionId,omitempty"`
	// ThreeDSChallenge (ACSURL, CReq) and ThreeDSv1 (ACSURL, PAReq)
	ACSURL string `json:"acsUrl,omitempty"`
	CReq   string `json:"creq,omitempty"`
	PAReq  string `json:"PAReq,omitempty"`
}

// CompleteRequest answers a confirmation (PUT .../complete): Code for
// SmsOtp, ThreeDSCompInd for ThreeDSMethod, CRes for ThreeDSChallenge, PARes
// for ThreeDSv1.
type CompleteRequest struct {
	Code           string `json:"code,omitempty"`
	ThreeDSCompInd string `json:"threeDSCompInd,omitempty"`
	CRes           string `json:"cres,omitempty"`
	PARes          string `json:"PARes,omitempty"`
}

// CreateOptions go with every creating POST.
type CreateOptions struct {
	// IdempotencyKey makes a repeated create return the first answer instead
	// of creating twice. Empty: the client generates one; either way it is in
	// Response.IdempotencyKey, to reuse when retrying by hand after a timeout.
	IdempotencyKey string
}

func (o *CreateOptions) key() (string, error) {
	if o == nil || o.IdempotencyKey == "" {
		return newIdempotencyKey(), nil
	}
	if len(o.IdempotencyKey) > 255 || !validHeaderValue(o.IdempotencyKey) {
		return "", errors.New("v2: the idempotency key must be at most 255 printable ASCII characters")
	}
	return o.IdempotencyKey, nil
}

// newIdempotencyKey makes a random (version 4) UUID. crypto/rand, because a
// guessable or colliding key would let one create answer for another.
func newIdempotencyKey() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // never fails since Go 1.24
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
