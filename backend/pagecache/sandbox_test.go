package pagecache

import (
	"context"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend"
	"paydash/backend/sandbox"
)

// requestCounter counts the sandbox's request log lines whose path holds
// a word.
type requestCounter struct {
	word string
	mu   sync.Mutex
	n    int
}

func (h *requestCounter) Enabled(context.Context, slog.Level) bool { return true }
func (h *requestCounter) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h *requestCounter) WithGroup(string) slog.Handler            { return h }
func (h *requestCounter) Handle(_ context.Context, r slog.Record) error {
	if r.Message != "request" {
		return nil
	}
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == "path" && strings.Contains(a.Value.String(), h.word) {
			h.mu.Lock()
			h.n++
			h.mu.Unlock()
		}
		return true
	})
	return nil
}

func (h *requestCounter) count() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.n
}

// Two sessions read the first pages of a merchant's 90 days over HTTPS
// from the embedded sandbox: the sandbox sees each page once.
func TestTwoSessionsOverTheSandboxReadEachPageOnce(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	started := time.Now()
	counter := &requestCounter{word: "/payments"}
	srv, err := sandbox.Start(ctx, sandbox.Options{
		Seed: 7, Payments: 3000, Now: func() time.Time { return started }, Logger: slog.New(counter),
	})
	require.NoError(t, err)
	info := srv.Info()
	b, err := backend.Open(backend.Config{
		BaseURL: srv.BaseURL(), RootCAs: srv.CertPool(), V2Token: info.V2Token,
		MerchantIDs: info.MerchantIDs, Sandbox: true,
	})
	require.NoError(t, err)
	c := New(b, Options{Now: func() time.Time { return started }, Epoch: time.Minute})

	q := backend.PeriodQuery{MerchantID: info.MerchantIDs[0], Start: started.AddDate(0, 0, -91), End: started.Add(time.Minute)}
	const pages = 3
	var sessions [2][]backend.Payment
	for s := range sessions {
		q.End = q.End.Add(time.Second) // each session's own rolling end
		p := c.ListPayments(q)
		for range pages {
			page, err := p.Next(ctx)
			require.NoError(t, err)
			require.False(t, page.Done, "the test wants %d full pages", pages)
			sessions[s] = append(sessions[s], page.Items...)
		}
	}
	require.NoError(t, srv.Close()) // its request log is written once every handler is done
	assert.NotEmpty(t, sessions[0])
	assert.Equal(t, sessions[0], sessions[1])
	assert.Equal(t, pages, counter.count(), "the sandbox saw one request a page")
	assert.Equal(t, int64(pages), c.Stats().Service)
}
