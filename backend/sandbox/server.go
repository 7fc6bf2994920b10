package sandbox

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"paydash/backend/safefile"
)

// DefaultPayments is the number of payments `paydash sandbox` seeds by default.
const DefaultPayments = 100000

// Options configure a sandbox. The zero value is usable (an empty store on
// a random loopback port).
type Options struct {
	Addr            string           // default "127.0.0.1:0"; a non-loopback address is refused unless Public
	Public          bool             // allow a non-loopback Addr
	Seed            int64            // deterministic seed data; default 1
	Payments        int              // number of seeded payments (DefaultPayments for the default; 0 = none)
	Now             func() time.Time // store clock; nil = time.Now. The seed spans the 90 days before Now()
	SettleDelay     time.Duration    // how long new Pending payments/refunds stay pending; default 5s
	Arrivals        time.Duration    // if > 0, a new realistic payment arrives this often; default off
	CallbackBackoff time.Duration    // first retry delay of a failed callback, doubling, 5 retries; default 1s
	Faults          Faults           // injected on /api/ requests only
	Logger          *slog.Logger     // nil = discard
}

func (o Options) withDefaults() Options {
	if o.Addr == "" {
		o.Addr = "127.0.0.1:0"
	}
	if o.Seed == 0 {
		o.Seed = 1
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.SettleDelay <= 0 {
		o.SettleDelay = 5 * time.Second
	}
	if o.CallbackBackoff <= 0 {
		o.CallbackBackoff = time.Second
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Payments < 0 {
		o.Payments = 0
	}
	return o
}

// Info is what other tools need to use a running sandbox (the info file of
// `paydash sandbox --info-file`, README.md). Merchants was added beside
// MerchantIDs (kept for the tools that read it): the same merchants, in the
// same order, with their names.
type Info struct {
	BaseURL         string         `json:"baseUrl"`
	CAFile          string         `json:"caFile"`
	MerchantIDs     []string       `json:"merchantIds"`
	Merchants       []InfoMerchant `json:"merchants"`
	V2Token         string         `json:"v2Token"`
	V2ReadOnlyToken string         `json:"v2ReadOnlyToken"`
	V1Users         []V1User       `json:"v1Users"`
}

// InfoMerchant is one merchant of the info file: its id and its name.
type InfoMerchant struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// Server is a running sandbox: the store behind an HTTPS listener, with the
// settler, arrivals and callback deliveries running.
type Server struct {
	opts    Options
	store   *Store
	certs   *certs
	baseURL string
	srv     *http.Server
	idem    *idempotency
	nonces  *nonceStore
	deliver *deliverer
	faults  *faultInjector
	log     *slog.Logger

	cancel    context.CancelFunc
	wg        sync.WaitGroup
	closeOnce sync.Once
	closeErr  error

	mu     sync.Mutex
	caFile string
}

// isLoopbackHost accepts "localhost" and loopback IPs.
func isLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// Start builds and seeds the store and serves it over HTTPS until Close (or
// until ctx ends).
func Start(ctx context.Context, opts Options) (*Server, error) {
	opts = opts.withDefaults()
	host, err := checkStartOptions(opts)
	if err != nil {
		return nil, err
	}
	c, err := makeCerts(host)
	if err != nil {
		return nil, err
	}
	ln, baseURL, err := listen(opts.Addr)
	if err != nil {
		return nil, err
	}

	// The newest days are seeded before this returns, the rest in the
	// background; ctx ending (a signal) stops the seed.
	store, err := OpenStore(ctx, opts)
	if err != nil {
		_ = ln.Close()
		return nil, err
	}
	store.setBaseURL(baseURL)
	s := &Server{
		opts: opts, store: store, certs: c, baseURL: baseURL, log: opts.Logger,
		idem:    newIdempotency(store.Now),
		nonces:  newNonceStore(store.Now),
		deliver: newDeliverer(c.ca, opts.CallbackBackoff, opts.Logger),
		faults:  newFaultInjector(opts.Faults, opts.Seed),
	}
	store.setNotifier(s.deliver.send)
	s.srv = s.httpServer()
	s.run(ctx, tls.NewListener(ln, c.serverConfig()))
	s.log.Info("sandbox started", "baseUrl", baseURL, "payments", store.PaymentCount(), "faults", opts.Faults.String())
	return s, nil
}

// Check is what Start refuses before it starts anything: fault rates
// outside [0, 1] and, unless Public, an address that is not a loopback one.
func (o Options) Check() error {
	_, err := checkStartOptions(o.withDefaults())
	return err
}

// checkStartOptions refuses fault rates outside [0, 1] and, unless the
// sandbox is public, an address that is not a loopback one; it returns the
// address's host.
func checkStartOptions(opts Options) (host string, err error) {
	for _, r := range []float64{opts.Faults.ErrorRate, opts.Faults.DropRate, opts.Faults.MalformedRate} {
		if r < 0 || r > 1 || r != r {
			return "", fmt.Errorf("sandbox: fault rates must be between 0 and 1")
		}
	}
	host, _, err = net.SplitHostPort(opts.Addr)
	if err != nil {
		return "", fmt.Errorf("sandbox: address %q: %w", opts.Addr, err)
	}
	if !opts.Public && !isLoopbackHost(host) {
		return "", fmt.Errorf("sandbox: %q is not a loopback address; the sandbox listens on other addresses only when asked to be public", opts.Addr)
	}
	return host, nil
}

// listen listens on addr and returns the base URL clients use: an
// unspecified address (listening on all) is reached on 127.0.0.1.
func listen(addr string) (net.Listener, string, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, "", fmt.Errorf("sandbox: listen: %w", err)
	}
	tcp := ln.Addr().(*net.TCPAddr)
	ip := tcp.IP
	if ip.IsUnspecified() {
		ip = net.IPv4(127, 0, 0, 1)
	}
	return ln, "https://" + net.JoinHostPort(ip.String(), strconv.Itoa(tcp.Port)), nil
}

// httpServer is the HTTP server of the sandbox's routes.
func (s *Server) httpServer() *http.Server {
	return &http.Server{
		// Bodies are bounded in size and time per request (bodylimit.go),
		// not by ReadTimeout, which would also cancel slow handlers.
		// Every answer is dated by the store clock and announces the
		// sandbox (announce.go).
		Handler:           s.stampAnswers(s.limitBodies(s.routes())),
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(s.opts.Logger.Handler(), slog.LevelDebug),
		// HTTP/1.1 only: a dropped-connection fault hijacks the connection.
		TLSNextProto: map[string]func(*http.Server, *tls.Conn, http.Handler){},
	}
}

// run serves on ln and runs the settler (and the arrivals, if asked) until
// Close, which ctx ending calls.
func (s *Server) run(ctx context.Context, ln net.Listener) {
	runCtx, cancel := context.WithCancel(context.Background())
	s.cancel = cancel
	s.wg.Add(2)
	go func() {
		defer s.wg.Done()
		if err := s.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			s.log.Error("sandbox server stopped", "error", err.Error())
		}
	}()
	go func() {
		defer s.wg.Done()
		s.store.runSettler(runCtx)
	}()
	if s.opts.Arrivals > 0 {
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			s.store.runArrivals(runCtx, s.opts.Arrivals)
		}()
	}
	go func() {
		select {
		case <-ctx.Done():
			_ = s.Close()
		case <-runCtx.Done():
		}
	}()
}

