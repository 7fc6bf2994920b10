package config

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Merchants in the config file are ids, as before, or tables of id and
// name (merchants.go).

func TestMerchantsOldListOfIDs(t *testing.T) {
	ts := newTestSystem(t)
	ts.writeConfig(t, "base_url = \"https://pay.example.com\"\nmerchants = [\"1001\", 1002, \" 1003 \"]\n", 0o600)
	s, err := Load(nil, ts.sys())
	require.NoError(t, err)
	assert.Equal(t, []string{"1001", "1002", "1003"}, s.Merchants)
	assert.Nil(t, s.MerchantNames)
	assert.Empty(t, s.Warnings)
}

func TestMerchantsWithNames(t *testing.T) {
	for _, tc := range []struct {
		name, text string
	}{
		{"inline tables", `merchants = [{ id = "1001", name = "Daily Grind" }, { id = 1002, name = "Page Turner Books" }, { id = "1003" }]`},
		{"mixed, over lines, with comments", `merchants = [
  "1001",   # an id alone: no name
  { id = "1002", name = "Page Turner Books" },
  1003,
]`},
		{"array of tables", `
[[merchants]]
id = "1001"

[[merchants]]
id = "1002"
name = "Page Turner Books"

[[merchants]]
id = 1003
`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts := newTestSystem(t)
			ts.writeConfig(t, "base_url = \"https://pay.example.com\"\n"+tc.text+"\n", 0o600)
			s, err := Load(nil, ts.sys())
			require.NoError(t, err)
			assert.Equal(t, []string{"1001", "1002", "1003"}, s.Merchants)
			assert.Equal(t, "Page Turner Books", s.MerchantNames["1002"])
			assert.Empty(t, s.MerchantNames["1003"])
			assert.Empty(t, s.Warnings)
		})
	}

}

// Problems that stop paydash: all at once, in one line, each with its line
// and item.
func TestMerchantsErrors(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       []string
	}{
		{"a name without an id", "merchants = [\n  \"1001\",\n  { name = \"Page Turner Books\" },\n]\n",
			[]string{`line 3: merchants item 2 has a name but no id; write it { id = "1002", name = "Page Turner Books" }`}},
		{"an empty table", "merchants = [{}]\n", []string{"line 1: merchants item 1 has no id"}},
		{"an empty id", "merchants = [\"1001\", \"\"]\n", []string{"line 1: merchants item 2 has an empty id; give the merchant's id"}},
		{"an empty id in a table", "merchants = [{ id = \" \", name = \"X\" }]\n", []string{"merchants item 1 has an empty id"}},
		{"spaces in an id", "merchants = [\"10 01\"]\n", []string{`merchants item 1 id "10 01": a merchant id cannot hold spaces`}},
		{"an unknown key", "merchants = [{ id = \"1001\", nmae = \"Daily Grind\" }]\n",
			[]string{`merchants item 1 has the unknown key "nmae"; a merchant is written { id = "1002", name = "Page Turner Books" }`}},
		{"a name that is a number", "merchants = [{ id = \"1001\", name = 7 }]\n",
			[]string{"merchants item 1 name must be a string in quotes, not a number"}},
		{"an id that is a list", "merchants = [{ id = [\"1001\"] }]\n",
			[]string{"merchants item 1 id must be a merchant id (a string or a whole number), not a list"}},
		{"an item of the wrong kind", "merchants = [\"1\", true]\n",
			[]string{"line 1: merchants item 2 must be a merchant id (a string or a whole number) or a table { id = "}},
		{"a table of names", "base_url = \"https://pay.example.com\"\n\n[merchants]\n1001 = \"Daily Grind\"\n",
			[]string{`line 3: merchants must be a list of merchant ids or tables of id and name, like ["1001", { id = "1002", name = "Page Turner Books" }], not a table`}},
		{"a string", "merchants = \"1001\"\n", []string{"line 1: merchants must be a list", "not a string"}},
		{"array of tables without an id", "[[merchants]]\nid = \"1001\"\n\n[[merchants]]\nname = \"Page Turner Books\"\n",
			[]string{"line 4: merchants item 2 has a name but no id"}},
		{"several at once, with the other keys'", "refresh = 10\nmerchants = [\n  { name = \"A\" },\n  \"\",\n]\n",
			[]string{"line 3: merchants item 1 has a name but no id", "; line 4: merchants item 2 has an empty id", "refresh must be a string"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts := newTestSystem(t)
			path := ts.writeConfig(t, tc.text, 0o600)
			msg := ts.refusal(t)
			assert.True(t, strings.HasPrefix(msg, path+": "), msg)
			assert.NotContains(t, msg, "\n", "one line: %q", msg)
			for _, w := range tc.want {
				assert.Contains(t, msg, w)
			}
		})
	}
}

