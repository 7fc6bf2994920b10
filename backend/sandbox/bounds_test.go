package sandbox

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend/money"
)

// Strict where money is ambiguous, and bounded (doc.go, "Tolerance and
// bounds").

func TestDuplicateMembersAreRefused(t *testing.T) {
	srv := start(t, Options{SettleDelay: time.Hour})
	c := newClient(t, srv)
	a := c.pay(cardPayment("1001", "4111111111111111", "300"))
	b := c.pay(cardPayment("1001", "4111111111111111", "300"))
	h := c.pay(cardPayment("1001", "4111111111111111", "300", dual))

	// Top level: which payment is refunded must not depend on the parser.
	c.wantError(400, "validation_error", `member "paymentId" is given more than once`, "POST", "/api/v2/refunds",
		`{"paymentId":"`+a.ID+`","paymentId":"`+b.ID+`","amount":{"value":1,"currency":"RUB"}}`)
	// Nested, in every JSON body: creates, confirm, complete, sticker update.
	c.wantError(400, "validation_error", `member "amount.value" is given more than once`, "POST", "/api/v2/refunds",
		`{"paymentId":"`+a.ID+`","amount":{"value":1,"currency":"RUB","value":100}}`)
	c.wantError(400, "validation_error", `member "amount.value" is given more than once`, "PUT", "/api/v2/payments/"+h.ID+"/confirm",
		`{"amount":{"value":1,"value":300,"currency":"RUB"}}`)
	c.wantError(400, "validation_error", `member "invoice.params.x.y" is given more than once`, "POST", "/api/v2/invoices",
		`{"merchantId":"1001","amount":{"value":1,"currency":"RUB"},"invoice":{"params":{"x":{"y":1,"y":2}}}}`)
	c.wantError(400, "validation_error", `member "active" is given more than once`, "PUT", "/api/v2/stickers/x",
		`{"active":true,"active":false}`)
	// Even a member the request ignores, and one in an array.
	c.wantError(400, "validation_error", `member "extra[1].k" is given more than once`, "POST", "/api/v2/refunds",
		`{"paymentId":"`+a.ID+`","amount":{"value":1,"currency":"RUB"},"extra":[{"k":1},{"k":1,"k":2}]}`)
	// A refused body is not remembered under its key: corrected, it is served.
	c.wantError(400, "validation_error", "given more than once", "POST", "/api/v2/refunds",
		`{"paymentId":"`+a.ID+`","paymentId":"`+b.ID+`","amount":{"value":1,"currency":"RUB"}}`, "Idempotency-Key", "dup-1")
	c.want(200, "POST", "/api/v2/refunds", `{"paymentId":"`+a.ID+`","amount":{"value":1,"currency":"RUB"}}`, nil, "Idempotency-Key", "dup-1")

	ra, _ := srv.Store().RefundsOfPayment(a.ID)
	rb, _ := srv.Store().RefundsOfPayment(b.ID)
	assert.Len(t, ra, 1, "only the corrected request made a refund")
	assert.Empty(t, rb)
	assert.Equal(t, "Authorized", c.getPayment(h.ID).Status)

	// Same names in different objects are not duplicates.
	c.want(200, "POST", "/api/v2/invoices", `{"merchantId":"1001","amount":{"value":1,"currency":"RUB"},"invoice":{"params":{"value":1,"currency":2}}}`, nil)
}

