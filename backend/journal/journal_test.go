package journal

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func entry(action, phase, id string) Entry {
	return Entry{Action: action, Phase: phase, ObjectID: id, Amount: "150.00", Currency: "RUB",
		Interface: "v2", IdempotencyKey: "k-" + id}
}

func TestOpenCreatesPrivateFileAndDirectories(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "paydash", "journal.jsonl")
	j, err := Open(path)
	require.NoError(t, err)
	require.NoError(t, j.Close())

	st, err := os.Stat(path)
	require.NoError(t, err)
	if runtime.GOOS != "windows" {
		assert.Equal(t, os.FileMode(0o600), st.Mode().Perm(), "the journal is readable by its owner only")
		dir, err := os.Stat(filepath.Dir(path))
		require.NoError(t, err)
		assert.Equal(t, os.FileMode(0o700), dir.Mode().Perm())
	}
	assert.Equal(t, int64(0), st.Size())
}

// fixedNow is the clock of the tests that open one file more than once.
// On the machine's clock, a second Open in a later month than the file's
// first line (a line these tests date November 2026, or a month that
// ends between the two Opens) would roll the journal over, which
// rollover_test.go tests and these do not.
var fixedNow = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

func openFixed(path string) (*Journal, error) { return OpenWith(path, Options{Now: clock(fixedNow)}) }

func TestRecordAppendsAcrossOpenAndClose(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	at := time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)

	j, err := openFixed(path)
	require.NoError(t, err)
	e := entry("refund", PhaseSent, "43149010")
	e.Time = at
	require.NoError(t, j.Record(e))
	require.NoError(t, j.Close())

	j, err = openFixed(path)
	require.NoError(t, err)
	done := entry("refund", PhaseDone, "43149010")
	done.Result = "refund 7000123 Pending"
	require.NoError(t, j.Record(done))
	require.NoError(t, j.Close())

	got, err := Read(path)
	require.NoError(t, err)
	require.Len(t, got, 2, "the second Open appends, it does not truncate")
	assert.Equal(t, PhaseSent, got[0].Phase)
	assert.True(t, got[0].Time.Equal(at), "a given time is kept")
	assert.Equal(t, PhaseDone, got[1].Phase)
	assert.Equal(t, "refund 7000123 Pending", got[1].Result)
	assert.True(t, got[1].Time.Equal(fixedNow), "a zero time becomes the journal's now: %s", got[1].Time)

	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n")
	require.Len(t, lines, 2)
	var m map[string]any
	require.NoError(t, json.Unmarshal([]byte(lines[0]), &m))
	for _, k := range []string{"time", "action", "phase", "objectId", "amount", "currency", "interface", "idempotencyKey"} {
		assert.Contains(t, m, k)
	}
	assert.NotContains(t, m, "error", "empty optional fields are left out")
}

func TestConcurrentRecordsAreWholeLines(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	j, err := Open(path)
	require.NoError(t, err)
	const writers, each = 8, 50
	long := strings.Repeat("x", 3000) // longer than a pipe's atomic write, to catch split writes
	var wg sync.WaitGroup
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				e := entry("capture", PhaseSent, fmt.Sprintf("%d-%d", w, i))
				e.Result = long
				assert.NoError(t, j.Record(e))
			}
		}()
	}
	wg.Wait()
	require.NoError(t, j.Close())

	got, err := Read(path)
	require.NoError(t, err, "every line is a whole entry")
	require.Len(t, got, writers*each)
	seen := map[string]bool{}
	for _, e := range got {
		assert.Equal(t, long, e.Result)
		seen[e.ObjectID] = true
	}
	assert.Len(t, seen, writers*each)
}

// fakeFile records the calls the journal makes.
type fakeFile struct {
	mu       sync.Mutex
	writes   []string
	syncs    int
	writeErr error
	syncErr  error
	short    bool
	truncs   int
}

func (f *fakeFile) Write(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.writeErr != nil {
		return 0, f.writeErr
	}
	f.writes = append(f.writes, string(p))
	if f.short {
		return len(p) / 2, nil
	}
	return len(p), nil
}
func (f *fakeFile) Sync() error  { f.mu.Lock(); defer f.mu.Unlock(); f.syncs++; return f.syncErr }
func (f *fakeFile) Close() error { return nil }
func (f *fakeFile) Truncate(int64) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.truncs++
	return nil
}

