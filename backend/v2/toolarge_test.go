package v2_test

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend/transport"
	v2 "paydash/backend/v2"
)

// An answer larger than the client reads is its own, typed error, in words
// the user can act on: not a lost answer or a network failure, and not
// retried (the same question gets the same answer).
func TestAnswerLargerThanTheLimitIsTypedAndNotRetried(t *testing.T) {
	// The limit itself, and the client's behaviour at a smaller one (the
	// same code, with a thirty-second of the bytes).
	assert.EqualValues(t, 32<<20, v2.MaxAnswerBytes)
	const limit = 1 << 20
	huge := `{"items":[{"id":"` + strings.Repeat("x", limit) + `"}]}`
	for _, declared := range []bool{true, false} {
		t.Run("declared length "+strconv.FormatBool(declared), func(t *testing.T) {
			s := newServer(t, func(w http.ResponseWriter, r *http.Request, n int) {
				w.Header().Set("Content-Type", "application/json")
				if declared {
					w.Header().Set("Content-Length", strconv.Itoa(len(huge)))
				} else {
					w.(http.Flusher).Flush() // chunked: the size is found by reading
				}
				_, _ = w.Write([]byte(huge))
			})
			c := newClient(t, s)
			v2.SetAnswerLimit(c, limit)
			_, resp, err := c.Payments.List(context.Background(), v2.ListParams{MerchantID: "m1"})
			require.Error(t, err)
			assert.True(t, errors.Is(err, transport.ErrAnswerTooLarge), "%v", err)
			var tl *transport.TooLargeError
			require.True(t, errors.As(err, &tl))
			assert.EqualValues(t, limit, tl.Limit)
			assert.Contains(t, err.Error(), "the service's answer is larger than 1 MiB, more than paydash reads; choose a shorter period")
			assert.False(t, errors.Is(err, v2.ErrMalformedResponse))
			assert.Len(t, s.requests(), 1, "not retried")
			require.NotNil(t, resp)
			assert.Equal(t, http.StatusOK, resp.StatusCode)
		})
	}

	// At the limit exactly, it is read.
	atLimit := `{"items":[],"pad":"` + strings.Repeat("x", limit-len(`{"items":[],"pad":""}`)) + `"}`
	require.Len(t, atLimit, limit)
	s := newServer(t, reply(http.StatusOK, atLimit))
	c := newClient(t, s)
	v2.SetAnswerLimit(c, limit)
	_, _, err := c.Payments.List(context.Background(), v2.ListParams{MerchantID: "m1"})
	require.NoError(t, err)
}