func TestDuplicateMemberWalk(t *testing.T) {
	for body, want := range map[string]string{
		`{}`: "-",
		`{"a":1,"b":{"a":1},"c":[{"a":1},{"a":2}]}`: "-",
		`{"a":1,"a":1}`:                              "a",
		`{"":1,"":2}`:                                "",
		`{"a":{"b":[1,2,{"c":1,"c":2}]}}`:            "a.b[2].c",
		`{"a":[[{"x":1}],[{"x":1,"x":1}]]}`:          "a[1][0].x",
		`{"a":"}","b":"{","a":3}`:                    "a",
		`{"a":1e999,"b":18446744073709551616,"b":0}`: "b",
		`{"big` + strings.Repeat("x", 500) + `":1,"big` + strings.Repeat("x", 500) + `":2}`: "big" + strings.Repeat("x", 97) + "…",
	} {
		path, found := duplicateMember([]byte(body))
		if want == "-" {
			assert.False(t, found, body)
			continue
		}
		assert.True(t, found, body)
		assert.Equal(t, want, path, body)
	}
	// Deep nesting does not grow the Go stack (the walk keeps its own).
	deep := strings.Repeat(`{"a":`, 5000) + "1" + strings.Repeat("}", 5000)
	_, found := duplicateMember([]byte(deep))
	assert.False(t, found)
}

func TestDatesOutOfRangeAreRefused(t *testing.T) {
	srv := start(t, Options{Payments: 200})
	c := newClient(t, srv)
	for _, list := range []string{"payments", "refunds"} {
		for _, tc := range []struct{ start, end, name string }{
			{"2026-01-01", "2300-01-01", "end"},
			{"1600-01-01", "2026-01-01", "start"},
			{"1600-01-01T00:00:00Z", "2300-01-01T00:00:00Z", "start"},
			{"0001-01-01T00:00:00Z", "2026-01-01", "start"}, // the zero time is not "no bound"
			{"2026-01-01", "9999-12-31T23:59:59Z", "end"},
		} {
			q := url.Values{"merchantId": {"1001"}, "start": {tc.start}, "end": {tc.end}}
			e := c.wantError(400, "validation_error", tc.name+" is out of range", "GET", "/api/v2/"+list+"?"+q.Encode(), nil)
			assert.Contains(t, strings.Join(e.Errors, "\n"), "2262", "the message says the range")
		}
	}
	// The edges the store holds are accepted.
	c.want(200, "GET", "/api/v2/payments?merchantId=1001&start=1677-09-22&end=2262-04-11", nil, nil)

	// invoice.expires too: it would be an event the store cannot schedule.
	c.wantError(400, "validation_error", "invoice.expires is out of range", "POST", "/api/v2/invoices",
		`{"merchantId":"1001","amount":{"value":1,"currency":"RUB"},"invoice":{"expires":"2300-01-01T00:00:00Z"}}`)

	// v1: -1 naming the parameter, in every operation with a period; never an empty list.
	v1 := newV1Client(t, srv, "accountant")
	for _, op := range []string{"listPaymentsFilter", "listRefunds", "listDocuments", "listTransfers"} {
		v1.wantCode(-1, "periodTo 2300-01-01 is out of range", v1Req{op: op, params: []string{"periodFrom", "2026-01-01", "periodTo", "2300-01-01"}})
		v1.wantCode(-1, "periodFrom 1600-01-01 is out of range", v1Req{op: op, params: []string{"periodFrom", "1600-01-01", "periodTo", "2026-01-01"}})
		v1.wantCode(-1, "periodTo 2262-04-11 is out of range", v1Req{op: op, params: []string{"periodTo", "2262-04-11"}}) // its day ends past the range
	}
	env := v1.ok("listPaymentsFilter", "periodFrom", "1677-09-22", "periodTo", "2262-04-10")
	assert.NotEmpty(t, response[tPaymentList](t, env).Payments)
}

func TestIdempotencyKeyLength(t *testing.T) {
	srv := start(t, Options{})
	c := newClient(t, srv)
	body := map[string]any{"merchantId": "1001"}
	c.want(200, "POST", "/api/v2/stickers", body, nil, "Idempotency-Key", strings.Repeat("k", 255))
	before := len(mustList(t, srv))
	c.wantError(400, "validation_error", "Idempotency-Key is longer than 255 characters", "POST", "/api/v2/stickers", body,
		"Idempotency-Key", strings.Repeat("k", 256))
	c.wantError(400, "validation_error", "Idempotency-Key is longer than 255 characters", "POST", "/api/v2/stickers", body,
		"Idempotency-Key", strings.Repeat("k", 100<<10))
	assert.Equal(t, before, len(mustList(t, srv)), "nothing made")
}

