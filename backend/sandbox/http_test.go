package sandbox

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestTLSAndAuth(t *testing.T) {
	srv := start(t, Options{Payments: 200})
	c := newClient(t, srv)
	assert.True(t, strings.HasPrefix(srv.BaseURL(), "https://127.0.0.1:"))
	id := srv.Store().MerchantIDs()[0]
	page, err := srv.Store().ListPayments(ListQuery{MerchantID: id})
	require.NoError(t, err)
	pid := page.Items[0].ID

	resp, _ := c.call("GET", "/api/v2/payments/"+pid, nil)
	require.Equal(t, 200, resp.StatusCode)
	require.NotNil(t, resp.TLS)
	assert.GreaterOrEqual(t, resp.TLS.Version, uint16(tls.VersionTLS12))
	assert.Equal(t, "application/json", resp.Header.Get("Content-Type"))

	// Without the sandbox CA the certificate is not trusted.
	_, err = (&http.Client{Timeout: 5 * time.Second}).Get(srv.BaseURL() + "/api/v2/payments/" + pid)
	require.Error(t, err)

	anon := *c
	anon.token = ""
	e := anon.wantError(401, "not_authorized", "", "GET", "/api/v2/payments/"+pid, nil)
	assert.Equal(t, "missing or unknown bearer token", e.Message)
	anon.token = "nope"
	anon.wantError(401, "not_authorized", "", "GET", "/api/v2/payments/"+pid, nil)

	ro := *c
	ro.token = srv.Store().V2ReadOnlyToken()
	ro.want(200, "GET", "/api/v2/payments/"+pid, nil, nil)
	ro.want(200, "GET", "/api/v2/payments?merchantId=1001&start=2020-01-01&end=2030-01-01", nil, nil)
	ro.wantError(403, "not_authorized", "", "POST", "/api/v2/refunds", map[string]any{"paymentId": pid})
	ro.wantError(403, "not_authorized", "", "PUT", "/api/v2/payments/"+pid+"/cancel", nil)
	ro.wantError(403, "not_authorized", "", "PUT", "/api/v2/paymenttokens/5100000/revoke", nil)

	// Routing errors are JSON too.
	resp, body := c.call("DELETE", "/api/v2/payments/"+pid, nil)
	assert.Equal(t, 405, resp.StatusCode)
	assert.Equal(t, "GET", resp.Header.Get("Allow"))
	assert.Contains(t, string(body), `"code":"invalid_operation"`)
	c.wantError(405, "invalid_operation", "", "GET", "/api/v2/invoices", nil)
	c.wantError(404, "invalid_operation", "not found", "GET", "/api/v2/nothing", nil)
	c.wantError(404, "invalid_operation", "not found", "GET", "/api/v3/payments", nil)
}

func TestValidationErrors(t *testing.T) {
	srv := start(t, Options{})
	c := newClient(t, srv)
	good := func() map[string]any { return cardPayment("1001", "4111111111111111", "10") }
	with := func(f func(map[string]any)) map[string]any { b := good(); f(b); return b }
	amount := func(v any, cur any) func(map[string]any) {
		return func(b map[string]any) { b["amount"] = map[string]any{"value": v, "currency": cur} }
	}
	cases := []struct {
		name, problem string
		body          any
	}{
		{"no merchantId", "merchantId is required", with(func(b map[string]any) { delete(b, "merchantId") })},
		{"mis-cased merchantId", "merchantId is required", with(func(b map[string]any) { b["merchantID"] = b["merchantId"]; delete(b, "merchantId") })},
		{"unknown merchant", `merchantId "9999" is unknown`, with(func(b map[string]any) { b["merchantId"] = "9999" })},
		{"no amount", "amount is required", with(func(b map[string]any) { delete(b, "amount") })},
		{"negative", "amount.value must be greater than 0", with(amount(json.Number("-5"), "RUB"))},
		{"zero", "amount.value must be greater than 0", with(amount(0, "RUB"))},
		{"five decimals", "amount.value has more than 4 decimals", with(amount(json.Number("10.12345"), "RUB"))},
		{"string value not a decimal", `amount.value "ten" is not a decimal number`, with(amount("ten", "RUB"))},
		{"lower-case currency", "not a three-letter ISO 4217 code", with(amount(10, "rub"))},
		{"no currency", "amount.currency is required", with(func(b map[string]any) { b["amount"] = map[string]any{"value": 10} })},
		{"currency not accepted", "not accepted by merchant 1001", with(amount(10, "EUR"))},
		{"wrong type", "dualMode must be a boolean", with(func(b map[string]any) { b["dualMode"] = "yes" })},
		{"malformed JSON", "not valid JSON", `{"merchantId": "1001",`},
		{"empty body", "request body is required", ""},
		{"not an object", "must be a JSON object", `[1,2]`},
		{"bad callback URL", "protocol.callbackUrl must be an absolute", with(callback("not a url"))},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c.wantError(400, "validation_error", tc.problem, "POST", "/api/v2/payments", tc.body)
		})
	}
	// Every problem is listed, not just the first.
	e := c.wantError(400, "validation_error", "", "POST", "/api/v2/payments", map[string]any{"amount": map[string]any{"value": -1, "currency": "rub"}})
	assert.Contains(t, e.Errors, "merchantId is required")
	assert.GreaterOrEqual(t, len(e.Errors), 3, "%v", e.Errors)

	// Lists need merchantId, start and end.
	e = c.wantError(400, "validation_error", "", "GET", "/api/v2/payments", nil)
	assert.Equal(t, []string{"merchantId is required", "start is required", "end is required"}, e.Errors)
	c.wantError(400, "validation_error", "start must be an RFC 3339 date", "GET", "/api/v2/payments?merchantId=1001&start=yesterday&end=2026-01-01", nil)
	c.wantError(400, "validation_error", "start must not be after end", "GET", "/api/v2/refunds?merchantId=1001&start=2026-02-01&end=2026-01-01", nil)
	c.wantError(400, "validation_error", "merchantId is required", "GET", "/api/v2/stickers", nil)

	// A BOM and unknown members are tolerated.
	bom, _ := json.Marshal(with(func(b map[string]any) { b["somethingNew"] = map[string]any{"x": 1} }))
	c.want(200, "POST", "/api/v2/payments", append([]byte("\xEF\xBB\xBF"), bom...), nil)
}

