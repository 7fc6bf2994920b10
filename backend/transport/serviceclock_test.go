package transport

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend/internal/testkit"
)

func dated(t time.Time) http.Header {
	return http.Header{"Date": {t.UTC().Format(http.TimeFormat)}}
}

var (
	laptop  = time.Date(2026, 3, 10, 9, 0, 0, 0, time.UTC)  // the laptop's (wrong) clock
	service = time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC) // the service's, three hours on
	half    = ServiceClockResolution / 2                    // where in its second a Date is taken to be
)

func TestServiceClockIsTheLocalClockUntilAnAnswerSaysOtherwise(t *testing.T) {
	local := testkit.NewClock(laptop)
	c := NewServiceClock(local.Now)
	assert.Equal(t, laptop, c.Now())

	c.Observe(http.Header{}) // no Date
	c.Observe(http.Header{"Date": {"yesterday, around noon"}})
	assert.Equal(t, laptop, c.Now(), "a missing or unreadable Date is ignored")

	c.Observe(dated(service))
	assert.Equal(t, service.Add(half), c.Now(), "the Date, in the middle of its second")
	local.Advance(70 * time.Minute)
	assert.Equal(t, service.Add(70*time.Minute+half), c.Now(), "plus the time elapsed since, on the local clock")
}

// The service's clock moved on (a tester advanced the sandbox's): the next
// answer moves the estimate with it; moved back (a reset), too.
func TestServiceClockFollowsTheServiceWhenItJumps(t *testing.T) {
	local := testkit.NewClock(laptop)
	c := NewServiceClock(local.Now)
	c.Observe(dated(service))
	local.Advance(10 * time.Second)
	c.Observe(dated(service.Add(10*time.Second + 70*time.Minute)))
	assert.Equal(t, service.Add(10*time.Second+70*time.Minute+half), c.Now())

	local.Advance(time.Minute)
	c.Observe(dated(service.Add(70 * time.Second))) // reset: back to real time
	assert.Equal(t, service.Add(70*time.Second+half), c.Now(), "a jump back of minutes is followed")
}

// Dates agreeing with the estimate (within their second) leave it alone,
// and one that would put it back by less than the resolution does not
// make it go backwards: it stands still until it catches up.
func TestServiceClockNeverGoesBackABit(t *testing.T) {
	local := testkit.NewClock(laptop)
	c := NewServiceClock(local.Now)
	c.Observe(dated(service))
	first := c.Now()
	local.Advance(400 * time.Millisecond)
	c.Observe(dated(service)) // still the same second: consistent
	assert.Equal(t, first.Add(400*time.Millisecond), c.Now(), "a consistent Date changes nothing")

	// The estimate says 12:00:00.900; an answer dated 11:59:59 says it is
	// ahead (the first Date was made late in its second).
	c.Observe(dated(service.Add(-time.Second)))
	now := c.Now()
	assert.Equal(t, first.Add(400*time.Millisecond), now, "not a step back")
	local.Advance(300 * time.Millisecond)
	assert.Equal(t, now, c.Now(), "it stands still while the new estimate is behind")
	local.Advance(2 * time.Second)
	assert.Equal(t, service.Add(-time.Second+half+2300*time.Millisecond), c.Now(), "then runs from the new one")

	// Behind: an answer dated later than the estimate moves it forward.
	c.Observe(dated(service.Add(5 * time.Second)))
	assert.Equal(t, service.Add(5*time.Second+half), c.Now())
	prev := c.Now()
	for k := range 50 {
		local.Advance(170 * time.Millisecond)
		// The service runs 3h 2.3s ahead of the laptop; each Date is
		// taken up to 0.4 s off (when in its second it was made, how long
		// it travelled), so that the estimate jitters around the truth.
		jitter := time.Duration(k%3-1) * 400 * time.Millisecond
		c.Observe(dated(local.Now().Add(3*time.Hour + 2300*time.Millisecond + jitter)))
		n := c.Now()
		assert.False(t, n.Before(prev), "%s went back from %s", n, prev)
		prev = n
	}
}

// The clock takes the location of the local clock, so that "today" is the
// local day of the service's time.
func TestServiceClockReadsInTheLocalClocksLocation(t *testing.T) {
	moscow := time.FixedZone("MSK", 3*3600)
	local := testkit.NewClock(laptop.In(moscow))
	c := NewServiceClock(local.Now)
	c.Observe(dated(service))
	assert.Equal(t, moscow, c.Now().Location())
	assert.True(t, c.Now().Equal(service.Add(half)))
}

// Watch shows every answer's headers, an error's too, and the client's
// answers still arrive whole.
func TestWatchSeesEveryAnswer(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Date", service.Format(http.TimeFormat))
		if r.URL.Path == "/missing" {
			http.NotFound(w, r)
			return
		}
		_, _ = w.Write([]byte("hello"))
	}))
	defer srv.Close()
	local := testkit.NewClock(laptop)
	c := NewServiceClock(local.Now)
	var seen []string
	var mu sync.Mutex
	hc := &http.Client{Transport: Watch(srv.Client().Transport, func(h http.Header) {
		mu.Lock()
		seen = append(seen, h.Get("Date"))
		mu.Unlock()
		c.Observe(h)
	})}
	for _, p := range []string{"/", "/missing"} {
		resp, err := hc.Get(srv.URL + p)
		require.NoError(t, err)
		_ = resp.Body.Close()
	}
	assert.Equal(t, []string{service.Format(http.TimeFormat), service.Format(http.TimeFormat)}, seen)
	assert.Equal(t, service.Add(half), c.Now())
	hc.CloseIdleConnections() // passed on
}
