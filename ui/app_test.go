package ui

import (
	"errors"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend"
	"paydash/keys"
)

func TestInitStartsEveryTabWithThemeFirst(t *testing.T) {
	clock := &fakeClock{t: t0}
	a, b := newFakeTab("Payments"), newFakeTab("Refunds")
	scope := PresetScope("10000001", PresetToday, t0)
	app := New(Config{Service: sandboxBackend(), Tabs: []Tab{a, b}, Keys: keys.Default(), Scope: scope, Now: clock.Now, NoColor: true})
	cmd := app.Init()
	require.NotNil(t, cmd)
	for _, tb := range []*fakeTab{a, b} {
		require.Equal(t, []Scope{scope}, tb.inits)
		themes := msgsOf[ThemeMsg](tb)
		require.Len(t, themes, 1, "ThemeMsg once at Init")
		assert.True(t, themes[0].Theme.NoColor)
	}
	assert.True(t, app.probing, "the probe runs")
	assert.True(t, app.busy(), "the spinner turns while the probe runs")

	// The terminal answers its background: a new theme for every tab.
	app.Update(tea.BackgroundColorMsg{Color: lipgloss.Color("#FFFFFF")})
	for _, tb := range []*fakeTab{a, b} {
		themes := msgsOf[ThemeMsg](tb)
		require.Len(t, themes, 2)
		assert.False(t, themes[1].Theme.Dark)
	}
}

func TestProbeErrorGoesToTheStatusBarWithItsHint(t *testing.T) {
	ta := newTestApp(t)
	ta.send(probeDoneMsg{err: &backend.Error{Kind: backend.KindUnauthenticated, Op: "probe v2", Message: "unknown bearer token"}})
	s := ta.screen()
	assert.Contains(t, s, "✗ probe v2: unknown bearer token")
	assert.Contains(t, s, "check the token or login")
	assert.False(t, ta.probing)
}

func TestTabSwitchingByKeys(t *testing.T) {
	ta := newTestApp(t)
	require.Equal(t, 0, ta.active)
	ta.press("tab")
	assert.Equal(t, 1, ta.active)
	ta.press("tab")
	assert.Equal(t, 0, ta.active, "tab wraps around")
	ta.press("shift+tab")
	assert.Equal(t, 1, ta.active)
	ta.press("1")
	assert.Equal(t, 0, ta.active)
	ta.press("2")
	assert.Equal(t, 1, ta.active)
	assert.Contains(t, ta.screen(), "[2 Refunds]", "the active tab is bracketed")

	ta.press("4")
	assert.Equal(t, 1, ta.active, "no tab 4")
	assert.Contains(t, ta.screen(), "there is no stickers tab")
	ta.press("6")
	assert.Equal(t, 1, ta.active, "no Approvals tab outside paydash serve")
	assert.Contains(t, unwrapped(ta.screen()), "the approvals tab is in the team dashboard only")
	for _, tb := range ta.tabs {
		assert.Empty(t, keysOf(tb), "the shell kept its keys")
	}
}

func TestGlobalKeysDoNotStealFilterInput(t *testing.T) {
	ta := newTestApp(t)
	ta.tabs[0].ctx = keys.ContextFilter
	// What the tab says of opening a row does not stop enter applying the filter.
	ta.tabs[0].reasons = map[keys.Action]string{keys.ActOpen: "no payment is selected", keys.ActClose: "nothing to close"}
	typed := []string{"q", "1", "2", "?", ":", "r", "p", "m", "R", "/", "tab", "shift+tab", "enter", "esc"}
	for _, k := range typed {
		cmd := ta.press(k)
		require.False(t, quits(cmd), "%s must not quit", k)
	}
	assert.Equal(t, typed, keysOf(ta.tabs[0]))
	assert.Equal(t, 0, ta.active)
	assert.Nil(t, ta.modal)
	assert.False(t, ta.helpOpen)
	assert.Empty(t, msgsOf[RefreshMsg](ta.tabs[0]))
	assert.Empty(t, ta.tabs[1].got, "keys go to the active tab only")

	assert.True(t, quits(ta.press("ctrl+c")), "ctrl+c quits even in the filter")
}

