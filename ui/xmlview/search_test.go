package xmlview

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const searchDoc = `<r>
  <Item>Operation one</Item>
  <Item>operation TWO</Item>
  <Other>nothing</Other>
  <Item>OPERATION three operation</Item>
</r>`

// matchLines is the line of every match.
func matchLines(m *Matches) []int {
	lines := make([]int, m.Len())
	for k := range lines {
		lines[k] = m.Line(k)
	}
	return lines
}

func TestSearchCountsAndPositions(t *testing.T) {
	d := Parse([]byte(searchDoc))
	require.Nil(t, d.Err())
	m := d.Search("operation")
	assert.Equal(t, "operation", m.Query())
	assert.Equal(t, []int{1, 2, 4, 4}, matchLines(m))
	assert.Equal(t, -1, m.Line(4))
	assert.Equal(t, -1, m.Line(-1))

	assert.Equal(t, []int{1, 2, 4, 4}, matchLines(d.Search("OpErAtIoN")), "case-insensitive")
	assert.Equal(t, []int{4}, matchLines(d.Search("three")))
	assert.Zero(t, d.Search("absent").Len())
}

func TestSearchMovesAndWraps(t *testing.T) {
	m := Parse([]byte(searchDoc)).Search("operation")

	assert.Equal(t, 0, m.After(-1))
	assert.Equal(t, 1, m.After(1), "the next line's match")
	assert.Equal(t, 2, m.After(2), "the first of a line's matches")
	assert.Equal(t, 0, m.After(4), "wraps to the first")

	assert.Equal(t, 3, m.Before(1), "wraps to the last")
	assert.Equal(t, 0, m.Before(2))
	assert.Equal(t, 1, m.Before(4))
	assert.Equal(t, 3, m.Before(5), "the last of a line's matches")

	assert.Equal(t, 0, m.First(0))
	assert.Equal(t, 1, m.First(2), "on the line itself")
	assert.Equal(t, 2, m.First(3))
	assert.Equal(t, 0, m.First(5), "wraps")
}

func TestNoMatches(t *testing.T) {
	d := Parse([]byte(searchDoc))
	for _, m := range []*Matches{d.Search(""), d.Search("zzz"), nil} {
		assert.Zero(t, m.Len())
		assert.Equal(t, -1, m.After(0))
		assert.Equal(t, -1, m.Before(0))
		assert.Equal(t, -1, m.First(0))
		assert.Equal(t, -1, m.Line(0))
	}
}

func TestSearchAtLineEndsAndNotAcrossThem(t *testing.T) {
	d := Parse([]byte(`<r><Item>a</Item><Item>b</Item></r>`))
	require.Nil(t, d.Err())
	assert.Equal(t, []int{1, 2}, matchLines(d.Search("</item>")), "a match ending its line")
	assert.Zero(t, d.Search("</Item><Item>").Len(), "the raw text has it, but across lines")
	assert.Zero(t, d.Search("<r><").Len())
	assert.Zero(t, d.Search("  ").Len(), "indentation is not searched")

	d = Parse([]byte("<r>\n<a>x</a>\n<!-- one\ntwo -->\n</r>"))
	assert.Zero(t, d.Search("one\ntwo").Len())
	assert.Zero(t, d.Search("\n").Len())
	assert.Equal(t, []int{3}, matchLines(d.Search("two -->")))
}

func TestSearchDoesNotOverlapAndStopsAtTheError(t *testing.T) {
	d := Parse([]byte("<a>aaaa</a>"))
	m := d.Search("aa")
	assert.Equal(t, 2, m.Len(), `"aaaa" holds "aa" twice, not three times`)

	d = Parse([]byte("<r><x>needle</x></y><x>needle</x></r>"))
	require.NotNil(t, d.Err())
	assert.Equal(t, 1, d.Search("needle").Len(), "text past the error is not laid out")
}

func TestSearchUnicodeFolding(t *testing.T) {
	d := Parse([]byte("<r><a>Кофе КОФЕ кофе</a><b>ΣΊΣΥΦΟΣ σίσυφος</b></r>"))
	require.Nil(t, d.Err())
	assert.Equal(t, 3, d.Search("кОфе").Len())
	assert.Equal(t, 2, d.Search("σίσυφος").Len())
}

func TestSearchOfTheGeneratedRegister(t *testing.T) {
	d := Parse(register(200))
	// Per operation: <Operation>, </Operation>, OperationID and OperationAmount
	// (each start and end); and <Operations>, </Operations>.
	assert.Equal(t, 200*6+2, d.Search("operation").Len())
	m := d.Search("R-1001-2026")
	require.Equal(t, 1, m.Len())
	assert.Equal(t, "    <RegisterNumber>R-1001-20261101</RegisterNumber>", d.Plain(m.Line(0)))
}
