package journal

import (
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend/flock"
	"paydash/backend/safefile"
)

var nov27 = time.Date(2026, 11, 27, 10, 45, 0, 0, time.UTC)

func clock(t time.Time) func() time.Time { return func() time.Time { return t } }

// line is one entry as the journal writes it, with its newline.
func line(t *testing.T, e Entry) string {
	t.Helper()
	b, err := json.Marshal(e)
	require.NoError(t, err)
	return string(b) + "\n"
}

func at(e Entry, tm time.Time) Entry { e.Time = tm; return e }

// history is a journal of six actions: a-1 done, a-2 unknown (open), a-3
// failed, a-4 sent (open), a-5 abandoned then done, a-6 sent without an
// actionId (an older paydash, open). It returns the file's text and the
// lines of the open actions, as a rollover carries them.
func history(t *testing.T, day time.Time) (all, open string) {
	t.Helper()
	ts := func(min int) time.Time { return day.Add(time.Duration(min) * time.Minute) }
	var b, o strings.Builder
	add := func(e Entry, carried bool) {
		l := line(t, e)
		b.WriteString(l)
		if carried {
			o.WriteString(l)
		}
	}
	add(at(withID(entry("refund", PhaseSent, "1"), "a-1"), ts(0)), false)
	add(at(withID(entry("refund", PhaseSent, "2"), "a-2"), ts(1)), true)
	add(at(withID(entry("refund", PhaseDone, "1"), "a-1"), ts(2)), false)
	add(at(withID(entry("capture", PhaseSent, "3"), "a-3"), ts(3)), false)
	add(at(withID(entry("refund", PhaseUnknown, "2"), "a-2"), ts(4)), true)
	add(at(withID(entry("capture", PhaseFailed, "3"), "a-3"), ts(5)), false)
	add(at(withID(entry("cancel_hold", PhaseSent, "4"), "a-4"), ts(6)), true)
	add(at(withID(entry("refund", PhaseSent, "5"), "a-5"), ts(7)), false)
	add(at(withID(entry("refund", PhaseDone, "5"), "a-5"), ts(8)), false)
	add(at(withID(entry("refund", PhaseAbandoned, "5"), "a-5"), ts(9)), false) // written on quit, after its answer
	add(at(entry("refund", PhaseSent, "6"), ts(10)), true)
	add(at(withID(entry("refund", PhaseAbandoned, "2"), "a-2"), ts(11)), true) // a-2's latest line
	return b.String(), o.String()
}

// The open actions' kept lines are the first sent and the latest of each:
// a-2's unknown line is neither, so it is not carried.
func openLines(open string) string {
	var keep []string
	for _, l := range strings.SplitAfter(open, "\n") {
		if strings.Contains(l, `"phase":"unknown"`) {
			continue
		}
		keep = append(keep, l)
	}
	return strings.Join(keep, "")
}

func TestARolloverBySizeCarriesTheOpenActionsForward(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "journal.jsonl")
	all, open := history(t, nov27.Add(-time.Hour))
	require.NoError(t, os.WriteFile(path, []byte(all), 0o600))

	var seen []Progress
	j, err := OpenWith(path, Options{RolloverSize: 1000, Now: clock(nov27), Progress: func(p Progress) { seen = append(seen, p) }})
	require.NoError(t, err)
	op := j.Opened()
	archive := filepath.Join(dir, "journal.2026-11-27T104500Z.jsonl")
	assert.Equal(t, archive, op.Archived)
	assert.Nil(t, op.RolloverErr)
	assert.Equal(t, []string{"a-2", "a-4", "", "a-2"}, actionIDs(op.Open))
	require.NotEmpty(t, seen)
	last := seen[len(seen)-1]
	assert.Equal(t, Progress{Read: int64(len(all)), Total: int64(len(all)), RollingOver: true}, last)

	kept, err := os.ReadFile(archive)
	require.NoError(t, err)
	assert.Equal(t, all, string(kept), "the archive is the old file, byte for byte")
	now, err := os.ReadFile(path)
	require.NoError(t, err)
	head := line(t, Entry{Time: nov27, Action: ActionRollover, Phase: PhaseCarried, Previous: "journal.2026-11-27T104500Z.jsonl", Carried: 4})
	assert.Equal(t, head+openLines(open), string(now), "a rollover line, then the open actions' lines unchanged")

	// Appending goes to the new file.
	require.NoError(t, j.Record(at(withID(entry("refund", PhaseDone, "2"), "a-2"), nov27.Add(time.Minute))))
	require.NoError(t, j.Close())
	now, _ = os.ReadFile(path)
	assert.True(t, strings.HasPrefix(string(now), head))
	assert.Contains(t, string(now), `"phase":"done","objectId":"2"`)

	// The next start reads the new file alone, and finds a-2 done.
	j, err = OpenWith(path, Options{RolloverSize: 1 << 20, Now: clock(nov27)})
	require.NoError(t, err)
	assert.Equal(t, "", j.Opened().Archived)
	assert.Equal(t, []string{"a-4", ""}, actionIDs(j.Opened().Open))
	require.NoError(t, j.Close())

	files, err := Files(path)
	require.NoError(t, err)
	assert.Equal(t, []string{archive, path}, files)

	// An audit reads both, and knows the copies.
	var copies, originals int
	require.NoError(t, Scan(path, func(e Entry, copied bool) error {
		if copied {
			copies++
		} else if e.Action != ActionRollover {
			originals++
		}
		return nil
	}))
	assert.Equal(t, 4, copies)
	assert.Equal(t, 1, originals, "a-2's done line")
}

