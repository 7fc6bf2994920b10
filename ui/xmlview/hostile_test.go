package xmlview

import (
	"regexp"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"charm.land/lipgloss/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hostile holds text meant to take over a terminal: colour, a window
// title, an 8-bit CSI (raw and as a rune), line and paragraph separators, a
// bidi override, NUL, invalid UTF-8 and "]]>".
const hostile = "red\x1b[31mALERT\x1b[0m title\x1b]0;pwned\x07 raw\x9b31m rune\u009b2J " +
	"ls\u2028ps\u2029 bidi\u202eevil\u202c nul\x00 bad\xff\xfe cdata]]> clear\x1b[2J\x1b[H"

var hostileDoc = []byte("<r a=\"" + hostile + "\">\n" +
	"  <t>" + hostile + "</t>\n" +
	"  <!-- " + hostile + " -->\n" +
	"  <?pi " + hostile + "?>\n" +
	"  <n\u202e x='" + hostile + "'/>\n" +
	"  <m>" + hostile + "<![CDATA[" + hostile + "]]>" + hostile + "</m>\n" +
	"</r>")

// assertNeutral fails when s holds anything a terminal would act on:
// ESC, other controls (C0 and C1), line or paragraph separators, format
// characters such as bidi overrides, or invalid UTF-8.
func assertNeutral(t *testing.T, s, what string) {
	t.Helper()
	require.True(t, utf8.ValidString(s), "%s: invalid UTF-8 in %q", what, s)
	for _, r := range s {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029' {
			assert.Failf(t, "unsafe character", "%s: %U in %q", what, r, s)
			return
		}
	}
}

// sgr matches the Select Graphic Rendition sequences lipgloss emits.
var sgr = regexp.MustCompile(`\x1b\[[0-9;:]*m`)

func TestHostileTextNeverReachesTheOutput(t *testing.T) {
	d := Parse(hostileDoc)
	require.Nil(t, d.Err())
	require.Equal(t, 11, d.Len())
	styled := benchStyles()
	for _, q := range []string{"", "31", "[", "\x1b", "]0;", "m a", "]]>", "bidi"} {
		m := d.Search(q)
		for i := range d.Len() {
			assertNeutral(t, d.Plain(i), "Plain")
			for _, width := range []int{5, 40, 400} {
				// Zero-value styles: any ESC at all is a failure.
				assertNeutral(t, d.Render(i, width, Styles{}, m, m.First(i)), "Render")
				// Real styles: only lipgloss's own SGR may remain.
				out := d.Render(i, width, styled, m, m.First(i))
				assertNeutral(t, sgr.ReplaceAllString(out, ""), "styled Render")
			}
		}
	}
}

func TestMatchesCannotReassembleAnEscape(t *testing.T) {
	// A match cutting "ESC [ 3 1 m" apart leaves pieces that are each cleaned.
	d := Parse([]byte("<t>a\x1b[31mb</t>"))
	m := d.Search("[31")
	require.Equal(t, 1, m.Len())
	out := d.Render(0, 80, Styles{}, m, 0)
	assert.NotContains(t, out, "\x1b")
	assert.Contains(t, out, "[31")
}

func TestHostileNamesInMessagesAreNeutralised(t *testing.T) {
	for _, in := range []string{
		"<a\u202e></b\u2028>",
		"<a\x1b[31m>",
		"<a></a\xff>",
		"<a>\u009b</a>x",
	} {
		d := Parse([]byte(in))
		require.NotNil(t, d.Err(), "%q", in)
		assertNeutral(t, d.Err().Error(), "message")
	}
}

func TestEntityReferencesAreShownAsWritten(t *testing.T) {
	d := Parse([]byte(`<a t="&#27;[31m">&amp;&#x1b;[2J&#27;&lol9;</a>`))
	require.Nil(t, d.Err())
	assert.Equal(t, `<a t="&#27;[31m">&amp;&#x1b;[2J&#27;&lol9;</a>`, d.Plain(0))
	assert.Equal(t, d.Plain(0), d.Render(0, 200, Styles{}, nil, -1))
	entity := lipgloss.NewStyle().Underline(true)
	out := d.Render(0, 200, Styles{Entity: entity}, nil, -1)
	assert.Contains(t, out, entity.Render("&lol9;"))
	assert.NotContains(t, sgr.ReplaceAllString(out, ""), "\x1b")
}

func TestInvalidUTF8KeepsHighlightingInStep(t *testing.T) {
	// chroma reads runes; an invalid byte must not shift the tokens after it.
	d := Parse([]byte("<a x=\"\xff\xfe\">\xff1</a>"))
	require.Nil(t, d.Err())
	assert.Equal(t, "<a x=\"\uFFFD\uFFFD\">\uFFFD1</a>", d.Render(0, 80, Styles{}, nil, -1))
	name := lipgloss.NewStyle().Bold(true)
	out := d.Render(0, 80, Styles{Name: name}, nil, -1)
	assert.Equal(t, 2, strings.Count(out, name.Render("a")), out)
}
