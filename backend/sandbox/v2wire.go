package sandbox

import (
	"time"

	"paydash/backend/money"
)

// The v2 JSON shapes (docs/service.md). Member names are the service's
// documented ones, case for case. Absent members are omitted, never sent as
// null; times are UTC (the store keeps them so) and marshal as RFC 3339.

type wireError struct {
	Code    string   `json:"code"`
	Message string   `json:"message"`
	Errors  []string `json:"errors,omitempty"`
}

type wireInvoice struct {
	Description string         `json:"description,omitempty"`
	OrderNo     string         `json:"orderNo,omitempty"`
	Expires     time.Time      `json:"expires,omitzero"`
	Params      map[string]any `json:"params,omitempty"`
}

type wireCardInfo struct {
	Brand    string `json:"brand,omitempty"`
	Issuer   string `json:"issuer,omitempty"`
	Country  string `json:"country,omitempty"`
	Type     string `json:"type,omitempty"`
	Category string `json:"category,omitempty"`
}

type wirePaymentData struct {
	PaymentMethod          string        `json:"paymentMethod,omitempty"`
	PaymentInstrumentTitle string        `json:"paymentInstrumentTitle,omitempty"`
	Agreement              string        `json:"agreement,omitempty"`
	CardInfo               *wireCardInfo `json:"cardInfo,omitempty"`
}

type wireConfirmation struct {
	Type          string `json:"type"`
	PaymentURL    string `json:"paymentUrl,omitempty"`
	UniversalLink *bool  `json:"universalLink,omitempty"`
	Instruction   string `json:"instruction,omitempty"`
	MaskedPhone   string `json:"maskedPhone,omitempty"`
	MethodURL     string `json:"methodUrl,omitempty"`
	TransactionID string `json:"transactionId,omitempty"`
	AcsURL        string `json:"acsUrl,omitempty"`
	CReq          string `json:"creq,omitempty"`
	PAReq         string `json:"PAReq,omitempty"`
}

type wirePaymentToken struct {
	ID      string    `json:"id"`
	Expires time.Time `json:"expires,omitzero"`
	Title   string    `json:"title,omitempty"`
}

type wireCustomer struct {
	IP string `json:"ip,omitempty"`
}

// wirePayment is the full Payment; list items and notifications fill
// only their subset.
type wirePayment struct {
	ID           string            `json:"id"`
	Created      time.Time         `json:"created"`
	Completed    time.Time         `json:"completed,omitzero"`
	TestMode     *bool             `json:"testMode,omitempty"`
	Status       PaymentStatus     `json:"status"`
	ResultCode   string            `json:"resultCode,omitempty"`
	Message      string            `json:"message,omitempty"`
	MerchantID   string            `json:"merchantId"`
	Invoice      *wireInvoice      `json:"invoice,omitempty"`
	Amount       money.Amount      `json:"amount"`
	Customer     *wireCustomer     `json:"customer,omitempty"`
	PaymentData  *wirePaymentData  `json:"paymentData,omitempty"`
	Confirmation *wireConfirmation `json:"confirmation,omitempty"`
	PaymentToken *wirePaymentToken `json:"paymentToken,omitempty"`
}

type wireRefund struct {
	ID         string       `json:"id"`
	Created    time.Time    `json:"created"`
	PaymentID  string       `json:"paymentId"`
	Amount     money.Amount `json:"amount"`
	Status     RefundStatus `json:"status"`
	ResultCode string       `json:"resultCode,omitempty"`
}

type wireToken struct {
	ID           string            `json:"id"`
	Status       TokenStatus       `json:"status"`
	ResultCode   string            `json:"resultCode,omitempty"`
	Title        string            `json:"title,omitempty"`
	Expires      time.Time         `json:"expires,omitzero"`
	CardInfo     *wireCardInfo     `json:"cardInfo,omitempty"`
	Confirmation *wireConfirmation `json:"confirmation,omitempty"`
}

type wireTokenNotification struct {
	ID      string      `json:"id"`
	Status  TokenStatus `json:"status"`
	Title   string      `json:"title,omitempty"`
	Expires time.Time   `json:"expires,omitzero"`
}

type wireSticker struct {
	ID             string        `json:"id"`
	StickerType    string        `json:"stickerType,omitempty"`
	Cashlink       bool          `json:"cashlink"`
	Description    string        `json:"description,omitempty"`
	ProductCode    string        `json:"productCode,omitempty"`
	PaymentPurpose string        `json:"paymentPurpose,omitempty"`
	Amount         *money.Amount `json:"amount,omitempty"`
	Status         StickerStatus `json:"status"`
	Payload        string        `json:"payload,omitempty"`
}

type wireList[T any] struct {
	Items  []T    `json:"items"`
	Cursor string `json:"cursor,omitempty"`
}

type wireInvoiceCreated struct {
	PaymentID string `json:"paymentId"`
	URL       string `json:"url"`
}

type wireTokenizationCreated struct {
	TokenID string `json:"tokenId"`
	URL     string `json:"url"`
}

// --- rendering ---

func renderInvoice(inv Invoice, withParams bool) *wireInvoice {
	w := &wireInvoice{Description: inv.Description, OrderNo: inv.OrderNo, Expires: inv.Expires}
	if withParams {
		w.Params = inv.Params
	}
	if w.Description == "" && w.OrderNo == "" && w.Expires.IsZero() && len(w.Params) == 0 {
		return nil
	}
	return w
}

