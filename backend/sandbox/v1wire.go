package sandbox

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"strconv"
	"time"

	"paydash/backend/money"
)

// The v1 shapes (docs/service.md): JSON by default, XML (root
// Response, no namespaces) for documents, transfers and registers with
// xml=1. Member and element names are the service's documented field names. Ids and
// amounts are numbers; dates are yyyy-MM-ddTHH:mm:ss in UTC without an
// offset. encoding/xml escapes text and replaces characters XML 1.0 forbids
// (control characters in an order number, say) with U+FFFD, so the XML is
// always well-formed.

const v1TimeLayout = "2006-01-02T15:04:05"

// v1Time is a time in the v1 form.
type v1Time time.Time

func (t v1Time) MarshalText() ([]byte, error) {
	return time.Time(t).UTC().AppendFormat(nil, v1TimeLayout), nil
}

func (t v1Time) MarshalJSON() ([]byte, error) {
	b := append([]byte{'"'}, time.Time(t).UTC().AppendFormat(nil, v1TimeLayout)...)
	return append(b, '"'), nil
}

// v1Number is an id of digits, sent as a JSON number (as a string if it
// is not digits, which no store id is).
type v1Number string

func (n v1Number) MarshalText() ([]byte, error) { return []byte(n), nil }

func (n v1Number) MarshalJSON() ([]byte, error) {
	if _, ok := seqOf(string(n)); ok || n == "0" {
		return []byte(n), nil
	}
	return []byte(strconv.Quote(string(n))), nil
}

// v1Amount is an amount with the currency's usual decimals (more if the
// value has them): a JSON number such as 1250.00.
type v1Amount struct {
	v        money.Decimal
	currency string
}

func v1Money(v money.Decimal, currency string) v1Amount { return v1Amount{v, currency} }

func (a v1Amount) String() string { return string(appendFixed(nil, a.v, money.Decimals(a.currency))) }

func (a v1Amount) MarshalText() ([]byte, error) {
	return appendFixed(nil, a.v, money.Decimals(a.currency)), nil
}
func (a v1Amount) MarshalJSON() ([]byte, error) {
	return appendFixed(nil, a.v, money.Decimals(a.currency)), nil
}

// --- error codes (the service's documented table) ---

const (
	v1OK           = 0
	v1ErrUnknown   = -1
	v1ErrAccess    = -6
	v1ErrSignature = -7
	v1ErrNotFound  = -13
	v1ErrNonce     = -14
	v1ErrCancelled = -15
	v1ErrAmount    = -18
	v1ErrNotAllow  = -31
)

var v1ErrorTexts = map[int]string{
	-1:  "Unknown error; system failure",
	-2:  "Network error; system failure",
	-6:  "No access: incorrect login or insufficient rights",
	-7:  "Invalid request signature",
	-8:  "The merchant declined the payment at the pre-request stage",
	-9:  "The account expired",
	-10: "The payment system declined the payment",
	-13: "Payment cannot be found by the account number",
	-14: "Repeat of the request with the same nonce",
	-15: "The payment expired or was cancelled",
	-17: "The user refused to pay",
	-18: "Incorrect amount value",
	-19: "The user does not have enough funds",
	-22: "Cannot log into the payment system",
	-25: "3D Secure authorization failed",
	-26: "Invalid card number",
	-27: "Card expired",
	-28: "Card blocked",
	-29: "Payment amount limit exceeded",
	-30: "Payment quantity limit exceeded",
	-31: "Inadmissible card operation",
}

// V1FailureCode reports whether code is one of the v1 interface's failure
// codes (those it documents; 0, success, is not one).
func V1FailureCode(code int) bool {
	_, ok := v1ErrorTexts[code]
	return ok
}

func v1ErrorText(code int) string {
	if t, ok := v1ErrorTexts[code]; ok {
		return t
	}
	return "error " + strconv.Itoa(code)
}