func mustList(t *testing.T, srv *Server) []Sticker {
	t.Helper()
	page, err := srv.Store().ListStickers(ListQuery{MerchantID: "1001", Limit: 1000})
	require.NoError(t, err)
	return page.Items
}

func TestTextMaximaV2(t *testing.T) {
	srv := start(t, Options{})
	c := newClient(t, srv)
	long := func(n int) string { return strings.Repeat("й", n) } // characters, not bytes
	link := func(n int) string { return "https://example.org/" + strings.Repeat("a", n-len("https://example.org/")) }
	invoice := func(f func(map[string]any)) map[string]any {
		b := map[string]any{"merchantId": "1001", "amount": map[string]any{"value": 1, "currency": "RUB"}}
		f(b)
		return b
	}
	// At the maximum: accepted.
	c.want(200, "POST", "/api/v2/invoices", invoice(func(b map[string]any) {
		b["invoice"] = map[string]any{"description": long(maxDescription), "orderNo": long(maxOrderNo)}
		b["customer"] = map[string]any{"email": long(maxEmail), "phone": long(maxPhone), "account": long(maxAccount)}
		b["protocol"] = map[string]any{"returnUrl": link(maxURL), "callbackUrl": link(maxURL)}
	}), nil)

	for _, tc := range []struct {
		problem string
		body    any
		path    string
	}{
		{"invoice.description is longer than 1000 characters", invoice(func(b map[string]any) { b["invoice"] = map[string]any{"description": long(1001)} }), "/api/v2/invoices"},
		{"invoice.orderNo is longer than 64 characters", invoice(func(b map[string]any) { b["invoice"] = map[string]any{"orderNo": long(65)} }), "/api/v2/invoices"},
		{"customer.email is longer than 254 characters", invoice(func(b map[string]any) { b["customer"] = map[string]any{"email": long(255)} }), "/api/v2/invoices"},
		{"customer.phone is longer than 32 characters", invoice(func(b map[string]any) { b["customer"] = map[string]any{"phone": long(33)} }), "/api/v2/invoices"},
		{"customer.ip is longer than 45 characters", invoice(func(b map[string]any) { b["customer"] = map[string]any{"ip": long(46)} }), "/api/v2/invoices"},
		{"customer.account is longer than 255 characters", invoice(func(b map[string]any) { b["customer"] = map[string]any{"account": long(256)} }), "/api/v2/invoices"},
		{"protocol.callbackUrl is longer than 2048 characters", invoice(func(b map[string]any) { b["protocol"] = map[string]any{"callbackUrl": link(2049)} }), "/api/v2/invoices"},
		{"tokenization.purpose is longer than 255 characters", invoice(func(b map[string]any) { b["tokenization"] = map[string]any{"purpose": long(256)} }), "/api/v2/invoices"},
		{"invoice.params has more than 50 members", invoice(func(b map[string]any) {
			params := map[string]any{}
			for i := range 51 {
				params[fmt.Sprint("p", i)] = i
			}
			b["invoice"] = map[string]any{"params": params}
		}), "/api/v2/invoices"},
		{"invoice.params has a member name longer than 40 characters", invoice(func(b map[string]any) {
			b["invoice"] = map[string]any{"params": map[string]any{long(41): 1}}
		}), "/api/v2/invoices"},
		{"invoice.params.note is longer than 500 characters (as JSON)", invoice(func(b map[string]any) {
			b["invoice"] = map[string]any{"params": map[string]any{"note": long(499)}} // 501 with its quotes
		}), "/api/v2/invoices"},
		{"invoice.description is longer than 1000 characters", cardPayment("1001", "4111111111111111", "1", func(b map[string]any) {
			b["invoice"] = map[string]any{"description": long(1001)}
		}), "/api/v2/payments"},
		{"protocol.threeDSCompleteUrl is longer than 2048 characters", cardPayment("1001", "4111111111111111", "1", func(b map[string]any) {
			b["protocol"] = map[string]any{"threeDSCompleteUrl": link(2049)}
		}), "/api/v2/payments"},
		{"paymentData.token.id is longer than 64 characters", map[string]any{"merchantId": "1001", "amount": map[string]any{"value": 1, "currency": "RUB"},
			"paymentData": map[string]any{"token": map[string]any{"id": long(65)}}}, "/api/v2/payments"},
		{"merchantId is longer than 64 characters", map[string]any{"merchantId": long(65)}, "/api/v2/stickers"},
		{"description is longer than 1000 characters", map[string]any{"merchantId": "1001", "description": long(1001)}, "/api/v2/stickers"},
		{"productCode is longer than 64 characters", map[string]any{"merchantId": "1001", "productCode": long(65)}, "/api/v2/stickers"},
		{"paymentPurpose is longer than 210 characters", map[string]any{"merchantId": "1001", "paymentPurpose": long(211)}, "/api/v2/stickers"},
		{"callbackUrl is longer than 2048 characters", map[string]any{"merchantId": "1001", "callbackUrl": link(2049)}, "/api/v2/stickers"},
		{"purpose is longer than 255 characters", map[string]any{"merchantId": "1001", "purpose": long(256)}, "/api/v2/tokenization"},
		{"returnUrl is longer than 2048 characters", map[string]any{"merchantId": "1001", "returnUrl": link(2049)}, "/api/v2/tokenization"},
		{"customer.email is longer than 254 characters", map[string]any{"merchantId": "1001", "customer": map[string]any{"email": long(255)}}, "/api/v2/tokenization"},
		{"purpose is longer than 255 characters", map[string]any{"merchantId": "1001", "purpose": long(256),
			"paymentData": map[string]any{"card": map[string]any{"pan": "4111111111111111"}}}, "/api/v2/paymenttokens"},
		{"paymentId is longer than 64 characters", map[string]any{"paymentId": long(65), "amount": map[string]any{"value": 1, "currency": "RUB"}}, "/api/v2/refunds"},
	} {
		e := c.wantError(400, "validation_error", tc.problem, "POST", tc.path, tc.body)
		assert.Less(t, len(e.Message)+len(strings.Join(e.Errors, "")), 2000, "the refusal does not echo the text")
	}
	c.wantError(400, "validation_error", "merchantId is longer than 64 characters", "GET", "/api/v2/payments?merchantId="+strings.Repeat("1", 65)+"&start=2026-01-01&end=2026-02-01", nil)
}

