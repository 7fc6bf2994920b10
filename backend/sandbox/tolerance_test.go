package sandbox

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"paydash/backend/internal/testkit"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// What real clients send that the spec does not forbid, each accepted like
// its strict form (doc.go, "Tolerance and bounds").

func TestV2TrailingSlashIsTheSamePath(t *testing.T) {
	clock := newFakeClock()
	srv := start(t, Options{Now: clock.Now, SettleDelay: time.Hour})
	c := newClient(t, srv)

	// Creates: the POST body arrives (no redirect), and a key is the same
	// key with or without the slash.
	var inv struct {
		PaymentID string `json:"paymentId"`
		URL       string `json:"url"`
	}
	body := map[string]any{"merchantId": "1001", "amount": map[string]any{"value": 12.5, "currency": "RUB"}}
	resp, b := c.call("POST", "/api/v2/invoices/", body, "Idempotency-Key", "slash-1")
	require.Equal(t, 200, resp.StatusCode, "%s", b)
	require.NoError(t, json.Unmarshal(b, &inv))
	require.NotEmpty(t, inv.PaymentID)
	resp, b2 := c.call("POST", "/api/v2/invoices", body, "Idempotency-Key", "slash-1")
	require.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, string(b), string(b2), "the same key on the same route, slash or not")
	assert.Equal(t, "true", resp.Header.Get("Idempotent-Replayed"))

	p := c.pay(cardPayment("1001", "4111111111111111", "300"))
	h := c.pay(cardPayment("1001", "4111111111111111", "300", dual))
	var ref tRefund
	c.want(200, "POST", "/api/v2/refunds/", map[string]any{"paymentId": p.ID, "amount": map[string]any{"value": 1, "currency": "RUB"}}, &ref)
	require.Equal(t, "Pending", ref.Status)
	var st tSticker
	c.want(200, "POST", "/api/v2/stickers/", map[string]any{"merchantId": "1001"}, &st)

	// Reads answer the same bytes with and without the slash.
	period := "merchantId=1001&start=2026-03-10&end=2026-03-11"
	for _, path := range []string{
		"/api/v2/payments/" + p.ID,
		"/api/v2/payments?" + period,
		"/api/v2/refunds/" + ref.ID,
		"/api/v2/refunds?" + period,
		"/api/v2/stickers/" + st.ID,
		"/api/v2/stickers?merchantId=1001",
	} {
		slashed := path + "/"
		if base, query, ok := strings.Cut(path, "?"); ok {
			slashed = base + "/?" + query
		}
		r1, plain := c.call("GET", path, nil)
		r2, withSlash := c.call("GET", slashed, nil)
		require.Equal(t, 200, r1.StatusCode, "%s: %s", path, plain)
		assert.Equal(t, 200, r2.StatusCode, "%s: %s", slashed, withSlash)
		assert.Equal(t, string(plain), string(withSlash), slashed)
	}

	// Moves.
	c.want(200, "PUT", "/api/v2/payments/"+h.ID+"/cancel/", nil, nil)
	assert.Equal(t, "Cancelled", c.getPayment(h.ID).Status)
	h2 := c.pay(cardPayment("1001", "4111111111111111", "300", dual))
	c.want(200, "PUT", "/api/v2/payments/"+h2.ID+"/confirm/", map[string]any{"amount": map[string]any{"value": 100, "currency": "RUB"}}, nil)
	assert.Equal(t, "Settled", c.getPayment(h2.ID).Status)

	// An unknown path is unknown with a slash too.
	c.wantError(404, "invalid_operation", "not found", "GET", "/api/v2/nothing/", nil)
}

// v1WithSlash calls op at /api/v1/<op>/, signed as op.
func (c *v1Client) v1WithSlash(method, op string, params ...string) tV1 {
	c.t.Helper()
	nonce := tNonce()
	var values []string
	for _, name := range testkit.V1Hashed[op] {
		v := ""
		for i := 0; i+1 < len(params); i += 2 {
			if strings.EqualFold(params[i], name) {
				v = params[i+1]
			}
		}
		values = append(values, v)
	}
	env := c.call(v1Req{method: method, op: op + "/", params: params, nonce: nonce, hash: tSign(c.login, c.password, nonce, values)})
	require.Zero(c.t, env.ErrorCode, "%s/: %s", op, env.Message)
	return env
}

