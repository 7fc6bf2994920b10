package xmlview

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMalformedDocuments(t *testing.T) {
	cases := []struct {
		name, in     string
		msg          string
		line, column int
		kept         []string
	}{
		{
			name: "mismatched end tag",
			in:   "<r>\n  <Operations>\n    <Operation>\n    </Operations>\n</r>",
			msg:  "element <Operation> closed by </Operations>", line: 4, column: 5,
			kept: []string{"<r>", "  <Operations>", "    <Operation>"},
		},
		{
			name: "end tag of another element right after a start tag",
			in:   "<a></b>",
			msg:  "element <a> closed by </b>", line: 1, column: 4,
			kept: []string{"<a>"},
		},
		{
			name: "unclosed elements at the end",
			in:   "<a>\n  <b>1</b>\n  <c>\n",
			msg:  "element <c> (opened at line 3, column 3) not closed at the end of the document", line: 4, column: 1,
			kept: []string{"<a>", "  <b>1</b>", "  <c>"},
		},
		{
			name: "text in an unclosed element",
			in:   "<a>x",
			msg:  "element <a> (opened at line 1, column 1) not closed at the end of the document", line: 1, column: 5,
			kept: []string{"<a>", "  x"},
		},
		{
			name: "unterminated comment",
			in:   "<a>\n<!-- never ends </a>",
			msg:  "unterminated comment", line: 2, column: 1,
			kept: []string{"<a>"},
		},
		{
			name: "unterminated CDATA",
			in:   "<a><![CDATA[x</a>",
			msg:  "unterminated CDATA section", line: 1, column: 4,
			kept: []string{"<a>"},
		},
		{
			name: "unterminated processing instruction",
			in:   "<a><?pi x</a>",
			msg:  "unterminated processing instruction", line: 1, column: 4,
			kept: []string{"<a>"},
		},
		{
			name: "unterminated start tag",
			in:   `<a><b c="1"`,
			msg:  "unterminated start tag <b", line: 1, column: 4,
			kept: []string{"<a>"},
		},
		{
			name: "unterminated end tag",
			in:   "<a>&lt;</a",
			msg:  "unterminated end tag </a", line: 1, column: 8,
			kept: []string{"<a>", "  &lt;"},
		},
		{
			name: "unterminated attribute quote",
			in:   "<a><b c=\"1>\n</b></a>",
			msg:  "value of attribute c in <b> not closed", line: 1, column: 9,
			kept: []string{"<a>"},
		},
		{
			name: "unquoted attribute value",
			in:   "<a b=1/>",
			msg:  "value of attribute b in <a> not quoted", line: 1, column: 6,
		},
		{
			name: "attribute without a value",
			in:   "<a b></a>",
			msg:  "attribute b in <a> has no value", line: 1, column: 4,
		},
		{
			name: "attributes run together",
			in:   `<a b="1"c="2"/>`,
			msg:  "attributes in start tag <a> not separated by white space", line: 1, column: 9,
		},
		{
			name: "'<' followed by junk",
			in:   "<a>\n<1/></a>",
			msg:  "'<' followed by '1', not a name", line: 2, column: 1,
			kept: []string{"<a>"},
		},
		{
			name: "'<' followed by a space",
			in:   "<a>< b/></a>",
			msg:  "'<' followed by white space, not a name", line: 1, column: 4,
			kept: []string{"<a>"},
		},
		{
			name: "'<' at the end",
			in:   "<a><",
			msg:  "'<' at the end of the document", line: 1, column: 4,
			kept: []string{"<a>"},
		},
		{
			name: "'<!' junk",
			in:   "<a><!ELEMENT a></a>",
			msg:  "'<!' not followed by a comment, a CDATA section or a DOCTYPE", line: 1, column: 4,
			kept: []string{"<a>"},
		},
		{
			name: "text after the root",
			in:   "<a/>\ntail",
			msg:  "text after the root element", line: 2, column: 1,
			kept: []string{"<a/>"},
		},
		{
			name: "text before the root",
			in:   "  x<a/>",
			msg:  "text before the root element", line: 1, column: 3,
		},
		{
			name: "second root",
			in:   "<a>1</a><b/>",
			msg:  "second root element <b>", line: 1, column: 9,
			kept: []string{"<a>1</a>"},
		},
		{
			name: "end tag after the root",
			in:   "<a/></a>",
			msg:  "end tag </a> after the root element", line: 1, column: 5,
			kept: []string{"<a/>"},
		},
		{
			name: "end tag with no start",
			in:   "<!-- c --></a>",
			msg:  "end tag </a> without a start tag", line: 1, column: 11,
			kept: []string{"<!-- c -->"},
		},
		{
			name: "no root",
			in:   "<?xml version=\"1.0\"?>\n<!-- only a comment -->",
			msg:  "no root element", line: 2, column: 24,
			kept: []string{`<?xml version="1.0"?>`, "<!-- only a comment -->"},
		},
		{
			name: "empty input",
			in:   "",
			msg:  "empty document", line: 1, column: 1,
		},
		{
			name: "white space only",
			in:   " \n\t",
			msg:  "empty document", line: 1, column: 1,
		},
		{
			name: "DOCTYPE inside the root",
			in:   "<a><!DOCTYPE a></a>",
			msg:  "DOCTYPE after the root element", line: 1, column: 4,
			kept: []string{"<a>"},
		},
		{
			name: "unterminated DOCTYPE",
			in:   "<!DOCTYPE a [ <!ENTITY x \"y\">",
			msg:  "unterminated DOCTYPE", line: 1, column: 1,
		},
		{
			name: "CDATA outside the root",
			in:   "<![CDATA[x]]><a/>",
			msg:  "CDATA section outside the root element", line: 1, column: 1,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d := Parse([]byte(tc.in))
			err := d.Err()
			require.NotNil(t, err)
			assert.Equal(t, tc.msg, err.Msg)
			assert.Equal(t, tc.line, err.Line, "line")
			assert.Equal(t, tc.column, err.Column, "column")
			assert.Equal(t, len(tc.kept), err.After, "lines before the error")
			if tc.kept == nil {
				tc.kept = []string{}
			}
			assert.Equal(t, tc.kept, plainLines(d))
			assert.Equal(t, []byte(tc.in), d.Raw(), "the raw text is kept whole")
		})
	}
}

func TestSyntaxErrorText(t *testing.T) {
	d := Parse([]byte("<r>\n  <Operations>\n    <Operation>\n    </Operations>\n</r>"))
	require.NotNil(t, d.Err())
	assert.Equal(t, "line 4, column 5: element <Operation> closed by </Operations>", d.Err().Error())
	assert.Equal(t, len("<r>\n  <Operations>\n    <Operation>\n    "), d.Err().Offset)
}

func TestLongNamesAreCutInMessages(t *testing.T) {
	long := make([]byte, 10_000)
	for i := range long {
		long[i] = 'n'
	}
	d := Parse([]byte("<a></" + string(long) + ">"))
	require.NotNil(t, d.Err())
	assert.Less(t, len(d.Err().Msg), 200)
	assert.Contains(t, d.Err().Msg, "…")
}
