package serve

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	gossh "golang.org/x/crypto/ssh"

	"paydash/backend/safefile"
)

// HostKey reads the server's host key from path, or makes one there when
// nothing is: an ed25519 key in OpenSSH's PEM form, mode 600, in a
// directory made 700. A key others may read (any group or other bit) is
// refused: whoever holds it can pose as this server. So is anything but a
// regular file (a link, a FIFO, a device), which is left as it is.
func HostKey(path string) (pemBytes []byte, made bool, err error) {
	f, err := safefile.OpenRead(path)
	if errors.Is(err, fs.ErrNotExist) {
		pemBytes, err = makeHostKey(path)
		return pemBytes, err == nil, err
	}
	if err != nil {
		return nil, false, fmt.Errorf("the host key %s: %w", path, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, false, fmt.Errorf("the host key %s: %w", path, err)
	}
	if perm := fi.Mode().Perm(); perm&0o077 != 0 {
		return nil, false, fmt.Errorf("the host key %s can be read by others (mode %04o); run: chmod 600 %s", path, perm, path)
	}
	pemBytes, err = io.ReadAll(io.LimitReader(f, 64<<10))
	if err != nil {
		return nil, false, fmt.Errorf("the host key %s: %w", path, err)
	}
	if _, err := gossh.ParsePrivateKey(pemBytes); err != nil {
		return nil, false, fmt.Errorf("the host key %s is not a private key paydash can use (%v); move it away and a new one is made", path, err)
	}
	return pemBytes, false, nil
}

// makeHostKey writes a new ed25519 key at path, which must hold nothing.
func makeHostKey(path string) ([]byte, error) {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, err
	}
	block, err := gossh.MarshalPrivateKey(priv, "paydash serve host key")
	if err != nil {
		return nil, err
	}
	pemBytes := pem.EncodeToMemory(block)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("making the host key's directory: %w", err)
	}
	f, err := safefile.Create(path, 0o600)
	if err != nil {
		return nil, fmt.Errorf("making the host key %s: %w", path, err)
	}
	if _, err := f.Write(pemBytes); err != nil {
		_ = f.Close()
		_ = os.Remove(path)
		return nil, fmt.Errorf("writing the host key %s: %w", path, err)
	}
	if err := safefile.Sync(f); err != nil {
		_ = f.Close()
		_ = os.Remove(path)
		return nil, fmt.Errorf("writing the host key %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		_ = os.Remove(path)
		return nil, err
	}
	return pemBytes, nil
}
