//go:build unix

package safefile

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// WriteAtomic replaces a regular file with the mode asked, whatever the
// old file's mode and the umask, and leaves no temporary file.
func TestWriteAtomicReplacesARegularFileWithTheModeAsked(t *testing.T) {
	old := syscall.Umask(0o077) // narrower than the mode asked
	defer syscall.Umask(old)
	dir := t.TempDir()
	path := filepath.Join(dir, "info.json")
	require.NoError(t, os.WriteFile(path, []byte("old\n"), 0o600))

	require.NoError(t, WriteAtomic(path, []byte("new\n"), 0o640))
	raw, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, "new\n", string(raw))
	fi, err := os.Lstat(path)
	require.NoError(t, err)
	assert.True(t, fi.Mode().IsRegular())
	assert.Equal(t, fs.FileMode(0o640), fi.Mode().Perm())

	require.NoError(t, WriteAtomic(filepath.Join(dir, "fresh"), []byte("x"), 0o600), "nothing there: created")
	fi, err = os.Lstat(filepath.Join(dir, "fresh"))
	require.NoError(t, err)
	assert.Equal(t, fs.FileMode(0o600), fi.Mode().Perm())
	assertNoTemp(t, dir)
}

// The temporary file has the final mode from its creation: never wider
// than asked while the data is in it.
func TestWriteAtomicTempHasTheFinalModeWhileWritten(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "known.json")
	var seen fs.FileMode
	err := Replace(path, 0o400, func(w io.Writer) error {
		fi, err := w.(*os.File).Stat()
		if err != nil {
			return err
		}
		seen = fi.Mode().Perm()
		_, err = w.Write([]byte("x"))
		return err
	})
	require.NoError(t, err)
	assert.Equal(t, fs.FileMode(0o400), seen)
}

// A symbolic link, a FIFO, a directory, a device (the hostile set, and
// /dev/null itself) are refused with what they are, and left as they were.
func TestWriteAtomicRefusesWhatIsNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	paths := hostile(t, dir)
	if fi, err := os.Lstat("/dev/null"); err == nil && fi.Mode()&fs.ModeCharDevice != 0 {
		paths["a character device"+" (/dev/null)"] = "/dev/null"
	}
	for what, path := range paths {
		t.Run(what, func(t *testing.T) {
			before, err := os.Lstat(path)
			require.NoError(t, err)
			err = WriteAtomic(path, []byte("x"), 0o600)
			var nr *NotRegularError
			require.ErrorAs(t, err, &nr)
			assert.ErrorIs(t, err, ErrNotRegular)
			assert.Contains(t, err.Error(), nr.What())
			assert.Contains(t, err.Error(), path)
			after, err := os.Lstat(path)
			require.NoError(t, err)
			assert.Equal(t, before.Mode(), after.Mode(), "still what it was")
			assert.True(t, os.SameFile(before, after), "the very same file")
		})
	}
	raw, err := os.ReadFile(filepath.Join(dir, "victim"))
	require.NoError(t, err)
	assert.Equal(t, "someone else's\n", string(raw), "the link's target is untouched")
	assertNoTemp(t, dir)
	left, _ := filepath.Glob("/dev/.null.tmp-*")
	assert.Empty(t, left)
}

// A write that fails half way (a full disk) leaves the target as it was
// and no temporary file, and the next write succeeds.
func TestWriteAtomicFullDiskLeavesTheTarget(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "known.json")
	require.NoError(t, os.WriteFile(path, []byte("old\n"), 0o600))
	before, err := os.Lstat(path)
	require.NoError(t, err)

	real := writeStep
	writeStep = func(w io.Writer, data []byte) error {
		_, _ = w.Write(data[:len(data)/2])
		return syscall.ENOSPC
	}
	err = WriteAtomic(path, []byte("a much longer new content\n"), 0o600)
	writeStep = real
	require.ErrorIs(t, err, syscall.ENOSPC)
	raw, _ := os.ReadFile(path)
	assert.Equal(t, "old\n", string(raw))
	after, err := os.Lstat(path)
	require.NoError(t, err)
	assert.True(t, os.SameFile(before, after), "the target was not replaced")
	assertNoTemp(t, dir)

	require.NoError(t, WriteAtomic(path, []byte("next\n"), 0o600), "a failed write does not damage the next one")
	raw, _ = os.ReadFile(path)
	assert.Equal(t, "next\n", string(raw))
	assertNoTemp(t, dir)
}

// A directory where no file can be made: the error is the open's, and the
// target is untouched.
func TestWriteAtomicReadOnlyDirectory(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "info.json")
	require.NoError(t, os.WriteFile(path, []byte("old\n"), 0o600))
	require.NoError(t, os.Chmod(dir, 0o500))
	defer os.Chmod(dir, 0o700)
	if f, err := os.Create(filepath.Join(dir, "probe")); err == nil {
		f.Close()
		_ = os.Remove(filepath.Join(dir, "probe"))
		t.Skip("this user writes into a read-only directory (root): the full-disk case above covers the failure")
	}
	err := WriteAtomic(path, []byte("new\n"), 0o600)
	require.ErrorIs(t, err, fs.ErrPermission)
	raw, _ := os.ReadFile(path)
	assert.Equal(t, "old\n", string(raw))
	assertNoTemp(t, dir)
}

func assertNoTemp(t *testing.T, dir string) {
	t.Helper()
	left, _ := filepath.Glob(filepath.Join(dir, ".*.tmp-*"))
	assert.Empty(t, left, "no temporary file is left behind")
}
