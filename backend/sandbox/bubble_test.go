package sandbox

import (
	"context"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/require"
)

// A sandbox inside a testing/synctest bubble, for tests about time (latency
// faults, client timeouts): its routes, fault injector and store as Start
// puts them together, served by a real net/http server to real net/http
// clients, but over in-memory pipes and in plain HTTP. A goroutine blocked
// on a socket is never durably blocked, so a loopback listener would keep
// the bubble's clock from moving; over pipes every wait is on the bubble's
// fake clock, and a test says "after 500 ms" exactly, whatever the load of
// the machine. Not here: TLS, the settler, callbacks.

// pipeNet is a net.Listener whose connections are net.Pipe pairs made by
// its dial.
type pipeNet struct {
	conns     chan net.Conn
	closed    chan struct{}
	closeOnce sync.Once
}

func newPipeNet() *pipeNet {
	return &pipeNet{conns: make(chan net.Conn), closed: make(chan struct{})}
}

func (n *pipeNet) Accept() (net.Conn, error) {
	select {
	case c := <-n.conns:
		return c, nil
	case <-n.closed:
		return nil, net.ErrClosed
	}
}

func (n *pipeNet) Close() error {
	n.closeOnce.Do(func() { close(n.closed) })
	return nil
}

func (n *pipeNet) Addr() net.Addr { return pipeAddr{} }

// dial is an http.Transport's DialContext: a new pipe, its other end
// handed to Accept.
func (n *pipeNet) dial(ctx context.Context, _, _ string) (net.Conn, error) {
	server, client := net.Pipe()
	select {
	case n.conns <- server:
		return client, nil
	case <-ctx.Done():
		err := ctx.Err()
		_ = server.Close()
		_ = client.Close()
		return nil, err
	case <-n.closed:
		_ = server.Close()
		_ = client.Close()
		return nil, net.ErrClosed
	}
}

type pipeAddr struct{}

func (pipeAddr) Network() string { return "pipe" }
func (pipeAddr) String() string  { return "pipe" }

// bubbleServer serves a sandbox in the calling synctest bubble until the
// test ends. Its store's clock is the bubble's (time.Now there), which
// starts at 2000-01-01.
func bubbleServer(t *testing.T, opts Options) (*Server, *pipeNet) {
	t.Helper()
	opts = opts.withDefaults()
	store := NewStore(opts)
	s := &Server{
		opts: opts, store: store, baseURL: "http://sandbox.test", log: opts.Logger,
		idem:   newIdempotency(store.Now),
		nonces: newNonceStore(store.Now),
		faults: newFaultInjector(opts.Faults, opts.Seed),
	}
	pn := newPipeNet()
	hs := &http.Server{Handler: s.limitBodies(s.routes())}
	served := make(chan struct{})
	go func() {
		defer close(served)
		_ = hs.Serve(pn)
	}()
	t.Cleanup(func() {
		_ = hs.Close()
		<-served
	})
	return s, pn
}

// bubbleClient is an http.Client of a bubbleServer that gives up after
// timeout (0: never).
func bubbleClient(t *testing.T, pn *pipeNet, timeout time.Duration) *http.Client {
	tr := &http.Transport{DialContext: pn.dial}
	t.Cleanup(tr.CloseIdleConnections)
	return &http.Client{Transport: tr, Timeout: timeout}
}

// loggedRecords is a logger that sends the attributes of each record with
// message msg on the returned channel, as the record is written: a test
// waits on it for the event the record tells of (a request done, a payment
// arrived), never on the clock.
func loggedRecords(msg string) (*slog.Logger, <-chan map[string]string) {
	ch := make(chan map[string]string, 64)
	return slog.New(recordHandler{msg: msg, ch: ch}), ch
}

type recordHandler struct {
	msg string
	ch  chan map[string]string
}

func (h recordHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h recordHandler) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h recordHandler) WithGroup(string) slog.Handler            { return h }

func (h recordHandler) Handle(_ context.Context, r slog.Record) error {
	if r.Message != h.msg {
		return nil
	}
	attrs := map[string]string{}
	r.Attrs(func(a slog.Attr) bool {
		attrs[a.Key] = a.Value.String()
		return true
	})
	h.ch <- attrs
	return nil
}

// The pipes carry a whole round trip, and time in the bubble passes only
// when everything waits.
func TestBubbleServerServes(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv, pn := bubbleServer(t, Options{})
		hc := bubbleClient(t, pn, 0)
		req, err := http.NewRequest("GET", srv.BaseURL()+"/api/v2/stickers?merchantId=1001", nil)
		require.NoError(t, err)
		req.Header.Set("Authorization", "Bearer "+srv.Store().V2Token())
		t0 := time.Now()
		resp, err := hc.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		require.Equal(t, http.StatusOK, resp.StatusCode)
		require.Zero(t, time.Since(t0), "no fault, no time")
	})
}