// routes puts the interfaces together; faults apply to /api/ paths only.
func (s *Server) routes() http.Handler {
	root := http.NewServeMux()
	root.Handle("/api/v2/", s.v2Routes())
	root.HandleFunc("/api/v1/", s.v1)
	root.Handle("/_sandbox/", s.controlRoutes()) // testers' control, control.go
	s.pageRoutes(root)
	root.HandleFunc("/", notFoundJSON)
	// The request log wraps the fault injector, so that it logs what the
	// client got: an injected error, or a dropped connection.
	return s.logRequests(s.faults.wrap(root))
}

// BaseURL is "https://127.0.0.1:PORT".
func (s *Server) BaseURL() string { return s.baseURL }

// CertPool trusts the CA made at start (a new pool each call).
func (s *Server) CertPool() *x509.CertPool {
	p := x509.NewCertPool()
	p.AddCert(s.certs.ca)
	return p
}

// CACertPEM is the CA certificate in PEM.
func (s *Server) CACertPEM() []byte { return append([]byte(nil), s.certs.caPEM...) }

// Store is the sandbox's store.
func (s *Server) Store() *Store { return s.store }

// Info describes the running sandbox, with the v1 logins (both in account
// V1AccountID).
func (s *Server) Info() Info {
	s.mu.Lock()
	caFile := s.caFile
	s.mu.Unlock()
	merchants := s.store.Merchants()
	ids := make([]string, len(merchants))
	named := make([]InfoMerchant, len(merchants))
	for i, m := range merchants {
		ids[i], named[i] = m.ID, InfoMerchant{ID: m.ID, Name: m.Name}
	}
	return Info{
		BaseURL: s.baseURL, CAFile: caFile, MerchantIDs: ids, Merchants: named,
		V2Token: s.store.V2Token(), V2ReadOnlyToken: s.store.V2ReadOnlyToken(),
		V1Users: s.store.V1Users(),
	}
}

// WriteInfoFile writes the CA beside path ("<path without extension>-ca.pem"),
// then Info as JSON to path, both mode 600. Each is written to a temporary
// file in the same directory and renamed into place, so a reader polling for
// the file never sees half of it. Only a regular file or nothing is replaced
// (InfoFilePaths, infofile.go): anything else at either path is refused
// before either is written.
func (s *Server) WriteInfoFile(path string) error {
	abs, caPath, err := InfoFilePaths(path)
	if err != nil {
		return err
	}
	_, statErr := os.Lstat(caPath)
	caExisted := statErr == nil
	if err := writeAtomic(caPath, s.certs.caPEM, 0o600); err != nil {
		return err
	}
	s.mu.Lock()
	prevCA := s.caFile
	s.caFile = caPath
	s.mu.Unlock()
	b, err := json.MarshalIndent(s.Info(), "", "  ")
	if err == nil {
		err = writeAtomic(abs, append(b, '\n'), 0o600) // it holds credentials
	}
	if err != nil {
		if !caExisted {
			_ = os.Remove(caPath)
		}
		s.mu.Lock()
		s.caFile = prevCA
		s.mu.Unlock()
		return err
	}
	return nil
}

// writeAtomic puts data at path in one step, never through a symbolic
// link nor over anything but a regular file (safefile.WriteAtomic), with
// the path in the error.
func writeAtomic(path string, data []byte, perm os.FileMode) error {
	if err := safefile.WriteAtomic(path, data, perm); err != nil {
		return fmt.Errorf("sandbox: write %s: %w", path, err)
	}
	return nil
}

// Close stops the listener, the settler, arrivals and callback deliveries.
func (s *Server) Close() error {
	s.closeOnce.Do(func() {
		s.cancel()
		s.store.Stop() // releases requests waiting for the seed
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		if err := s.srv.Shutdown(ctx); err != nil {
			_ = s.srv.Close() // requests still running after the grace time
		}
		s.deliver.close()
		s.wg.Wait()
		s.log.Info("sandbox stopped", "baseUrl", s.baseURL)
	})
	return s.closeErr
}
