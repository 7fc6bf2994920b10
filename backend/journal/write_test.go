package journal

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// failingFile is a real journal file whose next write stops after allow
// bytes with ENOSPC, as a write on a full disk does; truncErr and syncErr
// make those fail too.
type failingFile struct {
	*os.File
	mu       sync.Mutex
	allow    int // -1: writes pass
	truncErr error
	syncErr  error
}

func (f *failingFile) Write(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.allow < 0 || len(p) <= f.allow {
		return f.File.Write(p)
	}
	n, err := f.File.Write(p[:f.allow])
	f.allow = -1
	if err != nil {
		return n, err
	}
	return n, syscall.ENOSPC
}

func (f *failingFile) Truncate(size int64) error {
	if f.truncErr != nil {
		return f.truncErr
	}
	return f.File.Truncate(size)
}

func (f *failingFile) Sync() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if err := f.syncErr; err != nil {
		f.syncErr = nil
		return err
	}
	return f.File.Sync()
}

// openFailing opens a journal at a new path with one whole entry in it,
// its file wrapped.
func openFailing(t *testing.T) (*Journal, *failingFile, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	j, err := Open(path)
	require.NoError(t, err)
	t.Cleanup(func() { _ = j.Close() })
	require.NoError(t, j.Record(withID(entry("refund", PhaseSent, "1"), "a-1")))
	ff := &failingFile{File: j.f.(*os.File), allow: -1}
	j.f = ff
	return j, ff, path
}

func withID(e Entry, id string) Entry { e.ActionID = id; return e }

// wholeLines checks that the file is whole JSON lines, each ended, and
// returns their action IDs.
func wholeLines(t *testing.T, path string) []string {
	t.Helper()
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	require.True(t, len(raw) == 0 || raw[len(raw)-1] == '\n', "the file ends with a whole line: %q", tail(raw))
	var ids []string
	for i, line := range strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n") {
		if line == "" {
			continue
		}
		var e Entry
		require.NoError(t, json.Unmarshal([]byte(line), &e), "line %d is a whole entry: %q", i+1, line)
		ids = append(ids, e.ActionID)
	}
	return ids
}

func tail(b []byte) []byte {
	if len(b) > 80 {
		return b[len(b)-80:]
	}
	return b
}

// A full disk stops a write mid-line: the fragment is cut away, so the next
// entry is a line of its own (it used to be glued to the fragment and lost
// on reading), and the caller learns the entry is not written.
func TestAWriteCutShortIsCutAwayAndTheNextEntryIsWhole(t *testing.T) {
	j, ff, path := openFailing(t)
	before, _ := os.ReadFile(path)
	ff.allow = 37
	err := j.Record(withID(entry("refund", PhaseSent, "2"), "a-2"))
	require.ErrorIs(t, err, syscall.ENOSPC, "the caller learns the sent line is not written, and sends nothing")
	after, _ := os.ReadFile(path)
	assert.Equal(t, string(before), string(after), "nothing of the failed entry is left")

	require.NoError(t, j.Record(withID(entry("refund", PhaseSent, "3"), "a-3")))
	assert.Equal(t, []string{"a-1", "a-3"}, wholeLines(t, path))
	require.NoError(t, j.Close())
	j2, err := Open(path)
	require.NoError(t, err)
	defer j2.Close()
	assert.Nil(t, j2.Opened().Corrupt)
	assert.Equal(t, []string{"a-1", "a-3"}, actionIDs(j2.Opened().Open), "the next start sees both actions open")
}

// When the fragment cannot be cut away either, the next entry starts on a
// line of its own, and the fragment reads as a torn line.
func TestWhenTheCutFailsTooTheNextEntryStartsOnANewLine(t *testing.T) {
	j, ff, path := openFailing(t)
	ff.allow, ff.truncErr = 50, errors.New("input/output error")
	err := j.Record(withID(entry("refund", PhaseSent, "2"), "a-2"))
	require.ErrorIs(t, err, syscall.ENOSPC)
	assert.Contains(t, err.Error(), "the next entry starts on a new line")

	ff.truncErr = nil
	require.NoError(t, j.Record(withID(entry("refund", PhaseSent, "3"), "a-3")))
	raw, _ := os.ReadFile(path)
	lines := strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n")
	require.Len(t, lines, 3, "the entry, the fragment, the next entry: %q", raw)
	assert.Len(t, lines[1], 50, "the fragment stands alone")
	var e Entry
	require.NoError(t, json.Unmarshal([]byte(lines[2]), &e))
	assert.Equal(t, "a-3", e.ActionID)

	// A second failure keeps the fragment and the newline still owed.
	ff.allow = 10
	require.Error(t, j.Record(withID(entry("refund", PhaseSent, "4"), "a-4")))
	require.NoError(t, j.Record(withID(entry("refund", PhaseSent, "5"), "a-5")))

	got, err := Read(path)
	require.NoError(t, err, "a fragment is a torn line, not corruption")
	assert.Equal(t, []string{"a-1", "a-3", "a-5"}, actionIDs(got))
}

