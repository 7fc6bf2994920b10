package serve

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	gossh "golang.org/x/crypto/ssh"
)

func TestHostKeyIsMadeOnceWithMode600(t *testing.T) {
	path := filepath.Join(t.TempDir(), "state", "host_key")
	pem, made, err := HostKey(path)
	require.NoError(t, err)
	assert.True(t, made)
	_, err = gossh.ParsePrivateKey(pem)
	require.NoError(t, err)
	fi, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), fi.Mode().Perm())

	again, made, err := HostKey(path)
	require.NoError(t, err)
	assert.False(t, made, "the second start reads the key it made")
	assert.Equal(t, pem, again)
}

func TestHostKeyOthersCanReadIsRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "host_key")
	_, _, err := HostKey(path)
	require.NoError(t, err)
	require.NoError(t, os.Chmod(path, 0o644))
	_, _, err = HostKey(path)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "can be read by others")
	assert.Contains(t, err.Error(), "chmod 600")
}

func TestHostKeyNeverThroughALinkOrAFIFO(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "elsewhere")
	link := filepath.Join(dir, "host_key")
	require.NoError(t, os.Symlink(target, link))
	_, _, err := HostKey(link)
	require.Error(t, err, "a dangling link is not followed to make a key")
	_, statErr := os.Lstat(target)
	assert.True(t, os.IsNotExist(statErr), "nothing was written through the link")

	fifo := filepath.Join(dir, "fifo_key")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	_, _, err = HostKey(fifo) // must not block
	require.Error(t, err)
}

func TestHostKeyNotAKeyIsSaidSo(t *testing.T) {
	path := filepath.Join(t.TempDir(), "host_key")
	require.NoError(t, os.WriteFile(path, []byte("not a key"), 0o600))
	_, _, err := HostKey(path)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "not a private key")
}

func TestCheckAddr(t *testing.T) {
	for _, ok := range []string{"127.0.0.1:2222", "localhost:2222", "[::1]:22"} {
		assert.NoError(t, CheckAddr(ok, false), ok)
	}
	err := CheckAddr("0.0.0.0:2222", false)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "--public")
	assert.NoError(t, CheckAddr("0.0.0.0:2222", true))
	assert.Error(t, CheckAddr("2222", false), "not HOST:PORT")
}
