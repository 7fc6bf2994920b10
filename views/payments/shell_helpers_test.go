package payments

import (
	"strings"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/require"

	"paydash/keys"
	"paydash/ui"
	"paydash/views/internal/viewtest"
)

// shell is a test's whole dashboard: the shell (ui.App) around the env's
// tab, driven key by key as the runtime would, its commands run
// synchronously. The shell's clock (its tick chain) and the spinner's
// animation are not run: they only wait.
type shell struct {
	e   *env
	app *ui.App
}

func newShell(e *env, w, h int) *shell {
	e.T.Helper()
	s := &shell{e: e, app: ui.New(ui.Config{Tabs: []ui.Tab{e.Tab}, Keys: keys.Default(), Scope: e.Scope,
		Now: e.Now, NoColor: true, NoMouse: true})}
	s.send(tea.WindowSizeMsg{Width: w, Height: h})
	s.run(e.Tab.Init(e.Scope))
	return s
}

// send delivers a message to the shell and runs what follows.
func (s *shell) send(msg tea.Msg) {
	s.e.T.Helper()
	_, cmd := s.app.Update(msg)
	s.run(cmd)
}

func (s *shell) run(cmd tea.Cmd) {
	s.e.T.Helper()
	queue := []tea.Cmd{cmd}
	for steps := 0; len(queue) > 0; steps++ {
		require.Less(s.e.T, steps, 100000, "commands never settle")
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		switch m := c().(type) {
		case nil, spinner.TickMsg:
		case tea.BatchMsg:
			queue = append(queue, m...)
		default:
			_, next := s.app.Update(m)
			queue = append(queue, next)
		}
	}
}

// press sends key presses as env.press names them.
func (s *shell) press(names ...string) {
	s.e.T.Helper()
	for _, n := range names {
		s.send(viewtest.KeyPress(n))
	}
}

// typeText types text into whatever has the focus.
func (s *shell) typeText(text string) {
	s.e.T.Helper()
	for _, r := range text {
		s.send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

// jump types ":" query enter.
func (s *shell) jump(query string) {
	s.e.T.Helper()
	s.press(":")
	s.typeText(query)
	s.press("enter")
}

// screen is the whole screen, plain text.
func (s *shell) screen() string { return ansi.Strip(s.app.View().Content) }

// hasError reports whether the screen shows an error line (✗ …) with text.
func (s *shell) hasError(text string) bool {
	for _, l := range strings.Split(s.screen(), "\n") {
		if strings.Contains(l, "✗") && strings.Contains(l, text) {
			return true
		}
	}
	return false
}
