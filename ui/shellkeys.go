package ui

import (
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"paydash/keys"
)

// shellActions are the actions the shell handles itself; every other
// action belongs to the active tab.
var shellActions = map[keys.Action]bool{
	keys.ActNextTab: true, keys.ActPrevTab: true,
	keys.ActTab1: true, keys.ActTab2: true, keys.ActTab3: true, keys.ActTab4: true, keys.ActTab5: true,
	keys.ActHelp: true, keys.ActQuit: true, keys.ActRefresh: true,
	keys.ActJump: true, keys.ActPeriod: true, keys.ActMerchant: true, keys.ActMessages: true,
	keys.ActMouse: true, keys.ActPalette: true,
}

// tabKeys maps the number keys to the tabs, always the same whichever tabs
// there are (design: 1 payments … 5 registers).
var tabKeys = map[keys.Action]TabID{
	keys.ActTab1: TabPayments, keys.ActTab2: TabRefunds, keys.ActTab3: TabTokens,
	keys.ActTab4: TabStickers, keys.ActTab5: TabRegisters,
}

// tabNumber is the number key of a tab (0: none).
func tabNumber(id TabID) int {
	for a, t := range tabKeys {
		if t == id {
			return int(a[len(a)-1] - '0')
		}
	}
	return 0
}

// resultModal is a dialog of the shell's own (jump prompt, choosers) whose
// outcome, once it closed, is a message for the shell: a JumpMsg or a
// ScopeMsg, or nil when it was cancelled.
type resultModal interface {
	result() tea.Msg
}

// availability is the Availability of tab i's moment: the shell decides its
// own actions (a tab may still veto refresh, jump, period and merchant with
// a reason), the tab decides the rest. While the tab's own input has the
// focus (filter, jump), the input's keys (enter, esc, arrows) always reach
// it: they apply or clear the input, whatever the tab says of "open
// details" and the like.
func (a *App) availability(i int) keys.Availability {
	input := i >= 0 && i < len(a.tabs) && typesText(a.tabs[i].Context())
	return func(action keys.Action) (bool, string) {
		if input && !shellActions[action] {
			return true, ""
		}
		return a.available(i, action)
	}
}

func typesText(c keys.Context) bool {
	return c == keys.ContextFilter || c == keys.ContextJump || c == keys.ContextModalField || c == keys.ContextSearch
}

func (a *App) available(i int, action keys.Action) (bool, string) {
	var t Tab
	if i >= 0 && i < len(a.tabs) {
		t = a.tabs[i]
	}
	veto := func() (bool, string) {
		if t != nil {
			if ok, why := t.Available(action); !ok && why != "" {
				return false, why
			}
		}
		return true, ""
	}
	switch action {
	case keys.ActNextTab, keys.ActPrevTab:
		return len(a.tabs) > 1, ""
	case keys.ActTab1, keys.ActTab2, keys.ActTab3, keys.ActTab4, keys.ActTab5:
		return a.tabIndex(tabKeys[action]) >= 0, ""
	case keys.ActHelp, keys.ActQuit, keys.ActMessages, keys.ActMouse, keys.ActPalette:
		return true, ""
	case keys.ActRefresh, keys.ActPeriod:
		return veto()
	case keys.ActJump:
		if len(a.tabs) == 0 {
			return false, ""
		}
		return veto()
	case keys.ActMerchant:
		if !a.otherMerchant() {
			return false, "only one merchant is configured"
		}
		return veto()
	}
	if t == nil {
		return false, ""
	}
	return t.Available(action)
}

// otherMerchant reports whether the switcher has a merchant to switch to.
func (a *App) otherMerchant() bool {
	for _, m := range a.cfg.Merchants {
		if m.ID != a.scope.MerchantID {
			return true
		}
	}
	return false
}