func TestV1TrailingSlashIsTheSameOperation(t *testing.T) {
	srv := start(t, Options{Payments: 300, SettleDelay: time.Hour})
	v1 := newV1Client(t, srv, "accountant")
	c := newClient(t, srv)
	p := c.pay(cardPayment("1001", "4111111111111111", "300"))

	plain := v1.ok("getPayment", "paymentID", p.ID)
	slashed := v1.v1WithSlash(http.MethodGet, "getPayment", "paymentID", p.ID)
	assert.Equal(t, plain.Payment, slashed.Payment)

	from, to := "2026-01-01", srv.Store().Now().Format(time.DateOnly)
	a := response[tPaymentList](t, v1.ok("listPaymentsFilter", "periodFrom", from, "periodTo", to, "siteAlias", "1001"))
	b := response[tPaymentList](t, v1.v1WithSlash(http.MethodGet, "listPaymentsFilter", "periodFrom", from, "periodTo", to, "siteAlias", "1001"))
	assert.Equal(t, a, b)
	require.NotEmpty(t, b.Payments)

	// A POST with its form body.
	env := v1.v1WithSlash(http.MethodPost, "refundPayment", "paymentID", p.ID, "amount", "1.00", "externalID", "slash-ext")
	require.NotNil(t, env.Refund)
	assert.Equal(t, "EXECUTING", env.Refund.State)

	// An unknown operation is unknown with a slash too.
	resp, _ := v1.send(v1Req{op: "nothing/"})
	assert.Equal(t, 404, resp.StatusCode)
}

func TestDecimalsSentAsStrings(t *testing.T) {
	srv := start(t, Options{SettleDelay: time.Hour})
	c := newClient(t, srv)

	// Create invoice: "11.00" is 11.
	var inv struct {
		PaymentID string `json:"paymentId"`
	}
	c.want(200, "POST", "/api/v2/invoices", `{"merchantId":"1001","amount":{"value":"11.00","currency":"RUB"}}`, &inv)
	got := c.getPayment(inv.PaymentID)
	assert.Equal(t, "11", got.Amount.Value.String())

	// Direct payment, refund and capture.
	p := c.pay(`{"merchantId":"1001","amount":{"value":"300.50","currency":"RUB"},"paymentData":{"card":{"pan":"4111111111111111"}}}`)
	assert.Equal(t, "300.5", p.Amount.Value.String())
	var ref tRefund
	c.want(200, "POST", "/api/v2/refunds", `{"paymentId":"`+p.ID+`","amount":{"value":"0.5","currency":"RUB"}}`, &ref)
	assert.Equal(t, "0.5", ref.Amount.Value.String())
	h := c.pay(cardPayment("1001", "4111111111111111", "300", dual))
	c.want(200, "PUT", "/api/v2/payments/"+h.ID+"/confirm", `{"amount":{"value":"120.25","currency":"RUB"}}`, nil)
	assert.Equal(t, "120.25", c.getPayment(h.ID).Amount.Value.String(), "captured as sent")

	// A sticker's amount too.
	var st tSticker
	c.want(200, "POST", "/api/v2/stickers", `{"merchantId":"1001","amount":{"value":"150","currency":"RUB"}}`, &st)
	require.NotNil(t, st.Amount)
	assert.Equal(t, "150", st.Amount.Value.String())

	// A string that is not a decimal is refused, naming the field; a
	// decimal string is held to the number's rules.
	for value, problem := range map[string]string{
		`"ten"`:      `amount.value "ten" is not a decimal number`,
		`"1,000.00"`: `amount.value "1,000.00" is not a decimal number`,
		`" 5"`:       `amount.value " 5" is not a decimal number`,
		`"+5"`:       `amount.value "+5" is not a decimal number`,
		`".5"`:       `amount.value ".5" is not a decimal number`,
		`""`:         `amount.value "" is not a decimal number`,
		`"0x10"`:     `amount.value "0x10" is not a decimal number`,
		`"1.12345"`:  "amount.value has more than 4 decimals",
		`"-5"`:       "amount.value must be greater than 0",
	} {
		c.wantError(400, "validation_error", problem, "POST", "/api/v2/invoices",
			`{"merchantId":"1001","amount":{"value":`+value+`,"currency":"RUB"}}`)
		c.wantError(400, "validation_error", problem, "POST", "/api/v2/refunds",
			`{"paymentId":"`+p.ID+`","amount":{"value":`+value+`,"currency":"RUB"}}`)
	}
	c.wantError(400, "validation_error", `amount.value "x" is not a decimal number`, "PUT", "/api/v2/payments/"+h.ID+"/confirm",
		`{"amount":{"value":"x","currency":"RUB"}}`)
	refunds, _ := srv.Store().RefundsOfPayment(p.ID)
	assert.Len(t, refunds, 1, "nothing refused was made")
}