func TestTextMaximaV1(t *testing.T) {
	srv := start(t, Options{})
	c := newClient(t, srv)
	v1 := newV1Client(t, srv, "accountant")
	p := c.pay(cardPayment("1001", "4111111111111111", "300"))

	v1.wantCode(-1, "externalID is longer than 255 characters", v1Req{method: http.MethodPost, op: "refundPayment",
		params: []string{"paymentID", p.ID, "amount", "1.00", "externalID", strings.Repeat("e", 256)}})
	refunds, _ := srv.Store().RefundsOfPayment(p.ID)
	assert.Empty(t, refunds, "nothing made")
	env := v1.post("refundPayment", "paymentID", p.ID, "amount", "1.00", "externalID", strings.Repeat("e", 255))
	require.NotNil(t, env.Refund)

	v1.wantCode(-1, "invoiceID is longer than 64 characters", v1Req{op: "getPaymentByInvoiceID", params: []string{"invoiceID", strings.Repeat("1", 65)}})
	v1.wantCode(-1, "invoiceID is longer than 64 characters", v1Req{op: "listPaymentsFilter", params: []string{"invoiceID", strings.Repeat("1", 65)}})
	v1.wantCode(-1, "paymentID is longer than 64 characters", v1Req{op: "getPayment", params: []string{"paymentID", strings.Repeat("1", 65)}})
	v1.wantCode(-1, "externalID is longer than 255 characters", v1Req{op: "listRefunds", params: []string{"externalID", strings.Repeat("e", 256)}})
	v1.wantCode(-1, "siteAlias is longer than 64 characters", v1Req{op: "listPaymentsFilter", params: []string{"siteAlias", strings.Repeat("1", 65)}})
}

