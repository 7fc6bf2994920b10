package sandbox

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"paydash/backend/money"
)

// Request decoding. encoding/json matches member names without regard to
// case, but the service's names are case-sensitive (so it documents): a client
// sending "merchantID" must not pass here and fail against the real
// service. So the body is first decoded generically, members whose name is
// not exactly a field's are dropped (ignored, like any unknown member), and
// only then decoded into the request struct. A leading UTF-8 BOM is
// tolerated (docs/service.md). A member given twice in one object is refused
// (encoding/json would keep the last one silently: {"paymentId":"A",
// "paymentId":"B"} must not refund B). Text members are bounded (maxLen
// below, the table in doc.go), and so are dates (storeTimeMin, storeTimeMax).

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

// duplicateMember walks a body already known to be valid JSON (so its
// nesting is bounded by encoding/json's own depth limit) and names the first
// member that appears twice in one object, by its path ("paymentId",
// "amount.value", "items[2].id"), if there is one. The walk keeps its own
// stack: no recursion.
func duplicateMember(body []byte) (path string, found bool) {
	type frame struct {
		object  bool
		path    string
		seen    map[string]bool // object: member names read so far
		key     string          // object: the member whose value comes next
		wantKey bool            // object: the next token is a member name (or '}')
		index   int             // array: the next element's index
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber() // numbers are skipped, never converted
	var stack []*frame
	for {
		tok, err := dec.Token()
		if err != nil {
			return "", false // io.EOF, or a syntax error the decoder already reported
		}
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			stack = stack[:len(stack)-1]
			continue
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if top != nil && top.object && top.wantKey {
			name, _ := tok.(string)
			if top.seen[name] {
				return memberPath(top.path, name), true
			}
			top.seen[name], top.key, top.wantKey = true, name, false
			continue
		}
		path := ""
		switch {
		case top == nil:
		case top.object:
			path, top.wantKey = memberPath(top.path, top.key), true
		default:
			path = fmt.Sprintf("%s[%d]", top.path, top.index)
			top.index++
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{object: true, path: path, seen: map[string]bool{}, wantKey: true})
		case json.Delim('['):
			stack = append(stack, &frame{path: path})
		}
	}
}

// memberPath joins a member name to its object's path, cutting what a
// client could make arbitrarily long.
func memberPath(parent, name string) string {
	if parent != "" {
		name = parent + "." + name
	}
	return clip(name, 100)
}

