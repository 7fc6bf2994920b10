package sandbox

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"time"

	"paydash/backend/money"
)

// Request decoding. encoding/json matches member names without regard to
// case, but the service's names are case-sensitive (spec part 2): a client
// sending "merchantID" must not pass here and fail against the real
// service. So the body is first decoded generically, members whose name is
// not exactly a field's are dropped (ignored, like any unknown member), and
// only then decoded into the request struct. A leading UTF-8 BOM is
// tolerated (design §4).

const maxBody = 1 << 20

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// readBody reads a request body without its BOM.
func readBody(r *http.Request) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
	if err != nil {
		return nil, fmt.Errorf("request body could not be read: %v", err)
	}
	if len(b) > maxBody {
		return nil, errors.New("request body is larger than 1 MiB")
	}
	return bytes.TrimPrefix(b, utf8BOM), nil
}

func isBlank(b []byte) bool { return len(bytes.TrimSpace(b)) == 0 }

// decodeInto decodes body into v (a pointer to a struct), by exact member
// names, and returns the problems found.
func decodeInto(body []byte, v any) []string {
	if isBlank(body) {
		return []string{"request body is required"}
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var raw any
	if err := dec.Decode(&raw); err != nil {
		return []string{"request body is not valid JSON: " + err.Error()}
	}
	if dec.More() {
		return []string{"request body is not valid JSON: more than one value"}
	}
	if _, ok := raw.(map[string]any); !ok {
		return []string{"request body must be a JSON object"}
	}
	prune(raw, reflect.TypeOf(v))
	clean, err := json.Marshal(raw)
	if err != nil {
		return []string{"request body is not valid JSON"}
	}
	if err := json.Unmarshal(clean, v); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && te.Field != "" {
			return []string{fmt.Sprintf("%s must be %s, not a JSON %s", te.Field, kindName(te.Type), te.Value)}
		}
		return []string{"request body is not valid: " + err.Error()}
	}
	return nil
}

func kindName(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Bool:
		return "a boolean"
	case reflect.String:
		return "a string"
	case reflect.Map, reflect.Struct, reflect.Pointer:
		return "an object"
	case reflect.Slice:
		return "an array or value"
	default:
		return "a " + t.Kind().String()
	}
}

var fieldCache sync.Map // reflect.Type -> map[string]reflect.Type

func jsonFields(t reflect.Type) map[string]reflect.Type {
	if m, ok := fieldCache.Load(t); ok {
		return m.(map[string]reflect.Type)
	}
	m := map[string]reflect.Type{}
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		m[name] = f.Type
	}
	fieldCache.Store(t, m)
	return m
}

// prune drops object members whose names are not exactly those of t.
func prune(v any, t reflect.Type) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Struct:
		obj, ok := v.(map[string]any)
		if !ok {
			return
		}
		fields := jsonFields(t)
		for k, val := range obj {
			ft, ok := fields[k]
			if !ok {
				delete(obj, k)
				continue
			}
			prune(val, ft)
		}
	case reflect.Slice, reflect.Array:
		if arr, ok := v.([]any); ok {
			for _, e := range arr {
				prune(e, t.Elem())
			}
		}
	}
}

// --- request members ---

type amountIn struct {
	Value    json.RawMessage `json:"value"`
	Currency *string         `json:"currency"`
}

// parse reads an amount; bad reports a problem already noted.
func (a *amountIn) parse(field string, problems *[]string) (amount *money.Amount, bad bool) {
	if a == nil {
		return nil, false
	}
	out := &money.Amount{}
	v := bytes.TrimSpace(a.Value)
	switch {
	case len(v) == 0 || string(v) == "null":
		*problems = append(*problems, field+".value is required")
		bad = true
	case v[0] == '"':
		*problems = append(*problems, field+".value must be a JSON number")
		bad = true
	default:
		if err := out.Value.UnmarshalJSON(v); err != nil {
			if errors.Is(err, money.ErrPrecision) {
				*problems = append(*problems, field+".value has more than 4 decimals")
			} else {
				*problems = append(*problems, field+".value is not a usable number")
			}
			bad = true
		}
	}
	if a.Currency != nil {
		out.Currency = *a.Currency
	}
	if bad { // the store will not look at this amount: check the currency here
		switch {
		case out.Currency == "":
			*problems = append(*problems, field+".currency is required")
		case !money.ValidCurrency(out.Currency):
			*problems = append(*problems, fmt.Sprintf("%s.currency %q is not a three-letter ISO 4217 code", field, out.Currency))
		}
	}
	return out, bad
}