func TestQuitKeys(t *testing.T) {
	ta := newTestApp(t)
	assert.True(t, quits(ta.press("q")))
	assert.True(t, quits(ta.press("ctrl+c")))
	ta.openConfirm(ConfirmSpec{Title: "Cancel hold", Verb: "Cancel hold"})
	assert.False(t, quits(ta.press("q")), "q means nothing in a modal")
	assert.True(t, quits(ta.press("ctrl+c")), "ctrl+c quits even in a modal")
}

func TestRefreshKeySendsManualRefreshToTheActiveTab(t *testing.T) {
	ta := newTestApp(t)
	ta.press("2", "r")
	assert.Equal(t, []RefreshMsg{{Manual: true, Now: t0}}, msgsOf[RefreshMsg](ta.tabs[1]))
	assert.Empty(t, msgsOf[RefreshMsg](ta.tabs[0]))
	assert.Empty(t, keysOf(ta.tabs[1]), "r is the shell's")
}

func TestPeriodicRefreshPausesWhileAModalIsOpen(t *testing.T) {
	ta := newTestApp(t)
	p := ta.tabs[0]

	ta.clock.advance(5 * time.Second)
	ta.tick()
	assert.Empty(t, msgsOf[RefreshMsg](p), "not yet")
	assert.Len(t, msgsOf[TickMsg](p), 1, "a TickMsg every second")
	assert.Len(t, msgsOf[TickMsg](ta.tabs[1]), 1, "to every tab")

	ta.clock.advance(5 * time.Second)
	ta.tick()
	require.Equal(t, []RefreshMsg{{Manual: false, Now: t0.Add(10 * time.Second)}}, msgsOf[RefreshMsg](p), "after 10 s")
	assert.Empty(t, msgsOf[RefreshMsg](ta.tabs[1]), "the active tab only")

	ta.openConfirm(ConfirmSpec{Title: "Cancel hold", Verb: "Cancel hold"})
	for range 30 {
		ta.clock.advance(time.Second)
		ta.tick()
	}
	assert.Len(t, msgsOf[RefreshMsg](p), 1, "paused while the modal is open")
	assert.Len(t, msgsOf[TickMsg](p), 32, "the clock still ticks")

	ta.press("esc")
	require.Nil(t, ta.modal)
	ta.clock.advance(time.Second)
	ta.tick()
	assert.Len(t, msgsOf[RefreshMsg](p), 2, "resumed after the modal closed")

	// The help overlay pauses it too.
	ta.press("?")
	ta.clock.advance(20 * time.Second)
	ta.tick()
	assert.Len(t, msgsOf[RefreshMsg](p), 2)
	ta.press("?")
	ta.tick()
	assert.Len(t, msgsOf[RefreshMsg](p), 3)
}

func TestOnlyOneClockRuns(t *testing.T) {
	ta := newTestApp(t)
	ta.clock.advance(time.Second)
	cmd := ta.send(shellTickMsg{seq: ta.tickSeq + 7})
	assert.Nil(t, cmd, "a tick of another chain is dropped, not re-armed")
	assert.Empty(t, ta.tabs[0].got)
	assert.NotNil(t, ta.tick(), "the current chain re-arms")
}

func TestSpinnerTicksOnlyWhileLoading(t *testing.T) {
	ta := newTestApp(t)
	require.False(t, ta.busy())
	assert.Nil(t, ta.send(spinner.TickMsg{ID: ta.spin.ID()}), "idle: the spinner's chain ends")
	assert.False(t, ta.spinning)

	ta.tabs[0].status.Loading = true
	cmd := ta.send(struct{}{})
	require.True(t, ta.spinning)
	msgs := run(cmd)
	var tick spinner.TickMsg
	found := false
	for _, m := range msgs {
		if tm, ok := m.(spinner.TickMsg); ok {
			tick, found = tm, true
		}
	}
	require.True(t, found, "the spinner starts")
	assert.Contains(t, ta.screen(), "loading")
	assert.NotNil(t, ta.send(tick), "busy: the spinner keeps turning")

	ta.tabs[0].status.Loading = false
	assert.Nil(t, ta.send(spinner.TickMsg{ID: ta.spin.ID()}))
	assert.False(t, ta.spinning)
	assert.NotContains(t, ta.screen(), "loading")
}

