package v1_test

import (
	"context"
	"net/http"
	"net/url"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend/money"
	v1 "paydash/backend/v1"
)

const (
	answerPayment   = `{"ErrorCode":0,"Payment":{"PaymentID":43149010,"State":"COMPLETE"}}`
	answerRefund    = `{"ErrorCode":0,"Refund":{"RefundID":7,"PaymentID":43149010,"Amount":10.5,"State":"EXECUTING"}}`
	answerPayments  = `{"ErrorCode":0,"Response":{"Overflow":false,"Payments":[]}}`
	answerRefunds   = `{"ErrorCode":0,"Response":{"Overflow":false,"Refunds":[]}}`
	answerDocuments = `{"ErrorCode":0,"Response":{"Documents":[]}}`
	answerTransfers = `{"ErrorCode":0,"Response":{"Transfers":[]}}`
	answerRegister  = `{"ErrorCode":0,"Response":{"Register":{"RegisterID":3,"Operations":[]}}}`
	xmlDocuments    = `<?xml version="1.0" encoding="UTF-8"?><Response><ErrorCode>0</ErrorCode><Documents></Documents></Response>`
	xmlRegister     = `<Response><ErrorCode>0</ErrorCode><Register><RegisterID>3</RegisterID></Register></Response>`
)

var (
	may1  = v1.NewDate(2024, time.May, 1)
	may31 = v1.NewDate(2024, time.May, 31)
)

// opCase is one operation call and what the server must receive.
type opCase struct {
	name   string
	method string
	path   string
	answer string
	call   func(ctx context.Context, c *v1.Client) error
	params map[string]string // every parameter sent, besides login, nonce and hash
	signed string            // the string hashed after "login;password;nonce;"
}

