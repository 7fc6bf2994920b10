package debuglog

import (
	"bytes"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func fixedClock() time.Time {
	return time.Date(2025, 3, 4, 5, 6, 7, 891_000_000, time.FixedZone("MSK", 3*3600))
}

func TestLineFormat(t *testing.T) {
	var buf bytes.Buffer
	l := New(&buf, fixedClock)
	l.Log("key_ignored", "key", "y", "reason", "the dialog opened while you typed", "n", 3)
	l.Log("read", "duration", 12345678*time.Nanosecond, "err", errors.New("x=1"), "empty", "", "odd")
	require.NoError(t, l.Close())
	want := fixedClock().Local().Format("2006-01-02T15:04:05.000Z07:00")
	assert.Equal(t, want+` key_ignored key=y reason="the dialog opened while you typed" n=3`+"\n"+
		want+` read duration=12.346ms err="x=1" empty="" odd=""`+"\n", buf.String())
	assert.Contains(t, want, ".891")
}

func TestNilLoggerLogsNothing(t *testing.T) {
	var l *Logger
	l.Log("x", "a", 1)
	assert.NoError(t, l.Close())
}

func TestLogAfterCloseIsDropped(t *testing.T) {
	var buf bytes.Buffer
	l := New(&buf, fixedClock)
	require.NoError(t, l.Close())
	l.Log("late")
	require.NoError(t, l.Close())
	assert.Empty(t, buf.String())
}

// blocked is a writer that holds the writer goroutine until released.
type blocked struct {
	release chan struct{}
	buf     bytes.Buffer
}

func (b *blocked) Write(p []byte) (int, error) {
	<-b.release
	return b.buf.Write(p)
}

func TestFullQueueDropsAndSays(t *testing.T) {
	w := &blocked{release: make(chan struct{})}
	l := New(w, fixedClock)
	// The writer takes at most one line and blocks in Write; the queue
	// holds queue more; the rest are dropped.
	for range queue + 10 {
		l.Log("k")
	}
	close(w.release)
	require.NoError(t, l.Close())
	n := bytes.Count(w.buf.Bytes(), []byte("\n"))
	assert.GreaterOrEqual(t, n, queue)
	assert.LessOrEqual(t, n, queue+1)
}

func TestDroppedCountRidesOnNextLine(t *testing.T) {
	l := &Logger{now: fixedClock, lines: make(chan string, 1), done: make(chan struct{})}
	l.Log("a")
	l.Log("b") // dropped: nobody reads yet
	<-l.lines
	l.Log("c")
	assert.Contains(t, <-l.lines, " c dropped_before=1\n")
}

func TestRequestPathDropsQueryValues(t *testing.T) {
	assert.Equal(t, "/api/v2/payments?merchantId&search",
		RequestPath("/api/v2/payments?search=4111111111111111&merchantId=m1"))
	assert.Equal(t, "/api/v2/merchants/1001/registers/2025-03-04", RequestPath("/api/v2/merchants/1001/registers/2025-03-04"))
}
