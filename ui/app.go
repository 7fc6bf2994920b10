package ui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"

	"paydash/backend"
	"paydash/backend/textsafe"
	"paydash/keys"
)

// The shell's sizes and timings.
const (
	MinWidth  = 80 // below MinWidth × MinHeight the shell asks for a bigger window
	MinHeight = 24

	defaultRefreshEvery = 10 * time.Second
	toastFor            = 4 * time.Second
	maxToasts           = 3
	tickEvery           = time.Second
	probeTimeout        = 30 * time.Second
	// chromeLines are the shell's own lines: tab bar, status bar, help bar;
	// an error adds its lines above the status bar (errorLines).
	chromeLines = 3
	// QuitWait bounds how long quitting (q, or a SIGTERM or SIGHUP) waits
	// for the answers of actions still being sent before it journals them
	// as abandoned and quits anyway.
	QuitWait = 10 * time.Second
)

// App is the dashboard's shell: a tea.Model holding the tabs, the modal
// stack, the toasts, the status bar and the timers. Build it with New and
// run it with tea.NewProgram(app).Run().
type App struct {
	cfg   Config
	km    keys.Map
	now   func() time.Time
	loc   *time.Location // where times are shown and periods computed (local)
	every time.Duration
	theme Theme

	tabs   []Tab
	active int
	seen   []tabSeen
	scope  Scope
	desc   backend.Description

	width, height int

	// modal is the open dialog, nil when none: there is room for one
	// only, so a dialog never stacks on another (docs/architecture.md).
	modal      Modal
	nextTicket int // the last preparing dialog's ticket (ActionMsg)
	// confirmClosed is when a confirmation last closed by a key: keys
	// within ConfirmGuard of it were typed for the dialog (a y too many)
	// and do not reach the screen behind it.
	confirmClosed time.Time
	helpOpen      bool
	helpScroll    int // the first line of the help overlay shown, when it is taller than the window

	// Quitting while actions are being sent waits for their answers, at
	// most until quitBy; forceQuitUntil: a second ctrl+c (or signal)
	// before then quits at once, journaling them as abandoned.
	quitting       bool
	quitBy         time.Time
	forceQuitUntil time.Time

	toasts []toast

	// The last error, shown whole above the status bar until dismissed or
	// replaced; errSticky: an action's, which a refresh does not clear;
	// errKey: the ErrorMsg.Key it came with (ClearErrorMsg).
	errText, errHint string
	errSticky        bool
	errKey           string
	bodyH            int // the tab area's height last told to the tabs

	messages       []message // every toast, error and notice, for the messages view
	messagesOpen   bool
	messagesScroll int

	probing  bool
	spin     spinner.Model
	spinning bool

	tickSeq int

	// mouseOn: the View asks for mouse events (Config.NoMouse, the toggle
	// key); click is the last left click, for double clicks.
	mouseOn bool
	click   lastClick

	// Caches of the bars, and the generation of what they depend on
	// besides their keys (the theme, the backend's description).
	help   helpCache
	status statusCache
	bar    tabBarCache
	body   fitMemo // the tab's lines as last fitted to the screen
	gen    int
}

// tabSeen is what the shell last saw of a tab's status.
type tabSeen struct {
	refreshed   time.Time // the tab's TabStatus.Refreshed
	refreshedAt time.Time // when the shell saw it change (shell clock)
	lastRefresh time.Time // when the shell last asked the tab to refresh
}

type toast struct {
	level ToastLevel
	text  string
	until time.Time
}

// Internal messages.
type (
	shellTickMsg struct{ seq int }
	probeDoneMsg struct{ err error }
)

// New builds the shell from cfg. It does no I/O: the first loads, the
// background colour query and the backend probe start in Init.
func New(cfg Config) *App {
	a := &App{
		cfg:   cfg,
		km:    cfg.Keys,
		now:   cfg.Now,
		loc:   time.Local,
		every: cfg.RefreshEvery,
		theme: ChosenTheme(cfg.Theme, cfg.Dark, cfg.NoColor, cfg.Colors),
		tabs:  append([]Tab(nil), cfg.Tabs...),
		scope: cfg.Scope,

		mouseOn: !cfg.NoMouse,
	}
	if a.now == nil {
		a.now = time.Now
	}
	if len(a.km.Global.Quit.Keys()) == 0 { // a zero Map: nothing would answer
		a.km = keys.Default()
	}
	if a.every <= 0 {
		a.every = defaultRefreshEvery
	}
	a.seen = make([]tabSeen, len(a.tabs))
	if cfg.Service != nil {
		a.desc = cfg.Service.Describe()
	}
	a.spin = spinner.New(spinner.WithSpinner(spinner.MiniDot))
	a.applyTheme()
	return a
}

