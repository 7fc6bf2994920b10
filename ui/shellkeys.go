package ui

import (
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"paydash/keys"
)

// shellActions are the actions the shell handles itself; every other
// action belongs to the active tab.
var shellActions = map[string]bool{
	keys.ActNextTab: true, keys.ActPrevTab: true,
	keys.ActTab1: true, keys.ActTab2: true, keys.ActTab3: true, keys.ActTab4: true, keys.ActTab5: true,
	keys.ActHelp: true, keys.ActQuit: true, keys.ActRefresh: true,
	keys.ActJump: true, keys.ActPeriod: true, keys.ActMerchant: true,
}

// tabKeys maps the number-key actions to tab indexes.
var tabKeys = map[string]int{
	keys.ActTab1: 0, keys.ActTab2: 1, keys.ActTab3: 2, keys.ActTab4: 3, keys.ActTab5: 4,
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
	return func(action string) (bool, string) {
		if input && !shellActions[action] {
			return true, ""
		}
		return a.available(i, action)
	}
}

func typesText(c keys.Context) bool {
	return c == keys.ContextFilter || c == keys.ContextJump || c == keys.ContextModalField
}

func (a *App) available(i int, action string) (bool, string) {
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
		return tabKeys[action] < len(a.tabs), ""
	case keys.ActHelp, keys.ActQuit:
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
		if m != a.scope.MerchantID {
			return true
		}
	}
	return false
}

// key handles a key press: ctrl+c always quits; the help overlay, then the
// top modal, take keys before anything else; then the shell's own keys
// for the active tab's context; every other key goes to the active tab.
func (a *App) key(msg tea.KeyPressMsg, now time.Time) tea.Cmd {
	if msg.String() == "ctrl+c" {
		return a.quit(true, now)
	}
	if a.helpOpen {
		page := max(a.height-chromeLines-4, 1)
		switch {
		case msg.String() == "esc" || keys.Matches(msg, a.km.Global.Help):
			a.helpOpen = false
		case keys.Matches(msg, a.km.Global.Quit):
			return a.quit(false, now)
		case keys.Matches(msg, a.km.List.Down):
			a.scrollHelp(1)
		case keys.Matches(msg, a.km.List.Up):
			a.scrollHelp(-1)
		case keys.Matches(msg, a.km.List.PageDown):
			a.scrollHelp(page)
		case keys.Matches(msg, a.km.List.PageUp):
			a.scrollHelp(-page)
		}
		return nil
	}
	if len(a.modals) > 0 {
		return a.updateModal(msg, now)
	}
	if len(a.tabs) == 0 {
		if keys.Matches(msg, a.km.Global.Quit) {
			return a.quit(false, now)
		}
		return nil
	}
	p, ok := a.km.Resolve(msg, a.tabs[a.active].Context(), a.availability(a.active))
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
		return a.updateTab(a.active, msg)
	}
	if !p.Enabled {
		reason := p.Reason
		if n, isTab := tabKeys[p.Action]; isTab && n >= len(a.tabs) {
			reason = fmt.Sprintf("there is no tab %d", n+1)
		}
		a.addToast(ToastWarning, reason, now)
		return nil
	}
	return a.shellAction(p.Action, now)
}

func (a *App) shellAction(action string, now time.Time) tea.Cmd {
	n := len(a.tabs)
	switch action {
	case keys.ActNextTab:
		a.active = (a.active + 1) % n
	case keys.ActPrevTab:
		a.active = (a.active + n - 1) % n
	case keys.ActTab1, keys.ActTab2, keys.ActTab3, keys.ActTab4, keys.ActTab5:
		a.active = tabKeys[action]
	case keys.ActHelp:
		a.helpOpen, a.helpScroll = true, 0
	case keys.ActQuit:
		return a.quit(false, now)
	case keys.ActRefresh:
		return a.refresh(true, now)
	case keys.ActJump:
		a.modals = append(a.modals, newJumpPrompt(a.km, a.theme))
	case keys.ActPeriod:
		a.modals = append(a.modals, newPeriodChooser(a.scope, a.loc, a.km, a.theme))
	case keys.ActMerchant:
		a.modals = append(a.modals, newMerchantChooser(a.cfg.Merchants, a.scope, a.km, a.theme))
	}
	return nil
}

// updateModal gives msg to the top modal; when it closes, the shell acts on
// its outcome.
func (a *App) updateModal(msg tea.Msg, now time.Time) tea.Cmd {
	top := len(a.modals) - 1
	old := a.modals[top]
	m, cmd, closed := old.Update(msg, now)
	if m == nil {
		m = old
	}
	if !closed {
		a.modals[top] = m
		return cmd
	}
	a.modals = a.modals[:top]
	r, ok := m.(resultModal)
	if !ok {
		return cmd
	}
	switch res := r.result().(type) {
	case JumpMsg:
		a.active = 0
		return tea.Batch(cmd, a.updateTab(0, res))
	case ScopeMsg:
		return tea.Batch(append(a.setScope(res.Scope, now), cmd)...)
	}
	return cmd
}

// forceQuitWindow is how long a second ctrl+c forces quitting while an
// action is still waiting for its answer.
const forceQuitWindow = 3 * time.Second

// quit ends the program unless an action is still waiting for its answer:
// quitting then would leave the support person not knowing whether the
// capture or refund happened (the journal would hold "sent" without an
// outcome). q refuses and says so; ctrl+c pressed twice within a few
// seconds quits anyway.
func (a *App) quit(ctrlC bool, now time.Time) tea.Cmd {
	sending := 0
	for _, t := range a.tabs {
		sending += t.Status().Sending
	}
	if sending == 0 || (ctrlC && now.Before(a.forceQuitUntil)) {
		return tea.Quit
	}
	what := "an action is"
	if sending > 1 {
		what = fmt.Sprintf("%d actions are", sending)
	}
	a.addToast(ToastWarning, what+" still waiting for the service's answer; wait for it, or press ctrl+c twice to quit anyway", now)
	if ctrlC {
		a.forceQuitUntil = now.Add(forceQuitWindow)
	}
	return nil
}
