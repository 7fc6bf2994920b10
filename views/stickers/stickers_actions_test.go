package stickers

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend"
	"paydash/backend/journal"
	"paydash/backend/money"
	"paydash/backend/sandbox"
	"paydash/keys"
	"paydash/ui"
	"paydash/views/internal/viewtest"
)

// Switching a sticker on and off (t) against the real sandbox: the
// confirmation names the sticker as the service has it now, y sends the
// switch once, and the list, the pane and the service agree afterwards.

// yes shows spec in the shell's confirmation dialog and presses y once
// its guard is over, as the shell does; it returns the command y gave.
func (e *env) yes(spec ui.ConfirmSpec) tea.Cmd {
	e.T.Helper()
	opened := e.Now()
	c := ui.NewConfirm(spec, opened, keys.Default(), ui.NewTheme(true, true))
	_, cmd, closed := c.Update(viewtest.KeyPress("y"), opened.Add(ui.ConfirmGuard))
	require.True(e.T, closed, "y closes the dialog")
	require.NotNil(e.T, cmd, "y sends")
	return cmd
}

// stickerInService is the sticker as the service has it, read through the
// backend.
func (e *env) stickerInService(id string) backend.Sticker {
	e.T.Helper()
	s, err := e.B.GetSticker(context.Background(), id)
	require.NoError(e.T, err)
	return s
}

func TestStickerToggleOffThenOnAgain(t *testing.T) {
	t.Parallel()
	e, s := started(t, viewtest.Opts{Changes: true}, 120, 40)
	st := viewtest.Selected(t, s.List)
	require.True(t, st.Active(), "the newest sticker of the seed is Active")
	id := st.ID

	e.Press("enter")
	require.True(t, s.Pane.IsOpen())
	assert.Equal(t, "Switch off sticker "+id, s.ActionTarget(keys.ActToggleSticker), "the preparing dialog's title")
	ok, why := e.Tab.Available(keys.ActToggleSticker)
	require.True(t, ok, why)

	// Off.
	e.Act(keys.ActToggleSticker)
	spec, found := e.ConfirmSpec()
	require.True(t, found, "a confirmation is asked for; the shell got %v", e.Shell)
	assert.Equal(t, "Switch off sticker "+id, spec.Title)
	assert.Equal(t, "Switch off", spec.Verb)
	assert.True(t, spec.Danger, "switching off refuses payers")
	assert.Nil(t, spec.Amount, "nothing to type")
	assert.Nil(t, spec.Fixed, "no money moves")
	assert.Equal(t, []string{
		"Sticker " + id + " · " + st.Description + " · merchant " + e.Scope.MerchantID,
		"Amount: " + stickerAmount(st),
		"Now: Active → after: Inactive",
		"Payers who scan it are refused until it is switched on again.",
		"Sent through: v2 (the current interface)",
	}, spec.Lines)

	send := e.yes(spec)
	// From y on, the sticker is under way: nothing else is sent on it.
	ok, why = e.Tab.Available(keys.ActToggleSticker)
	assert.False(t, ok)
	assert.Equal(t, "the switch-off of sticker "+id+" is being sent; wait for its answer", why)
	assert.Equal(t, 1, e.Tab.Status().Sending)
	pane := ansi.Strip(e.View(120, 40))
	assert.Contains(t, pane, "→ Switch-off of sticker "+id)
	assert.Contains(t, pane, "being sent, the answer awaited")
	e.Run(send)

	ts := e.Toasts()
	require.Len(t, ts, 1)
	assert.Equal(t, ui.ToastSuccess, ts[0].Level)
	assert.Equal(t, "Sticker "+id+" switched off — now Inactive", ts[0].Text)
	assert.Empty(t, e.Errors())
	assert.Zero(t, e.Tab.Status().Sending)
	assert.Equal(t, "Inactive", e.stickerInService(id).Status, "the service agrees")
	inStore, err := e.Store().GetSticker(id)
	require.NoError(t, err)
	assert.Equal(t, sandbox.StickerInactive, inStore.Status)
	assert.Equal(t, "Inactive", s.Pane.Obj.Status, "the pane shows it")
	pane = ansi.Strip(e.View(120, 40))
	assert.Contains(t, pane, "Status           - Inactive")
	assert.Contains(t, pane, "Merchant         "+e.Scope.MerchantID, "the answer (which names no merchant) does not lose it")
	row, _ := s.List.Selected()
	assert.Equal(t, "Inactive", row.Status, "the row shows it")
	assert.Equal(t, e.Scope.MerchantID, row.MerchantID)

	j := e.Journal()
	require.Len(t, j, 2)
	assert.Equal(t, journal.PhaseSent, j[0].Phase)
	assert.Equal(t, string(backend.ActionToggleSticker), j[0].Action)
	assert.Equal(t, id, j[0].ObjectID)
	assert.Equal(t, "v2", j[0].Interface)
	assert.NotEmpty(t, j[0].ActionID)
	assert.Equal(t, journal.PhaseDone, j[1].Phase)
	assert.Equal(t, j[0].ActionID, j[1].ActionID)

	// On again, from the list this time.
	e.Press("esc")
	require.False(t, s.Pane.IsOpen())
	assert.Equal(t, "Switch on sticker "+id, s.ActionTarget(keys.ActToggleSticker))
	e.Act(keys.ActToggleSticker)
	spec, found = e.ConfirmSpec()
	require.True(t, found)
	assert.Equal(t, "Switch on sticker "+id, spec.Title)
	assert.Equal(t, "Switch on", spec.Verb)
	assert.False(t, spec.Danger)
	assert.Equal(t, "Now: Inactive → after: Active", spec.Lines[2])
	assert.Equal(t, "Payers who scan it can pay again.", spec.Lines[3])
	send = e.yes(spec)
	assert.Contains(t, ansi.Strip(e.View(120, 40)), "→ switching", "the row says so while it is sent")
	e.Run(send)
	ts = e.Toasts()
	require.Len(t, ts, 1)
	assert.Equal(t, "Sticker "+id+" switched on — now Active", ts[0].Text)
	assert.Equal(t, "Active", e.stickerInService(id).Status)
	row, _ = s.List.Selected()
	assert.Equal(t, "Active", row.Status)
	v := ansi.Strip(e.View(120, 40))
	require.GreaterOrEqual(t, viewtest.SelectedLine(v), 0)
	selected := strings.Split(v, "\n")[viewtest.SelectedLine(v)]
	assert.Contains(t, selected, id)
	assert.Contains(t, selected, "✓ Active")
	j = e.Journal()
	require.Len(t, j, 4)
	assert.Equal(t, []string{journal.PhaseSent, journal.PhaseDone}, []string{j[2].Phase, j[3].Phase})
	assert.NotEqual(t, j[0].ActionID, j[2].ActionID, "a new action")
}