// v1CodeOfResult maps a v2 result code (why a payment or refund failed) to
// the closest v1 failure code.
var v1CodeOfResult = map[string]int{
	"TransactionDeclined":  -10,
	"InsufficientFunds":    -19,
	"ThreeDSecureFailed":   -25,
	"CardNotEnrolled":      -25,
	"InvalidAccount":       -26,
	"ExpiredAccount":       -27,
	"BlockedAccount":       -28,
	"PaymentLimitExceeded": -29,
	"PaymentCountExceeded": -30,
	"OperationNotAllowed":  -31,
	"CancelledByUser":      -17,
	"PaymentExpired":       -15,
	"RejectedByFraud":      -8,
	"IssuerUnavailable":    -22,
	"InvalidAmount":        -18,
}

// V1ErrorCode is the failure reason v1 shows in the payment (0: none): the
// decline's reason for a Rejected payment, the code given to cancelPayment
// for a released hold.
func (p Payment) V1ErrorCode() int {
	switch p.Status {
	case PaymentRejected:
		if c, ok := v1CodeOfResult[p.ResultCode]; ok {
			return c
		}
		return -10
	case PaymentCancelled:
		return p.CancelCode
	}
	return 0
}

// --- JSON shapes ---

type v1Payment struct {
	PaymentID           v1Number `json:"PaymentID"`
	SiteInvoiceID       string   `json:"SiteInvoiceID"`
	SiteID              v1Number `json:"SiteID"`
	CurrencyCode        string   `json:"CurrencyCode"`
	Amount              v1Amount `json:"Amount"`
	PaymentMethod       string   `json:"PaymentMethod"`
	PaymentCurrencyCode string   `json:"PaymentCurrencyCode"`
	PaymentAmount       v1Amount `json:"PaymentAmount"`
	State               string   `json:"State"`
	Purpose             string   `json:"Purpose"`
	IsTestPayment       bool     `json:"IsTestPayment"`
	LastUpdateTime      v1Time   `json:"LastUpdateTime"`
	LastUpdate          v1Time   `json:"LastUpdate"` // the XML name, read from JSON by some clients: the same time
	UserIdentifier      string   `json:"UserIdentifier"`
	UserPhoneNumber     string   `json:"UserPhoneNumber"`
	ErrorCode           int      `json:"ErrorCode,omitempty"`
}

type v1Refund struct {
	RefundID   v1Number `json:"RefundID"`
	ExternalID *string  `json:"ExternalID"`
	PaymentID  v1Number `json:"PaymentID"`
	Amount     v1Amount `json:"Amount"`
	ErrorCode  int      `json:"ErrorCode,omitempty"`
	ErrorDesc  string   `json:"ErrorDesc,omitempty"`
	State      string   `json:"State"`
	LastUpdate v1Time   `json:"LastUpdate"`
}

// Documents, transfers and registers serve both JSON and XML.

type v1Document struct {
	Created     v1Time   `json:"Created" xml:"Created"`
	Description string   `json:"Description" xml:"Description"`
	DocumentID  v1Number `json:"DocumentID" xml:"DocumentID"`
	FileName    string   `json:"FileName" xml:"FileName"`
}

type v1Transfer struct {
	Created        v1Time   `json:"Created" xml:"Created"`
	CurrencyCode   string   `json:"CurrencyCode" xml:"CurrencyCode"`
	TransferAmount v1Amount `json:"TransferAmount" xml:"TransferAmount"`
	PaymentOrderID v1Number `json:"PaymentOrderID" xml:"PaymentOrderID"`
	RegisterID     v1Number `json:"RegisterID" xml:"RegisterID"`
}

type v1Operation struct {
	OperationID     v1Number `json:"OperationID" xml:"OperationID"`
	SiteAlias       string   `json:"SiteAlias" xml:"SiteAlias"`
	InvoiceID       string   `json:"InvoiceID" xml:"InvoiceID"`
	Stamp           v1Time   `json:"Stamp" xml:"Stamp"`
	CurrencyCode    string   `json:"CurrencyCode" xml:"CurrencyCode"`
	OperationAmount v1Amount `json:"OperationAmount" xml:"OperationAmount"`
	TransferAmount  v1Amount `json:"TransferAmount" xml:"TransferAmount"`
}