// Init sends the assumed theme to every tab, starts every tab's first load,
// asks the terminal for its background colour, probes the backend and
// starts the shell's clock.
func (app *App) Init() tea.Cmd {
	now := app.now()
	cmds := app.broadcast(ThemeMsg{Theme: app.theme})
	for i, t := range app.tabs {
		cmds = append(cmds, t.Init(app.scope))
		app.seen[i].lastRefresh = now
	}
	cmds = append(cmds, tea.RequestBackgroundColor)
	if app.cfg.Service != nil {
		app.probing = true
		cmds = append(cmds, probeCmd(app.cfg.Service))
	}
	app.tickSeq++
	cmds = append(cmds, tickCmd(app.tickSeq))
	for _, w := range app.cfg.Warnings {
		app.addToast(ToastWarning, w, now)
	}
	for _, n := range app.cfg.Notices {
		app.notice(n, now)
	}
	cmds = append(cmds, app.after(now))
	return tea.Batch(cmds...)
}

func probeCmd(b Service) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), probeTimeout)
		defer cancel()
		return probeDoneMsg{err: b.Probe(ctx)}
	}
}

func tickCmd(seq int) tea.Cmd {
	return tea.Tick(tickEvery, func(time.Time) tea.Msg { return shellTickMsg{seq: seq} })
}

// after runs at the end of every Update: it notes what the tabs report,
// quits once a wait for answers is over, tells the top dialog whether the
// user can see it, gives the tabs their new area when the error above the
// status bar changed its height, drops expired toasts and starts the
// spinner when something loads.
func (app *App) after(now time.Time) tea.Cmd {
	for i, t := range app.tabs {
		st := t.Status()
		if !st.Refreshed.IsZero() && !st.Refreshed.Equal(app.seen[i].refreshed) {
			app.seen[i].refreshed = st.Refreshed
			app.seen[i].refreshedAt = now
			// A successful refresh clears a list's error (ErrorMsg's contract).
			if !app.errSticky {
				app.errText, app.errHint = "", ""
			}
		}
	}
	if app.quitting && app.sending() == 0 {
		return tea.Quit
	}
	app.markLive() // before gate: LIVE widens the title
	app.gate(now)
	var cmds []tea.Cmd
	if h := app.bodyHeight(); h != app.bodyH && app.width > 0 {
		app.bodyH = h
		cmds = app.broadcast(SizeMsg{Width: max(app.width, 0), Height: max(h, 0)})
	}
	app.pruneToasts(now)
	if app.busy() && !app.spinning {
		app.spinning = true
		cmds = append(cmds, app.spin.Tick)
	}
	return tea.Batch(cmds...)
}

// busy: the spinner turns while the probe runs, any tab loads or a dialog
// is being prepared.
func (app *App) busy() bool {
	if app.probing || app.preparing(0) != nil {
		return true
	}
	for _, t := range app.tabs {
		if t.Status().Loading {
			return true
		}
	}
	return false
}

// paused: no periodic refresh while a dialog or an overlay is open.
func (app *App) paused() bool { return app.modal != nil || app.helpOpen || app.messagesOpen }

// tick is the shell's clock: a TickMsg to every tab, the periodic refresh
// of the active tab, toast expiry, the end of a wait for answers.
func (app *App) tick(now time.Time) tea.Cmd {
	if app.quitting && !now.Before(app.quitBy) {
		return app.abandonAndQuit()
	}
	cmds := app.broadcast(TickMsg{Now: now})
	if len(app.tabs) > 0 && !app.paused() && now.Sub(app.seen[app.active].lastRefresh) >= app.every {
		cmds = append(cmds, app.refresh(false, now))
	}
	return tea.Batch(cmds...)
}

func (app *App) refresh(manual bool, now time.Time) tea.Cmd {
	if len(app.tabs) == 0 {
		return nil
	}
	app.seen[app.active].lastRefresh = now
	at := app.serviceNow()
	app.scope = app.scope.At(at)
	return app.updateTab(app.active, RefreshMsg{Manual: manual, Now: at})
}

// serviceNow is the service's time as its answers tell it, in the
// location periods are computed in: rolling periods end at it, so that a
// wrong clock here (or a sandbox clock moved on) hides nothing.
func (app *App) serviceNow() time.Time {
	if app.cfg.ServiceNow != nil {
		return app.cfg.ServiceNow().In(app.loc)
	}
	return app.now().In(app.loc)
}

func (app *App) resize(w, h int) tea.Cmd {
	if w == app.width && h == app.height {
		return nil
	}
	app.width, app.height = w, h
	app.help = helpCache{}
	app.bodyH = app.bodyHeight()
	return tea.Batch(app.broadcast(SizeMsg{Width: max(w, 0), Height: max(app.bodyH, 0)})...)
}