// The confirmation is of the sticker as the service has it when t is
// pressed: switched off behind the tab's back, it offers to switch it on.
func TestStickerToggleReadsTheStickerAgain(t *testing.T) {
	t.Parallel()
	e, s := started(t, viewtest.Opts{Changes: true}, 120, 40)
	st, _ := s.List.Selected()
	require.True(t, st.Active())
	_, err := e.Sandbox().Store().SetStickerActive(st.ID, false) // a colleague switched it off
	require.NoError(t, err)
	assert.Equal(t, "Switch off sticker "+st.ID, s.ActionTarget(keys.ActToggleSticker), "the list does not know yet")

	e.Act(keys.ActToggleSticker)
	spec, found := e.ConfirmSpec()
	require.True(t, found)
	assert.Equal(t, "Switch on sticker "+st.ID, spec.Title, "the dialog names what the key would do now")
	assert.Equal(t, "Now: Inactive → after: Active", spec.Lines[2])
	row, _ := s.List.Selected()
	assert.Equal(t, "Inactive", row.Status, "the row was brought up to date")
	assert.Empty(t, e.Journal(), "nothing is sent before y")
}

func TestStickerToggleReadOnlyIsRefused(t *testing.T) {
	t.Parallel()
	e, s := started(t, viewtest.Opts{Tab: New, ReadOnly: true}, 120, 40)
	st := viewtest.Selected(t, s.List)
	const readOnly = "paydash was started read-only (--read-only)"

	ok, why := e.Tab.Available(keys.ActToggleSticker)
	assert.False(t, ok)
	assert.Equal(t, readOnly, why)
	ok, why = e.Tab.Available(keys.ActNew)
	assert.False(t, ok, "no new sticker either")
	assert.Equal(t, readOnly, why)

	for _, act := range []keys.Action{keys.ActToggleSticker, keys.ActNew} {
		ticket := e.Act(act)
		_, found := e.ConfirmSpec()
		assert.False(t, found, "%s: no confirmation", act)
		r := e.Refused()
		require.Len(t, r, 1, "%s is refused", act)
		assert.Equal(t, ticket, r[0].Ticket)
		assert.Equal(t, ui.ToastWarning, r[0].Level)
		assert.Equal(t, readOnly, r[0].Text)
	}
	e.Press("t") // the key itself says why
	ts := e.Toasts()
	require.Len(t, ts, 1)
	assert.Equal(t, readOnly, ts[0].Text)

	assert.Empty(t, e.Shell)
	assert.Empty(t, e.Journal(), "nothing was sent")
	assert.Equal(t, st.Status, e.stickerInService(st.ID).Status)
}