func TestResponseShapes(t *testing.T) {
	clock := newFakeClock()
	srv := start(t, Options{Now: clock.Now})
	c := newClient(t, srv)
	var full map[string]any
	c.want(200, "POST", "/api/v2/payments", cardPayment("1001", "4111111111111111", "99.9", func(b map[string]any) {
		b["invoice"] = map[string]any{"description": "Latte", "orderNo": "ORD-1", "params": map[string]any{"table": "7"}}
	}), &full)
	assert.ElementsMatch(t, []string{"id", "created", "completed", "testMode", "status", "resultCode", "message", "merchantId",
		"invoice", "amount", "customer", "paymentData"}, keys(full))
	assert.Equal(t, map[string]any{"ip": "127.0.0.1"}, full["customer"], "the payment shows only the customer's ip")
	assert.ElementsMatch(t, []string{"paymentMethod", "paymentInstrumentTitle", "cardInfo"}, keys(full["paymentData"].(map[string]any)))
	assert.Equal(t, "2026-03-10T12:00:00Z", full["created"])
	assert.Equal(t, map[string]any{"value": 99.9, "currency": "RUB"}, full["amount"])

	var list struct {
		Items []map[string]any `json:"items"`
	}
	c.want(200, "GET", "/api/v2/payments?merchantId=1001&start=2026-03-10&end=2026-03-11", nil, &list)
	require.Len(t, list.Items, 1)
	assert.ElementsMatch(t, []string{"id", "created", "completed", "status", "resultCode", "merchantId", "invoice", "amount", "paymentData"}, keys(list.Items[0]),
		"resultCode is the sandbox's addition (docs/service.md)")
	assert.ElementsMatch(t, []string{"description", "orderNo"}, keys(list.Items[0]["invoice"].(map[string]any)))
	assert.ElementsMatch(t, []string{"paymentMethod", "paymentInstrumentTitle"}, keys(list.Items[0]["paymentData"].(map[string]any)))

	var refund map[string]any
	c.want(200, "POST", "/api/v2/refunds", map[string]any{"paymentId": full["id"], "amount": map[string]any{"value": 9.9, "currency": "RUB"}}, &refund)
	assert.ElementsMatch(t, []string{"id", "created", "paymentId", "amount", "status", "resultCode"}, keys(refund), "resultCode even while Pending")
	var rl struct {
		Items []map[string]any `json:"items"`
	}
	clock.Advance(time.Minute)
	srv.Store().RunDue()
	c.want(200, "GET", "/api/v2/refunds?merchantId=1001&start=2026-03-10T00:00:00Z&end=2026-03-11T00:00:00%2B00:00", nil, &rl)
	require.Len(t, rl.Items, 1)
	assert.ElementsMatch(t, []string{"id", "created", "paymentId", "amount", "status"}, keys(rl.Items[0]), "no resultCode in list items")
	var got map[string]any
	c.want(200, "GET", "/api/v2/refunds/"+refund["id"].(string), nil, &got)
	assert.Equal(t, "Success", got["resultCode"])
}

