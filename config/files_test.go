package config

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Files names every file paydash reads or writes, as the dashboard would
// resolve them: defaults on a bare machine, then the config file's and
// the flags' own.
func TestFilesResolvedAsTheDashboardWould(t *testing.T) {
	m, err := NewFakeMachine(t.TempDir())
	require.NoError(t, err)
	state := filepath.Join(m.Home, ".local", "state", "paydash")
	files, err := Files(nil, m.System())
	require.NoError(t, err)
	assert.Equal(t, []File{
		{Name: "config file", Path: filepath.Join(m.ConfigHome, "paydash", "config.toml")},
		{Name: "journal", Path: filepath.Join(state, "journal.jsonl")},
		{Name: "sandbox journal", Path: filepath.Join(state, "sandbox-journal.jsonl")},
		{Name: "known tokens", Path: filepath.Join(state, "known-tokens.json")},
		{Name: "request log", Note: "none (--log PATH, or log in the config file)"},
		{Name: "debug log", Note: "none (--debug-log PATH, or debug_log in the config file)"},
		{Name: "host key", Path: filepath.Join(state, "host_key"), Note: "paydash serve's, made on its first start (--host-key PATH)"},
		{Name: "approvals", Path: filepath.Join(state, "approvals.jsonl"), Note: "paydash serve's requests for approval"},
	}, files)

	// The config file's journal and log, relative to it.
	cfg, err := m.WriteConfig("journal = \"j/journal.jsonl\"\nlog = \"~/req.log\"\n", 0o600)
	require.NoError(t, err)
	files, err = Files(nil, m.System())
	require.NoError(t, err)
	dir := filepath.Dir(cfg)
	assert.Equal(t, filepath.Join(dir, "j", "journal.jsonl"), files[1].Path)
	assert.Equal(t, filepath.Join(dir, "j", "journal.jsonl"), files[2].Path, "--journal and journal = name the sandbox's too")
	assert.Equal(t, filepath.Join(dir, "j", "known-tokens.json"), files[3].Path)
	assert.Equal(t, filepath.Join(m.Home, "req.log"), files[4].Path)

	// The flags over the file; XDG_STATE_HOME moves the host key.
	m.Env["XDG_STATE_HOME"] = filepath.Join(m.Home, "st")
	files, err = Files([]string{"--journal", "/tmp/x.jsonl", "--log", "/tmp/r.log", "--debug-log", "/tmp/d.log"}, m.System())
	require.NoError(t, err)
	assert.Equal(t, "/tmp/x.jsonl", files[1].Path)
	assert.Equal(t, "/tmp/r.log", files[4].Path)
	assert.Equal(t, "/tmp/d.log", files[5].Path)
	assert.Equal(t, filepath.Join(m.Home, "st", "paydash", "host_key"), files[6].Path)

	// A bad flag is a UsageError.
	_, err = Files([]string{"--nope"}, m.System())
	var ue *UsageError
	assert.ErrorAs(t, err, &ue)
}

// Without a home or XDG_STATE_HOME the state files have no place, and
// Files says so rather than failing.
func TestFilesWithoutAStateDir(t *testing.T) {
	sys := System{Getenv: func(string) string { return "" },
		UserConfigDir: func() (string, error) { return "", os.ErrNotExist },
		UserHomeDir:   func() (string, error) { return "", os.ErrNotExist }, GOOS: "linux"}
	files, err := Files(nil, sys)
	require.NoError(t, err)
	for _, f := range files {
		assert.Empty(t, f.Path, f.Name)
		assert.NotEmpty(t, f.Note, f.Name)
	}
}

// The completion of --merchant reads the ids of the default config file,
// or of the one named.
func TestFileMerchants(t *testing.T) {
	m, err := NewFakeMachine(t.TempDir())
	require.NoError(t, err)
	ids, err := FileMerchants("", m.System())
	require.NoError(t, err)
	assert.Empty(t, ids, "no config file, no merchants")
	_, err = m.WriteConfig("merchants = [\"1001\", { id = \"1002\", name = \"Books\" }]\n", 0o600)
	require.NoError(t, err)
	ids, err = FileMerchants("", m.System())
	require.NoError(t, err)
	assert.Equal(t, []string{"1001", "1002"}, ids)
	other := filepath.Join(t.TempDir(), "other.toml")
	require.NoError(t, os.WriteFile(other, []byte("merchants = [7]\n"), 0o600))
	ids, err = FileMerchants(other, m.System())
	require.NoError(t, err)
	assert.Equal(t, []string{"7"}, ids)
}
