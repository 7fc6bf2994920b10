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

// The request log and the debug log are written, so neither follows a
// symbolic link (the file it names is left as it is) nor opens a named
// pipe, and each message names its flag.
func TestLogsRefuseLinkAndFIFO(t *testing.T) {
	for _, c := range []struct {
		flag string
		set  func(path string) config.Settings
	}{
		{"--log", func(p string) config.Settings { return config.Settings{LogPath: p, LogFrom: "--log"} }},
		{"--debug-log", func(p string) config.Settings { return config.Settings{DebugLogPath: p, DebugLogFrom: "--debug-log"} }},
	} {
		t.Run(c.flag, func(t *testing.T) {
			dir := t.TempDir()
			victim := filepath.Join(dir, "victim.txt")
			require.NoError(t, os.WriteFile(victim, []byte("someone else's\n"), 0o600))
			link := filepath.Join(dir, "the.log")
			require.NoError(t, os.Symlink(victim, link))
			_, err := openSession(context.Background(), c.set(link), time.Now())
			var ue *config.UsageError
			require.True(t, errors.As(err, &ue), "%v", err)
			assert.Contains(t, err.Error(), c.flag+" "+link+": it is a symbolic link to "+victim)
			raw, _ := os.ReadFile(victim)
			assert.Equal(t, "someone else's\n", string(raw))

			fifo := filepath.Join(dir, "fifo")
			require.NoError(t, syscall.Mkfifo(fifo, 0o600))
			_, err = openSession(context.Background(), c.set(fifo), time.Now())
			require.True(t, errors.As(err, &ue), "%v", err)
			assert.Contains(t, err.Error(), c.flag+" "+fifo+": it is a named pipe (FIFO)")
		})
	}
}

// A debug log that cannot be written (a full disk) is said at the end,
// naming the file, and does not make the quit a failure.
func TestADebugLogThatFailsIsSaidNotFatal(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "debug.log")
	sess, err := openSession(context.Background(), config.Settings{BaseURL: "https://127.0.0.1:1", V2Token: "x",
		Merchants: []string{"1001"}, JournalPath: filepath.Join(dir, "journal.jsonl"),
		DebugLogPath: path, DebugLogFrom: "--debug-log"}, time.Now())
	require.NoError(t, err)
	f := sess.debugFile
	require.NoError(t, syscall.Close(int(f.Fd()))) // every write now fails
	sess.debug.Log("something", "k", "v")
	_ = sess.Close() // closing the file again fails too: the descriptor is gone
	assert.Contains(t, sess.debugLost, "the debug log "+path+" stopped at a write error")
	assert.Contains(t, sess.debugLost, "the lines after it are lost")
}