func TestRecordWritesOnceThenSyncs(t *testing.T) {
	ff := &fakeFile{}
	j := &Journal{path: "fake", now: time.Now, f: ff}
	require.NoError(t, j.Record(entry("cancel_hold", PhaseSent, "1")))
	require.NoError(t, j.Record(entry("cancel_hold", PhaseDone, "1")))
	assert.Len(t, ff.writes, 2, "one write call per entry")
	for _, w := range ff.writes {
		assert.True(t, strings.HasSuffix(w, "\n"))
		assert.Equal(t, 1, strings.Count(w, "\n"))
	}
	assert.Equal(t, 2, ff.syncs, "every entry is synced to disk")
}

func TestRecordReturnsErrors(t *testing.T) {
	boom := errors.New("disk full")
	j := &Journal{path: "fake", now: time.Now, f: &fakeFile{writeErr: boom}}
	assert.ErrorIs(t, j.Record(entry("refund", PhaseSent, "1")), boom)

	j = &Journal{path: "fake", now: time.Now, f: &fakeFile{syncErr: boom}}
	err := j.Record(entry("refund", PhaseSent, "1"))
	assert.ErrorIs(t, err, boom)
	assert.Contains(t, err.Error(), "sync")

	j = &Journal{path: "fake", now: time.Now, f: &fakeFile{short: true}}
	assert.Error(t, j.Record(entry("refund", PhaseSent, "1")))

	var nilJ *Journal
	assert.Error(t, nilJ.Record(entry("refund", PhaseSent, "1")), "a nil journal refuses, so no action goes out unrecorded")
	assert.NoError(t, nilJ.Close())

	j = &Journal{path: "fake", now: time.Now, f: &fakeFile{}}
	assert.Error(t, j.Record(Entry{ObjectID: "1"}), "an entry without action and phase is refused")
	require.NoError(t, j.Close())
	assert.ErrorIs(t, j.Record(entry("refund", PhaseSent, "1")), ErrClosed)
	assert.NoError(t, j.Close(), "a second Close is harmless")
}

func TestOpenFailsOnReadOnlyPaths(t *testing.T) {
	if runtime.GOOS == "windows" || os.Geteuid() == 0 {
		// root ignores permission bits; the file-in-the-way case below still runs
		t.Log("running as root: skipping the permission-bit cases")
	} else {
		dir := filepath.Join(t.TempDir(), "ro")
		require.NoError(t, os.Mkdir(dir, 0o500))
		_, err := Open(filepath.Join(dir, "journal.jsonl"))
		assert.Error(t, err, "a directory without write permission")

		path := filepath.Join(t.TempDir(), "journal.jsonl")
		require.NoError(t, os.WriteFile(path, nil, 0o400))
		_, err = Open(path)
		assert.Error(t, err, "a read-only file")
	}

	// A file where a directory should be: fails for root too.
	base := t.TempDir()
	blocker := filepath.Join(base, "state")
	require.NoError(t, os.WriteFile(blocker, []byte("x"), 0o600))
	_, err := Open(filepath.Join(blocker, "paydash", "journal.jsonl"))
	assert.Error(t, err)

	// A directory where the file should be.
	_, err = Open(base)
	assert.Error(t, err)

	_, err = Open("")
	assert.Error(t, err)
}

// sentThenTorn is a new journal holding one sent line followed by torn,
// a line cut short as a crash mid-write leaves it.
func sentThenTorn(t *testing.T, torn string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	j, err := openFixed(path)
	require.NoError(t, err)
	require.NoError(t, j.Record(entry("refund", PhaseSent, "1")))
	require.NoError(t, j.Close())
	appendRaw(t, path, torn)
	return path
}

// appendRaw appends text to the file at path as it is.
func appendRaw(t *testing.T, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteString(text)
	require.NoError(t, err)
	require.NoError(t, f.Close())
}

// assertOpenEndsTheTornLine checks that opening the journal at path
// again starts a new line: the next entry is whole, and the torn line,
// now in the middle, is still a torn entry, not corruption.
func assertOpenEndsTheTornLine(t *testing.T, path, msg string) {
	t.Helper()
	j, err := openFixed(path)
	require.NoError(t, err)
	require.NoError(t, j.Record(entry("refund", PhaseDone, "1")))
	require.NoError(t, j.Close())
	got, err := Read(path)
	require.NoError(t, err, msg)
	require.Len(t, got, 2)
	assert.Equal(t, PhaseDone, got[1].Phase)
}

