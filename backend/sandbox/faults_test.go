package sandbox

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"paydash/backend/money"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseFaults(t *testing.T) {
	f, err := ParseFaults("latency=200ms,error=0.05,drop=0.01,malformed=0.01")
	require.NoError(t, err)
	assert.Equal(t, Faults{Latency: 200 * time.Millisecond, ErrorRate: 0.05, DropRate: 0.01, MalformedRate: 0.01}, f)
	assert.Equal(t, "latency=200ms,error=0.05,drop=0.01,malformed=0.01", f.String())

	f, err = ParseFaults("")
	require.NoError(t, err)
	assert.True(t, f.IsZero())
	f, err = ParseFaults(" error = 0.5 , ")
	require.NoError(t, err)
	assert.Equal(t, Faults{ErrorRate: 0.5}, f)

	for spec, msg := range map[string]string{
		"latency=fast":        "not a duration",
		"latency=-1s":         "not a duration",
		"error=2":             "from 0 to 1",
		"error=-0.1":          "from 0 to 1",
		"drop=abc":            "from 0 to 1",
		"boom=0.1":            "unknown fault",
		"error":               "key=value",
		"error=0.1,error=0.2": "twice",
		"error=0.6,drop=0.6":  "more than 1",
	} {
		_, err := ParseFaults(spec)
		if assert.Error(t, err, spec) {
			assert.Contains(t, err.Error(), msg, spec)
		}
	}
}

func TestFaultsInjected(t *testing.T) {
	path := "/api/v2/stickers?merchantId=1001"
	t.Run("error", func(t *testing.T) {
		c := newClient(t, start(t, Options{Faults: Faults{ErrorRate: 1}}))
		e := c.wantError(500, "internal_error", "", "GET", path, nil)
		assert.Equal(t, "injected fault", e.Message)
		// Only /api/ paths are affected.
		resp, _ := c.call("GET", "/acs/x", nil)
		assert.Equal(t, 200, resp.StatusCode)
	})
	t.Run("drop", func(t *testing.T) {
		srv := start(t, Options{Faults: Faults{DropRate: 1}})
		c := newClient(t, srv)
		req, _ := http.NewRequest("GET", srv.BaseURL()+path, nil)
		req.Header.Set("Authorization", "Bearer "+srv.Store().V2Token())
		_, err := c.hc.Do(req)
		require.Error(t, err, "the connection closes without an answer")
	})
	t.Run("malformed", func(t *testing.T) {
		c := newClient(t, start(t, Options{Faults: Faults{MalformedRate: 1}}))
		resp, body := c.call("GET", path, nil)
		assert.Equal(t, 200, resp.StatusCode)
		assert.NotEmpty(t, body)
		assert.False(t, json.Valid(body), "%s", body)
		// Even an empty answer is sent malformed.
		resp, body = c.call("PUT", "/api/v2/stickers/20100", map[string]any{"active": true})
		assert.Equal(t, 200, resp.StatusCode)
		assert.False(t, json.Valid(body))
	})
	t.Run("latency", func(t *testing.T) {
		c := newClient(t, start(t, Options{Faults: Faults{Latency: 120 * time.Millisecond}}))
		t0 := time.Now()
		c.want(200, "GET", path, nil, nil)
		assert.GreaterOrEqual(t, time.Since(t0), 120*time.Millisecond, "both halves are waited")
	})
	t.Run("rates and determinism", func(t *testing.T) {
		run := func() []int {
			c := newClient(t, start(t, Options{Seed: 7, Faults: Faults{ErrorRate: 0.3}}))
			var out []int
			for range 40 {
				resp, _ := c.call("GET", path, nil)
				out = append(out, resp.StatusCode)
			}
			return out
		}
		a, b := run(), run()
		assert.Equal(t, a, b, "the same seed injects the same faults")
		assert.Contains(t, a, 500)
		assert.Contains(t, a, 200)
	})
}

// settledPayment makes a Settled card payment of 100.00 RUB in the store
// directly, so that no fault draw is spent on it.
func settledPayment(t *testing.T, srv *Server) Payment {
	t.Helper()
	a := money.Amount{Value: money.MustParse("100"), Currency: "RUB"}
	p, err := srv.Store().CreatePayment(PaymentRequest{
		MerchantID: srv.Store().MerchantIDs()[0], Amount: &a, PaymentMethod: "bankcard",
		Invoice: Invoice{Description: "faults test", OrderNo: "F-1"},
		Card:    &CardData{PAN: "4111111111111111", Expiry: "12/30", CVC: "123"},
	})
	require.NoError(t, err)
	require.Equal(t, PaymentSettled, p.Status)
	return p
}

// refundPost sends POST /api/v2/refunds of value for payment id through hc.
func refundPost(srv *Server, hc *http.Client, id, value string) error {
	body := `{"paymentId":"` + id + `","amount":{"value":` + value + `,"currency":"RUB"}}`
	req, err := http.NewRequest("POST", srv.BaseURL()+"/api/v2/refunds", strings.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+srv.Store().V2Token())
	req.Header.Set("Content-Type", "application/json")
	resp, err := hc.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("HTTP %d", resp.StatusCode)
	}
	return nil
}