type v1Register struct {
	PeriodFrom     v1Time        `json:"PeriodFrom" xml:"PeriodFrom"`
	PeriodTo       v1Time        `json:"PeriodTo" xml:"PeriodTo"`
	RegisterID     v1Number      `json:"RegisterID" xml:"RegisterID"`
	RegisterNumber string        `json:"RegisterNumber" xml:"RegisterNumber"`
	Operations     []v1Operation `json:"Operations" xml:"Operations>Operation"`
}

// v1Envelope is every JSON answer: ErrorCode, then Message on an error or
// the operation's member.
type v1Envelope struct {
	ErrorCode int        `json:"ErrorCode"`
	Message   string     `json:"Message,omitempty"`
	Payment   *v1Payment `json:"Payment,omitempty"`
	Refund    *v1Refund  `json:"Refund,omitempty"`
	Response  any        `json:"Response,omitempty"`
}

type v1PaymentList struct {
	Overflow bool        `json:"Overflow"`
	Payments []v1Payment `json:"Payments"`
}

type v1DocumentsJSON struct {
	Documents []v1Document `json:"Documents"`
}

type v1TransfersJSON struct {
	Transfers []v1Transfer `json:"Transfers"`
}

type v1RegisterJSON struct {
	Register *v1Register `json:"Register"`
}

// --- XML shapes ---

// v1XML is every XML answer: <Response><ErrorCode/>, then <Message/> on an
// error or the list or register.
type v1XML struct {
	XMLName   xml.Name        `xml:"Response"`
	ErrorCode int             `xml:"ErrorCode"`
	Message   string          `xml:"Message,omitempty"`
	Documents *v1DocumentsXML `xml:"Documents,omitempty"`
	Transfers *v1TransfersXML `xml:"Transfers,omitempty"`
	Register  *v1Register     `xml:"Register,omitempty"`
}

type v1DocumentsXML struct {
	Items []v1Document `xml:"Document"`
}

type v1TransfersXML struct {
	Items []v1Transfer `xml:"Transfer"`
}

// --- rendering the store's objects ---

func v1Method(p *Payment) string {
	if p.Instrument == nil {
		return ""
	}
	if p.Instrument.Method == MethodSBP {
		return "SBP"
	}
	return p.Instrument.Method
}

func renderV1Payment(p *Payment) v1Payment {
	cur := p.Amount.Currency
	return v1Payment{
		PaymentID: v1Number(p.ID), SiteInvoiceID: p.SiteInvoiceID(), SiteID: v1Number(p.MerchantID),
		CurrencyCode: cur, Amount: v1Money(p.Amount.Value, cur), PaymentMethod: v1Method(p),
		PaymentCurrencyCode: cur, PaymentAmount: v1Money(p.PaidAmount(), cur), State: p.Status.V1State(),
		Purpose: p.Purpose(), IsTestPayment: p.TestMode, LastUpdateTime: v1Time(p.Updated), LastUpdate: v1Time(p.Updated),
		UserIdentifier: p.UserIdentifier(), UserPhoneNumber: p.UserPhoneNumber(), ErrorCode: p.V1ErrorCode(),
	}
}

func renderV1Refund(r *Refund) v1Refund {
	out := v1Refund{
		RefundID: v1Number(r.ID), PaymentID: v1Number(r.PaymentID), Amount: v1Money(r.Amount.Value, r.Amount.Currency),
		State: r.Status.V1State(), LastUpdate: v1Time(r.Updated),
	}
	if r.ExternalID != "" {
		ext := r.ExternalID
		out.ExternalID = &ext
	}
	if r.Status == RefundRejected {
		out.ErrorCode = -31
		if c, ok := v1CodeOfResult[r.ResultCode]; ok {
			out.ErrorCode = c
		}
		out.ErrorDesc = r.Message
		if out.ErrorDesc == "" {
			out.ErrorDesc = resultMessage(r.ResultCode)
		}
	}
	return out
}