// A line written but not synced may not be on disk, and its action will not
// be sent: the line is cut away, or a later start would send it.
func TestASyncThatFailsCutsTheLineAway(t *testing.T) {
	j, ff, path := openFailing(t)
	ff.syncErr = syscall.EIO
	err := j.Record(withID(entry("refund", PhaseSent, "2"), "a-2"))
	require.ErrorIs(t, err, syscall.EIO)
	assert.Contains(t, err.Error(), "syncing")
	assert.Equal(t, []string{"a-1"}, wholeLines(t, path))
	require.NoError(t, j.Record(withID(entry("refund", PhaseSent, "3"), "a-3")))
	assert.Equal(t, []string{"a-1", "a-3"}, wholeLines(t, path))
}

// On a file system that is really full (a tmpfs of 64 KiB), as far as this
// system lets a test make one: it needs root to mount.
func TestOnAFullFileSystem(t *testing.T) {
	if runtime.GOOS != "linux" || os.Geteuid() != 0 {
		t.Skip("mounting a small tmpfs needs Linux and root; the injected failures above cover the same ground")
	}
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs here (%v: %s)", err, bytes.TrimSpace(out))
	}
	t.Cleanup(func() { _ = exec.Command("umount", dir).Run() })
	path := filepath.Join(dir, "journal.jsonl")
	j, err := Open(path)
	require.NoError(t, err)
	defer j.Close()
	require.NoError(t, j.Record(withID(entry("refund", PhaseSent, "1"), "a-1")))

	// Fill the rest of the disk.
	filler, err := os.Create(filepath.Join(dir, "filler"))
	require.NoError(t, err)
	block := bytes.Repeat([]byte("x"), 512)
	for {
		if _, err := filler.Write(block); err != nil {
			require.ErrorIs(t, err, syscall.ENOSPC)
			break
		}
	}
	require.NoError(t, filler.Close())

	big := withID(entry("refund", PhaseSent, "2"), "a-2")
	big.Error = strings.Repeat("y", 8<<10) // longer than any space left
	err = j.Record(big)
	require.ErrorIs(t, err, syscall.ENOSPC)
	assert.Equal(t, []string{"a-1"}, wholeLines(t, path), "the fragment is gone")

	require.NoError(t, os.Remove(filepath.Join(dir, "filler")))
	require.NoError(t, j.Record(withID(entry("refund", PhaseSent, "3"), "a-3")))
	assert.Equal(t, []string{"a-1", "a-3"}, wholeLines(t, path))
}

// A journal an older paydash damaged that way still gives the entry that
// was glued to the fragment.
func TestAnEntryGluedToAFragmentIsRead(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	first, _ := json.Marshal(withID(entry("refund", PhaseSent, "1"), "a-1"))
	glued, _ := json.Marshal(withID(entry("refund", PhaseSent, "2"), "a-2"))
	fragment := `{"time":"2026-11-21T10:00:00Z","action":"refund","phase":"done","objectId":"1","amo`
	content := string(first) + "\n" + fragment + string(glued) + "\n"
	require.NoError(t, os.WriteFile(path, []byte(content), 0o600))

	got, err := Read(path)
	require.NoError(t, err)
	assert.Equal(t, []string{"a-1", "a-2"}, actionIDs(got))

	j, err := Open(path)
	require.NoError(t, err)
	defer j.Close()
	assert.Nil(t, j.Opened().Corrupt)
	assert.Equal(t, []string{"a-1", "a-2"}, actionIDs(j.Opened().Open), "the glued sent line is an open action")
}

