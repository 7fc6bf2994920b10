package main

import (
	"bytes"
	"log/slog"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend"
	"paydash/backend/action"
	"paydash/backend/approval"
	"paydash/backend/money"
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

// The server's log says that the approvals file was rolled over at its
// start (its first request is from an earlier month), and that a line of
// it could not be read.
func TestServeLogsTheApprovalsRollover(t *testing.T) {
	path := filepath.Join(t.TempDir(), "approvals.jsonl")
	lastMonth := time.Now().UTC().AddDate(0, -1, 0)
	old, err := approval.Open(path, approval.Options{Now: func() time.Time { return lastMonth }})
	require.NoError(t, err)
	_, err = old.File(action.New(backend.ActionRefund, "43149010", money.Amount{Value: money.MustParse("5.00"), Currency: "RUB"}, backend.V2), "desk-1", "SHA256:x")
	require.NoError(t, err)
	require.NoError(t, old.Close())
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	require.NoError(t, err)
	_, err = f.WriteString("not a line of the approvals\n")
	require.NoError(t, err)
	require.NoError(t, f.Close())

	store, err := approval.Open(path, approval.Options{})
	require.NoError(t, err)
	defer store.Close()
	var logged bytes.Buffer
	logApprovalsOpened(slog.New(slog.NewTextHandler(&logged, nil)), store)
	assert.Contains(t, logged.String(), "approvals rolled over")
	assert.Contains(t, logged.String(), "archive="+filepath.Dir(path)+"/approvals.")
	assert.Contains(t, logged.String(), "lines that could not be read were skipped")
	assert.Contains(t, logged.String(), "lines=1 ")
	assert.Contains(t, logged.String(), "first_line=2 ")
}