func TestPeriodChooserSendsScopeToEveryTab(t *testing.T) {
	ta := newTestApp(t)
	ta.press("p")
	require.NotNil(t, ta.modal)
	s := ta.screen()
	assert.Contains(t, s, "> 7 days  (current)")
	ta.press("k", "enter")
	require.Nil(t, ta.modal)
	for _, tb := range ta.tabs {
		got := msgsOf[ScopeMsg](tb)
		require.Len(t, got, 1, tb.title)
		assert.Equal(t, Scope{
			MerchantID: "10000001", Preset: PresetToday,
			Start: time.Date(2026, 11, 21, 0, 0, 0, 0, time.UTC), End: t0.Add(time.Minute),
		}, got[0].Scope)
	}
	assert.Equal(t, PresetToday, ta.scope.Preset)
	assert.Contains(t, ta.screen(), "today")

	ta.press("p", "j", "j", "enter")
	got := msgsOf[ScopeMsg](ta.tabs[1])
	require.Len(t, got, 2)
	assert.Equal(t, Preset30Days, got[1].Scope.Preset)
	assert.Equal(t, time.Date(2026, 10, 23, 0, 0, 0, 0, time.UTC), got[1].Scope.Start)

	// esc cancels without a new scope.
	ta.press("p", "k", "esc")
	assert.Len(t, msgsOf[ScopeMsg](ta.tabs[1]), 2)
}

func TestCustomPeriodIsValidated(t *testing.T) {
	ta := newTestApp(t)
	ta.press("p", "G", "enter")
	require.NotNil(t, ta.modal)
	assert.Contains(t, ta.screen(), "From")

	// Clear "from" and type a bad date.
	for range 10 {
		ta.press("backspace")
	}
	ta.typeText("2026-13-01")
	ta.press("enter")
	require.NotNil(t, ta.modal, "refused")
	assert.Contains(t, ta.screen(), "From: write the date as yyyy-mm-dd")

	ta.typeText("x")
	assert.Contains(t, unwrapped(ta.screen()), "digits and dashes only")

	for range 10 {
		ta.press("backspace")
	}
	ta.typeText("2026-11-25")
	ta.press("enter")
	require.NotNil(t, ta.modal)
	assert.Contains(t, ta.screen(), "From (2026-11-25) is after To (2026-11-21)")

	for range 10 {
		ta.press("backspace")
	}
	ta.typeText("2026-11-01")
	ta.press("tab")
	for range 10 {
		ta.press("backspace")
	}
	ta.typeText("2026-11-14")
	ta.press("enter")
	require.Nil(t, ta.modal)
	for _, tb := range ta.tabs {
		got := msgsOf[ScopeMsg](tb)
		require.Len(t, got, 1)
		assert.Equal(t, Scope{
			MerchantID: "10000001", Preset: PresetCustom,
			Start: time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC),
			End:   time.Date(2026, 11, 15, 0, 0, 0, 0, time.UTC), // the 14th included
		}, got[0].Scope)
	}
	assert.Contains(t, ta.screen(), "2026-11-01…2026-11-14")
	assert.Empty(t, keysOf(ta.tabs[0]), "the form's keys stay in the form")
}

