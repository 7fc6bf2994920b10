package config

import (
	"bytes"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The debug log comes from debug_log in the config file (relative to the
// file, ~ expanded), --debug-log over it, and an empty --debug-log turns it off.
func TestDebugLogFlagAndKey(t *testing.T) {
	ts := newTestSystem(t)
	s, err := Load(nil, ts.sys())
	require.NoError(t, err)
	assert.Empty(t, s.DebugLogPath, "no debug log unless asked")

	path := ts.writeConfig(t, `debug_log = "logs/debug.log"`+"\n", 0o600)
	s, err = Load(nil, ts.sys())
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(filepath.Dir(path), "logs", "debug.log"), s.DebugLogPath)
	assert.Equal(t, "debug_log in "+path, s.DebugLogFrom)

	s, err = Load([]string{"--debug-log", "~/d.log"}, ts.sys())
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(ts.Home, "d.log"), s.DebugLogPath)
	assert.Equal(t, "--debug-log", s.DebugLogFrom)

	s, err = Load([]string{"--debug-log", ""}, ts.sys())
	require.NoError(t, err)
	assert.Empty(t, s.DebugLogPath, "--debug-log '' turns the file's debug log off")

	ts.writeConfig(t, `debug_log = true`+"\n", 0o600)
	assert.Contains(t, ts.refusal(t), "debug_log")
}

func TestUsageListsDebugLog(t *testing.T) {
	ts := newTestSystem(t)
	var b bytes.Buffer
	Usage(&b, ts.sys())
	assert.Contains(t, b.String(), "--debug-log PATH")
	assert.Contains(t, b.String(), `debug_log   = "~/paydash/debug.log"`)
}
