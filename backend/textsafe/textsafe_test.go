package textsafe

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCleanNeutralisesTerminalControl(t *testing.T) {
	cases := map[string]string{
		"Flat white":                            "Flat white",
		"red \x1b[31mALERT\x1b[0m done":         "red ALERT done",
		"title \x1b]0;pwned\x07 after":          "title  after",
		"osc-st \x1b]8;;http://x\x1b\\link":     "osc-st link",
		"tab\there\nline":                       "tab here line",
		"bidi \u202eevil\u202c":                 "bidi evil",
		"c1 \u009b31m csi":                      "c1  csi",
		"bad \xff utf8":                         "bad \uFFFD utf8",
		"unterminated \x1b[31":                  "unterminated ",
		"Кофе ☕ 350 ₽":                          "Кофе ☕ 350 ₽",
		"cursor \x1b[2J\x1b[H home":             "cursor  home",
		"dcs \x1bPq#0;2;0;0;0\x1b\\ sixel gone": "dcs  sixel gone",
		"line\u2028para\u2029end":               "line para end",
	}
	for in, want := range cases {
		got := Clean(in)
		assert.Equal(t, want, got, "%q", in)
		for _, r := range got {
			assert.False(t, r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0), "control %U left in %q", r, got)
		}
	}
}

func TestCleanDoesNotCopyPlainText(t *testing.T) {
	s := "ORD-5561 Flat white"
	allocs := testing.AllocsPerRun(100, func() { _ = Clean(s) })
	assert.Zero(t, allocs)
}

func TestLineExcerptRedact(t *testing.T) {
	assert.Equal(t, "a b c", Line("  a \n\t b   c ", 0))
	assert.Equal(t, "abc…", Line("abcdef", 3))
	assert.Equal(t, "Bad gateway nginx", Excerpt([]byte("<html><h1>Bad gateway</h1><p>nginx</p></html>"), "text/html", 100))
	assert.Equal(t, "unknown token [redacted]", Redact("unknown token s3cret", "s3cret", ""))
}

func FuzzClean(f *testing.F) {
	for _, s := range []string{"plain", "\x1b[31mred", "\x1b]0;t\x07", "\u202e", "\xff\xfe", "\x9b1m"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, r := range Clean(s) {
			if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
				t.Fatalf("control %U left in Clean(%q)", r, s)
			}
		}
	})
}