// A torn last line (a crash mid-write) is ended by the next entry's
// newline, not at Open: a start on a full disk still opens the journal.
func TestATornEndIsEndedByTheNextEntry(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	first, _ := json.Marshal(withID(entry("refund", PhaseSent, "1"), "a-1"))
	require.NoError(t, os.WriteFile(path, append(first, "\n{\"time\":\"2026"...), 0o600))
	j, err := Open(path)
	require.NoError(t, err)
	defer j.Close()
	raw, _ := os.ReadFile(path)
	assert.True(t, strings.HasSuffix(string(raw), `{"time":"2026`), "Open writes nothing")
	require.NoError(t, j.Record(withID(entry("refund", PhaseDone, "1"), "a-1")))
	got, err := Read(path)
	require.NoError(t, err)
	assert.Len(t, got, 2)
	assert.Equal(t, []string{"a-1"}, actionIDs(j.Opened().Open), "a-1 was open when the journal was opened")
}

func actionIDs(es []Entry) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.ActionID)
	}
	return out
}

// Record names the service in every entry, by the entry's interface.
func TestRecordNamesTheService(t *testing.T) {
	v2 := NewService("https://pay.example.com", "v2", false, "tok")
	v1 := NewService("https://pay.example.com", "v1", false, "login", "pw")
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	j, err := OpenWith(path, Options{Services: []Service{v2, v1}})
	require.NoError(t, err)
	defer j.Close()
	e := entry("refund", PhaseSent, "1")
	e.Interface = "v1"
	require.NoError(t, j.Record(e))
	e.Interface = ""
	require.NoError(t, j.Record(e), "no interface: the carrier's")
	other := NewService("https://other.example.com", "v2", false, "tok")
	e.Service = &other
	require.NoError(t, j.Record(e), "a service given is kept")
	got, err := Read(path)
	require.NoError(t, err)
	require.Len(t, got, 3)
	assert.Equal(t, v1, *got[0].Service)
	assert.Equal(t, v2, *got[1].Service)
	assert.Equal(t, other, *got[2].Service)
	assert.True(t, j.Serves(v1))
	assert.True(t, j.Serves(v2))
	assert.False(t, j.Serves(other))
	assert.Equal(t, v1, j.ServiceFor("v1"))
	raw, _ := os.ReadFile(path)
	assert.NotContains(t, string(raw), "tok\"")
	assert.NotContains(t, string(raw), "pw")
	assert.Contains(t, string(raw), `"service":{"origin":"https://pay.example.com","interface":"v1","credentials":"pbkdf2-sha256:`)
}

func TestFingerprintAndOrigin(t *testing.T) {
	for in, want := range map[string]string{
		"https://Pay.Example.com":          "https://pay.example.com",
		"https://pay.example.com:443/api/": "https://pay.example.com",
		"https://pay.example.com:8443":     "https://pay.example.com:8443",
		"http://127.0.0.1:80":              "http://127.0.0.1",
		"HTTPS://[::1]:41234/":             "https://[::1]:41234",
		"https://[::1]/":                   "https://[::1]",
	} {
		assert.Equal(t, want, Origin(in), in)
	}
	base := Fingerprint("https://pay.example.com", "v2", "pdv2_secret")
	assert.Regexp(t, `^pbkdf2-sha256:[0-9a-f]{32}$`, base)
	assert.NotContains(t, base, "secret")
	assert.Equal(t, base, Fingerprint("https://pay.example.com", "v2", "pdv2_secret"), "the same every time")
	for what, other := range map[string]string{
		"another secret":    Fingerprint("https://pay.example.com", "v2", "pdv2_secreT"),
		"another origin":    Fingerprint("https://pay2.example.com", "v2", "pdv2_secret"),
		"another interface": Fingerprint("https://pay.example.com", "v1", "pdv2_secret"),
		"split otherwise":   Fingerprint("https://pay.example.com", "v2", "pdv2_", "secret"),
	} {
		assert.NotEqual(t, base, other, what)
	}
	s := NewService("https://pay.example.com/", "v1", true, "accountant", "pw")
	assert.Equal(t, Service{Origin: "https://pay.example.com", Interface: "v1",
		Credentials: Fingerprint("https://pay.example.com", "v1", "accountant", "pw"), Embedded: true}, s)
	assert.Equal(t, "https://pay.example.com (v1)", s.String())
	assert.True(t, Service{}.IsZero())
}

func ExampleFingerprint() {
	fmt.Println(len(Fingerprint("https://pay.example.com", "v2", "pdv2_token")))
	// Output: 46
}
