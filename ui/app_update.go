package ui

import (
	"errors"
	"time"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
)

// Update handles the shell's own keys and messages and routes the rest:
// key presses to the top modal or the active tab, everything else to every
// tab. After any message, after brings the shell up to date.
func (a *App) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	now := a.now()
	cmds := a.route(cleanInput(msg), now)
	cmds = append(cmds, a.after(now))
	return a, tea.Batch(cmds...)
}

// route hands msg to the step for its kind; what the shell does not know
// goes to every tab.
func (a *App) route(msg tea.Msg, now time.Time) []tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		return []tea.Cmd{a.resize(msg.Width, msg.Height)}
	case tea.KeyPressMsg:
		return []tea.Cmd{a.key(msg, now)}
	case tea.MouseMsg:
		return []tea.Cmd{a.mouse(msg, now)}
	case tea.KeyReleaseMsg:
		return nil // not used: presses act
	case tea.PasteMsg:
		return []tea.Cmd{a.onPaste(msg, now)}
	case tea.BackgroundColorMsg:
		return a.onBackgroundColor(msg)
	case shellTickMsg:
		return a.onShellTick(msg, now)
	case spinner.TickMsg:
		return []tea.Cmd{a.onSpinnerTick(msg)}
	case probeDoneMsg:
		return a.onProbeDone(msg, now)
	case OpenDialogMsg:
		return []tea.Cmd{a.openDialog(msg, now)}
	case ModalMsg:
		return []tea.Cmd{a.onModalMsg(msg, now)}
	case CloseDialogMsg:
		a.onActionRefused(msg, now)
	case ShutdownMsg:
		return []tea.Cmd{a.quit(quitBySignal, now)}
	case ToastMsg:
		a.addToast(msg.Level, msg.Text, now)
	case ErrorMsg:
		a.onError(msg, now)
	case ClearErrorMsg:
		a.onClearError(msg, now)
	case SwitchTabMsg:
		return []tea.Cmd{a.switchTo(msg.Tab, msg.Then)}
	case ScopeMsg:
		// A tab may ask for another scope the same way the choosers do.
		return a.setScope(msg.Scope, now)
	default:
		return a.broadcast(msg)
	}
	return nil
}

// onPaste gives a paste to the top dialog, else to the active tab; none
// while the screen is too small to show where it would go, or help or the
// messages are open.
func (a *App) onPaste(msg tea.PasteMsg, now time.Time) tea.Cmd {
	switch {
	case a.tooSmall():
		a.swallowKey(msg, whyHidden)
	case a.modal != nil:
		return a.updateModal(msg, now)
	case !a.helpOpen && !a.messagesOpen:
		return a.updateTab(a.active, msg)
	}
	return nil
}

// onBackgroundColor takes the terminal's background: the theme follows
// it, and the tabs are told.
func (a *App) onBackgroundColor(msg tea.BackgroundColorMsg) []tea.Cmd {
	a.theme = NewTheme(msg.IsDark(), a.cfg.NoColor)
	a.applyTheme()
	return a.broadcast(ThemeMsg{Theme: a.theme})
}

// onShellTick runs the shell's clock and asks for its next tick; the tick
// of a stale chain is dropped, so only one clock runs.
func (a *App) onShellTick(msg shellTickMsg, now time.Time) []tea.Cmd {
	if msg.seq != a.tickSeq {
		return nil
	}
	return []tea.Cmd{a.tick(now), tickCmd(a.tickSeq)}
}

// onSpinnerTick turns the spinner while something loads; idle, it lets
// the spinner's chain end here.
func (a *App) onSpinnerTick(msg spinner.TickMsg) tea.Cmd {
	if !a.busy() {
		a.spinning = false
		return nil
	}
	var c tea.Cmd
	a.spin, c = a.spin.Update(msg)
	return c
}

// onProbeDone takes the service's first answer: its description, or the
// error that it gave.
func (a *App) onProbeDone(msg probeDoneMsg, now time.Time) []tea.Cmd {
	a.probing = false
	if a.cfg.Service != nil {
		a.desc = a.cfg.Service.Describe()
		a.gen++
	}
	if msg.err != nil {
		a.setError(msg.err, "", false, now)
	}
	// The first answer told the service's time. A rolling period
	// computed on a clock here that is behind the service's (its end
	// is before the service's now) or a day off starts again, so the
	// first screen shows the newest rows on top; one the clocks agree
	// on within its lead stays.
	if at := a.serviceNow(); a.scope.Rolling() && (!at.Before(a.scope.End) || !a.scope.At(at).Start.Equal(a.scope.Start)) {
		return a.setScope(a.scope.At(at), now)
	}
	return nil
}

// openDialog opens what msg asks for (OpenDialogMsg says how): the one
// place a dialog opens.
func (a *App) openDialog(msg OpenDialogMsg, now time.Time) tea.Cmd {
	switch {
	case msg.Notice != nil:
		a.notice(*msg.Notice, now)
		return nil
	case msg.Confirm != nil:
		return a.openConfirm(msg.Ticket, *msg.Confirm, now)
	case msg.Modal == nil:
		return nil
	case msg.Ticket == 0:
		return a.showDialog(msg.Modal, nil)
	}
	if p := a.preparing(msg.Ticket); p != nil {
		return a.showDialog(msg.Modal, p)
	}
	return nil
}

// openConfirm puts up the confirmation a tab prepared for its ticket, in
// place of the preparing dialog; a stale ticket opens nothing.
func (a *App) openConfirm(ticket int, spec ConfirmSpec, now time.Time) tea.Cmd {
	p := a.preparing(ticket)
	if p == nil {
		return nil
	}
	c := NewConfirm(spec, now, a.km, a.theme).(*confirmModal)
	// The keys typed while it was prepared were typed at a dialog
	// nobody had seen: it counts them, and says so when they would
	// have changed the amount.
	for _, k := range p.held {
		c.ignore(k, whyPreparing)
	}
	for range p.extra {
		c.swallow(whyPreparing)
	}
	return a.showDialog(c, p)
}

// onModalMsg gives a dialog's own answer to the open dialog, if any.
func (a *App) onModalMsg(msg ModalMsg, now time.Time) tea.Cmd {
	if a.modal != nil {
		return a.updateModal(msg, now)
	}
	return nil
}

// onActionRefused closes the preparing dialog of a refused action and
// says why; a refusal for no open ticket goes to the messages only.
func (a *App) onActionRefused(msg CloseDialogMsg, now time.Time) {
	if a.preparing(msg.Ticket) == nil {
		a.logMessage(msg.Level, msg.Text, now)
		return
	}
	a.modal = nil
	if msg.Level == ToastError {
		// A read that failed: its reason and what to do are
		// shown whole, above the status bar, until dismissed;
		// a toast would cut them to one line.
		a.setError(errors.New(msg.Text), "", true, now)
		return
	}
	a.addToast(msg.Level, msg.Text, now)
}

// onError shows a tab's error above the status bar, remembering its key
// so that the tab can clear it (onClearError).
func (a *App) onError(msg ErrorMsg, now time.Time) {
	a.setError(msg.Err, msg.Hint, msg.Sticky, now)
	if msg.Err != nil {
		a.errKey = msg.Key
	}
}

// onClearError clears the error shown above the status bar when it is the
// one msg names.
func (a *App) onClearError(msg ClearErrorMsg, now time.Time) {
	if msg.Key != "" && msg.Key == a.errKey {
		a.setError(nil, "", false, now)
	}
}
