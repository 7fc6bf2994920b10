package config

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend/money"
	"paydash/keys"
)

// testSystem is a machine of its own (see FakeMachine), under t.TempDir().
type testSystem struct{ *FakeMachine }

func newTestSystem(t *testing.T) *testSystem {
	m, err := NewFakeMachine(t.TempDir())
	require.NoError(t, err)
	return &testSystem{m}
}

func (ts *testSystem) sys() System { return ts.System() }

// writeConfig writes the default config file with mode perm.
func (ts *testSystem) writeConfig(t *testing.T, text string, perm os.FileMode) string {
	path, err := ts.WriteConfig(text, perm)
	require.NoError(t, err)
	return path
}

// refusal is Load's refusal of args with ts's environment: a *UsageError,
// whose message the command prints after "paydash: " and exits 2 (the
// root package's TestMissingConfigFile checks that part).
func (ts *testSystem) refusal(t *testing.T, args ...string) string {
	t.Helper()
	_, err := Load(args, ts.sys())
	var ue *UsageError
	require.ErrorAs(t, err, &ue)
	return err.Error()
}

func TestSettingsPrecedenceFlagsOverEnvOverFile(t *testing.T) {
	ts := newTestSystem(t)
	ts.writeConfig(t, `
base_url = "https://file.example.com"
merchants = ["1001", 1002]
merchant = "1001"
refresh = "30s"
read_only = true
journal = "state/journal.jsonl"
log = "~/paydash.log"
v2_token = "file-token"
v1_login = "file-login"
v1_password = "file-password"
`, 0o600)

	// The file alone.
	s, err := Load(nil, ts.sys())
	require.NoError(t, err)
	assert.True(t, s.Dark, "a dark background is assumed until the terminal says")
	assert.Equal(t, "https://file.example.com", s.BaseURL)
	assert.Equal(t, []string{"1001", "1002"}, s.Merchants, "ids may be written as numbers")
	assert.Equal(t, "1001", s.Merchant)
	assert.Equal(t, 30*time.Second, s.Refresh)
	assert.True(t, s.ReadOnly)
	assert.Equal(t, filepath.Join(ts.ConfigHome, "paydash", "state", "journal.jsonl"), s.JournalPath,
		"a relative path in the file is relative to the file")
	assert.Equal(t, filepath.Join(ts.Home, "paydash.log"), s.LogPath)
	assert.Equal(t, "file-token", s.V2Token)
	assert.Equal(t, "file-login", s.V1Login)
	assert.Equal(t, "file-password", s.V1Password)
	assert.Empty(t, s.Warnings, "a 0600 file holding secrets is fine")

	// The environment over the file.
	ts.Env[envColorFGBG] = "0;15" // black on white
	ts.Env[EnvV2Token] = "env-token"
	ts.Env[EnvV1Password] = "env-password"
	s, err = Load(nil, ts.sys())
	require.NoError(t, err)
	assert.Equal(t, "env-token", s.V2Token)
	assert.False(t, s.Dark, "COLORFGBG says the background is light")
	assert.Equal(t, "file-login", s.V1Login, "what the environment does not set comes from the file")
	assert.Equal(t, "env-password", s.V1Password)

	// Flags over both.
	j := filepath.Join(t.TempDir(), "j.jsonl")
	s, err = Load([]string{"--base-url", "https://flag.example.com/", "--merchant", "1002",
		"--refresh", "5s", "--read-only=false", "--journal", j, "--log", ""}, ts.sys())
	require.NoError(t, err)
	assert.Equal(t, "https://flag.example.com", s.BaseURL, "the trailing slash is dropped")
	assert.Equal(t, "1002", s.Merchant)
	assert.Equal(t, 5*time.Second, s.Refresh)
	assert.False(t, s.ReadOnly)
	assert.Equal(t, j, s.JournalPath)
	assert.Empty(t, s.LogPath, "--log '' turns the file's log off")
	assert.Equal(t, "env-token", s.V2Token)

	// An empty --base-url chooses the embedded sandbox over the file's service.
	s, err = Load([]string{"--base-url="}, ts.sys())
	require.NoError(t, err)
	assert.Empty(t, s.BaseURL)
}