func TestMerchantSwitcherSendsScopeToEveryTab(t *testing.T) {
	ta := newTestApp(t)
	ta.press("m")
	require.NotNil(t, ta.modal)
	assert.Contains(t, ta.screen(), "> 10000001  Daily Grind Coffee  (current)")
	ta.press("j", "enter")
	require.Nil(t, ta.modal)
	for _, tb := range ta.tabs {
		got := msgsOf[ScopeMsg](tb)
		require.Len(t, got, 1)
		assert.Equal(t, "10000002", got[0].Scope.MerchantID)
		assert.Equal(t, Preset7Days, got[0].Scope.Preset, "the period stays")
	}
	assert.Contains(t, ta.screen(), "merchant 10000002 Page Turner Books")

	// Choosing the current one changes nothing.
	ta.press("m", "enter")
	assert.Len(t, msgsOf[ScopeMsg](ta.tabs[0]), 1)
}

func TestMerchantSwitcherGreyedWithOneMerchant(t *testing.T) {
	ta := newTestApp(t, withMerchants("10000001"))
	ta.press("m")
	assert.Nil(t, ta.modal)
	assert.Contains(t, ta.screen(), "only one merchant is configured")
}

func TestJumpPromptSendsJumpMsgToTheFirstTab(t *testing.T) {
	ta := newTestApp(t)
	ta.press("2", ":")
	require.NotNil(t, ta.modal)
	ta.press("enter")
	require.NotNil(t, ta.modal, "an empty jump is refused")
	assert.Contains(t, ta.screen(), "type a payment id or an order number")

	ta.typeText("5561 q")
	ta.press("backspace", "backspace", "enter")
	require.Nil(t, ta.modal)
	assert.Equal(t, 0, ta.active, "switched to Payments")
	assert.Equal(t, []JumpMsg{{Query: "5561"}}, msgsOf[JumpMsg](ta.tabs[0]))
	assert.Empty(t, msgsOf[JumpMsg](ta.tabs[1]))
	assert.Empty(t, keysOf(ta.tabs[0]))
	assert.Empty(t, keysOf(ta.tabs[1]), "the prompt kept its keys")

	ta.press(":")
	ta.typeText("77")
	ta.press("esc")
	assert.Nil(t, ta.modal)
	assert.Len(t, msgsOf[JumpMsg](ta.tabs[0]), 1, "esc cancels")
}

func TestDisabledKeyShowsItsReason(t *testing.T) {
	ta := newTestApp(t)
	ta.send(tea.WindowSizeMsg{Width: 160, Height: 30})
	ta.tabs[0].reasons = map[keys.Action]string{
		keys.ActRefund:  "only a settled payment can be refunded",
		keys.ActRevoke:  "", // does not exist on this tab
		keys.ActRefresh: "",
	}
	ta.press("R")
	assert.Empty(t, keysOf(ta.tabs[0]), "a greyed key does nothing")
	s := ta.screen()
	assert.Contains(t, s, "! only a settled payment can be refunded")
	assert.Contains(t, s, "[R] refund", "greyed in the help bar")

	ta.press("v")
	assert.Equal(t, []string{"v"}, keysOf(ta.tabs[0]), "an action the tab does not have is left to the tab")

	ta.press("r")
	assert.Len(t, msgsOf[RefreshMsg](ta.tabs[0]), 1, "a tab cannot hide the shell's refresh")

	ta.tabs[0].reasons[keys.ActPeriod] = "the period is fixed here"
	ta.press("p")
	assert.Nil(t, ta.modal)
	assert.Contains(t, ta.screen(), "the period is fixed here")
}

func TestOtherKeysGoToTheActiveTab(t *testing.T) {
	ta := newTestApp(t)
	ta.press("j", "enter", "/")
	assert.Equal(t, []string{"j", "enter", "/"}, keysOf(ta.tabs[0]))
	assert.Empty(t, ta.tabs[1].got)

	type result struct{ id int }
	ta.send(result{7})
	assert.Equal(t, []tea.Msg{result{7}}, ta.tabs[1].got, "results go to every tab, active or not")
}

