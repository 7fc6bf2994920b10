package sandbox

import (
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type tAdvance struct {
	Now    time.Time `json:"now"`
	Events int       `json:"events"`
}

func TestControlAdvanceMakesWhatIsDueHappen(t *testing.T) {
	// A clock that moves only when told: on the real one the settler would
	// settle the refund by itself once 5 s had passed, and the advance's
	// "now" would be later by however long the requests took.
	clock := newFakeClock()
	srv := start(t, Options{Now: clock.Now, SettleDelay: 5 * time.Second})
	c := newClient(t, srv)

	p := c.pay(cardPayment("1001", "4111111111111111", "100"))
	require.Equal(t, "Settled", p.Status)
	var r tRefund
	c.want(200, "POST", "/api/v2/refunds", map[string]any{"paymentId": p.ID, "amount": map[string]any{"value": 40, "currency": "RUB"}}, &r)
	require.Equal(t, "Pending", r.Status)
	pending := c.pay(cardPayment("1002", "4000000000000259", "7"))
	require.Equal(t, "Pending", pending.Status)

	before := srv.Store().Now()
	var adv tAdvance
	c.want(200, "POST", "/_sandbox/clock/advance", map[string]any{"duration": "6s"}, &adv)
	assert.Equal(t, 2, adv.Events, "the refund and the payment")
	assert.Equal(t, before.Add(6*time.Second), adv.Now)

	c.want(200, "GET", "/api/v2/refunds/"+r.ID, nil, &r)
	assert.Equal(t, "Success", r.Status)
	assert.Equal(t, "Settled", c.getPayment(pending.ID).Status)

	// An invoice expires after 24 h; a number is seconds; a trailing slash is fine.
	var inv struct {
		PaymentID string `json:"paymentId"`
	}
	c.want(200, "POST", "/api/v2/invoices", map[string]any{"merchantId": "1003", "amount": map[string]any{"value": 12, "currency": "EUR"},
		"invoice": map[string]any{"description": "Tour", "orderNo": "ADV-1"}}, &inv)
	c.want(200, "POST", "/_sandbox/clock/advance", `{"duration":"23h59m"}`, nil)
	assert.Equal(t, "Pending", c.getPayment(inv.PaymentID).Status)
	before = srv.Store().Now()
	c.want(200, "POST", "/_sandbox/clock/advance/", `{"duration": 90}`, &adv)
	assert.Equal(t, before.Add(90*time.Second), adv.Now)
	assert.Equal(t, 1, adv.Events)
	got := c.getPayment(inv.PaymentID)
	assert.Equal(t, "Rejected", got.Status)
	assert.Equal(t, "PaymentExpired", got.ResultCode)
	c.want(200, "POST", "/_sandbox/clock/advance", `{"duration": 0.5}`, nil)
}

func TestControlAdvanceRefusesBadDurations(t *testing.T) {
	clock := newFakeClock() // still, so that "did not move" is exact
	srv := start(t, Options{Now: clock.Now})
	c := newClient(t, srv)
	before := srv.Store().Now()
	for body, contains := range map[string]string{
		`{"duration":"soon"}`: `"soon" is not a Go duration`,
		`{"duration":"1x"}`:   "is not a Go duration",
		`{"duration":"-1h"}`:  "negative",
		`{"duration":-5}`:     "negative",
		`{"duration":"0s"}`:   "more than 0",
		`{"duration":0}`:      "more than 0",
		`{"duration":"` + (MaxAdvance + time.Hour).String() + `"}`: "out of range",
		`{"duration":"99999999999h"}`:                              "is not a Go duration",
		`{"duration":1e9}`:                                         "is not a Go duration",
		`{"duration":true}`:                                        "duration must be",
		`{"duration":null}`:                                        "duration is required",
		`{}`:                                                       "duration is required",
		`{"duration":"1h"`:                                         "not valid JSON",
		`[]`:                                                       "JSON object",
		``:                                                         "request body is required",
		`{"duration":"` + strings.Repeat("1", 5000) + `h"}`: "at most 4096 bytes",
	} {
		c.wantError(400, "validation_error", contains, "POST", "/_sandbox/clock/advance", body)
	}
	assert.Equal(t, before, srv.Store().Now(), "the clock did not move")
}

func TestControlResetGoesBackToTheSeed(t *testing.T) {
	clock := newFakeClock() // the "real" time a reset goes back to, exactly
	srv := start(t, Options{Payments: 300, Now: clock.Now})
	c := newClient(t, srv)
	seeded := srv.Store().PaymentCount()

	var list struct {
		Items []tSticker `json:"items"`
	}
	c.want(200, "GET", "/api/v2/stickers?merchantId=1001", nil, &list)
	var sticker string
	for _, st := range list.Items {
		if st.Status == "Active" {
			sticker = st.ID
			break
		}
	}
	require.NotEmpty(t, sticker, "a seeded Active sticker")
	c.want(200, "PUT", "/api/v2/stickers/"+sticker, map[string]any{"active": false}, nil)

	var inv struct {
		PaymentID string `json:"paymentId"`
	}
	c.want(200, "POST", "/api/v2/invoices", map[string]any{"merchantId": "1001", "amount": map[string]any{"value": 12, "currency": "RUB"},
		"invoice": map[string]any{"description": "After start", "orderNo": "RST-1"}}, &inv)
	c.getPayment(inv.PaymentID)

	// A keyed creation and a v1 nonce, both remembered...
	keyed := map[string]any{"merchantId": "1002", "description": "keyed before the reset"}
	var st1 tSticker
	c.want(200, "POST", "/api/v2/stickers", keyed, &st1, "Idempotency-Key", "reset-key")
	v1 := newV1Client(t, srv, "cashier")
	nonce := tNonce()
	_, b := v1.send(v1Req{op: "getPayment", params: []string{"paymentID", inv.PaymentID}, nonce: nonce})
	require.Contains(t, string(b), `"ErrorCode":0`)
	_, b = v1.send(v1Req{op: "getPayment", params: []string{"paymentID", inv.PaymentID}, nonce: nonce})
	require.Contains(t, string(b), `"ErrorCode":-14`)
	c.want(200, "POST", "/_sandbox/clock/advance", map[string]any{"duration": "2h"}, nil)

	var out struct {
		Reset bool      `json:"reset"`
		Now   time.Time `json:"now"`
	}
	c.want(200, "POST", "/_sandbox/reset", nil, &out)
	assert.True(t, out.Reset)
	assert.Equal(t, clock.Now(), out.Now, "the advance is undone")

	c.wantError(404, "invalid_operation", "not found", "GET", "/api/v2/payments/"+inv.PaymentID, nil)
	var st tSticker
	c.want(200, "GET", "/api/v2/stickers/"+sticker, nil, &st)
	assert.Equal(t, "Active", st.Status, "the sticker switched off is back on")
	assert.Equal(t, seeded, srv.Store().PaymentCount())

	// ...and forgotten: the same key makes a new sticker (no stale answer
	// naming an object that is gone), the same nonce is fresh again.
	resp, body := c.call("POST", "/api/v2/stickers", keyed, "Idempotency-Key", "reset-key")
	require.Equal(t, 200, resp.StatusCode, "%s", body)
	assert.Empty(t, resp.Header.Get("Idempotent-Replayed"), "kept idempotency keys are forgotten by a reset")
	_, b = v1.send(v1Req{op: "getPayment", params: []string{"paymentID", inv.PaymentID}, nonce: nonce})
	assert.Contains(t, string(b), `"ErrorCode":-13`, "the nonce is fresh again; the payment is gone")

	// A trailing slash is fine here too.
	c.want(200, "POST", "/_sandbox/reset/", nil, &out)
}

func TestControlCallbackResend(t *testing.T) {
	rc := &receiver{}
	hook := httptest.NewServer(rc)
	defer hook.Close()
	srv, lb := startLogged(t, Options{CallbackBackoff: 20 * time.Millisecond})
	c := newClient(t, srv)

	p := c.pay(cardPayment("1001", "4111111111111111", "5", callback(hook.URL+"/cb")))
	require.Eventually(t, func() bool { return len(rc.snapshot()) == 1 }, eventually, 10*time.Millisecond)

	var out struct {
		DeliveryID string `json:"deliveryId"`
		ID         string `json:"id"`
		URL        string `json:"url"`
	}
	c.want(202, "POST", "/_sandbox/callbacks/"+p.ID+"/resend", nil, &out)
	assert.Equal(t, p.ID, out.ID)
	assert.Equal(t, hook.URL+"/cb", out.URL)
	assert.Equal(t, "cb_2", out.DeliveryID, "the payment's first delivery was cb_1")
	require.Eventually(t, func() bool { return len(rc.snapshot()) == 2 }, eventually, 10*time.Millisecond)
	calls := rc.snapshot()
	assert.Equal(t, calls[0].body, calls[1].body, "the same notification again")
	assert.Equal(t, "Settled", calls[1].body["status"])
	require.Eventually(t, func() bool { return strings.Contains(lb.String(), "delivery=cb_2") }, eventually, 10*time.Millisecond,
		"the delivery id is in the log")

	// A token's callback too.
	var tok tToken
	c.want(200, "POST", "/api/v2/paymenttokens", map[string]any{"merchantId": "1002",
		"paymentData": map[string]any{"card": map[string]any{"pan": "4111111111111111"}},
		"protocol":    map[string]any{"callbackUrl": hook.URL + "/token"}}, &tok)
	c.want(200, "PUT", "/api/v2/paymenttokens/"+tok.ID+"/complete", nil, nil)
	require.Eventually(t, func() bool { return len(rc.snapshot()) == 3 }, eventually, 10*time.Millisecond)
	c.want(202, "POST", "/_sandbox/callbacks/"+tok.ID+"/resend", nil, &out)
	require.Eventually(t, func() bool { return len(rc.snapshot()) == 4 }, eventually, 10*time.Millisecond)
	assert.Equal(t, rc.snapshot()[2].body, rc.snapshot()[3].body)

	// Nothing was sent for these: unknown, no callbackUrl, not a loopback address.
	plain := c.pay(cardPayment("1001", "4111111111111111", "6"))
	far := c.pay(cardPayment("1001", "4111111111111111", "7", callback("https://merchant.example.com/cb")))
	for _, id := range []string{"43999999", "nonsense", plain.ID, far.ID} {
		c.wantError(404, "invalid_operation", "no callback has been sent", "POST", "/_sandbox/callbacks/"+id+"/resend", nil)
	}

	// A reset forgets them.
	c.want(200, "POST", "/_sandbox/reset", nil, nil)
	c.wantError(404, "invalid_operation", "no callback has been sent", "POST", "/_sandbox/callbacks/"+p.ID+"/resend", nil)
	assert.Len(t, rc.snapshot(), 4)
}

func TestControlAccess(t *testing.T) {
	srv := start(t, Options{Faults: Faults{ErrorRate: 1}})
	c := newClient(t, srv)
	paths := []string{"/_sandbox/clock/advance", "/_sandbox/reset", "/_sandbox/callbacks/43000000/resend", "/_sandbox/nothing"}

	c.token = ""
	for _, p := range paths {
		c.wantError(401, "not_authorized", "bearer token", "POST", p, `{"duration":"1h"}`)
	}
	resp, _ := c.call("POST", "/_sandbox/reset", nil)
	assert.Equal(t, `Bearer realm="paydash sandbox"`, resp.Header.Get("WWW-Authenticate"))
	c.token = "pdv2_not-the-token"
	c.wantError(401, "not_authorized", "", "POST", "/_sandbox/reset", nil)

	c.token = srv.Store().V2ReadOnlyToken()
	for _, p := range paths {
		c.wantError(403, "not_authorized", "read-only", "POST", p, `{"duration":"1h"}`)
		c.wantError(403, "not_authorized", "read-only", "GET", p, nil)
	}

	// The full token; faults (error=1 here) do not touch /_sandbox/.
	c.token = srv.Store().V2Token()
	c.wantError(404, "invalid_operation", "not found", "POST", "/_sandbox/nothing", nil)
	c.wantError(404, "invalid_operation", "not found", "POST", "/_sandbox/", nil)
	e := c.wantError(405, "invalid_operation", "allowed: POST", "GET", "/_sandbox/reset", nil)
	assert.Contains(t, e.Message, "GET")
	c.wantError(405, "invalid_operation", "allowed: POST", "PUT", "/_sandbox/clock/advance", `{"duration":"1h"}`)
	c.want(200, "POST", "/_sandbox/clock/advance", `{"duration":"1m"}`, nil)
	c.wantError(500, "internal_error", "injected fault", "GET", "/api/v2/stickers/20100", nil)
}
