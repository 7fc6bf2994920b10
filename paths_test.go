package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// paydash paths lists every file, one a line, name, path and whether it
// exists, on a machine of its own.
func TestPathsListsEveryFileAndWhetherItExists(t *testing.T) {
	ts := newTestSystem(t)
	state := filepath.Join(ts.Home, ".local", "state", "paydash")
	require.NoError(t, os.MkdirAll(state, 0o700))
	require.NoError(t, os.WriteFile(filepath.Join(state, "journal.jsonl"), nil, 0o600))

	code, stdout, stderr := ts.runCmd("paths")
	require.Equal(t, 0, code, stderr)
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	require.Len(t, lines, 8, stdout)
	for i, want := range [][]string{
		{"config file", filepath.Join(ts.ConfigHome, "paydash", "config.toml"), "(not yet)"},
		{"journal", filepath.Join(state, "journal.jsonl"), "(exists)"},
		{"sandbox journal", filepath.Join(state, "sandbox-journal.jsonl"), "(not yet)"},
		{"known tokens", filepath.Join(state, "known-tokens.json"), "(not yet)"},
		{"request log", "none (--log PATH, or log in the config file)"},
		{"debug log", "none (--debug-log PATH, or debug_log in the config file)"},
		{"host key", filepath.Join(state, "host_key"), "(not yet; paydash serve's, made on its first start (--host-key PATH))"},
		{"approvals", filepath.Join(state, "approvals.jsonl"), "(not yet; paydash serve's requests for approval)"},
	} {
		assert.True(t, strings.HasPrefix(lines[i], want[0]+" "), "line %d: %q", i+1, lines[i])
		assert.Equal(t, strings.TrimRight(lines[i], " "), lines[i], "no trailing blanks")
		for _, w := range want[1:] {
			assert.Contains(t, lines[i], w, "line %d", i+1)
		}
	}

	// The dashboard's flags move them; a bad flag exits 2 in one line.
	code, stdout, _ = ts.runCmd("paths", "--log", filepath.Join(ts.Home, "r.log"))
	require.Equal(t, 0, code)
	assert.Regexp(t, `\nrequest log +`+regexp.QuoteMeta(filepath.Join(ts.Home, "r.log"))+` +\(not yet\)\n`, stdout)
	code, _, stderr = ts.runCmd("paths", "--nope")
	assert.Equal(t, 2, code)
	assert.True(t, strings.HasPrefix(stderr, "paydash paths: "), stderr)
	code, stdout, _ = ts.runCmd("paths", "--help")
	assert.Equal(t, 0, code)
	assert.Contains(t, stdout, "Usage: paydash paths")
}

// A config file that cannot be read still lists the files, then says
// what is wrong (exit 2).
func TestPathsWithABrokenConfigFile(t *testing.T) {
	ts := newTestSystem(t)
	ts.writeConfig(t, "journal = [", 0o600)
	code, stdout, stderr := ts.runCmd("paths")
	assert.Equal(t, 2, code)
	assert.Contains(t, stdout, "config file")
	assert.Contains(t, stdout, "(exists)")
	assert.True(t, strings.HasPrefix(stderr, "paydash paths: "), stderr)
}
