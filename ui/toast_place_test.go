package ui

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/keys"
)

// A toast never covers a prompt or an input: the tab's own lines at the
// bottom of its area (its search input, its search or sort line) stay
// whole, and the toasts stand above them.

// tabAreaLines is the screen's tab area (between the tab bar and the
// status bar) at 80x24 with no error shown.
func tabAreaLines(ta *testApp) []string {
	lines := strings.Split(ta.screen(), "\n")
	return lines[1 : len(lines)-2]
}

func TestToastStaysOffTheFocusedSearchInput(t *testing.T) {
	ta := newTestApp(t)
	input := "/ status:held amount>100█"
	ta.tabs[0].ctx = keys.ContextFilter
	ta.tabs[0].bottom = []string{input}
	ta.tabs[0].status.Footer = 1
	ta.send(ToastMsg{Level: ToastSuccess, Text: "Captured 43149010: 1,250.00 RUB"})

	area := tabAreaLines(ta)
	assert.Equal(t, input, strings.TrimRight(area[len(area)-1], " "), "the input line is intact")
	above := area[len(area)-2]
	assert.Contains(t, above, "✓ Captured 43149010", "the toast stands just above the input")
}

func TestToastStaysOffTheInputEvenWhenTheTabDoesNotSayItsFooter(t *testing.T) {
	ta := newTestApp(t)
	ta.tabs[0].ctx = keys.ContextFilter // an input has the focus: its line is the last
	ta.tabs[0].bottom = []string{"/ refund█"}
	ta.send(ToastMsg{Level: ToastInfo, Text: "Refreshed"})
	area := tabAreaLines(ta)
	assert.Equal(t, "/ refund█", strings.TrimRight(area[len(area)-1], " "))
	assert.Contains(t, area[len(area)-2], "i Refreshed")
}

func TestToastStaysOffTheSearchAndErrorLines(t *testing.T) {
	ta := newTestApp(t)
	ta.tabs[0].bottom = []string{"✗ unknown field \"stauts\"", "search: status:held  (esc clears)"}
	ta.tabs[0].status.Footer = 2
	for _, s := range []string{"one", "two", "three"} {
		ta.send(ToastMsg{Level: ToastSuccess, Text: "toast " + s})
	}
	area := tabAreaLines(ta)
	n := len(area)
	require.Greater(t, n, 5)
	assert.Equal(t, ta.tabs[0].bottom[0], strings.TrimRight(area[n-2], " "))
	assert.Equal(t, ta.tabs[0].bottom[1], strings.TrimRight(area[n-1], " "))
	assert.Contains(t, area[n-3], "✓ toast three", "the newest nearest the bottom, above the tab's lines")
	assert.Contains(t, area[n-5], "✓ toast one")
}

func TestToastKeepsTheLastLineWhenTheTabHasNoFooter(t *testing.T) {
	ta := newTestApp(t)
	ta.send(ToastMsg{Level: ToastSuccess, Text: "Captured"})
	area := tabAreaLines(ta)
	assert.Contains(t, area[len(area)-1], "✓ Captured", "no line of the tab's to keep: the toast sits at the bottom")
}

// A toast about a row (a jump that widened the period, an action's
// outcome) never hides the row: drawn where it would cover the selected
// row, it stands above it.
func TestToastStaysOffTheSelectedRow(t *testing.T) {
	ta := newTestApp(t)
	selected := "> 43000965 03 Oct 10:37 ✓ Settled 680.00 RUB"
	ta.tabs[0].bottom = []string{selected} // the list's cursor on its last line
	ta.tabs[0].status.SelectedLine = len(tabAreaLines(ta))
	ta.send(ToastMsg{Level: ToastInfo, Text: "Period widened to 01 Oct 2026 – 27 Nov 2026 to show payment 43000965"})

	area := tabAreaLines(ta)
	assert.Equal(t, selected, strings.TrimRight(area[len(area)-1], " "), "the selected row is whole")
	assert.Contains(t, area[len(area)-2], "i Period widened", "the toast stands just above it")

	// Selected higher up, the row is clear of the toast: it stays at the
	// bottom.
	ta.tabs[0].status.SelectedLine = 2
	ta.send(ToastMsg{Level: ToastInfo, Text: "Refreshed"})
	area = tabAreaLines(ta)
	assert.Contains(t, area[len(area)-1], "i Refreshed")
}