func renderV1Document(d *Document) v1Document {
	return v1Document{Created: v1Time(d.Created), Description: d.Description, DocumentID: v1Number(d.ID), FileName: d.FileName}
}

func renderV1Transfer(t *Transfer) v1Transfer {
	return v1Transfer{
		Created: v1Time(t.Created), CurrencyCode: t.Currency, TransferAmount: v1Money(t.Amount, t.Currency),
		PaymentOrderID: v1Number(t.PaymentOrderID), RegisterID: v1Number(t.RegisterID),
	}
}

func renderV1Register(r *Register) *v1Register {
	out := &v1Register{
		PeriodFrom: v1Time(r.PeriodFrom), PeriodTo: v1Time(r.PeriodTo.Add(-time.Second)),
		RegisterID: v1Number(r.RegisterID), RegisterNumber: r.RegisterNumber,
		Operations: make([]v1Operation, len(r.Operations)),
	}
	for i := range r.Operations {
		op := &r.Operations[i]
		out.Operations[i] = v1Operation{
			OperationID: v1Number(op.OperationID), SiteAlias: op.MerchantID, InvoiceID: op.InvoiceID,
			Stamp: v1Time(op.Stamp), CurrencyCode: op.Currency,
			OperationAmount: v1Money(op.Amount, op.Currency), TransferAmount: v1Money(op.TransferAmount, op.Currency),
		}
	}
	return out
}

// --- the register in XML, by hand ---

// A big register (tens of thousands of operations) goes through
// encoding/xml's reflection at some 5 µs an operation, so the register's
// XML is written directly instead: the same bytes the Encoder would write
// (a test compares them), text escaped by xml.EscapeText.

func writeRegisterXML(buf *bytes.Buffer, r *Register) {
	buf.WriteString(xml.Header)
	buf.WriteString("<Response><ErrorCode>0</ErrorCode><Register>")
	xmlTime(buf, "PeriodFrom", r.PeriodFrom)
	xmlTime(buf, "PeriodTo", r.PeriodTo.Add(-time.Second))
	xmlText(buf, "RegisterID", r.RegisterID)
	xmlText(buf, "RegisterNumber", r.RegisterNumber)
	buf.WriteString("<Operations>")
	for i := range r.Operations {
		op := &r.Operations[i]
		buf.WriteString("<Operation>")
		xmlText(buf, "OperationID", op.OperationID)
		xmlText(buf, "SiteAlias", op.MerchantID)
		xmlText(buf, "InvoiceID", op.InvoiceID)
		xmlTime(buf, "Stamp", op.Stamp)
		xmlText(buf, "CurrencyCode", op.Currency)
		xmlAmount(buf, "OperationAmount", op.Amount, op.Currency)
		xmlAmount(buf, "TransferAmount", op.TransferAmount, op.Currency)
		buf.WriteString("</Operation>")
	}
	buf.WriteString("</Operations></Register></Response>")
}

func xmlOpen(buf *bytes.Buffer, name string) {
	buf.WriteByte('<')
	buf.WriteString(name)
	buf.WriteByte('>')
}

func xmlClose(buf *bytes.Buffer, name string) {
	buf.WriteString("</")
	buf.WriteString(name)
	buf.WriteByte('>')
}

// xmlText writes an element of text: plain printable ASCII as it is,
// anything else through xml.EscapeText (which also replaces characters XML
// 1.0 forbids).
func xmlText(buf *bytes.Buffer, name, s string) {
	xmlOpen(buf, name)
	plain := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '<' || c == '>' || c == '&' || c == '\'' || c == '"' {
			plain = false
			break
		}
	}
	if plain {
		buf.WriteString(s)
	} else {
		_ = xml.EscapeText(buf, []byte(s))
	}
	xmlClose(buf, name)
}

