package sandbox

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	require.NoError(t, err)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	slices.Sort(names)
	return names
}

func TestWriteInfoFileReplacesOnlyRegularFiles(t *testing.T) {
	srv := start(t, Options{Payments: 0})
	dir := t.TempDir()

	t.Run("a new file: mode 600, by rename, no temporary file left", func(t *testing.T) {
		path := filepath.Join(dir, "new", "sandbox.json")
		require.NoError(t, os.Mkdir(filepath.Dir(path), 0o700))
		require.NoError(t, srv.WriteInfoFile(path))
		assert.Equal(t, []string{"sandbox-ca.pem", "sandbox.json"}, dirNames(t, filepath.Dir(path)))
		for _, p := range []string{path, filepath.Join(filepath.Dir(path), "sandbox-ca.pem")} {
			st, err := os.Stat(p)
			require.NoError(t, err)
			assert.Equal(t, os.FileMode(0o600), st.Mode().Perm(), p)
		}
		var info Info
		raw, err := os.ReadFile(path)
		require.NoError(t, err)
		require.NoError(t, json.Unmarshal(raw, &info))
		assert.Equal(t, filepath.Join(filepath.Dir(path), "sandbox-ca.pem"), info.CAFile)
		assert.Equal(t, srv.Info(), info)
	})

	t.Run("an old regular file is replaced, not written into", func(t *testing.T) {
		path := filepath.Join(dir, "old.json")
		require.NoError(t, os.WriteFile(path, []byte("old"), 0o644))
		other := filepath.Join(dir, "hardlink.json")
		require.NoError(t, os.Link(path, other))
		require.NoError(t, srv.WriteInfoFile(path))
		st, err := os.Stat(path)
		require.NoError(t, err)
		assert.Equal(t, os.FileMode(0o600), st.Mode().Perm())
		kept, err := os.ReadFile(other)
		require.NoError(t, err)
		assert.Equal(t, "old", string(kept), "a rename: the old file's other name still holds the old text")
	})

	refused := func(t *testing.T, path, problem string) {
		t.Helper()
		_, _, err := InfoFilePaths(path)
		var ie *InfoFileError
		require.True(t, errors.As(err, &ie), "%v", err)
		assert.Contains(t, err.Error(), problem)
		err = srv.WriteInfoFile(path)
		require.Error(t, err)
		assert.Contains(t, err.Error(), problem)
	}

	t.Run("a directory: refused before anything is written", func(t *testing.T) {
		parent := t.TempDir()
		target := filepath.Join(parent, "out")
		require.NoError(t, os.Mkdir(target, 0o700))
		refused(t, target, "is a directory")
		refused(t, target+"/", "names a directory")
		assert.Equal(t, []string{"out"}, dirNames(t, parent), "no stray out-ca.pem")
		assert.Empty(t, dirNames(t, target))
	})

	t.Run("a device: refused, left as it is", func(t *testing.T) {
		st, err := os.Lstat("/dev/full")
		if err != nil || st.Mode()&os.ModeCharDevice == 0 {
			t.Skip("no /dev/full here")
		}
		refused(t, "/dev/full", "not a regular file (a character device)")
		st, err = os.Lstat("/dev/full")
		require.NoError(t, err)
		assert.NotZero(t, st.Mode()&os.ModeCharDevice, "/dev/full is still the device")
		_, err = os.Lstat("/dev/full-ca.pem")
		assert.ErrorIs(t, err, os.ErrNotExist)
	})

	t.Run("a symbolic link: refused", func(t *testing.T) {
		d := t.TempDir()
		file := filepath.Join(d, "real.json")
		require.NoError(t, os.WriteFile(file, []byte("keep"), 0o600))
		link := filepath.Join(d, "link.json")
		require.NoError(t, os.Symlink(file, link))
		refused(t, link, "symbolic link")
		kept, err := os.ReadFile(file)
		require.NoError(t, err)
		assert.Equal(t, "keep", string(kept))
		assert.Equal(t, []string{"link.json", "real.json"}, dirNames(t, d))
	})

	t.Run("a CA path that is not a regular file: refused before the info file", func(t *testing.T) {
		d := t.TempDir()
		require.NoError(t, os.Mkdir(filepath.Join(d, "x-ca.pem"), 0o700))
		refused(t, filepath.Join(d, "x.json"), "its CA file")
		assert.Equal(t, []string{"x-ca.pem"}, dirNames(t, d))
	})

	t.Run("a missing directory: refused", func(t *testing.T) {
		refused(t, filepath.Join(t.TempDir(), "no", "such.json"), "does not exist")
	})
}
