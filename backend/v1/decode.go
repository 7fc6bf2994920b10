package v1

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"paydash/backend/textsafe"
	"strings"
)

// Decoding of answers. Every answer is an envelope with ErrorCode (and
// Message when it is not 0) around one payload:
//
//	JSON: {"ErrorCode":0,"Payment":{...}}       getPayment, getPaymentByInvoiceID, confirmPayment, cancelPayment
//	      {"ErrorCode":0,"Refund":{...}}        refundPayment
//	      {"ErrorCode":0,"Response":{"Overflow":false,"Payments":[...]}}   (Refunds, Documents, Transfers alike)
//	      {"ErrorCode":0,"Response":{"Register":{...}}}
//	XML:  <Response><ErrorCode>0</ErrorCode><Documents><Document>...</Document></Documents></Response>
//	      <Answer><ErrorCode>0</ErrorCode><Response><Documents>...</Documents></Response></Answer>  (the spec's other reading; xmlRoot.envelope)
//
// The body's first character decides between JSON and XML, so an answer in
// the other form than asked is still read. A UTF-8 BOM is dropped. A
// non-zero ErrorCode gives an *Error whatever the payload; ErrorCode 0 (or
// none) without the payload the operation answers is ErrMalformedResponse.

// kind is the payload an operation answers with.
type kind int

const (
	kindPayment kind = iota
	kindRefund
	kindPaymentList
	kindRefundList
	kindDocuments
	kindTransfers
	kindRegister
)

func (k kind) String() string {
	return [...]string{"Payment", "Refund", "Response with Payments", "Response with Refunds",
		"Response with Documents", "Response with Transfers", "Response with Register"}[k]
}

// answer holds whichever payload was decoded.
type answer struct {
	payment   *Payment
	refund    *Refund
	overflow  bool
	payments  []Payment
	refunds   []Refund
	documents []Document
	transfers []Transfer
	register  *Register
}

var utf8BOM = []byte("\xEF\xBB\xBF")

func trimBOM(b []byte) []byte { return bytes.TrimPrefix(b, utf8BOM) }

// decodeAnswer reads body as the answer of op, JSON or XML by its first
// character. secrets are removed from any server text put into an error.
func decodeAnswer(op string, k kind, body []byte, secrets ...string) (*answer, error) {
	b := bytes.TrimSpace(trimBOM(body))
	if len(b) == 0 {
		return nil, fmt.Errorf("v1: %s: %w: empty body", op, ErrMalformedResponse)
	}
	if b[0] == '<' {
		return decodeXML(op, k, b, secrets...)
	}
	return decodeJSON(op, k, b, secrets...)
}

// jsonHead is the envelope; the payloads stay raw until the code is known.
type jsonHead struct {
	ErrorCode *flexInt
	Message   flexString
	Payment   json.RawMessage
	Refund    json.RawMessage
	Response  json.RawMessage
}

func present(raw json.RawMessage) bool {
	t := bytes.TrimSpace(raw)
	return len(t) > 0 && !bytes.Equal(t, []byte("null"))
}

func decodeJSON(op string, k kind, b []byte, secrets ...string) (*answer, error) {
	var head jsonHead
	if err := json.Unmarshal(b, &head); err != nil {
		return nil, malformed(op, "not the JSON expected", err, secrets)
	}
	if head.ErrorCode != nil && *head.ErrorCode != 0 {
		return nil, serviceError(op, int(*head.ErrorCode), string(head.Message), secrets)
	}
	a := &answer{}
	var raw json.RawMessage
	switch k {
	case kindPayment:
		raw = head.Payment
	case kindRefund:
		raw = head.Refund
	default:
		raw = head.Response
	}
	if !present(raw) {
		if head.ErrorCode == nil {
			return nil, fmt.Errorf("v1: %s: %w: no ErrorCode and no %s", op, ErrMalformedResponse, k)
		}
		return nil, fmt.Errorf("v1: %s: %w: ErrorCode 0 but no %s", op, ErrMalformedResponse, k)
	}
	var err error
	switch k {
	case kindPayment:
		a.payment = new(Payment)
		err = json.Unmarshal(raw, a.payment)
	case kindRefund:
		a.refund = new(Refund)
		err = json.Unmarshal(raw, a.refund)
	case kindPaymentList:
		var r struct {
			Overflow flexBool
			Payments []paymentWire
		}
		err = json.Unmarshal(raw, &r)
		a.overflow, a.payments = bool(r.Overflow), convert(r.Payments, (*paymentWire).payment)
	case kindRefundList:
		var r struct {
			Overflow flexBool
			Refunds  []refundWire
		}
		err = json.Unmarshal(raw, &r)
		a.overflow, a.refunds = bool(r.Overflow), convert(r.Refunds, (*refundWire).refund)
	case kindDocuments:
		var r struct{ Documents []documentWire }
		err = json.Unmarshal(raw, &r)
		a.documents = convert(r.Documents, (*documentWire).document)
	case kindTransfers:
		var r struct{ Transfers []transferWire }
		err = json.Unmarshal(raw, &r)
		a.transfers = convert(r.Transfers, (*transferWire).transfer)
	case kindRegister:
		var r struct{ Register *registerWire }
		err = json.Unmarshal(raw, &r)
		if err == nil && r.Register == nil {
			return nil, fmt.Errorf("v1: %s: %w: ErrorCode 0 but no Register in the Response", op, ErrMalformedResponse)
		}
		if err == nil {
			reg := r.Register.register()
			a.register = &reg
		}
	}
	if err != nil {
		return nil, malformed(op, "the "+k.String()+" is not what the spec describes", err, secrets)
	}
	return a, nil
}

