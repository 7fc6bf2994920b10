package known

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend"
	"paydash/backend/flock"
	"paydash/backend/internal/testkit"
)

const (
	svc  = "pay.example.com"
	merc = "M-1001"
)

var t0 = time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)

// newClock is a settable clock for a Store, at t0.
func newClock() *testkit.Clock { return testkit.NewClock(t0) }

// open opens the store at path, which must be fine, with clock c.
func open(t *testing.T, path string, c *testkit.Clock) *Store {
	t.Helper()
	s, err := Open(path)
	require.NoError(t, err)
	s.now = c.Now
	return s
}

func storePath(t *testing.T) string {
	return filepath.Join(t.TempDir(), "state", "known-tokens.json")
}

func ids(ts []Token) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = t.ID
	}
	return out
}

func TestMissingFileIsEmptyAndNothingIsWrittenUntilANote(t *testing.T) {
	path := storePath(t)
	s := open(t, path, newClock())
	assert.Empty(t, s.List(svc, merc))
	require.NoError(t, s.Save())
	_, err := os.Stat(path)
	assert.ErrorIs(t, err, os.ErrNotExist, "Save without changes writes nothing")
	assert.Equal(t, path, s.Path())
}

func TestRoundTripThroughSaveAndOpen(t *testing.T) {
	path := storePath(t)
	c := newClock()
	s := open(t, path, c)
	exp := time.Date(2029, 12, 31, 0, 0, 0, 0, time.UTC)
	require.True(t, s.Note(svc, merc, Token{ID: "tok_1", Title: "4111 11•• •••• 1111", Status: backend.TokenActive,
		Expires: exp, Source: LookedUp}))
	c.Advance(time.Hour)
	require.True(t, s.Note(svc, merc, Token{ID: "tok_2", Source: SeenInPayment, Payments: []string{"43149010"}}))
	require.True(t, s.Note(svc, "M-2002", Token{ID: "tok_3", Source: Created}))
	require.True(t, s.Note("sandbox.local", merc, Token{ID: "tok_4", Source: Created}))
	require.True(t, s.Note(svc, merc, Token{ID: "tok_5", Source: Created}))
	s.Forget(svc, merc, "tok_5")
	require.NoError(t, s.Save())

	r := open(t, path, c)
	assert.Equal(t, s.List(svc, merc), r.List(svc, merc))
	assert.Equal(t, s.List(svc, "M-2002"), r.List(svc, "M-2002"))
	assert.Equal(t, s.List("sandbox.local", merc), r.List("sandbox.local", merc))
	got, ok := r.Get(svc, merc, "tok_1")
	require.True(t, ok)
	assert.Equal(t, Token{ID: "tok_1", Title: "4111 11•• •••• 1111", Status: backend.TokenActive, Expires: exp,
		FirstSeen: t0, LastSeen: t0, Source: LookedUp}, got)
	assert.Equal(t, []string{"tok_2", "tok_1"}, ids(r.List(svc, merc)), "tok_5 was forgotten")
	assert.Empty(t, r.List("sandbox.local", "M-2002"))

	// The documented format.
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Contains(t, string(raw), "\n  \"services\"", "indented, human-readable")
	var doc struct {
		Version  int
		Services map[string]map[string]struct {
			Tokens    []map[string]any `json:"tokens"`
			Forgotten []map[string]any `json:"forgotten"`
		}
	}
	require.NoError(t, json.Unmarshal(raw, &doc))
	assert.Equal(t, 1, doc.Version)
	m := doc.Services[svc][merc]
	require.Len(t, m.Tokens, 2)
	assert.Equal(t, map[string]any{"id": "tok_2", "source": "seenInPayment", "firstSeen": "2026-11-21T11:00:00Z",
		"lastSeen": "2026-11-21T11:00:00Z", "payments": []any{"43149010"}}, m.Tokens[0], "newest first, empty fields left out")
	assert.Equal(t, map[string]any{"id": "tok_1", "title": "4111 11•• •••• 1111", "status": "Active",
		"expires": "2029-12-31T00:00:00Z", "source": "lookedUp", "firstSeen": "2026-11-21T10:00:00Z",
		"lastSeen": "2026-11-21T10:00:00Z"}, m.Tokens[1])
	require.Len(t, m.Forgotten, 1)
	assert.Equal(t, "tok_5", m.Forgotten[0]["id"])
	assert.Equal(t, "created", doc.Services[svc]["M-2002"].Tokens[0]["source"])
}