// Hundreds of keyed requests, refused ones with big bodies among them,
// leave the idempotency store under its cap, holding answers and digests.
func TestIdempotencyStoreIsBounded(t *testing.T) {
	srv := start(t, Options{SettleDelay: time.Hour})
	c := newClient(t, srv)
	const limit = 100
	srv.idem.mu.Lock()
	srv.idem.max = limit
	srv.idem.mu.Unlock()

	p := c.pay(cardPayment("1001", "4111111111111111", "300"))
	pad := strings.Repeat("x", 900<<10)
	var wg sync.WaitGroup
	work := make(chan int)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c := newClient(t, srv) // its own connection
			for i := range work {
				key := fmt.Sprintf("%0200d", i) // long keys
				switch {
				case i%100 == 0: // refused (no such payment), with a 900 KiB body
					resp, _ := c.call("POST", "/api/v2/refunds", `{"paymentId":"none","amount":{"value":1,"currency":"RUB"},"pad":"`+pad+`"}`, "Idempotency-Key", key)
					assert.Equal(t, 404, resp.StatusCode)
				case i%7 == 0: // refused (validation), 10 KiB
					resp, _ := c.call("POST", "/api/v2/refunds", `{"paymentId":"`+p.ID+`","pad":"`+pad[:10<<10]+`"}`, "Idempotency-Key", key)
					assert.Equal(t, 400, resp.StatusCode)
				default:
					resp, _ := c.call("POST", "/api/v2/stickers", map[string]any{"merchantId": "1001", "description": fmt.Sprint("s", i)}, "Idempotency-Key", key)
					assert.Equal(t, 200, resp.StatusCode)
				}
			}
		}()
	}
	const n = 700
	for i := range n {
		work <- i
	}
	close(work)
	wg.Wait()

	entries, kept, answerBytes := srv.idem.stats()
	assert.Equal(t, limit, entries, "at the cap, no more")
	assert.Equal(t, entries, kept, "nothing in flight, and only created answers kept")
	assert.Less(t, answerBytes, limit*1024, "answers only, never request bodies: %d bytes", answerBytes)
	srv.idem.mu.Lock()
	for _, e := range srv.idem.entries {
		assert.Equal(t, 200, e.status)
		assert.Less(t, len(e.body), 1024)
	}
	srv.idem.mu.Unlock()

	// The oldest were dropped first: the newest key replays, an old one is
	// served again (a new sticker).
	last := n - 1
	for last%100 == 0 || last%7 == 0 {
		last--
	}
	resp, _ := c.call("POST", "/api/v2/stickers", map[string]any{"merchantId": "1001", "description": fmt.Sprint("s", last)}, "Idempotency-Key", fmt.Sprintf("%0200d", last))
	assert.Equal(t, "true", resp.Header.Get("Idempotent-Replayed"))
	resp, _ = c.call("POST", "/api/v2/stickers", map[string]any{"merchantId": "1001", "description": "s1"}, "Idempotency-Key", fmt.Sprintf("%0200d", 1))
	assert.Equal(t, 200, resp.StatusCode)
	assert.Empty(t, resp.Header.Get("Idempotent-Replayed"))
	// A refused request was not kept: its key with another body is no violation.
	resp, _ = c.call("POST", "/api/v2/stickers", map[string]any{"merchantId": "1001"}, "Idempotency-Key", fmt.Sprintf("%0200d", 100))
	assert.Equal(t, 200, resp.StatusCode)
}

