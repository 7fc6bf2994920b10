package sandbox

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"paydash/backend/money"
)

// The /api/v1 HTTP side (docs/service.md): eleven operations at
// /api/v1/<operation>, GET or POST (query string or form body), parameter
// names matched without regard to case, every request signed (v1auth.go).
// Every answer to an operation is HTTP 200 with an ErrorCode (0 success);
// an unknown path is 404 and another method 405, both with the same JSON
// envelope. Handlers only translate: the rules live in the Store. This
// file dispatches and reads the parameters; the operations are in
// v1api_payments.go and v1api_reports.go.

// v1Op is one operation: its canonical name, hashed parameters in order,
// whether it may answer in XML, and what it does.
type v1Op struct {
	name   string
	hashed []string
	xml    bool
	run    func(s *Server, c *v1Call)
}

var v1Ops = map[string]*v1Op{}

func init() {
	for _, op := range []*v1Op{
		{name: "getPayment", hashed: []string{"paymentID"}, run: (*Server).v1GetPayment},
		{name: "getPaymentByInvoiceID", hashed: []string{"invoiceID", "siteAlias"}, run: (*Server).v1GetPaymentByInvoice},
		{name: "listPaymentsFilter", hashed: []string{"accountID", "siteAlias", "periodFrom", "periodTo", "invoiceID", "state"}, run: (*Server).v1ListPayments},
		{name: "refundPayment", hashed: []string{"paymentID", "amount", "externalID"}, run: (*Server).v1RefundPayment},
		{name: "listRefunds", hashed: []string{"accountID", "paymentID", "periodFrom", "periodTo", "externalID"}, run: (*Server).v1ListRefunds},
		{name: "confirmPayment", hashed: []string{"paymentID", "amount"}, run: (*Server).v1ConfirmPayment},
		{name: "cancelPayment", hashed: []string{"paymentID", "error"}, run: (*Server).v1CancelPayment},
		{name: "listDocuments", hashed: []string{"accountID", "periodFrom", "periodTo"}, xml: true, run: (*Server).v1ListDocuments},
		{name: "getDocumentContent", hashed: []string{"documentID"}, run: (*Server).v1GetDocumentContent},
		{name: "listTransfers", hashed: []string{"accountID", "periodFrom", "periodTo"}, xml: true, run: (*Server).v1ListTransfers},
		{name: "getTransferRegister", hashed: []string{"registerID"}, xml: true, run: (*Server).v1GetRegister},
	} {
		v1Ops[strings.ToLower(op.name)] = op
	}
}

// v1Call is one request being answered.
type v1Call struct {
	w      http.ResponseWriter
	r      *http.Request
	op     *v1Op
	user   V1User
	params map[string]string // lower-cased name -> value; empty values are absent
	xml    bool
}

// get reads a parameter by name, without regard to case ("" if absent).
func (c *v1Call) get(name string) string { return c.params[strings.ToLower(name)] }

// require reads a required parameter; if it is absent it answers -1 and
// reports false.
func (c *v1Call) require(name string) (string, bool) {
	v := c.get(name)
	if v == "" {
		c.fail(v1ErrUnknown, "%s is required", name)
		return "", false
	}
	return v, true
}

// fail answers an error code with its message.
func (c *v1Call) fail(code int, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	if c.xml {
		writeV1XML(c.w, &v1XML{ErrorCode: code, Message: msg})
		return
	}
	writeV1JSON(c.w, http.StatusOK, &v1Envelope{ErrorCode: code, Message: msg})
}

func (c *v1Call) ok(env *v1Envelope) { writeV1JSON(c.w, http.StatusOK, env) }

