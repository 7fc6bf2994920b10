//go:build unix

package known

import (
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// A named pipe where the file should be is refused at once: opening it
// would wait for a writer, and paydash would hang at start.
func TestReadFileRefusesANamedPipeAtOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "known-tokens.json")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := readFile(path, 1<<20)
		done <- err
	}()
	select {
	case err := <-done:
		require.ErrorContains(t, err, "not a regular file")
	case <-time.After(time.Minute): // a refusal takes microseconds; an open that waits for a writer, for ever
		t.Fatal("reading a named pipe blocked")
	}
}