func TestReadToleratesATornLastLine(t *testing.T) {
	path := sentThenTorn(t, `{"time":"2026-11-21T10:00:00Z","action":"refund","pha`)
	got, err := Read(path)
	require.NoError(t, err, "a torn last line is what a crash mid-write leaves")
	assert.Len(t, got, 1)

	assertOpenEndsTheTornLine(t, path, "a torn line stays a torn line once Open ended it")

	// A line that is not a cut-short entry is corruption, and reported.
	appendRaw(t, path, "not json at all\n{\"action\":\"refund\"} trailing\n")
	got, err = Read(path)
	var ce *CorruptError
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, []int{4, 5}, ce.Lines)
	assert.Len(t, got, 2)

	_, err = Read(filepath.Join(t.TempDir(), "missing.jsonl"))
	assert.ErrorIs(t, err, os.ErrNotExist)
}

func TestASecondOpenOfTheSamePathIsRefusedUntilClose(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "solaris" || runtime.GOOS == "aix" {
		t.Skip("no flock on this system: the journal is not locked")
	}
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	first, err := openFixed(path)
	require.NoError(t, err)

	second, err := openFixed(path)
	require.ErrorIs(t, err, ErrInUse, "another paydash must not reconcile the first one's actions in flight")
	assert.Nil(t, second)
	assert.Equal(t, "journal: "+path+" is in use by another paydash; close it or give --journal another file", err.Error())

	require.NoError(t, first.Record(entry("refund", PhaseSent, "1")), "the holder still writes")
	require.NoError(t, first.Close())

	second, err = openFixed(path)
	require.NoError(t, err, "Close releases the lock")
	require.NoError(t, second.Record(entry("refund", PhaseDone, "1")))
	require.NoError(t, second.Close())

	got, err := Read(path)
	require.NoError(t, err, "Read needs no lock: it works beside an open journal")
	assert.Len(t, got, 2)
}

// Open's clock is the machine's. A wrong one is years off (a zero time)
// or hours (a zone's wall time taken for UTC); writing and reading back
// one line takes no machine, however loaded, a minute.
func TestOpenStampsEntriesByTheMachinesClock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	j, err := Open(path)
	require.NoError(t, err)
	defer j.Close()
	require.NoError(t, j.Record(entry("capture", PhaseSent, "1")))
	got, err := Read(path)
	require.NoError(t, err)
	require.Len(t, got, 1)
	assert.WithinDuration(t, time.Now(), got[0].Time, time.Minute)
}

func TestReadBesideAnOpenJournal(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	j, err := Open(path)
	require.NoError(t, err)
	defer j.Close()
	require.NoError(t, j.Record(entry("capture", PhaseSent, "1")))
	got, err := Read(path)
	require.NoError(t, err)
	require.Len(t, got, 1)
}

func TestNewFieldsAndPhases(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	j, err := Open(path)
	require.NoError(t, err)
	e := entry("refund", PhaseUnknown, "43149010")
	e.ActionID, e.Error = "a-1", "no answer from the service in time"
	require.NoError(t, j.Record(e))
	e = entry("refund", PhaseDone, "43149010")
	e.ActionID, e.How, e.Result = "a-1", "asked again with the same idempotency key", "refund 7000123 Pending"
	require.NoError(t, j.Record(e))
	require.NoError(t, j.Close())

	got, err := Read(path)
	require.NoError(t, err)
	require.Len(t, got, 2)
	assert.Equal(t, "a-1", got[0].ActionID)
	assert.Equal(t, PhaseUnknown, got[0].Phase)
	assert.Equal(t, "asked again with the same idempotency key", got[1].How)

	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Contains(t, string(raw), `"actionId":"a-1"`)
	assert.Contains(t, string(raw), `"how":"asked again with the same idempotency key"`)

	for phase, final := range map[string]bool{PhaseSent: false, PhaseDone: true, PhaseFailed: true,
		PhaseUnknown: false, PhaseAbandoned: false, "": false, "later": false} {
		assert.Equal(t, final, Final(phase), phase)
	}
}