// parseDate reads an RFC 3339 time or a plain yyyy-MM-dd date (UTC midnight).
func parseDate(v string) (time.Time, bool) {
	if t, err := time.Parse(time.RFC3339Nano, v); err == nil {
		return t.UTC(), true
	}
	// A "+hh:mm" offset sent unencoded in a query string arrives as a space.
	if strings.Contains(v, " ") {
		if t, err := time.Parse(time.RFC3339Nano, strings.ReplaceAll(v, " ", "+")); err == nil {
			return t.UTC(), true
		}
	}
	if t, err := time.Parse(time.DateOnly, v); err == nil {
		return t.UTC(), true
	}
	return time.Time{}, false
}

type invoiceIn struct {
	Description string         `json:"description"`
	OrderNo     string         `json:"orderNo"`
	Expires     string         `json:"expires"`
	Params      map[string]any `json:"params"`
}

func (in *invoiceIn) parse(problems *[]string) Invoice {
	if in == nil {
		return Invoice{}
	}
	inv := Invoice{Description: in.Description, OrderNo: in.OrderNo, Params: in.Params}
	if in.Expires != "" {
		t, ok := parseDate(in.Expires)
		if !ok {
			*problems = append(*problems, "invoice.expires is not an RFC 3339 date")
		}
		inv.Expires = t
	}
	return inv
}

type customerIn struct {
	Email   string `json:"email"`
	Phone   string `json:"phone"`
	IP      string `json:"ip"`
	Account string `json:"account"`
}

func (c *customerIn) get() Customer {
	if c == nil {
		return Customer{}
	}
	return Customer{Email: c.Email, Phone: c.Phone, IP: c.IP, Account: c.Account}
}

type protocolIn struct {
	ReturnURL          string `json:"returnUrl"`
	CallbackURL        string `json:"callbackUrl"`
	ThreeDSCompleteURL string `json:"threeDSCompleteUrl"`
}

func (p *protocolIn) get() Protocol {
	if p == nil {
		return Protocol{}
	}
	return Protocol{ReturnURL: p.ReturnURL, CallbackURL: p.CallbackURL, ThreeDSCompleteURL: p.ThreeDSCompleteURL}
}

type tokenizationIn struct {
	Type        string `json:"type"`
	Purpose     string `json:"purpose"`
	CallbackURL string `json:"callbackUrl"`
}

func (t *tokenizationIn) get() *TokenizationDetails {
	if t == nil {
		return nil
	}
	return &TokenizationDetails{Type: t.Type, Purpose: t.Purpose, CallbackURL: t.CallbackURL}
}

type cardIn struct {
	PAN    string `json:"pan"`
	Expiry string `json:"expiry"`
	CVC    string `json:"cvc"`
}

func (c *cardIn) get() *CardData {
	if c == nil {
		return nil
	}
	return &CardData{PAN: c.PAN, Expiry: c.Expiry, CVC: c.CVC}
}

type paymentDataIn struct {
	PaymentMethod string  `json:"paymentMethod"`
	Card          *cardIn `json:"card"`
	DSRP          *struct {
		Type       string `json:"type"`
		Cryptogram string `json:"cryptogram"`
		ECI        string `json:"eci"`
	} `json:"dsrp"`
	AuthorizationCode string `json:"authorizationCode"`
	Account           string `json:"account"`
	Phone             string `json:"phone"`
	Token             *struct {
		ID string `json:"id"`
	} `json:"token"`
	StickerID string `json:"stickerId"`
}

type deviceIn struct {
	Language         string `json:"language"`
	AcceptHeader     string `json:"acceptHeader"`
	UserAgent        string `json:"userAgent"`
	ColorDepth       string `json:"colorDepth"`
	ScreenHeight     string `json:"screenHeight"`
	ScreenWidth      string `json:"screenWidth"`
	UTCOffsetMinutes string `json:"utcOffsetMinutes"`
}

