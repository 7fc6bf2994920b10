package sandbox

import (
	"bufio"
	"crypto/tls"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// shortBodyDeadline sets bodyReadTimeout for one test (no test of this
// package runs in parallel).
func shortBodyDeadline(t *testing.T, d time.Duration) {
	old := bodyReadTimeout
	bodyReadTimeout = d
	t.Cleanup(func() { bodyReadTimeout = old })
}

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

func TestSlowSenderIsCutOff(t *testing.T) {
	shortBodyDeadline(t, 300*time.Millisecond)
	srv := start(t, Options{Payments: 0})
	conn, err := tls.Dial("tcp", strings.TrimPrefix(srv.BaseURL(), "https://"), &tls.Config{RootCAs: srv.CertPool()})
	require.NoError(t, err)
	defer conn.Close()

	began := time.Now()
	_, err = fmt.Fprintf(conn, "POST /api/v2/payments HTTP/1.1\r\nHost: sandbox\r\nAuthorization: Bearer %s\r\n"+
		"Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n", srv.Store().V2Token())
	require.NoError(t, err)
	stop := make(chan struct{})
	defer close(stop)
	go func() { // one byte a second, until the connection is closed
		tick := time.NewTicker(time.Second)
		defer tick.Stop()
		for {
			if _, err := conn.Write([]byte("{")); err != nil {
				return
			}
			select {
			case <-tick.C:
			case <-stop:
				return
			}
		}
	}()

	require.NoError(t, conn.SetReadDeadline(time.Now().Add(5*time.Second)))
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, nil)
	require.NoError(t, err, "an answer, not a connection held open")
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	elapsed := time.Since(began)
	assert.Equal(t, http.StatusRequestTimeout, resp.StatusCode, string(body))
	var ae apiError
	require.NoError(t, json.Unmarshal(body, &ae), string(body))
	assert.Equal(t, "validation_error", ae.Code)
	assert.Contains(t, strings.Join(ae.Errors, " "), "did not arrive within 300ms")
	assert.Less(t, elapsed, 2*time.Second)

	// And the connection is closed: no second request on it.
	_, err = br.ReadByte()
	assert.Error(t, err)
}

// The body deadline is for the body only: a handler that takes longer
// (here held by a latency fault) still answers.
func TestBodyDeadlineDoesNotCutSlowAnswers(t *testing.T) {
	shortBodyDeadline(t, 200*time.Millisecond)
	srv := start(t, Options{Payments: 0, Faults: Faults{Latency: 700 * time.Millisecond}})
	c := newClient(t, srv)
	resp, b := c.call("POST", "/api/v2/payments", `{"merchantId":"1001"}`)
	assert.NotEqual(t, http.StatusRequestTimeout, resp.StatusCode, string(b))
	assert.Less(t, resp.StatusCode, 500, string(b))
}
