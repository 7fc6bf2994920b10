package sandbox

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type tScenario struct {
	Kind       string    `json:"kind"`
	From       time.Time `json:"from"`
	Until      time.Time `json:"until"`
	Rate       float64   `json:"rate"`
	ResultCode string    `json:"resultCode"`
}

// scenarioServer is a sandbox on a clock that moves only when told, with
// pending payments and refunds settling after 5 s.
func scenarioServer(t *testing.T) (*Server, *client) {
	t.Helper()
	clock := newFakeClock()
	srv := start(t, Options{Payments: 100, Now: clock.Now, SettleDelay: 5 * time.Second})
	return srv, newClient(t, srv)
}

func (c *client) setScenario(body any) tScenario {
	c.t.Helper()
	var out struct {
		Scenario tScenario `json:"scenario"`
	}
	c.want(200, "POST", "/_sandbox/scenario", body, &out)
	return out.Scenario
}

func (c *client) scenarios() []tScenario {
	c.t.Helper()
	var out struct {
		Scenarios []tScenario `json:"scenarios"`
	}
	body := c.want(200, "GET", "/_sandbox/scenario", nil, &out)
	require.NotContains(c.t, string(body), "null", "an empty list is [], not null")
	return out.Scenarios
}

// payMany makes n payments with a card that approves at once, and returns
// the ids of those declined.
func (c *client) payMany(n int) (declined []string) {
	c.t.Helper()
	for i := range n {
		p := c.pay(cardPayment("1001", "4111111111111111", fmt.Sprint(10+i)))
		switch p.Status {
		case "Rejected":
			declined = append(declined, p.ID)
		case "Settled":
		default:
			c.t.Fatalf("payment %s is %s", p.ID, p.Status)
		}
	}
	return declined
}

func TestScenarioDeclineSpike(t *testing.T) {
	srv, c := scenarioServer(t)
	before := c.pay(cardPayment("1001", "4000000000000259", "7")) // Pending, settles after 5 s
	require.Equal(t, "Pending", before.Status)

	now := srv.Store().Now()
	sc := c.setScenario(`{"kind":"decline_spike","resultCode":"IssuerUnavailable","rate":0.6,"duration":"30m"}`)
	assert.Equal(t, tScenario{Kind: "decline_spike", From: now, Until: now.Add(30 * time.Minute), Rate: 0.6, ResultCode: "IssuerUnavailable"}, sc)

	declined := c.payMany(200)
	assert.InDelta(t, 120, len(declined), 20, "rate 0.6 of 200")
	for _, id := range declined {
		p, err := srv.Store().GetPayment(id)
		require.NoError(t, err)
		require.Equal(t, "IssuerUnavailable", p.ResultCode)
		require.Equal(t, "The issuer is unavailable", p.Message)
	}
	// Arrivals are picked too: the list item says why.
	arrived := srv.Store().Arrive()
	var list struct {
		Items []tPayment `json:"items"`
	}
	c.want(200, "GET", "/api/v2/payments?merchantId="+arrived.MerchantID+"&start=2026-03-10&end=2026-03-11", nil, &list)
	require.NotEmpty(t, list.Items)
	assert.Equal(t, arrived.ID, list.Items[0].ID)
	assert.Equal(t, arrived.Status, PaymentStatus(list.Items[0].Status))
	assert.Equal(t, arrived.ResultCode, list.Items[0].ResultCode, "list items carry resultCode")

	// What was made before is left alone; after the window nothing is declined.
	c.want(200, "POST", "/_sandbox/clock/advance", `{"duration":"30m"}`, nil)
	assert.Equal(t, "Settled", c.getPayment(before.ID).Status)
	assert.Empty(t, c.payMany(20), "after the window")
	assert.Empty(t, c.scenarios(), "the window is over")

	// The same seed picks the same payments: after a reset (the same ids
	// again), the same scenario declines the same ones.
	c.want(200, "POST", "/_sandbox/reset", nil, nil)
	c.pay(cardPayment("1001", "4000000000000259", "7"))
	c.setScenario(`{"kind":"decline_spike","resultCode":"IssuerUnavailable","rate":0.6,"duration":"30m"}`)
	assert.Equal(t, declined, c.payMany(200), "deterministic")
}