func TestSettingsDefaults(t *testing.T) {
	ts := newTestSystem(t)
	s, err := Load(nil, ts.sys())
	require.NoError(t, err, "a missing default config file is fine")
	assert.Empty(t, s.ConfigPath)
	assert.Empty(t, s.BaseURL, "no base URL: the embedded sandbox")
	assert.Equal(t, 10*time.Second, s.Refresh)
	assert.False(t, s.NoColor)
	assert.Equal(t, keys.Default(), s.Keys)
	assert.Equal(t, filepath.Join(ts.ConfigHome, "paydash", "config.toml"), s.ConfigName, "advice names the default path")

	p, err := s.Journal(false)
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(ts.Home, ".local", "state", "paydash", "journal.jsonl"), p)
	p, err = s.Journal(true)
	require.NoError(t, err)
	assert.Equal(t, filepath.Join(ts.Home, ".local", "state", "paydash", "sandbox-journal.jsonl"), p,
		"actions on the sandbox are kept apart from real ones")

	ts.Env["XDG_STATE_HOME"] = "/xdg/state"
	ts.Env["XDG_CONFIG_HOME"] = "/xdg/config"
	ts.Env[envNoColor] = "1"
	s, err = Load(nil, ts.sys())
	require.NoError(t, err)
	p, err = s.Journal(false)
	require.NoError(t, err)
	assert.Equal(t, "/xdg/state/paydash/journal.jsonl", p)
	assert.Equal(t, "/xdg/config/paydash/config.toml", defaultConfigPath(ts.sys()))
	assert.True(t, s.NoColor, "NO_COLOR set and not empty")

	mac := ts.sys()
	mac.GOOS = "darwin"
	delete(ts.Env, "XDG_STATE_HOME")
	assert.Equal(t, filepath.Join(ts.ConfigHome, "paydash"), stateDir(mac))

	// No place for the journal: it says what to give.
	_, err = Settings{}.Journal(false)
	var ue *UsageError
	require.ErrorAs(t, err, &ue)
	assert.Contains(t, err.Error(), "give --journal PATH")
}

func TestSettingsKeysTable(t *testing.T) {
	ts := newTestSystem(t)
	ts.writeConfig(t, "[keys]\nrefund = [\"ctrl+r\"]\n", 0o644)
	s, err := Load(nil, ts.sys())
	require.NoError(t, err)
	assert.Equal(t, []string{"ctrl+r"}, s.Keys.Actions.Refund.Keys())

	path := ts.writeConfig(t, "[keys]\nrefnud = [\"ctrl+r\"]\n", 0o644)
	msg := ts.refusal(t)
	assert.Contains(t, msg, path)
	assert.Contains(t, msg, "refnud")
	assert.Contains(t, msg, "refund", "the closest action is suggested")
}

func TestUnknownConfigKeyIsAnError(t *testing.T) {
	ts := newTestSystem(t)
	path := ts.writeConfig(t, "baseurl = \"https://x.example.com\"\nmerchants = [\"1\"]\n[extra]\nfoo = 1\n", 0o600)
	msg := ts.refusal(t)
	assert.Contains(t, msg, path)
	assert.Contains(t, msg, `"baseurl"`)
	assert.Contains(t, msg, `"extra.foo"`)
	assert.Contains(t, msg, "base_url", "the known keys are listed")
	assert.NotContains(t, msg, "\n", "one line")

	ts.writeConfig(t, "base_url = \n", 0o600)
	assert.Contains(t, ts.refusal(t), "line 1", "a syntax error names its line")
}

func TestMissingConfigFile(t *testing.T) {
	ts := newTestSystem(t)
	missing := filepath.Join(t.TempDir(), "nope.toml")
	assert.Equal(t, "--config "+missing+": no such file", ts.refusal(t, "--config", missing))
	_, err := Load([]string{"--read-only"}, ts.sys())
	assert.NoError(t, err, "the default config file may be missing")
}

