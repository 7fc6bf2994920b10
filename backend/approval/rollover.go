package approval

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"paydash/backend/flock"
	"paydash/backend/journal"
	"paydash/backend/safefile"
)

// A rollover (docs/approvals.md, "Rollover") keeps the file as an archive
// beside it, "approvals.2026-11-01T090011Z.jsonl" as the journal's are
// named, and starts a new file in its place whose first line is a
// rollover line (rolloverLine) and whose next lines are the last line of
// every request still open (waiting, or approved and not settled), copied
// byte for byte: their ids, actions, keys, requesters, times and expiry
// are what they were. It is done at Open, by the journal's steps
// (backend/journal/rollover.go), so that a crash at any point leaves
// either the old file whole or the new one complete:
//
//  1. the new file is written at journal.TempPath (".approvals.jsonl.rollover")
//     and synced; it is locked from its creation, so that the lock on the
//     file held by Open passes to it with no moment free;
//  2. the old file gets the archive's name as a second name (a hard link;
//     a checked rename where there is none);
//  3. the new file is renamed over the old one's name.
//
// A crash before 3 leaves the old file whole under its name: the next
// Open removes the leftover new file (removeLeftover) and rolls over
// again, taking up the archive's name it already has. A crash between a
// rename in 2 and 3 leaves no file but the new one at TempPath, which the
// next Open puts in place when it is whole, or makes again from the
// newest archive (finishRollover).

// eventRollover is the event of a rolled-over file's first line; it is
// not a change of a request, and History does not give it.
const eventRollover EventKind = "rollover"

// rolloverLine is the first line of a rolled-over file: when, the
// archive that keeps the file before it, and how many lines it carried.
type rolloverLine struct {
	Event    EventKind `json:"event"`
	Time     time.Time `json:"time"`
	Previous string    `json:"previous"`
	Carried  int       `json:"carried"`
}

// Opened is what Open did to the file besides reading it.
type Opened struct {
	// Archived is the archive that keeps the file Open read, when Open
	// rolled it over ("" when not). The line numbers of Damaged are that
	// file's.
	Archived string
	// Recovered says what Open did about a rollover a crash cut short
	// ("" when there was none).
	Recovered string
	// RolloverErr is why a rollover that was due failed: the file goes on
	// as it was, and the next Open tries again.
	RolloverErr error
}

// Opened is what Open did to the file besides reading it.
func (s *Store) Opened() Opened { return s.opened }

// isOpen: a request in state st is still to be decided or settled, and a
// rollover carries it.
func isOpen(st State) bool { return st == Waiting || st == Approved }

// carrier keeps, as a file is read, the last line of each request still
// open, in the order written.
type carrier struct {
	seq  int
	last map[string]carriedLine
}

type carriedLine struct {
	seq int
	raw []byte
}

func newCarrier() *carrier { return &carrier{last: map[string]carriedLine{}} }

func (c *carrier) add(rec record, raw []byte) {
	c.seq++
	if isOpen(rec.State) {
		c.last[rec.ID] = carriedLine{c.seq, raw}
	} else {
		delete(c.last, rec.ID)
	}
}

// lines are the lines kept, in the order they were written.
func (c *carrier) lines() [][]byte {
	kept := make([]carriedLine, 0, len(c.last))
	for _, l := range c.last {
		kept = append(kept, l)
	}
	slices.SortFunc(kept, func(a, b carriedLine) int { return a.seq - b.seq })
	out := make([][]byte, len(kept))
	for i, l := range kept {
		out[i] = l.raw
	}
	return out
}

// due: the file scan read is rolled over at now: past size, or its first
// line of an earlier month (UTC) than now. A file holding nothing but the
// lines its own rollover carried is not, so that starts do not make empty
// archives one after another.
func due(sc scanned, size int64, now time.Time) bool {
	if sc.head != nil && sc.lines == sc.head.Carried && len(sc.damaged) == 0 && !sc.torn {
		return false
	}
	if sc.size > size {
		return true
	}
	if sc.first.IsZero() {
		return false
	}
	fy, fm, _ := sc.first.UTC().Date()
	ny, nm, _ := now.UTC().Date()
	return fy < ny || (fy == ny && fm < nm)
}

// rollOver archives the file read (c: its open requests' lines) and goes
// on in the new one, which holds only the open requests. A rollover that
// fails leaves the file as it was (Opened.RolloverErr).
func (s *Store) rollOver(c *carrier) {
	now := s.now().UTC().Round(0)
	archive, already, err := journal.PickArchive(s.path, now)
	var nf *os.File
	var tail safefile.Tail
	tmp := journal.TempPath(s.path)
	if err == nil {
		nf, tail, err = writeNew(tmp, filepath.Base(archive), c.lines(), now)
	}
	if err == nil {
		if err = journal.InstallRollover(s.path, tmp, archive, already); err != nil {
			_ = nf.Close()
		}
	}
	if err != nil {
		s.opened.RolloverErr = fmt.Errorf("approvals: rolling %s over: %w", s.path, err)
		return
	}
	_ = s.f.Close() // the old file's lock: the new one's is held since step 1
	s.f, s.tail, s.opened.Archived = nf, tail, archive
	for id, r := range s.reqs {
		if !isOpen(r.State) {
			delete(s.reqs, id)
		}
	}
}

