//go:build unix

package safefile

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hostile makes, in dir, each thing a path may hold that paydash must not
// write through; a kind the system will not make here is left out, with
// the reason logged.
func hostile(t *testing.T, dir string) map[string]string {
	t.Helper()
	victim := filepath.Join(dir, "victim")
	require.NoError(t, os.WriteFile(victim, []byte("someone else's\n"), 0o600))
	paths := map[string]string{}
	link := filepath.Join(dir, "link")
	require.NoError(t, os.Symlink(victim, link))
	paths["a symbolic link to "+victim] = link
	dangling := filepath.Join(dir, "dangling")
	require.NoError(t, os.Symlink(filepath.Join(dir, "nowhere"), dangling))
	paths["a symbolic link to "+filepath.Join(dir, "nowhere")] = dangling
	fifo := filepath.Join(dir, "fifo")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	paths["a named pipe (FIFO)"] = fifo
	sub := filepath.Join(dir, "sub")
	require.NoError(t, os.Mkdir(sub, 0o700))
	paths["a directory"] = sub
	dev := filepath.Join(dir, "full")
	// /dev/full's numbers (1, 7): writing to it fails with ENOSPC.
	if err := syscall.Mknod(dev, syscall.S_IFCHR|0o600, 1<<8|7); err != nil {
		t.Logf("no device node made here (%v): needs root; the device case is not tried", err)
	} else {
		paths["a character device"] = dev
	}
	return paths
}

func TestRefusesWhatIsNotARegularFile(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(dir, "victim")
	for what, path := range hostile(t, dir) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			before, _ := os.Lstat(path)
			for name, try := range map[string]func() error{
				"OpenAppend":    func() error { f, err := OpenAppend(path, 0o600); closeIf(f); return err },
				"OpenReadWrite": func() error { f, err := OpenReadWrite(path, 0o600); closeIf(f); return err },
				"Replace": func() error {
					return Replace(path, 0o600, func(w io.Writer) error { _, err := w.Write([]byte("x")); return err })
				},
			} {
				err := try()
				var nr *NotRegularError
				require.ErrorAs(t, err, &nr, name)
				assert.ErrorIs(t, err, ErrNotRegular)
				assert.Contains(t, err.Error(), what, name)
				assert.Contains(t, err.Error(), path, name)
			}
			after, err := os.Lstat(path)
			require.NoError(t, err, "the path is still there")
			assert.Equal(t, before.Mode(), after.Mode(), "and still what it was")
		})
	}
	raw, err := os.ReadFile(victim)
	require.NoError(t, err)
	assert.Equal(t, "someone else's\n", string(raw), "the link's target is untouched")
	_, err = os.Lstat(filepath.Join(dir, "nowhere"))
	assert.ErrorIs(t, err, fs.ErrNotExist, "nothing was created at a dangling link's target")
	left, _ := filepath.Glob(filepath.Join(dir, ".*.tmp-*"))
	assert.Empty(t, left, "no temporary file is left behind")
}

func TestCreateRefusesADanglingLink(t *testing.T) {
	dir := t.TempDir()
	link := filepath.Join(dir, "link")
	require.NoError(t, os.Symlink(filepath.Join(dir, "target"), link))
	_, err := Create(link, 0o600)
	require.Error(t, err)
	_, err = os.Lstat(filepath.Join(dir, "target"))
	assert.ErrorIs(t, err, fs.ErrNotExist)
}

func TestOpensAndReplacesRegularFiles(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "journal")
	f, err := OpenAppend(path, 0o600)
	require.NoError(t, err)
	_, err = f.WriteString("one\n")
	require.NoError(t, err)
	require.NoError(t, f.Close())
	f, err = OpenAppend(path, 0o600)
	require.NoError(t, err)
	_, err = f.WriteString("two\n")
	require.NoError(t, err)
	require.NoError(t, f.Close())
	raw, _ := os.ReadFile(path)
	assert.Equal(t, "one\ntwo\n", string(raw))
	fi, _ := os.Stat(path)
	assert.Equal(t, fs.FileMode(0o600), fi.Mode().Perm())

	require.NoError(t, Replace(path, 0o600, func(w io.Writer) error { _, err := io.WriteString(w, "new\n"); return err }))
	raw, _ = os.ReadFile(path)
	assert.Equal(t, "new\n", string(raw))

	_, err = OpenRead(filepath.Join(dir, "missing"))
	assert.ErrorIs(t, err, fs.ErrNotExist)
	f, err = Create(filepath.Join(dir, "fresh"), 0o600)
	require.NoError(t, err)
	f.Close()
	_, err = Create(filepath.Join(dir, "fresh"), 0o600)
	assert.ErrorIs(t, err, fs.ErrExist)
}

// A failed write (a full disk) leaves the old file whole.
func TestReplaceThatFailsLeavesTheOldFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "known.json")
	require.NoError(t, os.WriteFile(path, []byte("old\n"), 0o600))
	full := errors.New("no space left on device")
	err := Replace(path, 0o600, func(w io.Writer) error {
		_, _ = io.WriteString(w, "half of the ne")
		return full
	})
	require.ErrorIs(t, err, full)
	raw, _ := os.ReadFile(path)
	assert.Equal(t, "old\n", string(raw))
	left, _ := filepath.Glob(filepath.Join(dir, ".*.tmp-*"))
	assert.Empty(t, left)
}

func closeIf(f *os.File) {
	if f != nil {
		f.Close()
	}
}
