//go:build unix

package known

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend/safefile"
)

// someoneElses is a file known-tokens.json may be made to point to: its
// path and what it holds, to check it is untouched afterwards.
type someoneElses struct {
	dir, path string
	raw       []byte
}

func plantFile(t *testing.T, raw string) someoneElses {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "elsewhere")
	require.NoError(t, os.Mkdir(dir, 0o700))
	path := filepath.Join(dir, "theirs.json")
	require.NoError(t, os.WriteFile(path, []byte(raw), 0o600))
	return someoneElses{dir: dir, path: path, raw: []byte(raw)}
}

// untouched asserts the planted file is still there, under its name, as
// it was, with nothing beside it (no ".corrupt-…", no ".lock").
func (f someoneElses) untouched(t *testing.T) {
	t.Helper()
	raw, err := os.ReadFile(f.path)
	require.NoError(t, err, "the file the link points to keeps its name")
	assert.Equal(t, string(f.raw), string(raw), "and what it holds")
	entries, err := os.ReadDir(f.dir)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	assert.Equal(t, []string{"theirs.json"}, names, "nothing is made beside it")
}

// The store's file is never read, moved aside, locked or replaced through a
// symbolic link: the link and what it points to are left as they are, and
// the error says what the path is.
func TestASymlinkedFileIsLeftAsItIs(t *testing.T) {
	for name, content := range map[string]string{
		"to a damaged file": "not a known-tokens document",
		"to a good file":    `{"version":1,"services":{"pay.example.com":{"M-1001":{"tokens":[{"id":"tok_theirs","source":"created"}]}}}}`,
	} {
		t.Run(name, func(t *testing.T) {
			theirs := plantFile(t, content)
			path := storePath(t)
			require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o700))
			require.NoError(t, os.Symlink(theirs.path, path))

			s, err := Open(path)
			require.NotNil(t, s, "the store works in memory")
			var odd *safefile.NotRegularError
			require.ErrorAs(t, err, &odd)
			assert.Equal(t, path, odd.Path)
			assert.Contains(t, err.Error(), path+" is a symbolic link to "+theirs.path)
			var ce *CorruptError
			assert.False(t, errors.As(err, &ce), "a file not read is not called damaged")
			assert.Empty(t, s.List(svc, merc), "not read through the link")
			theirs.untouched(t)

			require.True(t, s.Note(svc, merc, Token{ID: "tok", Source: Created}))
			err = s.Save()
			require.ErrorAs(t, err, &odd)
			assert.Contains(t, err.Error(), "symbolic link")
			assert.Len(t, s.List(svc, merc), 1, "the token is kept for this run")
			theirs.untouched(t)

			target, err := os.Readlink(path)
			require.NoError(t, err, "the link is still a link")
			assert.Equal(t, theirs.path, target, "to the same file")
			assert.Equal(t, []string{"known-tokens.json"}, dirNames(t, filepath.Dir(path)), "no lock or temporary file beside the link either")
		})
	}
}

// A link that points nowhere does not make paydash create the file it names.
func TestADanglingLinkCreatesNothing(t *testing.T) {
	path := storePath(t)
	require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o700))
	nowhere := filepath.Join(t.TempDir(), "nowhere.json")
	require.NoError(t, os.Symlink(nowhere, path))
	s, err := Open(path)
	require.ErrorContains(t, err, "symbolic link to "+nowhere)
	s.Note(svc, merc, Token{ID: "tok", Source: Created})
	require.ErrorContains(t, s.Save(), "symbolic link to "+nowhere)
	_, err = os.Lstat(nowhere)
	assert.ErrorIs(t, err, os.ErrNotExist)
	assert.Equal(t, []string{"known-tokens.json"}, dirNames(t, filepath.Dir(path)))
}

