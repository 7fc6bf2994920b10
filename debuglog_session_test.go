//go:build unix

package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/config"
)

// The debug log is opened as the request log is: a symbolic link is not
// followed (the file it names is left as it is) and a named pipe is
// refused, each with a message naming --debug-log.
func TestDebugLogSessionRefusesLinkAndFIFO(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(dir, "victim.txt")
	require.NoError(t, os.WriteFile(victim, []byte("someone else's\n"), 0o600))
	link := filepath.Join(dir, "debug.log")
	require.NoError(t, os.Symlink(victim, link))
	_, err := openSession(context.Background(), config.Settings{DebugLogPath: link, DebugLogFrom: "--debug-log"}, time.Now())
	var ue *config.UsageError
	require.True(t, errors.As(err, &ue), "%v", err)
	assert.Contains(t, err.Error(), "--debug-log "+link+": it is a symbolic link to "+victim)
	raw, _ := os.ReadFile(victim)
	assert.Equal(t, "someone else's\n", string(raw))

	fifo := filepath.Join(dir, "fifo")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	_, err = openSession(context.Background(), config.Settings{DebugLogPath: fifo, DebugLogFrom: "--debug-log"}, time.Now())
	require.True(t, errors.As(err, &ue), "%v", err)
	assert.Contains(t, err.Error(), "--debug-log "+fifo+": it is a named pipe (FIFO)")
}
