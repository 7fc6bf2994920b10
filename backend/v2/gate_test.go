package v2_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend/transport"
	v2 "paydash/backend/v2"
)

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// A 429 with Retry-After closes the gate the request's context carries for
// as long: the other readers under it (a period read in slices) wait too.
func TestRateLimitHoldsTheGateOfTheContext(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		n := 0
		hc := &http.Client{Transport: roundTripFunc(func(r *http.Request) (*http.Response, error) {
			n++
			resp := &http.Response{StatusCode: http.StatusOK, Header: http.Header{}, Request: r,
				Body: io.NopCloser(strings.NewReader(`{"items":[]}`))}
			if n == 1 {
				resp.StatusCode = http.StatusTooManyRequests
				resp.Header.Set("Retry-After", "7")
				resp.Body = io.NopCloser(strings.NewReader(`{"code":"rate_limited"}`))
			}
			return resp, nil
		})}
		c, err := v2.NewClient("https://pay.example.com", testToken, v2.WithHTTPClient(hc), v2.WithRetries(3, time.Millisecond))
		require.NoError(t, err)
		g := transport.NewGate(nil)
		start := time.Now()
		_, _, err = c.Payments.List(transport.WithGate(context.Background(), g), v2.ListParams{MerchantID: "m1"})
		require.NoError(t, err)
		assert.Equal(t, 2, n)
		assert.Equal(t, start.Add(7*time.Second), g.Until(), "the gate held for the Retry-After")
	})
}
