package main

import (
	"runtime/pprof"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// A server runs for months: every goroutine a session starts (its
// program's event loop, renderer and input reader, the server's watcher,
// the SSH channel's handlers, the commands its tabs ran) must end with the
// session, or each login would leave some behind.

// sessionFrames are functions that run only for a session.
var sessionFrames = []string{
	"charm.land/bubbletea/v2.(*Program)",
	"paydash/serve.(*Server).run",
	"paydash/serve.(*Server).watch",
	"charm.land/ssh.(*session)",
	"paydash/ui.",
	"paydash/views",
}

// sessionGoroutines counts the goroutines whose stack has a session frame.
func sessionGoroutines() (int, string) {
	var all strings.Builder
	_ = pprof.Lookup("goroutine").WriteTo(&all, 2)
	n := 0
	var found []string
	for _, g := range strings.Split(all.String(), "\n\n") {
		for _, f := range sessionFrames {
			if strings.Contains(g, f) {
				n++
				found = append(found, g)
				break
			}
		}
	}
	return n, strings.Join(found, "\n\n")
}

func TestServeSessionsLeaveNoGoroutineBehind(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a sandbox of 120,000 payments")
	}
	sb := startServeBench(t, 3, time.Second)
	before, _ := sessionGoroutines()
	require.Zero(t, before, "no session yet")

	for round := range 2 {
		terms := sb.connectAll(t, 3)
		for _, tm := range terms {
			for _, key := range []string{"j", "6", "7", "0", "1", "\r"} {
				tm.roundTrip(t, key)
			}
		}
		during, _ := sessionGoroutines()
		require.Positive(t, during, "the sessions' goroutines are seen")
		for _, c := range sb.clients {
			require.NoError(t, c.Close())
		}
		sb.clients = nil

		// Wait for them to end, as long as an end-to-end wait at most.
		deadline := time.Now().Add(e2eWait)
		tick := time.NewTicker(20 * time.Millisecond)
		n, left := sessionGoroutines()
		for ; n > 0 && time.Now().Before(deadline); n, left = sessionGoroutines() {
			<-tick.C
		}
		tick.Stop()
		require.Zero(t, n, "round %d: goroutines left after every session ended:\n%s", round, left)
	}
}
