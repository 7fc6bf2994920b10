package sandbox

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
)

// v2PageBytes bounds a list page in bytes as well as in items: a page stops
// before the item that would take it past this (always holding at least one
// item, or paging could not move on), and its cursor continues after the
// last item sent, so nothing is lost or repeated. 4 MiB is far above what
// 100 items with bounded text need and far below the client's limit; tests
// lower it.
var v2PageBytes atomic.Int64

func init() { v2PageBytes.Store(4 << 20) }

// writePage answers list query q with the page view hands over (the
// store's ViewPayments...): {"items":[...],"cursor":"..."} as json.Marshal
// would write a wireList, cut at v2PageBytes, with its Content-Length.
//
// It is cheap per item, for a client paging 100,000 payments: the items
// are rendered straight from the store under its read lock (no copy of
// the page), into one variable (an any would hold a copy of each), by one
// encoder into one pooled buffer (json.Marshal would copy each out); the
// answer is sent once the lock is released.
func writePage[T, W any](w http.ResponseWriter, view func(ListQuery, func([]*T, string)) error, q ListQuery,
	render func(*T) W, cursorAfter func(*T) string) {
	buf := pageBuffers.Get().(*bytes.Buffer)
	defer putPageBuffer(buf)
	buf.Reset()
	var encErr error
	if err := view(q, func(items []*T, cursor string) { encErr = encodePage(buf, items, cursor, render, cursorAfter) }); err != nil {
		fail(w, err)
		return
	}
	if encErr != nil {
		writeJSON(w, http.StatusInternalServerError, wireError{Code: "internal_error", Message: "could not render the answer"})
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(buf.Len()))
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(buf.Bytes())
}

// encodePage writes a page of items into buf, cut at v2PageBytes (the
// cursor then continues after the last item written).
func encodePage[T, W any](buf *bytes.Buffer, items []*T, cursor string, render func(*T) W, cursorAfter func(*T) string) error {
	budget := int(v2PageBytes.Load())
	const tail = len(`],"cursor":""}`) + 64 // a cursor is 28 characters
	enc := json.NewEncoder(buf)             // escapes HTML as json.Marshal does
	buf.WriteString(`{"items":[`)
	var item W
	for i, x := range items {
		mark := buf.Len()
		if i > 0 {
			buf.WriteByte(',')
		}
		item = render(x)
		if err := enc.Encode(&item); err != nil {
			return err
		}
		buf.Truncate(buf.Len() - 1) // Encode's newline
		if i > 0 && buf.Len()+tail > budget {
			buf.Truncate(mark)
			cursor = cursorAfter(items[i-1])
			break
		}
	}
	buf.WriteByte(']')
	if cursor != "" {
		buf.WriteString(`,"cursor":`)
		b, _ := json.Marshal(cursor)
		buf.Write(b)
	}
	buf.WriteByte('}')
	return nil
}

// pageBuffers holds the buffers writePage writes pages into.
var pageBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// putPageBuffer returns buf to the pool unless it held an outsized page.
func putPageBuffer(buf *bytes.Buffer) {
	if buf.Cap() <= 1<<20 {
		pageBuffers.Put(buf)
	}
}
