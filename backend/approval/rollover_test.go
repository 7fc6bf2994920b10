package approval

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend/flock"
	"paydash/backend/journal"
)

var (
	oct31 = time.Date(2026, 10, 31, 22, 0, 0, 0, time.UTC)
	nov1  = time.Date(2026, 11, 1, 9, 0, 0, 0, time.UTC)
)

// october is a file written on 31 October: three requests still open
// (waiting; approved, outcome so far; approved, never settled) and three
// decided (sent, rejected, withdrawn). It returns the file's path, its
// bytes, and the open requests as List gave them before Close.
func october(t *testing.T) (path string, old []byte, open []Request, decided []string) {
	t.Helper()
	c := &clock{now: oct31}
	path = filepath.Join(t.TempDir(), "state", "approvals.jsonl")
	s, err := Open(path, Options{Now: c.Now, TTL: 48 * time.Hour})
	require.NoError(t, err)
	file := func(v string) Request {
		r, err := s.File(refund(v), "anna", "SHA256:anna")
		require.NoError(t, err)
		c.add(time.Minute)
		return r
	}
	waiting, soFar, claimed := file("1"), file("2"), file("3")
	sent, rejected, withdrawn := file("4"), file("5"), file("6")
	for _, id := range []string{soFar.ID, claimed.ID, sent.ID} {
		_, err := s.Claim(id, "boris", "SHA256:boris")
		require.NoError(t, err)
	}
	require.NoError(t, s.Settle(soFar.ID, "Refund: outcome unknown — checking", false))
	require.NoError(t, s.Settle(sent.ID, "Refund 4 made", true))
	_, err = s.Reject(rejected.ID, "boris", "SHA256:boris", "no")
	require.NoError(t, err)
	_, err = s.Withdraw(withdrawn.ID, "anna", "SHA256:anna")
	require.NoError(t, err)
	for _, r := range s.List() {
		if r.ID == waiting.ID || r.ID == soFar.ID || r.ID == claimed.ID {
			open = append(open, r)
		}
	}
	require.Len(t, open, 3)
	require.NoError(t, s.Close())
	old, err = os.ReadFile(path)
	require.NoError(t, err)
	return path, old, open, []string{sent.ID, rejected.ID, withdrawn.ID}
}

// lastLines are the last lines of the requests ids in file, in the order
// written, each with its newline.
func lastLines(t *testing.T, file []byte, ids ...string) string {
	t.Helper()
	last := map[string]int{}
	lines := strings.SplitAfter(string(file), "\n")
	for i, l := range lines {
		for _, id := range ids {
			if strings.Contains(l, `"id":"`+id+`"`) {
				last[id] = i
			}
		}
	}
	var b strings.Builder
	for i, l := range lines {
		for _, id := range ids {
			if last[id] == i && strings.Contains(l, `"id":"`+id+`"`) {
				b.WriteString(l)
			}
		}
	}
	return b.String()
}

func idsOf(rs []Request) []string {
	out := make([]string, len(rs))
	for i, r := range rs {
		out[i] = r.ID
	}
	return out
}

// carriedFile is what a rollover at nov1 into the first archive's name
// writes: its rollover line, then the open requests' last lines.
func carriedFile(t *testing.T, path string, old []byte, open []Request) string {
	head := `{"event":"rollover","time":"2026-11-01T09:00:00Z","previous":"` +
		filepath.Base(journal.ArchiveName(path, nov1, 1)) + `","carried":3}` + "\n"
	return head + lastLines(t, old, idsOf(open)...)
}

func assertOpenCarried(t *testing.T, s *Store, open []Request) {
	t.Helper()
	got := s.List()
	require.Len(t, got, len(open))
	byID := map[string]Request{}
	for _, r := range got {
		byID[r.ID] = r
	}
	for _, want := range open {
		assert.Equal(t, comparable(want), comparable(byID[want.ID]), "request %s keeps every field", want.ID)
	}
}