func TestMergeRules(t *testing.T) {
	c := newClock()
	s := NewMemory()
	s.now = c.Now
	exp := time.Date(2029, 12, 31, 0, 0, 0, 0, time.UTC)

	require.True(t, s.Note(svc, merc, Token{ID: "tok", Title: "4111 11•• •••• 1111", Expires: exp,
		Source: SeenInPayment, Payments: []string{"p1"}}))
	c.Advance(time.Hour)
	require.True(t, s.Note(svc, merc, Token{ID: "tok", Status: backend.TokenActive, Source: LookedUp}))
	got, _ := s.Get(svc, merc, "tok")
	assert.Equal(t, Token{ID: "tok", Title: "4111 11•• •••• 1111", Status: backend.TokenActive, Expires: exp,
		FirstSeen: t0, LastSeen: t0.Add(time.Hour), Source: LookedUp, Payments: []string{"p1"}}, got,
		"a lookup adds its status and keeps the title, expiry and payments it does not tell")

	c.Advance(time.Hour)
	require.True(t, s.Note(svc, merc, Token{ID: "tok", Title: "4111 11•• •••• 9999", Source: SeenInPayment,
		Payments: []string{"p2", "p1"}}))
	got, _ = s.Get(svc, merc, "tok")
	assert.Equal(t, LookedUp, got.Source, "a weaker source does not replace a stronger one")
	assert.Equal(t, "4111 11•• •••• 9999", got.Title, "the newer note's title wins")
	assert.Equal(t, backend.TokenActive, got.Status, "a payment tells no status: the known one stays")
	assert.Equal(t, []string{"p2", "p1"}, got.Payments)
	assert.Equal(t, t0, got.FirstSeen)
	assert.Equal(t, t0.Add(2*time.Hour), got.LastSeen)

	c.Advance(time.Hour)
	require.True(t, s.Note(svc, merc, Token{ID: "tok", Status: backend.TokenRevoked, Source: Created,
		Payments: []string{"p3", "p1"}}))
	got, _ = s.Get(svc, merc, "tok")
	assert.Equal(t, Created, got.Source, "the strongest source wins")
	assert.Equal(t, backend.TokenRevoked, got.Status)
	assert.Equal(t, []string{"p3", "p1", "p2"}, got.Payments, "newest first, no duplicates")

	// Nothing new: no change, and LastSeen stays within the resolution.
	c.Advance(30 * time.Second)
	assert.False(t, s.Note(svc, merc, Token{ID: "tok", Source: SeenInPayment, Payments: []string{"p3"}}))
	got2, _ := s.Get(svc, merc, "tok")
	assert.Equal(t, got, got2)
	// News within the resolution is a change, LastSeen still does not move.
	assert.True(t, s.Note(svc, merc, Token{ID: "tok", Source: SeenInPayment, Payments: []string{"p4"}}))
	got2, _ = s.Get(svc, merc, "tok")
	assert.Equal(t, got.LastSeen, got2.LastSeen)
	assert.Equal(t, []string{"p4", "p3", "p1", "p2"}, got2.Payments)
	// Once the resolution has passed, being seen again is a change.
	c.Advance(LastSeenResolution)
	assert.True(t, s.Note(svc, merc, Token{ID: "tok", Source: SeenInPayment}))
	got2, _ = s.Get(svc, merc, "tok")
	assert.Equal(t, t0.Add(3*time.Hour+90*time.Second), got2.LastSeen)
	assert.Equal(t, t0, got2.FirstSeen)

	// The caller's FirstSeen/LastSeen are not taken.
	c.Advance(time.Hour)
	require.True(t, s.Note(svc, merc, Token{ID: "other", Source: Created, FirstSeen: t0.Add(-time.Hour), LastSeen: t0.Add(100 * time.Hour)}))
	got, _ = s.Get(svc, merc, "other")
	assert.Equal(t, c.Now(), got.FirstSeen)
	assert.Equal(t, c.Now(), got.LastSeen)
}