// A file that holds only what its rollover carried is not rolled over
// again, however small the size allowed: a start never makes empty
// archives one after the other.
func TestAFileOfCarriedLinesOnlyStays(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	all, _ := history(t, nov27.Add(-time.Hour))
	require.NoError(t, os.WriteFile(path, []byte(all), 0o600))
	for range 3 {
		j, err := OpenWith(path, Options{RolloverSize: 10, Now: clock(nov27)})
		require.NoError(t, err)
		require.NoError(t, j.Close())
	}
	files, err := Files(path)
	require.NoError(t, err)
	assert.Len(t, files, 2, "one archive, one current file")
}

func TestARolloverByMonth(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	oct := time.Date(2026, 10, 31, 23, 0, 0, 0, time.UTC)
	all, _ := history(t, oct)
	require.NoError(t, os.WriteFile(path, []byte(all), 0o600))

	j, err := OpenWith(path, Options{Now: clock(oct.Add(30 * time.Minute))})
	require.NoError(t, err)
	assert.Empty(t, j.Opened().Archived, "still October (UTC)")
	require.NoError(t, j.Close())

	nov1 := time.Date(2026, 11, 1, 0, 5, 0, 0, time.UTC)
	j, err = OpenWith(path, Options{Now: clock(nov1)})
	require.NoError(t, err)
	defer j.Close()
	assert.Equal(t, ArchiveName(path, nov1, 1), j.Opened().Archived, "a new month, a new file")
	assert.Equal(t, []string{"a-2", "a-4", "", "a-2"}, actionIDs(j.Opened().Open))
}

// An archive name already taken, by a file or a link, is never written
// over, nor followed.
func TestARolloverNeverReplacesAFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "journal.jsonl")
	all, _ := history(t, nov27.Add(-time.Hour))
	require.NoError(t, os.WriteFile(path, []byte(all), 0o600))
	first := ArchiveName(path, nov27, 1)
	require.NoError(t, os.WriteFile(first, []byte("someone's\n"), 0o600))
	victim := filepath.Join(dir, "victim")
	require.NoError(t, os.WriteFile(victim, []byte("victim\n"), 0o600))
	require.NoError(t, os.Symlink(victim, ArchiveName(path, nov27, 2)))

	j, err := OpenWith(path, Options{RolloverSize: 10, Now: clock(nov27)})
	require.NoError(t, err)
	defer j.Close()
	third := ArchiveName(path, nov27, 3)
	assert.Equal(t, third, j.Opened().Archived)
	assert.Equal(t, filepath.Join(dir, "journal.2026-11-27T104500Z_3.jsonl"), third)
	got, _ := os.ReadFile(first)
	assert.Equal(t, "someone's\n", string(got))
	got, _ = os.ReadFile(victim)
	assert.Equal(t, "victim\n", string(got))
	got, _ = os.ReadFile(third)
	assert.Equal(t, all, string(got))
	files, err := Files(path)
	require.NoError(t, err)
	assert.Equal(t, []string{first, ArchiveName(path, nov27, 2), third, path}, files, "oldest first")
}

