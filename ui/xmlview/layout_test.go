package xmlview

import (
	"strings"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// plainLines is every laid-out line of d, without styles.
func plainLines(d *Doc) []string {
	lines := make([]string, d.Len())
	for i := range lines {
		lines[i] = d.Plain(i)
	}
	return lines
}

const smallRegister = `<?xml version="1.0" encoding="UTF-8"?>` + "\n" +
	`<Response><ErrorCode>0</ErrorCode><Register><PeriodFrom>2026-11-01T00:00:00</PeriodFrom>` +
	`<PeriodTo>2026-11-01T23:59:59</PeriodTo><RegisterID>123</RegisterID><RegisterNumber>R-1001-20261101</RegisterNumber>` +
	`<Operations><Operation><OperationID>43149010</OperationID><SiteAlias>1001</SiteAlias><InvoiceID>5561</InvoiceID>` +
	`<Stamp>2026-11-01T10:00:05</Stamp><CurrencyCode>RUB</CurrencyCode><OperationAmount>1250.50</OperationAmount>` +
	`<TransferAmount>1225.49</TransferAmount></Operation><Operation><OperationID>43149011</OperationID>` +
	`<SiteAlias>1001</SiteAlias><InvoiceID>5562</InvoiceID><Stamp>2026-11-01T10:03:17</Stamp>` +
	`<CurrencyCode>RUB</CurrencyCode><OperationAmount>300.00</OperationAmount><TransferAmount>294.00</TransferAmount>` +
	`</Operation></Operations></Register></Response>`

var smallRegisterLines = []string{
	`<?xml version="1.0" encoding="UTF-8"?>`,
	`<Response>`,
	`  <ErrorCode>0</ErrorCode>`,
	`  <Register>`,
	`    <PeriodFrom>2026-11-01T00:00:00</PeriodFrom>`,
	`    <PeriodTo>2026-11-01T23:59:59</PeriodTo>`,
	`    <RegisterID>123</RegisterID>`,
	`    <RegisterNumber>R-1001-20261101</RegisterNumber>`,
	`    <Operations>`,
	`      <Operation>`,
	`        <OperationID>43149010</OperationID>`,
	`        <SiteAlias>1001</SiteAlias>`,
	`        <InvoiceID>5561</InvoiceID>`,
	`        <Stamp>2026-11-01T10:00:05</Stamp>`,
	`        <CurrencyCode>RUB</CurrencyCode>`,
	`        <OperationAmount>1250.50</OperationAmount>`,
	`        <TransferAmount>1225.49</TransferAmount>`,
	`      </Operation>`,
	`      <Operation>`,
	`        <OperationID>43149011</OperationID>`,
	`        <SiteAlias>1001</SiteAlias>`,
	`        <InvoiceID>5562</InvoiceID>`,
	`        <Stamp>2026-11-01T10:03:17</Stamp>`,
	`        <CurrencyCode>RUB</CurrencyCode>`,
	`        <OperationAmount>300.00</OperationAmount>`,
	`        <TransferAmount>294.00</TransferAmount>`,
	`      </Operation>`,
	`    </Operations>`,
	`  </Register>`,
	`</Response>`,
}

func TestLayoutOfARegisterOnOneLine(t *testing.T) {
	d := Parse([]byte(smallRegister))
	require.Nil(t, d.Err())
	assert.Equal(t, smallRegisterLines, plainLines(d))
	assert.Equal(t, []byte(smallRegister), d.Raw())
	assert.Empty(t, d.Notes())
}

func TestLayoutIgnoresTheSourceFormatting(t *testing.T) {
	// The same register pretty-printed with tabs and CRLF, and a BOM.
	pretty := "\xef\xbb\xbf" + strings.ReplaceAll(smallRegister, "><", ">\r\n\t\t<")
	d := Parse([]byte(pretty))
	require.Nil(t, d.Err())
	assert.Equal(t, smallRegisterLines, plainLines(d))
}

func TestLayoutOfTheGeneratedRegister(t *testing.T) {
	d := Parse(register(1000))
	require.Nil(t, d.Err())
	assert.Equal(t, 1+1+1+1+4+1+1000*9+1+1+1, d.Len())
	assert.Equal(t, "        <OperationID>43149010</OperationID>", d.Plain(10))
	assert.Equal(t, "</Response>", d.Plain(d.Len()-1))
}

func TestLayoutOfConstructs(t *testing.T) {
	cases := []struct {
		name, in string
		want     []string
	}{
		{
			name: "multi-line comment at its element's level",
			in:   "<a>\n  <!-- first line\n  second line\n\n  last -->\n  <b/>\n</a>",
			want: []string{"<a>", "  <!-- first line", "    second line", "  ", "    last -->", "  <b/>", "</a>"},
		},
		{
			name: "CDATA on one line and on several",
			in:   "<a><![CDATA[<not a tag> & ]]><![CDATA[one\ntwo]]></a>",
			want: []string{"<a>", "  <![CDATA[<not a tag> & ]]>", "  <![CDATA[one", "  two]]>", "</a>"},
		},
		{
			name: "attributes with '>' inside quotes",
			in:   `<a href="x>y" title='1 > 0'><b c="&gt;>">t</b></a>`,
			want: []string{`<a href="x>y" title='1 > 0'>`, `  <b c="&gt;>">t</b>`, `</a>`},
		},
		{
			name: "self-closing and empty elements",
			in:   `<a><b/><c x="1" /><d></d></a>`,
			want: []string{"<a>", "  <b/>", `  <c x="1" />`, "  <d></d>", "</a>"},
		},
		{
			name: "mixed content: text trimmed, on its own lines",
			in:   "<p>  Hello <b>world</b>, and\n   good   bye  </p>",
			want: []string{"<p>", "  Hello", "  <b>world</b>", "  , and", "  good   bye", "</p>"},
		},
		{
			name: "a leaf whose text has newlines",
			in:   "<a><Description>line one\nline two</Description></a>",
			want: []string{"<a>", "  <Description>line one", "  line two</Description>", "</a>"},
		},
		{
			name: "a start tag over several lines",
			in:   "<a\n      x=\"1\"\n      y=\"2\">\n  <b/>\n</a>",
			want: []string{"<a", `  x="1"`, `  y="2">`, "  <b/>", "</a>"},
		},
		{
			name: "declaration, processing instruction, DOCTYPE, comments outside the root",
			in:   "<?xml version=\"1.0\"?>\n<!-- before -->\n<!DOCTYPE r SYSTEM \"r.dtd\">\n<?style x?>\n<r>&amp;&#27;</r>\n<!-- after -->\n",
			want: []string{`<?xml version="1.0"?>`, "<!-- before -->", `<!DOCTYPE r SYSTEM "r.dtd">`, "<?style x?>", "<r>&amp;&#27;</r>", "<!-- after -->"},
		},
		{
			name: "']]>' outside CDATA is text",
			in:   "<a>]]></a>",
			want: []string{"<a>]]></a>"},
		},
		{
			name: "namespaces and non-ASCII names",
			in:   `<ns:Ответ xmlns:ns="urn:x"><ns:Сумма>1</ns:Сумма></ns:Ответ>`,
			want: []string{`<ns:Ответ xmlns:ns="urn:x">`, "  <ns:Сумма>1</ns:Сумма>", "</ns:Ответ>"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d := Parse([]byte(tc.in))
			require.Nil(t, d.Err())
			assert.Equal(t, tc.want, plainLines(d))
		})
	}
}

func TestIndentationIsCapped(t *testing.T) {
	const depth = 60
	d := Parse([]byte(strings.Repeat("<a>", depth) + "<b>deep</b>" + strings.Repeat("</a>", depth)))
	require.Nil(t, d.Err())
	assert.Equal(t, strings.Repeat(" ", 80)+"<b>deep</b>", d.Plain(depth))
	assert.Equal(t, strings.Repeat(" ", 78)+"<a>", d.Plain(39))
	assert.Equal(t, strings.Repeat(" ", 80)+"<a>", d.Plain(40))
	assert.Contains(t, d.Notes(), "elements nested deeper than 40 levels are drawn at the indentation of level 40")
}

func TestDepthIsBoundedAt256(t *testing.T) {
	d := Parse([]byte(strings.Repeat("<a>", 300) + strings.Repeat("</a>", 300)))
	err := d.Err()
	require.NotNil(t, err)
	assert.Equal(t, "elements nested deeper than 256", err.Msg)
	assert.Equal(t, 256*len("<a>"), err.Offset)
	assert.Equal(t, 1, err.Line)
	assert.Equal(t, 256*len("<a>")+1, err.Column)
	assert.Equal(t, 256, err.After)
	assert.Equal(t, 256, d.Len())

	// 256 levels are fine, a leaf included.
	d = Parse([]byte(strings.Repeat("<a>", 255) + "<b>x</b>" + strings.Repeat("</a>", 255)))
	assert.Nil(t, d.Err())
}

func TestBillionLaughsStaysAsWritten(t *testing.T) {
	var b strings.Builder
	b.WriteString("<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n <!ENTITY lol \"lol\">\n")
	for k := 2; k <= 9; k++ {
		b.WriteString(" <!ENTITY lol" + string(rune('0'+k)) + " \"" + strings.Repeat("&lol"+string(rune('0'+k-1))+";", 10) + "\">\n")
	}
	b.WriteString(" <!-- a ] or > in a comment does not end it -->\n]>\n<lolz>&lol9;</lolz>\n")
	raw := []byte(strings.ReplaceAll(b.String(), "&lol1;", "&lol;"))

	d := Parse(raw)
	require.Nil(t, d.Err())
	lines := plainLines(d)
	assert.Equal(t, "<!DOCTYPE lolz [", lines[1])
	assert.Equal(t, ` <!ENTITY lol "lol">`, lines[2])
	assert.Equal(t, "]>", lines[len(lines)-2])
	assert.Equal(t, "<lolz>&lol9;</lolz>", lines[len(lines)-1])
	assert.Equal(t, "the DOCTYPE declares entities; they are shown as written, never expanded", d.Notes()[0])

	// Nothing grew: the laid-out text is the received text, line for line.
	total := 0
	for i, l := range lines {
		total += len(l)
		total += len(d.Render(i, 1000, Styles{}, nil, -1))
	}
	assert.LessOrEqual(t, total, 2*len(raw))
	assert.NotContains(t, strings.Join(lines, "\n"), "lollol")
}

func TestEncodingOtherThanUTF8IsNoted(t *testing.T) {
	d := Parse([]byte(`<?xml version="1.0" encoding="windows-1251"?><a/>`))
	require.Nil(t, d.Err())
	assert.Equal(t, []string{"the declaration names the encoding windows-1251; the text is shown as UTF-8"}, d.Notes())
}

func TestLinesAreSmall(t *testing.T) {
	// The memory promise: 12 bytes a line, no strings.
	assert.Equal(t, uintptr(12), unsafe.Sizeof(line{}))
}
