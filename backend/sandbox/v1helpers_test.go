package sandbox

import (
	"crypto/rand"
	"crypto/sha1"
	"crypto/tls"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"paydash/backend/internal/testkit"

	"github.com/stretchr/testify/require"
)

// A raw v1 caller for the tests: its own signing, straight from the spec
// (not the server's code, nor the paydash v1 client).

func tSign(login, password, nonce string, values []string) string {
	sum := sha1.Sum([]byte(strings.Join(append([]string{login, password, nonce}, values...), ";")))
	return base64.StdEncoding.EncodeToString(sum[:])
}

func tNonce() string {
	b := make([]byte, 24)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

type v1Client struct {
	t               testing.TB
	base            string
	hc              *http.Client
	login, password string
}

func newV1Client(t testing.TB, srv *Server, login string) *v1Client {
	u, ok := srv.Store().V1User(login)
	require.True(t, ok, login)
	tr := &http.Transport{TLSClientConfig: &tls.Config{RootCAs: srv.CertPool()}}
	t.Cleanup(tr.CloseIdleConnections)
	return &v1Client{t: t, base: srv.BaseURL(), hc: &http.Client{Transport: tr, Timeout: patience}, login: u.Login, password: u.Password}
}

// v1Req is one request; zero members take the defaults (GET, a fresh
// nonce, the right hash).
type v1Req struct {
	method   string
	op       string
	params   []string // name, value pairs (names as sent)
	nonce    string
	hash     string
	password string
}

// send signs and sends a request and returns the answer.
func (c *v1Client) send(q v1Req) (*http.Response, []byte) {
	c.t.Helper()
	if q.method == "" {
		q.method = http.MethodGet
	}
	if q.nonce == "" {
		q.nonce = tNonce()
	}
	if q.password == "" {
		q.password = c.password
	}
	form := url.Values{}
	for i := 0; i+1 < len(q.params); i += 2 {
		form.Add(q.params[i], q.params[i+1])
	}
	if q.hash == "" {
		var values []string
		for _, name := range testkit.V1Hashed[q.op] {
			v := ""
			for i := 0; i+1 < len(q.params); i += 2 {
				if strings.EqualFold(q.params[i], name) {
					v = q.params[i+1]
				}
			}
			values = append(values, v)
		}
		q.hash = tSign(c.login, q.password, q.nonce, values)
	}
	form.Set("login", c.login)
	form.Set("nonce", q.nonce)
	form.Set("hash", q.hash)
	var (
		req *http.Request
		err error
	)
	if q.method == http.MethodPost {
		req, err = http.NewRequest(q.method, c.base+"/api/v1/"+q.op, strings.NewReader(form.Encode()))
		require.NoError(c.t, err)
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	} else {
		req, err = http.NewRequest(q.method, c.base+"/api/v1/"+q.op+"?"+form.Encode(), nil)
		require.NoError(c.t, err)
	}
	resp, err := c.hc.Do(req)
	require.NoError(c.t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(c.t, err)
	return resp, b
}

// tV1 is the JSON envelope as a client reads it.
type tV1 struct {
	ErrorCode int             `json:"ErrorCode"`
	Message   string          `json:"Message"`
	Payment   *tV1Payment     `json:"Payment"`
	Refund    *tV1Refund      `json:"Refund"`
	Response  json.RawMessage `json:"Response"`
}

type tV1Payment struct {
	PaymentID           json.Number `json:"PaymentID"`
	SiteInvoiceID       string      `json:"SiteInvoiceID"`
	SiteID              json.Number `json:"SiteID"`
	CurrencyCode        string      `json:"CurrencyCode"`
	Amount              json.Number `json:"Amount"`
	PaymentMethod       string      `json:"PaymentMethod"`
	PaymentCurrencyCode string      `json:"PaymentCurrencyCode"`
	PaymentAmount       json.Number `json:"PaymentAmount"`
	State               string      `json:"State"`
	Purpose             string      `json:"Purpose"`
	IsTestPayment       bool        `json:"IsTestPayment"`
	LastUpdateTime      string      `json:"LastUpdateTime"`
	UserIdentifier      string      `json:"UserIdentifier"`
	UserPhoneNumber     string      `json:"UserPhoneNumber"`
	ErrorCode           *int        `json:"ErrorCode"`
}

type tV1Refund struct {
	RefundID   json.Number `json:"RefundID"`
	ExternalID *string     `json:"ExternalID"`
	PaymentID  json.Number `json:"PaymentID"`
	Amount     json.Number `json:"Amount"`
	ErrorCode  *int        `json:"ErrorCode"`
	ErrorDesc  *string     `json:"ErrorDesc"`
	State      string      `json:"State"`
	LastUpdate string      `json:"LastUpdate"`
}

type tV1Document struct {
	Created     string      `json:"Created" xml:"Created"`
	Description string      `json:"Description" xml:"Description"`
	DocumentID  json.Number `json:"DocumentID" xml:"DocumentID"`
	FileName    string      `json:"FileName" xml:"FileName"`
}

type tV1Transfer struct {
	Created        string      `json:"Created" xml:"Created"`
	CurrencyCode   string      `json:"CurrencyCode" xml:"CurrencyCode"`
	TransferAmount json.Number `json:"TransferAmount" xml:"TransferAmount"`
	PaymentOrderID json.Number `json:"PaymentOrderID" xml:"PaymentOrderID"`
	RegisterID     json.Number `json:"RegisterID" xml:"RegisterID"`
}

type tV1Operation struct {
	OperationID     json.Number `json:"OperationID" xml:"OperationID"`
	SiteAlias       string      `json:"SiteAlias" xml:"SiteAlias"`
	InvoiceID       string      `json:"InvoiceID" xml:"InvoiceID"`
	Stamp           string      `json:"Stamp" xml:"Stamp"`
	CurrencyCode    string      `json:"CurrencyCode" xml:"CurrencyCode"`
	OperationAmount json.Number `json:"OperationAmount" xml:"OperationAmount"`
	TransferAmount  json.Number `json:"TransferAmount" xml:"TransferAmount"`
}

type tV1Register struct {
	PeriodFrom     string         `json:"PeriodFrom" xml:"PeriodFrom"`
	PeriodTo       string         `json:"PeriodTo" xml:"PeriodTo"`
	RegisterID     json.Number    `json:"RegisterID" xml:"RegisterID"`
	RegisterNumber string         `json:"RegisterNumber" xml:"RegisterNumber"`
	Operations     []tV1Operation `json:"Operations" xml:"Operations>Operation"`
}

// tV1XML is an XML answer as a client reads it.
type tV1XML struct {
	XMLName   struct{}      `xml:"Response"`
	ErrorCode int           `xml:"ErrorCode"`
	Message   string        `xml:"Message"`
	Documents []tV1Document `xml:"Documents>Document"`
	Transfers []tV1Transfer `xml:"Transfers>Transfer"`
	Register  *tV1Register  `xml:"Register"`
}

// call sends a request and decodes the JSON envelope; it must be HTTP 200.
func (c *v1Client) call(q v1Req) tV1 {
	c.t.Helper()
	resp, b := c.send(q)
	require.Equal(c.t, http.StatusOK, resp.StatusCode, "%s: %s", q.op, b)
	require.Equal(c.t, "application/json", resp.Header.Get("Content-Type"), "%s: %s", q.op, b)
	var env tV1
	require.NoError(c.t, json.Unmarshal(b, &env), string(b))
	return env
}

// ok calls and requires ErrorCode 0.
func (c *v1Client) ok(op string, params ...string) tV1 {
	c.t.Helper()
	env := c.call(v1Req{op: op, params: params})
	require.Zero(c.t, env.ErrorCode, "%s: %s", op, env.Message)
	require.Empty(c.t, env.Message)
	return env
}

// post is ok with a form body.
func (c *v1Client) post(op string, params ...string) tV1 {
	c.t.Helper()
	env := c.call(v1Req{method: http.MethodPost, op: op, params: params})
	require.Zero(c.t, env.ErrorCode, "%s: %s", op, env.Message)
	return env
}

// wantCode calls and requires an error code and (if given) a piece of its message.
func (c *v1Client) wantCode(code int, contains string, q v1Req) tV1 {
	c.t.Helper()
	env := c.call(q)
	require.Equal(c.t, code, env.ErrorCode, "%s: %s", q.op, env.Message)
	require.NotEmpty(c.t, env.Message, "every error has its message")
	if contains != "" {
		require.Contains(c.t, env.Message, contains)
	}
	return env
}

// response decodes the Response member.
func response[T any](t testing.TB, env tV1) T {
	t.Helper()
	var out T
	require.NoError(t, json.Unmarshal(env.Response, &out), string(env.Response))
	return out
}

type tPaymentList struct {
	Overflow *bool        `json:"Overflow"`
	Payments []tV1Payment `json:"Payments"`
}

type tRefundList struct {
	Overflow *bool       `json:"Overflow"`
	Refunds  []tV1Refund `json:"Refunds"`
}
