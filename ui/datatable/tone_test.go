package datatable

import (
	"strings"
	"testing"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// statusTone is the tone of the test rows' status, as the dashboard's
// payments list colours it.
func statusTone(p payment) Tone {
	word, _, _ := strings.Cut(p.Status, " ")
	switch word {
	case "Settled":
		return ToneSuccess
	case "Pending", "Confirmation":
		return ToneWarning
	case "Authorized":
		return ToneHeld
	case "Rejected", "Cancelled":
		return ToneDanger
	}
	return ToneNone
}

func tonedColumns() []Column[payment] {
	cols := paymentColumns()
	for i := range cols {
		if cols[i].Key == "status" {
			cols[i].Tone = statusTone
		}
	}
	return cols
}

func newToned(width, height int, rows []payment, st Styles) Model[payment] {
	m := New(Config[payment]{ID: paymentID, Columns: tonedColumns(), Styles: st})
	m.SetSize(width, height)
	m.SetRows(rows)
	return m
}

// sgr is the escape sequence a style opens with.
func sgr(st lipgloss.Style) string {
	out := st.Render("x")
	return out[:strings.Index(out, "x")]
}

func TestTonedCellCarriesItsColour(t *testing.T) {
	rows := makePayments(0, 8) // Settled ×3, Authorized, Pending, Confirmation, Rejected, Cancelled
	st := DefaultStyles(true)
	m := newToned(120, 10, rows, st)
	checkFrame(t, m)
	lines := splitLines(m.View())

	green, yellow, magenta, red := sgr(st.Success), sgr(st.Warning), sgr(st.Held), sgr(st.Danger)
	assert.Equal(t, "\x1b[32m", green, "the terminal's own green (ANSI 2), not an RGB value")
	assert.Equal(t, "\x1b[33m", yellow)
	assert.Equal(t, "\x1b[35m", magenta)
	assert.Equal(t, "\x1b[31m", red)

	// Only the text is coloured, not the cell's padding; the row's own
	// style (none for an ordinary row) comes back after it.
	assert.Contains(t, lines[2], green+"Settled"+sgrReset+" ")
	assert.Contains(t, lines[4], magenta+"Authorized"+sgrReset+" ")
	assert.Contains(t, lines[5], yellow+"Pending"+sgrReset)
	assert.Contains(t, lines[6], yellow+"Confirmation"+sgrReset)
	assert.Contains(t, lines[7], red+"Rejected"+sgrReset)
	assert.Contains(t, lines[8], red+"Cancelled"+sgrReset)
	for _, l := range lines {
		assert.NotContains(t, l, cellEnd, "the cell marker never reaches the screen")
	}

	// The selected row is reverse video over the colour, and stays so
	// after the cell: the rest of the row is still selected.
	sel := sgr(st.Selected)
	assert.True(t, strings.HasPrefix(lines[1], sel+"> "), "%q", lines[1])
	assert.Contains(t, lines[1], green+"Settled"+sgrReset+sel+" ")

	// The text is the same as without tones.
	plain := newPayments(120, 10, rows)
	assert.Equal(t, plain.View(), ansi.Strip(m.View()))

	// Moving the cursor redraws the rows from their cached bodies, in their
	// new states, still coloured.
	m = press(m, kDown)
	lines = splitLines(m.View())
	assert.Contains(t, lines[1], green+"Settled"+sgrReset+" ")
	assert.True(t, strings.HasPrefix(lines[2], sel+"> "))
	assert.Contains(t, lines[2], green+"Settled"+sgrReset+sel)
	checkFrame(t, m)
}

func TestUnstyledThemeHasNoEscapes(t *testing.T) {
	rows := makePayments(0, 8)
	m := newToned(120, 10, rows, Styles{}) // what NO_COLOR gives
	assert.NotContains(t, m.View(), "\x1b[", "no style: no escape sequence at all")
	checkFrame(t, m)

	// SetStyles draws the cached rows again, in the new tones, and back.
	m.SetStyles(DefaultStyles(false))
	assert.Contains(t, m.View(), "\x1b[32mSettled")
	m.SetStyles(Styles{})
	assert.NotContains(t, m.View(), "\x1b[")

	// A plain row style with tones set colours the cells only.
	m.SetStyles(Styles{Danger: lipgloss.NewStyle().Foreground(lipgloss.Red)})
	v := m.View()
	assert.Contains(t, v, "\x1b[31mRejected\x1b[m")
	assert.NotContains(t, v, "\x1b[32m")
}

func TestTonedCellCutAndOddStyles(t *testing.T) {
	rows := makePayments(0, 8)
	rows[0].Status = "Settled and then some more words"
	cols := tonedColumns()
	st := DefaultStyles(true)
	m := New(Config[payment]{ID: paymentID, Columns: cols, Styles: st})
	m.SetSize(70, 6)
	m.SetRows(rows)
	checkFrame(t, m)
	assert.Contains(t, m.View(), "\x1b[32mSettled and…"+sgrReset+sgr(st.Selected), "a cut text is coloured with its ellipsis")

	// A tone style that is more than colours is ignored; a row style that
	// is more than colours draws its cells plain, at the exact width.
	st.Success = lipgloss.NewStyle().Foreground(lipgloss.Green).PaddingLeft(2)
	st.Selected = lipgloss.NewStyle().Reverse(true).Width(200)
	m.SetStyles(st)
	v := m.View()
	require.NotContains(t, v, cellEnd)
	assert.NotContains(t, v, "\x1b[32m")
	checkFrame(t, m)
	st.Success = DefaultStyles(true).Success
	m.SetStyles(st)
	lines := splitLines(m.View())
	assert.NotContains(t, lines[1], "\x1b[32m", "the selected row's style is not only colours: plain cells")
	assert.Contains(t, lines[2], "\x1b[32mSettled"+sgrReset)
	checkFrame(t, m)
}

// BenchmarkListKeyPressToned is BenchmarkListKeyPress with the status
// column coloured by its tone, as the dashboard's lists are.
func BenchmarkListKeyPressToned(b *testing.B) {
	const n = 100_000
	m := New(Config[payment]{ID: paymentID, Columns: tonedColumns(), Styles: DefaultStyles(true)})
	m.SetSize(benchWidth, benchHeight)
	for from := 0; from < n; from += 1000 {
		m.Append(makePayments(from, 1000))
	}
	benchKeyPress(b, m, n)
}