// "<file>.lock" is opened like the file: a link there is refused, and the
// file it points to is not created, truncated or locked.
func TestALockThatIsASymlinkIsRefused(t *testing.T) {
	theirs := plantFile(t, "their lock's content\n")
	path := storePath(t)
	c := newClock()
	s := open(t, path, c)
	require.True(t, s.Note(svc, merc, Token{ID: "tok_1", Source: Created}))
	require.NoError(t, s.Save())
	saved, err := os.ReadFile(path)
	require.NoError(t, err)
	require.NoError(t, os.Remove(path+".lock"))
	require.NoError(t, os.Symlink(theirs.path, path+".lock"))

	require.True(t, s.Note(svc, merc, Token{ID: "tok_2", Source: Created}))
	err = s.Save()
	var odd *safefile.NotRegularError
	require.ErrorAs(t, err, &odd)
	assert.Equal(t, path+".lock", odd.Path)
	assert.Contains(t, err.Error(), "symbolic link to "+theirs.path)
	theirs.untouched(t)
	raw, _ := os.ReadFile(path)
	assert.Equal(t, string(saved), string(raw), "nothing saved without the lock")

	// A damaged file is not moved aside without the lock either.
	require.NoError(t, os.WriteFile(path, []byte("garbage"), 0o600))
	_, err = Open(path)
	var ce *CorruptError
	require.ErrorAs(t, err, &ce)
	assert.Empty(t, ce.MovedTo)
	assert.ErrorAs(t, ce.MoveErr, &odd)
	raw, _ = os.ReadFile(path)
	assert.Equal(t, "garbage", string(raw), "left where it is")
	theirs.untouched(t)
}

// A named pipe or a device in place of the file or of its lock is refused
// at once (a pipe's open would wait for a writer) and stays what it is.
func TestPipesAndDevicesAreRefusedAndKept(t *testing.T) {
	mk := map[string]func(string) error{
		"a named pipe (FIFO)": func(p string) error { return syscall.Mkfifo(p, 0o600) },
		// /dev/full's numbers (1, 7): writing to it fails with ENOSPC.
		"a character device": func(p string) error { return syscall.Mknod(p, syscall.S_IFCHR|0o600, 1<<8|7) },
	}
	for what, make := range mk {
		for _, at := range []string{"", ".lock"} {
			t.Run(what+" at known-tokens.json"+at, func(t *testing.T) {
				path := storePath(t)
				require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o700))
				if err := make(path + at); err != nil {
					t.Skipf("cannot make %s here (%v): a device node needs root", what, err)
				}
				before, err := os.Lstat(path + at)
				require.NoError(t, err)
				s, err := Open(path)
				if at == "" {
					require.ErrorContains(t, err, path+" is "+what)
				} else {
					require.NoError(t, err, "the lock is not taken to read")
				}
				s.Note(svc, merc, Token{ID: "tok", Source: Created})
				err = s.Save()
				require.ErrorContains(t, err, path+at+" is "+what)
				after, err := os.Lstat(path + at)
				require.NoError(t, err)
				assert.Equal(t, before.Mode(), after.Mode(), "still %s", what)
				if at == ".lock" {
					assert.NoFileExists(t, path, "nothing saved without the lock")
				}
			})
		}
	}
}

// A full disk: the Save that cannot write leaves the old file whole and no
// temporary file, keeps its changes, and the next Save, with room, writes
// them. A real full file system (a 16 kB tmpfs), so it needs root.
func TestSaveOnAFullDiskLeavesTheOldFile(t *testing.T) {
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=16k", "tmpfs", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a small tmpfs here (%v: %s): needs root", err, strings.TrimSpace(string(out)))
	}
	t.Cleanup(func() {
		if out, err := exec.Command("umount", dir).CombinedOutput(); err != nil {
			t.Errorf("umount %s: %v: %s", dir, err, out)
		}
	})
	path := filepath.Join(dir, "known-tokens.json")
	c := newClock()
	s := open(t, path, c)
	require.True(t, s.Note(svc, merc, Token{ID: "tok_old", Source: Created}))
	require.NoError(t, s.Save())
	old, err := os.ReadFile(path)
	require.NoError(t, err)

	title := strings.Repeat("x", MaxTitleLen)
	for i := range 100 { // about 40 kB of JSON: more than the disk holds
		require.True(t, s.Note(svc, merc, Token{ID: "tok_" + strings.Repeat("n", i%50) + string(rune('a'+i/50)), Title: title, Source: Created}))
	}
	err = s.Save()
	require.ErrorIs(t, err, syscall.ENOSPC)
	raw, rerr := os.ReadFile(path)
	require.NoError(t, rerr)
	assert.Equal(t, string(old), string(raw), "the old file is whole")
	assert.ElementsMatch(t, []string{"known-tokens.json", "known-tokens.json.lock"}, dirNames(t, dir), "no temporary file left")
	r := open(t, path, c)
	assert.Equal(t, []string{"tok_old"}, ids(r.List(svc, merc)), "and still reads")

	// Room again: the next Save writes what the failed one could not.
	if out, err := exec.Command("mount", "-o", "remount,size=1m", dir).CombinedOutput(); err != nil {
		t.Fatalf("remount: %v: %s", err, out)
	}
	require.NoError(t, s.Save())
	r = open(t, path, c)
	assert.Len(t, r.List(svc, merc), 101)
}

func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}