func TestAFileFromLastMonthRollsOverAtOpen(t *testing.T) {
	path, old, open, decided := october(t)
	s, err := Open(path, Options{Now: func() time.Time { return nov1 }, TTL: 48 * time.Hour})
	require.NoError(t, err)
	archive := journal.ArchiveName(path, nov1, 1)
	assert.Equal(t, filepath.Join(filepath.Dir(path), "approvals.2026-11-01T090000Z.jsonl"), archive)
	assert.Equal(t, archive, s.Opened().Archived)
	assert.NoError(t, s.Opened().RolloverErr)
	kept, err := os.ReadFile(archive)
	require.NoError(t, err)
	assert.Equal(t, old, kept, "the archive is the old file, byte for byte")
	now, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, carriedFile(t, path, old, open), string(now), "a rollover line, then the open requests' last lines unchanged")
	for _, id := range decided {
		assert.NotContains(t, string(now), id, "a decided request is only in the archive")
		assert.Contains(t, string(kept), id)
	}
	assertOpenCarried(t, s, open)
	_, err = Open(path, Options{})
	assert.ErrorIs(t, err, ErrInUse, "the lock holds across the rollover")

	// A restart finds them; it does not roll the file over again.
	require.NoError(t, s.Close())
	later := nov1.Add(time.Hour)
	s2, err := Open(path, Options{Now: func() time.Time { return later }, TTL: 48 * time.Hour})
	require.NoError(t, err)
	defer s2.Close()
	assert.Empty(t, s2.Opened().Archived, "a file of its own carried lines stays")
	assertOpenCarried(t, s2, open)
	files, err := journal.Files(path)
	require.NoError(t, err)
	assert.Equal(t, []string{archive, path}, files)
	assert.ElementsMatch(t, []string{open[1].ID, open[2].ID}, idsOf(s2.Unsettled()))

	// An approve after it sends under the original key and action ID.
	waiting := open[0]
	require.Equal(t, Waiting, waiting.State)
	got, err := s2.Claim(waiting.ID, "boris", "SHA256:boris")
	require.NoError(t, err)
	assert.Equal(t, waiting.Action.IdempotencyKey, got.Action.IdempotencyKey)
	assert.Equal(t, waiting.Action.ID, got.Action.ID)
	assert.Equal(t, waiting.Filed, got.Filed)
	assert.Equal(t, waiting.Expires, got.Expires)

	evs, _, err := History(path)
	require.NoError(t, err)
	require.Len(t, evs, 4, "History gives the carried lines and the new one, not the rollover line")
	assert.Equal(t, EventClaimed, evs[3].Kind)
}

func TestAFilePastTheSizeRollsOver(t *testing.T) {
	path, old, open, _ := october(t)
	// Still October: only the size is past.
	at := oct31.Add(time.Hour)
	o := Options{Now: func() time.Time { return at }, TTL: 48 * time.Hour, RolloverSize: int64(len(old)) - 1}
	s, err := Open(path, o)
	require.NoError(t, err)
	archive := journal.ArchiveName(path, at, 1)
	assert.Equal(t, archive, s.Opened().Archived)
	kept, _ := os.ReadFile(archive)
	assert.Equal(t, old, kept)
	assertOpenCarried(t, s, open)
	require.NoError(t, s.Close())

	o.RolloverSize = int64(len(old)) + 1
	s, err = Open(path, o)
	require.NoError(t, err)
	defer s.Close()
	assert.Empty(t, s.Opened().Archived, "under the size, in the same month: no rollover")
}

// A crash inside a rollover, at each step, leaves a file the next Open
// reads whole, with every open request.
func TestARolloverCutShortIsFinishedOrUndone(t *testing.T) {
	opts := Options{Now: func() time.Time { return nov1 }, TTL: 48 * time.Hour}

	t.Run("before the new file took the file's name", func(t *testing.T) {
		path, old, _, _ := october(t)
		require.NoError(t, os.WriteFile(journal.TempPath(path), []byte(`{"event":"rollover","time":"2026-11-01T09:00:00Z","previous":"x","carried":3}`+"\nhalf a li"), 0o600))
		o := opts
		o.Now = func() time.Time { return oct31.Add(time.Hour) } // not due: the file is left as it is
		s, err := Open(path, o)
		require.NoError(t, err)
		defer s.Close()
		assert.Contains(t, s.Opened().Recovered, "was removed")
		assert.NoFileExists(t, journal.TempPath(path))
		got, _ := os.ReadFile(path)
		assert.Equal(t, old, got)
		assert.Len(t, s.List(), 6)
	})

	t.Run("after the link, before the rename", func(t *testing.T) {
		path, old, open, _ := october(t)
		linked := journal.ArchiveName(path, nov1, 1)
		require.NoError(t, os.Link(path, linked))
		require.NoError(t, os.WriteFile(journal.TempPath(path), []byte(carriedFile(t, path, old, open)), 0o600))
		s, err := Open(path, opts)
		require.NoError(t, err)
		defer s.Close()
		assert.Equal(t, linked, s.Opened().Archived, "the name it already has is taken up again")
		files, err := journal.Files(path)
		require.NoError(t, err)
		assert.Equal(t, []string{linked, path}, files, "the same file is not archived twice")
		got, _ := os.ReadFile(path)
		assert.Equal(t, carriedFile(t, path, old, open), string(got))
		kept, _ := os.ReadFile(linked)
		assert.Equal(t, old, kept)
		assertOpenCarried(t, s, open)
	})

	t.Run("between the renames, the new file whole", func(t *testing.T) {
		path, old, open, _ := october(t)
		require.NoError(t, os.Rename(path, journal.ArchiveName(path, nov1, 1)))
		require.NoError(t, os.WriteFile(journal.TempPath(path), []byte(carriedFile(t, path, old, open)), 0o600))
		s, err := Open(path, opts)
		require.NoError(t, err)
		defer s.Close()
		assert.Contains(t, s.Opened().Recovered, "put in place")
		assert.Empty(t, s.Opened().Archived)
		assert.NoFileExists(t, journal.TempPath(path))
		got, _ := os.ReadFile(path)
		assert.Equal(t, carriedFile(t, path, old, open), string(got))
		assertOpenCarried(t, s, open)
	})

	t.Run("between the renames, the new file not whole", func(t *testing.T) {
		path, old, open, _ := october(t)
		archive := journal.ArchiveName(path, nov1, 1)
		require.NoError(t, os.Rename(path, archive))
		whole := carriedFile(t, path, old, open)
		require.NoError(t, os.WriteFile(journal.TempPath(path), []byte(whole[:len(whole)-40]), 0o600))
		s, err := Open(path, opts)
		require.NoError(t, err)
		defer s.Close()
		assert.Contains(t, s.Opened().Recovered, "made again from "+archive)
		got, _ := os.ReadFile(path)
		assert.Equal(t, whole, string(got))
		kept, _ := os.ReadFile(archive)
		assert.Equal(t, old, kept)
		assertOpenCarried(t, s, open)
	})

	t.Run("between the renames, a server still rolling over", func(t *testing.T) {
		if !flock.Supported {
			t.Skip("no flock on this system")
		}
		path, old, open, _ := october(t)
		require.NoError(t, os.Rename(path, journal.ArchiveName(path, nov1, 1)))
		require.NoError(t, os.WriteFile(journal.TempPath(path), []byte(carriedFile(t, path, old, open)), 0o600))
		f, err := os.Open(journal.TempPath(path))
		require.NoError(t, err)
		defer f.Close()
		require.NoError(t, flock.TryLock(f))
		_, err = Open(path, opts)
		assert.ErrorIs(t, err, ErrInUse)
		assert.FileExists(t, journal.TempPath(path), "another's new file is left to it")
		assert.NoFileExists(t, path)
	})
}

