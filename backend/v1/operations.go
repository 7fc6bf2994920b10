package v1

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"mime"
	"net/http"
	"paydash/backend/textsafe"
	"strconv"
	"strings"

	"paydash/backend/money"
)

// The eleven operations of the legacy interface. Each returns the decoded answer,
// the *Response (raw body, nonce) and an error: an *Error for a non-zero
// ErrorCode, an *HTTPError for a status other than 200, ErrMalformedResponse
// for a body that is not the answer, or a network error.

// PaymentFilter selects payments for ListPaymentsFilter and PaymentPages.
// Every member is optional ("" or the zero Date: not sent); both period
// bounds are inclusive UTC days.
type PaymentFilter struct {
	AccountID  string // may be omitted when the login has only one account
	SiteAlias  string // only that site's payments (a site id = a v2 merchant id)
	PeriodFrom Date
	PeriodTo   Date
	InvoiceID  string // only that merchant order number
	State      string // only that status (StateComplete...)
}

// RefundFilter selects refunds for ListRefunds and RefundPages.
type RefundFilter struct {
	AccountID  string
	PaymentID  string // only the refunds of that payment
	PeriodFrom Date   // absent: no lower bound
	PeriodTo   Date   // inclusive; absent: no upper bound
	ExternalID string // only refunds with that merchant-side id
}

// PeriodFilter selects documents and transfers. XML asks for the answer in
// XML (xml=1); it decodes into the same types, and Response.Body keeps it
// for the raw view.
type PeriodFilter struct {
	AccountID  string
	PeriodFrom Date
	PeriodTo   Date
	XML        bool
}

// RefundRequest is refundPayment's parameters. Amount is sent, and hashed,
// exactly as given: FormatAmount makes the usual form ("10.50").
type RefundRequest struct {
	PaymentID  string
	Amount     string
	ExternalID string // optional merchant-side refund id; it need not be unique
}

// FormatAmount writes an amount with its currency's usual decimals, e.g.
// "10.50" for 10.5 RUB and "1250" for 1250 JPY, never rounding (10.505 RUB
// stays "10.505"). What it returns is what a request sends and hashes.
func FormatAmount(a money.Amount) string {
	return a.Value.StringFixed(money.Decimals(a.Currency))
}

func required(op, name, value string) error {
	if strings.TrimSpace(value) == "" {
		return fmt.Errorf("v1: %s: %s is required", op, name)
	}
	return nil
}

// decodeInto returns a call's decode function for a payload kind, keeping
// the decoded answer in *out.
func decodeInto(op string, k kind, out **answer) func(*http.Response, []byte, []string) error {
	return func(_ *http.Response, body []byte, secrets []string) error {
		a, err := decodeAnswer(op, k, body, secrets...)
		*out = a
		return err
	}
}

// paymentCall runs an operation that answers with a Payment.
func (c *Client) paymentCall(ctx context.Context, op, method string, read bool, params ...param) (*Payment, *Response, error) {
	var a *answer
	resp, err := c.do(ctx, call{op: op, method: method, read: read, params: params, decode: decodeInto(op, kindPayment, &a)})
	if err != nil {
		return nil, resp, err
	}
	return a.payment, resp, nil
}

// GetPayment reads one payment by its id (getPayment). Cashier and
// Accountant.
func (c *Client) GetPayment(ctx context.Context, paymentID string) (*Payment, *Response, error) {
	const op = "getPayment"
	if err := required(op, "paymentID", paymentID); err != nil {
		return nil, nil, err
	}
	return c.paymentCall(ctx, op, http.MethodGet, true, param{"paymentID", paymentID})
}

// GetPaymentByInvoiceID reads the payment of a merchant order number on a
// site (getPaymentByInvoiceID); siteAlias may be "" (not sent). An unknown
// invoice is -13 (IsNotFound).
func (c *Client) GetPaymentByInvoiceID(ctx context.Context, invoiceID, siteAlias string) (*Payment, *Response, error) {
	const op = "getPaymentByInvoiceID"
	if err := required(op, "invoiceID", invoiceID); err != nil {
		return nil, nil, err
	}
	return c.paymentCall(ctx, op, http.MethodGet, true, param{"invoiceID", invoiceID}, param{"siteAlias", siteAlias})
}

