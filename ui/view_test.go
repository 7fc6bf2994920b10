package ui

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func splitLines(s string) []string { return strings.Split(s, "\n") }

func TestViewModes(t *testing.T) {
	ta := newTestApp(t)
	v := ta.View()
	assert.True(t, v.AltScreen)
	assert.Equal(t, "paydash", v.WindowTitle)
}

// busyScreens puts the shell in each of its states, for the size checks.
var busyScreens = map[string]func(ta *testApp){
	"plain": func(*testApp) {},
	"toasts and error": func(ta *testApp) {
		for i := range 3 {
			ta.send(ToastMsg{Level: ToastLevel(i + 1), Text: strings.Repeat("a very long toast text ", 8)})
		}
		ta.send(ErrorMsg{Err: errors.New(strings.Repeat("a long error ", 20)), Hint: "do something about it"})
	},
	"confirm": func(ta *testApp) {
		ta.openConfirm(refundSpec(&confirmProbe{}))
		ta.send(ToastMsg{Level: ToastSuccess, Text: "over the modal"})
	},
	"help":     func(ta *testApp) { ta.press("?") },
	"period":   func(ta *testApp) { ta.press("p") },
	"custom":   func(ta *testApp) { ta.press("p", "G", "enter") },
	"merchant": func(ta *testApp) { ta.press("m") },
	"jump":     func(ta *testApp) { ta.press(":") },
	"loading": func(ta *testApp) {
		ta.tabs[0].status = TabStatus{Loading: true, Rows: 1234567, Shown: 3, Filter: strings.Repeat("x", 50)}
		ta.send(struct{}{})
	},
}

func TestViewIsExactlyTheWindowAtEverySize(t *testing.T) {
	sizes := [][2]int{{80, 24}, {81, 25}, {100, 30}, {160, 48}, {200, 50}}
	themes := map[string][]option{"no colour": nil, "dark": {withColour(true)}, "light": {withColour(false)}}
	for name, setup := range busyScreens {
		for theme, opts := range themes {
			for _, size := range sizes {
				t.Run(fmt.Sprintf("%s/%s/%dx%d", name, theme, size[0], size[1]), func(t *testing.T) {
					ta := newTestApp(t, opts...)
					ta.send(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
					setup(ta)
					requireFrame(t, ta.View().Content, size[0], size[1])
					// And after a resize with everything open.
					ta.send(tea.WindowSizeMsg{Width: 80, Height: 24})
					requireFrame(t, ta.View().Content, 80, 24)
				})
			}
		}
	}
}

func TestViewAsksForABiggerWindow(t *testing.T) {
	for _, size := range [][2]int{{79, 24}, {80, 23}, {40, 10}, {20, 5}} {
		ta := newTestApp(t)
		ta.send(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		out := ta.View().Content
		requireFrame(t, out, size[0], size[1])
		flat := strings.Join(strings.Fields(ansi.Strip(out)), " ")
		assert.Contains(t, flat, "make the window at least 80x24", "%v", size)
	}
}

func TestResizeTellsTheTabsTheirArea(t *testing.T) {
	ta := newTestApp(t)
	ta.send(tea.WindowSizeMsg{Width: 160, Height: 48})
	for _, tb := range ta.tabs {
		assert.Equal(t, []SizeMsg{{Width: 160, Height: 45}}, msgsOf[SizeMsg](tb))
	}
	ta.send(tea.WindowSizeMsg{Width: 160, Height: 48})
	assert.Len(t, msgsOf[SizeMsg](ta.tabs[0]), 1, "only when it changes")
}

func TestGoldenShell(t *testing.T) {
	for _, tc := range []struct {
		name  string
		w, h  int
		setup func(ta *testApp)
	}{
		{"shell_80x24", 80, 24, func(ta *testApp) {}},
		{"shell_160x48", 160, 48, func(ta *testApp) {}},
		{"shell_80x24_confirm", 80, 24, func(ta *testApp) {
			ta.openConfirm(refundSpec(&confirmProbe{}))
			ta.send(ToastMsg{Level: ToastSuccess, Text: "Capture of 43149009 made"})
		}},
		// A live service: LIVE in the status bar and in the money
		// dialog's title.
		{"shell_80x24_live", 80, 24, func(ta *testApp) {
			ta.goLive()
			ta.openConfirm(refundSpec(&confirmProbe{}))
		}},
		{"shell_80x24_error", 80, 24, func(ta *testApp) {
			ta.press("2")
			ta.send(ErrorMsg{Err: errors.New("list refunds: connection refused"), Hint: "check the network, then press r"})
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ta := newTestApp(t)
			ta.tabs[0].status = TabStatus{Rows: 1250, Shown: 1250, AtEnd: true, Refreshed: t0.Add(-time.Minute)}
			ta.send(struct{}{})
			ta.send(tea.WindowSizeMsg{Width: tc.w, Height: tc.h})
			tc.setup(ta)
			out := ta.View().Content
			requireFrame(t, out, tc.w, tc.h)
			golden.RequireEqual(t, ansi.Strip(out))
		})
	}
}

func TestNoColorThemeDrawsNoColour(t *testing.T) {
	ta := newTestApp(t)
	busyScreens["toasts and error"](ta)
	ta.openConfirm(refundSpec(&confirmProbe{}))
	out := ta.View().Content
	for _, sgr := range []string{"38;", "48;", "\x1b[3", "\x1b[4", "\x1b[9"} {
		require.NotContains(t, out, sgr, "a colour escape with NO_COLOR")
	}
}

// With paydash serve's eight tabs at 80 columns, the others shrink to
// their number keys so that the active tab keeps its name.
func TestTabBarKeepsTheActiveNameWhenTabsOverflow(t *testing.T) {
	eight := func(c *Config) {
		c.Tabs = nil
		for _, title := range []string{"Payments", "Refunds", "Tokens", "Stickers", "Registers", "Overview", "Approvals", "Activity"} {
			c.Tabs = append(c.Tabs, newFakeTab(title))
		}
	}
	ta := newTestApp(t, eight)
	ta.press("6")
	top := strings.SplitN(ta.screen(), "\n", 2)[0]
	assert.Contains(t, top, "[6 Approvals]")
	assert.Contains(t, top, " 1   2   3 ")
	assert.LessOrEqual(t, ansi.StringWidth(top), 80)

	wide := newTestApp(t)
	assert.Contains(t, strings.SplitN(wide.screen(), "\n", 2)[0], "2 Refunds", "two tabs keep their names")
}
