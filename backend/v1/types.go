package v1

import (
	"encoding/xml"
	"time"

	"paydash/backend/money"
)

// Payment statuses, as the service documents them. The service may send
// others; compare with these constants rather than switching exhaustively.
const (
	StateInitiated  = "INITIATED"
	StateProcessing = "PROCESSING"
	StateComplete   = "COMPLETE"
	StateCancelled  = "CANCELLED"
	StateHold       = "HOLD"
)

// Refund statuses, as the service documents them. A new refund is returned as
// EXECUTING.
const (
	RefundPending   = "PENDING"
	RefundExecuting = "EXECUTING"
	RefundSuccess   = "SUCCESS"
	RefundFailure   = "FAILURE"
)

// PaymentStates are the five payment statuses of the spec, in its order;
// PaymentPages narrows an overflowing day by each of them.
func PaymentStates() []string {
	return []string{StateInitiated, StateProcessing, StateComplete, StateCancelled, StateHold}
}

// The answer types below decode from JSON and from XML (element names of
// the spec, no namespaces). Ids are strings whether the service sends a
// number or a string; amounts are exact (money.Decimal) from a number or a
// string; null, empty and absent fields leave the zero value; unknown
// fields and elements are ignored. Times are UTC.

// fromJSON reads the JSON form of a T through its wire form W, which
// carries the tolerances; convert makes the T.
func fromJSON[W, T any](b []byte, out *T, convert func(*W) T) error {
	var w W
	if err := unmarshalJSONObject(b, &w); err != nil {
		return err
	}
	*out = convert(&w)
	return nil
}

// fromXML reads the XML form of a T through its wire form W, as fromJSON
// reads the JSON form.
func fromXML[W, T any](d *xml.Decoder, start xml.StartElement, out *T, convert func(*W) T) error {
	var w W
	if err := d.DecodeElement(&w, &start); err != nil {
		return err
	}
	*out = convert(&w)
	return nil
}

// Payment is a payment as getPayment, getPaymentByInvoiceID,
// confirmPayment, cancelPayment and listPaymentsFilter answer it.
type Payment struct {
	PaymentID           string
	SiteInvoiceID       string // the merchant's order (account) number
	SiteID              string // the site = the v2 merchant id
	CurrencyCode        string
	Amount              money.Decimal // the amount asked for
	PaymentMethod       string
	PaymentCurrencyCode string
	PaymentAmount       money.Decimal // what was actually paid (the captured amount), 0 until paid
	State               string        // StateInitiated...
	Purpose             string
	IsTestPayment       bool
	LastUpdateTime      time.Time // XML name LastUpdate; both are accepted in both forms
	UserIdentifier      string
	UserPhoneNumber     string
	ErrorCode           int // the failure reason (an error code) when CANCELLED; 0 otherwise
}

type paymentWire struct {
	PaymentID           flexString
	SiteInvoiceID       flexString
	SiteID              flexString
	CurrencyCode        flexString
	Amount              flexDecimal
	PaymentMethod       flexString
	PaymentCurrencyCode flexString
	PaymentAmount       flexDecimal
	State               flexString
	Purpose             flexString
	IsTestPayment       flexBool
	LastUpdateTime      flexTime
	LastUpdate          flexTime
	UserIdentifier      flexString
	UserPhoneNumber     flexString
	ErrorCode           flexInt
}

func (w *paymentWire) payment() Payment {
	p := Payment{
		PaymentID:           w.PaymentID.id(),
		SiteInvoiceID:       string(w.SiteInvoiceID),
		SiteID:              w.SiteID.id(),
		CurrencyCode:        w.CurrencyCode.id(),
		Amount:              money.Decimal(w.Amount),
		PaymentMethod:       string(w.PaymentMethod),
		PaymentCurrencyCode: w.PaymentCurrencyCode.id(),
		PaymentAmount:       money.Decimal(w.PaymentAmount),
		State:               w.State.id(),
		Purpose:             string(w.Purpose),
		IsTestPayment:       bool(w.IsTestPayment),
		LastUpdateTime:      time.Time(w.LastUpdateTime),
		UserIdentifier:      string(w.UserIdentifier),
		UserPhoneNumber:     string(w.UserPhoneNumber),
		ErrorCode:           int(w.ErrorCode),
	}
	if p.LastUpdateTime.IsZero() {
		p.LastUpdateTime = time.Time(w.LastUpdate)
	}
	return p
}

