package sandbox

import (
	"bytes"
	"encoding/json"
	"net/http"
	"sync"
	"time"
)

// Idempotency-Key (design §3, §4): a creating POST sent again with the same
// key and the same body gets the first answer again, status and body, and
// nothing is made twice; the same key with another body is
// idempotency_key_violation. Keys are per bearer token and route, kept 24 h
// by the store clock. The first request with a key leaves an in-flight entry
// before it runs, so a concurrent twin waits for its answer instead of
// creating a second object.

const idempotencyTTL = 24 * time.Hour

type idemEntry struct {
	canon   []byte
	created time.Time
	done    chan struct{} // closed once the answer below is recorded
	status  int
	ctype   string
	body    []byte
}

type idempotency struct {
	mu      sync.Mutex
	now     func() time.Time
	entries map[string]*idemEntry
	added   int
}

func newIdempotency(now func() time.Time) *idempotency {
	return &idempotency{now: now, entries: map[string]*idemEntry{}}
}

// canonicalJSON is the body decoded and marshalled again, so key order and
// white space do not make two bodies differ. A body that is not JSON is
// compared as it is.
func canonicalJSON(body []byte) []byte {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil || dec.More() {
		return body
	}
	out, err := json.Marshal(v)
	if err != nil {
		return body
	}
	return out
}

// do serves the request through serve, or answers for it from the key.
func (ix *idempotency) do(w http.ResponseWriter, r *http.Request, key string, body []byte, serve func(http.ResponseWriter)) {
	canon := canonicalJSON(body)
	ix.mu.Lock()
	now := ix.now()
	e := ix.entries[key]
	if e != nil && now.Sub(e.created) > idempotencyTTL && isClosed(e.done) {
		delete(ix.entries, key)
		e = nil
	}
	if e == nil {
		e = &idemEntry{canon: canon, created: now, done: make(chan struct{})}
		ix.entries[key] = e
		ix.sweep(now)
		ix.mu.Unlock()
		rec := newRecorder()
		func() {
			defer close(e.done)
			serve(rec)
			if rec.status == 0 {
				rec.status = http.StatusOK
			}
			e.status, e.ctype, e.body = rec.status, rec.Header().Get("Content-Type"), rec.body.Bytes()
		}()
		rec.copyTo(w)
		return
	}
	ix.mu.Unlock()
	if !bytes.Equal(e.canon, canon) {
		writeJSON(w, http.StatusConflict, wireError{Code: "idempotency_key_violation",
			Message: "Idempotency-Key was already used with a different request body"})
		return
	}
	select {
	case <-e.done:
	case <-r.Context().Done():
		return
	}
	if e.ctype != "" {
		w.Header().Set("Content-Type", e.ctype)
	}
	w.Header().Set("Idempotent-Replayed", "true")
	w.WriteHeader(e.status)
	_, _ = w.Write(e.body)
}

// sweep forgets expired keys now and then (every 1,000 new keys).
func (ix *idempotency) sweep(now time.Time) {
	ix.added++
	if ix.added%1000 != 0 {
		return
	}
	for k, e := range ix.entries {
		if now.Sub(e.created) > idempotencyTTL && isClosed(e.done) {
			delete(ix.entries, k)
		}
	}
}

func isClosed(c chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// recorder keeps an answer to send later (idempotency, malformed faults).
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func newRecorder() *recorder { return &recorder{header: http.Header{}} }

func (r *recorder) Header() http.Header { return r.header }
func (r *recorder) WriteHeader(status int) {
	if r.status == 0 {
		r.status = status
	}
}
func (r *recorder) Write(b []byte) (int, error) {
	if r.status == 0 {
		r.status = http.StatusOK
	}
	return r.body.Write(b)
}

func (r *recorder) copyTo(w http.ResponseWriter) {
	for k, v := range r.header {
		w.Header()[k] = v
	}
	if r.status == 0 {
		r.status = http.StatusOK
	}
	w.WriteHeader(r.status)
	_, _ = w.Write(r.body.Bytes())
}
