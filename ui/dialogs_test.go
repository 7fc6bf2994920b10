package ui

import (
	"errors"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend/money"
)

// The shell's half of an action's path (docs/architecture.md): from the
// action key to the dialog, one dialog at a time, and only what the user
// can see acts.

func lastTicket(t *testing.T, tb *fakeTab) int {
	t.Helper()
	acts := msgsOf[ActionMsg](tb)
	require.NotEmpty(t, acts, "the tab was asked to prepare an action")
	return acts[len(acts)-1].Ticket
}

// An action key puts up the preparing dialog in the same update, so that
// keys typed while the tab reads the payment cannot reach the list.
func TestActionKeyOpensThePreparingDialogAtOnce(t *testing.T) {
	ta := newTestApp(t)
	ta.press("c")
	require.NotNil(t, ta.modal)
	assert.IsType(t, &preparingModal{}, ta.modal)
	assert.Equal(t, []ActionMsg{{Action: "capture", Ticket: 1}}, msgsOf[ActionMsg](ta.tabs[0]))
	s := unwrapped(ta.screen())
	assert.Contains(t, s, "Preparing: capture hold")
	assert.Contains(t, s, "reading the latest state from the service")
	assert.Contains(t, s, "esc gives up")
	assert.Contains(t, s, "loading", "the spinner turns")

	// A reported bug: with latency, "c" then "e 2000 enter y" switched tabs,
	// opened something and copied an id. Now every key waits here.
	ta.press("e", "2", "0", "0", "0", "enter", "y", "c", "j")
	assert.Empty(t, keysOf(ta.tabs[0]), "no key reached the list")
	assert.Len(t, msgsOf[ActionMsg](ta.tabs[0]), 1, "the action key again stacks nothing")
	assert.Equal(t, 0, ta.active, "2 did not switch tabs")
	require.NotNil(t, ta.modal)
	assert.Contains(t, unwrapped(ta.screen()), "(9 ignored)")

	p := &confirmProbe{}
	ta.send(ConfirmDialog(1, refundSpec(p)))
	require.NotNil(t, ta.modal, "the confirmation replaces the preparing dialog")
	s = unwrapped(ta.screen())
	assert.Contains(t, s, "9 keys ignored — the dialog was being prepared")
	ta.clock.advance(ConfirmGuard)
	ta.press("y")
	assert.Zero(t, p.calls, "after keys were ignored the first y says seen")
	ta.press("y")
	assert.Zero(t, p.calls, "and the y that sends wants a pause after it")
	ta.clock.advance(ConfirmGuard)
	ta.press("y")
	assert.Zero(t, p.calls, "that y was ignored too: seen again")
	ta.clock.advance(ConfirmGuard)
	ta.press("y")
	assert.Equal(t, []money.Amount{rub("500")}, p.amounts)
	assert.Nil(t, ta.modal)
}

func TestGivingUpDropsTheLateDialog(t *testing.T) {
	ta := newTestApp(t)
	ta.press("R")
	ticket := lastTicket(t, ta.tabs[0])
	ta.press("esc")
	assert.Nil(t, ta.modal, "esc gives up")
	ta.send(ConfirmDialog(ticket, refundSpec(&confirmProbe{})))
	assert.Nil(t, ta.modal, "the dialog prepared for it never opens")

	// The next key press starts afresh, with a new ticket.
	ta.press("R")
	assert.Greater(t, lastTicket(t, ta.tabs[0]), ticket)
	ta.send(ConfirmDialog(ticket, refundSpec(&confirmProbe{})))
	assert.IsType(t, &preparingModal{}, ta.modal, "an old ticket does not replace the new preparation")
}

func TestARefusedPreparationSaysWhy(t *testing.T) {
	ta := newTestApp(t)
	ta.press("R")
	ta.send(CloseDialogMsg{Ticket: lastTicket(t, ta.tabs[0]), Level: ToastWarning, Text: "nothing is left to refund"})
	assert.Nil(t, ta.modal)
	assert.Contains(t, ta.screen(), "nothing is left to refund")
}

// A read before the dialog that failed says why in full, however long:
// the error stays above the status bar until dismissed, never cut to a
// toast's line.
func TestAFailedReadBeforeTheDialogIsShownWhole(t *testing.T) {
	ta := newTestApp(t)
	ta.press("R")
	why := "Could not read payment 43019998 before the refund: the service answered something unreadable " +
		"(malformed answer: unexpected end of JSON input) — try again; the outcome of nothing is in doubt, nothing was sent"
	ta.send(CloseDialogMsg{Ticket: lastTicket(t, ta.tabs[0]), Level: ToastError, Text: why})
	assert.Nil(t, ta.modal)
	assert.Contains(t, unwrapped(ta.screen()), why)
	ta.clock.advance(time.Minute)
	ta.tick()
	assert.Contains(t, unwrapped(ta.screen()), why, "it stays until dismissed")
}