func TestV1PaymentsCarryLastUpdateBesideLastUpdateTime(t *testing.T) {
	clock := newFakeClock()
	srv := start(t, Options{Now: clock.Now, SettleDelay: time.Hour})
	c := newClient(t, srv)
	v1 := newV1Client(t, srv, "accountant")
	p := c.pay(cardPayment("1001", "4111111111111111", "300", func(b map[string]any) {
		b["invoice"] = map[string]any{"orderNo": "LU-1"}
	}))
	h1 := c.pay(cardPayment("1001", "4111111111111111", "300", dual))
	h2 := c.pay(cardPayment("1001", "4111111111111111", "300", dual))
	clock.Advance(time.Minute)

	// Both names, the same value, in every JSON answer with a payment.
	check := func(what string, raw json.RawMessage) {
		t.Helper()
		var m map[string]any
		require.NoError(t, json.Unmarshal(raw, &m), what)
		require.Contains(t, m, "LastUpdate", what)
		require.Contains(t, m, "LastUpdateTime", what)
		assert.Equal(t, m["LastUpdateTime"], m["LastUpdate"], what)
		assert.Regexp(t, `^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$`, m["LastUpdate"], what)
	}
	raw := func(op string, post bool, params ...string) json.RawMessage {
		t.Helper()
		q := v1Req{op: op, params: params}
		if post {
			q.method = http.MethodPost
		}
		_, b := v1.send(q)
		var env struct {
			ErrorCode int             `json:"ErrorCode"`
			Message   string          `json:"Message"`
			Payment   json.RawMessage `json:"Payment"`
			Response  struct {
				Payments []json.RawMessage `json:"Payments"`
			} `json:"Response"`
		}
		require.NoError(t, json.Unmarshal(b, &env), string(b))
		require.Zero(t, env.ErrorCode, "%s: %s", op, env.Message)
		if env.Payment != nil {
			return env.Payment
		}
		require.NotEmpty(t, env.Response.Payments, op)
		for _, item := range env.Response.Payments {
			check(op+" item", item)
		}
		return env.Response.Payments[0]
	}
	check("getPayment", raw("getPayment", false, "paymentID", p.ID))
	check("getPaymentByInvoiceID", raw("getPaymentByInvoiceID", false, "invoiceID", "LU-1"))
	check("confirmPayment", raw("confirmPayment", true, "paymentID", h1.ID, "amount", "300.00"))
	check("cancelPayment", raw("cancelPayment", true, "paymentID", h2.ID))
	check("listPaymentsFilter", raw("listPaymentsFilter", false, "periodFrom", "2026-03-10", "periodTo", "2026-03-10"))

	// After a confirm, the time is the confirm's.
	var env struct {
		Payment struct {
			LastUpdate     string `json:"LastUpdate"`
			LastUpdateTime string `json:"LastUpdateTime"`
		} `json:"Payment"`
	}
	_, b := v1.send(v1Req{op: "getPayment", params: []string{"paymentID", h1.ID}})
	require.NoError(t, json.Unmarshal(b, &env))
	assert.Equal(t, "2026-03-10T12:01:00", env.Payment.LastUpdate)
}

