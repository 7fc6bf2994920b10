package sandbox

import (
	"bytes"
	"context"
	"fmt"
	"io"
	rnd "math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Faults are injected on /api/ requests only (the UI's behaviour under a bad
// network must be seeable and testable). The draws come from a
// source seeded with Options.Seed, so a run is repeatable. They make the
// dangerous window of a money action real: a request can be served while
// its answer never arrives.
//
// A faulty request goes like this. Its body is read at once. Then half of
// Latency passes, as the request's way to the service: a client gone by
// then (it gave up, or was killed) is not served. Then one draw picks the
// fault. A dropped connection is closed either now, before the request is
// served, or, for about half of the drops (a second draw), after it was
// served in full and its answer held back for the other half of Latency:
// the service did the work, the answer is lost. An error is answered 500
// after the other half, without serving. A malformed answer and an answer
// with no fault are served in full, whatever the client does meanwhile
// (the serving does not see the client's cancellation), and held back for
// the other half of Latency before they are written; a malformed one is
// then cut in half.
type Faults struct {
	Latency       time.Duration // per request: half before it is served, half before its answer is written
	ErrorRate     float64       // share answered 500 internal_error, not served
	DropRate      float64       // share whose connection is closed without an answer: half of them before serving, half after
	MalformedRate float64       // share served, then answered 200 with the body cut in half (an empty one becomes `{"code":`)
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
	if err := f.Validate(); err != nil {
		return Faults{}, err
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
	f   atomic.Pointer[Faults] // read on every request, set by SetFaults
	mu  sync.Mutex             // guards rng
	rng *rnd.Rand
}

func newFaultInjector(f Faults, seed int64) *faultInjector {
	fi := &faultInjector{rng: rnd.New(rnd.NewPCG(uint64(seed), 0xfa017))}
	fi.f.Store(&f)
	return fi
}

func (fi *faultInjector) faults() Faults { return *fi.f.Load() }

func (fi *faultInjector) set(f Faults) { fi.f.Store(&f) }

func (fi *faultInjector) draw() float64 {
	fi.mu.Lock()
	defer fi.mu.Unlock()
	return fi.rng.Float64()
}

// Validate checks what ParseFaults checks: a latency not below zero, rates
// from 0 to 1 that add up to at most 1.
func (f Faults) Validate() error {
	if f.Latency < 0 {
		return fmt.Errorf("faults: latency %s is below zero", f.Latency)
	}
	for _, r := range []float64{f.ErrorRate, f.DropRate, f.MalformedRate} {
		if r < 0 || r > 1 || r != r {
			return fmt.Errorf("faults: rates must be between 0 and 1")
		}
	}
	if f.ErrorRate+f.DropRate+f.MalformedRate > 1 {
		return fmt.Errorf("faults: error, drop and malformed rates add up to more than 1")
	}
	return nil
}

// SetFaults changes the injected faults of a running sandbox, from the next
// request on (requests under way keep theirs); Faults{} turns them off. The
// draws continue from the same seeded source. Tests use it to garble the
// answer of one action and then read the truth.
func (s *Server) SetFaults(f Faults) error {
	if err := f.Validate(); err != nil {
		return err
	}
	s.faults.set(f)
	return nil
}

// Faults are the faults injected now.
func (s *Server) Faults() Faults { return s.faults.faults() }

func (fi *faultInjector) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f := fi.faults()
		if f.IsZero() || !strings.HasPrefix(r.URL.Path, "/api/") {
			next.ServeHTTP(w, r)
			return
		}
		// Read the body now: the request has arrived, and net/http notices a
		// client that goes away (and cancels r's context) only once the
		// body has been read.
		if r.Body != nil && r.Body != http.NoBody {
			head, err := io.ReadAll(io.LimitReader(r.Body, maxBody+1))
			if err != nil {
				return // the client went away while sending
			}
			r.Body = struct {
				io.Reader
				io.Closer
			}{io.MultiReader(bytes.NewReader(head), r.Body), r.Body}
		}
		first := f.Latency / 2
		second := f.Latency - first
		if !wait(r.Context(), first) {
			return // the client is gone before the request reached the service
		}
		x := fi.draw()
		switch {
		case x < f.DropRate:
			if fi.draw() < 0.5 {
				dropConnection(w) // before serving: nothing was done
				return
			}
			serve(next, r)
			wait(r.Context(), second)
			dropConnection(w) // after serving: done, and the answer is lost
		case x < f.DropRate+f.ErrorRate:
			if !wait(r.Context(), second) {
				return
			}
			writeJSON(w, http.StatusInternalServerError, wireError{Code: "internal_error", Message: "injected fault"})
		case x < f.DropRate+f.ErrorRate+f.MalformedRate:
			// The request is served for real (as when a proxy mangles an
			// answer), then the body is cut in half.
			rec := serve(next, r)
			if !wait(r.Context(), second) {
				return
			}
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
			rec := serve(next, r)
			if !wait(r.Context(), second) {
				return
			}
			rec.copyTo(w)
		}
	})
}

// serve serves r in full into a recorder, with a context the client's
// going away does not cancel: once a request has reached the service, it is
// done whatever becomes of its connection.
func serve(next http.Handler, r *http.Request) *recorder {
	rec := newRecorder()
	next.ServeHTTP(rec, r.WithContext(context.WithoutCancel(r.Context())))
	return rec
}

// wait sleeps d, or less if ctx ends first; it reports whether ctx is still
// alive.
func wait(ctx context.Context, d time.Duration) bool {
	if d > 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
		}
	}
	return ctx.Err() == nil
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
