package ui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/keys"
)

// The command palette (ctrl+k, docs/screen.md): every action and
// view by name with its key, filtered as one types, greyed with the
// reason where it cannot act now; choosing one acts as its key would.

func openPalette(t *testing.T, ta *testApp) *paletteModal {
	t.Helper()
	ta.press("ctrl+k")
	p, ok := ta.modal.(*paletteModal)
	require.True(t, ok, "ctrl+k opens the palette, got %T", ta.modal)
	return p
}

func paletteNames(p *paletteModal) []string {
	var out []string
	for _, i := range p.shown {
		out = append(out, p.all[i].name)
	}
	return out
}

func TestPaletteOpensWithActionsAndViews(t *testing.T) {
	ta := newTestApp(t)
	ta.tabs[0].reasons = map[keys.Action]string{
		keys.ActRefund: "only a settled payment can be refunded",
		keys.ActRevoke: "", // does not exist on this tab
	}
	p := openPalette(t, ta)
	names := paletteNames(p)
	assert.Equal(t, []string{"Payments", "Refunds"}, names[:2], "the views first")
	assert.Contains(t, names, "refresh now")
	assert.Contains(t, names, "capture hold")
	assert.Contains(t, names, "refund")
	assert.NotContains(t, names, "revoke token", "an action that does not exist here is left out")
	assert.NotContains(t, names, "confirm", "modal keys are left out")
	assert.NotContains(t, names, "command palette", "the palette does not list itself")
	assert.NotContains(t, names, "go to tab 1", "the views stand for the number keys")
	assert.NotContains(t, names, "next match", "not live in the list")

	s := unwrapped(ta.screen())
	assert.Contains(t, s, "Command palette")
	assert.Contains(t, s, "1 Payments (view, current)")
	ta.typeText("refund")
	assert.Contains(t, unwrapped(ta.screen()), "R refund — only a settled payment can be refunded", "greyed with the reason")
	assert.Contains(t, s, "enter run")
	assert.Empty(t, keysOf(ta.tabs[0]), "ctrl+k did not reach the tab")
}

func TestPaletteFiltersAsYouType(t *testing.T) {
	ta := newTestApp(t)
	p := openPalette(t, ta)
	ta.typeText("REFR")
	assert.Equal(t, []string{"refresh now"}, paletteNames(p), "any case, part of the name")
	ta.press("backspace", "backspace", "backspace", "backspace")
	ta.typeText("ctrl+s")
	assert.Equal(t, []string{"export rows"}, paletteNames(p), "by key")
	ta.press("ctrl+u")
	ta.typeText("zzz")
	assert.Empty(t, paletteNames(p))
	assert.Contains(t, unwrapped(ta.screen()), "nothing matches")
	ta.press("enter")
	assert.Same(t, p, ta.modal, "enter on nothing keeps the palette open")
	assert.Empty(t, keysOf(ta.tabs[0]), "typing reached only the palette")
}

func TestPaletteRunsRefreshAsRWould(t *testing.T) {
	ta := newTestApp(t)
	openPalette(t, ta)
	ta.typeText("refresh now")
	ta.press("enter")
	assert.Nil(t, ta.modal, "the palette closed")
	assert.Equal(t, []RefreshMsg{{Manual: true, Now: t0}}, msgsOf[RefreshMsg](ta.tabs[0]))
}

func TestPaletteGreyedEntrySaysWhyAndDoesNotAct(t *testing.T) {
	ta := newTestApp(t)
	ta.tabs[0].reasons = map[keys.Action]string{keys.ActCapture: "only a held payment can be captured"}
	openPalette(t, ta)
	ta.typeText("capture")
	ta.press("enter")
	assert.Nil(t, ta.modal, "no preparing dialog")
	assert.Empty(t, msgsOf[ActionMsg](ta.tabs[0]), "nothing acted")
	assert.Empty(t, keysOf(ta.tabs[0]))
	assert.Contains(t, unwrapped(ta.screen()), "only a held payment can be captured")
}

func TestPaletteSwitchesTabs(t *testing.T) {
	ta := newTestApp(t)
	p := openPalette(t, ta)
	ta.typeText("refunds")
	require.Equal(t, []string{"Refunds"}, paletteNames(p))
	ta.press("enter")
	assert.Nil(t, ta.modal)
	assert.Equal(t, 1, ta.active)
}