// tooSmall: below MinWidth × MinHeight the screen only asks for a bigger
// window, and no key reaches a tab or a dialog.
func (app *App) tooSmall() bool { return app.width < MinWidth || app.height < MinHeight }

// chromeHeight is the shell's lines around the tab area.
func (app *App) chromeHeight() int { return chromeLines + len(app.errorLines(app.width)) }

// bodyHeight is the tab area's height.
func (app *App) bodyHeight() int { return max(app.height-app.chromeHeight(), 0) }

// updateTab delivers msg to tab i and keeps the tab it returns.
func (app *App) updateTab(i int, msg tea.Msg) tea.Cmd {
	if i < 0 || i >= len(app.tabs) {
		return nil
	}
	t, cmd := app.tabs[i].Update(msg)
	if t != nil {
		app.tabs[i] = t
	}
	if d, ok := app.tabs[i].(DialogOpener); ok {
		if msg, ok := d.TakeDialog(); ok {
			cmd = tea.Batch(cmd, app.openDialog(msg, app.now()))
		}
	}
	return cmd
}

// broadcast delivers msg to every tab, active or not.
func (app *App) broadcast(msg tea.Msg) []tea.Cmd {
	cmds := make([]tea.Cmd, 0, len(app.tabs))
	for i := range app.tabs {
		cmds = append(cmds, app.updateTab(i, msg))
	}
	return cmds
}

func (app *App) setScope(s Scope, now time.Time) []tea.Cmd {
	s = s.At(app.serviceNow()) // a preset chosen is computed on the service's clock
	app.scope = s
	for i := range app.seen {
		app.seen[i].lastRefresh = now
	}
	return app.broadcast(ScopeMsg{Scope: s})
}

func (app *App) switchTo(id TabID, then tea.Msg) tea.Cmd {
	i := app.tabIndex(id)
	if i < 0 {
		app.addToast(ToastWarning, noTab(id), app.now())
		return nil
	}
	app.active = i
	if then == nil {
		return nil
	}
	return app.updateTab(i, then)
}

func (app *App) tabIndex(id TabID) int {
	for i, t := range app.tabs {
		if t.ID() == id {
			return i
		}
	}
	return -1
}

// setError shows err above the status bar (and keeps it in the messages
// view) until it is dismissed or replaced; a sticky one (an action's) is
// not cleared by a refresh.
func (app *App) setError(err error, hint string, sticky bool, now time.Time) {
	app.errKey = ""
	if err == nil {
		app.errText, app.errHint, app.errSticky = "", "", false
		return
	}
	var be *backend.Error
	if hint == "" && errors.As(err, &be) {
		hint = be.Hint()
		if be.Kind == backend.KindMalformed && app.cfg.RequestLog != "" {
			hint += "; the request log " + app.cfg.RequestLog + " records each request"
		}
	}
	app.errText = textsafe.Line(err.Error(), 1000)
	app.errHint = textsafe.Line(hint, 300)
	app.errSticky = sticky
	app.logMessage(ToastError, strings.TrimPrefix(app.fullError(), "✗ "), now)
}

func (app *App) addToast(level ToastLevel, text string, now time.Time) {
	app.logMessage(level, text, now)
	text = textsafe.Line(text, 200)
	if text == "" {
		return
	}
	if n := len(app.toasts); n > 0 && app.toasts[n-1].text == text && app.toasts[n-1].level == level {
		app.toasts[n-1].until = now.Add(toastFor) // the same again: keep it longer, do not stack
		return
	}
	app.toasts = append(app.toasts, toast{level: level, text: text, until: now.Add(toastFor)})
	if len(app.toasts) > maxToasts {
		app.toasts = append(app.toasts[:0], app.toasts[len(app.toasts)-maxToasts:]...)
	}
}

// pruneToasts drops the toasts whose time is up. While a dialog is open
// they wait (it may hide them); they get their time again when it closes.
func (app *App) pruneToasts(now time.Time) {
	if app.modal != nil {
		for i := range app.toasts {
			app.toasts[i].until = later(app.toasts[i].until, now.Add(toastFor))
		}
		return
	}
	kept := app.toasts[:0]
	for _, t := range app.toasts {
		if now.Before(t.until) {
			kept = append(kept, t)
		}
	}
	app.toasts = kept
}