func writeV1JSON(w http.ResponseWriter, status int, env *v1Envelope) {
	b, err := json.Marshal(env)
	if err != nil {
		status, b = http.StatusInternalServerError, []byte(`{"ErrorCode":-1,"Message":"could not render the answer"}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

func writeV1XML(w http.ResponseWriter, body *v1XML) {
	var buf bytes.Buffer
	buf.Grow(4096)
	buf.WriteString(xml.Header)
	if err := xml.NewEncoder(&buf).Encode(body); err != nil {
		buf.Reset()
		buf.WriteString(xml.Header + "<Response><ErrorCode>-1</ErrorCode><Message>could not render the answer</Message></Response>")
	}
	w.Header().Set("Content-Type", "application/xml; charset=utf-8")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(buf.Bytes())
}

// v1 serves /api/v1/: routing, parameters, signature, nonce and role, in
// that order, then the operation.
func (s *Server) v1(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimPrefix(r.URL.Path, "/api/v1/")
	name = strings.TrimSuffix(name, "/") // /api/v1/getPayment/ is getPayment: served, not redirected
	op := v1Ops[strings.ToLower(name)]
	if op == nil || strings.Contains(name, "/") {
		writeV1JSON(w, http.StatusNotFound, &v1Envelope{ErrorCode: v1ErrUnknown, Message: "unknown operation " + strconv.Quote(name)})
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodPost {
		w.Header().Set("Allow", "GET, POST")
		writeV1JSON(w, http.StatusMethodNotAllowed, &v1Envelope{ErrorCode: v1ErrUnknown,
			Message: "method " + r.Method + " is not allowed on " + r.URL.Path + " (allowed: GET, POST)"})
		return
	}
	c := &v1Call{w: w, r: r, op: op}
	params, problem := v1Params(w, r)
	c.params = params
	if op.xml {
		switch strings.ToLower(c.get("xml")) {
		case "1", "true", "yes":
			c.xml = true
		}
	}
	if problem != "" {
		c.fail(v1ErrUnknown, "%s", problem)
		return
	}
	u, ok := s.store.V1User(c.get("login"))
	if !ok {
		c.fail(v1ErrAccess, "no access: unknown login")
		return
	}
	nonce := c.get("nonce")
	if p := checkNonce(nonce); p != "" {
		c.fail(v1ErrUnknown, "%s", p)
		return
	}
	values := make([]string, len(op.hashed))
	for i, n := range op.hashed {
		values[i] = c.get(n)
	}
	if !verifyV1Signature(u, nonce, c.get("hash"), values) {
		c.fail(v1ErrSignature, "invalid request signature")
		return
	}
	if !s.nonces.use(u.Login, nonce) {
		c.fail(v1ErrNonce, "the nonce was already used; make a new one for each request")
		return
	}
	if !v1Allowed(u.Role, op.name) {
		c.fail(v1ErrAccess, "insufficient rights: the %s role may not %s", u.Role, op.name)
		return
	}
	c.user = u
	for _, p := range v1Bounded {
		if v := c.get(p.name); len(v) > p.max && utf8.RuneCountInString(v) > p.max {
			c.fail(v1ErrUnknown, "%s is longer than %d characters", p.name, p.max)
			return
		}
	}
	op.run(s, c)
}

// v1Bounded are the text parameters with a maximum length (doc.go's
// table): the same bounds as the v2 members they match.
var v1Bounded = []struct {
	name string
	max  int
}{
	{"externalID", maxExternalID},
	{"invoiceID", maxOrderNo},
	{"paymentID", maxID},
	{"siteAlias", maxID},
	{"accountID", maxID},
	{"documentID", maxID},
	{"registerID", maxID},
}

// v1Params reads the query and (for a form body) the form, keyed by the
// lower-cased name. A name given twice (in any spelling) is a problem.
func v1Params(w http.ResponseWriter, r *http.Request) (map[string]string, string) {
	out := map[string]string{}
	r.Body = http.MaxBytesReader(w, r.Body, maxBody)
	if err := r.ParseForm(); err != nil {
		// Still read what the query gives, so the answer's format is right.
		q, _ := url.ParseQuery(r.URL.RawQuery)
		for k, vs := range q {
			out[strings.ToLower(k)] = vs[0]
		}
		return out, "the request could not be read: " + err.Error()
	}
	if r.Method == http.MethodPost {
		if ct := r.Header.Get("Content-Type"); ct != "" {
			if mt, _, _ := mime.ParseMediaType(ct); mt != "application/x-www-form-urlencoded" {
				return out, "a POST body must be application/x-www-form-urlencoded"
			}
		}
	}
	seen := map[string]string{}
	for k, vs := range r.Form {
		lk := strings.ToLower(k)
		if prev, dup := seen[lk]; dup || len(vs) > 1 {
			if !dup {
				prev = k
			}
			return out, fmt.Sprintf("parameter %s is given more than once", prev)
		}
		seen[lk] = k
		out[lk] = vs[0]
	}
	return out, ""
}

// --- parameters ---

// account checks accountID (absent: the user's only account).
func (c *v1Call) account() bool {
	if a := c.get("accountID"); a != "" && a != c.user.AccountID {
		c.fail(v1ErrAccess, "no access: account %q is not the account of %s (%s)", a, c.user.Login, c.user.AccountID)
		return false
	}
	return true
}

// site reads siteAlias: a site of the account, or "" for all of them.
func (s *Server) site(c *v1Call) (string, bool) {
	alias := c.get("siteAlias")
	if alias == "" {
		return "", true
	}
	if _, ok := s.store.Merchant(alias); !ok {
		c.fail(v1ErrAccess, "no access: site %q is not a site of account %s", alias, c.user.AccountID)
		return "", false
	}
	return alias, true
}

// period reads periodFrom and periodTo (yyyy-MM-dd, UTC days, both
// inclusive) as the times [start, end); absent bounds are zero.
func (c *v1Call) period() (start, end time.Time, ok bool) {
	read := func(name string) (time.Time, bool) {
		v := c.get(name)
		if v == "" {
			return time.Time{}, true
		}
		t, err := time.Parse(time.DateOnly, v)
		if err != nil {
			c.fail(v1ErrUnknown, "%s %q is not a date yyyy-MM-dd", name, clip(v, 40))
			return time.Time{}, false
		}
		// periodTo's day ends a day later: that end must be representable too.
		if last := t.AddDate(0, 0, 1); !representable(t) || name == "periodTo" && !representable(last) {
			c.fail(v1ErrUnknown, "%s %s is out of range: %s", name, v, dateRange)
			return time.Time{}, false
		}
		return t, true
	}
	if start, ok = read("periodFrom"); !ok {
		return
	}
	if end, ok = read("periodTo"); !ok {
		return
	}
	if !start.IsZero() && !end.IsZero() && start.After(end) {
		c.fail(v1ErrUnknown, "periodFrom %s is after periodTo %s", c.get("periodFrom"), c.get("periodTo"))
		return start, end, false
	}
	if !end.IsZero() {
		end = end.AddDate(0, 0, 1)
	}
	return start, end, true
}

// amount reads a plain positive decimal amount with at most the currency's
// decimals (trailing zeros aside, as in v2: rules.go, checkMinorUnits);
// anything else answers -18. v is read, never rewritten: the hash was
// checked over the string as sent.
func (c *v1Call) amount(v, currency string) (money.Decimal, bool) {
	bad := func(format string, args ...any) (money.Decimal, bool) {
		c.fail(v1ErrAmount, format, args...)
		return 0, false
	}
	whole, frac, dot := strings.Cut(strings.TrimPrefix(v, "-"), ".")
	if whole == "" || dot && frac == "" || strings.Trim(whole+frac, "0123456789") != "" {
		return bad("amount %q is not a decimal number such as 10.50", v)
	}
	d, err := money.Parse(v)
	if err != nil {
		return bad("amount %q is not a usable amount", v)
	}
	if !d.IsPositive() {
		return bad("amount %s must be greater than 0", v)
	}
	if problem := minorUnitsProblem("amount", d, currency); problem != "" {
		return bad("%s", problem)
	}
	return d, true
}

// payment finds the payment paymentID names (-13 if none).
func (s *Server) payment(c *v1Call) (Payment, bool) {
	id, ok := c.require("paymentID")
	if !ok {
		return Payment{}, false
	}
	p, err := s.store.GetPayment(id)
	if err != nil {
		c.fail(v1ErrNotFound, "payment %s not found", id)
		return Payment{}, false
	}
	return p, true
}

// stateRefusal answers a payment whose state does not allow a move: -15 if
// it is CANCELLED, else -31.
func stateRefusal(c *v1Call, p *Payment, want, move string) {
	code := v1ErrNotAllow
	if p.Status == PaymentCancelled || p.Status == PaymentRejected {
		code = v1ErrCancelled
	}
	c.fail(code, "payment %s is %s; only a %s payment can be %s", p.ID, p.Status.V1State(), want, move)
}

func paymentAnswer(c *v1Call, p *Payment) {
	vp := renderV1Payment(p)
	c.ok(&v1Envelope{Payment: &vp})
}