func TestPaletteActionKeyOpensThePreparingDialogAsCWould(t *testing.T) {
	ta := newTestApp(t)
	openPalette(t, ta)
	ta.typeText("capture")
	ta.press("enter")
	require.IsType(t, &preparingModal{}, ta.modal)
	assert.Equal(t, []ActionMsg{{Action: "capture", Ticket: 1}}, msgsOf[ActionMsg](ta.tabs[0]))
	assert.Contains(t, unwrapped(ta.screen()), "Preparing: capture hold")
	assert.Empty(t, keysOf(ta.tabs[0]))
}

func TestPaletteArrowsMoveAndEnterRunsTheEntryUnderTheCursor(t *testing.T) {
	ta := newTestApp(t)
	p := openPalette(t, ta)
	assert.Equal(t, 0, p.cursor)
	ta.press("down")
	assert.Equal(t, "Refunds", p.all[p.shown[p.cursor]].name)
	ta.press("down", "up")
	assert.Equal(t, 1, p.cursor)
	ta.typeText("j")
	assert.Equal(t, "j", p.input.Value(), "letters type, they do not move")
	ta.press("ctrl+u", "home", "down", "enter")
	assert.Equal(t, 1, ta.active, "enter ran the entry under the cursor")
}

func TestPaletteEscClosesWithNothingDone(t *testing.T) {
	ta := newTestApp(t)
	openPalette(t, ta)
	ta.typeText("refresh")
	ta.press("esc")
	assert.Nil(t, ta.modal)
	assert.Empty(t, ta.tabs[0].got, "nothing reached the tab")
	assert.Empty(t, ta.tabs[1].got)
	assert.Equal(t, 0, ta.active)
}

func TestPaletteNeverStacks(t *testing.T) {
	ta := newTestApp(t)
	ta.press("c")
	prep := ta.modal
	require.IsType(t, &preparingModal{}, prep)
	ta.press("ctrl+k")
	assert.Same(t, prep, ta.modal, "ctrl+k with a dialog open does nothing")

	tb := newTestApp(t)
	p := openPalette(t, tb)
	tb.press("ctrl+k")
	assert.Same(t, p, tb.modal, "nor over itself")
}

func TestPaletteFits80x24(t *testing.T) {
	ta := newTestApp(t)
	ta.tabs[0].reasons = map[keys.Action]string{
		keys.ActRefund: "read-only mode: paydash was started with --read-only, so nothing can be sent to the service",
	}
	p := openPalette(t, ta)
	require.Greater(t, len(p.shown), 15, "more entries than rows: the list scrolls")
	requireFrame(t, ta.View().Content, 80, 24)
	for range len(p.shown) - 1 {
		ta.press("down")
	}
	requireFrame(t, ta.View().Content, 80, 24)
	last := p.all[p.shown[len(p.shown)-1]]
	assert.Contains(t, ta.screen(), "> "+keys.Label([]string{last.keyStr}), "the cursor's row is on screen")
	for _, l := range strings.Split(p.View(76, 21), "\n") {
		assert.LessOrEqual(t, ansi.StringWidth(l), 76)
	}
	assert.LessOrEqual(t, len(strings.Split(p.View(76, 21), "\n")), 21)
}

func TestKeyPressOfSpellsEveryDefaultKey(t *testing.T) {
	km := keys.Default()
	for _, action := range keys.ActionNames() {
		b, _ := km.Binding(action)
		for _, k := range b.Keys() {
			press, ok := keyPressOf(k)
			if assert.True(t, ok, "%s: %q", action, k) {
				assert.Equal(t, k, press.String())
			}
		}
	}
	for _, k := range []string{"f5", "ctrl+alt+x", "space", "home", "alt+enter"} {
		press, ok := keyPressOf(k)
		assert.True(t, ok, k)
		assert.Equal(t, k, press.String())
	}
	_, ok := keyPressOf("nonsense")
	assert.False(t, ok)
}

// --- fuzzy matching, whole reasons, a count that tells what is on screen ---

func TestPaletteMatchesFuzzily(t *testing.T) {
	ta := newTestApp(t)
	p := openPalette(t, ta)
	ta.typeText("rfnd")
	require.NotEmpty(t, paletteNames(p))
	assert.Equal(t, "refund", paletteNames(p)[0], "rfnd finds refund")
	ta.press("ctrl+u")
	ta.typeText("xprt")
	assert.Equal(t, []string{"export rows"}, paletteNames(p))
	ta.press("ctrl+u")
	ta.typeText("chgper")
	assert.Equal(t, "change period", paletteNames(p)[0])
}

