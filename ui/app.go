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
	// chromeLines are the shell's own lines: tab bar, status bar, help bar.
	chromeLines = 3
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

	modals     []Modal
	helpOpen   bool
	helpScroll int // the first line of the help overlay shown, when it is taller than the window
	// forceQuitUntil: a second ctrl+c before then quits even while an action is being sent.
	forceQuitUntil time.Time
	toasts         []toast

	errText, errHint string

	probing  bool
	spin     spinner.Model
	spinning bool

	tickSeq int

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
	if cfg.Backend != nil {
		a.desc = cfg.Backend.Describe()
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
	if a.cfg.Backend != nil {
		a.probing = true
		cmds = append(cmds, probeCmd(a.cfg.Backend))
	}
	a.tickSeq++
	cmds = append(cmds, tickCmd(a.tickSeq))
	cmds = append(cmds, a.after(now))
	return tea.Batch(cmds...)
}

func probeCmd(b backend.Backend) tea.Cmd {
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), probeTimeout)
		defer cancel()
		return probeDoneMsg{err: b.Probe(ctx)}
	}
}

func tickCmd(seq int) tea.Cmd {
	return tea.Tick(tickEvery, func(time.Time) tea.Msg { return shellTickMsg{seq: seq} })
}

// Update handles the shell's own keys and messages and routes the rest:
// key presses to the top modal or the active tab, everything else to every
// tab.
func (a *App) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	now := a.now()
	var cmds []tea.Cmd
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		cmds = append(cmds, a.resize(msg.Width, msg.Height))
	case tea.KeyPressMsg:
		cmds = append(cmds, a.key(msg, now))
	case tea.KeyReleaseMsg, tea.MouseMsg:
		// Not used: presses act, the mouse is off.
	case tea.PasteMsg:
		if len(a.modals) > 0 {
			cmds = append(cmds, a.updateModal(msg, now))
		} else if !a.helpOpen {
			cmds = append(cmds, a.updateTab(a.active, msg))
		}
	case tea.BackgroundColorMsg:
		a.theme = NewTheme(msg.IsDark(), a.cfg.NoColor)
		a.applyTheme()
		cmds = append(cmds, a.broadcast(ThemeMsg{Theme: a.theme})...)
	case shellTickMsg:
		if msg.seq != a.tickSeq {
			break // a stale chain: only one clock runs
		}
		cmds = append(cmds, a.tick(now), tickCmd(a.tickSeq))
	case spinner.TickMsg:
		if !a.busy() {
			a.spinning = false // idle: let the spinner's chain end here
			break
		}
		var c tea.Cmd
		a.spin, c = a.spin.Update(msg)
		cmds = append(cmds, c)
	case probeDoneMsg:
		a.probing = false
		if a.cfg.Backend != nil {
			a.desc = a.cfg.Backend.Describe()
			a.gen++
		}
		if msg.err != nil {
			a.setError(msg.err, "")
		}
	case OpenModalMsg:
		if msg.Modal != nil {
			a.helpOpen = false // a dialog needs an answer: it comes first
			a.modals = append(a.modals, msg.Modal)
		}
	case OpenConfirmMsg:
		a.helpOpen = false
		a.modals = append(a.modals, NewConfirm(msg.Spec, now, a.km, a.theme))
	case ToastMsg:
		a.addToast(msg.Level, msg.Text, now)
	case ErrorMsg:
		a.setError(msg.Err, msg.Hint)
	case SwitchTabMsg:
		cmds = append(cmds, a.switchTo(msg.Title, msg.Then))
	case ScopeMsg:
		// A tab may ask for another scope the same way the choosers do.
		cmds = append(cmds, a.setScope(msg.Scope, now)...)
	default:
		cmds = append(cmds, a.broadcast(msg)...)
	}
	cmds = append(cmds, a.after(now))
	return a, tea.Batch(cmds...)
}

// after runs at the end of every Update: it notes what the tabs report,
// drops expired toasts and starts the spinner when something loads.
func (a *App) after(now time.Time) tea.Cmd {
	for i, t := range a.tabs {
		st := t.Status()
		if !st.Refreshed.IsZero() && !st.Refreshed.Equal(a.seen[i].refreshed) {
			a.seen[i].refreshed = st.Refreshed
			a.seen[i].refreshedAt = now
			// A successful refresh clears the last error (ErrorMsg's contract).
			a.errText, a.errHint = "", ""
		}
	}
	a.pruneToasts(now)
	if a.busy() && !a.spinning {
		a.spinning = true
		return a.spin.Tick
	}
	return nil
}

// busy: the spinner turns while the probe runs or any tab loads.
func (a *App) busy() bool {
	if a.probing {
		return true
	}
	for _, t := range a.tabs {
		if t.Status().Loading {
			return true
		}
	}
	return false
}

// paused: no periodic refresh while a dialog or the help is open.
func (a *App) paused() bool { return len(a.modals) > 0 || a.helpOpen }

// tick is the shell's clock: a TickMsg to every tab, the periodic refresh
// of the active tab, toast expiry.
func (a *App) tick(now time.Time) tea.Cmd {
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
	return a.updateTab(a.active, RefreshMsg{Manual: manual})
}

func (a *App) resize(w, h int) tea.Cmd {
	if w == a.width && h == a.height {
		return nil
	}
	a.width, a.height = w, h
	a.help = helpCache{}
	return tea.Batch(a.broadcast(SizeMsg{Width: max(w, 0), Height: max(h-chromeLines, 0)})...)
}

// updateTab delivers msg to tab i and keeps the tab it returns.
func (a *App) updateTab(i int, msg tea.Msg) tea.Cmd {
	if i < 0 || i >= len(a.tabs) {
		return nil
	}
	t, cmd := a.tabs[i].Update(msg)
	if t != nil {
		a.tabs[i] = t
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
	a.scope = s
	for i := range a.seen {
		a.seen[i].lastRefresh = now
	}
	return a.broadcast(ScopeMsg{Scope: s})
}

func (a *App) switchTo(title string, then tea.Msg) tea.Cmd {
	i := a.tabIndex(title)
	if i < 0 {
		a.addToast(ToastWarning, fmt.Sprintf("there is no %q tab", title), a.now())
		return nil
	}
	a.active = i
	if then == nil {
		return nil
	}
	return a.updateTab(i, then)
}

func (a *App) tabIndex(title string) int {
	for i, t := range a.tabs {
		if t.Title() == title {
			return i
		}
	}
	for i, t := range a.tabs {
		if strings.EqualFold(t.Title(), title) {
			return i
		}
	}
	return -1
}

func (a *App) setError(err error, hint string) {
	if err == nil {
		a.errText, a.errHint = "", ""
		return
	}
	var be *backend.Error
	if hint == "" && errors.As(err, &be) {
		hint = be.Hint()
	}
	a.errText = textsafe.Line(err.Error(), 400)
	a.errHint = textsafe.Line(hint, 200)
}

func (a *App) addToast(level ToastLevel, text string, now time.Time) {
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

func (a *App) pruneToasts(now time.Time) {
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