// A crash inside a rollover, at each step, leaves a journal the next start
// reads whole.
func TestARolloverCutShortIsFinished(t *testing.T) {
	all, open := history(t, nov27.Add(-time.Hour))
	head := func(previous string) string {
		return line(t, Entry{Time: nov27, Action: ActionRollover, Phase: PhaseCarried, Previous: previous, Carried: 4})
	}
	opts := Options{RolloverSize: 1 << 20, Now: clock(nov27)}

	t.Run("before the new file took the journal's name", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "journal.jsonl")
		require.NoError(t, os.WriteFile(path, []byte(all), 0o600))
		require.NoError(t, os.WriteFile(tempPath(path), []byte(head("x")+"half a li"), 0o600))
		j, err := OpenWith(path, opts)
		require.NoError(t, err)
		defer j.Close()
		assert.Contains(t, j.Opened().Recovered, "was removed")
		assert.NoFileExists(t, tempPath(path))
		got, _ := os.ReadFile(path)
		assert.Equal(t, all, string(got))
		assert.Equal(t, []string{"a-2", "a-4", "", "a-2"}, actionIDs(j.Opened().Open))
	})

	t.Run("after the link, before the rename", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "journal.jsonl")
		require.NoError(t, os.WriteFile(path, []byte(all), 0o600))
		linked := ArchiveName(path, nov27.Add(-time.Minute), 1)
		require.NoError(t, os.Link(path, linked))
		require.NoError(t, os.WriteFile(tempPath(path), []byte(head(filepath.Base(linked))+openLines(open)), 0o600))
		j, err := OpenWith(path, Options{RolloverSize: 10, Now: clock(nov27)})
		require.NoError(t, err)
		defer j.Close()
		assert.Equal(t, linked, j.Opened().Archived, "the name it already has is taken up again")
		files, err := Files(path)
		require.NoError(t, err)
		assert.Equal(t, []string{linked, path}, files, "the same file is not archived twice")
		got, _ := os.ReadFile(path)
		assert.Equal(t, head(filepath.Base(linked))+openLines(open), string(got))
	})

	t.Run("between the renames, the new file whole", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "journal.jsonl")
		archive := ArchiveName(path, nov27, 1)
		require.NoError(t, os.WriteFile(archive, []byte(all), 0o600))
		carried := head(filepath.Base(archive)) + openLines(open)
		require.NoError(t, os.WriteFile(tempPath(path), []byte(carried), 0o600))
		j, err := OpenWith(path, opts)
		require.NoError(t, err)
		defer j.Close()
		assert.Contains(t, j.Opened().Recovered, "put in place")
		got, _ := os.ReadFile(path)
		assert.Equal(t, carried, string(got))
		assert.Equal(t, []string{"a-2", "a-4", "", "a-2"}, actionIDs(j.Opened().Open))
	})

	t.Run("between the renames, the new file not whole", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "journal.jsonl")
		archive := ArchiveName(path, nov27.Add(-time.Hour), 1)
		require.NoError(t, os.WriteFile(archive, []byte(all), 0o600))
		require.NoError(t, os.WriteFile(tempPath(path), []byte(head(filepath.Base(archive))), 0o600))
		j, err := OpenWith(path, opts)
		require.NoError(t, err)
		defer j.Close()
		assert.Contains(t, j.Opened().Recovered, "made again from "+archive)
		got, _ := os.ReadFile(path)
		assert.Equal(t, head(filepath.Base(archive))+openLines(open), string(got))
		assert.Equal(t, []string{"a-2", "a-4", "", "a-2"}, actionIDs(j.Opened().Open))
	})
}

// A second paydash is refused while the first holds the journal, before
// and after a rollover; so is a paydash beside an older one, which locks
// the journal file itself.
func TestTheLockHoldsAcrossARollover(t *testing.T) {
	if !flock.Supported {
		t.Skip("no flock on this system: the journal is not locked")
	}
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	all, _ := history(t, nov27.Add(-time.Hour))
	require.NoError(t, os.WriteFile(path, []byte(all), 0o600))
	first, err := OpenWith(path, Options{RolloverSize: 10, Now: clock(nov27)})
	require.NoError(t, err)
	require.NotEmpty(t, first.Opened().Archived)
	_, err = OpenWith(path, Options{RolloverSize: 10, Now: clock(nov27)})
	require.ErrorIs(t, err, ErrInUse)
	files, _ := Files(path)
	assert.Len(t, files, 2, "the refused one rolled nothing over")
	require.NoError(t, first.Close())

	older, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	require.NoError(t, err)
	require.NoError(t, flock.TryLock(older))
	_, err = Open(path)
	require.ErrorIs(t, err, ErrInUse, "an older paydash holds the journal file")
	require.NoError(t, older.Close())
	j, err := Open(path)
	require.NoError(t, err)
	require.NoError(t, j.Close())
}