func TestSwitchTabMsgDeliversThen(t *testing.T) {
	ta := newTestApp(t)
	ta.press("2")
	ta.send(SwitchTabMsg{Tab: TabPayments, Then: JumpMsg{Query: "43149010"}})
	assert.Equal(t, 0, ta.active)
	assert.Equal(t, []JumpMsg{{Query: "43149010"}}, msgsOf[JumpMsg](ta.tabs[0]))
	assert.Empty(t, msgsOf[JumpMsg](ta.tabs[1]))

	ta.send(SwitchTabMsg{Tab: TabTokens})
	assert.Equal(t, 0, ta.active)
	assert.Contains(t, ta.screen(), `there is no tokens tab`)
}

func TestOpenDialogMsgPushesAndTakesKeys(t *testing.T) {
	ta := newTestApp(t)
	m := &recordingModal{}
	ta.send(OpenDialogMsg{Modal: m})
	ta.press("j", "r", "x")
	assert.Equal(t, []string{"j", "r", "x"}, m.keys)
	assert.Empty(t, keysOf(ta.tabs[0]))
	assert.Empty(t, msgsOf[RefreshMsg](ta.tabs[0]))
	assert.Contains(t, ta.screen(), "recording modal")
	ta.press("esc")
	assert.Nil(t, ta.modal)
}

type recordingModal struct{ keys []string }

func (m *recordingModal) Update(msg tea.Msg, _ time.Time) (Modal, tea.Cmd, bool) {
	if k, ok := msg.(tea.KeyPressMsg); ok {
		if k.String() == "esc" {
			return m, nil, true
		}
		m.keys = append(m.keys, k.String())
	}
	return m, nil, false
}
func (m *recordingModal) View(int, int) string  { return "recording modal" }
func (m *recordingModal) Context() keys.Context { return keys.ContextModal }

func TestHelpOverlay(t *testing.T) {
	ta := newTestApp(t)
	ta.press("?")
	require.True(t, ta.helpOpen)
	s := ta.screen()
	assert.Contains(t, s, "All keys")
	assert.Contains(t, s, "Navigation")
	assert.Contains(t, s, "esc/? close help")
	ta.press("j")
	assert.Empty(t, keysOf(ta.tabs[0]), "keys do not reach the tab under the help")
	ta.press("esc")
	assert.False(t, ta.helpOpen)
	ta.press("?", "?")
	assert.False(t, ta.helpOpen, "? closes it too")
}

func TestToastsExpireAndStackAtMostThree(t *testing.T) {
	ta := newTestApp(t)
	ta.send(ToastMsg{Level: ToastSuccess, Text: "Refund 7000123 of 150.00 RUB made"})
	assert.Contains(t, ta.screen(), "✓ Refund 7000123 of 150.00 RUB made")
	ta.clock.advance(3 * time.Second)
	ta.tick()
	assert.Contains(t, ta.screen(), "Refund 7000123")
	ta.clock.advance(1500 * time.Millisecond)
	ta.tick()
	assert.NotContains(t, ta.screen(), "Refund 7000123", "gone after about 4 s")

	for _, s := range []string{"one", "two", "three", "four"} {
		ta.send(ToastMsg{Level: ToastInfo, Text: "toast " + s})
	}
	s := ta.screen()
	assert.NotContains(t, s, "toast one")
	for _, w := range []string{"toast two", "toast three", "toast four"} {
		assert.Contains(t, s, w)
	}

	ta.send(ToastMsg{Level: ToastError, Text: "bad\x1b[31mred"})
	assert.NotContains(t, ta.View().Content, "\x1b[31m", "toast text is cleaned")
}