// clip cuts s to at most n characters, marking the cut.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "…"
}

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
	if dup, found := duplicateMember(body); found {
		return []string{"member " + strconv.Quote(dup) + " is given more than once; give each member once"}
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
	if a.Currency != nil {
		out.Currency = *a.Currency
	}
	v, problem := a.value()
	switch {
	case problem == "":
		out.Value = v
	case problem == errTooPrecise:
		// Finer than any currency: say what this one allows, as for a
		// finer amount (rules.go, checkMinorUnits).
		p := field + ".value " + errTooPrecise
		if money.ValidCurrency(out.Currency) {
			p += "; " + out.Currency + " has " + atMostDecimals(money.Decimals(out.Currency))
		}
		*problems = append(*problems, p)
		bad = true
	default:
		*problems = append(*problems, field+".value "+problem)
		bad = true
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

const errTooPrecise = "has more than 4 decimals"

// value reads the amount's value, a JSON number or a decimal sent as a JSON
// string ("11.00"), as some clients do: read like the number it holds, and
// only such a number. A problem is said after the member's name.
func (a *amountIn) value() (money.Decimal, string) {
	v := bytes.TrimSpace(a.Value)
	if len(v) == 0 || string(v) == "null" {
		return 0, "is required"
	}
	if v[0] == '"' {
		var str string
		if err := json.Unmarshal(v, &str); err != nil || !isJSONNumber(str) {
			return 0, strconv.Quote(clip(str, 40)) + " is not a decimal number such as 10.50"
		}
		v = []byte(str)
	}
	var d money.Decimal
	if err := d.UnmarshalJSON(v); err != nil {
		if errors.Is(err, money.ErrPrecision) {
			return 0, errTooPrecise
		}
		return 0, "is not a usable number"
	}
	return d, ""
}

// MarshalJSON writes the amount as the idempotency comparison reads it
// (idempotency.go): a readable value as the decimal it is, so that 1, 1.0
// and "1.00" are one amount; anything else as it came.
func (a amountIn) MarshalJSON() ([]byte, error) {
	var currency string
	if a.Currency != nil {
		currency = *a.Currency
	}
	value := json.RawMessage(a.Value)
	if d, problem := a.value(); problem == "" {
		value = json.RawMessage(d.String())
	} else if len(bytes.TrimSpace(value)) == 0 {
		value = nil
	}
	return json.Marshal(struct {
		Value    json.RawMessage `json:"value"`
		Currency string          `json:"currency"`
	}{value, currency})
}

// isJSONNumber reports whether s is exactly a number in JSON's grammar
// (-?int(.frac)?(e[+-]?exp)?): no spaces, no "+", no ".5", no "1,000".
func isJSONNumber(s string) bool {
	i, n := 0, len(s)
	digits := func() bool {
		j := i
		for i < n && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i > j
	}
	if i < n && s[i] == '-' {
		i++
	}
	switch {
	case i < n && s[i] == '0':
		i++
	case !digits():
		return false
	}
	if i < n && s[i] == '.' {
		i++
		if !digits() {
			return false
		}
	}
	if i < n && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < n && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if !digits() {
			return false
		}
	}
	return i == n
}

// --- bounds ---

// The store keys objects and events by int64 nanoseconds since 1970, which
// hold the times from storeTimeMin to storeTimeMax (1677-09-21 to
// 2262-04-11): a date outside them is refused, never wrapped around into
// another one (a period ending in 2300 used to list nothing, with 200).
var (
	storeTimeMin = time.Unix(0, math.MinInt64).UTC()
	storeTimeMax = time.Unix(0, math.MaxInt64).UTC()
)

// representable reports whether the store can hold t.
func representable(t time.Time) bool {
	return !t.Before(storeTimeMin) && !t.After(storeTimeMax)
}

// dateRange is the range representable accepts, in words.
const dateRange = "dates from 1677-09-22 to 2262-04-10 are accepted"

// Maximum lengths of text members, in characters (doc.go has the table).
const (
	maxDescription    = 1000 // invoice.description, sticker description (v1 Purpose)
	maxOrderNo        = 64   // invoice.orderNo (v1 invoiceID)
	maxEmail          = 254  // customer.email (RFC 5321's limit on a path)
	maxPhone          = 32   // customer.phone
	maxIP             = 45   // customer.ip (the longest IPv6 text form)
	maxAccount        = 255  // customer.account
	maxURL            = 2048 // every returnUrl, callbackUrl, threeDSCompleteUrl
	maxPurpose        = 255  // tokenization purpose, payment token purpose
	maxPaymentPurpose = 210  // sticker paymentPurpose (a payment order's purpose field)
	maxProductCode    = 64   // sticker productCode
	maxID             = 64   // merchantId, paymentId, token.id, stickerId; v1 ids
	maxExternalID     = 255  // v1 externalID
	maxParams         = 50   // invoice.params: members
	maxParamName      = 40   // invoice.params: a member's name
	maxParamValue     = 500  // invoice.params: a member's value, as JSON text
)

// maxLen notes a problem when v is longer than max characters.
func maxLen(field, v string, max int, problems *[]string) {
	if len(v) > max && utf8.RuneCountInString(v) > max {
		*problems = append(*problems, fmt.Sprintf("%s is longer than %d characters", field, max))
	}
}

// checkParams bounds invoice.params: its number of members, their names and
// their values.
func checkParams(field string, params map[string]any, problems *[]string) {
	if len(params) > maxParams {
		*problems = append(*problems, fmt.Sprintf("%s has more than %d members", field, maxParams))
		return
	}
	names := make([]string, 0, len(params))
	for k := range params {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		if utf8.RuneCountInString(k) > maxParamName {
			*problems = append(*problems, fmt.Sprintf("%s has a member name longer than %d characters", field, maxParamName))
			continue
		}
		b, _ := json.Marshal(params[k])
		if len(b) > maxParamValue && utf8.RuneCount(b) > maxParamValue {
			*problems = append(*problems, fmt.Sprintf("%s.%s is longer than %d characters (as JSON)", field, k, maxParamValue))
		}
	}
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
	maxLen("invoice.description", in.Description, maxDescription, problems)
	maxLen("invoice.orderNo", in.OrderNo, maxOrderNo, problems)
	checkParams("invoice.params", in.Params, problems)
	if in.Expires != "" {
		t, ok := parseDate(in.Expires)
		switch {
		case !ok:
			*problems = append(*problems, "invoice.expires is not an RFC 3339 date")
		case !representable(t):
			*problems = append(*problems, "invoice.expires is out of range: "+dateRange)
			t = time.Time{}
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

func (c *customerIn) get(problems *[]string) Customer {
	if c == nil {
		return Customer{}
	}
	maxLen("customer.email", c.Email, maxEmail, problems)
	maxLen("customer.phone", c.Phone, maxPhone, problems)
	maxLen("customer.ip", c.IP, maxIP, problems)
	maxLen("customer.account", c.Account, maxAccount, problems)
	return Customer{Email: c.Email, Phone: c.Phone, IP: c.IP, Account: c.Account}
}

type protocolIn struct {
	ReturnURL          string `json:"returnUrl"`
	CallbackURL        string `json:"callbackUrl"`
	ThreeDSCompleteURL string `json:"threeDSCompleteUrl"`
}

func (p *protocolIn) get(problems *[]string) Protocol {
	if p == nil {
		return Protocol{}
	}
	maxLen("protocol.returnUrl", p.ReturnURL, maxURL, problems)
	maxLen("protocol.callbackUrl", p.CallbackURL, maxURL, problems)
	maxLen("protocol.threeDSCompleteUrl", p.ThreeDSCompleteURL, maxURL, problems)
	return Protocol{ReturnURL: p.ReturnURL, CallbackURL: p.CallbackURL, ThreeDSCompleteURL: p.ThreeDSCompleteURL}
}

type tokenizationIn struct {
	Type        string `json:"type"`
	Purpose     string `json:"purpose"`
	CallbackURL string `json:"callbackUrl"`
}

func (t *tokenizationIn) get(problems *[]string) *TokenizationDetails {
	if t == nil {
		return nil
	}
	maxLen("tokenization.purpose", t.Purpose, maxPurpose, problems)
	maxLen("tokenization.callbackUrl", t.CallbackURL, maxURL, problems)
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
		Invoice: in.Invoice.parse(&problems), Protocol: in.Protocol.get(&problems), Customer: in.Customer.get(&problems),
		Tokenization: in.Tokenization.get(&problems),
	}
	req.Amount, req.amountBad = in.Amount.parse("amount", &problems)
	if d := in.PaymentData; d != nil {
		maxLen("paymentData.stickerId", d.StickerID, maxID, &problems)
		req.PaymentMethod, req.Card, req.StickerID = d.PaymentMethod, d.Card.get(), d.StickerID
		if d.DSRP != nil {
			req.DSRP = &DSRP{Type: d.DSRP.Type, Cryptogram: d.DSRP.Cryptogram, ECI: d.DSRP.ECI}
		}
		if d.Token != nil {
			if d.Token.ID == "" {
				problems = append(problems, "paymentData.token.id is required")
			}
			maxLen("paymentData.token.id", d.Token.ID, maxID, &problems)
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
		Tokenization: in.Tokenization.get(&problems), Invoice: in.Invoice.parse(&problems),
		PaymentMethod: in.PaymentMethod, Protocol: in.Protocol.get(&problems), Customer: in.Customer.get(&problems),
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

func (in *tokenizationReqIn) request() TokenizationRequest {
	var problems []string
	maxLen("purpose", in.Purpose, maxPurpose, &problems)
	maxLen("callbackUrl", in.CallbackURL, maxURL, &problems)
	maxLen("returnUrl", in.ReturnURL, maxURL, &problems)
	req := TokenizationRequest{
		MerchantID: in.MerchantID, TestMode: in.TestMode, Type: in.Type, Purpose: in.Purpose,
		PaymentMethod: in.PaymentMethod, CallbackURL: in.CallbackURL, ReturnURL: in.ReturnURL,
		Customer: in.Customer.get(&problems),
	}
	req.problems = problems
	return req
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

func (in *paymentTokenIn) request() PaymentTokenRequest {
	var problems []string
	maxLen("purpose", in.Purpose, maxPurpose, &problems)
	req := PaymentTokenRequest{
		MerchantID: in.MerchantID, TestMode: in.TestMode, Type: in.Type, Purpose: in.Purpose,
		Protocol: in.Protocol.get(&problems), Customer: in.Customer.get(&problems),
	}
	if d := in.PaymentData; d != nil {
		req.PaymentMethod, req.Card = d.PaymentMethod, d.Card.get()
	}
	req.problems = problems
	return req
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

func (in *stickerIn) request() StickerRequest {
	var problems []string
	maxLen("description", in.Description, maxDescription, &problems)
	maxLen("productCode", in.ProductCode, maxProductCode, &problems)
	maxLen("paymentPurpose", in.PaymentPurpose, maxPaymentPurpose, &problems)
	maxLen("callbackUrl", in.CallbackURL, maxURL, &problems)
	req := StickerRequest{
		MerchantID: in.MerchantID, StickerType: in.StickerType, Cashlink: in.Cashlink, Description: in.Description,
		ProductCode: in.ProductCode, PaymentPurpose: in.PaymentPurpose, CallbackURL: in.CallbackURL,
	}
	req.Amount, req.amountBad = in.Amount.parse("amount", &problems)
	req.problems = problems
	return req
}

func (in *refundIn) request() RefundRequest {
	var problems []string
	maxLen("paymentId", in.PaymentID, maxID, &problems)
	req := RefundRequest{PaymentID: in.PaymentID}
	req.Amount, req.amountBad = in.Amount.parse("amount", &problems)
	if req.Amount != nil && !req.amountBad && req.Amount.Currency == "" {
		problems = append(problems, "amount.currency is required")
	}
	req.problems = problems
	return req
}
