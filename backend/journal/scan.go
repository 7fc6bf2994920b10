package journal

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"time"

	"paydash/backend/safefile"
)

// CorruptError lists the lines of a journal file that are not entries (a
// line damaged otherwise than by a write cut short). Scan and Read return
// it beside every entry they could read; Open reports it in Opened.
type CorruptError struct {
	Path  string
	Lines []int // 1-based line numbers
}

func (e *CorruptError) Error() string {
	return fmt.Sprintf("journal: %s: %d line(s) are not entries (first: line %d)", e.Path, len(e.Lines), e.Lines[0])
}

// A line is read as follows, by the start (readState) and by Scan alike:
//
//   - an empty line is nothing;
//   - a line cut short while it was written (it stops inside its JSON
//     object: the last line without its newline, or such a line that a
//     later start ended with a newline) is skipped silently: nothing was
//     sent after it, since an action goes out only once its line is whole
//     on disk;
//   - a fragment of a failed write with a whole entry after it on the
//     same line (an older paydash appended the next line to what a full
//     disk had left) is that entry;
//   - a line longer than maxLine, or anything else that is not an entry
//     (a JSON object with an action and a phase), is skipped and reported
//     in a *CorruptError, unless it is the last line and has no newline.

// lineKind sorts one line: ok (the entry is in the returned bytes, which
// may be the end of line when it was glued), torn, or bad.
func lineKind(line []byte, f *fields) (entry []byte, kind int) {
	if len(skipSpaceBytes(line)) == 0 {
		return nil, kindEmpty
	}
	err := walk(line, f)
	if err == nil {
		if (len(f.action) == 0 || len(f.phase) == 0) && !f.escaped {
			return nil, kindBad
		}
		return line, kindEntry
	}
	if g := glued(line, f); g != nil {
		if len(f.action) == 0 || len(f.phase) == 0 {
			return nil, kindBad
		}
		return g, kindEntry
	}
	if errors.Is(err, errTorn) {
		return nil, kindTorn
	}
	return nil, kindBad
}

// unescape makes f's fields their values when one of them holds an escape
// (walk gives raw bytes), reading the line as encoding/json does; false
// when it does not read as an entry.
func unescape(line []byte, f *fields) bool {
	if !f.escaped {
		return true
	}
	e, ok := decode(line)
	if !ok {
		return false
	}
	*f = fields{action: []byte(e.Action), phase: []byte(e.Phase), actionID: []byte(e.ActionID),
		objectID: []byte(e.ObjectID), key: []byte(e.IdempotencyKey)}
	return true
}

const (
	kindEmpty = iota
	kindEntry
	kindTorn
	kindBad
)

func skipSpaceBytes(b []byte) []byte { return b[skipSpace(b, 0):] }

// fileState is what a start learns from the current file, read once.
type fileState struct {
	size     int64
	count    int   // lines that are entries
	bad      []int // lines that are not
	endsTorn bool  // the file does not end with a newline
	first    Entry // its first entry (zero when none)
	open     *openSet
	// What openEntries read again: the open actions' lines, decoded and
	// as they are in the file.
	entries []Entry
	raw     [][]byte
}

// progressEvery is how many bytes are read between two calls of a
// progress function (and two looks at the context).
const progressEvery = 4 << 20

// readState reads a journal file as a stream, keeping only its open
// actions, whose lines it reads again at the end (openEntries). progress
// (may be nil) is called now and then with the bytes read so far; ctx
// ending stops the read with its error.
func readState(ctx context.Context, r io.Reader, progress func(read int64)) (*fileState, error) {
	st := &fileState{open: newOpenSet()}
	lr := newLineReader(r)
	var (
		f        fields
		no       int
		lastSeen int64
	)
	for {
		start := lr.off
		line, tooLong, err := lr.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		no++
		if lr.off-lastSeen >= progressEvery {
			lastSeen = lr.off
			if progress != nil {
				progress(lr.off)
			}
			if ctx != nil && ctx.Err() != nil {
				return nil, ctx.Err()
			}
		}
		if tooLong {
			st.bad = append(st.bad, no)
			continue
		}
		entry, kind := lineKind(line, &f)
		switch kind {
		case kindEntry:
			if !unescape(entry, &f) {
				st.bad = append(st.bad, no)
				continue
			}
			st.count++
			if st.count == 1 {
				st.first, _ = decode(entry)
			}
			st.open.add(no, start+int64(len(line)-len(entry)), len(entry), &f)
		case kindBad:
			st.bad = append(st.bad, no)
		}
	}
	st.size = lr.off
	st.endsTorn = !lr.lastNL
	if st.endsTorn && len(st.bad) > 0 && st.bad[len(st.bad)-1] == no {
		// The last line, without its newline, was being written when the
		// process stopped: not corruption, an entry that never finished.
		st.bad = st.bad[:len(st.bad)-1]
	}
	if progress != nil {
		progress(st.size)
	}
	return st, nil
}

