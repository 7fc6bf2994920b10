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
		theme: NewTheme(cfg.Dark, cfg.NoColor),
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
func (a *App) Init() tea.Cmd {
	now := a.now()
	cmds := a.broadcast(ThemeMsg{Theme: a.theme})
	for i, t := range a.tabs {
		cmds = append(cmds, t.Init(a.scope))
		a.seen[i].lastRefresh = now
	}
	cmds = append(cmds, tea.RequestBackgroundColor)
	if a.cfg.Service != nil {
		a.probing = true
		cmds = append(cmds, probeCmd(a.cfg.Service))
	}
	a.tickSeq++
	cmds = append(cmds, tickCmd(a.tickSeq))
	for _, w := range a.cfg.Warnings {
		a.addToast(ToastWarning, w, now)
	}
	for _, n := range a.cfg.Notices {
		a.notice(n, now)
	}
	cmds = append(cmds, a.after(now))
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
func (a *App) after(now time.Time) tea.Cmd {
	for i, t := range a.tabs {
		st := t.Status()
		if !st.Refreshed.IsZero() && !st.Refreshed.Equal(a.seen[i].refreshed) {
			a.seen[i].refreshed = st.Refreshed
			a.seen[i].refreshedAt = now
			// A successful refresh clears a list's error (ErrorMsg's contract).
			if !a.errSticky {
				a.errText, a.errHint = "", ""
			}
		}
	}
	if a.quitting && a.sending() == 0 {
		return tea.Quit
	}
	a.markLive() // before gate: LIVE widens the title
	a.gate(now)
	var cmds []tea.Cmd
	if h := a.bodyHeight(); h != a.bodyH && a.width > 0 {
		a.bodyH = h
		cmds = a.broadcast(SizeMsg{Width: max(a.width, 0), Height: max(h, 0)})
	}
	a.pruneToasts(now)
	if a.busy() && !a.spinning {
		a.spinning = true
		cmds = append(cmds, a.spin.Tick)
	}
	return tea.Batch(cmds...)
}

// busy: the spinner turns while the probe runs, any tab loads or a dialog
// is being prepared.
func (a *App) busy() bool {
	if a.probing || a.preparing(0) != nil {
		return true
	}
	for _, t := range a.tabs {
		if t.Status().Loading {
			return true
		}
	}
	return false
}

// paused: no periodic refresh while a dialog or an overlay is open.
func (a *App) paused() bool { return a.modal != nil || a.helpOpen || a.messagesOpen }

// tick is the shell's clock: a TickMsg to every tab, the periodic refresh
// of the active tab, toast expiry, the end of a wait for answers.
func (a *App) tick(now time.Time) tea.Cmd {
	if a.quitting && !now.Before(a.quitBy) {
		return a.abandonAndQuit()
	}
	cmds := a.broadcast(TickMsg{Now: now})
	if len(a.tabs) > 0 && !a.paused() && now.Sub(a.seen[a.active].lastRefresh) >= a.every {
		cmds = append(cmds, a.refresh(false, now))
	}
	return tea.Batch(cmds...)
}

func (a *App) refresh(manual bool, now time.Time) tea.Cmd {
	if len(a.tabs) == 0 {
		return nil
	}
	a.seen[a.active].lastRefresh = now
	at := a.serviceNow()
	a.scope = a.scope.At(at)
	return a.updateTab(a.active, RefreshMsg{Manual: manual, Now: at})
}

// serviceNow is the service's time as its answers tell it, in the
// location periods are computed in: rolling periods end at it, so that a
// wrong clock here (or a sandbox clock moved on) hides nothing.
func (a *App) serviceNow() time.Time {
	if a.cfg.ServiceNow != nil {
		return a.cfg.ServiceNow().In(a.loc)
	}
	return a.now().In(a.loc)
}

func (a *App) resize(w, h int) tea.Cmd {
	if w == a.width && h == a.height {
		return nil
	}
	a.width, a.height = w, h
	a.help = helpCache{}
	a.bodyH = a.bodyHeight()
	return tea.Batch(a.broadcast(SizeMsg{Width: max(w, 0), Height: max(a.bodyH, 0)})...)
}

// tooSmall: below MinWidth × MinHeight the screen only asks for a bigger
// window, and no key reaches a tab or a dialog.
func (a *App) tooSmall() bool { return a.width < MinWidth || a.height < MinHeight }

// chromeHeight is the shell's lines around the tab area.
func (a *App) chromeHeight() int { return chromeLines + len(a.errorLines(a.width)) }

// bodyHeight is the tab area's height.
func (a *App) bodyHeight() int { return max(a.height-a.chromeHeight(), 0) }

// updateTab delivers msg to tab i and keeps the tab it returns.
func (a *App) updateTab(i int, msg tea.Msg) tea.Cmd {
	if i < 0 || i >= len(a.tabs) {
		return nil
	}
	t, cmd := a.tabs[i].Update(msg)
	if t != nil {
		a.tabs[i] = t
	}
	if d, ok := a.tabs[i].(DialogOpener); ok {
		if msg, ok := d.TakeDialog(); ok {
			cmd = tea.Batch(cmd, a.openDialog(msg, a.now()))
		}
	}
	return cmd
}

// broadcast delivers msg to every tab, active or not.
func (a *App) broadcast(msg tea.Msg) []tea.Cmd {
	cmds := make([]tea.Cmd, 0, len(a.tabs))
	for i := range a.tabs {
		cmds = append(cmds, a.updateTab(i, msg))
	}
	return cmds
}

func (a *App) setScope(s Scope, now time.Time) []tea.Cmd {
	s = s.At(a.serviceNow()) // a preset chosen is computed on the service's clock
	a.scope = s
	for i := range a.seen {
		a.seen[i].lastRefresh = now
	}
	return a.broadcast(ScopeMsg{Scope: s})
}

func (a *App) switchTo(id TabID, then tea.Msg) tea.Cmd {
	i := a.tabIndex(id)
	if i < 0 {
		a.addToast(ToastWarning, fmt.Sprintf("there is no %s tab", id), a.now())
		return nil
	}
	a.active = i
	if then == nil {
		return nil
	}
	return a.updateTab(i, then)
}

func (a *App) tabIndex(id TabID) int {
	for i, t := range a.tabs {
		if t.ID() == id {
			return i
		}
	}
	return -1
}

// setError shows err above the status bar (and keeps it in the messages
// view) until it is dismissed or replaced; a sticky one (an action's) is
// not cleared by a refresh.
func (a *App) setError(err error, hint string, sticky bool, now time.Time) {
	a.errKey = ""
	if err == nil {
		a.errText, a.errHint, a.errSticky = "", "", false
		return
	}
	var be *backend.Error
	if hint == "" && errors.As(err, &be) {
		hint = be.Hint()
		if be.Kind == backend.KindMalformed && a.cfg.RequestLog != "" {
			hint += "; the request log " + a.cfg.RequestLog + " records each request"
		}
	}
	a.errText = textsafe.Line(err.Error(), 1000)
	a.errHint = textsafe.Line(hint, 300)
	a.errSticky = sticky
	a.logMessage(ToastError, strings.TrimPrefix(a.fullError(), "✗ "), now)
}

func (a *App) addToast(level ToastLevel, text string, now time.Time) {
	a.logMessage(level, text, now)
	text = textsafe.Line(text, 200)
	if text == "" {
		return
	}
	if n := len(a.toasts); n > 0 && a.toasts[n-1].text == text && a.toasts[n-1].level == level {
		a.toasts[n-1].until = now.Add(toastFor) // the same again: keep it longer, do not stack
		return
	}
	a.toasts = append(a.toasts, toast{level: level, text: text, until: now.Add(toastFor)})
	if len(a.toasts) > maxToasts {
		a.toasts = append(a.toasts[:0], a.toasts[len(a.toasts)-maxToasts:]...)
	}
}

// pruneToasts drops the toasts whose time is up. While a dialog is open
// they wait (it may hide them); they get their time again when it closes.
func (a *App) pruneToasts(now time.Time) {
	if a.modal != nil {
		for i := range a.toasts {
			a.toasts[i].until = later(a.toasts[i].until, now.Add(toastFor))
		}
		return
	}
	kept := a.toasts[:0]
	for _, t := range a.toasts {
		if now.Before(t.until) {
			kept = append(kept, t)
		}
	}
	a.toasts = kept
}

func (a *App) applyTheme() {
	a.spin.Style = a.theme.Accent
	a.help = helpCache{}
	a.gen++
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// openModal opens a dialog; a dialog needs an answer, so it comes before
// the overlays.
func (a *App) openModal(m Modal) {
	a.helpOpen, a.messagesOpen = false, false
	a.modal = m
}

// showDialog is the one way a tab's dialog opens, whatever message
// brought it: in place of the preparing dialog prep when it is set and
// still open (one the user gave up is gone, and so is its dialog), else
// only when no dialog is open (a dialog never stacks on another); it is
// dropped otherwise. The dialog's Init, when it has one, runs once it is
// on screen.
func (a *App) showDialog(m Modal, prep *preparingModal) tea.Cmd {
	switch {
	case m == nil:
		return nil
	case prep != nil && a.modal != Modal(prep): // the user gave it up
		return nil
	case prep == nil && a.modal != nil: // a dialog never stacks
		return nil
	}
	a.openModal(m)
	if in, ok := m.(Initer); ok {
		return in.Init()
	}
	return nil
}

// preparing is the open preparing dialog of ticket (any ticket when 0),
// nil when there is none.
func (a *App) preparing(ticket int) *preparingModal {
	p, ok := a.modal.(*preparingModal)
	if !ok || (ticket != 0 && p.ticket != ticket) {
		return nil
	}
	return p
}

// startAction opens the preparing dialog for an action key at once, and
// asks the active tab to prepare the confirmation (ActionMsg).
func (a *App) startAction(action keys.Action) tea.Cmd {
	a.nextTicket++
	b, _ := a.km.Binding(action)
	title := "Preparing: " + b.Help().Desc
	if n, ok := a.tabs[a.active].(targetNamer); ok {
		if t := n.ActionTarget(action); t != "" {
			title = t
		}
	}
	a.openModal(newPreparing(a.nextTicket, a.active, title, a.km, a.theme, a.spin.View))
	return a.updateTab(a.active, ActionMsg{Action: action, Ticket: a.nextTicket})
}

// notice shows news the user must not miss: in the open notice dialog, in
// a new one when no dialog is open, as a toast when another dialog is
// (never stacked on it). It is kept in the messages view either way.
func (a *App) notice(m Notice, now time.Time) {
	if a.modal != nil {
		if n, ok := a.modal.(*noticeModal); ok {
			n.set(m)
			a.logMessage(m.Level, m.Text, now)
			return
		}
		a.addToast(m.Level, m.Text, now)
		return
	}
	n := newNotice(m.Title, a.km, a.theme)
	n.set(m)
	a.openModal(n)
	a.logMessage(m.Level, m.Text, now)
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
func (a *App) gate(now time.Time) {
	g, ok := a.modal.(gatedModal)
	if !ok {
		return
	}
	g.setShown(!a.tooSmall() && g.fits(a.width-4, a.bodyHeight()), now)
}

// swallowKey drops a key that came while the window was too small to show
// anything; the open dialog counts it, so it can say so when it shows.
func (a *App) swallowKey(msg tea.Msg, why string) {
	if k, ok := a.modal.(keyCounter); ok {
		k.ignore(msg, why)
	}
}

// sending is the number of actions sent and not yet answered, in all tabs.
func (a *App) sending() int {
	n := 0
	for _, t := range a.tabs {
		n += t.Status().Sending
	}
	return n
}