func keys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestIdempotency(t *testing.T) {
	srv := start(t, Options{})
	c := newClient(t, srv)
	st := srv.Store()
	before := st.PaymentCount()
	body1 := `{"merchantId":"1001","amount":{"value":10,"currency":"RUB"},"paymentData":{"card":{"pan":"4111111111111111"}}}`
	body2 := "{ \"paymentData\": {\"card\":{\"pan\":\"4111111111111111\"}},\n \"amount\": {\"currency\":\"RUB\",\"value\":10}, \"merchantId\":\"1001\" }"
	r1, b1 := c.call("POST", "/api/v2/payments", body1, "Idempotency-Key", "k-1")
	r2, b2 := c.call("POST", "/api/v2/payments", body2, "Idempotency-Key", "k-1")
	require.Equal(t, 200, r1.StatusCode)
	assert.Equal(t, r1.StatusCode, r2.StatusCode)
	assert.Equal(t, string(b1), string(b2), "the first answer, exactly")
	assert.Equal(t, before+1, st.PaymentCount(), "made once")

	c.wantError(409, "idempotency_key_violation", "", "POST", "/api/v2/payments",
		strings.Replace(body1, `"value":10`, `"value":11`, 1), "Idempotency-Key", "k-1")
	// Keys are per route: the same key on another route is another key.
	c.want(200, "POST", "/api/v2/stickers", map[string]any{"merchantId": "1001"}, nil, "Idempotency-Key", "k-1")

	// An error answer is replayed as well, and nothing is made.
	e1 := c.wantError(400, "validation_error", "", "POST", "/api/v2/refunds", map[string]any{"amount": 5}, "Idempotency-Key", "k-2")
	e2 := c.wantError(400, "validation_error", "", "POST", "/api/v2/refunds", map[string]any{"amount": 5}, "Idempotency-Key", "k-2")
	assert.Equal(t, e1, e2)

	// Concurrent twins make one payment.
	before = st.PaymentCount()
	var wg sync.WaitGroup
	ids := make([]string, 8)
	for i := range ids {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var p tPayment
			resp, b := c.call("POST", "/api/v2/payments", body1, "Idempotency-Key", "k-concurrent")
			if assert.Equal(t, 200, resp.StatusCode) && assert.NoError(t, json.Unmarshal(b, &p)) {
				ids[i] = p.ID
			}
		}()
	}
	wg.Wait()
	assert.Equal(t, before+1, st.PaymentCount())
	for _, id := range ids {
		assert.Equal(t, ids[0], id)
	}
	// A refund retried with its key is made once.
	pid := ids[0]
	refund := map[string]any{"paymentId": pid, "amount": map[string]any{"value": 1, "currency": "RUB"}}
	var ra, rb tRefund
	c.want(200, "POST", "/api/v2/refunds", refund, &ra, "Idempotency-Key", "r-1")
	c.want(200, "POST", "/api/v2/refunds", refund, &rb, "Idempotency-Key", "r-1")
	assert.Equal(t, ra.ID, rb.ID)
	refunds, _ := st.RefundsOfPayment(pid)
	assert.Len(t, refunds, 1)
}

func TestIdempotencyKeysExpire(t *testing.T) {
	clock := newFakeClock()
	ix := newIdempotency(clock.Now)
	n := 0
	serve := func(w http.ResponseWriter) { n++; writeJSON(w, 200, map[string]int{"n": n}) }
	req, _ := http.NewRequest("POST", "/", nil)
	emptyBody := func() []byte { return []byte(`{}`) }
	ix.do(newRecorder(), req, "k", emptyBody, serve)
	ix.do(newRecorder(), req, "k", emptyBody, serve)
	assert.Equal(t, 1, n)
	clock.Advance(25 * time.Hour)
	ix.do(newRecorder(), req, "k", emptyBody, serve)
	assert.Equal(t, 2, n, "a key older than 24 h is forgotten")
}

