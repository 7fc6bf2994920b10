package sandbox

import (
	"bytes"
	"container/list"
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
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Callbacks (docs/service.md, Amounts and bodies). The store queues a
// notification under its lock when a payment or token changes status; the
// deliverer sends it afterwards, each in its own goroutine, retrying with
// doubling backoff. The sandbox runs on people's machines with seeded
// addresses of real-looking merchants, so it delivers only to loopback hosts:
// anything else is logged and dropped before a connection is even tried, and
// the dialer refuses non-loopback addresses again after name resolution (no
// proxies, no redirects).
//
// Every delivery has an id ("cb_1", "cb_2", ... in the order they start; a
// retry keeps its delivery's id) that the log shows. The deliverer keeps the
// last notification sent for each of the callbackHistory objects most
// recently notified, so that POST /_sandbox/callbacks/{id}/resend (control.go)
// can send it again, {id} being the payment's or payment token's id.

// callbackRetries is how many times a failed callback is tried again.
const callbackRetries = 5

// callbackHistory is how many objects' last notifications are kept for a
// resend (a few hundred bytes each).
const callbackHistory = 10000

type notification struct {
	URL    string
	Body   []byte
	What   string // "payment 43000001 Settled", for the log
	Object string // the payment's or token's id
	ID     string // the delivery id, given when the delivery starts
}

// notePayment queues the payment's status notification (under the lock).
func (s *Store) notePayment(p *Payment) {
	u := p.CallbackURL()
	if u == "" || s.notifier == nil {
		return
	}
	body, _ := json.Marshal(renderPaymentNotification(p))
	s.outbox = append(s.outbox, notification{URL: u, Body: body, What: "payment " + p.ID + " " + string(p.Status), Object: p.ID})
}

// noteToken queues the token's status notification (under the lock).
func (s *Store) noteToken(t *PaymentToken) {
	if t.Protocol == nil || t.Protocol.CallbackURL == "" || s.notifier == nil {
		return
	}
	body, _ := json.Marshal(wireTokenNotification{ID: t.ID, Status: t.Status, Title: t.Title, Expires: t.Expires})
	s.outbox = append(s.outbox, notification{URL: t.Protocol.CallbackURL, Body: body, What: "payment token " + t.ID + " " + string(t.Status), Object: t.ID})
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

	mu      sync.Mutex
	ctx     context.Context // the deliveries' context; reset replaces it
	cancel  context.CancelFunc
	closed  bool
	seq     int64                    // delivery ids
	last    map[string]*list.Element // object id -> its element in order
	order   *list.List               // of notification, least recently notified object first
	running sync.WaitGroup
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
		last:    map[string]*list.Element{},
		order:   list.New(),
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
	d.remember(n)
	d.start(n)
}

// resend delivers the last notification sent for the object again, as a new
// delivery; it reports false if none is known.
func (d *deliverer) resend(object string) (notification, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	e, ok := d.last[object]
	if !ok || d.closed {
		return notification{}, false
	}
	n := e.Value.(notification)
	return d.start(n), true
}

// start gives n a delivery id and runs it (under mu).
func (d *deliverer) start(n notification) notification {
	d.seq++
	n.ID = "cb_" + strconv.FormatInt(d.seq, 10)
	d.running.Add(1)
	go d.run(d.ctx, n)
	return n
}

// remember keeps n as its object's last notification (under mu), forgetting
// the least recently notified object beyond callbackHistory.
func (d *deliverer) remember(n notification) {
	if n.Object == "" {
		return
	}
	if e, ok := d.last[n.Object]; ok {
		e.Value = n
		d.order.MoveToBack(e)
		return
	}
	d.last[n.Object] = d.order.PushBack(n)
	for d.order.Len() > callbackHistory {
		old := d.order.Remove(d.order.Front()).(notification)
		delete(d.last, old.Object)
	}
}

// reset cancels the deliveries under way (their retries included) and
// forgets every notification sent: the objects they were about are gone
// (POST /_sandbox/reset).
func (d *deliverer) reset() {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.cancel()
	d.ctx, d.cancel = context.WithCancel(context.Background())
	clear(d.last)
	d.order.Init()
}

func (d *deliverer) run(ctx context.Context, n notification) {
	defer d.running.Done()
	delay := d.backoff
	for attempt := 0; attempt <= callbackRetries; attempt++ {
		if attempt > 0 {
			t := time.NewTimer(delay)
			select {
			case <-ctx.Done():
				t.Stop()
				return
			case <-t.C:
			}
			delay *= 2
		}
		err := d.postCtx(ctx, n)
		if err == nil {
			d.log.Info("callback delivered", "delivery", n.ID, "what", n.What, "url", n.URL, "attempt", attempt+1)
			return
		}
		if ctx.Err() != nil {
			return
		}
		d.log.Info("callback failed", "delivery", n.ID, "what", n.What, "url", n.URL, "attempt", attempt+1, "error", err.Error())
	}
	d.log.Warn("callback given up", "delivery", n.ID, "what", n.What, "url", n.URL, "attempts", callbackRetries+1)
}

// post sends n once, within the deliveries' current context.
func (d *deliverer) post(n notification) error {
	d.mu.Lock()
	ctx := d.ctx
	d.mu.Unlock()
	return d.postCtx(ctx, n)
}

func (d *deliverer) postCtx(ctx context.Context, n notification) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, n.URL, bytes.NewReader(n.Body))
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
	d.cancel()
	d.mu.Unlock()
	d.running.Wait()
	d.client.CloseIdleConnections()
}
