package xmlview

import (
	"strings"
	"sync"
	"testing"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRenderWithPlainStylesIsPlain(t *testing.T) {
	d := Parse([]byte(smallRegister))
	for i := range d.Len() {
		assert.Equal(t, d.Plain(i), d.Render(i, 200, Styles{}, nil, -1))
	}
	assert.Empty(t, d.Render(-1, 80, Styles{}, nil, -1))
	assert.Empty(t, d.Render(d.Len(), 80, Styles{}, nil, -1))
	assert.Empty(t, d.Render(0, 0, Styles{}, nil, -1))
}

func TestRenderCutsToWidth(t *testing.T) {
	d := Parse([]byte(smallRegister))
	line := 7 // "    <RegisterNumber>R-1001-20261101</RegisterNumber>"
	assert.Equal(t, "    <RegisterNumber…", d.Render(line, 20, Styles{}, nil, -1))
	assert.Equal(t, "…", d.Render(line, 1, Styles{}, nil, -1))
	assert.Equal(t, "  …", d.Render(line, 3, Styles{}, nil, -1), "indentation alone does not fit")
	assert.Equal(t, d.Plain(line), d.Render(line, len(d.Plain(line)), Styles{}, nil, -1), "an exact fit is not cut")

	styled := benchStyles()
	m := d.Search("r")
	wide := Parse([]byte("<a>日本語のテキスト😀 e\u0301 ok</a>"))
	for width := 1; width < 60; width++ {
		for i := range d.Len() {
			assert.LessOrEqual(t, ansi.StringWidth(d.Render(i, width, styled, m, 3)), width)
		}
		out := wide.Render(0, width, styled, nil, -1)
		assert.LessOrEqual(t, ansi.StringWidth(out), width, "%q", out)
	}
}

func TestRenderHighlightsTheCurrentMatch(t *testing.T) {
	d := Parse([]byte("<a>foo bar foo</a>"))
	m := d.Search("FOO")
	require.Equal(t, 2, m.Len())
	match := lipgloss.NewStyle().Underline(true)
	current := lipgloss.NewStyle().Reverse(true)
	st := Styles{Match: match, Current: current}

	out := d.Render(0, 80, st, m, 1)
	assert.Equal(t, "<a>"+match.Render("foo")+" bar "+current.Render("foo")+"</a>", out)
	assert.Contains(t, out, "\x1b[7mfoo\x1b[m")

	out = d.Render(0, 80, st, m, 0)
	assert.Equal(t, "<a>"+current.Render("foo")+" bar "+match.Render("foo")+"</a>", out)

	out = d.Render(0, 80, st, m, -1)
	assert.Equal(t, 2, strings.Count(out, match.Render("foo")))
	assert.Equal(t, "<a>foo bar foo</a>", d.Render(0, 80, st, nil, -1))
}

func TestRenderHighlightsSyntax(t *testing.T) {
	d := Parse([]byte("<r>\n<Op id=\"7\" kind='x'>1 &amp; 2</Op><!-- note --><![CDATA[raw]]>\n<a\n  b=\"2\"/>\n</r>"))
	require.Nil(t, d.Err())
	s := func(n int) lipgloss.Style { return lipgloss.NewStyle().Foreground(lipgloss.ANSIColor(n)) }
	st := Styles{Tag: s(1), Name: s(2), AttrName: s(3), AttrValue: s(4), Text: s(5), Comment: s(6), Punct: s(9), Entity: s(10)}

	assert.Equal(t, "  "+st.Tag.Render("<")+st.Name.Render("Op")+st.Text.Render(" ")+
		st.AttrName.Render("id")+st.Punct.Render("=")+st.AttrValue.Render(`"7"`)+st.Text.Render(" ")+
		st.AttrName.Render("kind")+st.Punct.Render("=")+st.AttrValue.Render(`'x'`)+st.Tag.Render(">")+
		st.Text.Render("1 ")+st.Entity.Render("&amp;")+st.Text.Render(" 2")+
		st.Tag.Render("</")+st.Name.Render("Op")+st.Tag.Render(">"),
		d.Render(1, 200, st, nil, -1))
	assert.Equal(t, "  "+st.Comment.Render("<!-- note -->"), d.Render(2, 200, st, nil, -1))
	assert.Equal(t, "  "+st.Punct.Render("<![CDATA[")+st.Text.Render("raw")+st.Punct.Render("]]>"), d.Render(3, 200, st, nil, -1))
	// The second line of a start tag is read as attributes.
	assert.Equal(t, "    "+st.AttrName.Render("b")+st.Punct.Render("=")+st.AttrValue.Render(`"2"`)+st.Tag.Render("/>"),
		d.Render(5, 200, st, nil, -1))
}

// A line of 1 MiB is drawn cut to the width, its last match current. How
// fast is BenchmarkRenderHugeLine's to say: a wall-clock bound here would
// fail on a loaded machine, whatever the code.
func TestRenderOfAHugeLine(t *testing.T) {
	d := hugeLineDoc()
	require.Nil(t, d.Err())
	m := d.Search("xxx")
	out := d.Render(1, 120, benchStyles(), m, m.Len()-1)
	assert.Equal(t, 120, ansi.StringWidth(out))
	assert.True(t, strings.HasSuffix(out, "…"))
}

func TestRenderCache(t *testing.T) {
	d := Parse(register(100))
	st := benchStyles()
	first := d.Render(10, 80, st, nil, -1)
	assert.Equal(t, first, d.Render(10, 80, st, nil, -1))

	// New styles are noticed without being told.
	other := st
	other.Name = lipgloss.NewStyle().Foreground(lipgloss.Color("#123456"))
	assert.NotEqual(t, first, d.Render(10, 80, other, nil, -1))
	assert.Equal(t, first, d.Render(10, 80, st, nil, -1))

	// Matches change a line only where they are.
	m := d.Search("SiteAlias")
	assert.Equal(t, first, d.Render(10, 80, st, m, 0), "no match on line 10")
	assert.NotEqual(t, d.Render(11, 80, st, nil, -1), d.Render(11, 80, st, m, 0))
	assert.NotEqual(t, d.Render(11, 80, st, m, 1), d.Render(11, 80, st, m, 0), "current or not")

	// Bounded, however much is drawn.
	for i := range d.Len() {
		for _, width := range []int{40, 80, 120} {
			d.Render(i, width, st, m, 0)
		}
	}
	assert.LessOrEqual(t, len(d.cache.recent)+len(d.cache.older), renderCacheSize)

	// Matches from another document are ignored.
	foreign := Parse([]byte(smallRegister)).Search("SiteAlias")
	assert.Equal(t, d.Render(11, 80, st, nil, -1), d.Render(11, 80, st, foreign, 0))
}

func TestRenderIsNeverWiderWithCombiningPieces(t *testing.T) {
	// A variation selector after a search match widens the matched character.
	d := Parse([]byte("<a>x☺\uFE0F☺\uFE0F☺\uFE0Fy</a>"))
	m := d.Search("☺")
	for width := 1; width < 20; width++ {
		out := d.Render(0, width, Styles{Match: lipgloss.NewStyle().Reverse(true)}, m, 0)
		assert.LessOrEqual(t, ansi.StringWidth(out), width, "%q", out)
	}
}

func TestDocsRenderInParallel(t *testing.T) {
	// The lexer is shared; each Doc's cache is its own. Search may run
	// beside Render on the same Doc. Every line drawn in parallel is the
	// line drawn alone, and every search finds what it finds alone (with
	// -race the detector also watches the sharing).
	raw := register(50)
	alone := Parse(raw)
	want := make([]string, alone.Len())
	for i := range want {
		want[i] = alone.Render(i, 80, benchStyles(), nil, -1)
	}
	wantHits := alone.Search("operation").Len()
	require.Positive(t, wantHits)

	const docs = 4
	got := make([][]string, docs)
	hits := make([]int, docs)
	var wg sync.WaitGroup
	for k := range docs {
		d := Parse(raw)
		wg.Go(func() {
			for i := range d.Len() {
				got[k] = append(got[k], d.Render(i, 80, benchStyles(), nil, -1))
			}
		})
		wg.Go(func() { hits[k] = d.Search("operation").Len() })
	}
	wg.Wait()
	for k := range docs {
		assert.Equal(t, want, got[k], "doc %d", k)
		assert.Equal(t, wantHits, hits[k], "doc %d", k)
	}
}

func TestRenderDrawsStylesInline(t *testing.T) {
	d := Parse([]byte("<a>text</a>"))
	boxy := lipgloss.NewStyle().Width(30).Padding(1, 2).Margin(1).Border(lipgloss.RoundedBorder()).SetString("•").Bold(true)
	out := d.Render(0, 80, Styles{Tag: boxy, Name: boxy, Text: boxy}, nil, -1)
	assert.Equal(t, "<a>text</a>", sgr.ReplaceAllString(out, ""))
	assert.Contains(t, out, lipgloss.NewStyle().Bold(true).Render("text"))
}
