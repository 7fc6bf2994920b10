package sandbox

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"
)

// Request bodies are bounded in size and in time, for every path, before
// any handler (or fault) sees them:
//   - at most maxRequestBody (1 MiB, decode.go's maxBody): a larger
//     Content-Length is refused without reading the body, and a chunked
//     body is cut off at the limit;
//   - the whole body must arrive within bodyReadTimeout (30 s) of the
//     headers (which have ReadHeaderTimeout): a slow sender cannot hold a
//     connection. A deadline for the request body only, set through
//     http.ResponseController, rather than http.Server.ReadTimeout: the
//     latter would also cancel the context of a request whose handler runs
//     longer (net/http's background read fails at the deadline), such as
//     one held by a latency fault.
//
// v2 and the other JSON paths answer 413 (too large) or 408 (too slow) with
// the v2 error shape, {"code":"validation_error",...}, and the connection is
// closed. v1 answers in its own format (ErrorCode, HTTP 200): its handler is
// given a body that fails with the reason, which it reports as a request
// that could not be read.

const maxRequestBody = maxBody

// bodyReadTimeout is how long a request's body may take to arrive, counted
// from the end of its headers. (Its tests run on a synctest bubble's clock,
// bodylimit_test.go, so they wait it out in no time.)
const bodyReadTimeout = 30 * time.Second

var errBodyTooLarge = fmt.Errorf("the request body is larger than %d bytes (1 MiB)", maxRequestBody)

func errBodyTooSlow() error {
	return fmt.Errorf("the request body did not arrive within %s", bodyReadTimeout)
}

// limitBodies reads each request's body, bounded as above, before next
// sees it.
func (s *Server) limitBodies(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body == nil || r.Body == http.NoBody || r.ContentLength == 0 {
			next.ServeHTTP(w, r)
			return
		}
		var body []byte
		var err error
		if r.ContentLength > maxRequestBody {
			err = errBodyTooLarge
		} else {
			body, err = s.readLimited(w, r)
		}
		switch {
		case err == nil:
			// A shallow copy: net/http looks at the request it made (its
			// body) after the handler, to decide how to end the connection.
			r2 := r.WithContext(r.Context())
			r2.Body = io.NopCloser(bytes.NewReader(body))
			r2.ContentLength = int64(len(body))
			next.ServeHTTP(w, r2)
		case errors.Is(err, errClientGone):
			// Nobody to answer.
		default:
			s.log.Info("request body refused", "method", r.Method, "path", r.URL.Path, "reason", err.Error())
			w.Header().Set("Connection", "close")
			if strings.HasPrefix(r.URL.Path, "/api/v1/") {
				// v1 answers in its own format: its handler reports the
				// body that could not be read.
				r2 := r.WithContext(r.Context())
				r2.Body = io.NopCloser(io.MultiReader(bytes.NewReader(body), errReader{err}))
				next.ServeHTTP(w, r2)
				return
			}
			status := http.StatusRequestEntityTooLarge
			if !errors.Is(err, errBodyTooLarge) {
				status = http.StatusRequestTimeout
			}
			writeJSON(w, status, wireError{Code: "validation_error", Message: "request is not valid", Errors: []string{err.Error()}})
		}
	})
}

var errClientGone = errors.New("the client went away while sending the request body")

// readLimited reads r's body within bodyReadTimeout and maxRequestBody.
// On errBodyTooLarge or the timeout the read deadline is left passed, so
// that net/http, which drains what is left of a body after the handler,
// gives up at once and closes the connection.
func (s *Server) readLimited(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	rc := http.NewResponseController(w)
	deadline := time.Now().Add(bodyReadTimeout)
	if err := rc.SetReadDeadline(deadline); err != nil {
		// Not a connection of net/http's own (a test's recorder): no
		// deadline to set, the size cap still holds.
		rc = nil
	}
	b, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxRequestBody))
	if err == nil {
		if rc != nil {
			_ = rc.SetReadDeadline(time.Time{})
		}
		return b, nil
	}
	if rc != nil {
		_ = rc.SetReadDeadline(time.Now())
	}
	var tooLarge *http.MaxBytesError
	switch {
	case errors.As(err, &tooLarge):
		return b, errBodyTooLarge
	case errors.Is(err, os.ErrDeadlineExceeded) || !time.Now().Before(deadline):
		return b, errBodyTooSlow()
	}
	return b, errClientGone
}

// errReader fails every read with err.
type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) { return 0, e.err }