func TestIdempotencyCapAndExpiryUnit(t *testing.T) {
	clock := newFakeClock()
	ix := newIdempotency(clock.Now)
	ix.max = 3
	calls := map[string]int{}
	do := func(key string, status int) *recorder {
		rec := newRecorder()
		req, _ := http.NewRequest("POST", "/", nil)
		ix.do(rec, req, key, func() []byte { return []byte(`{"a":1}`) }, func(w http.ResponseWriter) {
			calls[key]++
			writeJSON(w, status, map[string]int{"n": calls[key]})
		})
		return rec
	}
	for _, k := range []string{"k1", "k2", "k3", "k4"} {
		do(k, 200)
	}
	do("bad", 409)
	do("bad", 409)
	assert.Equal(t, 2, calls["bad"], "a refusal is served again, not replayed")
	entries, kept, _ := ix.stats()
	assert.Equal(t, 3, entries)
	assert.Equal(t, 3, kept)
	do("k4", 200)
	assert.Equal(t, 1, calls["k4"], "kept")
	do("k1", 200)
	assert.Equal(t, 2, calls["k1"], "the oldest was dropped first")

	clock.Advance(25 * time.Hour)
	do("k4", 200)
	assert.Equal(t, 2, calls["k4"], "forgotten after 24 h")
	entries, _, _ = ix.stats()
	assert.Equal(t, 1, entries, "the expired ones went with it")

	// A digest, not the body.
	ix.mu.Lock()
	for _, e := range ix.entries {
		assert.NotContains(t, string(e.body), `"a":1`)
		assert.NotEqual(t, [32]byte{}, e.digest)
	}
	ix.mu.Unlock()

	ix.reset()
	entries, _, _ = ix.stats()
	assert.Zero(t, entries)
}