func TestScenarioDeclineSpikeRateOne(t *testing.T) {
	srv, c := scenarioServer(t)
	sc := c.setScenario(`{"kind":"decline_spike","duration":600}`) // rate 1, TransactionDeclined
	assert.Equal(t, 1.0, sc.Rate)
	assert.Equal(t, "TransactionDeclined", sc.ResultCode)
	assert.Len(t, c.payMany(30), 30)
	for _, pan := range []string{"4000000000000077", "4000000000000259", "4000000000009995"} {
		p := c.pay(cardPayment("1002", pan, "5"))
		assert.Equal(t, "Rejected", p.Status, pan)
		assert.Equal(t, "TransactionDeclined", p.ResultCode, pan)
	}
	for range 20 {
		p := srv.Store().Arrive()
		require.Equal(t, PaymentRejected, p.Status)
		require.Equal(t, "TransactionDeclined", p.ResultCode)
	}
}

func TestScenarioConfirmationStall(t *testing.T) {
	_, c := scenarioServer(t)
	otp := map[string]string{"code": SmsOtpCode}
	early := c.pay(cardPayment("1001", "4000000000000077", "5"))
	require.Equal(t, "Confirmation", early.Status)

	sc := c.setScenario(`{"kind":"confirmation_stall","duration":"30m"}`)
	assert.Equal(t, tScenario{Kind: "confirmation_stall", From: sc.From, Until: sc.From.Add(30 * time.Minute), Rate: 1}, sc)
	var stalled []string
	for _, pan := range []string{"4000000000000077", "4000000000003063", "4000000000003220", "4000000000000101"} {
		p := c.pay(cardPayment("1001", pan, "5"))
		require.Equal(t, "Confirmation", p.Status, pan)
		stalled = append(stalled, p.ID)
	}
	c.want(200, "PUT", "/api/v2/payments/"+stalled[0]+"/complete", otp, nil)
	c.want(200, "PUT", "/api/v2/payments/"+stalled[1]+"/complete", map[string]string{"cres": "Y"}, nil)
	c.want(200, "PUT", "/api/v2/payments/"+stalled[2]+"/complete", map[string]string{"threeDSCompInd": "Y"}, nil)
	c.want(200, "PUT", "/api/v2/payments/"+stalled[3]+"/complete", map[string]string{"PARes": "eJx"}, nil)
	c.want(200, "POST", "/_sandbox/clock/advance", `{"duration":"2h"}`, nil)
	for _, id := range stalled {
		p := c.getPayment(id)
		assert.Equal(t, "Confirmation", p.Status, id)
		assert.Empty(t, p.ResultCode, id)
	}
	assert.Equal(t, "Confirmation", c.getPayment(stalled[2]).Status)
	assert.Equal(t, "ThreeDSMethod", c.getPayment(stalled[2]).Confirmation.Type, "not even the next step")

	// Payments that approve at once, and those made before or after, go on.
	assert.Empty(t, c.payMany(5))
	c.want(200, "PUT", "/api/v2/payments/"+early.ID+"/complete", otp, nil)
	assert.Equal(t, "Settled", c.getPayment(early.ID).Status)
	late := c.pay(cardPayment("1001", "4000000000000077", "5"))
	c.want(200, "PUT", "/api/v2/payments/"+late.ID+"/complete", otp, nil)
	assert.Equal(t, "Settled", c.getPayment(late.ID).Status)
}