func renderCardInfo(c *CardInfo) *wireCardInfo {
	if c == nil {
		return nil
	}
	return &wireCardInfo{Brand: c.Brand, Issuer: c.Issuer, Country: c.Country, Type: c.Type, Category: c.Category}
}

func renderPaymentData(p *Payment, full bool) *wirePaymentData {
	in := p.Instrument
	if in == nil {
		return nil
	}
	d := &wirePaymentData{PaymentMethod: in.Method, PaymentInstrumentTitle: in.Title}
	if full {
		d.Agreement = p.Agreement
		d.CardInfo = renderCardInfo(in.Card)
	}
	return d
}

func renderConfirmation(c *Confirmation) *wireConfirmation {
	if c == nil {
		return nil
	}
	w := &wireConfirmation{
		Type: c.Type, PaymentURL: c.PaymentURL, Instruction: c.Instruction, MaskedPhone: c.MaskedPhone,
		MethodURL: c.MethodURL, TransactionID: c.TransactionID, AcsURL: c.AcsURL, CReq: c.CReq, PAReq: c.PAReq,
	}
	if c.Type == ConfirmExternal {
		ul := c.UniversalLink
		w.UniversalLink = &ul
	}
	return w
}

// renderPayment is the full Payment of create, complete and get. tok is the
// payment's token, if it has one.
func renderPayment(p *Payment, tok *PaymentToken) wirePayment {
	tm := p.TestMode
	w := wirePayment{
		ID: p.ID, Created: p.Created, TestMode: &tm, Status: p.Status, ResultCode: p.ResultCode,
		Message: p.Message, MerchantID: p.MerchantID, Invoice: renderInvoice(p.Invoice, true), Amount: v2Amount(p),
		PaymentData: renderPaymentData(p, true),
	}
	if p.Status.Final() {
		w.Completed = p.Completed
	}
	if p.Customer != nil && p.Customer.IP != "" {
		w.Customer = &wireCustomer{IP: p.Customer.IP}
	}
	if p.Status == PaymentConfirmation {
		w.Confirmation = renderConfirmation(p.Confirmation)
	}
	if tok != nil {
		w.PaymentToken = &wirePaymentToken{ID: tok.ID, Expires: tok.Expires, Title: tok.Title}
	}
	return w
}

// v2Amount is the amount v2 shows: what was charged once a payment is
// Settled (docs/service.md: a capture settles with the captured amount), so a
// partial capture shows its real value and bounds refunds visibly; before
// that, the amount asked for. v1 keeps both (Amount and PaymentAmount).
func v2Amount(p *Payment) money.Amount {
	if p.Status == PaymentSettled && p.Captured.IsPositive() {
		return money.Amount{Value: p.Captured, Currency: p.Amount.Currency}
	}
	return p.Amount
}

// renderPaymentItem is a list item: only id, created, completed, status,
// resultCode, merchantId, invoice (description, orderNo, expires), amount
// and paymentData (paymentMethod, paymentInstrumentTitle). resultCode is
// the sandbox's addition: the service's documentation does not list it for
// list items (docs/service.md, "v2 payment list items").
func renderPaymentItem(p *Payment) wirePayment {
	w := wirePayment{
		ID: p.ID, Created: p.Created, Status: p.Status, ResultCode: p.ResultCode, MerchantID: p.MerchantID,
		Invoice: renderInvoice(p.Invoice, false), Amount: v2Amount(p), PaymentData: renderPaymentData(p, false),
	}
	if p.Status.Final() {
		w.Completed = p.Completed
	}
	return w
}

// renderPaymentNotification is the callback body the service documents
// for a payment's status.
func renderPaymentNotification(p *Payment) wirePayment {
	tm := p.TestMode
	return wirePayment{
		ID: p.ID, Created: p.Created, TestMode: &tm, Status: p.Status, MerchantID: p.MerchantID,
		Invoice: renderInvoice(p.Invoice, true), Amount: v2Amount(p), PaymentData: renderPaymentData(p, false),
	}
}

// pendingRefundResult is the resultCode of a refund still Pending (doc.go,
// "Tolerance and bounds"): the request was accepted and nothing has failed,
// as an Authorized payment's "Success" says before it is captured; status
// says whether it is over, and a Rejected refund then carries its reason.
const pendingRefundResult = "Success"

// renderRefund is a refund; withResult (create and get, not list items)
// adds resultCode, always: a Pending refund's is pendingRefundResult.
func renderRefund(r *Refund, withResult bool) wireRefund {
	w := wireRefund{ID: r.ID, Created: r.Created, PaymentID: r.PaymentID, Amount: r.Amount, Status: r.Status}
	if withResult {
		w.ResultCode = r.ResultCode
		if w.ResultCode == "" {
			w.ResultCode = pendingRefundResult
		}
	}
	return w
}

func renderToken(t *PaymentToken) wireToken {
	w := wireToken{
		ID: t.ID, Status: t.Status, ResultCode: t.ResultCode, Title: t.Title, Expires: t.Expires,
		CardInfo: renderCardInfo(t.CardInfo()),
	}
	if t.Status == TokenCreated {
		w.Confirmation = renderConfirmation(t.Confirmation)
	}
	return w
}

func renderSticker(st *Sticker) wireSticker {
	return wireSticker{
		ID: st.ID, StickerType: st.StickerType, Cashlink: st.Cashlink, Description: st.Description,
		ProductCode: st.ProductCode, PaymentPurpose: st.PaymentPurpose, Amount: st.Amount, Status: st.Status,
		Payload: st.Payload,
	}
}
