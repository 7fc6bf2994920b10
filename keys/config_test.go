package keys

import (
	"errors"
	"testing"

	"github.com/BurntSushi/toml"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseConfigGood(t *testing.T) {
	src := `# paydash config
base_url = "https://pay.example"

[ui]
theme = "dark"
keys = "not this one"

[keys]
refund  = ["ctrl+r"]
refresh = ["R", "f5"]
"quit"  = "ctrl+q"   # one key without brackets

[journal]
path = "/tmp/j"
`
	got, err := ParseConfig([]byte(src))
	require.NoError(t, err)
	assert.Equal(t, map[string][]string{
		"refund":  {"ctrl+r"},
		"refresh": {"R", "f5"},
		"quit":    {"ctrl+q"},
	}, got)

	m := Default()
	require.NoError(t, m.Apply(got))
	assert.Equal(t, []string{"ctrl+q"}, m.Global.Quit.Keys())
}

func TestParseConfigNoKeysTable(t *testing.T) {
	got, err := ParseConfig([]byte("[ui]\ntheme = \"light\"\n"))
	require.NoError(t, err)
	assert.Empty(t, got)

	got, err = ParseConfig(nil)
	require.NoError(t, err)
	assert.Empty(t, got)
}

func TestParseConfigDottedAndEmpty(t *testing.T) {
	got, err := ParseConfig([]byte("keys.refund = [\"ctrl+r\"]\nkeys.export = []\n"))
	require.NoError(t, err)
	assert.Equal(t, map[string][]string{"refund": {"ctrl+r"}, "export": {}}, got)

	m := Default()
	err = m.Apply(got)
	require.Error(t, err, "an empty list reaches Apply, which reports it")
	assert.Contains(t, err.Error(), "export: no keys given")
}

func TestParseConfigSyntaxErrorHasLine(t *testing.T) {
	src := "[keys]\nrefund = [\"ctrl+r\"]\nrefresh = [R]\n"
	_, err := ParseConfig([]byte(src))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "line 3")
	assert.NotContains(t, err.Error(), "toml: line", "the message says it once")
	var pe toml.ParseError
	assert.True(t, errors.As(err, &pe), "the TOML error is kept")
	assert.Equal(t, 3, pe.Position.Line)
}

func TestParseConfigTypeErrorsHaveLines(t *testing.T) {
	src := `[ui]
theme = "dark"

[keys]
refund = ["ctrl+r", 5]
copy_id = 3
quit = ["q"]

[keys.sub]
a = 1
`
	_, err := ParseConfig([]byte(src))
	require.Error(t, err)
	var ce *ConfigError
	require.True(t, errors.As(err, &ce))
	assert.Equal(t, []string{
		`line 5: keys.refund: item 2 is a number; write keys in quotes, like ["ctrl+r"]`,
		`line 6: keys.copy_id is a number; write a list of keys, like ["ctrl+r"]`,
		`line 9: keys.sub is a table; write a list of keys, like ["ctrl+r"]`,
	}, ce.Problems)
}

func TestParseConfigKeysNotATable(t *testing.T) {
	_, err := ParseConfig([]byte("title = \"x\"\nkeys = 4\n"))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "line 2: keys must be a table")
}
