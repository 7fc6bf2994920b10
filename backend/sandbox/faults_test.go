package sandbox

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

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
		assert.GreaterOrEqual(t, time.Since(t0), 120*time.Millisecond)
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
