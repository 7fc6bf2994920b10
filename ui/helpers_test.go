package ui

import (
	"context"
	"fmt"
	"reflect"
	"regexp"
	"runtime"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/require"

	"paydash/backend"
	"paydash/keys"
)

// t0 is the fixed clock of the tests.
var t0 = time.Date(2026, 11, 21, 14, 3, 22, 0, time.UTC)

type fakeClock struct{ t time.Time }

func (c *fakeClock) Now() time.Time          { return c.t }
func (c *fakeClock) advance(d time.Duration) { c.t = c.t.Add(d) }

type fakeBackend struct {
	backend.Backend // nil: the tests call only what is below
	desc            backend.Description
	probeErr        error
}

func (f *fakeBackend) Describe() backend.Description         { return f.desc }
func (f *fakeBackend) Can(backend.ActionName) (bool, string) { return true, "" }
func (f *fakeBackend) Probe(ctx context.Context) error       { return f.probeErr }
func sandboxBackend() *fakeBackend                           { return &fakeBackend{desc: sandboxDesc()} }
func sandboxDesc() backend.Description {
	return backend.Description{
		Sandbox: true, BaseURL: "https://127.0.0.1:8443", Host: "127.0.0.1:8443",
		Interfaces: []backend.Interface{backend.V2, backend.V1}, MerchantIDs: []string{"10000001", "10000002"},
	}
}

// fakeTab records what the shell sends it.
type fakeTab struct {
	title   string
	ctx     keys.Context
	reasons map[keys.Action]string // unavailable actions and why ("" hides them)
	status  TabStatus
	bottom  []string // drawn as the last lines of the tab's area (a search line, an input)
	got     []tea.Msg
	inits   []Scope
}

func newFakeTab(title string) *fakeTab { return &fakeTab{title: title} }

func (t *fakeTab) Title() string                     { return t.title }
func (t *fakeTab) ID() TabID                         { return TabID(strings.ToLower(t.title)) }
func (t *fakeTab) Init(s Scope) tea.Cmd              { t.inits = append(t.inits, s); return nil }
func (t *fakeTab) Update(msg tea.Msg) (Tab, tea.Cmd) { t.got = append(t.got, msg); return t, nil }
func (t *fakeTab) Context() keys.Context             { return t.ctx }
func (t *fakeTab) Status() TabStatus                 { return t.status }
func (t *fakeTab) Available(action keys.Action) (bool, string) {
	if why, ok := t.reasons[action]; ok {
		return false, why
	}
	return true, ""
}

func (t *fakeTab) View(w, h int) string {
	lines := []string{
		"  ID         CREATED           AMOUNT        STATUS",
		"> 43149010   2026-11-21 13:58  1,250.00 RUB  Settled",
		"  43149009   2026-11-21 13:41    150.00 RUB  Authorized",
		"  43149008   2026-11-21 12:07     99.90 RUB  Rejected",
	}
	lines[0] = t.title + " " + lines[0]
	if len(t.bottom) > 0 {
		for len(lines)+len(t.bottom) < h {
			lines = append(lines, "")
		}
		lines = append(lines, t.bottom...)
	}
	return strings.Join(lines, "\n")
}

func (t *fakeTab) reset() { t.got = nil }

// msgsOf lists the messages of type T the tab received.
func msgsOf[T any](t *fakeTab) []T {
	var out []T
	for _, m := range t.got {
		if v, ok := m.(T); ok {
			out = append(out, v)
		}
	}
	return out
}

func keysOf(t *fakeTab) []string {
	var out []string
	for _, k := range msgsOf[tea.KeyPressMsg](t) {
		out = append(out, k.String())
	}
	return out
}

type testApp struct {
	*App
	clock *fakeClock
	tabs  []*fakeTab
	be    *fakeBackend
}

type option func(*Config)

// withMerchants configures merchants by id, without names.
func withMerchants(ids ...string) option {
	return func(c *Config) {
		c.Merchants = nil
		for _, id := range ids {
			c.Merchants = append(c.Merchants, Merchant{ID: id})
		}
	}
}

// withNamedMerchants configures merchants with their names.
func withNamedMerchants(ms ...Merchant) option { return func(c *Config) { c.Merchants = ms } }

func withColour(dark bool) option { return func(c *Config) { c.NoColor, c.Dark = false, dark } }

// newTestApp builds a shell over fake tabs (Payments and Refunds unless
// titles are given), with colours off, at 80x24, started and probed.
func newTestApp(t *testing.T, opts ...option) *testApp {
	t.Helper()
	clock := &fakeClock{t: t0}
	tabs := []*fakeTab{newFakeTab("Payments"), newFakeTab("Refunds")}
	be := sandboxBackend()
	cfg := Config{
		Service:   be,
		Keys:      keys.Default(),
		Scope:     PresetScope("10000001", Preset7Days, t0),
		Merchants: []Merchant{{"10000001", "Daily Grind Coffee"}, {"10000002", "Page Turner Books"}, {"10000003", ""}},
		Now:       clock.Now,
		NoColor:   true,
		Dark:      true,
	}
	for _, tb := range tabs {
		cfg.Tabs = append(cfg.Tabs, tb)
	}
	for _, o := range opts {
		o(&cfg)
	}
	app := New(cfg)
	app.loc = time.UTC
	app.Init()
	ta := &testApp{App: app, clock: clock, tabs: tabs, be: be}
	ta.send(probeDoneMsg{})
	ta.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	for _, tb := range tabs {
		tb.reset()
	}
	return ta
}