// ListPaymentsFilter lists payments (listPaymentsFilter): one request, at
// most 1,000 payments, newest first, with Overflow when more matched. To
// get a whole period use PaymentPages, which narrows overflowing periods.
func (c *Client) ListPaymentsFilter(ctx context.Context, f PaymentFilter) (*PaymentList, *Response, error) {
	const op = "listPaymentsFilter"
	var a *answer
	resp, err := c.do(ctx, call{op: op, method: http.MethodGet, read: true, params: []param{
		{"accountID", f.AccountID}, {"siteAlias", f.SiteAlias},
		{"periodFrom", f.PeriodFrom.String()}, {"periodTo", f.PeriodTo.String()},
		{"invoiceID", f.InvoiceID}, {"state", f.State},
	}, decode: decodeInto(op, kindPaymentList, &a)})
	if err != nil {
		return nil, resp, err
	}
	return &PaymentList{Overflow: a.overflow, Payments: a.payments}, resp, nil
}

// RefundPayment refunds all or part of a payment (refundPayment, POST).
// Accountant only. It is never retried automatically: the service does not
// recognise a repeated refund, so after a network failure or a server
// failure the caller must look (ListRefunds with the ExternalID) before
// trying again. A new refund is EXECUTING.
func (c *Client) RefundPayment(ctx context.Context, r RefundRequest) (*Refund, *Response, error) {
	const op = "refundPayment"
	if err := required(op, "paymentID", r.PaymentID); err != nil {
		return nil, nil, err
	}
	if err := required(op, "amount", r.Amount); err != nil {
		return nil, nil, err
	}
	var a *answer
	resp, err := c.do(ctx, call{op: op, method: http.MethodPost, params: []param{
		{"paymentID", r.PaymentID}, {"amount", r.Amount}, {"externalID", r.ExternalID},
	}, decode: decodeInto(op, kindRefund, &a)})
	if err != nil {
		return nil, resp, err
	}
	return a.refund, resp, nil
}

// ListRefunds lists refunds (listRefunds): one request, at most 1,000,
// Overflow when more matched; RefundPages narrows a period. Accountant only.
func (c *Client) ListRefunds(ctx context.Context, f RefundFilter) (*RefundList, *Response, error) {
	const op = "listRefunds"
	var a *answer
	resp, err := c.do(ctx, call{op: op, method: http.MethodGet, read: true, params: []param{
		{"accountID", f.AccountID}, {"paymentID", f.PaymentID},
		{"periodFrom", f.PeriodFrom.String()}, {"periodTo", f.PeriodTo.String()},
		{"externalID", f.ExternalID},
	}, decode: decodeInto(op, kindRefundList, &a)})
	if err != nil {
		return nil, resp, err
	}
	return &RefundList{Overflow: a.overflow, Refunds: a.refunds}, resp, nil
}

// ConfirmPayment captures a hold (confirmPayment, POST): amount is what is
// actually charged, at most the hold, sent and hashed exactly as given.
// Accountant only; never retried automatically.
func (c *Client) ConfirmPayment(ctx context.Context, paymentID, amount string) (*Payment, *Response, error) {
	const op = "confirmPayment"
	if err := required(op, "paymentID", paymentID); err != nil {
		return nil, nil, err
	}
	if err := required(op, "amount", amount); err != nil {
		return nil, nil, err
	}
	return c.paymentCall(ctx, op, http.MethodPost, false, param{"paymentID", paymentID}, param{"amount", amount})
}

// CancelPayment releases a hold (cancelPayment, POST), optionally giving a
// reason as a part-7 code (errorCode 0: none sent). Accountant only; never
// retried automatically.
func (c *Client) CancelPayment(ctx context.Context, paymentID string, errorCode int) (*Payment, *Response, error) {
	const op = "cancelPayment"
	if err := required(op, "paymentID", paymentID); err != nil {
		return nil, nil, err
	}
	reason := ""
	if errorCode != 0 {
		reason = strconv.Itoa(errorCode)
	}
	return c.paymentCall(ctx, op, http.MethodPost, false, param{"paymentID", paymentID}, param{"error", reason})
}

// ListDocuments lists the documents created in a period (listDocuments).
func (c *Client) ListDocuments(ctx context.Context, f PeriodFilter) ([]Document, *Response, error) {
	const op = "listDocuments"
	var a *answer
	resp, err := c.do(ctx, call{op: op, method: http.MethodGet, read: true, xml: f.XML, params: []param{
		{"accountID", f.AccountID}, {"periodFrom", f.PeriodFrom.String()}, {"periodTo", f.PeriodTo.String()},
	}, decode: decodeInto(op, kindDocuments, &a)})
	if err != nil {
		return nil, resp, err
	}
	return a.documents, resp, nil
}