// holdingStickers holds the answers to sticker switches until released,
// and counts the switches that reach it, telling when the first arrived.
type holdingStickers struct {
	backend.Backend
	release chan struct{}
	arrived chan struct{} // takes one arrival; the count is calls
	calls   atomic.Int32
}

func newHoldingStickers() *holdingStickers {
	return &holdingStickers{release: make(chan struct{}), arrived: make(chan struct{}, 1)}
}

// newHeldToggleEnv is the Stickers tab over a backend that holds the
// switches, with an active sticker selected (st).
func newHeldToggleEnv(t *testing.T) (*env, *holdingStickers, *Stickers, backend.Sticker) {
	t.Helper()
	hold := newHoldingStickers()
	e := startedEnv(t, viewtest.Opts{Changes: true, Tab: New, Wrap: func(b backend.Backend) backend.Backend {
		hold.Backend = b
		return hold
	}}, 120, 40)
	s := e.Tab.(*Stickers)
	st, _ := s.List.Selected()
	require.True(t, st.Active())
	return e, hold, s, st
}

func (h *holdingStickers) SetStickerActive(ctx context.Context, id string, active bool) (backend.Sticker, error) {
	h.calls.Add(1)
	select {
	case h.arrived <- struct{}{}:
	default:
	}
	<-h.release
	return h.Backend.SetStickerActive(ctx, id, active)
}

// waitSent waits for a switch to reach the backend: at once for a
// correct tab, for ever for one that never sends it (then longWait ends
// the test).
func (h *holdingStickers) waitSent(t *testing.T) {
	t.Helper()
	select {
	case <-h.arrived:
	case <-time.After(viewtest.LongWait):
		t.Fatal("the switch never reached the backend")
	}
}

// While a switch is being sent, no other reaches the sticker: not from the
// key, not from a preparation that was under way, not from the dialog's
// Confirm called again.
func TestStickerSecondToggleWhileSentIsRefused(t *testing.T) {
	t.Parallel()
	e, hold, _, st := newHeldToggleEnv(t)

	e.Act(keys.ActToggleSticker)
	spec, found := e.ConfirmSpec()
	require.True(t, found)
	// A second t while the first dialog is open: its preparation reads the
	// sticker, and its answer comes only after the first is confirmed.
	e.Ticket++
	late := e.Ticket
	prepare := e.SendHold(ui.ActionMsg{Action: keys.ActToggleSticker, Ticket: late})

	send := e.yes(spec)
	answer := make(chan tea.Msg, 1)
	go func() { answer <- send() }()
	hold.waitSent(t)

	busy := "the switch-off of sticker " + st.ID + " is being sent; wait for its answer"
	ok, why := e.Tab.Available(keys.ActToggleSticker)
	assert.False(t, ok)
	assert.Equal(t, busy, why)

	e.Run(prepare)
	r := e.Refused()
	require.Len(t, r, 1, "the preparation under way is refused when it ends")
	assert.Equal(t, late, r[0].Ticket)
	assert.Equal(t, busy, r[0].Text)

	ticket := e.Act(keys.ActToggleSticker)
	_, found = e.ConfirmSpec()
	assert.False(t, found)
	r = e.Refused()
	require.Len(t, r, 1, "a new t is refused at once")
	assert.Equal(t, ticket, r[0].Ticket)
	assert.Equal(t, ui.ToastWarning, r[0].Level)
	assert.Equal(t, busy, r[0].Text)

	// The same dialog's Confirm once more (the shell calls it once; were it
	// called again, the tracker refuses).
	e.Run(spec.Confirm(money.Amount{}))
	ts := e.Toasts()
	require.Len(t, ts, 1)
	assert.Equal(t, "Not sent: "+busy, ts[0].Text)

	close(hold.release)
	e.Deliver(<-answer)
	ts = e.Toasts()
	require.Len(t, ts, 1)
	assert.Equal(t, "Sticker "+st.ID+" switched off — now Inactive", ts[0].Text)
	assert.Equal(t, int32(1), hold.calls.Load(), "exactly one switch reached the service")
	j := e.Journal()
	require.Len(t, j, 2, "one action journaled: sent, done")
	assert.Equal(t, journal.PhaseSent, j[0].Phase)
	assert.Equal(t, journal.PhaseDone, j[1].Phase)
	assert.Equal(t, "Inactive", e.stickerInService(st.ID).Status)
	ok, _ = e.Tab.Available(keys.ActToggleSticker)
	assert.True(t, ok, "once the answer came, it may be switched again")
}