func TestParams(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	j, err := Open(path)
	require.NoError(t, err)
	e := entry("create_invoice_link", PhaseSent, "")
	e.ActionID = "a-1"
	e.Params = json.RawMessage(`{ "merchantId": "1001",
		"amount": {"value": 1500, "currency": "RUB"}, "orderNo": "A-17 <&>" }`)
	require.NoError(t, j.Record(e))
	require.NoError(t, j.Record(entry("capture", PhaseSent, "43149010")), "a line without params")

	bad := entry("toggle_sticker", PhaseSent, "7")
	bad.Params = json.RawMessage(`{"active":`)
	require.Error(t, j.Record(bad), "params that are not JSON are not written")
	require.NoError(t, j.Close())

	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n")
	require.Len(t, lines, 2, "one line each, the params' own line breaks gone")
	assert.Contains(t, lines[0], `"params":{"merchantId":"1001",`)
	assert.NotContains(t, lines[1], "params", "no params, no field")

	got, err := Read(path)
	require.NoError(t, err)
	require.Len(t, got, 2)
	var p struct {
		MerchantID string `json:"merchantId"`
		OrderNo    string `json:"orderNo"`
	}
	require.NoError(t, json.Unmarshal(got[0].Params, &p))
	assert.Equal(t, "1001", p.MerchantID)
	assert.Equal(t, "A-17 <&>", p.OrderNo)
	assert.Nil(t, got[1].Params)
}

func TestALineOfAnOlderPaydashStillReads(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	old := `{"time":"2026-11-21T10:00:00Z","action":"refund","phase":"sent","objectId":"43149010","amount":"500.00",` +
		`"currency":"RUB","interface":"v2","idempotencyKey":"k-1","actionId":"a-1"}` + "\n" +
		`{"time":"2026-11-21T10:00:01Z","action":"capture","phase":"done","objectId":"43149011"}` + "\n"
	require.NoError(t, os.WriteFile(path, []byte(old), 0o600))
	got, err := Read(path)
	require.NoError(t, err)
	require.Len(t, got, 2)
	assert.Equal(t, "k-1", got[0].IdempotencyKey)
	assert.Nil(t, got[0].Params)
	assert.Equal(t, PhaseDone, got[1].Phase)

	// Appending to it keeps both kinds of line readable.
	j, err := openFixed(path)
	require.NoError(t, err)
	e := entry("toggle_sticker", PhaseSent, "7")
	e.Params = json.RawMessage(`{"active":false}`)
	require.NoError(t, j.Record(e))
	require.NoError(t, j.Close())
	got, err = Read(path)
	require.NoError(t, err)
	require.Len(t, got, 3)
	assert.JSONEq(t, `{"active":false}`, string(got[2].Params))
}

func TestALineTornInsideItsParamsIsTolerated(t *testing.T) {
	path := sentThenTorn(t, `{"time":"2026-11-21T10:00:00Z","action":"create_sticker","phase":"sent","objectId":"",`+
		`"params":{"merchantId":"1001","amount":{"value":15`)
	got, err := Read(path)
	require.NoError(t, err, "cut inside its params, it is still a torn last line")
	assert.Len(t, got, 1)

	assertOpenEndsTheTornLine(t, path, "and once Open ended it, a torn line in the middle")
}

func TestWhoDidItRoundTripsAndOldLinesReadWithoutIt(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	j, err := openFixed(path)
	require.NoError(t, err)
	e := entry("refund", PhaseSent, "1")
	e.Person, e.Approver, e.ApproverKey = "anna", "boris", "SHA256:abc"
	require.NoError(t, j.Record(e))
	require.NoError(t, j.Record(entry("refund", PhaseDone, "1")))
	require.NoError(t, j.Close())
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	lines := strings.Split(strings.TrimSpace(string(raw)), "\n")
	require.Len(t, lines, 2)
	assert.Contains(t, lines[0], `"person":"anna","approver":"boris","approverKey":"SHA256:abc"`)
	assert.NotContains(t, lines[1], `"person"`, "empty: not written")
	got, err := Read(path)
	require.NoError(t, err)
	assert.Equal(t, "anna", got[0].Person)
	assert.Equal(t, "boris", got[0].Approver)
	assert.Equal(t, "SHA256:abc", got[0].ApproverKey)
	assert.Empty(t, got[1].Person)
}