func opCases() []opCase {
	return []opCase{
		{"getPayment", "GET", "/api/v1/getPayment", answerPayment,
			func(ctx context.Context, c *v1.Client) error { _, _, err := c.GetPayment(ctx, "43149010"); return err },
			map[string]string{"paymentID": "43149010"}, "43149010"},
		{"getPaymentByInvoiceID", "GET", "/api/v1/getPaymentByInvoiceID", answerPayment,
			func(ctx context.Context, c *v1.Client) error {
				_, _, err := c.GetPaymentByInvoiceID(ctx, "ORD-1", "1001")
				return err
			},
			map[string]string{"invoiceID": "ORD-1", "siteAlias": "1001"}, "ORD-1;1001"},
		{"getPaymentByInvoiceID without site", "GET", "/api/v1/getPaymentByInvoiceID", answerPayment,
			func(ctx context.Context, c *v1.Client) error {
				_, _, err := c.GetPaymentByInvoiceID(ctx, "ORD-1", "")
				return err
			},
			map[string]string{"invoiceID": "ORD-1"}, "ORD-1;"},
		{"listPaymentsFilter", "GET", "/api/v1/listPaymentsFilter", answerPayments,
			func(ctx context.Context, c *v1.Client) error {
				_, _, err := c.ListPaymentsFilter(ctx, v1.PaymentFilter{AccountID: "ACC-1", SiteAlias: "1001",
					PeriodFrom: may1, PeriodTo: may31, InvoiceID: "5561", State: v1.StateComplete})
				return err
			},
			map[string]string{"accountID": "ACC-1", "siteAlias": "1001", "periodFrom": "2024-05-01", "periodTo": "2024-05-31", "invoiceID": "5561", "state": "COMPLETE"},
			"ACC-1;1001;2024-05-01;2024-05-31;5561;COMPLETE"},
		{"listPaymentsFilter sparse", "GET", "/api/v1/listPaymentsFilter", answerPayments,
			func(ctx context.Context, c *v1.Client) error {
				_, _, err := c.ListPaymentsFilter(ctx, v1.PaymentFilter{PeriodFrom: may1})
				return err
			},
			map[string]string{"periodFrom": "2024-05-01"}, ";;2024-05-01;;;"},
		{"refundPayment", "POST", "/api/v1/refundPayment", answerRefund,
			func(ctx context.Context, c *v1.Client) error {
				_, _, err := c.RefundPayment(ctx, v1.RefundRequest{PaymentID: "43149010", Amount: "10.50", ExternalID: "ORD-1"})
				return err
			},
			map[string]string{"paymentID": "43149010", "amount": "10.50", "externalID": "ORD-1"}, "43149010;10.50;ORD-1"},
		{"refundPayment without externalID", "POST", "/api/v1/refundPayment", answerRefund,
			func(ctx context.Context, c *v1.Client) error {
				_, _, err := c.RefundPayment(ctx, v1.RefundRequest{PaymentID: "43149010", Amount: "10.5"})
				return err
			},
			map[string]string{"paymentID": "43149010", "amount": "10.5"}, "43149010;10.5;"},
		{"listRefunds", "GET", "/api/v1/listRefunds", answerRefunds,
			func(ctx context.Context, c *v1.Client) error {
				_, _, err := c.ListRefunds(ctx, v1.RefundFilter{AccountID: "ACC-1", PaymentID: "43149010", PeriodFrom: may1, PeriodTo: may31, ExternalID: "R-1"})
				return err
			},
			map[string]string{"accountID": "ACC-1", "paymentID": "43149010", "periodFrom": "2024-05-01", "periodTo": "2024-05-31", "externalID": "R-1"},
			"ACC-1;43149010;2024-05-01;2024-05-31;R-1"},
		{"listRefunds empty", "GET", "/api/v1/listRefunds", answerRefunds,
			func(ctx context.Context, c *v1.Client) error {
				_, _, err := c.ListRefunds(ctx, v1.RefundFilter{})
				return err
			},
			map[string]string{}, ";;;;"},
		{"confirmPayment", "POST", "/api/v1/confirmPayment", answerPayment,
			func(ctx context.Context, c *v1.Client) error {
				_, _, err := c.ConfirmPayment(ctx, "43149010", "600.00")
				return err
			},
			map[string]string{"paymentID": "43149010", "amount": "600.00"}, "43149010;600.00"},
		{"cancelPayment with error", "POST", "/api/v1/cancelPayment", answerPayment,
			func(ctx context.Context, c *v1.Client) error {
				_, _, err := c.CancelPayment(ctx, "43149010", v1.CodeUserRefused)
				return err
			},
			map[string]string{"paymentID": "43149010", "error": "-17"}, "43149010;-17"},
		{"cancelPayment", "POST", "/api/v1/cancelPayment", answerPayment,
			func(ctx context.Context, c *v1.Client) error {
				_, _, err := c.CancelPayment(ctx, "43149010", 0)
				return err
			},
			map[string]string{"paymentID": "43149010"}, "43149010;"},
		{"listDocuments xml", "GET", "/api/v1/listDocuments", xmlDocuments,
			func(ctx context.Context, c *v1.Client) error {
				_, _, err := c.ListDocuments(ctx, v1.PeriodFilter{PeriodFrom: may1, PeriodTo: may31, XML: true})
				return err
			},
			map[string]string{"periodFrom": "2024-05-01", "periodTo": "2024-05-31", "xml": "1"}, ";2024-05-01;2024-05-31"},
		{"listDocuments", "GET", "/api/v1/listDocuments", answerDocuments,
			func(ctx context.Context, c *v1.Client) error {
				_, _, err := c.ListDocuments(ctx, v1.PeriodFilter{AccountID: "ACC-1", PeriodTo: may31})
				return err
			},
			map[string]string{"accountID": "ACC-1", "periodTo": "2024-05-31"}, "ACC-1;;2024-05-31"},
		{"getDocumentContent", "GET", "/api/v1/getDocumentContent", "a,b\n1,2\n",
			func(ctx context.Context, c *v1.Client) error {
				_, _, err := c.GetDocumentContent(ctx, "DOC-7")
				return err
			},
			map[string]string{"documentID": "DOC-7"}, "DOC-7"},
		{"listTransfers", "GET", "/api/v1/listTransfers", answerTransfers,
			func(ctx context.Context, c *v1.Client) error {
				_, _, err := c.ListTransfers(ctx, v1.PeriodFilter{AccountID: "ACC-1", PeriodFrom: may1, PeriodTo: may31})
				return err
			},
			map[string]string{"accountID": "ACC-1", "periodFrom": "2024-05-01", "periodTo": "2024-05-31"}, "ACC-1;2024-05-01;2024-05-31"},
		{"getTransferRegister xml", "GET", "/api/v1/getTransferRegister", xmlRegister,
			func(ctx context.Context, c *v1.Client) error {
				_, _, err := c.GetTransferRegister(ctx, "REG-3", true)
				return err
			},
			map[string]string{"registerID": "REG-3", "xml": "1"}, "REG-3"},
		{"getTransferRegister", "GET", "/api/v1/getTransferRegister", answerRegister,
			func(ctx context.Context, c *v1.Client) error {
				_, _, err := c.GetTransferRegister(ctx, "REG-3", false)
				return err
			},
			map[string]string{"registerID": "REG-3"}, "REG-3"},
	}
}

