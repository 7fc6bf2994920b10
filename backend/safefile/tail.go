package safefile

import (
	"fmt"
	"io"
)

// Appendable is what Tail.Append needs of a file opened by OpenAppend (an
// *os.File; a test's writer that fails like a full disk).
type Appendable interface {
	io.Writer
	Sync() error
	Truncate(size int64) error
}

// Tail is where the last whole line of an append-only file of lines ends,
// for the one writer that holds the file's lock (the journal, the
// approvals): it is where a failed write is cut back to. It is not safe
// for concurrent use; its owner serialises Append under its own mutex.
type Tail struct {
	// Size is the file's size after its last whole line.
	Size int64
	// Torn: the file may end in the middle of a line (a failed write that
	// could not be cut away, a crash): the next line starts with a newline.
	Torn bool
}

// Append writes line (ending in '\n') to f with a single write call, and
// syncs it. A write or sync that fails is cut away again (f truncated back
// to Size) so that it never damages the line after it; if even that
// fails, the next line begins with a newline, so that it stays whole. The
// error says which step failed, naming the file as name: "writing NAME:
// …" or "syncing NAME: …". An error means the line is not on disk.
func (t *Tail) Append(f Appendable, name string, line []byte) error {
	if t.Torn {
		line = append([]byte{'\n'}, line...)
	}
	n, err := f.Write(line)
	if err == nil && n < len(line) {
		err = io.ErrShortWrite
	}
	if err != nil {
		return t.undo(f, n, fmt.Errorf("writing %s: %w", name, err))
	}
	if err := f.Sync(); err != nil {
		// The line is written but may not be on disk: a caller that acts
		// only on a line that is must not find it there later.
		return t.undo(f, n, fmt.Errorf("syncing %s: %w", name, err))
	}
	t.Size += int64(n)
	t.Torn = false
	return nil
}

// undo cuts away the n bytes a failed Append wrote, returning err (with a
// word on the cut when it failed too).
func (t *Tail) undo(f Appendable, n int, err error) error {
	if n == 0 {
		return err
	}
	if terr := f.Truncate(t.Size); terr != nil {
		t.Size += int64(n)
		t.Torn = true
		return fmt.Errorf("%w (and cutting it back failed: %v; the next entry starts on a new line)", err, terr)
	}
	_ = f.Sync()
	return err
}