// Problems paydash gets past: warnings naming the line, for stderr and for
// the dashboard (the root package's TestMerchantWarningsReachTheDashboard);
// the merchants are used.
func TestMerchantsWarnings(t *testing.T) {
	ts := newTestSystem(t)
	path := ts.writeConfig(t, `base_url = "https://pay.example.com"
journal = "j.jsonl"
merchants = [
  { id = "1001", name = "Daily Grind" },
  { id = "1002", name = "Evil\u001b]0;pwned\u0007 Books\u001b[2J\r\nOnline\u202e" },
  { id = "1001", name = "Another Name" },
  1002,
  { id = "1003", name = "\u001b[31m" },
  { id = "1004", name = "  " },
]
`, 0o600)
	s, err := Load(nil, ts.sys())
	require.NoError(t, err)
	assert.Equal(t, []string{"1001", "1002", "1003", "1004"}, s.Merchants, "a repeated id is left out; the first stays")
	assert.Equal(t, map[string]string{"1001": "Daily Grind", "1002": "Evil Books Online"}, s.MerchantNames,
		"names are cleaned: escape sequences and control characters out")
	want := []string{
		"warning: " + path + `: line 5: merchants item 2 (1002): the name holds control characters or escape sequences; it is shown as "Evil Books Online"`,
		"warning: " + path + ": line 6: merchants item 3 repeats merchant 1001 (item 1); it is left out",
		"warning: " + path + ": line 7: merchants item 4 repeats merchant 1002 (item 2); it is left out",
		"warning: " + path + ": line 8: merchants item 5 (1003): the name has nothing printable in it; the merchant is shown by its id",
	}
	assert.Equal(t, want, s.Warnings)
	assert.Equal(t, want, s.ShownWarnings)

	for _, w := range s.Warnings {
		assert.NotContains(t, w, "\x1b")
	}
}

func TestMerchantNotListedNamesTheMerchants(t *testing.T) {
	ts := newTestSystem(t)
	ts.writeConfig(t, "merchants = [\"1001\", { id = \"1002\", name = \"Page Turner Books\" }]\n", 0o600)
	_, err := Load([]string{"--base-url", "https://pay.example.com", "--merchant", "9"}, ts.sys())
	require.Error(t, err)
	assert.Contains(t, err.Error(), "--merchant 9 is not one of the merchants (1001, 1002 Page Turner Books)")
}

func TestMerchantLines(t *testing.T) {
	text := `# merchants = ["not", "this"]
base_url = "https://x" # merchants = [
"merchants" = [ "1001", # a comment, with [brackets] and "quotes"
  { id = "1002", name = "A \"quoted\", [bracketed] name" }, 'lit,eral',
  """multi
line""", 1005,

  [ "nested", "array" ],
]
merchant = "1001"

[keys]
merchants = ["x"]
`
	key, items := merchantLines([]byte(text))
	assert.Equal(t, 3, key)
	assert.Equal(t, []int{3, 4, 4, 5, 6, 8}, items)

	key, items = merchantLines([]byte("[keys]\nmerchants = [1]\n"))
	assert.Zero(t, key, "a key of another table")
	assert.Nil(t, items)

	key, items = merchantLines([]byte("merchants=[1,\n2]"))
	assert.Equal(t, 1, key)
	assert.Equal(t, []int{1, 2}, items)

	key, items = merchantLines([]byte("a = 1\n[[ merchants ]]\nid = 1\n[[merchants]]\nid = 2\n"))
	assert.Equal(t, 2, key)
	assert.Equal(t, []int{2, 4}, items)

	// The parser records no bytes of an empty list: its line is not known
	// (parseMerchants names the key's line instead).
	key, items = merchantLines([]byte("merchants = [\n  \"1\",\n  [],\n]\n"))
	assert.Equal(t, 1, key)
	assert.Equal(t, []int{2, 0}, items)
}

// The --help's config example shows the new form, within 80 columns (the
// width is checked for every line by TestHelpListsEverything).
func TestUsageShowsMerchantNames(t *testing.T) {
	ts := newTestSystem(t)
	var b bytes.Buffer
	Usage(&b, ts.sys())
	stdout := b.String()
	assert.Contains(t, stdout, `merchants   = ["1001", { id = "1002", name = "Page Turner Books" }]`)

	// And the example reads back as documented.
	var example []string
	in := false
	for _, l := range strings.Split(stdout, "\n") {
		switch {
		case strings.HasPrefix(l, "Config file"):
			in = true
			continue
		case in && strings.HasPrefix(l, "  [keys]"):
			in = false
		}
		if in && strings.HasPrefix(l, "  merchant") {
			code, _, _ := strings.Cut(l, "#")
			example = append(example, strings.TrimSpace(code))
		}
	}
	require.Len(t, example, 2)
	fc, err := decodeConfig("example.toml", []byte(strings.Join(example, "\n")+"\n"))
	require.NoError(t, err)
	assert.Equal(t, []configMerchant{{ID: "1001"}, {ID: "1002", Name: "Page Turner Books"}}, fc.Merchants)
}
