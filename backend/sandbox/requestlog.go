package sandbox

import (
	"bufio"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Request log (paydash sandbox -v): one Info line through Options.Logger per
// request, written when the request is over:
//
//	msg=request method=POST path=/api/v2/refunds status=200 duration=1.3ms bytes=212 idempotencyKey=5f0c…
//
// It wraps the fault injector, so it sees what the client saw: the status of
// an injected error, outcome=dropped for a connection the injector closed
// without an answer, outcome="client gone" for a client that left before
// anything was written. Nothing secret is logged: never a header but the
// Idempotency-Key, never the query of a v1 request (its login, nonce and
// hash), and of other queries no parameter named like a credential (token,
// password, hash, nonce, key, secret, auth, sign, login, session). Logged
// text is cut to a bounded length and stripped of control characters. With
// a logger that discards Info, requests pass through untouched.

const (
	maxLoggedPath  = 256
	maxLoggedQuery = 512
	maxLoggedKey   = 80
)

// sensitiveParams are pieces of query parameter names never logged.
var sensitiveParams = []string{"token", "pass", "pwd", "hash", "nonce", "key", "secret", "auth", "sign", "login", "session", "cookie", "credential"}

func (s *Server) logRequests(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.log.Enabled(r.Context(), slog.LevelInfo) {
			next.ServeHTTP(w, r)
			return
		}
		// Read before serving: handlers may change the request they pass on.
		method, path, query := r.Method, r.URL.Path, r.URL.RawQuery
		key := r.Header.Get("Idempotency-Key")
		begin := time.Now()
		lw := &logWriter{ResponseWriter: w}
		defer func() {
			v := recover()
			attrs := make([]slog.Attr, 0, 8)
			attrs = append(attrs, slog.String("method", clean(method, 16)), slog.String("path", clean(path, maxLoggedPath)))
			if q := loggableQuery(path, query); q != "" {
				attrs = append(attrs, slog.String("query", q))
			}
			status, outcome := lw.status, ""
			switch {
			case lw.hijacked:
				status, outcome = 0, "dropped"
			case v == http.ErrAbortHandler:
				outcome = "dropped"
			case v != nil:
				outcome = "panic"
			case status == 0 && r.Context().Err() != nil:
				outcome = "client gone"
			case status == 0:
				status = http.StatusOK // what net/http sends for a handler that wrote nothing
			}
			attrs = append(attrs, slog.Int("status", status), slog.Duration("duration", time.Since(begin)), slog.Int64("bytes", lw.bytes))
			if key != "" {
				attrs = append(attrs, slog.String("idempotencyKey", clean(key, maxLoggedKey)))
			}
			if outcome != "" {
				attrs = append(attrs, slog.String("outcome", outcome))
			}
			s.log.LogAttrs(r.Context(), slog.LevelInfo, "request", attrs...)
			if v != nil {
				panic(v) // net/http's own handling: log it, close the connection
			}
		}()
		next.ServeHTTP(lw, r)
	})
}

// loggableQuery is the part of a query that may be logged: nothing of a v1
// request, and no parameter named like a credential of any other.
func loggableQuery(path, query string) string {
	if query == "" || hasPrefixFold(path, "/api/v1") {
		return ""
	}
	var b strings.Builder
	for part := range strings.SplitSeq(query, "&") {
		if part == "" {
			continue
		}
		name, _, _ := strings.Cut(part, "=")
		if n, err := url.QueryUnescape(name); err == nil {
			name = n
		}
		if isSensitiveParam(name) {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('&')
		}
		b.WriteString(part)
		if b.Len() > maxLoggedQuery {
			break
		}
	}
	return clean(b.String(), maxLoggedQuery)
}

func isSensitiveParam(name string) bool {
	name = strings.ToLower(name)
	for _, s := range sensitiveParams {
		if strings.Contains(name, s) {
			return true
		}
	}
	return false
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}

// clean cuts s to at most limit bytes (marking the cut with "…") and
// replaces control characters and invalid UTF-8 with '?'.
func clean(s string, limit int) string {
	cut := len(s) > limit
	if cut {
		s = s[:limit]
	}
	ok := true
	for _, c := range s {
		if c == utf8.RuneError || !unicode.IsPrint(c) {
			ok = false
			break
		}
	}
	if ok && !cut {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 3)
	for i := 0; i < len(s); {
		c, size := utf8.DecodeRuneInString(s[i:])
		if cut && c == utf8.RuneError && size == 1 && len(s)-i < utf8.UTFMax {
			break // a character cut in two at the end
		}
		if c == utf8.RuneError || !unicode.IsPrint(c) {
			b.WriteByte('?')
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	if cut {
		b.WriteString("…")
	}
	return b.String()
}

// logWriter notes the status and size of an answer, and whether the
// connection was taken over (to be dropped by the fault injector).
type logWriter struct {
	http.ResponseWriter
	status   int
	bytes    int64
	hijacked bool
}

func (lw *logWriter) WriteHeader(status int) {
	if lw.status == 0 && (status >= 200 || status == http.StatusSwitchingProtocols) {
		lw.status = status
	}
	lw.ResponseWriter.WriteHeader(status)
}

func (lw *logWriter) Write(b []byte) (int, error) {
	if lw.status == 0 {
		lw.status = http.StatusOK
	}
	n, err := lw.ResponseWriter.Write(b)
	lw.bytes += int64(n)
	return n, err
}

func (lw *logWriter) Flush() {
	if f, ok := lw.ResponseWriter.(http.Flusher); ok {
		if lw.status == 0 {
			lw.status = http.StatusOK
		}
		f.Flush()
	}
}

func (lw *logWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	hj, ok := lw.ResponseWriter.(http.Hijacker)
	if !ok {
		return nil, nil, http.ErrNotSupported
	}
	c, rw, err := hj.Hijack()
	if err == nil {
		lw.hijacked = true
	}
	return c, rw, err
}

// Unwrap lets http.ResponseController reach the connection's writer.
func (lw *logWriter) Unwrap() http.ResponseWriter { return lw.ResponseWriter }