// Every operation: its method, path, the parameter names and values sent
// (absent optionals not sent at all) and the hashed order, checked against
// a hash computed from a literal string.
func TestEveryOperationSendsWhatTheSpecSays(t *testing.T) {
	for _, tc := range opCases() {
		t.Run(tc.name, func(t *testing.T) {
			s := newServer(t, reply(http.StatusOK, tc.answer))
			c := newClient(t, s, fixedNonce("N0NCE"))
			require.NoError(t, tc.call(context.Background(), c))
			reqs := s.requests()
			require.Len(t, reqs, 1)
			r := reqs[0]
			assert.Equal(t, tc.method, r.Method)
			assert.Equal(t, tc.path, r.Path)

			got := map[string]string{}
			for k, v := range r.Form {
				require.Len(t, v, 1, "parameter %s sent once", k)
				got[k] = v[0]
			}
			want := map[string]string{"login": testLogin, "nonce": "N0NCE",
				"hash": sha1b64(testLogin + ";" + testPassword + ";N0NCE;" + tc.signed)}
			for k, v := range tc.params {
				want[k] = v
			}
			assert.Equal(t, want, got)

			if tc.method == http.MethodPost {
				assert.Empty(t, r.RawQuery, "a POST sends nothing in the query")
				assert.Equal(t, "application/x-www-form-urlencoded", r.ContentType)
			} else {
				assert.Empty(t, r.Body)
			}
			// The parameters go in the spec's order, then login, nonce and hash.
			raw := r.RawQuery + string(r.Body)
			var names []string
			for _, kv := range strings.Split(raw, "&") {
				name, _, _ := strings.Cut(kv, "=")
				names = append(names, name)
			}
			assert.Equal(t, []string{"login", "nonce", "hash"}, names[len(names)-3:])
		})
	}
}

// Values with characters that mean something in a query string or are not
// ASCII arrive intact, and are hashed as the raw (decoded) strings.
func TestValuesAreURLEncoded(t *testing.T) {
	// A nonce whose hash has both '+' and '/', so the hash itself needs escaping.
	nonce := ""
	for i := 0; nonce == ""; i++ {
		n := "n" + string(rune('a'+i%26)) + strings.Repeat("x", i/26)
		h := v1.Sign(testLogin, testPassword, n, "a+b/c=d;e f&g?h#ü€ 東京%20")
		if strings.Contains(h, "+") && strings.Contains(h, "/") {
			nonce = n
		}
	}
	const tricky = "a+b/c=d;e f&g?h#ü€ 東京%20"
	s := newServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
		if strings.HasSuffix(r.URL.Path, "refundPayment") {
			reply(http.StatusOK, answerRefund)(w, r, n)
			return
		}
		reply(http.StatusOK, answerPayment)(w, r, n)
	})
	c := newClient(t, s, fixedNonce(nonce))
	ctx := context.Background()
	_, _, err := c.GetPayment(ctx, tricky)
	require.NoError(t, err)
	_, _, err = c.RefundPayment(ctx, v1.RefundRequest{PaymentID: "1", Amount: "10.50", ExternalID: tricky})
	require.NoError(t, err)

	reqs := s.requests()
	require.Len(t, reqs, 2)
	get, post := reqs[0], reqs[1]
	assert.Equal(t, tricky, get.Form.Get("paymentID"))
	assert.Equal(t, wantHash(get.Form, "paymentID"), get.Form.Get("hash"))
	assert.Contains(t, get.Form.Get("hash"), "+", "the hash's + arrived as +, not as a space")
	assert.NotContains(t, get.RawQuery, "+b", "a literal + would read as a space")
	assert.NotContains(t, get.RawQuery, ";")
	assert.Equal(t, tricky, post.Form.Get("externalID"))
	assert.Equal(t, wantHash(post.Form, "paymentID", "amount", "externalID"), post.Form.Get("hash"))
	assert.Equal(t, v1.Sign(testLogin, testPassword, nonce, "1", "10.50", tricky), post.Form.Get("hash"))
	// And a server that reads the query with the stricter parser agrees.
	q, err := url.ParseQuery(get.RawQuery)
	require.NoError(t, err)
	assert.Equal(t, tricky, q.Get("paymentID"))
}

