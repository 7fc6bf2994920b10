package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend"
	"paydash/backend/journal"
	"paydash/backend/sandbox"
	"paydash/config"
	"paydash/ui"
)

// The settings themselves are tested in the config package; these are the
// command around them (exit codes, stderr, --help) and the session they
// open.

// testSystem is a machine of its own (see config.FakeMachine), under t.TempDir().
type testSystem struct{ *config.FakeMachine }

func newTestSystem(t *testing.T) *testSystem {
	m, err := config.NewFakeMachine(t.TempDir())
	require.NoError(t, err)
	return &testSystem{m}
}

func (ts *testSystem) sys() config.System { return ts.System() }

// writeConfig writes the default config file with mode perm.
func (ts *testSystem) writeConfig(t *testing.T, text string, perm os.FileMode) string {
	path, err := ts.WriteConfig(text, perm)
	require.NoError(t, err)
	return path
}

// runCmd runs the command with ts's environment and returns its exit
// code, stdout and stderr.
func (ts *testSystem) runCmd(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := runWith(context.Background(), args, &out, &errb, ts.sys())
	return code, out.String(), errb.String()
}

// A refusal of the settings exits 2 with its message, in one line, on
// stderr.
func TestMissingConfigFile(t *testing.T) {
	ts := newTestSystem(t)
	missing := filepath.Join(t.TempDir(), "nope.toml")
	code, _, stderr := ts.runCmd("--config", missing)
	assert.Equal(t, 2, code)
	assert.Equal(t, "paydash: --config "+missing+": no such file\n", stderr)

	// Good input and no terminal (as here): it says so and exits 1.
	code, _, stderr = ts.runCmd("--read-only")
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr, "needs a terminal")
}

// Every refusal of the config package reaches the command the same way:
// one line, exit 2, nothing on stdout.
func TestSettingsRefusalsExit2(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		file string
		want string
	}{
		{"a bad flag", []string{"--token", "x"}, "", "flag provided but not defined: --token"},
		{"a bad key", nil, "baseurl = \"https://x.example.com\"\n", `unknown key(s) "baseurl"`},
		{"a bad merchant", nil, "merchants = [{ name = \"A\" }]\n", "line 1: merchants item 1 has a name but no id"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts := newTestSystem(t)
			if tc.file != "" {
				ts.writeConfig(t, tc.file, 0o600)
			}
			code, stdout, stderr := ts.runCmd(tc.args...)
			assert.Equal(t, 2, code, stderr)
			assert.Empty(t, stdout)
			assert.True(t, strings.HasPrefix(stderr, "paydash: "), stderr)
			assert.Equal(t, 1, strings.Count(stderr, "\n"), "one line: %q", stderr)
			assert.Contains(t, stderr, tc.want)
		})
	}
}

// A warning of the settings reaches stderr before anything else happens
// (here the command then stops: the test has no terminal).
func TestWarningsReachStderr(t *testing.T) {
	ts := newTestSystem(t)
	path := ts.writeConfig(t, "v2_token = \"s3cret-token\"\n", 0o644)
	_, _, stderr := ts.runCmd()
	assert.Contains(t, stderr, "paydash: warning: "+path)
	assert.NotContains(t, stderr, "s3cret-token")
}

// --help, -h and help print config.Usage, and nothing else.
func TestHelpListsEverything(t *testing.T) {
	ts := newTestSystem(t)
	var want bytes.Buffer
	config.Usage(&want, ts.sys())
	for _, arg := range []string{"--help", "-h", "help"} {
		code, stdout, stderr := ts.runCmd(arg)
		assert.Equal(t, 0, code)
		assert.Empty(t, stderr)
		assert.Equal(t, want.String(), stdout, arg)
		assert.Contains(t, stdout, "--base-url URL")
	}
}

