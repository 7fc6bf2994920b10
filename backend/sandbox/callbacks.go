package sandbox

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Callbacks (spec part 6). The store queues a notification under its lock
// when a payment or token changes status; the deliverer sends it afterwards,
// each in its own goroutine, retrying with doubling backoff. The sandbox runs
// on people's machines with seeded addresses of real-looking merchants, so it
// delivers only to loopback hosts: anything else is logged and dropped before
// a connection is even tried, and the dialer refuses non-loopback addresses
// again after name resolution (no proxies, no redirects).

// callbackRetries is how many times a failed callback is tried again.
const callbackRetries = 5

type notification struct {
	URL  string
	Body []byte
	What string // "payment 43000001 Settled", for the log
}

// notePayment queues the payment's status notification (under the lock).
func (s *Store) notePayment(p *Payment) {
	u := p.CallbackURL()
	if u == "" || s.notifier == nil {
		return
	}
	body, _ := json.Marshal(renderPaymentNotification(p))
	s.outbox = append(s.outbox, notification{URL: u, Body: body, What: "payment " + p.ID + " " + string(p.Status)})
}

// noteToken queues the token's status notification (under the lock).
func (s *Store) noteToken(t *PaymentToken) {
	if t.Protocol == nil || t.Protocol.CallbackURL == "" || s.notifier == nil {
		return
	}
	body, _ := json.Marshal(wireTokenNotification{ID: t.ID, Status: t.Status, Title: t.Title, Expires: t.Expires})
	s.outbox = append(s.outbox, notification{URL: t.Protocol.CallbackURL, Body: body, What: "payment token " + t.ID + " " + string(t.Status)})
}

// checkCallbackURL allows http(s) to loopback hosts only.
func checkCallbackURL(raw string) error {
	u, err := url.Parse(raw)
	if err != nil {
		return fmt.Errorf("not a URL")
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return fmt.Errorf("scheme %q is not http or https", u.Scheme)
	}
	host := u.Hostname()
	if strings.EqualFold(host, "localhost") {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("host %q is not a loopback address; the sandbox never contacts other hosts", host)
}

type deliverer struct {
	client  *http.Client
	backoff time.Duration
	log     *slog.Logger

	ctx    context.Context
	cancel context.CancelFunc
	mu     sync.Mutex
	closed bool
	wg     sync.WaitGroup
}

func newDeliverer(ca *x509.Certificate, backoff time.Duration, log *slog.Logger) *deliverer {
	roots, err := x509.SystemCertPool()
	if err != nil || roots == nil {
		roots = x509.NewCertPool()
	}
	if ca != nil {
		roots.AddCert(ca)
	}
	dialer := &net.Dialer{
		Timeout: 5 * time.Second,
		// Checked on the resolved address, just before connecting.
		Control: func(_, address string, _ syscall.RawConn) error {
			host, _, err := net.SplitHostPort(address)
			if ip := net.ParseIP(host); err != nil || ip == nil || !ip.IsLoopback() {
				return fmt.Errorf("callback connection to %s refused: not a loopback address", address)
			}
			return nil
		},
	}
	transport := &http.Transport{
		Proxy:               nil, // a proxy would carry the request elsewhere
		DialContext:         dialer.DialContext,
		TLSClientConfig:     &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12},
		TLSHandshakeTimeout: 5 * time.Second,
		MaxIdleConns:        10,
		IdleConnTimeout:     30 * time.Second,
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &deliverer{
		client: &http.Client{
			Transport:     transport,
			Timeout:       10 * time.Second,
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		},
		backoff: backoff,
		log:     log,
		ctx:     ctx,
		cancel:  cancel,
	}
}

// send starts delivering n; it never blocks.
func (d *deliverer) send(n notification) {
	if err := checkCallbackURL(n.URL); err != nil {
		d.log.Info("callback dropped", "what", n.What, "url", n.URL, "reason", err.Error())
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		return
	}
	d.wg.Add(1)
	go d.run(n)
}

func (d *deliverer) run(n notification) {
	defer d.wg.Done()
	delay := d.backoff
	for attempt := 0; attempt <= callbackRetries; attempt++ {
		if attempt > 0 {
			t := time.NewTimer(delay)
			select {
			case <-d.ctx.Done():
				t.Stop()
				return
			case <-t.C:
			}
			delay *= 2
		}
		err := d.post(n)
		if err == nil {
			d.log.Debug("callback delivered", "what", n.What, "url", n.URL, "attempt", attempt+1)
			return
		}
		if d.ctx.Err() != nil {
			return
		}
		d.log.Info("callback failed", "what", n.What, "url", n.URL, "attempt", attempt+1, "error", err.Error())
	}
	d.log.Warn("callback given up", "what", n.What, "url", n.URL, "attempts", callbackRetries+1)
}

func (d *deliverer) post(n notification) error {
	req, err := http.NewRequestWithContext(d.ctx, http.MethodPost, n.URL, bytes.NewReader(n.Body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "paydash-sandbox-callbacks/1")
	resp, err := d.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10)) // lets the connection be reused
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return errors.New("receiver answered " + resp.Status)
	}
	return nil
}

// close stops new deliveries, cancels the running ones and waits for them.
func (d *deliverer) close() {
	d.mu.Lock()
	d.closed = true
	d.mu.Unlock()
	d.cancel()
	d.wg.Wait()
	d.client.CloseIdleConnections()
}