func xmlTime(buf *bytes.Buffer, name string, t time.Time) {
	xmlOpen(buf, name)
	buf.Write(t.UTC().AppendFormat(buf.AvailableBuffer(), v1TimeLayout))
	xmlClose(buf, name)
}

func xmlAmount(buf *bytes.Buffer, name string, v money.Decimal, currency string) {
	xmlOpen(buf, name)
	buf.Write(appendFixed(buf.AvailableBuffer(), v, money.Decimals(currency)))
	xmlClose(buf, name)
}

// appendFixed is money.Decimal.StringFixed without its allocations: places
// decimals, more if the value has them.
func appendFixed(b []byte, d money.Decimal, places int) []byte {
	places = min(max(places, 0), money.Scale)
	v := int64(d)
	for places < money.Scale && v%pow10i(money.Scale-places) != 0 {
		places++
	}
	if v < 0 {
		b = append(b, '-')
		v = -v
	}
	b = strconv.AppendInt(b, v/10000, 10)
	if places == 0 {
		return b
	}
	b = append(b, '.')
	frac := v % 10000
	for i, div := 0, int64(1000); i < places; i, div = i+1, div/10 {
		b = append(b, byte('0'+frac/div%10))
	}
	return b
}

func pow10i(n int) int64 {
	p := int64(1)
	for range n {
		p *= 10
	}
	return p
}

// writeRegisterJSON is the JSON answer of getTransferRegister, by hand for
// the same reason: the bytes json.Marshal writes for
// v1Envelope{Response: v1RegisterJSON{...}} (a test compares them).
func writeRegisterJSON(buf *bytes.Buffer, r *Register) {
	buf.WriteString(`{"ErrorCode":0,"Response":{"Register":{"PeriodFrom":`)
	jsonTime(buf, r.PeriodFrom)
	buf.WriteString(`,"PeriodTo":`)
	jsonTime(buf, r.PeriodTo.Add(-time.Second))
	buf.WriteString(`,"RegisterID":`)
	jsonNumber(buf, r.RegisterID)
	buf.WriteString(`,"RegisterNumber":`)
	jsonString(buf, r.RegisterNumber)
	buf.WriteString(`,"Operations":[`)
	for i := range r.Operations {
		op := &r.Operations[i]
		if i > 0 {
			buf.WriteByte(',')
		}
		buf.WriteString(`{"OperationID":`)
		jsonNumber(buf, op.OperationID)
		buf.WriteString(`,"SiteAlias":`)
		jsonString(buf, op.MerchantID)
		buf.WriteString(`,"InvoiceID":`)
		jsonString(buf, op.InvoiceID)
		buf.WriteString(`,"Stamp":`)
		jsonTime(buf, op.Stamp)
		buf.WriteString(`,"CurrencyCode":`)
		jsonString(buf, op.Currency)
		buf.WriteString(`,"OperationAmount":`)
		buf.Write(appendFixed(buf.AvailableBuffer(), op.Amount, money.Decimals(op.Currency)))
		buf.WriteString(`,"TransferAmount":`)
		buf.Write(appendFixed(buf.AvailableBuffer(), op.TransferAmount, money.Decimals(op.Currency)))
		buf.WriteByte('}')
	}
	buf.WriteString(`]}}}`)
}

func jsonTime(buf *bytes.Buffer, t time.Time) {
	b := append(buf.AvailableBuffer(), '"')
	b = t.UTC().AppendFormat(b, v1TimeLayout)
	buf.Write(append(b, '"'))
}

func jsonNumber(buf *bytes.Buffer, n string) {
	if _, ok := seqOf(n); ok {
		buf.WriteString(n)
		return
	}
	b, _ := v1Number(n).MarshalJSON()
	buf.Write(b)
}

// jsonString writes plain printable ASCII as it is and anything else the
// way encoding/json does.
func jsonString(buf *bytes.Buffer, s string) {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			b, _ := json.Marshal(s)
			buf.Write(b)
			return
		}
	}
	buf.WriteByte('"')
	buf.WriteString(s)
	buf.WriteByte('"')
}