func TestCombineIsTheFileMergeRule(t *testing.T) {
	older := Token{ID: "tok", Title: "old title", Status: backend.TokenActive, FirstSeen: t0, LastSeen: t0.Add(time.Hour),
		Source: Created, Payments: []string{"p1", "p2"}}
	newer := Token{ID: "tok", Title: "new title", FirstSeen: t0.Add(-time.Hour), LastSeen: t0.Add(2 * time.Hour),
		Source: SeenInPayment, Payments: []string{"p3", "p1"}}
	a := &bucket{tokens: map[string]Token{"tok": older}, forgotten: map[string]time.Time{}}
	b := &bucket{tokens: map[string]Token{"tok": newer}, forgotten: map[string]time.Time{}}
	for _, m := range []*bucket{mergeBuckets(a, b, t0), mergeBuckets(b, a, t0)} {
		assert.Equal(t, Token{ID: "tok", Title: "new title", Status: backend.TokenActive, FirstSeen: t0.Add(-time.Hour),
			LastSeen: t0.Add(2 * time.Hour), Source: Created, Payments: []string{"p3", "p1", "p2"}}, m.tokens["tok"],
			"the later-seen entry is the newer, whichever side it is on")
	}
	assert.Equal(t, []string{"p1", "p2"}, older.Payments, "the inputs are not changed")
}

func TestListIsNewestFirstThenByID(t *testing.T) {
	c := newClock()
	s := NewMemory()
	s.now = c.Now
	for _, id := range []string{"b", "a", "c"} {
		s.Note(svc, merc, Token{ID: id, Source: SeenInPayment})
	}
	c.Advance(2 * time.Minute)
	s.Note(svc, merc, Token{ID: "d", Source: SeenInPayment})
	c.Advance(2 * time.Minute)
	s.Note(svc, merc, Token{ID: "c", Source: SeenInPayment})
	assert.Equal(t, []string{"c", "d", "a", "b"}, ids(s.List(svc, merc)))
	assert.Empty(t, s.List(svc, "other merchant"))
	assert.Empty(t, s.List("other.service", merc))
}

func TestMethodsReturnCopies(t *testing.T) {
	s := NewMemory()
	in := Token{ID: "tok", Source: SeenInPayment, Payments: []string{"p1", "p2"}}
	s.Note(svc, merc, in)
	in.Payments[0] = "changed by the caller"

	got, ok := s.Get(svc, merc, "tok")
	require.True(t, ok)
	assert.Equal(t, []string{"p1", "p2"}, got.Payments, "Note keeps its own copy")
	got.Payments[0] = "x"
	s.List(svc, merc)[0].Payments[1] = "y"
	got, _ = s.Get(svc, merc, "tok")
	assert.Equal(t, []string{"p1", "p2"}, got.Payments, "Get and List return copies")
}

func TestAtMostMaxTokensPerMerchant(t *testing.T) {
	path := storePath(t)
	c := newClock()
	s := open(t, path, c)
	for i := range MaxTokens {
		require.True(t, s.Note(svc, merc, Token{ID: fmt.Sprintf("tok_%05d", i), Source: SeenInPayment}))
		c.Advance(time.Millisecond)
	}
	s.Note(svc, "another", Token{ID: "tok_00000", Source: SeenInPayment})
	// Seeing tok_00000 again (past the resolution) makes tok_00001 the oldest.
	c.Advance(LastSeenResolution)
	require.True(t, s.Note(svc, merc, Token{ID: "tok_00000", Source: SeenInPayment}))
	require.Len(t, s.List(svc, merc), MaxTokens)

	require.True(t, s.Note(svc, merc, Token{ID: "tok_new", Source: SeenInPayment}))
	list := s.List(svc, merc)
	assert.Len(t, list, MaxTokens)
	_, ok := s.Get(svc, merc, "tok_00001")
	assert.False(t, ok, "the least recently seen token is dropped")
	for _, id := range []string{"tok_new", "tok_00000", "tok_00002", "tok_09999"} {
		_, ok := s.Get(svc, merc, id)
		assert.True(t, ok, id)
	}
	assert.Len(t, s.List(svc, "another"), 1, "the bound is per merchant")

	require.NoError(t, s.Save())
	r := open(t, path, c)
	assert.Equal(t, list, r.List(svc, merc))
}

func TestFileWithTooManyTokensIsCut(t *testing.T) {
	st := state{}
	b := newBucket()
	for i := range MaxTokens + 5 {
		id := fmt.Sprintf("tok_%05d", i)
		b.tokens[id] = Token{ID: id, LastSeen: t0.Add(time.Duration(i) * time.Second), Source: Created}
	}
	st[key{svc, merc}] = b
	raw, _, err := encode(st, 1<<30)
	require.NoError(t, err)
	path := storePath(t)
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o700))
	require.NoError(t, os.WriteFile(path, raw, 0o600))

	s := open(t, path, newClock())
	list := s.List(svc, merc)
	require.Len(t, list, MaxTokens)
	assert.Equal(t, "tok_10004", list[0].ID)
	assert.Equal(t, "tok_00005", list[len(list)-1].ID)
}

