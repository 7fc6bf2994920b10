package main

import (
	"bytes"
	"context"
	"crypto/x509"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	v2 "paydash/backend/v2"
)

// longWait bounds the waits for what a correct program does in well under
// a second: a hang guard no loaded machine reaches, never a speed test
// (those are benchmarks).
const longWait = time.Minute

// syncBuffer lets the test read what the command prints while it runs.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}
func (s *syncBuffer) String() string { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

func TestSandboxCommandWritesAWorkingInfoFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sandbox.json")
	ctx, cancel := context.WithCancel(context.Background())
	var stdout, stderr syncBuffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"sandbox", "--info-file", path, "--payments", "500", "--seed", "3"}, &stdout, &stderr)
	}()

	var info struct {
		BaseURL     string   `json:"baseUrl"`
		CAFile      string   `json:"caFile"`
		MerchantIDs []string `json:"merchantIds"`
		Merchants   []struct {
			ID   string `json:"id"`
			Name string `json:"name"`
		} `json:"merchants"`
		V2Token         string `json:"v2Token"`
		V2ReadOnlyToken string `json:"v2ReadOnlyToken"`
		V1Users         []any  `json:"v1Users"`
	}
	require.Eventually(t, func() bool {
		raw, err := os.ReadFile(path)
		return err == nil && json.Unmarshal(raw, &info) == nil
	}, longWait, 20*time.Millisecond, "the info file appears once the sandbox is ready")
	assert.True(t, strings.HasPrefix(info.BaseURL, "https://127.0.0.1:"))
	require.NotEmpty(t, info.MerchantIDs)
	// The merchants with their names, beside their ids.
	require.Len(t, info.Merchants, len(info.MerchantIDs))
	for i, m := range info.Merchants {
		assert.Equal(t, info.MerchantIDs[i], m.ID)
		assert.NotEmpty(t, m.Name, "merchant %s has a name", m.ID)
	}
	assert.Equal(t, "Daily Grind Coffee", info.Merchants[0].Name)
	assert.NotEmpty(t, info.V2ReadOnlyToken)
	assert.NotNil(t, info.V1Users)

	// The credentials in it work, trusting only the CA file it names.
	pem, err := os.ReadFile(info.CAFile)
	require.NoError(t, err)
	pool := x509.NewCertPool()
	require.True(t, pool.AppendCertsFromPEM(pem))
	client, err := v2.NewClient(info.BaseURL, info.V2Token, v2.WithRootCAs(pool))
	require.NoError(t, err)
	page, _, err := client.Payments.List(ctx, v2.ListParams{
		MerchantID: info.MerchantIDs[0], Start: time.Now().AddDate(0, 0, -91), End: time.Now().Add(time.Hour)})
	require.NoError(t, err)
	assert.NotEmpty(t, page.Items)
	assert.Contains(t, stdout.String(), info.BaseURL)
	require.Eventually(t, func() bool { return strings.Contains(stdout.String(), "Volt Electronics") },
		longWait, 10*time.Millisecond, "the output names the merchants:\n%s", stdout.String())
	assert.Contains(t, stdout.String(), "\n  merchants       1001 Daily Grind Coffee\n                  1002 Page Turner Books\n")

	cancel()
	select {
	case code := <-done:
		assert.Equal(t, 0, code, stderr.String())
	case <-time.After(longWait):
		t.Fatal("the sandbox did not stop when interrupted")
	}
}

func TestCommandLine(t *testing.T) {
	var out, errb bytes.Buffer
	assert.Equal(t, 0, run(context.Background(), []string{"version"}, &out, &errb))
	assert.Contains(t, out.String(), "paydash ")

	out.Reset()
	assert.Equal(t, 2, run(context.Background(), []string{"frobnicate"}, &out, &errb))
	assert.Contains(t, errb.String(), `unknown command "frobnicate"`)

	errb.Reset()
	assert.Equal(t, 2, run(context.Background(), []string{"sandbox", "--faults", "latency=fast"}, &out, &errb))
	assert.Contains(t, errb.String(), "--faults")

	out.Reset()
	assert.Equal(t, 0, run(context.Background(), []string{"sandbox", "--help"}, &out, &errb))
	assert.Contains(t, out.String(), "--info-file PATH")
}
