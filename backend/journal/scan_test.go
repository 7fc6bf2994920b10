package journal

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Lines longer than the read buffer are read whole; one longer than
// maxLine is skipped to its end and reported, and the next line is read.
func TestLongLines(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	long := withID(entry("create_invoice_link", PhaseSent, ""), "a-long")
	long.Params = json.RawMessage(`{"description":"` + strings.Repeat("d", 200<<10) + `"}`)
	huge := withID(entry("create_invoice_link", PhaseSent, ""), "a-huge")
	huge.Params = json.RawMessage(`{"description":"` + strings.Repeat("h", maxLine) + `"}`)
	after := withID(entry("refund", PhaseSent, "1"), "a-after")
	var b bytes.Buffer
	for _, e := range []Entry{long, huge, after} {
		line, err := json.Marshal(e)
		require.NoError(t, err)
		b.Write(append(line, '\n'))
	}
	require.NoError(t, os.WriteFile(path, b.Bytes(), 0o600))

	got, err := Read(path)
	var ce *CorruptError
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, []int{2}, ce.Lines, "the line past the limit")
	assert.Equal(t, []string{"a-long", "a-after"}, actionIDs(got))

	j, err := Open(path)
	require.NoError(t, err)
	defer j.Close()
	assert.Equal(t, []string{"a-long", "a-after"}, actionIDs(j.Opened().Open))
	assert.Equal(t, long.Params, j.Opened().Open[0].Params)
	require.NotNil(t, j.Opened().Corrupt)
	assert.Equal(t, []int{2}, j.Opened().Corrupt.Lines)
}

// walk reads the fields of a line as encoding/json reads them into an
// Entry, on every line encoding/json takes for an entry; it never panics.
func FuzzWalk(f *testing.F) {
	for _, s := range []string{
		`{"time":"2026-11-21T10:00:00Z","action":"refund","phase":"sent","objectId":"1","actionId":"a-1","idempotencyKey":"k"}`,
		`{"action":"toggle_sticker","phase":"unknown","params":{"active":true,"nested":[1,{"phase":"done"}]},"actionId":"x"}`,
		`{"Action":"refund","PHASE":"done","actionId":null}`,
		`{"action":"re\"fund","phase":"s\u0065nt","actionId":"a\\b"}`,
		` { "action" : "capture" , "phase":"failed" } `,
		`{"action":"refund","phase":"sent","amount":1e5,"ok":true,"no":false,"n":null}`,
		`{"time":"2026","act{"time":"2026-11-21T10:00:00Z","action":"refund","phase":"sent"}`,
		`{"action":"refund","pha`,
		`not json`,
		`{"action":5,"phase":"sent"}`,
		`{}`,
		"{\"action\":\"refund\",\"phase\":\"sent\",\"actionId\":\"a\xff\"}", // read as U+FFFD
		`{"ACtion":"0","PHASE":"0","ACtion":null}`,                          // null leaves it
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		if bytes.IndexByte(line, '\n') >= 0 {
			return // lines never hold one
		}
		var fs fields
		err := walk(line, &fs)
		e, ok := decode(line)
		if !ok || !json.Valid(line) {
			return
		}
		require.NoError(t, err, "encoding/json reads %q as an entry", line)
		require.True(t, unescape(line, &fs))
		assert.Equal(t, e.Action, string(fs.action))
		assert.Equal(t, e.Phase, string(fs.phase))
		assert.Equal(t, e.ActionID, string(fs.actionID))
		assert.Equal(t, e.ObjectID, string(fs.objectID))
		assert.Equal(t, e.IdempotencyKey, string(fs.key))
	})
}