func TestOpenSessionOnTheSandbox(t *testing.T) {
	if testing.Short() {
		t.Skip("seeds a sandbox")
	}
	old := sandboxOptions
	sandboxOptions = sandbox.Options{Seed: 1, Payments: 200}
	t.Cleanup(func() { sandboxOptions = old })

	ts := newTestSystem(t)
	s, err := config.Load([]string{"--merchant", "1002", "--read-only", "--log", filepath.Join(t.TempDir(), "req.log")}, ts.sys())
	require.NoError(t, err)
	now := time.Date(2026, 11, 21, 15, 4, 5, 0, time.Local)
	sess, err := openSession(context.Background(), s, now)
	require.NoError(t, err)
	defer sess.Close()

	d := sess.backend.Describe()
	assert.True(t, d.Sandbox)
	assert.ElementsMatch(t, []backend.Interface{backend.V2, backend.V1}, d.Interfaces, "both interfaces show on the sandbox")
	assert.True(t, d.ReadOnly)
	assert.Equal(t, []ui.Merchant{{ID: "1001", Name: "Daily Grind Coffee"}, {ID: "1002", Name: "Page Turner Books"},
		{ID: "1003", Name: "Horizon Travel"}, {ID: "1004", Name: "Volt Electronics"}}, sess.merchants,
		"the sandbox's merchants, with its names")
	assert.Equal(t, "1002", sess.scope.MerchantID)
	assert.Equal(t, time.Date(2026, 11, 21, 0, 0, 0, 0, time.Local), sess.scope.Start)
	assert.Equal(t, now.Add(time.Minute), sess.scope.End, "a rolling period: it ends at the service's now at every refresh")
	assert.Equal(t, "today", sess.scope.Preset)
	assert.Equal(t, filepath.Join(ts.Home, ".local", "state", "paydash", "sandbox-journal.jsonl"), sess.journal.Path())
	require.NoError(t, sess.journal.Record(journal.Entry{Action: "capture", Phase: journal.PhaseSent, ObjectID: "1"}))
	require.NoError(t, sess.Close())

	// A merchant the sandbox does not have.
	s, err = config.Load([]string{"--merchant", "777"}, ts.sys())
	require.NoError(t, err)
	_, err = openSession(context.Background(), s, now)
	var ue *config.UsageError
	require.ErrorAs(t, err, &ue)
	assert.Contains(t, err.Error(), "--merchant 777 is not a merchant of the embedded sandbox (it has 1001 Daily Grind Coffee, 1002 Page Turner Books,")
}

func TestOpenSessionLive(t *testing.T) {
	ts := newTestSystem(t)
	j := filepath.Join(t.TempDir(), "j.jsonl")
	// No credentials: Open says what to set; exit 2.
	s, err := config.Load([]string{"--base-url", "https://pay.example.com", "--merchant", "1001", "--journal", j}, ts.sys())
	require.NoError(t, err)
	_, err = openSession(context.Background(), s, time.Now())
	var ue *config.UsageError
	require.ErrorAs(t, err, &ue)
	assert.Contains(t, err.Error(), config.EnvV2Token)

	ts.Env[config.EnvV2Token] = "tok-123"
	s, err = config.Load([]string{"--base-url", "https://pay.example.com", "--merchant", "1001", "--journal", j,
		"--log", filepath.Join(t.TempDir(), "no", "such", "dir", "req.log")}, ts.sys())
	require.NoError(t, err)
	_, err = openSession(context.Background(), s, time.Now())
	require.ErrorAs(t, err, &ue)
	assert.Contains(t, err.Error(), "--log ")
	assert.Contains(t, err.Error(), "no such file")

	s, err = config.Load([]string{"--base-url", "https://pay.example.com", "--merchant", "1001", "--journal", j}, ts.sys())
	require.NoError(t, err)
	sess, err := openSession(context.Background(), s, time.Now())
	require.NoError(t, err, "Open does no I/O")
	defer sess.Close()
	d := sess.backend.Describe()
	assert.False(t, d.Sandbox)
	assert.Equal(t, "pay.example.com", d.Host)
	assert.Equal(t, []ui.Merchant{{ID: "1001"}}, sess.merchants)
	assert.Equal(t, "1001", sess.scope.MerchantID)
	assert.Equal(t, j, sess.journal.Path())
}