// UnmarshalJSON reads the JSON form, with the tolerances described above.
func (p *Payment) UnmarshalJSON(b []byte) error {
	return fromJSON(b, p, (*paymentWire).payment)
}

// UnmarshalXML reads the XML form.
func (p *Payment) UnmarshalXML(d *xml.Decoder, start xml.StartElement) error {
	return fromXML(d, start, p, (*paymentWire).payment)
}

// Refund is a refund as refundPayment and listRefunds answer it.
type Refund struct {
	RefundID   string
	ExternalID string // the merchant's refund id; "" when null
	PaymentID  string
	Amount     money.Decimal
	ErrorCode  int    // why it failed; 0 when null or absent
	ErrorDesc  string // "" when null or absent
	State      string // RefundPending...
	LastUpdate time.Time
}

type refundWire struct {
	RefundID       flexString
	ExternalID     flexString
	PaymentID      flexString
	Amount         flexDecimal
	ErrorCode      flexInt
	ErrorDesc      flexString
	State          flexString
	Status         flexString // the spec's parameter table calls it Status
	LastUpdate     flexTime
	LastUpdateTime flexTime
}

func (w *refundWire) refund() Refund {
	r := Refund{
		RefundID:   w.RefundID.id(),
		ExternalID: string(w.ExternalID),
		PaymentID:  w.PaymentID.id(),
		Amount:     money.Decimal(w.Amount),
		ErrorCode:  int(w.ErrorCode),
		ErrorDesc:  string(w.ErrorDesc),
		State:      w.State.id(),
		LastUpdate: time.Time(w.LastUpdate),
	}
	if r.State == "" {
		r.State = w.Status.id()
	}
	if r.LastUpdate.IsZero() {
		r.LastUpdate = time.Time(w.LastUpdateTime)
	}
	return r
}

// UnmarshalJSON reads the JSON form.
func (r *Refund) UnmarshalJSON(b []byte) error {
	return fromJSON(b, r, (*refundWire).refund)
}

// UnmarshalXML reads the XML form.
func (r *Refund) UnmarshalXML(d *xml.Decoder, start xml.StartElement) error {
	return fromXML(d, start, r, (*refundWire).refund)
}

// Document is one item of listDocuments; download it with
// GetDocumentContent(DocumentID).
type Document struct {
	Created     time.Time
	Description string
	DocumentID  string
	FileName    string
}

type documentWire struct {
	Created     flexTime
	Description flexString
	DocumentID  flexString
	FileName    flexString
}

// UnmarshalJSON reads the JSON form.
func (d *Document) UnmarshalJSON(b []byte) error {
	return fromJSON(b, d, (*documentWire).document)
}

// UnmarshalXML reads the XML form.
func (d *Document) UnmarshalXML(dec *xml.Decoder, start xml.StartElement) error {
	return fromXML(dec, start, d, (*documentWire).document)
}

func (w *documentWire) document() Document {
	return Document{
		Created:     time.Time(w.Created),
		Description: string(w.Description),
		DocumentID:  w.DocumentID.id(),
		FileName:    string(w.FileName),
	}
}

// Transfer is one item of listTransfers: money paid out to the
// merchant, with the register of the operations it pays for.
type Transfer struct {
	Created        time.Time // the payment (transfer) date
	CurrencyCode   string
	TransferAmount money.Decimal
	PaymentOrderID string // the number of the payment order
	RegisterID     string
}

type transferWire struct {
	Created        flexTime
	CurrencyCode   flexString
	TransferAmount flexDecimal
	PaymentOrderID flexString
	RegisterID     flexString
}

// UnmarshalJSON reads the JSON form.
func (t *Transfer) UnmarshalJSON(b []byte) error {
	return fromJSON(b, t, (*transferWire).transfer)
}