// xmlRoot is any XML answer: the root (named Response, but any name is
// accepted) holds ErrorCode, Message and the payload. The spec's wording
// ("a root with ErrorCode and Response") also allows the payload one level
// down, in a Response element, which is read the same way.
type xmlRoot struct {
	ErrorCode *flexInt      `xml:"ErrorCode"`
	Message   flexString    `xml:"Message"`
	Payment   *Payment      `xml:"Payment"`
	Refund    *Refund       `xml:"Refund"`
	Overflow  flexBool      `xml:"Overflow"`
	Payments  *paymentList  `xml:"Payments"`
	Refunds   *refundList   `xml:"Refunds"`
	Documents *documentList `xml:"Documents"`
	Transfers *transferList `xml:"Transfers"`
	Register  *Register     `xml:"Register"`
	Response  *xmlRoot      `xml:"Response"`
}

// The lists an answer may hold, each as its container element.
type (
	paymentList struct {
		Items []paymentWire `xml:"Payment"`
	}
	refundList struct {
		Items []refundWire `xml:"Refund"`
	}
	documentList struct {
		Items []documentWire `xml:"Document"`
	}
	transferList struct {
		Items []transferWire `xml:"Transfer"`
	}
)

// hasPayload reports whether r holds anything but ErrorCode and Message.
func (r *xmlRoot) hasPayload() bool {
	return r.Payment != nil || r.Refund != nil || r.Payments != nil || r.Refunds != nil ||
		r.Documents != nil || r.Transfers != nil || r.Register != nil
}

func newXMLDecoder(r io.Reader) *xml.Decoder {
	d := xml.NewDecoder(r)
	d.CharsetReader = func(charset string, input io.Reader) (io.Reader, error) {
		switch strings.ToLower(charset) {
		case "utf-8", "utf8", "us-ascii", "ascii":
			return input, nil
		}
		return nil, fmt.Errorf("encoding %q is not supported (UTF-8 only)", clip(charset))
	}
	return d
}

func decodeXML(op string, k kind, b []byte, secrets ...string) (*answer, error) {
	var root xmlRoot
	if decodeXMLFast(b, &root) != nil {
		root = xmlRoot{}
		if err := newXMLDecoder(bytes.NewReader(b)).Decode(&root); err != nil {
			return nil, malformed(op, "not the XML expected", err, secrets)
		}
	}
	return answerFromXML(op, k, &root, secrets)
}

// envelope reads r by either shape: the payload beside ErrorCode (the
// sandbox's), or, when r holds no payload, in its Response element,
// whose ErrorCode and Message count when r has none (or 0) of its
// own. body is the element holding the payload.
func (r *xmlRoot) envelope() (code *flexInt, msg string, body *xmlRoot) {
	code, msg, body = r.ErrorCode, string(r.Message), r
	inner := r.Response
	if inner == nil || r.hasPayload() {
		return code, msg, body
	}
	if code == nil || (*code == 0 && inner.ErrorCode != nil) {
		code = inner.ErrorCode
	}
	if msg == "" {
		msg = string(inner.Message)
	}
	return code, msg, inner
}

// answerFromXML is the answer of op (of kind k) that root holds, or the
// service's error it holds.
func answerFromXML(op string, k kind, root *xmlRoot, secrets []string) (*answer, error) {
	code, msg, body := root.envelope()
	if code != nil && *code != 0 {
		return nil, serviceError(op, int(*code), msg, secrets)
	}
	// An Overflow beside the Response counts too: a lost one would hide
	// the rest of a list.
	overflow := bool(body.Overflow || root.Overflow)
	a := &answer{}
	ok := false
	switch k {
	case kindPayment:
		a.payment, ok = body.Payment, body.Payment != nil
	case kindRefund:
		a.refund, ok = body.Refund, body.Refund != nil
	case kindPaymentList:
		a.overflow = overflow
		if body.Payments != nil {
			a.payments = convert(body.Payments.Items, (*paymentWire).payment)
		}
		ok = code != nil || body.Payments != nil
	case kindRefundList:
		a.overflow = overflow
		if body.Refunds != nil {
			a.refunds = convert(body.Refunds.Items, (*refundWire).refund)
		}
		ok = code != nil || body.Refunds != nil
	case kindDocuments:
		if body.Documents != nil {
			a.documents = convert(body.Documents.Items, (*documentWire).document)
		}
		ok = code != nil || body.Documents != nil
	case kindTransfers:
		if body.Transfers != nil {
			a.transfers = convert(body.Transfers.Items, (*transferWire).transfer)
		}
		ok = code != nil || body.Transfers != nil
	case kindRegister:
		a.register, ok = body.Register, body.Register != nil
	}
	if !ok {
		if code == nil {
			return nil, fmt.Errorf("v1: %s: %w: no ErrorCode and no %s", op, ErrMalformedResponse, k)
		}
		return nil, fmt.Errorf("v1: %s: %w: ErrorCode 0 but no %s", op, ErrMalformedResponse, k)
	}
	return a, nil
}

// serviceError builds the *Error of a non-zero ErrorCode, its message made
// safe for a terminal.
func serviceError(op string, code int, msg string, secrets []string) *Error {
	return &Error{Code: code, Message: textsafe.Line(textsafe.Redact(msg, secrets...), 500), Operation: op}
}

// malformed wraps a decoder's complaint, which can quote a bit of the body,
// cleaned.
func malformed(op, what string, err error, secrets []string) error {
	var se *json.SyntaxError
	detail := err.Error()
	if errors.As(err, &se) {
		detail = fmt.Sprintf("%s (at byte %d)", se.Error(), se.Offset)
	}
	return fmt.Errorf("v1: %s: %w: %s: %s", op, ErrMalformedResponse, what, textsafe.Line(textsafe.Redact(detail, secrets...), 200))
}
