package main

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	gossh "golang.org/x/crypto/ssh"

	"paydash/backend/approval"
	"paydash/backend/pagecache"
	"paydash/backend/sandbox"
	"paydash/config"
	"paydash/serve"
	"paydash/team"
	"paydash/ui"
)

// The figures of paydash serve (docs/serve.md, "Speed"): the server runs
// in the test process as serveSession builds it (the shared session, the
// shared list pages, one dashboard per SSH session), on the embedded
// sandbox with 120,000 payments (about 10,000 of them in the merchant's
// last 30 days, the period shown); the people connect with
// golang.org/x/crypto/ssh clients asking for a 120×40 terminal.
//
//	go test -run '^$' -bench 'FiftySessions' -benchtime 20x .
//
// Each benchmark measures its baseline, one session, in the same run.

const (
	benchPayments = 120_000
	benchSessions = 50
	benchMerchant = "1001"
)

// BenchmarkFiftySessionsKeyRoundTrip: a key press (j and k in turn, in the
// payments list) from its write at the SSH client to the first bytes of
// output after it, the frame that answers it. Every session presses its
// key once a round, b.N rounds; p50 and p99 are over all the presses. In
// "at-once" every session presses at the same moment (the worst case); in
// "spread" their presses are spread evenly over 100 ms, as 50 people
// each pressing ten keys a second would be.
func BenchmarkFiftySessionsKeyRoundTrip(b *testing.B) {
	for _, c := range []struct {
		n      int
		spread time.Duration
	}{{1, 0}, {benchSessions, 0}, {benchSessions, 100 * time.Millisecond}} {
		n, spread := c.n, c.spread
		name := fmt.Sprintf("sessions=%d", n)
		if n > 1 {
			name += map[bool]string{true: ",spread", false: ",at-once"}[spread > 0]
		}
		b.Run(name, func(b *testing.B) {
			sb := startServeBench(b, n, time.Hour) // no refresh while measuring
			terms := sb.connectAll(b, n)
			sb.requests.still(time.Second, time.Minute) // the sessions' first requests are over
			var mu sync.Mutex
			var all []time.Duration
			before := sb.requests.snapshot()
			for round := 0; b.Loop(); round++ {
				key := []string{"j", "k"}[round%2]
				var wg sync.WaitGroup
				for i, tm := range terms {
					wg.Go(func() {
						time.Sleep(spread * time.Duration(i) / time.Duration(len(terms)))
						d := tm.roundTrip(b, key)
						mu.Lock()
						all = append(all, d)
						mu.Unlock()
					})
				}
				wg.Wait()
			}
			reportPercentiles(b, all)
			b.Logf("requests during the presses: %v", requestsSince(before, sb.requests.snapshot()))
		})
	}
}

// BenchmarkFiftySessionsMemory: the heap that 50 sessions, up and drawn,
// add to the server (the test's SSH clients and their screens included:
// an upper bound), per session; one session alone is the baseline.
func BenchmarkFiftySessionsMemory(b *testing.B) {
	for _, n := range []int{1, benchSessions} {
		b.Run(fmt.Sprintf("sessions=%d", n), func(b *testing.B) {
			var per float64
			for b.Loop() {
				sb := startServeBench(b, n, time.Hour)
				before := heapNow()
				terms := sb.connectAll(b, n)
				// Signed: with more than one iteration, what the one
				// before left may be freed meanwhile (run it with
				// -benchtime 1x).
				per = float64(int64(heapNow())-int64(before)) / float64(n)
				runtime.KeepAlive(terms)
				sb.close()
			}
			b.ReportMetric(per, "B/session")
		})
	}
}

// BenchmarkFiftySessionsListRequests: the list requests the service gets
// while 50 sessions watch the same merchant and period for a few refresh
// periods, over those of one session watching alone for as long.
func BenchmarkFiftySessionsListRequests(b *testing.B) {
	const refresh, periods = 2 * time.Second, 4
	for b.Loop() {
		lists, payments := map[int]int{}, map[int]int{}
		for _, n := range []int{1, benchSessions} {
			sb := startServeBench(b, n, refresh)
			sb.connectAll(b, n)
			<-time.After(periods * refresh) // the sessions watch for a while
			lists[n], payments[n] = sb.requests.lists(), sb.requests.payments()
			b.Logf("%d sessions, from their connecting to %d refresh periods later: %d list requests, %d of one payment; every request: %v",
				n, periods, lists[n], payments[n], sb.requests.snapshot())
			sb.close()
		}
		b.ReportMetric(float64(lists[benchSessions])/float64(max(lists[1], 1)), "list-ratio")
		b.ReportMetric(float64(lists[1]), "lists-1-session")
		b.ReportMetric(float64(lists[benchSessions]), "lists-50-sessions")
		b.ReportMetric(float64(payments[benchSessions])/float64(max(payments[1], 1)), "one-payment-ratio")
	}
}

// serveBench is a paydash serve in the test process.
type serveBench struct {
	addr     string
	srv      *serve.Server
	sess     *session
	store    *approval.Store
	keys     []gossh.Signer // of bench-0, bench-1, …
	requests *requestCount
	clients  []*gossh.Client
}