func TestScenarioConfirmationStallRate(t *testing.T) {
	_, c := scenarioServer(t)
	c.setScenario(`{"kind":"confirmation_stall","rate":0.5,"duration":"1h"}`)
	stalled := 0
	for i := range 60 {
		p := c.pay(cardPayment("1001", "4000000000000077", fmt.Sprint(5+i)))
		c.want(200, "PUT", "/api/v2/payments/"+p.ID+"/complete", map[string]string{"code": SmsOtpCode}, &p)
		if p.Status == "Confirmation" {
			stalled++
		}
	}
	assert.InDelta(t, 30, stalled, 12, "about half of 60")
}

func TestScenarioRefundDelay(t *testing.T) {
	_, c := scenarioServer(t)
	refund := func(paymentID string) tRefund {
		var r tRefund
		c.want(200, "POST", "/api/v2/refunds", map[string]any{"paymentId": paymentID, "amount": map[string]any{"value": 1, "currency": "RUB"}}, &r)
		require.Equal(t, "Pending", r.Status)
		return r
	}
	getRefund := func(id string) string {
		var r tRefund
		c.want(200, "GET", "/api/v2/refunds/"+id, nil, &r)
		return r.Status
	}
	p := c.pay(cardPayment("1001", "4111111111111111", "100"))
	before := refund(p.ID)
	sc := c.setScenario(map[string]any{"kind": "refund_delay", "rate": 1, "duration": "30m"})
	assert.Equal(t, sc.From.Add(30*time.Minute), sc.Until)
	delayed := refund(p.ID)

	c.want(200, "POST", "/_sandbox/clock/advance", `{"duration":"10s"}`, nil)
	assert.Equal(t, "Success", getRefund(before.ID), "made before the window")
	assert.Equal(t, "Pending", getRefund(delayed.ID), "past its usual 5 s")
	c.want(200, "POST", "/_sandbox/clock/advance", `{"duration":"29m40s"}`, nil)
	assert.Equal(t, "Pending", getRefund(delayed.ID), "10 s before the window ends")
	var adv tAdvance
	c.want(200, "POST", "/_sandbox/clock/advance", `{"duration":"10s"}`, &adv)
	assert.Equal(t, sc.Until, adv.Now)
	assert.Equal(t, "Success", getRefund(delayed.ID), "settled as the window ends")

	after := refund(p.ID)
	c.want(200, "POST", "/_sandbox/clock/advance", `{"duration":"5s"}`, nil)
	assert.Equal(t, "Success", getRefund(after.ID))
}

func TestScenarioValidation(t *testing.T) {
	srv, c := scenarioServer(t)
	for body, contains := range map[string]string{
		`{"kind":"outage","duration":"1h"}`:                               `kind "outage" is not a scenario: give one of decline_spike, confirmation_stall, refund_delay`,
		`{"duration":"1h"}`:                                               `kind "" is not a scenario`,
		`{"kind":"decline_spike","rate":0,"duration":"1h"}`:               "rate 0 is out of range: more than 0 and at most 1",
		`{"kind":"decline_spike","rate":1.5,"duration":"1h"}`:             "rate 1.5 is out of range",
		`{"kind":"decline_spike","rate":-0.1,"duration":"1h"}`:            "rate -0.1 is out of range",
		`{"kind":"decline_spike","rate":"half","duration":"1h"}`:          "rate must be",
		`{"kind":"decline_spike"}`:                                        "duration is required",
		`{"kind":"decline_spike","duration":"0s"}`:                        "duration 0s is out of range: more than 0 and at most 168h0m0s (7 days)",
		`{"kind":"decline_spike","duration":"-1h"}`:                       "duration -1h0m0s is out of range",
		`{"kind":"decline_spike","duration":"169h"}`:                      "duration 169h0m0s is out of range",
		`{"kind":"decline_spike","duration":"soon"}`:                      `duration "soon" is not a Go duration`,
		`{"kind":"decline_spike","resultCode":"Success","duration":"1h"}`: `resultCode "Success" is not a decline code of the sandbox: give one of BlockedAccount,`,
		`{"kind":"decline_spike","resultCode":"Oops","duration":"1h"}`:    `resultCode "Oops" is not a decline code`,
		`{"kind":"refund_delay","resultCode":"Oops","duration":"1h"}`:     "resultCode is given only with kind decline_spike",
		`{"kind":"decline_spike","duration":"1h"`:                         "not valid JSON",
		``:   "request body is required",
		`[]`: "JSON object",
		`{"kind":"decline_spike","kind":"refund_delay","duration":"1h"}`: "given more than once",
	} {
		c.wantError(400, "validation_error", contains, "POST", "/_sandbox/scenario", body)
	}
	// Every problem at once.
	e := c.wantError(400, "validation_error", "", "POST", "/_sandbox/scenario", `{"kind":"x","rate":2,"duration":"9d"}`)
	assert.Len(t, e.Errors, 3, "%q", e.Errors)
	assert.Empty(t, c.scenarios(), "nothing was set")
	assert.Empty(t, c.payMany(10))

	c.token = srv.Store().V2ReadOnlyToken()
	c.wantError(403, "not_authorized", "read-only", "POST", "/_sandbox/scenario", `{"kind":"decline_spike","duration":"1h"}`)
	c.wantError(403, "not_authorized", "read-only", "GET", "/_sandbox/scenario", nil)
	c.token = ""
	c.wantError(401, "not_authorized", "bearer token", "GET", "/_sandbox/scenario", nil)
}

