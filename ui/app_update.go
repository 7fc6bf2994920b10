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
func (app *App) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	now := app.now()
	cmds := app.route(cleanInput(msg), now)
	cmds = append(cmds, app.after(now))
	return app, tea.Batch(cmds...)
}

// route hands msg to the step for its kind; what the shell does not know
// goes to every tab.
func (app *App) route(msg tea.Msg, now time.Time) []tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		return []tea.Cmd{app.resize(msg.Width, msg.Height)}
	case tea.KeyPressMsg:
		return []tea.Cmd{app.key(msg, now)}
	case tea.MouseMsg:
		return []tea.Cmd{app.mouse(msg, now)}
	case tea.KeyReleaseMsg:
		return nil // not used: presses act
	case tea.PasteMsg:
		return []tea.Cmd{app.onPaste(msg, now)}
	case tea.BackgroundColorMsg:
		return app.onBackgroundColor(msg)
	case shellTickMsg:
		return app.onShellTick(msg, now)
	case spinner.TickMsg:
		return []tea.Cmd{app.onSpinnerTick(msg)}
	case probeDoneMsg:
		return app.onProbeDone(msg, now)
	case OpenDialogMsg:
		return []tea.Cmd{app.openDialog(msg, now)}
	case ModalMsg:
		return []tea.Cmd{app.onModalMsg(msg, now)}
	case CloseDialogMsg:
		app.onActionRefused(msg, now)
	case ShutdownMsg:
		return []tea.Cmd{app.quit(quitBySignal, now)}
	case ToastMsg:
		app.addToast(msg.Level, msg.Text, now)
	case CopiedMsg:
		app.addToast(ToastInfo, CopiedText(msg, app.cfg.InTmux), now)
	case ErrorMsg:
		app.onError(msg, now)
	case ClearErrorMsg:
		app.onClearError(msg, now)
	case SwitchTabMsg:
		var cmds []tea.Cmd
		if msg.Scope != nil {
			cmds = app.setScope(*msg.Scope, now)
		}
		return append(cmds, app.switchTo(msg.Tab, msg.Then))
	case ScopeMsg:
		// A tab may ask for another scope the same way the choosers do.
		return app.setScope(msg.Scope, now)
	default:
		return app.broadcast(msg)
	}
	return nil
}

// onPaste gives a paste to the top dialog, else to the active tab; none
// while the screen is too small to show where it would go, or help or the
// messages are open.
func (app *App) onPaste(msg tea.PasteMsg, now time.Time) tea.Cmd {
	switch {
	case app.tooSmall():
		app.swallowKey(msg, whyHidden)
	case app.modal != nil:
		return app.updateModal(msg, now)
	case !app.helpOpen && !app.messagesOpen:
		return app.updateTab(app.active, msg)
	}
	return nil
}

// onBackgroundColor takes the terminal's background: the theme follows
// it, and the tabs are told.
func (app *App) onBackgroundColor(msg tea.BackgroundColorMsg) []tea.Cmd {
	if !FollowsTerminal(app.cfg.Theme) {
		return nil // the person chose light or dark
	}
	app.theme = ChosenTheme(app.cfg.Theme, msg.IsDark(), app.cfg.NoColor, app.cfg.Colors)
	app.applyTheme()
	return app.broadcast(ThemeMsg{Theme: app.theme})
}

// onShellTick runs the shell's clock and asks for its next tick; the tick
// of a stale chain is dropped, so only one clock runs.
func (app *App) onShellTick(msg shellTickMsg, now time.Time) []tea.Cmd {
	if msg.seq != app.tickSeq {
		return nil
	}
	return []tea.Cmd{app.tick(now), tickCmd(app.tickSeq)}
}

// onSpinnerTick turns the spinner while something loads; idle, it lets
// the spinner's chain end here.
func (app *App) onSpinnerTick(msg spinner.TickMsg) tea.Cmd {
	if !app.busy() {
		app.spinning = false
		return nil
	}
	var c tea.Cmd
	app.spin, c = app.spin.Update(msg)
	return c
}