type paymentIn struct {
	MerchantID   string          `json:"merchantId"`
	DualMode     bool            `json:"dualMode"`
	TestMode     bool            `json:"testMode"`
	Tokenization *tokenizationIn `json:"tokenization"`
	Invoice      *invoiceIn      `json:"invoice"`
	Amount       *amountIn       `json:"amount"`
	PaymentData  *paymentDataIn  `json:"paymentData"`
	Protocol     *protocolIn     `json:"protocol"`
	Customer     *customerIn     `json:"customer"`
	Device       *deviceIn       `json:"device"`
}

func (in *paymentIn) request() PaymentRequest {
	var problems []string
	req := PaymentRequest{
		MerchantID: in.MerchantID, DualMode: in.DualMode, TestMode: in.TestMode,
		Invoice: in.Invoice.parse(&problems), Protocol: in.Protocol.get(), Customer: in.Customer.get(),
		Tokenization: in.Tokenization.get(),
	}
	req.Amount, req.amountBad = in.Amount.parse("amount", &problems)
	if d := in.PaymentData; d != nil {
		req.PaymentMethod, req.Card, req.StickerID = d.PaymentMethod, d.Card.get(), d.StickerID
		if d.DSRP != nil {
			req.DSRP = &DSRP{Type: d.DSRP.Type, Cryptogram: d.DSRP.Cryptogram, ECI: d.DSRP.ECI}
		}
		if d.Token != nil {
			if d.Token.ID == "" {
				problems = append(problems, "paymentData.token.id is required")
			}
			req.TokenID = d.Token.ID
		}
	}
	req.problems = problems
	return req
}

type invoiceReqIn struct {
	MerchantID    string          `json:"merchantId"`
	DualMode      bool            `json:"dualMode"`
	TestMode      bool            `json:"testMode"`
	Tokenization  *tokenizationIn `json:"tokenization"`
	Invoice       *invoiceIn      `json:"invoice"`
	Amount        *amountIn       `json:"amount"`
	PaymentMethod string          `json:"paymentMethod"`
	Protocol      *protocolIn     `json:"protocol"`
	Customer      *customerIn     `json:"customer"`
}

func (in *invoiceReqIn) request() InvoiceRequest {
	var problems []string
	req := InvoiceRequest{
		MerchantID: in.MerchantID, DualMode: in.DualMode, TestMode: in.TestMode,
		Tokenization: in.Tokenization.get(), Invoice: in.Invoice.parse(&problems),
		PaymentMethod: in.PaymentMethod, Protocol: in.Protocol.get(), Customer: in.Customer.get(),
	}
	req.Amount, req.amountBad = in.Amount.parse("amount", &problems)
	req.problems = problems
	return req
}

type completeIn struct {
	Code           string `json:"code"`
	ThreeDSCompInd string `json:"threeDSCompInd"`
	CRes           string `json:"cres"`
	PARes          string `json:"PARes"`
}

type confirmIn struct {
	Amount *amountIn `json:"amount"`
}

type refundIn struct {
	PaymentID string    `json:"paymentId"`
	Amount    *amountIn `json:"amount"`
}

type tokenizationReqIn struct {
	MerchantID    string      `json:"merchantId"`
	TestMode      bool        `json:"testMode"`
	Type          string      `json:"type"`
	Purpose       string      `json:"purpose"`
	PaymentMethod string      `json:"paymentMethod"`
	CallbackURL   string      `json:"callbackUrl"`
	ReturnURL     string      `json:"returnUrl"`
	Customer      *customerIn `json:"customer"`
}

type paymentTokenIn struct {
	MerchantID  string `json:"merchantId"`
	TestMode    bool   `json:"testMode"`
	Type        string `json:"type"`
	Purpose     string `json:"purpose"`
	PaymentData *struct {
		PaymentMethod string  `json:"paymentMethod"`
		Card          *cardIn `json:"card"`
	} `json:"paymentData"`
	Protocol *protocolIn `json:"protocol"`
	Customer *customerIn `json:"customer"`
	Device   *deviceIn   `json:"device"`
}

type stickerIn struct {
	MerchantID     string    `json:"merchantId"`
	StickerType    string    `json:"stickerType"`
	Cashlink       bool      `json:"cashlink"`
	Description    string    `json:"description"`
	ProductCode    string    `json:"productCode"`
	PaymentPurpose string    `json:"paymentPurpose"`
	Amount         *amountIn `json:"amount"`
	CallbackURL    string    `json:"callbackUrl"`
}

type stickerUpdateIn struct {
	Active *bool `json:"active"`
}