func TestNoteRefusesBadIDsAndKeys(t *testing.T) {
	s := NewMemory()
	ok128 := strings.Repeat("a", MaxIDLen)
	assert.True(t, s.Note(svc, merc, Token{ID: ok128, Source: Created}), "128 bytes is allowed")
	for name, id := range map[string]string{
		"empty":            "",
		"129 bytes":        ok128 + "a",
		"129 bytes of é":   strings.Repeat("é", 64) + "a",
		"NUL":              "tok\x00",
		"newline":          "tok\n1",
		"ESC":              "tok\x1b[2J",
		"DEL":              "tok\x7f",
		"C1 control (NEL)": "tok\u0085",
		"invalid UTF-8":    "tok\xff",
	} {
		assert.False(t, s.Note(svc, merc, Token{ID: id, Source: Created}), name)
		_, ok := s.Get(svc, merc, id)
		assert.False(t, ok, name)
	}
	assert.False(t, s.Note(svc, merc, Token{ID: "tok", Source: ""}), "a note says how the token became known")
	assert.False(t, s.Note(svc, merc, Token{ID: "tok", Source: "guessed"}))
	assert.False(t, s.Note("", merc, Token{ID: "tok", Source: Created}), "no service")
	assert.False(t, s.Note("pay\nexample", merc, Token{ID: "tok", Source: Created}))
	assert.False(t, s.Note(svc, "M\x00", Token{ID: "tok", Source: Created}))
	assert.Len(t, s.List(svc, merc), 1)

	// Forget ignores bad ids too (and does not panic).
	s.Forget(svc, merc, strings.Repeat("a", MaxIDLen+1))
	s.Forget("", merc, "tok")
	assert.Len(t, s.List(svc, merc), 1)
}

func TestNoteBoundsPaymentsAndText(t *testing.T) {
	s := NewMemory()
	var ps []string
	for i := range 60 {
		ps = append(ps, fmt.Sprintf("p%02d", i))
	}
	ps = append([]string{"p00", "bad\nid", strings.Repeat("9", MaxIDLen+1), ""}, ps...)
	s.Note(svc, merc, Token{ID: "tok", Source: SeenInPayment, Payments: ps,
		Title: strings.Repeat("é", MaxTitleLen), Status: backend.TokenStatus(strings.Repeat("S", 100))})
	got, _ := s.Get(svc, merc, "tok")
	require.Len(t, got.Payments, MaxPayments)
	assert.Equal(t, "p00", got.Payments[0])
	assert.Equal(t, "p49", got.Payments[MaxPayments-1], "the first (newest) 50 valid, distinct ids")
	assert.Equal(t, strings.Repeat("é", MaxTitleLen/2), got.Title, "cut at a character boundary")
	assert.Len(t, got.Status, MaxStatusLen)

	// Merging keeps the newest 50.
	s.Note(svc, merc, Token{ID: "tok", Source: SeenInPayment, Payments: []string{"newest"}})
	got, _ = s.Get(svc, merc, "tok")
	require.Len(t, got.Payments, MaxPayments)
	assert.Equal(t, "newest", got.Payments[0])
	assert.Equal(t, "p48", got.Payments[MaxPayments-1])
}

func TestCorruptFileIsMovedAsideAndTheStoreStillWorks(t *testing.T) {
	path := storePath(t)
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o700))
	damaged := []byte(`{"version":1,"services":{"pay.example.com":{"M-1001":{"tokens":[{"id":"tok_1"`)
	require.NoError(t, os.WriteFile(path, damaged, 0o600))

	s, err := Open(path)
	require.NotNil(t, s, "a damaged file does not stop paydash")
	var ce *CorruptError
	require.ErrorAs(t, err, &ce)
	assert.Equal(t, path, ce.Path)
	assert.NotNil(t, ce.Reason)
	assert.True(t, strings.HasPrefix(ce.MovedTo, path+".corrupt-"), ce.MovedTo)
	assert.Contains(t, err.Error(), "moved aside to "+ce.MovedTo)
	assert.Contains(t, err.Error(), path)

	kept, rerr := os.ReadFile(ce.MovedTo)
	require.NoError(t, rerr)
	assert.Equal(t, damaged, kept, "the user's data is kept as it was")
	_, serr := os.Stat(path)
	assert.ErrorIs(t, serr, os.ErrNotExist)

	assert.Empty(t, s.List(svc, merc))
	require.True(t, s.Note(svc, merc, Token{ID: "tok_2", Source: Created}))
	require.NoError(t, s.Save())
	r, err := Open(path)
	require.NoError(t, err)
	assert.Equal(t, []string{"tok_2"}, ids(r.List(svc, merc)))
	kept, _ = os.ReadFile(ce.MovedTo)
	assert.Equal(t, damaged, kept)

	// A second damaged file in the same second gets a name of its own.
	require.NoError(t, os.WriteFile(path, []byte("not json"), 0o600))
	_, err2 := Open(path)
	var ce2 *CorruptError
	require.ErrorAs(t, err2, &ce2)
	assert.NotEqual(t, ce.MovedTo, ce2.MovedTo)
	kept, _ = os.ReadFile(ce.MovedTo)
	assert.Equal(t, damaged, kept, "the first one is not overwritten")
}