// startServeBench serves people people (bench-0 …) as serveSession does,
// on a new embedded sandbox whose requests are counted.
func startServeBench(b testing.TB, people int, refresh time.Duration) *serveBench {
	b.Helper()
	sb := &serveBench{requests: &requestCount{paths: map[string]int{}}}
	old := sandboxOptions
	sandboxOptions = sandbox.Options{Seed: 1, Payments: benchPayments, Logger: slog.New(sb.requests)}
	defer func() { sandboxOptions = old }()
	m, err := config.NewFakeMachine(b.TempDir())
	must(b, err)
	s, err := config.Load([]string{"--merchant", benchMerchant, "--refresh", refresh.String()}, m.System())
	must(b, err)
	now := time.Now()
	sb.sess, err = openSession(context.Background(), s, now)
	must(b, err)
	sb.sess.scope = ui.PresetScope(benchMerchant, ui.Preset30Days, now)
	dir := b.TempDir()
	peoplePath := filepath.Join(dir, "people.toml")
	must(b, os.WriteFile(peoplePath, []byte(sb.peopleFile(b, people)), 0o600))
	list, err := team.Load(peoplePath)
	must(b, err)
	sb.store, err = approval.Open(filepath.Join(dir, "approvals.jsonl"), approval.Options{TTL: time.Hour})
	must(b, err)
	shared := &teamShared{sess: sb.sess, people: team.NewDirectory(list), approvals: sb.store, locks: team.NewLocks(),
		lists: pagecache.New(sb.sess.backend, pagecache.Options{Epoch: sb.sess.refresh})}
	pem, _, err := serve.HostKey(filepath.Join(dir, "host_key"))
	must(b, err)
	sb.srv, err = serve.New(serve.Options{Addr: "127.0.0.1:0", HostKeyPEM: pem, People: shared.people,
		IdleTimeout: time.Hour, MaxSessions: people, MaxPerPerson: 1, Dashboard: shared.dashboard,
		Stop: func(why string) tea.Msg { return ui.ShutdownMsg{Signal: why} }})
	must(b, err)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	must(b, err)
	sb.addr = l.Addr().String()
	go func() { _ = sb.srv.Serve(l) }()
	b.Cleanup(sb.close)
	return sb
}

// peopleFile gives each person a key of their own, as supervisors.
func (sb *serveBench) peopleFile(b testing.TB, people int) string {
	var file strings.Builder
	for i := range people {
		_, priv, err := ed25519.GenerateKey(rand.Reader)
		must(b, err)
		signer, err := gossh.NewSignerFromKey(priv)
		must(b, err)
		sb.keys = append(sb.keys, signer)
		fmt.Fprintf(&file, "[[person]]\nname = \"bench-%d\"\nrole = \"supervisor\"\nkeys = [%q]\n\n", i,
			strings.TrimSpace(string(gossh.MarshalAuthorizedKey(signer.PublicKey()))))
	}
	return file.String()
}