// A reported bug: "c j c under latency opens two capture dialogs". A dialog
// never stacks on another, whatever asks for it.
func TestADialogNeverStacks(t *testing.T) {
	ta := newTestApp(t)
	p1 := &confirmProbe{}
	ta.openConfirm(refundSpec(p1))
	require.NotNil(t, ta.modal)
	first := ta.modal

	ta.send(ConfirmDialog(1, refundSpec(&confirmProbe{})))
	ta.send(ConfirmDialog(99, refundSpec(&confirmProbe{})))
	ta.send(OpenDialogMsg{Modal: &recordingModal{}})
	ta.send(NoticeDialog(Notice{ID: "a", Text: "an action of the last run was found made"}))
	require.NotNil(t, ta.modal)
	assert.Same(t, first, ta.modal)
	assert.Contains(t, ta.screen(), "an action of the last run", "a notice shows as a toast beside the dialog")

	ta.clock.advance(ConfirmGuard)
	ta.press("n")
	assert.Nil(t, ta.modal, "after n nothing is left behind")
}

// A reported bug: open the dialog at 120x40, resize to 60x20, press y, resize
// back: the payment was captured. Now nothing acts while the dialog is not
// on screen, and when it comes back it wants a pause, y (seen), a pause, y.
func TestNoKeyActsWhileTheWindowIsTooSmall(t *testing.T) {
	ta := newTestApp(t)
	ta.send(tea.WindowSizeMsg{Width: 120, Height: 40})
	p := &confirmProbe{}
	ta.openConfirm(refundSpec(p))
	ta.clock.advance(time.Second)

	ta.send(tea.WindowSizeMsg{Width: 60, Height: 20})
	assert.Contains(t, unwrapped(ta.screen()), "make the window at least 80x24")
	ta.press("y", "right", "enter")
	ta.send(tea.PasteMsg{Content: "y"})
	assert.Zero(t, p.calls)

	ta.send(tea.WindowSizeMsg{Width: 120, Height: 40})
	require.NotNil(t, ta.modal)
	assert.Contains(t, unwrapped(ta.screen()), "4 keys ignored — the dialog was not fully on screen")
	ta.press("y")
	assert.Zero(t, p.calls, "the guard starts again when it reappears")
	ta.clock.advance(ConfirmGuard)
	ta.press("y")
	assert.Zero(t, p.calls, "the first y only says seen")
	ta.clock.advance(ConfirmGuard)
	ta.press("y")
	assert.Equal(t, 1, p.calls)

	// Without a dialog, keys do not reach the list either.
	ta.send(tea.WindowSizeMsg{Width: 60, Height: 20})
	ta.press("j", "R", "enter")
	assert.Empty(t, keysOf(ta.tabs[0]))
	assert.Nil(t, ta.modal)
	assert.False(t, quits(ta.press("x")))
	assert.True(t, quits(ta.press("q")), "q still quits")
}

// A dialog cut short by a small window (an error line, long facts) acts on
// nothing until it shows whole.
func TestADialogNotDrawnInFullActsOnNothing(t *testing.T) {
	ta := newTestApp(t)
	p := &confirmProbe{}
	spec := refundSpec(p)
	for range 12 {
		spec.Lines = append(spec.Lines, "one more fact about this payment that the user must be able to read")
	}
	ta.openConfirm(spec)
	ta.clock.advance(time.Second)
	assert.Contains(t, unwrapped(ta.screen()), "make the window taller to see all of it")
	ta.press("y", "y")
	assert.Zero(t, p.calls)
	ta.send(tea.WindowSizeMsg{Width: 100, Height: 40})
	ta.clock.advance(ConfirmGuard)
	ta.press("y", "y")
	assert.Zero(t, p.calls, "seen, then one too soon")
	ta.clock.advance(ConfirmGuard)
	ta.press("y")
	ta.clock.advance(ConfirmGuard)
	ta.press("y")
	assert.Equal(t, 1, p.calls)
}

func TestToastsNeverCoverTheDialog(t *testing.T) {
	ta := newTestApp(t)
	ta.openConfirm(refundSpec(&confirmProbe{}))
	for i := range 3 {
		ta.send(ToastMsg{Level: ToastSuccess, Text: strings.Repeat("toast ", 3+i)})
	}
	lines := splitLines(ta.screen())
	box := map[int]bool{}
	for i, l := range lines {
		if strings.Contains(l, "│") || strings.Contains(l, "╭") || strings.Contains(l, "╰") {
			box[i] = true
		}
	}
	for i, l := range lines {
		if strings.Contains(l, "✓ toast") {
			assert.False(t, box[i], "line %d has a toast over the dialog: %q", i, l)
		}
	}
	ta.clock.advance(time.Minute)
	ta.tick()
	assert.Contains(t, ta.screen(), "toast", "toasts wait while a dialog is open")
	ta.press("esc")
	ta.clock.advance(toastFor + time.Second)
	ta.tick()
	assert.NotContains(t, ta.screen(), "toast", "and go after their time once it closed")
}