// paydash never writes through a symbolic link (journal, lock file,
// rollover file), nor opens a FIFO or a device: it says what is there, and
// leaves it and its target as they are.
func TestNeverThroughALinkNorIntoAFIFO(t *testing.T) {
	for _, where := range []string{"journal", "lock", "rollover"} {
		t.Run(where, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "journal.jsonl")
			victim := filepath.Join(dir, "victim")
			require.NoError(t, os.WriteFile(victim, []byte("victim\n"), 0o600))
			at := map[string]string{"journal": path, "lock": LockPath(path), "rollover": tempPath(path)}[where]
			if where == "rollover" {
				all, _ := history(t, nov27.Add(-time.Hour))
				require.NoError(t, os.WriteFile(path, []byte(all), 0o600))
			}
			require.NoError(t, os.Symlink(victim, at))
			j, err := OpenWith(path, Options{RolloverSize: 10, Now: clock(nov27)})
			var nr *safefile.NotRegularError
			if where == "rollover" {
				require.NoError(t, err, "a rollover that cannot be done leaves the journal as it is")
				require.ErrorAs(t, j.Opened().RolloverErr, &nr)
				require.NoError(t, j.Record(entry("refund", PhaseSent, "7")))
				require.NoError(t, j.Close())
			} else {
				require.ErrorAs(t, err, &nr)
				assert.Contains(t, err.Error(), "a symbolic link to "+victim)
				assert.Contains(t, err.Error(), "leaves it as it is")
			}
			got, _ := os.ReadFile(victim)
			assert.Equal(t, "victim\n", string(got), "the target is untouched")
			fi, err := os.Lstat(at)
			require.NoError(t, err)
			assert.NotZero(t, fi.Mode()&fs.ModeSymlink, "the link is still there")
		})
	}
	t.Run("fifo", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "journal.jsonl")
		if err := syscall.Mkfifo(path, 0o600); err != nil {
			t.Skipf("no FIFO here: %v", err)
		}
		_, err := Open(path) // returns at once: a FIFO's open would block
		assert.ErrorIs(t, err, safefile.ErrNotRegular)
		assert.Contains(t, err.Error(), "a named pipe (FIFO)")
	})
}

// A signal while a large journal is read stops the start; nothing is
// rolled over.
func TestOpenStopsWhenItsContextEnds(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	one := line(t, withID(entry("refund", PhaseDone, "1"), "a-1"))
	require.NoError(t, os.WriteFile(path, bytes.Repeat([]byte(one), 2*progressEvery/len(one)+1), 0o600))
	ctx, cancel := context.WithCancel(context.Background())
	_, err := OpenWith(path, Options{RolloverSize: 10, Context: ctx, Progress: func(p Progress) {
		if p.Read < p.Total {
			cancel()
		}
	}})
	require.ErrorIs(t, err, context.Canceled)
	files, _ := Files(path)
	assert.Equal(t, []string{path}, files)
	j, err := Open(path)
	require.NoError(t, err, "and the lock was let go")
	require.NoError(t, j.Close())
}

// Open keeps three lines at most of each open action, and none of the
// others, however long the journal.
func TestOpenKeepsOnlyTheOpenActions(t *testing.T) {
	path := filepath.Join(t.TempDir(), "journal.jsonl")
	var b bytes.Buffer
	for i := range 5000 {
		id := "a-" + string(rune('a'+i%26)) + strings.Repeat("x", i%7) + "-" + strconv.Itoa(i)
		b.WriteString(line(t, withID(entry("refund", PhaseSent, strconv.Itoa(i)), id)))
		b.WriteString(line(t, withID(entry("refund", PhaseUnknown, strconv.Itoa(i)), id)))
		b.WriteString(line(t, withID(entry("refund", PhaseAbandoned, strconv.Itoa(i)), id)))
		if i != 4321 {
			b.WriteString(line(t, withID(entry("refund", PhaseDone, strconv.Itoa(i)), id)))
		} else {
			b.WriteString(line(t, withID(entry("refund", PhaseUnknown, strconv.Itoa(i)), id)))
		}
	}
	require.NoError(t, os.WriteFile(path, b.Bytes(), 0o600))
	j, err := Open(path)
	require.NoError(t, err)
	defer j.Close()
	open := j.Opened().Open
	require.Len(t, open, 2, "its first line (sent) and its latest; those in between are not kept")
	assert.Equal(t, []string{PhaseSent, PhaseUnknown}, []string{open[0].Phase, open[1].Phase})
	for _, e := range open {
		assert.Equal(t, "4321", e.ObjectID)
	}
}
