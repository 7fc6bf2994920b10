package pagecache

import (
	"sync"
	"testing"
	"time"

	"paydash/backend"
)

// BenchmarkFiftySessionsOneCache: 50 sessions watch the same merchant and
// period, each reading the first 3 pages again at every epoch, over 20
// epochs on an injected clock. The metric is the requests the service saw
// over those a single session causes alone in the same run: at most 1.2 is
// the aim.
func BenchmarkFiftySessionsOneCache(b *testing.B) {
	const sessions, pages, epochs = 50, 3, 20
	var alone, shared int
	for b.Loop() {
		alone = watch(1, pages, epochs)
		shared = watch(sessions, pages, epochs)
	}
	b.ReportMetric(float64(shared)/float64(alone), "service-requests/session-requests")
	b.ReportMetric(float64(shared), "service-requests")
}

// watch runs n sessions for the epochs and says how many requests reached
// the service. Within an epoch the sessions run at once; each computes its
// rolling period's end from its own moment of the epoch.
func watch(n, pages, epochs int) int {
	f := newFake("m1")
	f.pageSize = 20
	f.lists["m1"] = make([]backend.Payment, 200)
	c, clk := newCache(f, 0)
	for range epochs {
		var wg sync.WaitGroup
		for s := range n {
			wg.Go(func() {
				now := clk.Now().Add(time.Duration(s) * time.Millisecond)
				p := c.ListPayments(today("m1", now))
				for range pages {
					if _, err := p.Next(bg); err != nil {
						panic(err)
					}
				}
			})
		}
		wg.Wait()
		clk.add(epoch)
	}
	return f.count()
}
