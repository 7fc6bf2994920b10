package sandbox

import (
	"fmt"
	rnd "math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Faults are injected on /api/ requests only (the UI's behaviour under a bad
// network must be seeable and testable, design §5). The draws come from a
// source seeded with Options.Seed, so a run is repeatable.
type Faults struct {
	Latency       time.Duration // added before every answer
	ErrorRate     float64       // share answered 500 internal_error
	DropRate      float64       // share whose connection is closed without an answer
	MalformedRate float64       // share answered 200 with a truncated JSON body
}

// IsZero reports whether no fault is set.
func (f Faults) IsZero() bool { return f == Faults{} }

// ParseFaults reads "latency=200ms,error=0.05,drop=0.01,malformed=0.01"; any
// subset, in any order; "" means none.
func ParseFaults(spec string) (Faults, error) {
	var f Faults
	seen := map[string]bool{}
	for part := range strings.SplitSeq(spec, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		key, val, ok := strings.Cut(part, "=")
		key, val = strings.ToLower(strings.TrimSpace(key)), strings.TrimSpace(val)
		if !ok || val == "" {
			return Faults{}, fmt.Errorf("faults: %q is not key=value (e.g. latency=200ms,error=0.05,drop=0.01,malformed=0.01)", part)
		}
		if seen[key] {
			return Faults{}, fmt.Errorf("faults: %s is given twice", key)
		}
		seen[key] = true
		if key == "latency" {
			d, err := time.ParseDuration(val)
			if err != nil || d < 0 {
				return Faults{}, fmt.Errorf("faults: latency %q is not a duration such as 200ms", val)
			}
			f.Latency = d
			continue
		}
		var rate *float64
		switch key {
		case "error":
			rate = &f.ErrorRate
		case "drop":
			rate = &f.DropRate
		case "malformed":
			rate = &f.MalformedRate
		default:
			return Faults{}, fmt.Errorf("faults: unknown fault %q (known: latency, error, drop, malformed)", key)
		}
		x, err := strconv.ParseFloat(val, 64)
		if err != nil || x < 0 || x > 1 || x != x {
			return Faults{}, fmt.Errorf("faults: %s rate %q is not a number from 0 to 1", key, val)
		}
		*rate = x
	}
	if f.ErrorRate+f.DropRate+f.MalformedRate > 1 {
		return Faults{}, fmt.Errorf("faults: error, drop and malformed rates add up to more than 1")
	}
	return f, nil
}

// String is the spec form of f.
func (f Faults) String() string {
	var parts []string
	if f.Latency > 0 {
		parts = append(parts, "latency="+f.Latency.String())
	}
	for _, r := range []struct {
		k string
		v float64
	}{{"error", f.ErrorRate}, {"drop", f.DropRate}, {"malformed", f.MalformedRate}} {
		if r.v > 0 {
			parts = append(parts, r.k+"="+strconv.FormatFloat(r.v, 'g', -1, 64))
		}
	}
	return strings.Join(parts, ",")
}

type faultInjector struct {
	f   Faults
	mu  sync.Mutex
	rng *rnd.Rand
}

func newFaultInjector(f Faults, seed int64) *faultInjector {
	return &faultInjector{f: f, rng: rnd.New(rnd.NewPCG(uint64(seed), 0xfa017))}
}

func (fi *faultInjector) draw() float64 {
	fi.mu.Lock()
	defer fi.mu.Unlock()
	return fi.rng.Float64()
}

func (fi *faultInjector) wrap(next http.Handler) http.Handler {
	if fi.f.IsZero() {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.HasPrefix(r.URL.Path, "/api/") {
			next.ServeHTTP(w, r)
			return
		}
		if d := fi.f.Latency; d > 0 {
			t := time.NewTimer(d)
			select {
			case <-t.C:
			case <-r.Context().Done():
				t.Stop()
				return
			}
		}
		x := fi.draw()
		switch {
		case x < fi.f.DropRate:
			dropConnection(w)
		case x < fi.f.DropRate+fi.f.ErrorRate:
			writeJSON(w, http.StatusInternalServerError, wireError{Code: "internal_error", Message: "injected fault"})
		case x < fi.f.DropRate+fi.f.ErrorRate+fi.f.MalformedRate:
			// The request is served for real (as when a proxy mangles an
			// answer), then the body is cut in half.
			rec := newRecorder()
			next.ServeHTTP(rec, r)
			body := rec.body.Bytes()
			if len(body) > 2 {
				body = body[:len(body)/2]
			} else {
				body = []byte(`{"code":`)
			}
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusOK)
			_, _ = w.Write(body)
		default:
			next.ServeHTTP(w, r)
		}
	})
}

// dropConnection closes the connection without an answer.
func dropConnection(w http.ResponseWriter) {
	if hj, ok := w.(http.Hijacker); ok {
		if conn, _, err := hj.Hijack(); err == nil {
			_ = conn.Close()
			return
		}
	}
	panic(http.ErrAbortHandler) // the server resets the connection (or stream) quietly
}