// UnmarshalXML reads the XML form.
func (t *Transfer) UnmarshalXML(d *xml.Decoder, start xml.StartElement) error {
	return fromXML(d, start, t, (*transferWire).transfer)
}

func (w *transferWire) transfer() Transfer {
	return Transfer{
		Created:        time.Time(w.Created),
		CurrencyCode:   w.CurrencyCode.id(),
		TransferAmount: money.Decimal(w.TransferAmount),
		PaymentOrderID: w.PaymentOrderID.id(),
		RegisterID:     w.RegisterID.id(),
	}
}

// Register is a transfer's register: the payments and refunds the
// transfer pays for.
type Register struct {
	PeriodFrom     time.Time
	PeriodTo       time.Time
	RegisterID     string
	RegisterNumber string
	Operations     []Operation
}

// Operation is one row of a register: a payment or a refund.
type Operation struct {
	OperationID     string
	SiteAlias       string // the site id
	InvoiceID       string // the merchant's account (order) number
	Stamp           time.Time
	CurrencyCode    string
	OperationAmount money.Decimal
	TransferAmount  money.Decimal // what the operation adds to (or takes from) the transfer
}

type registerWire struct {
	PeriodFrom     flexTime
	PeriodTo       flexTime
	RegisterID     flexString
	RegisterNumber flexString
	Operations     []operationWire `xml:"Operations>Operation"`
}

// UnmarshalJSON reads the JSON form.
func (r *Register) UnmarshalJSON(b []byte) error {
	return fromJSON(b, r, (*registerWire).register)
}

// UnmarshalXML reads the XML form.
func (r *Register) UnmarshalXML(d *xml.Decoder, start xml.StartElement) error {
	return fromXML(d, start, r, (*registerWire).register)
}

func (w *registerWire) register() Register {
	return Register{
		PeriodFrom:     time.Time(w.PeriodFrom),
		PeriodTo:       time.Time(w.PeriodTo),
		RegisterID:     w.RegisterID.id(),
		RegisterNumber: w.RegisterNumber.id(),
		Operations:     convert(w.Operations, (*operationWire).operation),
	}
}

// convert maps decoded wire items to the answer type; nil stays nil.
func convert[W, T any](in []W, f func(*W) T) []T {
	if in == nil {
		return nil
	}
	out := make([]T, len(in))
	for i := range in {
		out[i] = f(&in[i])
	}
	return out
}

type operationWire struct {
	OperationID     flexString
	SiteAlias       flexString
	InvoiceID       flexString
	Stamp           flexTime
	CurrencyCode    flexString
	OperationAmount flexDecimal
	TransferAmount  flexDecimal
}

// UnmarshalJSON reads the JSON form.
func (o *Operation) UnmarshalJSON(b []byte) error {
	return fromJSON(b, o, (*operationWire).operation)
}

// UnmarshalXML reads the XML form.
func (o *Operation) UnmarshalXML(d *xml.Decoder, start xml.StartElement) error {
	return fromXML(d, start, o, (*operationWire).operation)
}

func (w *operationWire) operation() Operation {
	return Operation{
		OperationID:     w.OperationID.id(),
		SiteAlias:       w.SiteAlias.id(),
		InvoiceID:       string(w.InvoiceID),
		Stamp:           time.Time(w.Stamp),
		CurrencyCode:    w.CurrencyCode.id(),
		OperationAmount: money.Decimal(w.OperationAmount),
		TransferAmount:  money.Decimal(w.TransferAmount),
	}
}

// PaymentList is a listPaymentsFilter answer: at most 1,000 payments, newest
// first, and Overflow when more matched (narrow the search, or use
// PaymentPages which does).
type PaymentList struct {
	Overflow bool
	Payments []Payment
}

// RefundList is a listRefunds answer; Overflow as for PaymentList.
type RefundList struct {
	Overflow bool
	Refunds  []Refund
}

// DocumentContent is a downloaded document: the file's bytes, its content
// type as the service labelled it (text/csv, application/pdf...) and the
// file name from Content-Disposition ("" when none was given).
type DocumentContent struct {
	Data        []byte
	ContentType string
	FileName    string
}
