package sandbox

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// dateOf reads an answer's Date header, which must be there and be in
// http.TimeFormat.
func dateOf(t *testing.T, resp *http.Response) time.Time {
	t.Helper()
	v := resp.Header.Get("Date")
	require.NotEmpty(t, v, "an answer without a Date header")
	d, err := time.Parse(http.TimeFormat, v)
	require.NoError(t, err, "Date %q is not in http.TimeFormat", v)
	return d
}

// The Date of every answer is the store clock, the one a tester moves: 70
// minutes on, and the next answer says so, on v2, on v1, on the control
// paths and on errors.
func TestEveryAnswerIsDatedByTheStoreClock(t *testing.T) {
	clock := newFakeClock() // 12:00:00 UTC, standing still
	srv := start(t, Options{Now: clock.Now})
	c := newClient(t, srv)
	v1 := newV1Client(t, srv, "accountant")
	pid := c.pay(cardPayment("1001", "4111111111111111", "100")).ID

	answers := map[string]func() *http.Response{
		"v2":       func() *http.Response { r, _ := c.call("GET", "/api/v2/payments/"+pid, nil); return r },
		"v2 error": func() *http.Response { r, _ := c.call("GET", "/api/v2/payments/nope", nil); return r },
		"v1": func() *http.Response {
			r, _ := v1.send(v1Req{op: "getPayment", params: []string{"paymentID", pid}})
			return r
		},
		"unknown path": func() *http.Response { r, _ := c.call("GET", "/nowhere", nil); return r },
		"control, refused": func() *http.Response {
			r, _ := c.call("POST", "/_sandbox/clock/advance", "{", "Authorization", "Bearer nope")
			return r
		},
		"control, bad body": func() *http.Response { r, _ := c.call("POST", "/_sandbox/clock/advance", "{"); return r },
	}
	before := map[string]time.Time{}
	for name, ask := range answers {
		before[name] = dateOf(t, ask())
		assert.Equal(t, clock.Now(), before[name], "%s: the store clock, not the machine's", name)
	}

	resp, _ := c.call("POST", "/_sandbox/clock/advance", map[string]any{"duration": "70m"})
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, before["v2"].Add(70*time.Minute), dateOf(t, resp), "the advance's own answer is dated after it")

	for name, ask := range answers {
		assert.Equal(t, before[name].Add(70*time.Minute), dateOf(t, ask()), name)
	}
}

// An answer a fault garbles, or an error it makes up, is dated the same way.
func TestFaultyAnswersAreDatedByTheStoreClock(t *testing.T) {
	clock := newFakeClock()
	for name, f := range map[string]Faults{"error": {ErrorRate: 1}, "malformed": {MalformedRate: 1}} {
		srv := start(t, Options{Now: clock.Now, Faults: f})
		c := newClient(t, srv)
		_, err := srv.Store().Advance(3 * time.Hour)
		require.NoError(t, err)
		resp, _ := c.call("GET", "/api/v2/payments/nope", nil)
		assert.Equal(t, clock.Now().Add(3*time.Hour), dateOf(t, resp), name)
		assert.Equal(t, "1", resp.Header.Get("Paydash-Sandbox"), name)
	}
}

// The sandbox says what it is on every answer, so that paydash reaching it
// by URL knows that no real money is at stake.
func TestEveryAnswerAnnouncesTheSandbox(t *testing.T) {
	srv := start(t, Options{})
	c := newClient(t, srv)
	v1 := newV1Client(t, srv, "accountant")
	for name, resp := range map[string]*http.Response{
		"v2": func() *http.Response { r, _ := c.call("GET", "/api/v2/payments/nope", nil); return r }(),
		"v2 no token": func() *http.Response {
			r, _ := c.call("GET", "/api/v2/payments/nope", nil, "Authorization", "Bearer x")
			return r
		}(),
		"v1": func() *http.Response {
			r, _ := v1.send(v1Req{op: "getPayment", params: []string{"paymentID", "1"}})
			return r
		}(),
		"control":      func() *http.Response { r, _ := c.call("POST", "/_sandbox/reset/", nil); return r }(),
		"unknown path": func() *http.Response { r, _ := c.call("GET", "/", nil); return r }(),
	} {
		assert.Equal(t, "1", resp.Header.Get("Paydash-Sandbox"), name)
	}
}