// refundedValues are the amounts of a payment's refunds, in order.
func refundedValues(t *testing.T, srv *Server, id string) []string {
	t.Helper()
	refunds, err := srv.Store().RefundsOfPayment(id)
	require.NoError(t, err)
	var out []string
	for _, r := range refunds {
		out = append(out, r.Amount.Value.StringFixed(2))
	}
	return out
}

// A latency is a network's: the request travels half of it, is then served
// in full whatever the client does, and its answer travels the other half.
// In a synctest bubble (bubble_test.go), so the clients' timeouts, the
// injected latency and the store clock run on one fake clock: every "after"
// below is exact, however loaded the machine is. The test waits for each
// request's log record (the server is done with it), never on the clock,
// and reads when a refund was served from its creation time.
func TestLatencyServesWhatArrivedWhateverTheClientDoes(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const latency = time.Second
		logger, requests := loggedRecords("request")
		srv, pn := bubbleServer(t, Options{Faults: Faults{Latency: latency}, Logger: logger})
		p := settledPayment(t, srv)
		// refund sends a refund through a client that gives up after
		// giveUpAfter; its outcome comes on the channel.
		refund := func(giveUpAfter time.Duration, value string) <-chan error {
			done := make(chan error, 1)
			hc := bubbleClient(t, pn, giveUpAfter)
			go func() { done <- refundPost(srv, hc, p.ID, value) }()
			return done
		}
		// servedAfter is how long after t0 each refund was made.
		servedAfter := func(t0 time.Time) map[string]time.Duration {
			refunds, err := srv.Store().RefundsOfPayment(p.ID)
			require.NoError(t, err)
			out := map[string]time.Duration{}
			for _, r := range refunds {
				out[r.Amount.Value.StringFixed(2)] = r.Created.Sub(t0)
			}
			return out
		}

		// Gone before the request reached the service: not served, ever.
		t0 := time.Now()
		err := <-refund(latency/5, "1.00")
		require.Error(t, err, "the client gave up")
		assert.Equal(t, latency/5, time.Since(t0))
		assert.Equal(t, "client gone", (<-requests)["outcome"], "the server is done with it")
		assert.Empty(t, refundedValues(t, srv, p.ID), "a client gone in the first half is never served")

		// Gone while the answer travels back: served all the same.
		t0 = time.Now()
		require.Error(t, <-refund(latency/2+latency/5, "2.00"), "the client gave up")
		assert.Equal(t, latency/2+latency/5, time.Since(t0), "before the answer came")
		assert.Equal(t, "client gone", (<-requests)["outcome"], "the server is done with it")
		assert.Equal(t, map[string]time.Duration{"2.00": latency / 2}, servedAfter(t0),
			"served once half the latency had passed; the service did it once, the client never heard")

		// A patient client gets its answer after the whole latency.
		t0 = time.Now()
		require.NoError(t, <-refund(5*latency, "3.00"))
		assert.Equal(t, latency, time.Since(t0), "not before the whole latency")
		assert.Equal(t, "200", (<-requests)["status"])
		assert.Equal(t, latency/2, servedAfter(t0)["3.00"], "served at half the latency")
		assert.Equal(t, []string{"2.00", "3.00"}, refundedValues(t, srv, p.ID))
	})
}

// Half of the dropped connections are dropped before the request is served,
// half after (the service did it, the answer is lost); the seed decides
// which, the same way every run.
func TestDropsBeforeAndAfterServing(t *testing.T) {
	run := func() []bool {
		srv := start(t, Options{Seed: 11, Faults: Faults{DropRate: 1}})
		p := settledPayment(t, srv)
		c := newClient(t, srv)
		var served []bool
		for i := range 16 {
			value := fmt.Sprintf("1.%02d", i+1)
			require.Error(t, refundPost(srv, c.hc, p.ID, value), "every connection is dropped")
			done := refundedValues(t, srv, p.ID)
			served = append(served, len(done) > 0 && done[len(done)-1] == value)
		}
		return served
	}
	a, b := run(), run()
	assert.Equal(t, a, b, "the same seed drops the same way")
	assert.Contains(t, a, true, "some dropped requests were served")
	assert.Contains(t, a, false, "some were not")
}

func TestSetFaultsChangesARunningSandbox(t *testing.T) {
	srv := start(t, Options{})
	c := newClient(t, srv)
	path := "/api/v2/stickers?merchantId=1001"
	c.want(200, "GET", path, nil, nil)

	require.NoError(t, srv.SetFaults(Faults{ErrorRate: 1}))
	assert.Equal(t, Faults{ErrorRate: 1}, srv.Faults())
	c.wantError(500, "internal_error", "", "GET", path, nil)

	require.NoError(t, srv.SetFaults(Faults{}))
	c.want(200, "GET", path, nil, nil)

	assert.Error(t, srv.SetFaults(Faults{ErrorRate: 0.7, DropRate: 0.7}))
	assert.Error(t, srv.SetFaults(Faults{Latency: -time.Second}))
	assert.True(t, srv.Faults().IsZero(), "a refused change changes nothing")
}