func TestToastsAreShownWholeAndKeptInTheMessages(t *testing.T) {
	ta := newTestApp(t)
	long := "A capture of 30,800.00 RUB for payment 43099779 was refused: the token may only read (code not_authorized)"
	ta.send(ToastMsg{Level: ToastError, Text: long})
	assert.Contains(t, unwrapped(ta.screen()), long, "wrapped, not cut")
	ta.clock.advance(toastFor + time.Second)
	ta.tick()
	assert.NotContains(t, unwrapped(ta.screen()), "43099779")

	ta.press("M")
	s := unwrapped(ta.screen())
	assert.Contains(t, s, "Messages")
	assert.Contains(t, s, "14:03:22 ✗ "+long)
	assert.NotContains(t, s, "✗ ✗")
	ta.press("j")
	assert.Empty(t, keysOf(ta.tabs[0]), "keys do not reach the tab under the messages")
	ta.press("esc")
	assert.NotContains(t, ta.screen(), "Messages")
	ta.press("?")
	for range 30 {
		ta.press("j")
	}
	assert.Contains(t, unwrapped(ta.screen()), "M messages", "the key is in the full help")
}

func TestErrorsAreKeptInTheMessagesOnce(t *testing.T) {
	ta := newTestApp(t)
	ta.send(ErrorMsg{Err: errors.New("list payments: timeout"), Hint: "press r"})
	ta.press("M")
	s := unwrapped(ta.screen())
	assert.Contains(t, s, "14:03:22 ✗ list payments: timeout — press r")
	assert.NotContains(t, s, "✗ ✗")
}

func TestNoticesOpenAndUpdateInPlace(t *testing.T) {
	ta := newTestApp(t)
	ta.send(NoticeDialog(Notice{Title: "Actions left without an outcome", ID: "a1", Level: ToastInfo,
		Text: "Refund of 500.00 RUB for payment 43149010: checking…"}))
	require.NotNil(t, ta.modal)
	ta.send(NoticeDialog(Notice{ID: "a2", Level: ToastInfo, Text: "Capture of 150.00 RUB for payment 43149009: checking…"}))
	ta.send(NoticeDialog(Notice{ID: "a1", Level: ToastSuccess, Text: "Refund 7000123 of 500.00 RUB made for payment 43149010 — Pending"}))
	s := unwrapped(ta.screen())
	assert.Contains(t, s, "Actions left without an outcome")
	assert.Contains(t, s, "✓ Refund 7000123 of 500.00 RUB made")
	assert.NotContains(t, s, "43149010: checking", "the line was replaced")
	assert.Contains(t, s, "Capture of 150.00 RUB for payment 43149009: checking")
	ta.press("enter")
	assert.Nil(t, ta.modal)
	ta.press("M")
	assert.Contains(t, unwrapped(ta.screen()), "Refund 7000123 of 500.00 RUB made", "kept for later")
}

func TestStatusBarSaysWhatActionsAreDoing(t *testing.T) {
	ta := newTestApp(t)
	ta.tabs[1].status = TabStatus{Checking: 1}
	ta.tabs[0].status = TabStatus{Sending: 2}
	ta.send(struct{}{})
	bar := statusLine(ta)
	assert.Contains(t, bar, "1 outcome unknown — checking", "from any tab")
	assert.Contains(t, bar, "→ 2 actions sending")
}

// A y pressed once too often (y y y at a dialog that wanted two) must not
// act on the list behind it: the dialog's own keys within ConfirmGuard of
// a confirmation closing are dropped and said to be; other keys act.
func TestKeysRightAfterAConfirmationCloseDoNotReachTheList(t *testing.T) {
	ta := newTestApp(t)
	ta.press("R")
	p := &confirmProbe{}
	ta.send(ConfirmDialog(lastTicket(t, ta.tabs[0]), refundSpec(p)))
	ta.clock.advance(ConfirmGuard)
	ta.press("y", "y", "n", "j")
	assert.Equal(t, 1, p.calls)
	assert.Nil(t, ta.modal)
	assert.Len(t, keysOf(ta.tabs[0]), 1, "the extra y and n did not reach the list; j did")
	assert.Empty(t, msgsOf[ActionMsg](ta.tabs[0])[1:], "n opened nothing")
	assert.Contains(t, unwrapped(ta.screen()), "ignored: it came just after the dialog closed")

	ta.press("y")
	assert.Len(t, keysOf(ta.tabs[0]), 2, "after another key, y acts on the list at once")
	ta.clock.advance(ConfirmGuard)
	ta.press("y")
	assert.Len(t, keysOf(ta.tabs[0]), 3, "and later too")
}

// Keys typed while the dialog was being prepared are ignored like keys
// inside its guard, and when they would have changed the amount the
// dialog says so in words: the amount is still what it shows.
func TestEditsTypedWhileADialogIsPreparedAreSaidNotTaken(t *testing.T) {
	ta := newTestApp(t)
	ta.press("R")
	ticket := lastTicket(t, ta.tabs[0])
	ta.press("e", "backspace", "backspace", "backspace", "1", "5", "enter")
	ta.send(ConfirmDialog(ticket, refundSpec(&confirmProbe{})))
	require.IsType(t, &confirmModal{}, ta.modal)
	screen := unwrapped(ta.screen())
	assert.Contains(t, screen, "7 keys ignored")
	assert.Contains(t, screen, "what you typed was not taken: the amount is still 500.00 RUB")
	assert.Contains(t, screen, "[500.00")
}