// close ends the sessions, the server and the shared session; once.
func (sb *serveBench) close() {
	if sb.srv == nil {
		return
	}
	for _, c := range sb.clients {
		_ = c.Close()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_ = sb.srv.Shutdown(ctx)
	_ = sb.store.Close()
	_ = sb.sess.Close()
	sb.srv = nil
}

// connectAll connects n people at once and waits until each has drawn
// the merchant's payments.
func (sb *serveBench) connectAll(b testing.TB, n int) []*benchTerm {
	terms := make([]*benchTerm, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { terms[i], errs[i] = sb.connect(i) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			b.Fatalf("bench-%d: %v", i, err)
		}
		sb.clients = append(sb.clients, terms[i].client)
	}
	return terms
}

// benchTerm is one person's SSH session: its screen, and the time of the
// first output after the key last written.
type benchTerm struct {
	client *gossh.Client
	in     io.Writer
	screen *vt
	mu     sync.Mutex
	armed  bool
	sent   time.Time
	answer chan time.Duration
}

func (sb *serveBench) connect(i int) (*benchTerm, error) {
	c, err := gossh.Dial("tcp", sb.addr, &gossh.ClientConfig{User: fmt.Sprintf("bench-%d", i),
		Auth:            []gossh.AuthMethod{gossh.PublicKeys(sb.keys[i])},
		HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: e2eWait})
	if err != nil {
		return nil, err
	}
	tm := &benchTerm{client: c, screen: newVT(e2eCols, e2eRows), answer: make(chan time.Duration, 1)}
	sess, err := c.NewSession()
	if err == nil {
		err = sess.RequestPty("xterm-256color", e2eRows, e2eCols, gossh.TerminalModes{})
	}
	var out io.Reader
	if err == nil {
		tm.in, err = sess.StdinPipe()
	}
	if err == nil {
		out, err = sess.StdoutPipe()
	}
	if err == nil {
		go func() { _, _ = io.Copy(tm, out) }()
		err = sess.Shell()
	}
	if err == nil {
		err = tm.waitFor(func(sc string) bool { return strings.Contains(sc, "Payments") && strings.Contains(sc, "RUB") })
	}
	if err != nil {
		_ = c.Close()
		return nil, err
	}
	return tm, nil
}

// Write is the session's output: the first bytes after a key answer it.
func (tm *benchTerm) Write(p []byte) (int, error) {
	now := time.Now()
	tm.mu.Lock()
	if tm.armed {
		tm.armed = false
		tm.answer <- now.Sub(tm.sent)
	}
	tm.mu.Unlock()
	return tm.screen.Write(p)
}

// roundTrip waits until the screen is still, writes key and waits for
// the first output after it.
func (tm *benchTerm) roundTrip(b testing.TB, key string) time.Duration {
	tm.quiet(30 * time.Millisecond)
	tm.mu.Lock()
	tm.armed, tm.sent = true, time.Now()
	tm.mu.Unlock()
	if _, err := tm.in.Write([]byte(key)); err != nil {
		b.Errorf("typing %q: %v", key, err)
		return 0
	}
	select {
	case d := <-tm.answer:
		return d
	case <-time.After(e2eWait):
		b.Errorf("no answer to %q in %s; the screen:\n%s", key, e2eWait, tm.screen.Screen())
		return e2eWait
	}
}

// waitFor waits for a screen that ok accepts, at most e2eWait.
func (tm *benchTerm) waitFor(ok func(string) bool) error {
	deadline := time.NewTimer(e2eWait)
	defer deadline.Stop()
	for {
		changed := tm.screen.Changed()
		sc := tm.screen.Screen()
		if ok(sc) {
			return nil
		}
		select {
		case <-changed:
		case <-deadline.C:
			return fmt.Errorf("no payments after %s; the screen:\n%s", e2eWait, sc)
		}
	}
}

// quiet waits until nothing was drawn for d, at most a second.
func (tm *benchTerm) quiet(d time.Duration) { tm.screen.waitQuiet(d, time.Second) }

// requestCount is the sandbox's request log (its Logger), counted by
// method and path.
type requestCount struct {
	mu    sync.Mutex
	paths map[string]int
}

func (c *requestCount) Enabled(context.Context, slog.Level) bool { return true }
func (c *requestCount) WithAttrs([]slog.Attr) slog.Handler       { return c }
func (c *requestCount) WithGroup(string) slog.Handler            { return c }

func (c *requestCount) Handle(_ context.Context, r slog.Record) error {
	if r.Message != "request" {
		return nil
	}
	var method, path string
	r.Attrs(func(a slog.Attr) bool {
		switch a.Key {
		case "method":
			method = a.Value.String()
		case "path":
			path = a.Value.String()
		}
		return true
	})
	c.mu.Lock()
	c.paths[method+" "+path]++
	c.mu.Unlock()
	return nil
}

// lists counts the list requests: GET of a collection (/api/v2/payments,
// not /api/v2/payments/{id}) and the v1 interface's list calls.
func (c *requestCount) lists() int {
	return c.count(func(method, path string) bool {
		return strings.HasPrefix(path, "/api/v1/list") || (method == "GET" && strings.HasPrefix(path, "/api/v2/") && strings.Count(path, "/") == 3)
	})
}

// payments counts the requests for one payment (v2 and v1).
func (c *requestCount) payments() int {
	return c.count(func(method, path string) bool {
		return path == "/api/v1/getPayment" || (method == "GET" && strings.HasPrefix(path, "/api/v2/payments/"))
	})
}

func (c *requestCount) count(ok func(method, path string) bool) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for k, v := range c.paths {
		if method, path, _ := strings.Cut(k, " "); ok(method, path) {
			n += v
		}
	}
	return n
}

// total is every request so far.
func (c *requestCount) total() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, v := range c.paths {
		n += v
	}
	return n
}

// still waits until no request came for d, at most limit.
func (c *requestCount) still(d, limit time.Duration) {
	deadline := time.Now().Add(limit)
	for last := c.total(); time.Now().Before(deadline); {
		<-time.After(d)
		if now := c.total(); now == last {
			return
		} else {
			last = now
		}
	}
}

func (c *requestCount) snapshot() map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make(map[string]int, len(c.paths))
	for k, v := range c.paths {
		out[k] = v
	}
	return out
}

// requestsSince is what was requested between two snapshots.
func requestsSince(before, after map[string]int) map[string]int {
	out := map[string]int{}
	for k, v := range after {
		if v > before[k] {
			out[k] = v - before[k]
		}
	}
	return out
}

// heapNow is the live heap after a collection.
func heapNow() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// reportPercentiles reports p50 and p99 of the runs in milliseconds.
func reportPercentiles(b *testing.B, runs []time.Duration) {
	if len(runs) == 0 {
		return
	}
	slices.Sort(runs)
	at := func(q float64) float64 {
		return float64(runs[min(len(runs)-1, int(q*float64(len(runs))))].Microseconds()) / 1000
	}
	b.ReportMetric(at(0.50), "p50-ms")
	b.ReportMetric(at(0.99), "p99-ms")
	b.ReportMetric(float64(len(runs)), "presses")
}

func must(b testing.TB, err error) {
	b.Helper()
	if err != nil {
		b.Fatal(err)
	}
}
