// Package debuglog writes the debug log (--debug-log): one line for each
// thing the dashboard did that a bug report needs (a key it ignored and
// why, a dialog opened or closed, an action and its outcome, a read and
// its timing), never a secret: callers pass only what may be shown (see
// docs/debug-log.md).
//
// A line is "TIME EVENT key=value ...": TIME is RFC 3339 with milliseconds
// on the local clock, EVENT one word, and a value is quoted (Go syntax)
// when it is empty or holds a space, a quote, an = or anything not
// printable.
//
// Log never writes: it hands the line to the logger's one writer
// goroutine through a buffered channel, so that the Bubble Tea Update
// that logs does no I/O and never waits on the disk. When the channel is
// full the line is dropped and counted; the next line written says how
// many were. Close writes what is queued and stops the writer.
//
// A nil *Logger logs nothing, so that code logs without asking whether
// there is a log.
package debuglog

import (
	"fmt"
	"io"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
)

// queue is how many lines wait for the writer before lines are dropped.
const queue = 1024

// Logger writes debug log lines to one writer from one goroutine.
type Logger struct {
	now   func() time.Time
	lines chan string
	done  chan struct{}

	mu      sync.Mutex
	closed  bool
	dropped int
	err     error // the first write error; the writer then stops writing
}

// New starts a logger writing to w; now is its clock (nil: time.Now).
// Close stops it.
func New(w io.Writer, now func() time.Time) *Logger {
	if now == nil {
		now = time.Now
	}
	l := &Logger{now: now, lines: make(chan string, queue), done: make(chan struct{})}
	go l.write(w)
	return l
}

func (l *Logger) write(w io.Writer) {
	defer close(l.done)
	for line := range l.lines {
		if l.err != nil {
			continue
		}
		if _, err := io.WriteString(w, line); err != nil {
			l.err = err
		}
	}
}

// Log queues one line: event, then the pairs of kv (key, value, ...). A
// value is formatted by Value; a key without a value is given "".
func (l *Logger) Log(event string, kv ...any) {
	if l == nil {
		return
	}
	line := l.format(event, kv)
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return
	}
	if l.dropped > 0 {
		line = strings.TrimSuffix(line, "\n") + " dropped_before=" + strconv.Itoa(l.dropped) + "\n"
	}
	select {
	case l.lines <- line:
		l.dropped = 0
	default:
		l.dropped++
	}
}

// Close writes the lines queued and stops the writer; it returns the
// first write error. Lines logged after Close are dropped. Close of a nil
// Logger does nothing.
func (l *Logger) Close() error {
	if l == nil {
		return nil
	}
	l.mu.Lock()
	if !l.closed {
		l.closed = true
		close(l.lines)
	}
	l.mu.Unlock()
	<-l.done
	return l.err
}

// TimeFormat is how a line's time is written.
const TimeFormat = "2006-01-02T15:04:05.000Z07:00"

func (l *Logger) format(event string, kv []any) string {
	var b strings.Builder
	b.WriteString(l.now().Local().Format(TimeFormat))
	b.WriteByte(' ')
	b.WriteString(quote(event))
	for i := 0; i < len(kv); i += 2 {
		b.WriteByte(' ')
		b.WriteString(quote(Value(kv[i])))
		b.WriteByte('=')
		if i+1 < len(kv) {
			b.WriteString(quote(Value(kv[i+1])))
		} else {
			b.WriteString(`""`)
		}
	}
	b.WriteByte('\n')
	return b.String()
}

// Value is how a value is written: a duration in milliseconds ("12.5ms"
// as time.Duration writes it, rounded to microseconds), an error its
// text, a Stringer its String, anything else as fmt's %v would.
func Value(v any) string {
	switch t := v.(type) {
	case string:
		return t
	case time.Duration:
		return t.Round(time.Microsecond).String()
	case error:
		return t.Error()
	case interface{ String() string }:
		return t.String()
	case int:
		return strconv.Itoa(t)
	case bool:
		return strconv.FormatBool(t)
	}
	return fmt.Sprint(v)
}

// quote quotes s when it would not read back as one value.
func quote(s string) string {
	if s == "" {
		return `""`
	}
	for _, r := range s {
		if r == '=' || r == '"' || r == '\\' || unicode.IsSpace(r) || !unicode.IsPrint(r) {
			return strconv.Quote(s)
		}
	}
	return s
}

// RequestPath is a request's target without the values of its query,
// which may hold what was searched for: "/api/v2/payments?merchantId&q"
// for "/api/v2/payments?merchantId=m1&q=4111". The path itself (merchant
// ids, dates, object ids) is kept.
func RequestPath(target string) string {
	path, query, found := strings.Cut(target, "?")
	if !found {
		return path
	}
	vals, err := url.ParseQuery(query)
	if err != nil || len(vals) == 0 {
		return path + "?"
	}
	names := make([]string, 0, len(vals))
	for k := range vals {
		names = append(names, k)
	}
	sort.Strings(names)
	return path + "?" + strings.Join(names, "&")
}