// writeNew writes, at tmp, the new file of a rollover: its rollover line
// naming previous, then lines; synced, and returned open for appending and
// locked, with its Tail. Something at tmp that is not a regular file is
// refused and left as it is; a regular file there (a rollover cut short)
// is replaced.
func writeNew(tmp, previous string, lines [][]byte, now time.Time) (*os.File, safefile.Tail, error) {
	var tail safefile.Tail
	if err := safefile.Check(tmp); err != nil {
		return nil, tail, err
	}
	if err := os.Remove(tmp); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, tail, err
	}
	f, err := safefile.OpenAppend(tmp, 0o600)
	if err != nil {
		return nil, tail, err
	}
	if err = flock.TryLock(f); err == nil {
		var head []byte
		head, err = json.Marshal(rolloverLine{Event: eventRollover, Time: now, Previous: previous, Carried: len(lines)})
		buf := append(head, '\n')
		for _, l := range lines {
			buf = append(append(buf, l...), '\n')
		}
		if err == nil {
			err = tail.Append(f, tmp, buf)
		}
	}
	if err != nil {
		_ = f.Close()
		_ = os.Remove(tmp)
		return nil, tail, err
	}
	return f, tail, nil
}

// removeLeftover removes the new file of a rollover that stopped before
// it took the file's name (the file at path, locked by the caller, is
// whole), and says so.
func removeLeftover(path string) (string, error) {
	tmp := journal.TempPath(path)
	fi, err := os.Lstat(tmp)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", nil
	case err != nil:
		return "", err
	case !fi.Mode().IsRegular():
		return "", nil // not paydash's: a rollover refuses it, and leaves it
	}
	if err := os.Remove(tmp); err != nil {
		return "", err
	}
	return "a rollover of the approvals stopped before its end; " + path + " was left whole, and its unfinished new file " + tmp + " was removed", nil
}

// finishRollover finishes a rollover a crash stopped between its two
// renames: no file at path, and its new file at TempPath, put in place
// when whole, else made again from the newest archive. It says what it
// did ("" when there was nothing to do). The new file is locked while it
// is looked at: a server still rolling over holds it (ErrInUse).
func finishRollover(path string, now time.Time) (string, error) {
	tmp := journal.TempPath(path)
	if _, err := os.Lstat(path); !errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	fi, err := os.Lstat(tmp)
	if errors.Is(err, fs.ErrNotExist) || (err == nil && !fi.Mode().IsRegular()) {
		return "", nil
	} else if err != nil {
		return "", err
	}
	f, err := safefile.OpenRead(tmp)
	if err != nil {
		return "", err
	}
	defer f.Close()
	if err := lock(f, tmp); err != nil {
		return "", err
	}
	sc, err := scan(f, tmp, func(record, []byte) {})
	if err == nil && sc.head != nil && sc.lines == sc.head.Carried && !sc.torn && len(sc.damaged) == 0 {
		if err := os.Rename(tmp, path); err != nil {
			return "", err
		}
		safefile.SyncDir(filepath.Dir(path))
		return "a rollover of the approvals stopped between its two renames; its new file was put in place", nil
	}
	return remake(path, tmp, now)
}

// remake makes the new file of a rollover again from the newest archive
// of the file at path, and puts it in place.
func remake(path, tmp string, now time.Time) (string, error) {
	files, err := journal.Files(path)
	if err != nil {
		return "", err
	}
	if len(files) == 0 {
		return "", fmt.Errorf("%s is not whole and there is no archive to make it again from", tmp)
	}
	newest := files[len(files)-1]
	rf, err := safefile.OpenRead(newest)
	if err != nil {
		return "", err
	}
	defer rf.Close()
	c := newCarrier()
	if _, err := scan(rf, newest, func(rec record, raw []byte) { c.add(rec, raw) }); err != nil {
		return "", err
	}
	nf, _, err := writeNew(tmp, filepath.Base(newest), c.lines(), now)
	if err != nil {
		return "", err
	}
	defer nf.Close()
	if err := os.Rename(tmp, path); err != nil {
		return "", err
	}
	safefile.SyncDir(filepath.Dir(path))
	return "a rollover of the approvals stopped between its two renames; its new file was made again from " + newest, nil
}

// lock locks f (the file at path), or says another paydash holds it.
func lock(f *os.File, path string) error {
	if err := flock.TryLock(f); err != nil {
		if errors.Is(err, flock.ErrLocked) {
			return fmt.Errorf("%w: %s is open in another paydash serve; stop it or give another file", ErrInUse, path)
		}
		return fmt.Errorf("approvals: locking %s: %w", path, err)
	}
	return nil
}