// key handles a key press: ctrl+c always quits; below the minimum size
// nothing else acts; the overlays (help, messages), then the dialog, take
// keys before anything else; then the shell's own keys for the active
// tab's context; an action key opens the preparing dialog at once; every
// other key goes to the active tab.
func (a *App) key(msg tea.KeyPressMsg, now time.Time) tea.Cmd {
	if msg.String() == "ctrl+c" {
		return a.quit(quitByCtrlC, now)
	}
	if a.tooSmall() {
		// The screen only asks for a bigger window: nothing the user
		// cannot see may act. A dialog counts the key.
		if a.modal == nil && keys.Matches(msg, a.km.Global.Quit) {
			return a.quit(quitByKey, now)
		}
		a.swallowKey(msg, whyHidden)
		return nil
	}
	if a.helpOpen {
		return a.helpKey(msg, now)
	}
	if a.messagesOpen {
		return a.messagesKey(msg, now)
	}
	if a.modal != nil {
		return a.updateModal(msg, now)
	}
	if a.dialogKeyAfterClose(msg, now) {
		a.addToast(ToastInfo, "key "+msg.String()+" ignored: it came just after the dialog closed", now)
		return nil
	}
	a.confirmClosed = time.Time{} // another key: the user has moved on
	if len(a.tabs) == 0 {
		if keys.Matches(msg, a.km.Global.Quit) {
			return a.quit(quitByKey, now)
		}
		return nil
	}
	ctx := a.tabs[a.active].Context()
	p, ok := a.km.Resolve(msg, ctx, a.availability(a.active))
	if !ok {
		return a.updateTab(a.active, msg)
	}
	if !shellActions[p.Action] {
		// The tab's key. A reason means "greyed out": say why and do
		// nothing. An action the tab says does not exist here (no reason)
		// still goes to the tab, which ignores what it does not know.
		if !p.Enabled && p.Reason != keys.NotHere {
			a.addToast(ToastWarning, p.Reason, now)
			return nil
		}
		if p.Enabled && keys.GroupOf(p.Action) == keys.GroupActions {
			return a.startAction(p.Action)
		}
		if p.Action == keys.ActClose && ctx == keys.ContextList && a.errText != "" &&
			a.tabs[a.active].Status().Filter == "" {
			a.setError(nil, "", false, now) // esc with nothing else to close dismisses the error
			return nil
		}
		return a.updateTab(a.active, msg)
	}
	if !p.Enabled {
		reason := p.Reason
		if id, isTab := tabKeys[p.Action]; isTab && a.tabIndex(id) < 0 {
			reason = fmt.Sprintf("there is no %s tab", id)
		}
		a.addToast(ToastWarning, reason, now)
		return nil
	}
	return a.shellAction(p.Action, now)
}

// helpKey handles a key while the full help is open.
func (a *App) helpKey(msg tea.KeyPressMsg, now time.Time) tea.Cmd {
	switch {
	case msg.String() == "esc" || keys.Matches(msg, a.km.Global.Help):
		a.helpOpen = false
	case keys.Matches(msg, a.km.Global.Quit):
		return a.quit(quitByKey, now)
	default:
		a.scrollKey(msg, a.scrollHelp)
	}
	return nil
}

// scrollKey moves an overlay (the help, the messages) by the keymap's
// movement keys: a line, a page, or back to the top.
func (a *App) scrollKey(msg tea.KeyPressMsg, scroll func(delta int)) {
	page := max(a.height-a.chromeHeight()-4, 1)
	switch {
	case keys.Matches(msg, a.km.List.Down):
		scroll(1)
	case keys.Matches(msg, a.km.List.Up):
		scroll(-1)
	case keys.Matches(msg, a.km.List.PageDown):
		scroll(page)
	case keys.Matches(msg, a.km.List.PageUp):
		scroll(-page)
	case keys.Matches(msg, a.km.List.Top):
		scroll(-1 << 30)
	}
}

func (a *App) shellAction(action keys.Action, now time.Time) tea.Cmd {
	n := len(a.tabs)
	switch action {
	case keys.ActNextTab:
		a.active = (a.active + 1) % n
	case keys.ActPrevTab:
		a.active = (a.active + n - 1) % n
	case keys.ActTab1, keys.ActTab2, keys.ActTab3, keys.ActTab4, keys.ActTab5:
		a.active = a.tabIndex(tabKeys[action])
	case keys.ActHelp:
		a.helpOpen, a.helpScroll = true, 0
	case keys.ActMessages:
		a.messagesOpen, a.messagesScroll = true, 0
	case keys.ActMouse:
		a.toggleMouse(now)
	case keys.ActPalette:
		a.openModal(newPalette(a.paletteEntries(a.active), a.tabs[a.active].Context(), a.km, a.theme))
	case keys.ActQuit:
		return a.quit(quitByKey, now)
	case keys.ActRefresh:
		return a.refresh(true, now)
	case keys.ActJump:
		words, tab := paymentJump, max(a.tabIndex(TabPayments), 0)
		if j, ok := a.tabs[a.active].(Jumper); ok {
			words, tab = j.JumpPrompt(), a.active
		}
		a.openModal(newJumpPrompt(a.km, a.theme, words, tab))
	case keys.ActPeriod:
		scope, keeper := a.scope, -1
		if k, ok := a.tabs[a.active].(PeriodKeeper); ok {
			scope, keeper = k.OwnScope(), a.active
		}
		a.openModal(newPeriodChooser(scope, keeper, a.loc, a.km, a.theme))
	case keys.ActMerchant:
		a.openModal(newMerchantChooser(a.cfg.Merchants, a.scope, a.km, a.theme))
	}
	return nil
}