func TestStatusBar(t *testing.T) {
	ta := newTestApp(t)
	ta.tabs[0].status = TabStatus{Rows: 1250, Shown: 37, Filter: "ivan", Refreshed: t0}
	ta.send(ta.tabs[0].status) // any message: the shell notes the refresh
	ta.send(tea.WindowSizeMsg{Width: 160, Height: 48})
	bar := statusLine(ta)
	for _, want := range []string{"sandbox", "127.0.0.1:8443", "merchant 10000001", "v2+v1",
		"refreshed 14:03:22", "7 days", "37 of 1,250+ rows", `filter "ivan"`} {
		assert.Contains(t, bar, want)
	}

	ta.be.desc = backend.Description{BaseURL: "https://pay.example.com/api", Interfaces: []backend.Interface{backend.V1}, ReadOnly: true}
	ta.send(probeDoneMsg{})
	bar = statusLine(ta)
	assert.Contains(t, bar, "LIVE read-only")
	assert.Contains(t, bar, "pay.example.com")
	assert.Contains(t, bar, "│ v1 │")
	assert.NotContains(t, bar, "sandbox")

	// Errors are not in the status bar: they have their own lines above it.
	ta.send(ErrorMsg{Err: errors.New("list payments: timeout"), Hint: "check the network and press r"})
	assert.NotContains(t, statusLine(ta), "timeout")
}

// An error is shown whole above the status bar, with how to dismiss it; it
// stays until dismissed or replaced, and one that is not sticky also goes
// with a successful refresh.
func TestErrorsAreShownWholeUntilDismissed(t *testing.T) {
	ta := newTestApp(t)
	long := &backend.Error{Kind: backend.KindNotAuthorized, Op: "capture payment 43099779",
		Message: "the token may only read\x1b]0;x\x07 (it was issued read-only for the reporting robot)"}
	ta.send(ErrorMsg{Err: long, Sticky: true})
	s := unwrapped(ta.screen())
	assert.Contains(t, s, "✗ capture payment 43099779: the token may only read (it was issued read-only for the reporting robot)"+
		" — these credentials may not do this; ask for an account with the right role (esc dismisses · M all messages)",
		"whole, wrapped, at 80 columns")
	assert.NotContains(t, ta.View().Content, "\x1b]0;x", "server text is cleaned")
	assert.Len(t, msgsOf[SizeMsg](ta.tabs[0]), 1, "the tab area shrank for the error's lines")

	ta.tabs[0].status.Refreshed = t0.Add(time.Minute)
	ta.send(struct{}{})
	assert.Contains(t, unwrapped(ta.screen()), "the token may only read", "a refresh does not clear an action's error")

	ta.press("esc")
	assert.NotContains(t, unwrapped(ta.screen()), "the token may only read", "esc in the list dismisses it")
	assert.Len(t, msgsOf[SizeMsg](ta.tabs[0]), 2, "and the tab area grows back")
	assert.Empty(t, keysOf(ta.tabs[0]), "that esc was the shell's")
	ta.press("esc")
	assert.Equal(t, []string{"esc"}, keysOf(ta.tabs[0]), "with no error esc goes to the tab")

	ta.send(ErrorMsg{Err: errors.New("list payments: timeout"), Hint: "check the network and press r"})
	assert.Contains(t, unwrapped(ta.screen()), "✗ list payments: timeout — check the network and press r")
	ta.tabs[0].status.Refreshed = t0.Add(2 * time.Minute)
	ta.send(struct{}{})
	assert.NotContains(t, ta.screen(), "timeout", "a successful refresh clears a list's error")

	// Longer than three lines: the messages view has it whole.
	ta.send(ErrorMsg{Err: errors.New(strings.Repeat("a very long reason ", 30)), Sticky: true})
	assert.Contains(t, unwrapped(ta.screen()), "… M shows it whole")
	ta.press("M")
	assert.Contains(t, unwrapped(ta.screen()), "Messages")
	assert.Contains(t, unwrapped(ta.screen()), strings.TrimSpace(strings.Repeat("a very long reason ", 30)))
}

func statusLine(ta *testApp) string {
	lines := splitLines(ta.screen())
	return lines[len(lines)-2]
}