func TestFileWithoutVersionIsCorrupt(t *testing.T) {
	path := storePath(t)
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o700))
	require.NoError(t, os.WriteFile(path, []byte(`{"services":{}}`), 0o600))
	_, err := Open(path)
	var ce *CorruptError
	require.ErrorAs(t, err, &ce)
	assert.NotEmpty(t, ce.MovedTo)
}

func TestCorruptFileFoundBySaveIsMovedAsideThenWritten(t *testing.T) {
	path := storePath(t)
	c := newClock()
	s := open(t, path, c)
	require.True(t, s.Note(svc, merc, Token{ID: "tok_1", Source: Created}))
	require.NoError(t, s.Save())
	require.NoError(t, os.WriteFile(path, []byte("garbage"), 0o600))

	require.True(t, s.Note(svc, merc, Token{ID: "tok_2", Source: Created}))
	err := s.Save()
	var ce *CorruptError
	require.ErrorAs(t, err, &ce)
	require.NotEmpty(t, ce.MovedTo)
	kept, _ := os.ReadFile(ce.MovedTo)
	assert.Equal(t, "garbage", string(kept))
	r := open(t, path, c)
	assert.ElementsMatch(t, []string{"tok_1", "tok_2"}, ids(r.List(svc, merc)))
}

func TestTooLargeFileIsRefusedAndLeftAlone(t *testing.T) {
	path := storePath(t)
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o700))
	big := []byte(`{"version":1,"services":{}}` + strings.Repeat(" ", MaxFileSize))
	require.NoError(t, os.WriteFile(path, big, 0o600))

	s, err := Open(path)
	require.ErrorIs(t, err, ErrTooLarge)
	assert.Contains(t, err.Error(), path)
	require.NotNil(t, s)
	assert.Empty(t, s.List(svc, merc))
	require.NoError(t, s.Save(), "nothing to save")

	require.True(t, s.Note(svc, merc, Token{ID: "tok", Source: Created}), "the store works in memory")
	assert.ErrorIs(t, s.Save(), ErrTooLarge, "and does not write over a file it could not read")
	got, _ := os.ReadFile(path)
	assert.Equal(t, big, got)
	matches, _ := filepath.Glob(path + ".corrupt-*")
	assert.Empty(t, matches, "a large file is not moved aside")

	// Once the file is moved away, the pending changes are saved.
	require.NoError(t, os.Rename(path, path+".big"))
	require.NoError(t, s.Save())
	r, err := Open(path)
	require.NoError(t, err)
	assert.Len(t, r.List(svc, merc), 1)
}

func TestLaterVersionIsRefusedAndLeftAlone(t *testing.T) {
	path := storePath(t)
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o700))
	later := []byte(`{"version":2,"everything":"different"}`)
	require.NoError(t, os.WriteFile(path, later, 0o600))
	s, err := Open(path)
	require.ErrorIs(t, err, ErrVersion)
	s.Note(svc, merc, Token{ID: "tok", Source: Created})
	assert.ErrorIs(t, s.Save(), ErrVersion)
	got, _ := os.ReadFile(path)
	assert.Equal(t, later, got)
}

func TestNoPathAndNotAFile(t *testing.T) {
	s, err := Open("")
	require.Error(t, err)
	require.NotNil(t, s)
	s.Note(svc, merc, Token{ID: "tok", Source: Created})
	assert.NoError(t, s.Save(), "a store without a file saves nothing")
	assert.Len(t, s.List(svc, merc), 1)

	dir := t.TempDir()
	s, err = Open(dir)
	require.Error(t, err)
	s.Note(svc, merc, Token{ID: "tok", Source: Created})
	assert.Error(t, s.Save())
	st, _ := os.Stat(dir)
	assert.True(t, st.IsDir())
}