// A symbolic link where the new file or the archive would go is never
// followed: the old file stays whole, and the store opens on it.
func TestARolloverNeverWritesThroughALink(t *testing.T) {
	opts := Options{Now: func() time.Time { return nov1 }, TTL: 48 * time.Hour}
	victimOf := func(t *testing.T, path string) string {
		victim := filepath.Join(filepath.Dir(path), "victim")
		require.NoError(t, os.WriteFile(victim, []byte("victim\n"), 0o600))
		return victim
	}

	t.Run("at the new file", func(t *testing.T) {
		path, old, _, _ := october(t)
		victim := victimOf(t, path)
		require.NoError(t, os.Symlink(victim, journal.TempPath(path)))
		s, err := Open(path, opts)
		require.NoError(t, err)
		defer s.Close()
		require.Error(t, s.Opened().RolloverErr)
		assert.Contains(t, s.Opened().RolloverErr.Error(), "is a symbolic link to "+victim)
		assert.Empty(t, s.Opened().Archived)
		got, _ := os.ReadFile(path)
		assert.Equal(t, old, got, "the old file is whole")
		got, _ = os.ReadFile(victim)
		assert.Equal(t, "victim\n", string(got))
		fi, err := os.Lstat(journal.TempPath(path))
		require.NoError(t, err)
		assert.NotZero(t, fi.Mode()&fs.ModeSymlink, "the link is still there")
		files, _ := journal.Files(path)
		assert.Equal(t, []string{path}, files, "no archive made")
		assert.Len(t, s.List(), 6)
		_, err = s.File(refund("9"), "anna", "SHA256:anna")
		assert.NoError(t, err, "the store goes on in the old file")
	})

	t.Run("at the archive's name", func(t *testing.T) {
		path, old, open, _ := october(t)
		victim := victimOf(t, path)
		first := journal.ArchiveName(path, nov1, 1)
		require.NoError(t, os.Symlink(victim, first))
		s, err := Open(path, opts)
		require.NoError(t, err)
		defer s.Close()
		assert.Equal(t, journal.ArchiveName(path, nov1, 2), s.Opened().Archived, "a taken name is passed over")
		got, _ := os.ReadFile(victim)
		assert.Equal(t, "victim\n", string(got))
		fi, err := os.Lstat(first)
		require.NoError(t, err)
		assert.NotZero(t, fi.Mode()&fs.ModeSymlink)
		kept, _ := os.ReadFile(s.Opened().Archived)
		assert.Equal(t, old, kept)
		assertOpenCarried(t, s, open)
	})

	t.Run("at the file itself", func(t *testing.T) {
		path, old, _, _ := october(t)
		moved := path + ".real"
		require.NoError(t, os.Rename(path, moved))
		require.NoError(t, os.Symlink(moved, path))
		_, err := Open(path, opts)
		require.Error(t, err)
		assert.Contains(t, err.Error(), "symbolic link")
		got, _ := os.ReadFile(moved)
		assert.True(t, bytes.Equal(old, got))
		assert.NoFileExists(t, journal.ArchiveName(path, nov1, 1))
	})
}