func TestRefundAnswersAlwaysCarryResultCode(t *testing.T) {
	clock := newFakeClock()
	srv := start(t, Options{Now: clock.Now, SettleDelay: time.Minute})
	c := newClient(t, srv)
	p := c.pay(cardPayment("1001", "4111111111111111", "300"))

	for _, value := range []string{"10", "10.13"} { // .13: Rejected when it settles
		var created, got map[string]any
		c.want(200, "POST", "/api/v2/refunds", map[string]any{"paymentId": p.ID, "amount": map[string]any{"value": json.Number(value), "currency": "RUB"}}, &created)
		assert.Equal(t, "Pending", created["status"])
		assert.Equal(t, pendingRefundResult, created["resultCode"], "create, Pending")
		id := created["id"].(string)
		c.want(200, "GET", "/api/v2/refunds/"+id, nil, &got)
		assert.Equal(t, "Pending", got["status"])
		assert.Equal(t, pendingRefundResult, got["resultCode"], "get, Pending")

		// Still not in list items, as the service documents them.
		var list struct {
			Items []map[string]any `json:"items"`
		}
		c.want(200, "GET", "/api/v2/refunds?"+url.Values{"merchantId": {"1001"}, "start": {"2026-03-10"}, "end": {"2026-03-11"}}.Encode(), nil, &list)
		require.NotEmpty(t, list.Items)
		assert.NotContains(t, list.Items[0], "resultCode")
	}
	clock.Advance(2 * time.Minute)
	srv.Store().RunDue()
	refunds, _ := srv.Store().RefundsOfPayment(p.ID)
	require.Len(t, refunds, 2)
	for _, r := range refunds {
		var got tRefund
		c.want(200, "GET", "/api/v2/refunds/"+r.ID, nil, &got)
		if got.Status == "Rejected" {
			assert.Equal(t, "OperationNotAllowed", got.ResultCode, "a rejected refund says why")
		} else {
			assert.Equal(t, "Success", got.Status)
			assert.Equal(t, "Success", got.ResultCode)
		}
	}
}

// A replay is the first answer as it was (Stripe's model); the object's
// state now is read with a GET.
func TestReplayedRefundIsTheFirstAnswer(t *testing.T) {
	clock := newFakeClock()
	srv := start(t, Options{Now: clock.Now, SettleDelay: time.Minute})
	c := newClient(t, srv)
	p := c.pay(cardPayment("1001", "4111111111111111", "300"))
	body := map[string]any{"paymentId": p.ID, "amount": map[string]any{"value": 5, "currency": "RUB"}}
	r1, first := c.call("POST", "/api/v2/refunds", body, "Idempotency-Key", "replay-1")
	require.Equal(t, 200, r1.StatusCode)
	assert.Empty(t, r1.Header.Get("Idempotent-Replayed"))

	clock.Advance(2 * time.Minute)
	srv.Store().RunDue()
	r2, again := c.call("POST", "/api/v2/refunds", body, "Idempotency-Key", "replay-1")
	require.Equal(t, 200, r2.StatusCode)
	assert.Equal(t, "true", r2.Header.Get("Idempotent-Replayed"))
	assert.Equal(t, string(first), string(again), "the same answer, Pending and all")

	var ref tRefund
	require.NoError(t, json.Unmarshal(again, &ref))
	assert.Equal(t, "Pending", ref.Status)
	var now tRefund
	c.want(200, "GET", "/api/v2/refunds/"+ref.ID, nil, &now)
	assert.Equal(t, "Success", now.Status, "the object now")
	refunds, _ := srv.Store().RefundsOfPayment(p.ID)
	assert.Len(t, refunds, 1)
}

// The client stays strict: numbers as numbers, no trailing slashes (its
// own tests check every request shape: backend/v2 TestRequestShapes).