// A page stops at its byte budget; the cursor continues after the last
// item sent, so paging still yields every item exactly once. v1 sets
// Overflow instead.
func TestPagesAreBoundedInBytes(t *testing.T) {
	clock := newFakeClock()
	srv := start(t, Options{Now: clock.Now, SettleDelay: time.Hour})
	c := newClient(t, srv)
	st := srv.Store()
	// Forty big descriptions, made through the store (requests are capped
	// at 1,000 characters), as a hostile client might send 1 MiB each
	// against the 4 MiB budget: here 64 KiB against 256 KiB, the same
	// proportions with a sixteenth of the bytes (the race detector is slow).
	require.EqualValues(t, 4<<20, v2PageBytes.Load(), "the budget")
	require.EqualValues(t, 4<<20, v1ListBytes.Load(), "the budget")
	v2PageBytes.Store(256 << 10)
	v1ListBytes.Store(256 << 10)
	t.Cleanup(func() { v2PageBytes.Store(4 << 20); v1ListBytes.Store(4 << 20) })
	big := strings.Repeat("d", 64<<10)
	want := map[string]bool{}
	for i := range 40 {
		p, err := st.CreateInvoice(InvoiceRequest{MerchantID: "1001", Amount: &money.Amount{Value: money.MustParse("10"), Currency: "RUB"},
			Invoice: Invoice{Description: fmt.Sprint(i, big), OrderNo: fmt.Sprint("BIG-", i)}})
		require.NoError(t, err)
		want[p.ID] = true
		if i%3 == 0 {
			clock.Advance(time.Millisecond) // some share a creation time, some do not
		}
	}
	budget := int(v2PageBytes.Load())

	q := url.Values{"merchantId": {"1001"}, "start": {"2026-03-10"}, "end": {"2026-03-11"}}
	seen := map[string]int{}
	pages := 0
	for cursor := ""; ; {
		qq := url.Values{}
		for k, v := range q {
			qq[k] = v
		}
		if cursor != "" {
			qq.Set("cursor", cursor)
		}
		resp, b := c.call("GET", "/api/v2/payments?"+qq.Encode(), nil)
		require.Equal(t, 200, resp.StatusCode, "%.300s", b)
		assert.LessOrEqual(t, len(b), budget, "page %d", pages)
		var page struct {
			Items []struct {
				ID string `json:"id"`
			} `json:"items"`
			Cursor string `json:"cursor"`
		}
		require.NoError(t, json.Unmarshal(b, &page))
		require.NotEmpty(t, page.Items)
		pages++
		for _, it := range page.Items {
			seen[it.ID]++
		}
		if page.Cursor == "" {
			break
		}
		cursor = page.Cursor
	}
	assert.Greater(t, pages, 10, "about three items a page")
	assert.Len(t, seen, len(want))
	for id := range want {
		assert.Equal(t, 1, seen[id], "payment %s exactly once", id)
	}

	// A small page is the bytes json.Marshal writes.
	_, b := c.call("GET", "/api/v2/stickers?merchantId=1002", nil)
	page, err := st.ListStickers(ListQuery{MerchantID: "1002"})
	require.NoError(t, err)
	out := wireList[wireSticker]{Items: make([]wireSticker, len(page.Items)), Cursor: page.Cursor}
	for i := range page.Items {
		out.Items[i] = renderSticker(&page.Items[i])
	}
	j, _ := json.Marshal(out)
	assert.Equal(t, string(j), string(b))

	// v1: the newest that fit, and Overflow, so the client narrows.
	v1 := newV1Client(t, srv, "accountant")
	resp, body := v1.send(v1Req{op: "listPaymentsFilter", params: []string{"periodFrom", "2026-03-10", "periodTo", "2026-03-10", "siteAlias", "1001"}})
	require.Equal(t, 200, resp.StatusCode)
	assert.LessOrEqual(t, len(body), int(v1ListBytes.Load()))
	var env tV1
	require.NoError(t, json.Unmarshal(body, &env))
	list := response[tPaymentList](t, env)
	require.NotNil(t, list.Overflow)
	assert.True(t, *list.Overflow)
	assert.NotEmpty(t, list.Payments)
	assert.Less(t, len(list.Payments), 40)
	all, _ := st.FilterPayments(PaymentFilter{MerchantIDs: []string{"1001"}})
	for i, p := range list.Payments {
		assert.Equal(t, all[i].ID, p.PaymentID.String(), "the newest first")
	}

	// Under the budget, the v1 list is the bytes json.Marshal writes.
	c.pay(cardPayment("1002", "4111111111111111", "10"))
	c.pay(cardPayment("1002", "4000000000000002", "20"))
	resp, body = v1.send(v1Req{op: "listPaymentsFilter", params: []string{"periodFrom", "2026-03-10", "periodTo", "2026-03-10", "siteAlias", "1002"}})
	require.Equal(t, 200, resp.StatusCode)
	small, overflow := st.FilterPayments(PaymentFilter{MerchantIDs: []string{"1002"}, Start: time.Date(2026, 3, 10, 0, 0, 0, 0, time.UTC), End: time.Date(2026, 3, 11, 0, 0, 0, 0, time.UTC), Limit: v1ListLimit})
	expect := v1PaymentList{Overflow: overflow, Payments: make([]v1Payment, len(small))}
	for i := range small {
		expect.Payments[i] = renderV1Payment(&small[i])
	}
	j, _ = json.Marshal(&v1Envelope{Response: &expect})
	assert.Equal(t, string(j), string(body))
	assert.True(t, bytes.HasPrefix(body, []byte(`{"ErrorCode":0,"Response":{"Overflow":false,"Payments":[{`)), "%.200s", body)
}