func TestBadInputMessages(t *testing.T) {
	notPEM := filepath.Join(t.TempDir(), "ca.pem")
	require.NoError(t, os.WriteFile(notPEM, []byte("not a certificate\n"), 0o600))
	for _, tc := range []struct {
		name string
		args []string
		file string // config file text, if any
		want []string
	}{
		{"unparsable URL", []string{"--base-url", "://pay", "--merchant", "1"}, "", []string{"--base-url", "not a URL", "https://pay.example.com"}},
		{"URL without scheme", []string{"--base-url", "pay.example.com", "--merchant", "1"}, "", []string{"--base-url", "no https://"}},
		{"plain http", []string{"--base-url", "http://pay.example.com", "--merchant", "1"}, "", []string{"--base-url", "use https://"}},
		{"URL in the file", nil, "base_url = \"ftp://x\"\nmerchants = [\"1\"]\n", []string{`base_url "ftp://x" in `, "not https"}},
		{"user info in the URL", []string{"--base-url", "https://me:hunter2@pay.example.com", "--merchant", "1"}, "",
			[]string{`--base-url "https://me:xxxxx@pay.example.com"`, "user info is not allowed"}},
		{"CA not PEM", []string{"--base-url", "https://pay.example.com", "--merchant", "1", "--ca-file", notPEM}, "",
			[]string{"--ca-file " + notPEM, "no PEM certificate", "BEGIN CERTIFICATE"}},
		{"CA missing", []string{"--ca-file", "/nonexistent/ca.pem"}, "", []string{"--ca-file /nonexistent/ca.pem: no such file"}},
		{"CA in the file missing", nil, "ca_file = \"nope.pem\"\n", []string{"ca_file ", filepath.Join("paydash", "nope.pem") + " in ", ": no such file"}},
		{"bad duration", []string{"--refresh", "often"}, "", []string{`--refresh "often" is not a duration`, "10s"}},
		{"bad duration in the file", nil, "refresh = \"10\"\n", []string{`refresh "10" in `, "not a duration"}},
		{"too short a refresh", []string{"--refresh", "10ms"}, "", []string{"--refresh 10ms is too short"}},
		{"no merchant for a live service", []string{"--base-url", "https://pay.example.com"}, "",
			[]string{"no merchant", "--merchant ID", "merchants"}},
		{"merchant not listed", []string{"--base-url", "https://pay.example.com", "--merchant", "9"}, "merchants = [\"1001\"]\n",
			[]string{"--merchant 9 is not one of the merchants (1001)"}},
		{"wrong types in the file", nil, "read_only = \"yes\"\nrefresh = 10\nmerchants = [\"1\", true]\n",
			[]string{"read_only must be true or false", "refresh must be a string", "merchants item 2 must be a merchant id"}},
		{"typed check: not an amount", nil, "confirm_typed_over = \"lots\"\n",
			[]string{`confirm_typed_over in `, `"lots" is not an amount`, "50000"}},
		{"typed check: not a currency", nil, "confirm_typed_over = { roubles = 100 }\n",
			[]string{`"roubles" is not a currency code`}},
		{"typed check: negative", nil, "confirm_typed_over = { RUB = -5 }\n", []string{`RUB: "-5" is not an amount`}},
		{"typed check: wrong type", nil, "confirm_typed_over = true\n", []string{"must be an amount such as 50000", "not true or false"}},
		{"bad flag", []string{"--token", "x"}, "", []string{"flag provided but not defined: --token", "paydash --help"}},
		{"stray argument", []string{"dashboard"}, "", []string{`unknown command "dashboard"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts := newTestSystem(t)
			if tc.file != "" {
				ts.writeConfig(t, tc.file, 0o600)
			}
			msg := ts.refusal(t, tc.args...)
			assert.NotContains(t, msg, "\n", "one line: %q", msg)
			assert.NotContains(t, msg, "goroutine", "never a stack trace")
			assert.NotContains(t, msg, "hunter2", "never a password")
			for _, w := range tc.want {
				assert.Contains(t, msg, w)
			}
		})
	}
}

// The file is decoded once, into fileConfig; every key lands in it.
func TestDecodeConfigReadsEveryKey(t *testing.T) {
	text := `base_url = "https://pay.example.com"
ca_file = "ca.pem"
merchants = [1001, " 1002 "]
merchant = 1002
read_only = true
mouse = false
journal = "j.jsonl"
log = "r.log"
debug_log = "d.log"
refresh = "5s"
v2_token = "tok"
v1_login = "login"
v1_password = "pw"
confirm_typed_over = { RUB = 100 }
theme = "light"
parallel_reads = 6

[keys]
refund = ["ctrl+r"]

[colors]
good = "#1b7f3b"
warning = "130"
`
	for _, k := range configKeys {
		require.True(t, strings.Contains(text, "\n"+k+" = ") || strings.HasPrefix(text, k+" = ") ||
			strings.Contains(text, "["+k+"]"), "the text sets %s", k)
	}
	fc, err := decodeConfig("config.toml", []byte(text))
	require.NoError(t, err)
	assert.Equal(t, fileConfig{
		BaseURL: "https://pay.example.com", CAFile: "ca.pem", Merchants: []configMerchant{{ID: "1001"}, {ID: "1002"}}, Merchant: "1002",
		ReadOnly: true, NoMouse: true, Journal: "j.jsonl", Log: "r.log", DebugLog: "d.log", Refresh: "5s",
		V2Token: "tok", V1Login: "login", V1Password: "pw",
		TypedOver: map[string]any{"RUB": int64(100)}, Text: []byte(text),
		Theme: "light", Colors: map[string]string{"good": "#1b7f3b", "warning": "130"}, ParallelReads: 6,
	}, fc)

	// Unknown keys are named by their leaves, as written.
	_, err = decodeConfig("config.toml", []byte("extra = { a = 1, b = { c = 2 } }\n[[more]]\nd = 1\n"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), `unknown key(s) "extra.a", "extra.b.c", "more.d" (the keys are base_url, `)
}

// confirm_typed_over: above these amounts a confirmation asks for the last
// digits of the payment id typed (docs/confirmation.md).
func TestConfirmTypedOver(t *testing.T) {
	ts := newTestSystem(t)
	s, err := Load(nil, ts.sys())
	require.NoError(t, err)
	assert.Equal(t, money.MustParse("50000"), s.TypedOver["RUB"], "a default for roubles")
	assert.Equal(t, money.MustParse("1000"), s.TypedOver["USD"])
	assert.Equal(t, money.MustParse("1000"), s.TypedOver["*"], "a default for every other currency")
	for _, cur := range []string{"KWD", "TRY", "KRW", "INR", "XAF"} {
		_, named := s.TypedOver[cur]
		assert.False(t, named, "%s is not in the table: \"*\" applies", cur)
	}

	ts.writeConfig(t, "confirm_typed_over = { rub = 100_000, USD = \"2500.50\", EUR = 0.5, \"*\" = 7000 }\n", 0o600)
	s, err = Load(nil, ts.sys())
	require.NoError(t, err)
	assert.Equal(t, money.MustParse("100000"), s.TypedOver["RUB"], "the file wins; codes in any case")
	assert.Equal(t, money.MustParse("2500.5"), s.TypedOver["USD"])
	assert.Equal(t, money.MustParse("0.5"), s.TypedOver["EUR"])
	assert.Equal(t, money.MustParse("7000"), s.TypedOver["*"])
	assert.Equal(t, money.MustParse("1000"), s.TypedOver["GBP"], "defaults the file leaves alone stay")

	ts.writeConfig(t, "confirm_typed_over = { RUB = 100 }\n", 0o600)
	s, err = Load(nil, ts.sys())
	require.NoError(t, err)
	assert.Equal(t, money.MustParse("1000"), s.TypedOver["*"], "naming one currency keeps the default for the others")

	ts.writeConfig(t, "confirm_typed_over = 20000\n", 0o600)
	s, err = Load(nil, ts.sys())
	require.NoError(t, err)
	assert.Equal(t, map[string]money.Decimal{"*": money.MustParse("20000")}, s.TypedOver, "one number: every currency")
}

func TestWorldReadableConfigWithSecretWarns(t *testing.T) {
	ts := newTestSystem(t)
	path := ts.writeConfig(t, "v2_token = \"s3cret-token\"\n", 0o644)
	s, err := Load(nil, ts.sys())
	require.NoError(t, err)
	require.Len(t, s.Warnings, 1)
	assert.Contains(t, s.Warnings[0], path)
	assert.Contains(t, s.Warnings[0], "v2_token")
	assert.Contains(t, s.Warnings[0], "chmod 600")
	assert.NotContains(t, s.Warnings[0], "s3cret-token", "the warning names the key, never the secret")

	// The command prints it on stderr before anything else happens: the
	// root package's TestWarningsReachStderr.

	// No secret, no warning; a private file, no warning.
	ts.writeConfig(t, "refresh = \"5s\"\n", 0o644)
	s, err = Load(nil, ts.sys())
	require.NoError(t, err)
	assert.Empty(t, s.Warnings)
	ts.writeConfig(t, "v1_password = \"pw\"\n", 0o600)
	s, err = Load(nil, ts.sys())
	require.NoError(t, err)
	assert.Empty(t, s.Warnings)
	ts.writeConfig(t, "v1_password = \"pw\"\n", 0o640)
	s, err = Load(nil, ts.sys())
	require.NoError(t, err)
	require.Len(t, s.Warnings, 1, "readable by the group is readable by others too")
	assert.Contains(t, s.Warnings[0], "v1_password")
}

func TestUsageListsEverything(t *testing.T) {
	ts := newTestSystem(t)
	var b bytes.Buffer
	Usage(&b, ts.sys())
	stdout := b.String()
	for _, want := range []string{
		"--base-url URL", "--ca-file PATH", "--merchant ID", "--config PATH", "--read-only",
		"--journal PATH", "--log PATH", "--refresh DURATION",
		"PAYDASH_V2_TOKEN", "PAYDASH_V1_LOGIN", "PAYDASH_V1_PASSWORD", "NO_COLOR",
		filepath.Join(ts.ConfigHome, "paydash", "config.toml"),
		filepath.Join(ts.Home, ".local", "state", "paydash", "journal.jsonl"),
		"paydash sandbox", "paydash version", "paydash paths", "paydash completion", "[keys]", "merchants", "never from flags",
		"known-tokens.json",
		"capture,", "refund,", "quit,",
	} {
		assert.Contains(t, stdout, want)
	}
	for i, line := range strings.Split(stdout, "\n") {
		if !strings.Contains(line, ts.Home) && !strings.Contains(line, ts.ConfigHome) {
			assert.LessOrEqual(t, len([]rune(line)), 80, "line %d fits 80 columns: %q", i+1, line)
		}
	}
}

// A FakeMachine's environment is its map as it is when asked, so a test
// can set a variable after making the System; a config file it writes is
// where Load looks, with the mode asked for.
func TestFakeMachine(t *testing.T) {
	m, err := NewFakeMachine(t.TempDir())
	require.NoError(t, err)
	sys := m.System()
	m.Env[EnvV2Token] = "later"
	assert.Equal(t, "later", sys.Getenv(EnvV2Token))
	home, err := sys.UserHomeDir()
	require.NoError(t, err)
	assert.Equal(t, m.Home, home)
	assert.DirExists(t, home)
	cfg, err := sys.UserConfigDir()
	require.NoError(t, err)
	assert.Equal(t, m.ConfigHome, cfg)
	assert.Equal(t, "linux", sys.GOOS)

	_, err = m.WriteConfig("base_url = \"https://a.example.com\"\n", 0o644)
	require.NoError(t, err)
	path, err := m.WriteConfig("base_url = \"https://b.example.com\"\nmerchants = [\"1001\"]\n", 0o600)
	require.NoError(t, err)
	info, err := os.Stat(path)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o600), info.Mode().Perm())
	s, err := Load(nil, sys)
	require.NoError(t, err)
	assert.Equal(t, "https://b.example.com", s.BaseURL)
}

// Flag errors name the flag as the help writes it, with two dashes.
func TestUsageFlagErrorsWriteTwoDashes(t *testing.T) {
	for args, want := range map[string]string{
		"--refresh":         "flag needs an argument: --refresh",
		"--nope":            "flag provided but not defined: --nope",
		"--read-only=maybe": `invalid boolean value "maybe" for --read-only`,
	} {
		_, err := Load([]string{args}, newTestSystem(t).sys())
		require.Error(t, err)
		assert.Contains(t, err.Error(), want)
	}
}

// theme and [colors]: a theme of the four, and colours of the five roles
// that can be read; anything else is refused, saying what would do.
func TestThemeAndColors(t *testing.T) {
	ts := newTestSystem(t)
	ts.writeConfig(t, "merchants = [\"1001\"]\n", 0o600)
	s, err := Load(nil, ts.sys())
	require.NoError(t, err)
	assert.Equal(t, "auto", s.Theme, "auto when none is chosen")
	assert.Empty(t, s.Colors)

	ts.writeConfig(t, "merchants = [\"1001\"]\ntheme = \"none\"\n[colors]\naccent = \"bright-blue\"\n", 0o600)
	s, err = Load(nil, ts.sys())
	require.NoError(t, err)
	assert.Equal(t, "none", s.Theme)
	assert.Equal(t, map[string]string{"accent": "bright-blue"}, s.Colors)

	for text, want := range map[string]string{
		"theme = \"pink\"\n":            `theme must be one of "auto", "dark", "light" or "none", not "pink"`,
		"theme = 1\n":                   `theme must be one of "auto", "dark", "light" or "none", not a number`,
		"[colors]\nlink = \"red\"\n":    `"link" is not a role (the roles are accent, good, warning, bad, muted)`,
		"[colors]\nbad = \"crimson\"\n": `bad: "crimson" is not a colour`,
		"[colors]\nbad = \"256\"\n":     `bad: "256": a colour number is 0 to 255`,
		"[colors]\nbad = \"#12345\"\n":  `bad: "#12345": a colour in hex is #rrggbb`,
		"[colors]\nbad = 1\n":           `bad must be a colour in quotes, not a number`,
	} {
		ts.writeConfig(t, "merchants = [\"1001\"]\n"+text, 0o600)
		_, err := Load(nil, ts.sys())
		require.Error(t, err, text)
		assert.Contains(t, err.Error(), want, text)
	}
}

// parallel_reads: how many requests a period read whole has out at once;
// 4 when not given; a bad value names its line and the range.
func TestParallelReads(t *testing.T) {
	ts := newTestSystem(t)
	ts.writeConfig(t, "merchants = [\"1001\"]\n", 0o600)
	s, err := Load(nil, ts.sys())
	require.NoError(t, err)
	assert.Equal(t, 4, s.ParallelReads, "the default")

	ts.writeConfig(t, "merchants = [\"1001\"]\nparallel_reads = 8\n", 0o600)
	s, err = Load(nil, ts.sys())
	require.NoError(t, err)
	assert.Equal(t, 8, s.ParallelReads)

	ts.writeConfig(t, "merchants = [\"1001\"]\nparallel_reads = 1\n", 0o600)
	s, err = Load(nil, ts.sys())
	require.NoError(t, err)
	assert.Equal(t, 1, s.ParallelReads, "1: page after page")

	for text, want := range map[string]string{
		"parallel_reads = 0\n":     `line 2: parallel_reads must be a whole number from 1 (one request at a time) to 16 (requests at once), not 0`,
		"parallel_reads = 17\n":    `line 2: parallel_reads must be a whole number from 1 (one request at a time) to 16 (requests at once), not 17`,
		"parallel_reads = \"4\"\n": `line 2: parallel_reads must be a whole number from 1 (one request at a time) to 16 (requests at once), not a string`,
		"parallel_reads = 2.5\n":   `line 2: parallel_reads must be a whole number`,
	} {
		ts.writeConfig(t, "merchants = [\"1001\"]\n"+text, 0o600)
		_, err := Load(nil, ts.sys())
		require.Error(t, err, text)
		assert.Contains(t, err.Error(), want, text)
	}
}
