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
	keys.ActTab0: true, keys.ActTab1: true, keys.ActTab2: true, keys.ActTab3: true, keys.ActTab4: true, keys.ActTab5: true, keys.ActTab6: true, keys.ActTab7: true,
	keys.ActHelp: true, keys.ActQuit: true, keys.ActRefresh: true,
	keys.ActJump: true, keys.ActPeriod: true, keys.ActMerchant: true, keys.ActMessages: true,
	keys.ActMouse: true, keys.ActPalette: true,
}

// tabKeys maps the number keys to the tabs, always the same whichever tabs
// there are: 0 the Overview, 1 payments … 5 registers.
var tabKeys = map[keys.Action]TabID{
	keys.ActTab0: TabOverview, keys.ActTab1: TabPayments, keys.ActTab2: TabRefunds, keys.ActTab3: TabTokens,
	keys.ActTab4: TabStickers, keys.ActTab5: TabRegisters, keys.ActTab6: TabApprovals, keys.ActTab7: TabActivity,
}

// noTab says why the dashboard has no tab id: the Approvals and Activity
// tabs are a team's (paydash serve).
func noTab(id TabID) string {
	if id == TabApprovals || id == TabActivity {
		return fmt.Sprintf("the %s tab is in the team dashboard only (paydash serve, over SSH)", id)
	}
	return fmt.Sprintf("there is no %s tab", id)
}

