// Package safefile opens and replaces the files paydash writes (the
// journal, the known-tokens file, lock files, exports) so that a path never
// leads paydash to write somewhere else than the file it names:
//
//   - a symbolic link at the path is never followed: it is refused and left
//     as it is (O_NOFOLLOW on the systems that have it, an Lstat check
//     before, on every system);
//   - only a regular file is ever opened for writing or replaced: a named
//     pipe, a device node, a socket or a directory is refused with what it
//     is, and a FIFO is refused without blocking on its open;
//   - a replacement is written to a temporary file beside the path, synced,
//     and renamed over it, so a failed write (a full disk) leaves the old
//     file whole.
//
// Errors that come from what is at the path are *NotRegularError, which
// says in words what the path is ("a named pipe (FIFO)"), so that callers
// can tell the user.
package safefile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// ErrNotRegular is wrapped by every *NotRegularError.
var ErrNotRegular = errors.New("not a regular file")

// NotRegularError: the path holds something paydash does not write to.
type NotRegularError struct {
	Path   string
	Mode   fs.FileMode // what Lstat said the path is
	Target string      // a symbolic link's target, when it could be read
}

func (e *NotRegularError) Error() string {
	return fmt.Sprintf("%s is %s, not a regular file; paydash does not write through it and leaves it as it is", e.Path, e.What())
}

// What says what the path is, for a sentence: "a named pipe (FIFO)", "a
// symbolic link to /home/x/other.json".
func (e *NotRegularError) What() string {
	what := Describe(e.Mode)
	if e.Mode&fs.ModeSymlink != 0 && e.Target != "" {
		what += " to " + e.Target
	}
	return what
}

func (e *NotRegularError) Unwrap() error { return ErrNotRegular }

// Describe names the kind of file a mode is, with its article: "a regular
// file", "a symbolic link", "a named pipe (FIFO)", "a character device"…
func Describe(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m.IsRegular():
		return "a regular file"
	}
	return "a special file (" + m.Type().String() + ")"
}

// Check reports whether paydash may write the path: nil when nothing is
// there or a regular file is (not a symbolic link to one), a
// *NotRegularError when something else is, or the error Lstat gave.
func Check(path string) error {
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	}
	return regular(path, fi)
}

// regular is nil for a regular file's FileInfo, else a *NotRegularError.
func regular(path string, fi fs.FileInfo) error {
	if fi.Mode().IsRegular() {
		return nil
	}
	e := &NotRegularError{Path: path, Mode: fi.Mode()}
	if fi.Mode()&fs.ModeSymlink != 0 {
		e.Target, _ = os.Readlink(path)
	}
	return e
}

// OpenAppend opens path for appending, creating it with perm when it is
// missing. It never follows a symbolic link at path and opens only a
// regular file.
func OpenAppend(path string, perm fs.FileMode) (*os.File, error) {
	return open(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, perm)
}

// OpenReadWrite opens path for reading and writing (a lock file, a journal
// that may be cut back), creating it with perm when it is missing, with
// the same guarantees as OpenAppend.
func OpenReadWrite(path string, perm fs.FileMode) (*os.File, error) {
	return open(path, os.O_RDWR|os.O_CREATE, perm)
}

// OpenRead opens an existing regular file for reading, never through a
// symbolic link; a missing file is an error wrapping fs.ErrNotExist.
func OpenRead(path string) (*os.File, error) {
	return open(path, os.O_RDONLY, 0)
}

// Create makes a new regular file at path with perm; it fails with an
// error wrapping fs.ErrExist when anything is there already, a dangling
// symbolic link included.
func Create(path string, perm fs.FileMode) (*os.File, error) {
	return open(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
}

func open(path string, flag int, perm fs.FileMode) (*os.File, error) {
	if err := Check(path); err != nil {
		return nil, err
	}
	// noFollow refuses a link that appeared since the check; nonBlock keeps
	// a FIFO that appeared from blocking the open until a writer comes.
	f, err := os.OpenFile(path, flag|noFollow|nonBlock, perm)
	if err != nil {
		if errors.Is(err, syscall.ELOOP) || errors.Is(err, syscall.ENXIO) {
			if cerr := Check(path); cerr != nil {
				return nil, cerr
			}
		}
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if err := regular(path, fi); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// WriteAtomic puts data at path in one step, with mode perm: it is
// Replace with data as what is written. It is the one way paydash
// replaces a whole file (the known tokens, an export overwritten, the
// sandbox's info file and CA; docs/files.md).
func WriteAtomic(path string, data []byte, perm fs.FileMode) error {
	return Replace(path, perm, func(w io.Writer) error { return writeStep(w, data) })
}

// writeStep writes data; tests replace it with one that fails half way
// (a full disk).
var writeStep = func(w io.Writer, data []byte) error {
	_, err := w.Write(data)
	return err
}

// Replace puts what write writes at path in one step: a temporary file
// created beside path (O_EXCL, never through a link, with mode perm from
// the start), written, synced, renamed over path, and the directory
// synced. path must hold nothing or a regular file: a symbolic link, a
// FIFO, a device or a directory is refused and left as it is, both before
// the temporary file is made and again just before the rename. On any
// failure (a full disk) the old file is left whole and the temporary one
// removed, so the next write starts from a sound file.
func Replace(path string, perm fs.FileMode, write func(io.Writer) error) (err error) {
	if err := Check(path); err != nil {
		return err
	}
	dir := filepath.Dir(path)
	f, err := createTemp(dir, "."+filepath.Base(path)+".tmp-", perm)
	if err != nil {
		return err
	}
	tmp := f.Name()
	closed := false
	defer func() {
		if err != nil {
			if !closed {
				_ = f.Close()
			}
			_ = os.Remove(tmp)
		}
	}()
	// The mode asked, whatever the umask made of it at the open.
	if err = f.Chmod(perm); err != nil {
		return err
	}
	if err = write(f); err != nil {
		return err
	}
	if err = Sync(f); err != nil {
		return err
	}
	closed = true
	if err = f.Close(); err != nil {
		return err
	}
	// Checked again just before the rename: what is at path now is what
	// the rename replaces.
	if err = Check(path); err != nil {
		return err
	}
	if err = os.Rename(tmp, path); err != nil {
		return err
	}
	SyncDir(dir)
	return nil
}

// createTemp makes a new file named prefix and a random suffix in dir,
// exclusively (O_EXCL: never one that is there, never through a link),
// with mode perm (before the umask).
func createTemp(dir, prefix string, perm fs.FileMode) (*os.File, error) {
	for try := 0; ; try++ {
		name := filepath.Join(dir, prefix+strconv.FormatUint(uint64(rand.Uint32()), 36))
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL|noFollow, perm.Perm())
		if errors.Is(err, fs.ErrExist) && try < 100 {
			continue
		}
		return f, err
	}
}

// Sync syncs f; a file system that cannot sync (some network and FUSE
// ones) is not a reason to fail.
func Sync(f *os.File) error {
	err := f.Sync()
	if errors.Is(err, syscall.EINVAL) || errors.Is(err, errors.ErrUnsupported) {
		return nil
	}
	return err
}

// SyncDir syncs a directory so that a rename in it survives a crash. It is
// best effort: not every system can.
func SyncDir(dir string) {
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	_ = d.Sync()
	_ = d.Close()
}