// dialogKeyAfterClose reports whether msg is a dialog's own key (confirm,
// cancel, enter) pressed within ConfirmGuard of a confirmation closing,
// with no other key between: a y or n too many, typed for the dialog,
// which must not act on the list behind it (y copies an id there, n opens
// a form). Any other key acts at once and ends this.
func (a *App) dialogKeyAfterClose(msg tea.KeyPressMsg, now time.Time) bool {
	if a.confirmClosed.IsZero() || now.Sub(a.confirmClosed) >= ConfirmGuard {
		return false
	}
	act, _, _ := a.km.Lookup(msg, keys.ContextModal)
	return act == keys.ActModalConfirm || act == keys.ActModalCancel || msg.String() == "enter"
}

// updateModal gives msg to the open dialog; when it closes, the shell acts
// on its outcome.
func (a *App) updateModal(msg tea.Msg, now time.Time) tea.Cmd {
	m, cmd, closed := a.modal.Update(msg, now)
	if m == nil {
		m = a.modal
	}
	if !closed {
		a.modal = m
		return cmd
	}
	a.modal = nil
	if p, gaveUp := m.(*preparingModal); gaveUp {
		// The tab reads what the confirmation would name: that read ends.
		return tea.Batch(cmd, a.updateTab(p.tab, CancelActionMsg{Ticket: p.ticket}))
	}
	if _, isConfirm := m.(*confirmModal); isConfirm {
		if _, byKey := msg.(tea.KeyPressMsg); byKey {
			a.confirmClosed = now
		}
	}
	r, ok := m.(resultModal)
	if !ok {
		return cmd
	}
	switch res := r.result().(type) {
	case JumpMsg:
		tab := 0
		if j, ok := m.(*jumpPrompt); ok {
			tab = j.tab
		}
		a.active = tab
		return tea.Batch(cmd, a.updateTab(tab, res))
	case ScopeMsg:
		if c, ok := m.(*periodChooser); ok && c.keeper >= 0 {
			return tea.Batch(cmd, a.updateTab(c.keeper, OwnScopeMsg{Scope: res.Scope.At(a.serviceNow())}))
		}
		return tea.Batch(append(a.setScope(res.Scope, now), cmd)...)
	case paletteChoice:
		return tea.Batch(cmd, a.runPaletteEntry(res.entry, now))
	}
	return cmd
}

// runPaletteEntry acts on the palette's choice as if its key had been
// pressed where the tab was: the key goes through key, so every guard of
// it (availability, the preparing dialog, the tab's own routing) applies.
// An entry greyed with a reason says the reason and does nothing.
func (a *App) runPaletteEntry(e paletteEntry, now time.Time) tea.Cmd {
	if e.reason != "" {
		a.addToast(ToastWarning, e.reason, now)
		return nil
	}
	press, ok := keyPressOf(e.keyStr)
	if !ok {
		return nil
	}
	return a.key(press, now)
}

// forceQuitWindow is how long a second ctrl+c (or signal) forces quitting
// while an action is still waiting for its answer.
const forceQuitWindow = 3 * time.Second

// What asked to quit.
type quitCause int

const (
	quitByKey    quitCause = iota // q
	quitByCtrlC                   // ctrl+c: pressed twice, it does not wait
	quitBySignal                  // SIGTERM, SIGHUP, SIGINT: a second one does not wait
)

// quit ends the program, but not while an action is waiting for its
// answer: quitting then would leave the support person not knowing
// whether the capture or refund happened. It waits for the answers
// instead, at most QuitWait, and then journals what is still unanswered
// as abandoned (the next start finds out what became of it). ctrl+c
// twice, or a second signal, stops waiting.
func (a *App) quit(cause quitCause, now time.Time) tea.Cmd {
	sending := a.sending()
	if sending == 0 {
		return tea.Quit
	}
	if cause != quitByKey && now.Before(a.forceQuitUntil) {
		return a.abandonAndQuit()
	}
	if cause != quitByKey {
		a.forceQuitUntil = now.Add(forceQuitWindow)
	}
	if !a.quitting {
		a.quitting, a.quitBy = true, now.Add(QuitWait)
	}
	what := "the action being sent is"
	if sending > 1 {
		what = fmt.Sprintf("the %d actions being sent are", sending)
	}
	again := "ctrl+c twice quits at once"
	if cause == quitBySignal {
		again = "a second signal quits at once"
	}
	a.addToast(ToastWarning, fmt.Sprintf("Quitting once %s answered (at most %s); %s", what,
		a.quitBy.Sub(now).Round(time.Second), again), now)
	return nil
}

// abandonAndQuit quits without the answers still awaited: every tab
// journals its actions in flight as abandoned first, then the program ends.
func (a *App) abandonAndQuit() tea.Cmd {
	return tea.Sequence(tea.Batch(a.broadcast(AbandonMsg{})...), tea.Quit)
}