// Quitting while an action waits for its answer would leave its outcome
// unknown: q waits for the answer (at most QuitWait) and then quits;
// ctrl+c twice quits at once, journaling the action as abandoned.
func TestQuitWaitsForActionsInFlight(t *testing.T) {
	ta := newTestApp(t)
	ta.tabs[1].status.Sending = 1 // an action of an inactive tab counts too
	assert.False(t, quits(ta.press("q")), "q does not quit while a refund is being sent")
	assert.Contains(t, unwrapped(ta.screen()), "Quitting once the action being sent is answered (at most 10s)")
	assert.Contains(t, statusLine(ta), "quitting after the answer")
	ta.tabs[1].status.Sending = 0
	assert.True(t, quits(ta.send(struct{}{})), "the answer came: it quits")
	assert.Empty(t, msgsOf[AbandonMsg](ta.tabs[1]), "nothing was abandoned")

	// The answer does not come: after QuitWait the action is journaled as
	// abandoned by its tab, then the program quits.
	ta = newTestApp(t)
	ta.tabs[0].status.Sending = 1
	ta.press("q")
	ta.clock.advance(QuitWait - time.Second)
	assert.False(t, quits(ta.tick()))
	ta.clock.advance(time.Second)
	msgs := run(ta.tick())
	assert.NotEmpty(t, msgsOf[AbandonMsg](ta.tabs[0]), "every tab is told to journal its actions as abandoned")
	assert.Contains(t, msgs, tea.Msg(tea.QuitMsg{}))

	// ctrl+c twice, or a second signal, does not wait.
	ta = newTestApp(t)
	ta.tabs[0].status.Sending = 2
	assert.False(t, quits(ta.press("ctrl+c")), "the first ctrl+c waits")
	assert.Contains(t, unwrapped(ta.screen()), "the 2 actions being sent are answered")
	assert.True(t, quits(ta.press("ctrl+c")), "a second ctrl+c forces quitting")
	assert.NotEmpty(t, msgsOf[AbandonMsg](ta.tabs[0]))

	ta = newTestApp(t)
	ta.tabs[0].status.Sending = 1
	assert.False(t, quits(ta.send(ShutdownMsg{Signal: "terminated"})))
	assert.Contains(t, unwrapped(ta.screen()), "a second signal quits at once")
	assert.True(t, quits(ta.send(ShutdownMsg{Signal: "terminated"})))

	ta = newTestApp(t)
	assert.True(t, quits(ta.send(ShutdownMsg{Signal: "hangup"})), "nothing in flight: a signal quits at once")
}

// At 80x24 the full help is taller than the window: it scrolls instead of
// hiding its end.
func TestFullHelpScrollsWhenTallerThanTheWindow(t *testing.T) {
	ta := newTestApp(t)
	ta.press("?")
	first := unwrapped(ta.screen())
	require.Contains(t, first, "lines 1–")
	assert.NotContains(t, first, "q/ctrl+c", "the end of the help is below the window at first")
	for range 40 {
		ta.press("j")
	}
	last := unwrapped(ta.screen())
	assert.Contains(t, last, "q/ctrl+c", "scrolling reaches the end")
	assert.NotContains(t, last, "lines 1–")
	ta.press("esc")
	ta.press("?")
	assert.Contains(t, unwrapped(ta.screen()), "lines 1–", "opening the help again starts at the top")
}

// An error sent with a Key is cleared by a ClearErrorMsg with that Key (a
// jump that found, after one that did not); another error stays.
func TestClearErrorMsgClearsOnlyItsOwnError(t *testing.T) {
	ta := newTestApp(t)
	ta.send(ErrorMsg{Err: errors.New("No payment with order number X-1"), Sticky: true, Key: "jump"})
	ta.send(ClearErrorMsg{Key: "other"})
	assert.Contains(t, ta.screen(), "No payment with order number X-1")
	ta.send(ClearErrorMsg{Key: "jump"})
	assert.NotContains(t, ta.screen(), "No payment with order number X-1")

	ta.send(ErrorMsg{Err: errors.New("No payment with order number X-2"), Sticky: true, Key: "jump"})
	ta.send(ErrorMsg{Err: errors.New("capture failed"), Sticky: true})
	ta.send(ClearErrorMsg{Key: "jump"})
	assert.Contains(t, ta.screen(), "capture failed", "replaced: the jump's error is no longer shown")
}
