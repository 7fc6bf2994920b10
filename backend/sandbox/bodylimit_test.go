package sandbox

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestOversizeBodyIs413(t *testing.T) {
	srv := start(t, Options{Payments: 0})
	c := newClient(t, srv)
	big := `{"merchantId":"1001","description":"` + strings.Repeat("x", maxRequestBody) + `"}`

	// With a Content-Length: refused before reading.
	e := c.wantError(http.StatusRequestEntityTooLarge, "validation_error", "larger than", "POST", "/api/v2/payments", big)
	assert.Contains(t, strings.Join(e.Errors, " "), "1 MiB")

	// Chunked (no length given): cut off at the limit.
	req, err := http.NewRequest("POST", c.base+"/api/v2/payments", io.MultiReader(strings.NewReader(big)))
	require.NoError(t, err)
	req.ContentLength = -1
	req.Header.Set("Authorization", "Bearer "+c.token)
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.hc.Do(req)
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	require.Equal(t, http.StatusRequestEntityTooLarge, resp.StatusCode, string(body))
	var ae apiError
	require.NoError(t, json.Unmarshal(body, &ae), string(body))
	assert.Equal(t, "validation_error", ae.Code)

	// Without a token too: the size is checked before anything else.
	c.token = ""
	c.wantError(http.StatusRequestEntityTooLarge, "validation_error", "larger than", "POST", "/api/v2/invoices", big)

	// A body at the limit is read and handed on (here: refused as JSON
	// for its own reasons, not for its size).
	c.token = srv.Store().V2Token()
	atLimit := `{"merchantId":"1001","x":"` + strings.Repeat("y", maxRequestBody-40) + `"}`
	resp2, b := c.call("POST", "/api/v2/payments", atLimit)
	assert.NotEqual(t, http.StatusRequestEntityTooLarge, resp2.StatusCode, string(b))
}

func TestOversizeV1FormIsAV1Error(t *testing.T) {
	srv := start(t, Options{Payments: 0})
	c := newV1Client(t, srv, "accountant")
	env := c.wantCode(v1ErrUnknown, "larger than", v1Req{method: http.MethodPost, op: "getPayment",
		params: []string{"PaymentID", "1", "Padding", strings.Repeat("z", maxRequestBody)}})
	assert.Contains(t, env.Message, "1 MiB")
}

// In a synctest bubble (bubble_test.go): the real 30 s deadline, on the
// bubble's clock, so the answer comes exactly when the deadline passes,
// however loaded the machine.
func TestSlowSenderIsCutOff(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, pn := bubbleServer(t, Options{})
		conn, err := pn.dial(t.Context(), "", "")
		require.NoError(t, err)
		defer conn.Close()

		began := time.Now()
		stop := make(chan struct{})
		defer close(stop)
		go func() { // the headers, then one byte of the body a second until the connection is closed
			_, err := fmt.Fprintf(conn, "POST /api/v2/payments HTTP/1.1\r\nHost: sandbox\r\nAuthorization: Bearer %s\r\n"+
				"Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n", srv.Store().V2Token())
			tick := time.NewTicker(time.Second)
			defer tick.Stop()
			for err == nil {
				_, err = conn.Write([]byte("{"))
				select {
				case <-tick.C:
				case <-stop:
					return
				}
			}
		}()

		br := bufio.NewReader(conn)
		resp, err := http.ReadResponse(br, nil)
		require.NoError(t, err, "an answer, not a connection held open")
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		assert.Equal(t, bodyReadTimeout, time.Since(began), "the body's deadline, counted from its headers")
		assert.Equal(t, http.StatusRequestTimeout, resp.StatusCode, string(body))
		var ae apiError
		require.NoError(t, json.Unmarshal(body, &ae), string(body))
		assert.Equal(t, "validation_error", ae.Code)
		assert.Contains(t, strings.Join(ae.Errors, " "), "did not arrive within 30s")

		// And the connection is closed: no second request on it.
		_, err = br.ReadByte()
		assert.Error(t, err)
	})
}

// The body deadline is for the body only: a handler that takes longer
// (here held by a latency fault three times the deadline) still answers.
func TestBodyDeadlineDoesNotCutSlowAnswers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const latency = 3 * bodyReadTimeout
		srv, pn := bubbleServer(t, Options{Faults: Faults{Latency: latency}})
		req, err := http.NewRequest("POST", srv.BaseURL()+"/api/v2/payments", strings.NewReader(`{"merchantId":"1001"}`))
		require.NoError(t, err)
		req.Header.Set("Authorization", "Bearer "+srv.Store().V2Token())
		req.Header.Set("Content-Type", "application/json")
		t0 := time.Now()
		resp, err := bubbleClient(t, pn, 0).Do(req)
		require.NoError(t, err)
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		assert.Equal(t, latency, time.Since(t0), "answered after the whole latency")
		assert.NotEqual(t, http.StatusRequestTimeout, resp.StatusCode, string(b))
		assert.Less(t, resp.StatusCode, 500, string(b))
	})
}
