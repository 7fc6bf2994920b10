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