func TestScenarioListAndReset(t *testing.T) {
	srv, c := scenarioServer(t)
	assert.Empty(t, c.scenarios())
	a := c.setScenario(`{"kind":"decline_spike","resultCode":"InsufficientFunds","rate":0.2,"duration":"1h"}`)
	b := c.setScenario(`{"kind":"refund_delay","duration":"10m"}`)
	c.want(200, "POST", "/_sandbox/clock/advance", `{"duration":"1m"}`, nil)
	var set struct {
		Scenario tScenario `json:"scenario"`
	}
	c.want(200, "POST", "/_sandbox/scenario/", `{"kind":"confirmation_stall","rate":0.5,"duration":"2h"}`, &set) // a trailing slash is fine
	d := set.Scenario
	assert.Equal(t, []tScenario{a, b, d}, c.scenarios(), "in the order set")
	var list struct {
		Scenarios []tScenario `json:"scenarios"`
	}
	c.want(200, "GET", "/_sandbox/scenario/", nil, &list)
	assert.Len(t, list.Scenarios, 3)

	c.want(200, "POST", "/_sandbox/clock/advance", `{"duration":"10m"}`, nil)
	assert.Equal(t, []tScenario{a, d}, c.scenarios(), "refund_delay is over")

	// Two spikes at once: the first that picks a payment gives its code.
	c.setScenario(`{"kind":"decline_spike","resultCode":"RejectedByFraud","duration":"1h"}`)
	codes := map[string]int{}
	for i := range 50 {
		p := c.pay(cardPayment("1001", "4111111111111111", fmt.Sprint(10+i)))
		codes[p.ResultCode]++
	}
	assert.Zero(t, codes["Success"], "the second spike takes every payment the first leaves")
	assert.Positive(t, codes["InsufficientFunds"])
	assert.Positive(t, codes["RejectedByFraud"])

	c.want(200, "POST", "/_sandbox/reset", nil, nil)
	assert.Empty(t, c.scenarios(), "reset forgets them")
	assert.Empty(t, c.payMany(20))
	assert.Empty(t, srv.Store().Scenarios())
}

func TestDeclineCodesAreTheDeclines(t *testing.T) {
	codes := DeclineCodes()
	assert.NotContains(t, codes, "Success")
	assert.True(t, slices.IsSorted(codes))
	assert.Contains(t, codes, "IssuerUnavailable")
	assert.Contains(t, codes, "TransactionDeclined")
}