func (ta *testApp) send(msg tea.Msg) tea.Cmd {
	_, cmd := ta.Update(msg)
	return cmd
}

// press sends key presses written as Bubble Tea spells them.
func (ta *testApp) press(ks ...string) tea.Cmd {
	var cmd tea.Cmd
	for _, k := range ks {
		cmd = ta.send(keyPress(k))
	}
	return cmd
}

// typeText sends one press per rune.
func (ta *testApp) typeText(s string) {
	for _, r := range s {
		ta.send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

func (ta *testApp) tick() tea.Cmd { return ta.send(shellTickMsg{seq: ta.tickSeq}) }

func (ta *testApp) screen() string { return ansi.Strip(ta.View().Content) }

// unwrapped is a screen or a dialog as one line of words, borders left
// out, so that a message wrapped inside a box can be found whole.
func unwrapped(s string) string {
	s = ansi.Strip(s)
	for _, b := range []string{"│", "╭", "╮", "╰", "╯", "─"} {
		s = strings.ReplaceAll(s, b, " ")
	}
	return strings.Join(strings.Fields(s), " ")
}

var specialKeys = map[string]tea.KeyPressMsg{
	"enter":     {Code: tea.KeyEnter},
	"esc":       {Code: tea.KeyEscape},
	"tab":       {Code: tea.KeyTab},
	"shift+tab": {Code: tea.KeyTab, Mod: tea.ModShift},
	"ctrl+c":    {Code: 'c', Mod: tea.ModCtrl},
	"ctrl+u":    {Code: 'u', Mod: tea.ModCtrl},
	"ctrl+k":    {Code: 'k', Mod: tea.ModCtrl},
	"left":      {Code: tea.KeyLeft},
	"right":     {Code: tea.KeyRight},
	"up":        {Code: tea.KeyUp},
	"down":      {Code: tea.KeyDown},
	"backspace": {Code: tea.KeyBackspace},
}

func keyPress(k string) tea.KeyPressMsg {
	if m, ok := specialKeys[k]; ok {
		return m
	}
	if m, ok := keyPressOf(k); ok {
		return m // any key the keymap can name ("home", "ctrl+s", "f5")
	}
	r := []rune(k)
	if len(r) != 1 {
		panic("unknown key " + k)
	}
	return tea.KeyPressMsg{Code: r[0], Text: k}
}

// longWait bounds the waits for what a correct program does at once: a
// command of the shell answers in microseconds, and one that has not after
// a minute is hung, not slowed down by a loaded machine.
const longWait = time.Minute

// timerFunc matches the function of a command that waits on the clock
// before it answers: tea.Tick's (the shell's tick, a spinner's turn),
// tea.Every's and a text cursor's blink, also where the compiler copied
// them into a caller (the name then ends the same way).
var timerFunc = regexp.MustCompile(`(\.Tick|\.Every|\.\(\*Model\)\.Blink)\.func[0-9]+$`)

// isTimer reports whether cmd is a timer, by its function: how long a
// command takes is no sign, a loaded machine can slow any one down.
func isTimer(cmd tea.Cmd) bool { return timerFunc.MatchString(funcName(cmd)) }

func funcName(cmd tea.Cmd) string { return runtime.FuncForPC(reflect.ValueOf(cmd).Pointer()).Name() }

// run executes a command and the commands of the batches it returns,
// leaving out the timers (isTimer), which the runtime would answer only
// later. Every other command is waited for, however long it takes, up to
// longWait: then it is reported by its name, a hang or a timer timerFunc
// does not know.
func run(cmd tea.Cmd) []tea.Msg {
	if cmd == nil || isTimer(cmd) {
		return nil
	}
	ch := make(chan tea.Msg, 1)
	go func() { ch <- cmd() }()
	var msg tea.Msg
	select {
	case msg = <-ch:
	case <-time.After(longWait):
		panic(fmt.Sprintf("the command %s has not answered in %s: hung, or a timer that timerFunc does not match", funcName(cmd), longWait))
	}
	if b, ok := msg.(tea.BatchMsg); ok {
		var out []tea.Msg
		for _, c := range b {
			out = append(out, run(c)...)
		}
		return out
	}
	if msg == nil {
		return nil
	}
	return []tea.Msg{msg}
}

func quits(cmd tea.Cmd) bool {
	for _, m := range run(cmd) {
		if _, ok := m.(tea.QuitMsg); ok {
			return true
		}
	}
	return false
}

// requireFrame checks the frame is exactly w × h cells.
func requireFrame(t *testing.T, content string, w, h int) {
	t.Helper()
	lines := strings.Split(content, "\n")
	require.Len(t, lines, h, "lines")
	for i, l := range lines {
		require.Equal(t, w, ansi.StringWidth(l), "width of line %d: %q", i, ansi.Strip(l))
	}
}

// openConfirm opens a confirmation the way a tab's action does: the
// action key puts up the preparing dialog, and the tab answers with the
// confirmation for its ticket.
func (ta *testApp) openConfirm(spec ConfirmSpec) {
	ta.press("c")
	acts := msgsOf[ActionMsg](ta.tabs[ta.active])
	if len(acts) == 0 {
		panic("c opened no preparing dialog")
	}
	ta.send(ConfirmDialog(acts[len(acts)-1].Ticket, spec))
}
