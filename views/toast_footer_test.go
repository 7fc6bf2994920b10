package views

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/keys"
	"paydash/ui"
	"paydash/views/internal/viewtest"
)

// A toast that arrives while the search input has the focus, or while a
// search is kept, leaves that line whole: the shell draws it above the
// tab's footer (ui.TabStatus.Footer).
func TestToastLeavesTheSearchLineWhole(t *testing.T) {
	t.Parallel()
	e := newEnv(t, viewtest.Opts{})
	e.Size(80, 21) // the tab area of an 80x24 screen
	e.Init()
	app := ui.New(ui.Config{Service: e.B, Tabs: []ui.Tab{e.Tab}, Keys: keys.Default(), Scope: e.Scope,
		NoColor: true, Dark: true})
	app.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	lastTabLine := func() string {
		lines := strings.Split(ansi.Strip(app.View().Content), "\n")
		require.Len(t, lines, 24)
		return lines[len(lines)-3] // above the status bar and the help line
	}

	e.Press("/")
	e.TypeText("status:held")
	require.Equal(t, 1, e.Tab.Status().Footer, "the input is the tab's footer")
	app.Update(ui.ToastMsg{Level: ui.ToastSuccess, Text: "Captured 43149010: 1,250.00 RUB"})
	line := lastTabLine()
	assert.Contains(t, line, "/ status:held", "the input is whole")
	assert.NotContains(t, line, "Captured")
	assert.Contains(t, ansi.Strip(app.View().Content), "✓ Captured 43149010")

	e.Press("enter") // the search is kept: its line stays under the list
	require.Equal(t, 1, e.Tab.Status().Footer)
	line = lastTabLine()
	assert.Contains(t, line, "search: status:held")
	assert.NotContains(t, line, "Captured")
}