// GetDocumentContent downloads a document (getDocumentContent): its bytes
// as sent, with their content type and file name. An error comes back as
// the usual JSON (or XML) envelope instead, which is told apart by the
// content type and by the body being such an envelope with a non-zero
// ErrorCode.
func (c *Client) GetDocumentContent(ctx context.Context, documentID string) (*DocumentContent, *Response, error) {
	const op = "getDocumentContent"
	if err := required(op, "documentID", documentID); err != nil {
		return nil, nil, err
	}
	var out *DocumentContent
	resp, err := c.do(ctx, call{op: op, method: http.MethodGet, read: true, params: []param{{"documentID", documentID}},
		decode: func(hr *http.Response, body []byte, secrets []string) error {
			if err := documentError(op, hr.Header.Get("Content-Type"), body, secrets); err != nil {
				return err
			}
			out = &DocumentContent{Data: body, ContentType: hr.Header.Get("Content-Type")}
			if out.ContentType == "" {
				out.ContentType = http.DetectContentType(body)
			}
			if _, params, err := mime.ParseMediaType(hr.Header.Get("Content-Disposition")); err == nil {
				out.FileName = textsafe.Line(params["filename"], 255)
			}
			return nil
		}})
	if err != nil {
		return nil, resp, err
	}
	return out, resp, nil
}

// documentError reports the error envelope a getDocumentContent answer may
// be instead of a file. A JSON or XML body with a non-zero ErrorCode is one
// whatever its label; a body labelled as JSON that is not an envelope is
// malformed; anything else is the document.
func documentError(op, contentType string, body []byte, secrets []string) error {
	media, _, _ := mime.ParseMediaType(contentType)
	isJSON := media == "application/json" || strings.HasSuffix(media, "+json")
	b := bytes.TrimSpace(trimBOM(body))
	switch {
	case len(b) > 0 && b[0] == '{':
		var head jsonHead
		if err := json.Unmarshal(b, &head); err != nil {
			if isJSON {
				return malformed(op, "not the JSON expected", err, secrets)
			}
			return nil // a document that happens to start with {
		}
		if head.ErrorCode != nil && *head.ErrorCode != 0 {
			return serviceError(op, int(*head.ErrorCode), string(head.Message), secrets)
		}
		if isJSON && head.ErrorCode != nil {
			return fmt.Errorf("v1: %s: %w: ErrorCode 0 but no document", op, ErrMalformedResponse)
		}
	case len(b) > 0 && b[0] == '<' && (media == "application/xml" || media == "text/xml"):
		var root xmlRoot
		if newXMLDecoder(bytes.NewReader(b)).Decode(&root) == nil {
			code, msg, _ := root.envelope() // either shape, as decodeXML reads it
			if code != nil && *code != 0 {
				return serviceError(op, int(*code), msg, secrets)
			}
		}
	case isJSON:
		return fmt.Errorf("v1: %s: %w: an empty or non-JSON body labelled JSON", op, ErrMalformedResponse)
	}
	return nil
}

// ListTransfers lists the transfers of a period (listTransfers).
func (c *Client) ListTransfers(ctx context.Context, f PeriodFilter) ([]Transfer, *Response, error) {
	const op = "listTransfers"
	var a *answer
	resp, err := c.do(ctx, call{op: op, method: http.MethodGet, read: true, xml: f.XML, params: []param{
		{"accountID", f.AccountID}, {"periodFrom", f.PeriodFrom.String()}, {"periodTo", f.PeriodTo.String()},
	}, decode: decodeInto(op, kindTransfers, &a)})
	if err != nil {
		return nil, resp, err
	}
	return a.transfers, resp, nil
}

// GetTransferRegister reads a transfer's register (getTransferRegister),
// in XML when xml is true.
func (c *Client) GetTransferRegister(ctx context.Context, registerID string, xml bool) (*Register, *Response, error) {
	const op = "getTransferRegister"
	if err := required(op, "registerID", registerID); err != nil {
		return nil, nil, err
	}
	var a *answer
	resp, err := c.do(ctx, call{op: op, method: http.MethodGet, read: true, xml: xml, params: []param{{"registerID", registerID}},
		decode: decodeInto(op, kindRegister, &a)})
	if err != nil {
		return nil, resp, err
	}
	return a.register, resp, nil
}
