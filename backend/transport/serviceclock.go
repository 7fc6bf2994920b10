package transport

import (
	"net/http"
	"sync"
	"time"
)

// ServiceClockResolution is the resolution of the Date header (whole
// seconds, RFC 9110 §5.6.7).
const ServiceClockResolution = time.Second

// backStepHold is how far back a new estimate may fall behind the last
// reading before the clock follows it instead of standing still.
const backStepHold = 2 * ServiceClockResolution

// ServiceClock is the service's time as its answers tell it: the Date
// header of the latest answer that moved it, plus the time elapsed since it
// arrived on the local clock (a monotonic reading, when the local clock is
// time.Now). Before any answer with a readable Date, it is the local clock.
// A laptop's wrong clock, or a sandbox clock a tester moved on, changes
// nothing then. It is safe for concurrent use.
//
// Rounding. A Date names the second the answer was made in, truncated: the
// service's time was somewhere in [Date, Date+1s) when it was made, and a
// little later (the answer's way back) when it arrived. The estimate takes
// the middle of that second, Date+0.5s, which is off by at most half a
// second (plus the way back) either way, where Date alone would always be
// behind. A Date that agrees with the estimate (the estimate falls within
// its second) leaves it alone, so that answers in quick succession do not
// make it jitter; one that does not agree (the service's clock moved, or
// the estimate drifted) sets it anew.
//
// Never backwards, a bit. Setting it anew may put the estimate back by up
// to about a second through rounding alone. Now never goes back by less
// than backStepHold (2 s): it stands still at its last reading until the
// new estimate passes it. A step back larger than that is the service's
// clock moving back (a sandbox reset undoing an advance, a corrected
// clock) and is followed at once: holding on would be wrong for minutes.
type ServiceClock struct {
	local func() time.Time

	mu    sync.Mutex
	known bool      // an answer with a readable Date has arrived
	date  time.Time // the service's time (estimated) when it arrived
	at    time.Time // the local clock's reading then
	last  time.Time // the latest reading Now gave from the service's time
}

// NewServiceClock makes a service clock over the local clock local
// (time.Now when nil; tests give their own).
func NewServiceClock(local func() time.Time) *ServiceClock {
	if local == nil {
		local = time.Now
	}
	return &ServiceClock{local: local}
}

// Observe takes in the Date header of an answer that has just arrived. A
// missing or unreadable Date is ignored.
func (c *ServiceClock) Observe(h http.Header) {
	v := h.Get("Date")
	if v == "" {
		return
	}
	d, err := http.ParseTime(v)
	if err != nil {
		return
	}
	arrived := c.local()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.known {
		if e := c.date.Add(arrived.Sub(c.at)); !e.Before(d) && e.Before(d.Add(ServiceClockResolution)) {
			return // it agrees: leave the estimate alone
		}
	}
	c.known, c.date, c.at = true, d.Add(ServiceClockResolution/2), arrived
}

// Now is the service's time, in the location of the local clock's
// readings (so that its day is the local day).
func (c *ServiceClock) Now() time.Time {
	local := c.local()
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.known {
		return local
	}
	v := c.date.Add(local.Sub(c.at))
	if back := c.last.Sub(v); back > 0 && back < backStepHold {
		v = c.last
	}
	c.last = v
	return v.In(local.Location())
}

// Watch wraps next (http.DefaultTransport when nil) so that see is shown
// the headers of every answer as soon as they arrive, before its body is
// read: errors and refusals too, on every attempt. see must be quick and
// safe for concurrent use.
func Watch(next http.RoundTripper, see func(http.Header)) http.RoundTripper {
	if next == nil {
		next = http.DefaultTransport
	}
	return &watcher{next: next, see: see}
}

type watcher struct {
	next http.RoundTripper
	see  func(http.Header)
}

func (w *watcher) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := w.next.RoundTrip(req)
	if resp != nil {
		w.see(resp.Header)
	}
	return resp, err
}

// CloseIdleConnections passes http.Client.CloseIdleConnections on.
func (w *watcher) CloseIdleConnections() {
	if c, ok := w.next.(interface{ CloseIdleConnections() }); ok {
		c.CloseIdleConnections()
	}
}
