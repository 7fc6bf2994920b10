package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// paydash serve's bad input exits 2 with one line that says what to do,
// before anything is opened; its help goes to stdout.
func TestServeFlags(t *testing.T) {
	ts := newTestSystem(t)
	people := filepath.Join(ts.Home, "people.toml")
	require.NoError(t, os.WriteFile(people, []byte("[[person]]\nname = \"x\"\nrole = \"viewr\"\nkeys = []\n"), 0o600))

	code, stdout, _ := ts.runCmd("serve", "--help")
	assert.Equal(t, 0, code)
	assert.Contains(t, stdout, "--people PATH")

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"serve"}, "--people PATH is required"},
		{[]string{"serve", "--people", people, "--addr", "0.0.0.0:2222"}, "give --public as well"},
		{[]string{"serve", "--people", people, "--idle-timeout", "0"}, "--idle-timeout 0s: give a positive duration"},
		{[]string{"serve", "--people", people, "--max-sessions", "0"}, "must be at least 1"},
		{[]string{"serve", "--people", people, "--adr", "x"}, "--adr"},
		{[]string{"serve", "--people", people}, "line 3"}, // "viewr" is not a role
		{[]string{"serve", "--people", filepath.Join(ts.Home, "none.toml")}, "none.toml"},
	} {
		code, _, stderr := ts.runCmd(c.args...)
		assert.Equal(t, 2, code, "%v: %s", c.args, stderr)
		assert.Contains(t, stderr, c.want, "%v", c.args)
	}
}