// openEntries reads again from r (the file read) the kept lines of the
// open actions, and decodes them. A kept line that walk took but encoding/json
// does not (walk is looser) is reported with the lines that are not
// entries.
func (st *fileState) openEntries(r io.ReaderAt) error {
	kept, err := st.open.lines(r)
	if err != nil {
		return err
	}
	for _, k := range kept {
		e, ok := decode(k.line)
		if !ok {
			st.bad = append(st.bad, k.no)
			continue
		}
		st.entries = append(st.entries, e)
		st.raw = append(st.raw, k.line)
	}
	slices.Sort(st.bad)
	return nil
}

// carriedOnly reports whether the file holds nothing but what a rollover
// carried into it: its rollover line and the lines that line counts.
func (st *fileState) carriedOnly() bool {
	return st.first.Action == ActionRollover && len(st.bad) == 0 && st.count == st.first.Carried+1
}

// Scan calls fn with every entry of the journal file at path (the current
// one or an archive), oldest first, reading it as a stream; an error from
// fn stops it and is returned. copied is true for the lines a rollover
// carried forward into the file: copies of lines the previous file holds
// too, which an audit counts once. The lines that are not entries are
// returned at the end in a *CorruptError. It takes no lock: it reads
// beside a running paydash. It never opens a symbolic link or a FIFO.
func Scan(path string, fn func(e Entry, copied bool) error) error {
	file, err := safefile.OpenRead(path)
	if err != nil {
		return fmt.Errorf("journal: %w", err)
	}
	defer file.Close()
	lr := newLineReader(file)
	var (
		f       fields
		no      int
		bad     []int
		entries int
		copies  int // lines still to come that the rollover line counts
	)
	for {
		line, tooLong, err := lr.next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fmt.Errorf("journal: reading %s: %w", path, err)
		}
		no++
		if tooLong {
			bad = append(bad, no)
			continue
		}
		entry, kind := lineKind(line, &f)
		if kind == kindBad {
			bad = append(bad, no)
			continue
		}
		if kind != kindEntry {
			continue
		}
		e, ok := decode(entry)
		if !ok {
			bad = append(bad, no)
			continue
		}
		entries++
		copied := false
		switch {
		case entries == 1 && e.Action == ActionRollover:
			copies = e.Carried
		case copies > 0:
			copied = true
			copies--
		}
		if err := fn(e, copied); err != nil {
			return err
		}
	}
	if !lr.lastNL && len(bad) > 0 && bad[len(bad)-1] == no {
		bad = bad[:len(bad)-1]
	}
	if len(bad) > 0 {
		return &CorruptError{Path: path, Lines: bad}
	}
	return nil
}

// Read returns every entry of the journal file at path, oldest first (as
// Scan reads them, the rollover line and the lines it carried included).
// It holds them all in memory: it is for tests and small files; a start
// reads only the open actions (Open), and an audit of a large file
// streams it with Scan.
func Read(path string) ([]Entry, error) {
	var entries []Entry
	err := Scan(path, func(e Entry, _ bool) error {
		entries = append(entries, e)
		return nil
	})
	return entries, err
}

// month is t's calendar month in UTC, the unit of rollover by date.
func month(t time.Time) (int, time.Month) {
	u := t.UTC()
	return u.Year(), u.Month()
}
