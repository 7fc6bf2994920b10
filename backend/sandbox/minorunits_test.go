package sandbox

import (
	"encoding/json"
	"net/http"
	"slices"
	"testing"
	"time"

	"paydash/backend/money"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// An amount finer than its currency's minor unit is refused, naming the
// field, in every request with an amount, in both interfaces; trailing
// zeros beyond the minor unit are the same value and are taken.

// acceptCurrency lets merchant id take currency as well. No seeded merchant
// takes a currency without two decimals, and JPY (none) must be tried end
// to end.
func acceptCurrency(t *testing.T, srv *Server, id, currency string) {
	t.Helper()
	s := srv.Store()
	s.mu.Lock()
	defer s.mu.Unlock()
	m := s.merchantByID[id]
	require.NotNil(t, m, id)
	require.Less(t, len(m.Currencies), maxLedgerCurrencies, "the ledger keeps at most %d currencies a merchant", maxLedgerCurrencies)
	m.Currencies = append(slices.Clone(m.Currencies), currency) // the seed table's slice stays as it is
}

func amountOf(value, currency string) map[string]any {
	return map[string]any{"value": json.Number(value), "currency": currency}
}

func withAmount(value, currency string) func(map[string]any) {
	return func(b map[string]any) { b["amount"] = amountOf(value, currency) }
}

func TestMinorUnitsProblem(t *testing.T) {
	for _, tc := range []struct {
		value, currency, problem string
	}{
		{"1", "RUB", ""},
		{"1.5", "RUB", ""},
		{"1.01", "RUB", ""},
		{"1.001", "RUB", "amount.value 1.001 has 3 decimals; RUB has at most 2 decimals"},
		{"1.0010", "USD", "amount.value 1.001 has 3 decimals; USD has at most 2 decimals"},
		{"0.0001", "EUR", "amount.value 0.0001 has 4 decimals; EUR has at most 2 decimals"},
		{"1.000", "RUB", ""}, // the value is 1: trailing zeros do not count
		{"1500", "JPY", ""},
		{"1500.00", "JPY", ""},
		{"1500.5", "JPY", "amount.value 1500.5 has 1 decimal; JPY has no decimals"},
		{"0.001", "KWD", ""},
		{"0.0001", "KWD", "amount.value 0.0001 has 4 decimals; KWD has at most 3 decimals"},
		{"1.001", "rub", ""}, // not a code: refused by the currency's own check
		{"1.001", "", ""},
	} {
		assert.Equal(t, tc.problem, minorUnitsProblem("amount.value", money.MustParse(tc.value), tc.currency), "%s %s", tc.value, tc.currency)
	}
}

func TestV2RefusesAmountsFinerThanTheCurrency(t *testing.T) {
	srv := start(t, Options{SettleDelay: time.Hour})
	c := newClient(t, srv)
	st := srv.Store()
	const finer = "amount.value 1.001 has 3 decimals; RUB has at most 2 decimals"

	// Refunds: 84 RUB less 1.001 would leave 82.999, finer than RUB goes.
	p := c.pay(cardPayment("1001", "4111111111111111", "84"))
	for _, body := range []string{
		`{"paymentId":"` + p.ID + `","amount":{"value":1.001,"currency":"RUB"}}`,
		`{"paymentId":"` + p.ID + `","amount":{"value":"1.001","currency":"RUB"}}`,
		`{"paymentId":"` + p.ID + `","amount":{"value":1.0010,"currency":"RUB"}}`,
		`{"paymentId":"` + p.ID + `","amount":{"value":1001e-3,"currency":"RUB"}}`,
	} {
		c.wantError(400, "validation_error", finer, "POST", "/api/v2/refunds", body)
	}
	refunds, err := st.RefundsOfPayment(p.ID)
	require.NoError(t, err)
	assert.Empty(t, refunds, "nothing refused was made")
	// Trailing zeros beyond the minor unit are the same value.
	var ref tRefund
	c.want(200, "POST", "/api/v2/refunds", `{"paymentId":"`+p.ID+`","amount":{"value":1.000,"currency":"RUB"}}`, &ref)
	assert.Equal(t, "1", ref.Amount.Value.String())
	sp, err := st.GetPayment(p.ID)
	require.NoError(t, err)
	assert.Equal(t, "83", sp.Remaining().String(), "what is left has no more decimals than the currency")

	// Confirm (capture) of a hold: refused, and the hold stays as it was.
	h := c.pay(cardPayment("1001", "4111111111111111", "300", dual))
	c.wantError(400, "validation_error", "amount.value 120.255 has 3 decimals; RUB has at most 2 decimals",
		"PUT", "/api/v2/payments/"+h.ID+"/confirm", `{"amount":{"value":120.255,"currency":"RUB"}}`)
	assert.Equal(t, "Authorized", c.getPayment(h.ID).Status)
	c.want(200, "PUT", "/api/v2/payments/"+h.ID+"/confirm", `{"amount":{"value":"120.250","currency":"RUB"}}`, nil)
	assert.Equal(t, "120.25", c.getPayment(h.ID).Amount.Value.String())

	// Invoices, direct payments, stickers: refused, and nothing made.
	payments := st.PaymentCount()
	c.wantError(400, "validation_error", finer, "POST", "/api/v2/invoices",
		map[string]any{"merchantId": "1001", "amount": amountOf("1.001", "RUB")})
	c.wantError(400, "validation_error", finer, "POST", "/api/v2/payments",
		cardPayment("1001", "4111111111111111", "1.001"))
	assert.Equal(t, payments, st.PaymentCount())
	c.wantError(400, "validation_error", finer, "POST", "/api/v2/stickers",
		map[string]any{"merchantId": "1001", "cashlink": true, "amount": amountOf("1.001", "RUB")})
	c.want(200, "POST", "/api/v2/invoices", map[string]any{"merchantId": "1001", "amount": amountOf("1.00", "RUB")}, nil)
	c.want(200, "POST", "/api/v2/stickers", map[string]any{"merchantId": "1001", "cashlink": true, "amount": amountOf("1.010", "RUB")}, nil)

	// USD and EUR alike (merchant 1003 takes them).
	c.wantError(400, "validation_error", "amount.value 9.995 has 3 decimals; USD has at most 2 decimals", "POST", "/api/v2/payments",
		cardPayment("1003", "4111111111111111", "", withAmount("9.995", "USD")))
	c.wantError(400, "validation_error", "amount.value 9.995 has 3 decimals; EUR has at most 2 decimals", "POST", "/api/v2/invoices",
		map[string]any{"merchantId": "1003", "amount": amountOf("9.995", "EUR")})

	// More decimals than any amount holds: the currency's rule is said too.
	c.wantError(400, "validation_error", "amount.value has more than 4 decimals; RUB has at most 2 decimals", "POST", "/api/v2/refunds",
		`{"paymentId":"`+p.ID+`","amount":{"value":1.00001,"currency":"RUB"}}`)
}

func TestV2JPYHasNoDecimals(t *testing.T) {
	srv := start(t, Options{SettleDelay: time.Hour})
	acceptCurrency(t, srv, "1003", "JPY")
	c := newClient(t, srv)
	const finer = "has 1 decimal; JPY has no decimals"

	c.wantError(400, "validation_error", "amount.value 1500.5 "+finer, "POST", "/api/v2/invoices",
		map[string]any{"merchantId": "1003", "amount": amountOf("1500.5", "JPY")})
	c.want(200, "POST", "/api/v2/invoices", map[string]any{"merchantId": "1003", "amount": amountOf("1500", "JPY")}, nil)

	c.wantError(400, "validation_error", "amount.value 1500.5 "+finer, "POST", "/api/v2/payments",
		cardPayment("1003", "4111111111111111", "", withAmount("1500.5", "JPY")))
	p := c.pay(cardPayment("1003", "4111111111111111", "", withAmount("1500.00", "JPY")))
	require.Equal(t, "Settled", p.Status)
	assert.Equal(t, "1500", p.Amount.Value.String())

	c.wantError(400, "validation_error", "amount.value 0.5 "+finer, "POST", "/api/v2/refunds",
		map[string]any{"paymentId": p.ID, "amount": amountOf("0.5", "JPY")})
	c.want(200, "POST", "/api/v2/refunds", map[string]any{"paymentId": p.ID, "amount": amountOf("500", "JPY")}, nil)

	h := c.pay(cardPayment("1003", "4111111111111111", "", withAmount("1000", "JPY"), dual))
	c.wantError(400, "validation_error", "amount.value 999.5 "+finer, "PUT", "/api/v2/payments/"+h.ID+"/confirm",
		map[string]any{"amount": amountOf("999.5", "JPY")})
	c.want(200, "PUT", "/api/v2/payments/"+h.ID+"/confirm", map[string]any{"amount": amountOf("999", "JPY")}, nil)
	assert.Equal(t, "999", c.getPayment(h.ID).Amount.Value.String())
}

func TestV1RefusesAmountsFinerThanTheCurrency(t *testing.T) {
	srv := start(t, Options{SettleDelay: time.Hour})
	acceptCurrency(t, srv, "1003", "JPY")
	c := newClient(t, srv)
	acc := newV1Client(t, srv, "accountant")
	post := func(op string, params ...string) v1Req {
		return v1Req{method: http.MethodPost, op: op, params: params}
	}

	p := c.pay(cardPayment("1001", "4111111111111111", "84"))
	acc.wantCode(v1ErrAmount, "amount 1.001 has 3 decimals; RUB has at most 2 decimals", post("refundPayment", "paymentID", p.ID, "amount", "1.001"))
	refunds, err := srv.Store().RefundsOfPayment(p.ID)
	require.NoError(t, err)
	assert.Empty(t, refunds)
	// Signed as sent ("1.000"): the value is 1, taken.
	env := acc.post("refundPayment", "paymentID", p.ID, "amount", "1.000")
	assert.Equal(t, json.Number("1.00"), env.Refund.Amount)

	h := c.pay(cardPayment("1001", "4111111111111111", "300", dual))
	acc.wantCode(v1ErrAmount, "amount 120.255 has 3 decimals; RUB has at most 2 decimals", post("confirmPayment", "paymentID", h.ID, "amount", "120.255"))
	assert.Equal(t, "Authorized", c.getPayment(h.ID).Status)
	env = acc.post("confirmPayment", "paymentID", h.ID, "amount", "120.250")
	assert.Equal(t, json.Number("120.25"), env.Payment.PaymentAmount)

	// JPY: none.
	jp := c.pay(cardPayment("1003", "4111111111111111", "", withAmount("1500", "JPY")))
	acc.wantCode(v1ErrAmount, "amount 0.5 has 1 decimal; JPY has no decimals", post("refundPayment", "paymentID", jp.ID, "amount", "0.5"))
	env = acc.post("refundPayment", "paymentID", jp.ID, "amount", "500")
	assert.Equal(t, json.Number("500"), env.Refund.Amount)
	jh := c.pay(cardPayment("1003", "4111111111111111", "", withAmount("1000", "JPY"), dual))
	acc.wantCode(v1ErrAmount, "amount 999.5 has 1 decimal; JPY has no decimals", post("confirmPayment", "paymentID", jh.ID, "amount", "999.5"))
	assert.Equal(t, "COMPLETE", acc.post("confirmPayment", "paymentID", jh.ID, "amount", "999").Payment.State)
}

// The store refuses on its own, whichever interface (or none) asks: a v1
// refund carries no currency, and is judged in the payment's.
func TestStoreRefusesAmountsFinerThanTheCurrency(t *testing.T) {
	s := NewStore(Options{SettleDelay: time.Hour})
	rub := money.Amount{Value: money.MustParse("100"), Currency: "RUB"}
	p, err := s.CreatePayment(PaymentRequest{MerchantID: "1001", Amount: &rub, Card: &CardData{PAN: "4111111111111111"}})
	require.NoError(t, err)
	_, err = s.CreateRefund(RefundRequest{PaymentID: p.ID, Amount: &money.Amount{Value: money.MustParse("0.005")}})
	var ve *ValidationError
	require.ErrorAs(t, err, &ve)
	assert.Equal(t, []string{"amount.value 0.005 has 3 decimals; RUB has at most 2 decimals"}, ve.Problems)

	h, err := s.CreatePayment(PaymentRequest{MerchantID: "1001", Amount: &rub, DualMode: true, Card: &CardData{PAN: "4111111111111111"}})
	require.NoError(t, err)
	_, err = s.CapturePayment(h.ID, &money.Amount{Value: money.MustParse("50.005")})
	require.ErrorAs(t, err, &ve)
	assert.Equal(t, []string{"amount.value 50.005 has 3 decimals; RUB has at most 2 decimals"}, ve.Problems)
}

// "1" and "1.0" under one key are the same body: the request is compared,
// not its bytes.
func TestIdempotencyComparesTheParsedRequest(t *testing.T) {
	srv := start(t, Options{SettleDelay: time.Hour})
	c := newClient(t, srv)
	p := c.pay(cardPayment("1001", "4111111111111111", "100"))
	refund := func(key, body string) (*http.Response, []byte) {
		t.Helper()
		return c.call("POST", "/api/v2/refunds", body, "Idempotency-Key", key)
	}
	first := func(key, body string) []byte {
		t.Helper()
		resp, b := refund(key, body)
		require.Equal(t, 200, resp.StatusCode, "%s", b)
		require.Empty(t, resp.Header.Get("Idempotent-Replayed"))
		return b
	}
	same := func(key, body string, want []byte) {
		t.Helper()
		resp, b := refund(key, body)
		require.Equal(t, 200, resp.StatusCode, "%s: %s", body, b)
		assert.Equal(t, "true", resp.Header.Get("Idempotent-Replayed"), body)
		assert.Equal(t, string(want), string(b), "the first answer: %s", body)
	}
	other := func(key, body string) {
		t.Helper()
		c.wantError(409, "idempotency_key_violation", "", "POST", "/api/v2/refunds", body, "Idempotency-Key", key)
	}
	id := p.ID

	a := first("one", `{"paymentId":"`+id+`","amount":{"value":1,"currency":"RUB"}}`)
	for _, body := range []string{
		`{"paymentId":"` + id + `","amount":{"value":"1.0","currency":"RUB"}}`,
		`{"amount":{"currency":"RUB","value":1.00},"paymentId":"` + id + `"}`,
		`{"paymentId":"` + id + `","amount":{"value":1e0,"currency":"RUB"}}`,
		"\xEF\xBB\xBF" + `{ "paymentId" : "` + id + `", "amount" : { "value" : "1.000", "currency" : "RUB" }, "note": "ignored" }`,
	} {
		same("one", body, a)
	}
	other("one", `{"paymentId":"`+id+`","amount":{"value":1.01,"currency":"RUB"}}`)
	other("one", `{"paymentId":"`+id+`","amount":{"value":"10","currency":"RUB"}}`)

	b := first("half", `{"paymentId":"`+id+`","amount":{"value":1.5,"currency":"RUB"}}`)
	same("half", `{"paymentId":"`+id+`","amount":{"value":1.50,"currency":"RUB"}}`, b)
	same("half", `{"paymentId":"`+id+`","amount":{"value":"1.50","currency":"RUB"}}`, b)
	other("half", `{"paymentId":"`+id+`","amount":{"value":1.51,"currency":"RUB"}}`)

	refunds, err := srv.Store().RefundsOfPayment(id)
	require.NoError(t, err)
	assert.Len(t, refunds, 2, "one refund a key")

	// A payment too: its amount among other members.
	pay := cardPayment("1001", "4111111111111111", "10")
	resp, b1 := c.call("POST", "/api/v2/payments", pay, "Idempotency-Key", "pay")
	require.Equal(t, 200, resp.StatusCode)
	pay["amount"] = map[string]any{"currency": "RUB", "value": "10.00"}
	resp, b2 := c.call("POST", "/api/v2/payments", pay, "Idempotency-Key", "pay")
	require.Equal(t, 200, resp.StatusCode, "%s", b2)
	assert.Equal(t, string(b1), string(b2))
	pay["amount"] = amountOf("10.01", "RUB")
	c.wantError(409, "idempotency_key_violation", "", "POST", "/api/v2/payments", pay, "Idempotency-Key", "pay")
}

func TestParsedRequestForms(t *testing.T) {
	parsed := parsedRequest[refundIn]
	base := parsed([]byte(`{"paymentId":"1","amount":{"value":1,"currency":"RUB"}}`))
	for _, same := range []string{
		`{"amount":{"currency":"RUB","value":"1.0"},"paymentId":"1"}`,
		`{"paymentId":"1","amount":{"value":1.0000,"currency":"RUB"},"extra":[1,2]}`,
		`{"paymentId":"1","amount":{"value":0.1e1,"currency":"RUB"}}`,
	} {
		assert.Equal(t, string(base), string(parsed([]byte(same))), same)
	}
	for _, differs := range []string{
		`{"paymentId":"1","amount":{"value":1.0001,"currency":"RUB"}}`,
		`{"paymentId":"1","amount":{"value":1,"currency":"USD"}}`,
		`{"paymentId":"2","amount":{"value":1,"currency":"RUB"}}`,
		`{"paymentId":"1"}`,
	} {
		assert.NotEqual(t, string(base), string(parsed([]byte(differs))), differs)
	}
	// A value that is no amount stays as it came; a body that is not a
	// request is compared as its bytes.
	assert.NotEqual(t, string(parsed([]byte(`{"amount":{"value":"x"}}`))), string(parsed([]byte(`{"amount":{"value":"y"}}`))))
	assert.Equal(t, "raw\x00{", string(parsed([]byte(`{`))))
}

// What the seed makes holds to the same rule, so every remainder the
// sandbox reports is one a client can enter.
func TestSeededAmountsHaveTheCurrencysDecimals(t *testing.T) {
	s := NewStore(Options{Payments: 20000})
	s.mu.RLock()
	defer s.mu.RUnlock()
	require.NotEmpty(t, s.payments)
	for _, p := range s.payments {
		c := p.Amount.Currency
		for what, v := range map[string]money.Decimal{"amount": p.Amount.Value, "captured": p.Captured, "refunded": p.Refunded} {
			require.Empty(t, minorUnitsProblem(what, v, c), "payment %s", p.ID)
		}
	}
	require.NotEmpty(t, s.refunds)
	for _, r := range s.refunds {
		require.Empty(t, minorUnitsProblem("amount", r.Amount.Value, r.Amount.Currency), "refund %s", r.ID)
	}
	for _, st := range s.stickers {
		if st.Amount != nil {
			require.Empty(t, minorUnitsProblem("amount", st.Amount.Value, st.Amount.Currency), "sticker %s", st.ID)
		}
	}
}