// Required parameters are checked before anything is sent.
func TestRequiredParameters(t *testing.T) {
	s := newServer(t, reply(http.StatusOK, answerPayment))
	c := newClient(t, s)
	ctx := context.Background()
	var errs []error
	_, r1, err := c.GetPayment(ctx, "")
	errs = append(errs, err)
	_, _, err = c.GetPaymentByInvoiceID(ctx, "", "1001")
	errs = append(errs, err)
	_, _, err = c.RefundPayment(ctx, v1.RefundRequest{PaymentID: "1"})
	errs = append(errs, err)
	_, _, err = c.RefundPayment(ctx, v1.RefundRequest{Amount: "1"})
	errs = append(errs, err)
	_, _, err = c.ConfirmPayment(ctx, "1", "")
	errs = append(errs, err)
	_, _, err = c.CancelPayment(ctx, "", 0)
	errs = append(errs, err)
	_, _, err = c.GetDocumentContent(ctx, " ")
	errs = append(errs, err)
	_, _, err = c.GetTransferRegister(ctx, "", true)
	errs = append(errs, err)
	for i, err := range errs {
		assert.ErrorContains(t, err, "is required", "case %d", i)
	}
	assert.Nil(t, r1)
	assert.Empty(t, s.requests())
}

func TestDateAndFormatAmount(t *testing.T) {
	d := v1.DateOf(time.Date(2024, 2, 28, 23, 30, 0, 0, time.FixedZone("MSK", 3*3600)))
	assert.Equal(t, "2024-02-28", d.String(), "the UTC day")
	d = v1.DateOf(time.Date(2024, 2, 29, 1, 0, 0, 0, time.FixedZone("MSK", 3*3600)))
	assert.Equal(t, "2024-02-28", d.String(), "01:00 MSK is the previous UTC day")
	assert.Equal(t, "2024-03-01", d.AddDays(2).String())
	assert.Equal(t, "2023-12-31", v1.NewDate(2024, 1, 1).AddDays(-1).String())
	assert.Equal(t, time.Date(2024, 2, 28, 0, 0, 0, 0, time.UTC), d.Start())
	assert.True(t, d.Before(d.AddDays(1)))
	assert.False(t, d.Before(d))
	assert.True(t, d.AddDays(1).After(d))
	assert.Equal(t, 30, may1.DaysUntil(may31))
	assert.Equal(t, d, v1.NewDate(2024, 2, 28), "comparable with ==")

	var zero v1.Date
	assert.True(t, zero.IsZero())
	assert.Equal(t, "", zero.String())
	assert.True(t, v1.DateOf(time.Time{}).IsZero())
	assert.False(t, v1.NewDate(1970, 1, 1).IsZero())
	p, err := v1.ParseDate("2024-05-31")
	require.NoError(t, err)
	assert.Equal(t, may31, p)
	_, err = v1.ParseDate("31.05.2024")
	assert.Error(t, err)

	rub := func(s string) money.Amount { return money.Amount{Value: money.MustParse(s), Currency: "RUB"} }
	assert.Equal(t, "10.50", v1.FormatAmount(rub("10.5")))
	assert.Equal(t, "1250.00", v1.FormatAmount(rub("1250")))
	assert.Equal(t, "10.505", v1.FormatAmount(rub("10.505")), "never rounded")
	assert.Equal(t, "1250", v1.FormatAmount(money.Amount{Value: money.MustParse("1250"), Currency: "JPY"}))
	assert.Equal(t, "1.250", v1.FormatAmount(money.Amount{Value: money.MustParse("1.25"), Currency: "KWD"}))
}

func TestPaymentStatesAreTheSpecs(t *testing.T) {
	got := v1.PaymentStates()
	sort.Strings(got)
	assert.Equal(t, []string{"CANCELLED", "COMPLETE", "HOLD", "INITIATED", "PROCESSING"}, got)
}