func TestPaletteRanksExactKeyThenPrefixThenWordThenFuzzy(t *testing.T) {
	ta := newTestApp(t)
	p := openPalette(t, ta)
	ta.typeText("R")
	names := paletteNames(p)
	require.NotEmpty(t, names)
	assert.Equal(t, "refund", names[0], "the key R itself first (keys are case-sensitive)")
	assert.Equal(t, "Refunds", names[1], "then the names that start with it, in the palette's order")
	assert.Equal(t, "refresh now", names[2])

	ta.press("ctrl+u")
	ta.typeText("period")
	assert.Equal(t, []string{"change period"}, paletteNames(p), "a word of the name")

	ta.press("ctrl+u")
	ta.typeText("re")
	names = paletteNames(p)
	require.GreaterOrEqual(t, len(names), 4)
	assert.Equal(t, []string{"Refunds", "refresh now", "reverse the sort", "refund"}, names[:4],
		"the names that start with it first, in order; the rest after")
	assert.Less(t, indexOf(names, "revoke token"), indexOf(names, "previous tab"), "a prefix before a part inside")
	assert.Less(t, indexOf(names, "previous tab"), indexOf(names, "transfers/documents"), "a part inside before letters apart")
}

func indexOf(ss []string, s string) int {
	for i, v := range ss {
		if v == s {
			return i
		}
	}
	return -1
}

func TestPaletteHighlightsTheMatchedLetters(t *testing.T) {
	ta := newTestApp(t, withColour(true))
	openPalette(t, ta)
	ta.typeText("rfnd")
	var row string
	for _, l := range strings.Split(ta.View().Content, "\n") {
		if strings.Contains(ansi.Strip(l), "refund") {
			row = l
			break
		}
	}
	require.NotEmpty(t, row)
	assert.Contains(t, ansi.Strip(row), "> R")
	assert.Regexp(t, `\x1b\[[0-9;]*4[;m]`, row, "the matched letters are underlined")
}

func TestPaletteShowsWholeReasons(t *testing.T) {
	ta := newTestApp(t)
	long := "read-only mode: paydash was started with --read-only, so nothing can be sent to the service; " +
		"start it again without the flag to refund"
	ta.tabs[0].reasons = map[keys.Action]string{keys.ActRefund: long}
	openPalette(t, ta)
	ta.typeText("refund")
	s := unwrapped(ta.screen())
	assert.Contains(t, s, "R refund — "+long, "the reason is whole, wrapped under the entry")
	assert.NotContains(t, s, "…")
	requireFrame(t, ta.View().Content, 80, 24)
}

func TestPaletteCountSaysWhatIsOnScreen(t *testing.T) {
	ta := newTestApp(t)
	p := openPalette(t, ta)
	total := len(p.all)
	screen := ta.screen()
	shown := 0
	for _, e := range p.all {
		if strings.Contains(screen, "  "+e.name) || strings.Contains(screen, " "+e.name+" (view") {
			shown++
		}
	}
	require.Less(t, shown, total, "at 80x24 not every entry fits")
	want := fmt.Sprintf("%d shown of %d · ↓ %d more", shown, total, total-shown)
	assert.Contains(t, screen, want)

	ta.press("end")
	screen = ta.screen()
	assert.Contains(t, screen, fmt.Sprintf("%d shown of %d · ↑ %d more", shown, total, total-shown))
	assert.NotContains(t, screen, "· ↓")

	ta.typeText("copy")
	assert.Equal(t, []string{"copy id", "copy a field…"}, paletteNames(p))
	assert.Contains(t, ta.screen(), fmt.Sprintf("2 of %d match", total), "all the matches fit")
	assert.NotContains(t, ta.screen(), "more")
}

func TestPaletteGoldens(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {200, 50}} {
		t.Run(fmt.Sprintf("palette_rfnd_%dx%d", size[0], size[1]), func(t *testing.T) {
			ta := newTestApp(t)
			ta.tabs[0].reasons = map[keys.Action]string{
				keys.ActRefund: "read-only mode: paydash was started with --read-only, so nothing can be sent to the service",
			}
			ta.send(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
			openPalette(t, ta)
			ta.typeText("rfnd")
			out := ta.View().Content
			requireFrame(t, out, size[0], size[1])
			golden.RequireEqual(t, ansi.Strip(out))
		})
	}
}