func TestConcurrentNoteAndSave(t *testing.T) {
	path := storePath(t)
	s, err := Open(path)
	require.NoError(t, err)
	const writers, each = 8, 100
	var wg sync.WaitGroup
	stop := make(chan struct{})
	saved := make(chan struct{})
	go func() {
		defer close(saved)
		for {
			select {
			case <-stop:
				return
			default:
			}
			assert.NoError(t, s.Save())
			s.List(svc, merc)
		}
	}()
	for w := range writers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				id := fmt.Sprintf("tok_%d_%d", w, i)
				assert.True(t, s.Note(svc, merc, Token{ID: id, Source: SeenInPayment, Payments: []string{"p" + id}}))
				if i%10 == 0 {
					s.Forget(svc, merc, id)
				}
				s.Get(svc, merc, id)
			}
		}()
	}
	wg.Wait()
	close(stop)
	<-saved
	require.NoError(t, s.Save())

	want := writers * (each - each/10)
	assert.Len(t, s.List(svc, merc), want)
	r, err := Open(path)
	require.NoError(t, err)
	assert.Len(t, r.List(svc, merc), want, "every note made during the saves was saved")
}

func TestTwoStoresOnOneFileKeepEachOthersTokens(t *testing.T) {
	path := storePath(t)
	ca, cb := newClock(), newClock()
	a := open(t, path, ca)
	b := open(t, path, cb)
	require.True(t, a.Note(svc, merc, Token{ID: "tok_a", Source: Created}))
	require.True(t, b.Note(svc, merc, Token{ID: "tok_b", Source: Created}))
	require.True(t, b.Note("sandbox.local", merc, Token{ID: "tok_s", Source: Created}))
	// Both know tok_ab: the file gets the merge.
	a.Note(svc, merc, Token{ID: "tok_ab", Title: "from a", Source: SeenInPayment, Payments: []string{"pa"}})
	cb.Advance(time.Hour)
	b.Note(svc, merc, Token{ID: "tok_ab", Status: backend.TokenActive, Source: LookedUp, Payments: []string{"pb"}})

	require.NoError(t, a.Save())
	require.NoError(t, b.Save())
	assert.ElementsMatch(t, []string{"tok_a", "tok_b", "tok_ab"}, ids(b.List(svc, merc)), "b now holds a's tokens too")

	r := open(t, path, newClock())
	assert.ElementsMatch(t, []string{"tok_a", "tok_b", "tok_ab"}, ids(r.List(svc, merc)))
	assert.Len(t, r.List("sandbox.local", merc), 1)
	ab, _ := r.Get(svc, merc, "tok_ab")
	assert.Equal(t, Token{ID: "tok_ab", Title: "from a", Status: backend.TokenActive, FirstSeen: t0,
		LastSeen: t0.Add(time.Hour), Source: LookedUp, Payments: []string{"pb", "pa"}}, ab)

	// a's next save (after a change) brings it b's tokens and keeps them in the file.
	ca.Advance(2 * time.Hour)
	require.True(t, a.Note(svc, merc, Token{ID: "tok_a2", Source: Created}))
	require.NoError(t, a.Save())
	assert.ElementsMatch(t, []string{"tok_a", "tok_a2", "tok_b", "tok_ab"}, ids(a.List(svc, merc)))
	r = open(t, path, newClock())
	assert.ElementsMatch(t, []string{"tok_a", "tok_a2", "tok_b", "tok_ab"}, ids(r.List(svc, merc)))
}

func TestTwoStoresSavingAtOnce(t *testing.T) {
	path := storePath(t)
	const stores, each = 4, 40
	var wg sync.WaitGroup
	for n := range stores {
		s, err := Open(path)
		require.NoError(t, err)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				s.Note(svc, merc, Token{ID: fmt.Sprintf("tok_%d_%d", n, i), Source: Created})
				assert.NoError(t, s.Save())
			}
		}()
	}
	wg.Wait()
	r, err := Open(path)
	require.NoError(t, err)
	assert.Len(t, r.List(svc, merc), stores*each, "no store lost another's tokens")
}

