package sandbox

import (
	"bytes"
	"container/list"
	"crypto/sha256"
	"encoding/json"
	"net/http"
	"sync"
	"time"
)

// Idempotency-Key (docs/service.md): a creating POST sent again with the same
// key and the same body gets the first answer again, status and body, and
// nothing is made twice; the same key with another body is
// idempotency_key_violation. Bodies are the same when they parse to the same
// request (parsedRequest), whatever their bytes. Keys are per bearer token and route, at most
// maxIdempotencyKey characters, kept 24 h by the store clock. The first
// request with a key leaves an in-flight entry before it runs, so a
// concurrent twin waits for its outcome instead of creating a second object.
//
// Bounded: only an answer that created something (2xx) is kept; a refused
// request is forgotten as soon as it is answered (so sent again, it is
// served again, and a key can never hold a refusal that no longer applies).
// An entry holds the answer and SHA-256 digests of the key and of the
// request as parsed (parsedRequest), never the body or the key itself, and at most maxIdempotencyEntries are
// kept: beyond that the oldest is dropped first, as it is after 24 h.
//
// A replay is the first answer as it was (the Stripe model): a refund
// replayed after it settled still says Pending. Its Idempotent-Replayed:
// true header says so; the client reads the object for its state now.

const (
	idempotencyTTL        = 24 * time.Hour
	maxIdempotencyKey     = 255
	maxIdempotencyEntries = 100_000
)

type idemEntry struct {
	id      [sha256.Size]byte // digest of token, route and key
	digest  [sha256.Size]byte // digest of the request as parsed
	created time.Time         // when the answer was kept
	done    chan struct{}     // closed once the outcome below is set
	kept    bool              // the answer created something and is replayed
	status  int
	ctype   string
	body    []byte        // the answer (not the request)
	elem    *list.Element // in idempotency.order once kept
}

type idempotency struct {
	mu      sync.Mutex
	now     func() time.Time
	entries map[[sha256.Size]byte]*idemEntry // in flight and kept
	order   *list.List                       // kept entries, oldest first
	max     int
}

func newIdempotency(now func() time.Time) *idempotency {
	return &idempotency{now: now, entries: map[[sha256.Size]byte]*idemEntry{}, order: list.New(), max: maxIdempotencyEntries}
}

// parsedRequest is what two requests under one key are compared by: the
// request as its handler reads it (decodeInto into T, the handler's own
// type), written out again. So it is the request, not its bytes, that
// counts: member order, white space, a BOM and members the service ignores
// make no difference, and an amount is the decimal it holds (amountIn's
// MarshalJSON): 1, 1.0 and "1.00" are one amount, 1.5 and 1.51 two. A body
// the handler refuses is compared as it is; it is never kept, but a twin
// waiting for a first request that succeeded compares it.
func parsedRequest[T any](body []byte) []byte {
	var in T
	if problems := decodeInto(body, &in); len(problems) == 0 {
		if out, err := json.Marshal(&in); err == nil {
			return append([]byte("parsed\x00"), out...)
		}
	}
	return append([]byte("raw\x00"), body...)
}

// do serves the request through serve, or answers for it from the key.
// canonical gives the form of the request that is compared (parsedRequest).
func (ix *idempotency) do(w http.ResponseWriter, r *http.Request, key string, canonical func() []byte, serve func(http.ResponseWriter)) {
	id := sha256.Sum256([]byte(key))
	var digest *[sha256.Size]byte // worked out when needed: a refused first request never needs it
	digestOf := func() [sha256.Size]byte {
		if digest == nil {
			d := sha256.Sum256(canonical())
			digest = &d
		}
		return *digest
	}
	for {
		ix.mu.Lock()
		ix.expire(ix.now())
		e := ix.entries[id]
		if e == nil {
			e = &idemEntry{id: id, done: make(chan struct{})}
			ix.entries[id] = e
			ix.mu.Unlock()
			ix.run(w, e, digestOf, serve)
			return
		}
		ix.mu.Unlock()
		// In flight or kept: wait for its outcome.
		select {
		case <-e.done:
		case <-r.Context().Done():
			return
		}
		if !e.kept {
			continue // refused and forgotten: this request is served itself
		}
		if e.digest != digestOf() {
			writeJSON(w, http.StatusConflict, wireError{Code: "idempotency_key_violation",
				Message: "Idempotency-Key was already used with a different request body"})
			return
		}
		if e.ctype != "" {
			w.Header().Set("Content-Type", e.ctype)
		}
		w.Header().Set("Idempotent-Replayed", "true")
		w.WriteHeader(e.status)
		_, _ = w.Write(e.body)
		return
	}
}

// run serves the first request with a key; the outcome is settled (and
// twins released) before the answer is written out.
func (ix *idempotency) run(w http.ResponseWriter, e *idemEntry, digest func() [sha256.Size]byte, serve func(http.ResponseWriter)) {
	rec := newRecorder()
	ix.record(e, rec, digest, serve)
	rec.copyTo(w)
}

// record serves into rec and keeps the answer if it created something.
func (ix *idempotency) record(e *idemEntry, rec *recorder, digest func() [sha256.Size]byte, serve func(http.ResponseWriter)) {
	finished := false
	defer func() {
		created := finished && rec.status >= 200 && rec.status <= 299
		var d [sha256.Size]byte
		if created {
			d = digest() // outside the lock: parsedRequest decodes the body
		}
		ix.mu.Lock()
		if created {
			e.kept, e.digest, e.status, e.ctype, e.body = true, d, rec.status, rec.Header().Get("Content-Type"), bytes.Clone(rec.body.Bytes())
			if ix.entries[e.id] == e { // not forgotten by a reset meanwhile
				e.created = ix.now()
				e.elem = ix.order.PushBack(e)
				for ix.order.Len() > ix.max {
					ix.forget(ix.order.Front().Value.(*idemEntry))
				}
			}
		} else if ix.entries[e.id] == e {
			delete(ix.entries, e.id)
		}
		ix.mu.Unlock()
		close(e.done)
	}()
	serve(rec)
	if rec.status == 0 {
		rec.status = http.StatusOK
	}
	finished = true
}

// expire forgets the keys kept longer than idempotencyTTL.
func (ix *idempotency) expire(now time.Time) {
	for f := ix.order.Front(); f != nil; f = ix.order.Front() {
		e := f.Value.(*idemEntry)
		if now.Sub(e.created) <= idempotencyTTL {
			return
		}
		ix.forget(e)
	}
}

func (ix *idempotency) forget(e *idemEntry) {
	if e.elem != nil {
		ix.order.Remove(e.elem)
		e.elem = nil
	}
	if ix.entries[e.id] == e {
		delete(ix.entries, e.id)
	}
}

// reset forgets every kept key (POST /_sandbox/reset: their answers name
// objects that no longer exist). Requests in flight finish, and their
// answers go to their waiting twins, but are not kept.
func (ix *idempotency) reset() {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	ix.entries = map[[sha256.Size]byte]*idemEntry{}
	ix.order.Init()
}

// stats reports how many keys are kept and the bytes of their answers.
func (ix *idempotency) stats() (entries, kept, answerBytes int) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	for _, e := range ix.entries {
		if e.kept {
			kept++
			answerBytes += len(e.body)
		}
	}
	return len(ix.entries), kept, answerBytes
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
