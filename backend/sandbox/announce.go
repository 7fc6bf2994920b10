package sandbox

import (
	"bufio"
	"net"
	"net/http"
	"time"

	"paydash/backend/transport"
)

// Every answer the sandbox sends, whatever made it (v1, v2, the control
// paths, the pages, an error, a fault's made-up or garbled answer, an
// idempotent replay), carries two headers of the sandbox's own, set as its
// head is written:
//
//	Date: the store clock (Store.Now, the one POST /_sandbox/clock/advance
//	      moves), in http.TimeFormat, instead of the machine's clock that
//	      net/http would put there. Clients take the service's time from it
//	      (backend/transport/serviceclock.go), so a tester who moves the clock
//	      moves what paydash calls "today".
//	Paydash-Sandbox: 1 (transport.SandboxHeader): the sandbox announces
//	      itself, so that paydash reaching it by URL shows "sandbox", not
//	      "LIVE".
//
// A connection a fault drops gets no answer, and so neither header.
func (s *Server) stampAnswers(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(&stampWriter{ResponseWriter: w, now: s.store.Now}, r)
	})
}

// stampWriter sets the headers above once, just before the head of the
// answer goes out: explicitly (WriteHeader), or implicitly with the first
// Write or Flush.
type stampWriter struct {
	http.ResponseWriter
	now     func() time.Time
	stamped bool
}

func (sw *stampWriter) stamp() {
	if sw.stamped {
		return
	}
	sw.stamped = true
	h := sw.ResponseWriter.Header()
	h.Set("Date", sw.now().UTC().Format(http.TimeFormat))
	h.Set(transport.SandboxHeader, "1")
}

func (sw *stampWriter) WriteHeader(status int) {
	if status >= 200 { // informational heads (1xx) come before the answer's own
		sw.stamp()
	}
	sw.ResponseWriter.WriteHeader(status)
}

func (sw *stampWriter) Write(b []byte) (int, error) {
	sw.stamp()
	return sw.ResponseWriter.Write(b)
}

func (sw *stampWriter) Flush() {
	if f, ok := sw.ResponseWriter.(http.Flusher); ok {
		sw.stamp()
		f.Flush()
	}
}

// Hijack lets the fault injector drop the connection (faults.go).
func (sw *stampWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	hj, ok := sw.ResponseWriter.(http.Hijacker)
	if !ok {
		return nil, nil, http.ErrNotSupported
	}
	return hj.Hijack()
}

// Unwrap lets http.ResponseController reach the connection's writer
// (bodylimit.go sets the body's read deadline through it).
func (sw *stampWriter) Unwrap() http.ResponseWriter { return sw.ResponseWriter }