func TestPaging(t *testing.T) {
	srv := start(t, Options{Payments: 4000})
	c := newClient(t, srv)
	st := srv.Store()
	now := st.Now()
	q := url.Values{"merchantId": {"1001"}, "start": {now.Add(-100 * 24 * time.Hour).Format(time.RFC3339)},
		"end": {now.Add(time.Hour).Format(time.RFC3339)}}
	want, _ := st.FilterPayments(PaymentFilter{MerchantIDs: []string{"1001"}, Limit: 100000})
	require.Greater(t, len(want), 1000)

	seen := map[string]bool{}
	var order []string
	cursor, pages := "", 0
	var firstCursor string
	for {
		qq := url.Values{}
		for k, v := range q {
			qq[k] = v
		}
		if cursor != "" {
			qq.Set("cursor", cursor)
		}
		var page struct {
			Items  []tPayment `json:"items"`
			Cursor *string    `json:"cursor"`
		}
		c.want(200, "GET", "/api/v2/payments?"+qq.Encode(), nil, &page)
		pages++
		// New payments arrive while the client pages: they must not shift anything.
		st.Arrive()
		st.Arrive()
		for _, p := range page.Items {
			assert.False(t, seen[p.ID], "payment %s served twice", p.ID)
			seen[p.ID] = true
			order = append(order, p.ID)
		}
		if page.Cursor == nil {
			assert.LessOrEqual(t, len(page.Items), 100)
			break
		}
		require.Len(t, page.Items, 100)
		require.NotEmpty(t, *page.Cursor, "an absent cursor ends the list, never an empty one")
		if firstCursor == "" {
			firstCursor = *page.Cursor
		}
		cursor = *page.Cursor
	}
	require.Len(t, order, len(want), "every payment exactly once")
	for i, p := range want {
		assert.Equal(t, p.ID, order[i])
	}
	assert.Equal(t, (len(want)+99)/100, pages)

	// A cursor belongs to its query.
	other := url.Values{"merchantId": {"1002"}, "start": q["start"], "end": q["end"], "cursor": {firstCursor}}
	c.wantError(400, "validation_error", "another query", "GET", "/api/v2/payments?"+other.Encode(), nil)
	c.wantError(400, "validation_error", "cursor", "GET", "/api/v2/payments?"+q.Encode()+"&cursor=garbage!", nil)
	c.wantError(400, "validation_error", "another query", "GET", "/api/v2/refunds?"+q.Encode()+"&cursor="+firstCursor, nil)

	// start is inclusive, end exclusive.
	p := want[len(want)/2]
	at := p.Created.Format(time.RFC3339Nano)
	var page struct {
		Items []tPayment `json:"items"`
	}
	c.want(200, "GET", "/api/v2/payments?merchantId=1001&start="+url.QueryEscape(at)+"&end="+url.QueryEscape(at), nil, &page)
	assert.Empty(t, page.Items)
	c.want(200, "GET", "/api/v2/payments?merchantId=1001&start="+url.QueryEscape(at)+"&end="+url.QueryEscape(p.Created.Add(time.Second).Format(time.RFC3339)), nil, &page)
	require.NotEmpty(t, page.Items)
	assert.Equal(t, p.ID, page.Items[len(page.Items)-1].ID)
}

func TestStartRefusesPublicAddress(t *testing.T) {
	_, err := Start(t.Context(), Options{Addr: "0.0.0.0:0"})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "not a loopback address")
	srv, err := Start(t.Context(), Options{Addr: "localhost:0"})
	require.NoError(t, err)
	defer srv.Close()
	assert.True(t, strings.HasPrefix(srv.BaseURL(), "https://127.0.0.1:") || strings.HasPrefix(srv.BaseURL(), "https://[::1]:"))
}

func TestArrivalsAndContextEnd(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	srv, err := Start(ctx, Options{Arrivals: 10 * time.Millisecond, SettleDelay: 10 * time.Millisecond})
	require.NoError(t, err)
	require.Eventually(t, func() bool { return srv.Store().PaymentCount() >= 5 }, eventually, 10*time.Millisecond)
	// Arrivals settle by time like any new payment.
	require.Eventually(t, func() bool {
		list, _ := srv.Store().FilterPayments(PaymentFilter{Statuses: []PaymentStatus{PaymentSettled, PaymentAuthorized, PaymentRejected}})
		return len(list) > 0
	}, eventually, 10*time.Millisecond)

	cancel() // ending the context closes the server
	require.Eventually(t, func() bool {
		_, err := tls.Dial("tcp", strings.TrimPrefix(srv.BaseURL(), "https://"), &tls.Config{RootCAs: srv.CertPool()})
		return err != nil
	}, eventually, 10*time.Millisecond)
	// Close again: it returns once the first Close (started by the context)
	// has stopped everything (it waits for the arrivals' goroutine); that
	// arrivals stop when their context ends is TestArrivalsStopWithTheirContext's.
	require.NoError(t, srv.Close())
}

// Arrivals come one an interval and none after their context ends, on the
// bubble's fake clock: each arrival's log record is the event waited on,
// and "none after" holds because the arrivals' goroutine has returned.
func TestArrivalsStopWithTheirContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		logger, arrived := loggedRecords("sandbox payment arrived")
		st := NewStore(Options{Payments: 0, Logger: logger})
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan struct{})
		t0 := time.Now()
		go func() {
			defer close(done)
			st.runArrivals(ctx, 10*time.Millisecond)
		}()
		for i := 1; i <= 3; i++ {
			<-arrived
			assert.Equal(t, time.Duration(i)*10*time.Millisecond, time.Since(t0), "one each 10 ms")
		}
		cancel()
		<-done
		assert.Equal(t, 3, st.PaymentCount(), "none after the context ended")
		assert.Empty(t, arrived, "no arrival logged after the context ended")
	})
}