// A double y in the shell's dialog confirms once.
func TestStickerToggleDoubleYSendsOnce(t *testing.T) {
	t.Parallel()
	e := startedEnv(t, viewtest.Opts{Changes: true, Tab: New}, 120, 40)
	st, _ := e.Tab.(*Stickers).List.Selected()
	e.Act(keys.ActToggleSticker)
	spec, found := e.ConfirmSpec()
	require.True(t, found)
	opened := e.Now()
	c := ui.NewConfirm(spec, opened, keys.Default(), ui.NewTheme(true, true))
	var sends []tea.Cmd
	for _, at := range []time.Duration{ui.ConfirmGuard, ui.ConfirmGuard + 30*time.Millisecond} {
		_, cmd, _ := c.Update(viewtest.KeyPress("y"), opened.Add(at))
		if cmd != nil {
			sends = append(sends, cmd)
		}
	}
	require.Len(t, sends, 1, "the second y finds the dialog closed")
	e.Run(sends[0])
	j := e.Journal()
	require.Len(t, j, 2)
	assert.Equal(t, "Inactive", e.stickerInService(st.ID).Status)
}

// The answer of a switch that comes after the merchant was changed goes
// to no list: the sticker is not the new merchant's.
func TestStickerToggleAnsweredAfterTheMerchantChanged(t *testing.T) {
	t.Parallel()
	e, hold, s, st := newHeldToggleEnv(t)
	e.Act(keys.ActToggleSticker)
	spec, found := e.ConfirmSpec()
	require.True(t, found)
	send := e.yes(spec)
	answer := make(chan tea.Msg, 1)
	go func() { answer <- send() }()
	hold.waitSent(t)

	other := e.Scope
	other.MerchantID = e.Info().MerchantIDs[1]
	require.NotEqual(t, e.Scope.MerchantID, other.MerchantID)
	e.Send(ui.ScopeMsg{Scope: other})
	require.NotZero(t, s.List.Table.Len(), "the other merchant's stickers are listed")

	close(hold.release)
	e.Deliver(<-answer)
	ts := e.Toasts()
	require.Len(t, ts, 1)
	assert.Equal(t, "Sticker "+st.ID+" switched off — now Inactive", ts[0].Text)
	for _, r := range s.List.Table.Rows() {
		assert.NotEqual(t, st.ID, r.ID, "merchant %s's sticker is not listed as %s's", e.Scope.MerchantID, other.MerchantID)
		assert.Equal(t, other.MerchantID, r.MerchantID)
	}
	assert.Equal(t, "Inactive", e.stickerInService(st.ID).Status)
}

// The Stickers tab at 120×40 with a sticker's pane open: its facts and its
// payload as a QR code, whole, which reads back to the payload.
func TestGoldenStickersPane120x40(t *testing.T) {
	t.Parallel()
	e := startedEnv(t, viewtest.Opts{Tab: New, Fixed: viewtest.GoldenNow}, 120, 40)
	e.Press("j", "enter")
	s := e.Tab.(*Stickers)
	require.True(t, s.Pane.IsOpen())
	require.NotEmpty(t, s.Pane.Obj.Raw, "the sticker was read in full")
	v := ansi.Strip(e.View(120, 40))
	assert.Equal(t, s.Pane.Obj.Payload, viewtest.QRIn(t, v), "the code on the screen reads back to the payload")
	assert.NotContains(t, v, "make the window", "the whole code fits")
	viewtest.GoldenCheck(t, "stickers_pane_120x40", v)
}