func TestForgetSpreadsThroughTheFile(t *testing.T) {
	path := storePath(t)
	c := newClock()
	a := open(t, path, c)
	a.Note(svc, merc, Token{ID: "tok_x", Source: Created})
	a.Note(svc, merc, Token{ID: "tok_y", Source: Created})
	require.NoError(t, a.Save())
	b := open(t, path, c)
	require.Len(t, b.List(svc, merc), 2)

	c.Advance(time.Minute)
	a.Forget(svc, merc, "tok_x")
	_, ok := a.Get(svc, merc, "tok_x")
	assert.False(t, ok)
	require.NoError(t, a.Save())

	c.Advance(time.Minute)
	b.Note(svc, merc, Token{ID: "tok_z", Source: Created})
	require.NoError(t, b.Save())
	assert.Equal(t, []string{"tok_z", "tok_y"}, ids(b.List(svc, merc)), "b's old copy of tok_x is dropped")
	r := open(t, path, c)
	assert.Equal(t, []string{"tok_z", "tok_y"}, ids(r.List(svc, merc)))

	// Noted again after the Forget (even at the same instant), it is known again.
	a.Forget(svc, merc, "tok_y")
	assert.True(t, a.Note(svc, merc, Token{ID: "tok_y", Source: SeenInPayment}))
	require.NoError(t, a.Save())
	r = open(t, path, c)
	assert.ElementsMatch(t, []string{"tok_z", "tok_y"}, ids(r.List(svc, merc)))
	// Forget at the instant the token was noted still covers it.
	a.Note(svc, merc, Token{ID: "tok_w", Source: Created})
	a.Forget(svc, merc, "tok_w")
	require.NoError(t, a.Save())
	r = open(t, path, c)
	_, ok = r.Get(svc, merc, "tok_w")
	assert.False(t, ok)
}

func TestForgetRecordsAreBounded(t *testing.T) {
	c := newClock()
	s := NewMemory()
	s.now = c.Now
	for i := range MaxForgotten + 10 {
		s.Forget(svc, merc, fmt.Sprintf("tok_%d", i))
		c.Advance(time.Second)
	}
	b := s.data[key{svc, merc}]
	assert.Len(t, b.forgotten, MaxForgotten)
	assert.NotContains(t, b.forgotten, "tok_0", "the oldest go first")
	c.Advance(ForgetFor + time.Hour)
	s.Forget(svc, merc, "late")
	assert.Len(t, b.forgotten, 1, "records older than ForgetFor are dropped")
}

func TestSaveIsANoOpWithoutChanges(t *testing.T) {
	path := storePath(t)
	c := newClock()
	s := open(t, path, c)
	s.Note(svc, merc, Token{ID: "tok", Source: Created, Payments: []string{"p1"}})
	require.NoError(t, s.Save())

	past := time.Now().Add(-time.Hour).Truncate(time.Second)
	require.NoError(t, os.Chtimes(path, past, past))
	before, err := os.Stat(path)
	require.NoError(t, err)

	require.NoError(t, s.Save())
	// Being seen again within the resolution, with nothing new, is no change.
	c.Advance(10 * time.Second)
	assert.False(t, s.Note(svc, merc, Token{ID: "tok", Source: SeenInPayment, Payments: []string{"p1"}}))
	require.NoError(t, s.Save())
	r := open(t, path, c)
	require.NoError(t, r.Save(), "a store just opened has nothing to save")

	after, err := os.Stat(path)
	require.NoError(t, err)
	assert.True(t, after.ModTime().Equal(past), "the file was not rewritten: mtime %v, want %v", after.ModTime(), past)
	assert.True(t, os.SameFile(before, after), "the file was not replaced")

	// A change is saved.
	s.Note(svc, merc, Token{ID: "tok2", Source: Created})
	require.NoError(t, s.Save())
	after, err = os.Stat(path)
	require.NoError(t, err)
	assert.False(t, after.ModTime().Equal(past))
}

func TestFileIsPrivate(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no Unix modes")
	}
	path := storePath(t)
	s := open(t, path, newClock())
	s.Note(svc, merc, Token{ID: "tok", Source: Created})
	require.NoError(t, s.Save())
	st, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), st.Mode().Perm())
	dir, err := os.Stat(filepath.Dir(path))
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o700), dir.Mode().Perm(), "a missing directory is created 0700")

	// A file someone made readable is replaced by a private one.
	require.NoError(t, os.Chmod(path, 0o644))
	s.Note(svc, merc, Token{ID: "tok2", Source: Created})
	require.NoError(t, s.Save())
	st, err = os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), st.Mode().Perm())

	leftovers, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".known-tokens.json.tmp-*"))
	assert.Empty(t, leftovers, "no temporary file is left behind")
}