// tabNumber is the number key of a tab, if it has one.
func tabNumber(id TabID) (int, bool) {
	for a, t := range tabKeys {
		if t == id {
			return int(a[len(a)-1] - '0'), true
		}
	}
	return 0, false
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
func (app *App) availability(i int) keys.Availability {
	input := i >= 0 && i < len(app.tabs) && typesText(app.tabs[i].Context())
	return func(action keys.Action) (bool, string) {
		if input && !shellActions[action] {
			return true, ""
		}
		return app.available(i, action)
	}
}

func typesText(c keys.Context) bool {
	return c == keys.ContextFilter || c == keys.ContextJump || c == keys.ContextModalField || c == keys.ContextSearch
}

func (app *App) available(i int, action keys.Action) (bool, string) {
	var t Tab
	if i >= 0 && i < len(app.tabs) {
		t = app.tabs[i]
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
		return len(app.tabs) > 1, ""
	case keys.ActTab0, keys.ActTab1, keys.ActTab2, keys.ActTab3, keys.ActTab4, keys.ActTab5, keys.ActTab6, keys.ActTab7:
		return app.tabIndex(tabKeys[action]) >= 0, ""
	case keys.ActHelp, keys.ActQuit, keys.ActMessages, keys.ActMouse, keys.ActPalette:
		return true, ""
	case keys.ActRefresh, keys.ActPeriod:
		return veto()
	case keys.ActJump:
		if len(app.tabs) == 0 {
			return false, ""
		}
		return veto()
	case keys.ActMerchant:
		if !app.otherMerchant() {
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
func (app *App) otherMerchant() bool {
	for _, m := range app.cfg.Merchants {
		if m.ID != app.scope.MerchantID {
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
func (app *App) key(msg tea.KeyPressMsg, now time.Time) tea.Cmd {
	if msg.String() == "ctrl+c" {
		return app.quit(quitByCtrlC, now)
	}
	if app.tooSmall() {
		// The screen only asks for a bigger window: nothing the user
		// cannot see may act. A dialog counts the key.
		if app.modal == nil && keys.Matches(msg, app.km.Global.Quit) {
			return app.quit(quitByKey, now)
		}
		app.swallowKey(msg, whyHidden)
		return nil
	}
	if app.helpOpen {
		return app.helpKey(msg, now)
	}
	if app.messagesOpen {
		return app.messagesKey(msg, now)
	}
	if app.modal != nil {
		return app.updateModal(msg, now)
	}
	if app.dialogKeyAfterClose(msg, now) {
		app.addToast(ToastInfo, "key "+msg.String()+" ignored: it came just after the dialog closed", now)
		return nil
	}
	app.confirmClosed = time.Time{} // another key: the user has moved on
	if len(app.tabs) == 0 {
		if keys.Matches(msg, app.km.Global.Quit) {
			return app.quit(quitByKey, now)
		}
		return nil
	}
	ctx := app.tabs[app.active].Context()
	p, ok := app.km.Resolve(msg, ctx, app.availability(app.active))
	if !ok {
		return app.updateTab(app.active, msg)
	}
	if !shellActions[p.Action] {
		// The tab's key. A reason means "greyed out": say why and do
		// nothing. An action the tab says does not exist here (no reason)
		// still goes to the tab, which ignores what it does not know.
		if !p.Enabled && p.Reason != keys.NotHere {
			app.addToast(ToastWarning, p.Reason, now)
			return nil
		}
		if p.Enabled && keys.GroupOf(p.Action) == keys.GroupActions {
			return app.startAction(p.Action)
		}
		if p.Action == keys.ActClose && ctx == keys.ContextList && app.errText != "" &&
			app.tabs[app.active].Status().Filter == "" {
			app.setError(nil, "", false, now) // esc with nothing else to close dismisses the error
			return nil
		}
		return app.updateTab(app.active, msg)
	}
	if !p.Enabled {
		reason := p.Reason
		if id, isTab := tabKeys[p.Action]; isTab && app.tabIndex(id) < 0 {
			reason = noTab(id)
		}
		app.addToast(ToastWarning, reason, now)
		return nil
	}
	return app.shellAction(p.Action, now)
}

// helpKey handles a key while the full help is open.
func (app *App) helpKey(msg tea.KeyPressMsg, now time.Time) tea.Cmd {
	switch {
	case msg.String() == "esc" || keys.Matches(msg, app.km.Global.Help):
		app.helpOpen = false
	case keys.Matches(msg, app.km.Global.Quit):
		return app.quit(quitByKey, now)
	default:
		app.scrollKey(msg, app.scrollHelp)
	}
	return nil
}

// scrollKey moves an overlay (the help, the messages) by the keymap's
// movement keys: a line, a page, or back to the top.
func (app *App) scrollKey(msg tea.KeyPressMsg, scroll func(delta int)) {
	page := max(app.height-app.chromeHeight()-4, 1)
	switch {
	case keys.Matches(msg, app.km.List.Down):
		scroll(1)
	case keys.Matches(msg, app.km.List.Up):
		scroll(-1)
	case keys.Matches(msg, app.km.List.PageDown):
		scroll(page)
	case keys.Matches(msg, app.km.List.PageUp):
		scroll(-page)
	case keys.Matches(msg, app.km.List.Top):
		scroll(-1 << 30)
	}
}

func (app *App) shellAction(action keys.Action, now time.Time) tea.Cmd {
	n := len(app.tabs)
	switch action {
	case keys.ActNextTab:
		app.active = (app.active + 1) % n
	case keys.ActPrevTab:
		app.active = (app.active + n - 1) % n
	case keys.ActTab0, keys.ActTab1, keys.ActTab2, keys.ActTab3, keys.ActTab4, keys.ActTab5, keys.ActTab6, keys.ActTab7:
		app.active = app.tabIndex(tabKeys[action])
	case keys.ActHelp:
		app.helpOpen, app.helpScroll = true, 0
	case keys.ActMessages:
		app.messagesOpen, app.messagesScroll = true, 0
	case keys.ActMouse:
		app.toggleMouse(now)
	case keys.ActPalette:
		app.openModal(newPalette(app.paletteEntries(app.active), app.tabs[app.active].Context(), app.km, app.theme))
	case keys.ActQuit:
		return app.quit(quitByKey, now)
	case keys.ActRefresh:
		return app.refresh(true, now)
	case keys.ActJump:
		words, tab := paymentJump, max(app.tabIndex(TabPayments), 0)
		if j, ok := app.tabs[app.active].(Jumper); ok {
			words, tab = j.JumpPrompt(), app.active
		}
		app.openModal(newJumpPrompt(app.km, app.theme, words, tab))
	case keys.ActPeriod:
		scope, keeper := app.scope, -1
		if k, ok := app.tabs[app.active].(PeriodKeeper); ok {
			scope, keeper = k.OwnScope(), app.active
		}
		app.openModal(newPeriodChooser(scope, keeper, app.loc, app.km, app.theme))
	case keys.ActMerchant:
		c := newMerchantChooser(app.cfg.Merchants, app.scope, app.km, app.theme)
		if t, ok := app.tabs[app.active].(EveryMerchantTab); ok {
			c.offerEvery(app.active, t.EveryMerchant())
		}
		app.openModal(c)
	}
	return nil
}

// dialogKeyAfterClose reports whether msg is a dialog's own key (confirm,
// cancel, enter) pressed within ConfirmGuard of a confirmation closing,
// with no other key between: a y or n too many, typed for the dialog,
// which must not act on the list behind it (y copies an id there, n opens
// a form). Any other key acts at once and ends this.
func (app *App) dialogKeyAfterClose(msg tea.KeyPressMsg, now time.Time) bool {
	if app.confirmClosed.IsZero() || now.Sub(app.confirmClosed) >= ConfirmGuard {
		return false
	}
	act, _, _ := app.km.Lookup(msg, keys.ContextModal)
	return act == keys.ActModalConfirm || act == keys.ActModalCancel || msg.String() == "enter"
}

// updateModal gives msg to the open dialog; when it closes, the shell acts
// on its outcome.
func (app *App) updateModal(msg tea.Msg, now time.Time) tea.Cmd {
	before := 0
	if c, ok := app.modal.(ignoredCounter); ok {
		before, _ = c.ignoredKeys()
	}
	m, cmd, closed := app.modal.Update(msg, now)
	if m == nil {
		m = app.modal
	}
	app.logIgnored(m, before)
	if !closed {
		app.modal = m
		return cmd
	}
	app.modal = m
	app.closeModal()
	if p, gaveUp := m.(*preparingModal); gaveUp {
		// The tab reads what the confirmation would name: that read ends.
		return tea.Batch(cmd, app.updateTab(p.tab, CancelActionMsg{Ticket: p.ticket}))
	}
	if _, isConfirm := m.(*confirmModal); isConfirm {
		if _, byKey := msg.(tea.KeyPressMsg); byKey {
			app.confirmClosed = now
		}
	}
	r, ok := m.(resultModal)
	if !ok {
		return cmd
	}
	return tea.Batch(cmd, app.onResult(m, r.result(), now))
}

// onResult acts on what a dialog of the shell's own chose.
func (app *App) onResult(m Modal, result tea.Msg, now time.Time) tea.Cmd {
	var cmd tea.Cmd
	switch res := result.(type) {
	case merchantChoices:
		cmds := make([]tea.Cmd, len(res))
		for i, r := range res {
			cmds[i] = app.onResult(m, r, now)
		}
		return tea.Batch(cmds...)
	case EveryMerchantMsg:
		return app.updateTab(m.(*merchantChooser).every, res)
	case JumpMsg:
		tab := 0
		if j, ok := m.(*jumpPrompt); ok {
			tab = j.tab
		}
		app.active = tab
		return tea.Batch(cmd, app.updateTab(tab, res))
	case ScopeMsg:
		if c, ok := m.(*periodChooser); ok && c.keeper >= 0 {
			return tea.Batch(cmd, app.updateTab(c.keeper, OwnScopeMsg{Scope: res.Scope.At(app.serviceNow())}))
		}
		return tea.Batch(append(app.setScope(res.Scope, now), cmd)...)
	case paletteChoice:
		return tea.Batch(cmd, app.runPaletteEntry(res.entry, now))
	}
	return cmd
}

// runPaletteEntry acts on the palette's choice as if its key had been
// pressed where the tab was: the key goes through key, so every guard of
// it (availability, the preparing dialog, the tab's own routing) applies.
// An entry greyed with a reason says the reason and does nothing.
func (app *App) runPaletteEntry(e paletteEntry, now time.Time) tea.Cmd {
	if e.reason != "" {
		app.addToast(ToastWarning, e.reason, now)
		return nil
	}
	press, ok := keyPressOf(e.keyStr)
	if !ok {
		return nil
	}
	return app.key(press, now)
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
func (app *App) quit(cause quitCause, now time.Time) tea.Cmd {
	sending := app.sending()
	if sending == 0 {
		return tea.Quit
	}
	if cause != quitByKey && now.Before(app.forceQuitUntil) {
		return app.abandonAndQuit()
	}
	if cause != quitByKey {
		app.forceQuitUntil = now.Add(forceQuitWindow)
	}
	if !app.quitting {
		app.quitting, app.quitBy = true, now.Add(QuitWait)
	}
	what := "the action being sent is"
	if sending > 1 {
		what = fmt.Sprintf("the %d actions being sent are", sending)
	}
	again := "ctrl+c twice quits at once"
	if cause == quitBySignal {
		again = "a second signal quits at once"
	}
	app.addToast(ToastWarning, fmt.Sprintf("Quitting once %s answered (at most %s); %s", what,
		app.quitBy.Sub(now).Round(time.Second), again), now)
	return nil
}

// abandonAndQuit quits without the answers still awaited: every tab
// journals its actions in flight as abandoned first, then the program ends.
func (app *App) abandonAndQuit() tea.Cmd {
	return tea.Sequence(tea.Batch(app.broadcast(AbandonMsg{})...), tea.Quit)
}