func TestRequestLogHasNoSecrets(t *testing.T) {
	if testing.Short() {
		t.Skip("seeds a sandbox")
	}
	srv, err := sandbox.Start(context.Background(), sandbox.Options{Seed: 2, Payments: 50})
	require.NoError(t, err)
	defer srv.Close()
	info := srv.Info()

	ts := newTestSystem(t)
	ts.Env[config.EnvV2Token] = info.V2Token
	ts.Env[config.EnvV1Login] = info.V1Users[len(info.V1Users)-1].Login
	ts.Env[config.EnvV1Password] = info.V1Users[len(info.V1Users)-1].Password
	logPath := filepath.Join(t.TempDir(), "req.log")
	ca := filepath.Join(t.TempDir(), "ca.pem")
	require.NoError(t, os.WriteFile(ca, srv.CACertPEM(), 0o600))
	s, err := config.Load([]string{"--base-url", info.BaseURL, "--ca-file", ca, "--merchant", info.MerchantIDs[0],
		"--journal", filepath.Join(t.TempDir(), "j.jsonl"), "--log", logPath}, ts.sys())
	require.NoError(t, err)
	sess, err := openSession(context.Background(), s, time.Now())
	require.NoError(t, err)
	require.NoError(t, sess.backend.Probe(context.Background()))
	_, err = sess.backend.GetPayment(context.Background(), "1")
	require.Error(t, err, "an unknown payment, logged too")
	page, err := sess.backend.ListPayments(backend.PeriodQuery{MerchantID: info.MerchantIDs[0],
		Start: time.Now().AddDate(0, 0, -91), End: time.Now()}).Next(context.Background())
	require.NoError(t, err)
	assert.NotEmpty(t, page.Items)
	require.NoError(t, sess.Close())

	raw, err := os.ReadFile(logPath)
	require.NoError(t, err)
	log := string(raw)
	assert.Contains(t, log, `"msg":"paydash started"`)
	assert.Contains(t, log, "v2 request")
	for _, secret := range []string{info.V2Token, ts.Env[config.EnvV1Password]} {
		assert.NotContains(t, log, secret)
	}
}

// The names the config file gives merchants reach the dashboard, in the
// file's order.
func TestMerchantNamesReachTheSession(t *testing.T) {
	ts := newTestSystem(t)
	ts.Env[config.EnvV2Token] = "tok"
	ts.writeConfig(t, `base_url = "https://pay.example.com"
merchants = ["1001", { id = "1002", name = "Page Turner Books" }]
merchant = "1002"
journal = "j.jsonl"
`, 0o600)
	s, err := config.Load(nil, ts.sys())
	require.NoError(t, err)
	sess, err := openSession(context.Background(), s, time.Now())
	require.NoError(t, err)
	defer sess.Close()
	assert.Equal(t, []ui.Merchant{{ID: "1001"}, {ID: "1002", Name: "Page Turner Books"}}, sess.merchants)
	assert.Equal(t, "1002", sess.scope.MerchantID)
}

// The config file's warnings about merchants show in the dashboard too,
// and its merchants with their names cleaned.
func TestMerchantWarningsReachTheDashboard(t *testing.T) {
	ts := newTestSystem(t)
	ts.Env[config.EnvV2Token] = "tok"
	ts.writeConfig(t, `base_url = "https://pay.example.com"
journal = "j.jsonl"
merchants = [
  { id = "1001", name = "Daily Grind" },
  { id = "1002", name = "Evil\u001b]0;pwned\u0007 Books\u001b[2J\r\nOnline\u202e" },
  { id = "1001", name = "Another Name" },
]
`, 0o600)
	s, err := config.Load(nil, ts.sys())
	require.NoError(t, err)
	require.Len(t, s.ShownWarnings, 2)

	sess, err := openSession(context.Background(), s, time.Now())
	require.NoError(t, err)
	defer sess.Close()
	assert.Equal(t, s.ShownWarnings, sess.warnings, "the dashboard shows them too")
	assert.Equal(t, ui.Merchant{ID: "1002", Name: "Evil Books Online"}, sess.merchants[1])
}

// Without a base URL the dashboard runs on the embedded sandbox, with its
// merchants and names; a name in the config file is used over the
// sandbox's.
func TestSandboxMerchantNames(t *testing.T) {
	if testing.Short() {
		t.Skip("seeds a sandbox")
	}
	old := sandboxOptions
	sandboxOptions = sandbox.Options{Seed: 1, Payments: 100}
	t.Cleanup(func() { sandboxOptions = old })

	ts := newTestSystem(t)
	ts.writeConfig(t, `merchants = [{ id = "1003", name = "Horizon (our name)" }]
journal = "`+filepath.Join(t.TempDir(), "j.jsonl")+`"
`, 0o600)
	s, err := config.Load(nil, ts.sys())
	require.NoError(t, err)
	sess, err := openSession(context.Background(), s, time.Now())
	require.NoError(t, err)
	defer sess.Close()
	assert.Equal(t, []ui.Merchant{{ID: "1001", Name: "Daily Grind Coffee"}, {ID: "1002", Name: "Page Turner Books"},
		{ID: "1003", Name: "Horizon (our name)"}, {ID: "1004", Name: "Volt Electronics"}}, sess.merchants)
}