func TestSaveWaitsForTheLockThenGivesUp(t *testing.T) {
	if !flock.Supported {
		t.Skip("no flock here")
	}
	// In a bubble the waits are on a fake clock: "not before the lock is
	// released" is checked after a whole minute of it, on any machine.
	synctest.Test(t, func(t *testing.T) {
		path := storePath(t)
		s := open(t, path, newClock())
		s.Note(svc, merc, Token{ID: "tok", Source: Created})
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o700))
		release, err := acquire(path, time.Second)
		require.NoError(t, err)

		s.lockWait = 50 * time.Millisecond
		t0 := time.Now()
		err = s.Save()
		require.Error(t, err, "another Save holds the lock")
		assert.Contains(t, err.Error(), "locked by another paydash")
		assert.GreaterOrEqual(t, time.Since(t0), 50*time.Millisecond, "it waited for the lock first")

		// Waiting up to ten minutes, Save does not give up while the lock
		// is held, and returns once it is released.
		s.lockWait = 10 * time.Minute
		done := make(chan error, 1)
		go func() { done <- s.Save() }()
		select {
		case err := <-done:
			t.Fatalf("Save returned while the lock was held: %v", err)
		case <-time.After(time.Minute): // a minute of the bubble's clock
		}
		release()
		require.NoError(t, <-done, "Save waits for the other one to finish")
		r := open(t, path, newClock())
		assert.Len(t, r.List(svc, merc), 1)
	})
}

func TestEncodeDropsTheLeastRecentlySeenToFit(t *testing.T) {
	st := state{}
	for _, k := range []key{{svc, merc}, {"sandbox.local", "M-2"}} {
		b := newBucket()
		for i := range 100 {
			id := fmt.Sprintf("%s_%03d", k.merchant, i)
			b.tokens[id] = Token{ID: id, LastSeen: t0.Add(time.Duration(i) * time.Minute), Source: Created}
		}
		st[k] = b
	}
	full, cutoff, err := encode(st, 1<<20)
	require.NoError(t, err)
	assert.True(t, cutoff.IsZero())

	limit := len(full) / 2
	raw, cutoff, err := encode(st, limit)
	require.NoError(t, err)
	assert.LessOrEqual(t, len(raw), limit)
	assert.False(t, cutoff.IsZero())
	var doc fileDoc
	require.NoError(t, json.Unmarshal(raw, &doc))
	kept := fromDoc(&doc, t0)
	n := 0
	for _, b := range kept {
		for _, tk := range b.tokens {
			n++
			assert.True(t, tk.LastSeen.After(cutoff), "only the most recently seen are kept")
		}
	}
	assert.Greater(t, n, 50)
	assert.Less(t, n, 200)
}

func TestFromPaymentAndFromToken(t *testing.T) {
	exp := time.Date(2029, 12, 31, 0, 0, 0, 0, time.UTC)
	_, ok := FromPayment(backend.Payment{ID: "43149010"})
	assert.False(t, ok)
	tk, ok := FromPayment(backend.Payment{ID: "43149010", Token: &backend.TokenRef{ID: "tok", Title: "4111", Expires: exp}})
	require.True(t, ok)
	assert.Equal(t, Token{ID: "tok", Title: "4111", Expires: exp, Source: SeenInPayment, Payments: []string{"43149010"}}, tk)

	tk = FromToken(backend.Token{ID: "tok", Status: backend.TokenActive, Title: "4111", Expires: exp}, LookedUp)
	assert.Equal(t, Token{ID: "tok", Status: backend.TokenActive, Title: "4111", Expires: exp, Source: LookedUp}, tk)
}

func TestForgetCoversATokenSeenLaterByAClockThatWentBack(t *testing.T) {
	path := storePath(t)
	c := newClock()
	s := open(t, path, c)
	c.Advance(time.Hour)
	s.Note(svc, merc, Token{ID: "tok", Source: Created})
	require.NoError(t, s.Save())
	c.Advance(-time.Hour) // the clock was set back
	s.Forget(svc, merc, "tok")
	require.NoError(t, s.Save())
	r := open(t, path, c)
	_, ok := r.Get(svc, merc, "tok")
	assert.False(t, ok)
	b := open(t, path, c) // a second store that still had it would drop it too
	assert.Empty(t, b.List(svc, merc))
}