// onProbeDone takes the service's first answer: its description, or the
// error that it gave.
func (app *App) onProbeDone(msg probeDoneMsg, now time.Time) []tea.Cmd {
	app.probing = false
	if app.cfg.Service != nil {
		app.desc = app.cfg.Service.Describe()
		app.gen++
	}
	if msg.err != nil {
		app.setError(msg.err, "", false, now)
	}
	// The first answer told the service's time. A rolling period
	// computed on a clock here that is behind the service's (its end
	// is before the service's now) or a day off starts again, so the
	// first screen shows the newest rows on top; one the clocks agree
	// on within its lead stays.
	if at := app.serviceNow(); app.scope.Rolling() && (!at.Before(app.scope.End) || !app.scope.At(at).Start.Equal(app.scope.Start)) {
		return app.setScope(app.scope.At(at), now)
	}
	return nil
}

// openDialog opens what msg asks for (OpenDialogMsg says how): the one
// place a dialog opens.
func (app *App) openDialog(msg OpenDialogMsg, now time.Time) tea.Cmd {
	switch {
	case msg.Notice != nil:
		app.notice(*msg.Notice, now)
		return nil
	case msg.Confirm != nil:
		return app.openConfirm(msg.Ticket, *msg.Confirm, now)
	case msg.Modal == nil:
		return nil
	case msg.Ticket == 0:
		return app.showDialog(msg.Modal, nil)
	}
	if p := app.preparing(msg.Ticket); p != nil {
		return app.showDialog(msg.Modal, p)
	}
	return nil
}

// openConfirm puts up the confirmation a tab prepared for its ticket, in
// place of the preparing dialog; a stale ticket opens nothing.
func (app *App) openConfirm(ticket int, spec ConfirmSpec, now time.Time) tea.Cmd {
	p := app.preparing(ticket)
	if p == nil {
		return nil
	}
	c := NewConfirm(spec, now, app.km, app.theme).(*confirmModal)
	// The keys typed while it was prepared were typed at a dialog
	// nobody had seen: it counts them, and says so when they would
	// have changed the amount.
	for _, k := range p.held {
		c.ignore(k, whyPreparing)
	}
	for range p.extra {
		c.swallow(whyPreparing)
	}
	return app.showDialog(c, p)
}

// onModalMsg gives a dialog's own answer to the open dialog, if any.
func (app *App) onModalMsg(msg ModalMsg, now time.Time) tea.Cmd {
	if app.modal != nil {
		return app.updateModal(msg, now)
	}
	return nil
}

// onActionRefused closes the preparing dialog of a refused action and
// says why; a refusal for no open ticket goes to the messages only.
func (app *App) onActionRefused(msg CloseDialogMsg, now time.Time) {
	if app.preparing(msg.Ticket) == nil {
		app.logMessage(msg.Level, msg.Text, now)
		return
	}
	app.closeModal()
	if msg.Level == ToastError {
		// A read that failed: its reason and what to do are
		// shown whole, above the status bar, until dismissed;
		// a toast would cut them to one line.
		app.setError(errors.New(msg.Text), "", true, now)
		return
	}
	app.addToast(msg.Level, msg.Text, now)
}

// onError shows a tab's error above the status bar, remembering its key
// so that the tab can clear it (onClearError).
func (app *App) onError(msg ErrorMsg, now time.Time) {
	app.setError(msg.Err, msg.Hint, msg.Sticky, now)
	if msg.Err != nil {
		app.errKey = msg.Key
	}
}

// onClearError clears the error shown above the status bar when it is the
// one msg names.
func (app *App) onClearError(msg ClearErrorMsg, now time.Time) {
	if msg.Key != "" && msg.Key == app.errKey {
		app.setError(nil, "", false, now)
	}
}