func (app *App) applyTheme() {
	app.spin.Style = app.theme.Accent
	app.help = helpCache{}
	app.gen++
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// openModal opens a dialog; a dialog needs an answer, so it comes before
// the overlays.
func (app *App) openModal(m Modal) {
	app.helpOpen, app.messagesOpen = false, false
	if app.modal != nil {
		app.cfg.DebugLog.Log("dialog_open", "dialog", dialogName(m), "replaces", dialogName(app.modal))
	} else {
		app.cfg.DebugLog.Log("dialog_open", "dialog", dialogName(m))
	}
	app.modal = m
}

// closeModal closes the open dialog.
func (app *App) closeModal() {
	app.cfg.DebugLog.Log("dialog_close", "dialog", dialogName(app.modal))
	app.modal = nil
}

// dialogName is what kind of dialog m is, for the debug log: its type,
// never its text ("confirm", "preparing", "copyChooser").
func dialogName(m Modal) string {
	s := fmt.Sprintf("%T", m)
	s = s[strings.LastIndex(s, ".")+1:]
	return strings.TrimSuffix(s, "Modal")
}

// ignoredCounter is a dialog that counts the keys it ignored, and says
// why the last was.
type ignoredCounter interface {
	ignoredKeys() (n int, why string)
}

// logIgnored writes a debug line when m ignored more keys than before:
// the reason, never the key (typed digits are the customer's data).
func (app *App) logIgnored(m Modal, before int) {
	if c, ok := m.(ignoredCounter); ok {
		if n, why := c.ignoredKeys(); n > before {
			app.cfg.DebugLog.Log("key_ignored", "dialog", dialogName(m), "why", why)
		}
	}
}

// showDialog is the one way a tab's dialog opens, whatever message
// brought it: in place of the preparing dialog prep when it is set and
// still open (one the user gave up is gone, and so is its dialog), else
// only when no dialog is open (a dialog never stacks on another); it is
// dropped otherwise. The dialog's Init, when it has one, runs once it is
// on screen.
func (app *App) showDialog(m Modal, prep *preparingModal) tea.Cmd {
	switch {
	case m == nil:
		return nil
	case prep != nil && app.modal != Modal(prep): // the user gave it up
		return nil
	case prep == nil && app.modal != nil: // a dialog never stacks
		return nil
	}
	app.openModal(m)
	if in, ok := m.(Initer); ok {
		return in.Init()
	}
	return nil
}

// preparing is the open preparing dialog of ticket (any ticket when 0),
// nil when there is none.
func (app *App) preparing(ticket int) *preparingModal {
	p, ok := app.modal.(*preparingModal)
	if !ok || (ticket != 0 && p.ticket != ticket) {
		return nil
	}
	return p
}

// startAction opens the preparing dialog for an action key at once, and
// asks the active tab to prepare the confirmation (ActionMsg).
func (app *App) startAction(action keys.Action) tea.Cmd {
	app.nextTicket++
	b, _ := app.km.Binding(action)
	title := "Preparing: " + b.Help().Desc
	if n, ok := app.tabs[app.active].(targetNamer); ok {
		if t := n.ActionTarget(action); t != "" {
			title = t
		}
	}
	app.openModal(newPreparing(app.nextTicket, app.active, title, app.km, app.theme, app.spin.View))
	return app.updateTab(app.active, ActionMsg{Action: action, Ticket: app.nextTicket})
}

// notice shows news the user must not miss: in the open notice dialog, in
// a new one when no dialog is open, as a toast when another dialog is
// (never stacked on it). It is kept in the messages view either way.
func (app *App) notice(m Notice, now time.Time) {
	if app.modal != nil {
		if n, ok := app.modal.(*noticeModal); ok {
			n.set(m)
			app.logMessage(m.Level, m.Text, now)
			return
		}
		app.addToast(m.Level, m.Text, now)
		return
	}
	n := newNotice(m.Title, app.km, app.theme)
	n.set(m)
	app.openModal(n)
	app.logMessage(m.Level, m.Text, now)
}

// gatedModal is a dialog that acts only while the user can see all of it
// (docs/confirmation.md): after every message the shell tells it whether it
// is drawn in full; keys that come while it is not are ignored and counted.
type gatedModal interface {
	fits(maxWidth, maxHeight int) bool
	setShown(shown bool, now time.Time)
}

// keyCounter is a dialog that counts the keys it did not take.
type keyCounter interface {
	ignore(msg tea.Msg, why string)
}

// gate tells the top dialog whether it is on screen in full.
func (app *App) gate(now time.Time) {
	g, ok := app.modal.(gatedModal)
	if !ok {
		return
	}
	g.setShown(!app.tooSmall() && g.fits(app.width-4, app.bodyHeight()), now)
}

// swallowKey drops a key that came while the window was too small to show
// anything; the open dialog counts it, so it can say so when it shows.
func (app *App) swallowKey(msg tea.Msg, why string) {
	app.cfg.DebugLog.Log("key_ignored", "why", why)
	if k, ok := app.modal.(keyCounter); ok {
		k.ignore(msg, why)
	}
}

// sending is the number of actions sent and not yet answered, in all tabs.
func (app *App) sending() int {
	n := 0
	for _, t := range app.tabs {
		n += t.Status().Sending
	}
	return n
}
