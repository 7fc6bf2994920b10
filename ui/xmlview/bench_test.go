package xmlview

import (
	"encoding/xml"
	"strings"
	"sync"
	"testing"

	"charm.land/lipgloss/v2"
)

const benchOperations = 50_000

// benchRegister is made on first use, so that tests do not pay for it.
var benchRegister = sync.OnceValue(func() []byte { return register(benchOperations) })

func BenchmarkParse50k(b *testing.B) {
	raw := benchRegister()
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		if d := Parse(raw); d.Err() != nil {
			b.Fatal(d.Err())
		}
	}
}

// The baseline: encoding/xml decoding the same register into structs.
type (
	benchResponse struct {
		XMLName   xml.Name `xml:"Response"`
		ErrorCode string
		Register  benchRegisterBody
	}
	benchRegisterBody struct {
		PeriodFrom, PeriodTo, RegisterID, RegisterNumber string
		Operations                                       []benchOperation `xml:"Operations>Operation"`
	}
	benchOperation struct {
		OperationID, SiteAlias, InvoiceID, Stamp, CurrencyCode, OperationAmount, TransferAmount string
	}
)

func BenchmarkBaselineEncodingXML50k(b *testing.B) {
	raw := benchRegister()
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		var r benchResponse
		if err := xml.Unmarshal(raw, &r); err != nil {
			b.Fatal(err)
		}
		if len(r.Register.Operations) != benchOperations {
			b.Fatalf("%d operations", len(r.Register.Operations))
		}
	}
}

const (
	screenLines = 50
	screenWidth = 120
)

func benchStyles() Styles {
	c := func(hex string) lipgloss.Style { return lipgloss.NewStyle().Foreground(lipgloss.Color(hex)) }
	return Styles{
		Tag: c("#8080FF"), Name: c("#5FAFFF").Bold(true), AttrName: c("#AFAF5F"), AttrValue: c("#87D787"),
		Text: lipgloss.NewStyle(), Comment: c("#808080").Italic(true), Punct: c("#8080FF"), Entity: c("#FF8700"),
		Error: c("#FF0000"), Match: lipgloss.NewStyle().Reverse(true), Current: lipgloss.NewStyle().Reverse(true).Bold(true),
	}
}

// BenchmarkRenderScreen draws a first frame: 50 lines, empty cache.
func BenchmarkRenderScreen(b *testing.B) {
	d := Parse(benchRegister())
	st := benchStyles()
	m := d.Search("operation")
	top := d.Len() / 2
	b.ReportAllocs()
	for b.Loop() {
		d.ResetCache()
		_ = d.Lines(top, top+screenLines, screenWidth, st, m, m.First(top))
	}
}

// hugeLineDoc is a document whose line 1 is 1 MiB long, as an answer
// without line breaks has.
func hugeLineDoc() *Doc {
	return Parse([]byte("<r><a>" + strings.Repeat("x", 1<<20) + "</a></r>"))
}

// BenchmarkRenderHugeLine draws that line, empty cache, cut to the screen's
// width, with the current match near its end: the cost must follow the
// width drawn, not the line's length: of the order of one of
// BenchmarkRenderScreen's 50 lines, not of lexing and styling 1 MiB.
// TestRenderOfAHugeLine checks what is drawn.
func BenchmarkRenderHugeLine(b *testing.B) {
	d := hugeLineDoc()
	if d.Err() != nil {
		b.Fatal(d.Err())
	}
	st := benchStyles()
	m := d.Search("xxx")
	b.ReportAllocs()
	for b.Loop() {
		d.ResetCache()
		_ = d.Render(1, screenWidth, st, m, m.Len()-1)
	}
}

// BenchmarkScrollOneLine draws 50 lines shifted by one from the last frame.
func BenchmarkScrollOneLine(b *testing.B) {
	d := Parse(benchRegister())
	st := benchStyles()
	m := d.Search("operation")
	cur := m.First(0)
	top := 1000
	_ = d.Lines(top, top+screenLines, screenWidth, st, m, cur)
	b.ReportAllocs()
	for b.Loop() {
		top++
		if top+screenLines > d.Len() {
			top = 1000
		}
		_ = d.Lines(top, top+screenLines, screenWidth, st, m, cur)
	}
}

func BenchmarkSearch50k(b *testing.B) {
	d := Parse(benchRegister())
	for _, tc := range []struct{ name, query string }{
		{"rare", "R-1001-2026"},
		{"common", "operation"},
		{"cyrillic", "операция"},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = d.Search(tc.query)
			}
		})
	}
}

// BenchmarkLexLine is chroma's share of drawing a line: lexing one typical
// register line, for comparison with BenchmarkRenderScreen / 50.
func BenchmarkLexLine(b *testing.B) {
	d := Parse([]byte(smallRegister))
	l := d.lines[10] // <OperationID>43149010</OperationID>
	content := d.raw[l.start:l.end]
	b.ReportAllocs()
	for b.Loop() {
		_ = tokenise(l, content)
	}
}
