// Package viewtest is the views tests' world: a sandbox, a backend, a
// journal and a tab, driven as the shell drives it (Env), with helpers for
// dialogs, goldens and the tabs' own checks.
package viewtest

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/stretchr/testify/require"

	"paydash/backend"
	"paydash/backend/action"
	"paydash/backend/journal"
	"paydash/backend/known"
	"paydash/backend/money"
	"paydash/backend/sandbox"
	"paydash/keys"
	"paydash/ui"
	"paydash/views/tab"
)

// LongWait bounds the waits for what a correct program does in well under
// a second (a held action reaching the backend, a command answering): a
// loaded machine stretches that, never to a minute, while what these
// waits catch (nothing arrives, a command hangs) never ends.
const LongWait = time.Minute

// Env is one test's sandbox, backend, journal and tab.
type Env struct {
	T     *testing.T
	srv   *sandbox.Server // Store, Info, and Sandbox for a test that changes it
	B     backend.Backend
	Count *countingBackend
	J     *journal.Journal
	Jpath string
	Now   func() time.Time
	Scope ui.Scope
	Tab   ui.Tab
	// Shell collects what the tab sends the shell (toasts, errors,
	// confirmations, tab switches), in order.
	Shell  []tea.Msg
	Ticket int // the last ActionMsg's
	W, H   int // the size last told the tab
	// Also are other tabs of the same dashboard: a message the shell
	// hands every tab (one it does not know) reaches them too.
	Also []ui.Tab
	Deps tab.Deps // the tab's, for other tabs of the same dashboard
	// Checks are the tries the tab asked Deps.CheckAfter about, in order:
	// the tests do not wait between checks of an unknown outcome.
	Checks []int

	own bool // the sandbox is the test's own (Opts.Changes), not its package's
}

// NoCheckWait is Deps.CheckAfter for tabs a test makes outside New.
func NoCheckWait(int) time.Duration { return 0 }

type Opts struct {
	Fixed time.Time // fixed clock for the sandbox and the tab (zero: real time)
	// Changes: the test changes the service (acts, makes payments or
	// tokens, moves the sandbox's clock, closes it), so it has a sandbox
	// of its own; without it, the package's shared one (shared.go).
	Changes  bool
	ReadOnly bool
	WithV1   bool // configure the accountant's v1 login beside the v2 token
	V1Only   bool // configure only the accountant's v1 login
	// Tab, when set, makes the tab instead (Stickers, Tokens).
	Tab func(tab.Deps) ui.Tab
	// Wrap, when set, puts a backend of the test's between the tab and the
	// sandbox (to lose answers, to hold them).
	Wrap      func(backend.Backend) backend.Backend
	Pending   []action.Request // Deps.Pending: actions an earlier run left open
	TypedOver map[string]money.Decimal
	// ParallelReads is the backend's (backend.Config): 0 reads a period
	// page after page.
	ParallelReads int
	journal       string // the journal's path (default: a new one)
}

func New(t *testing.T, o Opts) *Env {
	t.Helper()
	var srv *sandbox.Server
	if o.Changes {
		srv = ownSandbox(t, o.Fixed)
	} else {
		srv = sharedSandbox(t, o.Fixed)
	}
	now := srv.Store().Now
	info := srv.Info()
	cfg := backend.Config{
		BaseURL: srv.BaseURL(), RootCAs: srv.CertPool(), V2Token: info.V2Token,
		MerchantIDs: info.MerchantIDs, Sandbox: true, ReadOnly: o.ReadOnly, ParallelReads: o.ParallelReads,
	}
	if o.V1Only {
		cfg.V2Token = ""
	}
	if o.WithV1 || o.V1Only {
		for _, u := range info.V1Users {
			if u.Role == sandbox.RoleAccountant {
				cfg.V1Login, cfg.V1Password = u.Login, u.Password
			}
		}
		require.NotEmpty(t, cfg.V1Login)
	}
	b, err := backend.Open(cfg)
	require.NoError(t, err)
	if !o.Changes {
		b = readsOnly{Backend: b, t: t}
	}
	cb := &countingBackend{Backend: b}
	jpath := o.journal
	if jpath == "" {
		jpath = filepath.Join(t.TempDir(), "journal.jsonl")
	}
	j, err := journal.Open(jpath)
	require.NoError(t, err)
	t.Cleanup(func() { _ = j.Close() })

	n := now()
	e := &Env{
		T: t, srv: srv, B: b, Count: cb, J: j, Jpath: jpath, Now: now, own: o.Changes,
		Scope: ui.Scope{MerchantID: info.MerchantIDs[0], Start: n.AddDate(0, 0, -30), End: n.Add(time.Hour), Preset: "30 days"},
	}
	if !o.Fixed.IsZero() {
		e.Scope = ui.Scope{MerchantID: info.MerchantIDs[0], Start: n.AddDate(0, 0, -7), End: n.Add(time.Minute), Preset: "7 days"}
	}
	var tb backend.Backend = cb
	if o.Wrap != nil {
		tb = o.Wrap(cb)
	}
	d := tab.Deps{Backend: tb, Keys: keys.Default(), Journal: j, Now: now, Theme: ui.NewTheme(true, true),
		Pending: o.Pending, TypedOver: o.TypedOver,
		InFlight: tab.NewInFlight(), Known: known.NewMemory(), Facts: tab.NewPaymentFacts(),
		CheckAfter: func(tries int) time.Duration { e.Checks = append(e.Checks, tries); return 0 }}
	e.Deps = d
	switch {
	case o.Tab != nil:
		e.Tab = o.Tab(d)
	default:
		e.Tab = DefaultTab(d)
	}
	return e
}

// Size tells the tab its area, as the shell does.
func (e *Env) Size(w, h int) {
	e.W, e.H = w, h
	e.Send(ui.SizeMsg{Width: w, Height: h})
}

// Init starts the tab and runs its commands until quiet.
func (e *Env) Init() { e.Run(e.Tab.Init(e.Scope)) }

// Send delivers a message to the tab and runs what it returns.
func (e *Env) Send(msg tea.Msg) {
	e.T.Helper()
	e.Run(e.Update(msg))
}

// SendHold delivers a message and returns its command without running it.
func (e *Env) SendHold(msg tea.Msg) tea.Cmd { return e.Update(msg) }

// Update is the tab's Update as the shell makes it: a dialog the tab
// opened on the way (ui.DialogOpener) is taken at once, and collected
// with the shell's other messages, as the OpenDialogMsg it is.
func (e *Env) Update(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	e.Tab, cmd = e.Tab.Update(msg)
	if d, ok := e.Tab.(ui.DialogOpener); ok {
		if m, ok := d.TakeDialog(); ok {
			e.Shell = append(e.Shell, m)
		}
	}
	return cmd
}

// Run executes a command and every command that follows from it,
// synchronously: batches are flattened, messages for the shell are
// collected, everything else goes back to the tab (and to the other tabs
// of e.also, as the shell hands a message it does not know to every tab).
func (e *Env) Run(cmd tea.Cmd) {
	e.T.Helper()
	e.settle(cmd, func(m tea.Msg) []tea.Cmd {
		next := []tea.Cmd{e.Update(m)}
		for i := range e.Also {
			var cmd tea.Cmd
			e.Also[i], cmd = e.Also[i].Update(m)
			next = append(next, e.toAlso(i, cmd))
		}
		return next
	})
}

// settle runs cmd and what follows until nothing does: batches are
// flattened, messages for the shell collected, and every other message
// handed to deliver, whose commands run in turn.
func (e *Env) settle(cmd tea.Cmd, deliver func(tea.Msg) []tea.Cmd) {
	e.T.Helper()
	queue := []tea.Cmd{cmd}
	for steps := 0; len(queue) > 0; steps++ {
		require.Less(e.T, steps, 10000, "commands never settle")
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		switch m := c().(type) {
		case nil:
		case tea.BatchMsg:
			queue = append(queue, m...)
		case ui.ToastMsg, ui.ErrorMsg, ui.SwitchTabMsg, ui.OpenDialogMsg, ui.CloseDialogMsg, ui.CopiedMsg:
			e.Shell = append(e.Shell, m)
		default:
			queue = append(queue, deliver(m)...)
		}
	}
}

// RunAlso runs cmd for the other tab i now (see toAlso).
func (e *Env) RunAlso(i int, cmd tea.Cmd) {
	if c := e.toAlso(i, cmd); c != nil {
		c()
	}
}

// toAlso runs cmd for the other tab i, handing what it brings back to
// that tab alone (the shell's messages are collected).
func (e *Env) toAlso(i int, cmd tea.Cmd) tea.Cmd {
	if cmd == nil {
		return nil
	}
	return func() tea.Msg {
		e.settle(cmd, func(m tea.Msg) []tea.Cmd {
			var next tea.Cmd
			e.Also[i], next = e.Also[i].Update(m)
			return []tea.Cmd{next}
		})
		return nil
	}
}

// Deliver feeds one already computed message to the tab.
func (e *Env) Deliver(msg tea.Msg) {
	e.T.Helper()
	e.Run(e.Update(msg))
}

// Press sends key presses: single characters, or names such as "enter",
// "esc", "down", "pgdown".
func (e *Env) Press(names ...string) {
	e.T.Helper()
	for _, n := range names {
		e.Send(KeyPress(n))
	}
}

func KeyPress(n string) tea.KeyPressMsg {
	switch n {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "pgdown":
		return tea.KeyPressMsg{Code: tea.KeyPgDown}
	case "backspace":
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	}
	r := []rune(n)
	if len(r) != 1 {
		panic("unknown key " + n)
	}
	return tea.KeyPressMsg{Code: r[0], Text: n}
}

// TypeText types text into whatever has the focus.
func (e *Env) TypeText(s string) {
	e.T.Helper()
	for _, r := range s {
		e.Send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

// Toasts returns the ToastMsgs sent so far, and forgets them.
func (e *Env) Toasts() []ui.ToastMsg { return Take[ui.ToastMsg](e) }

// Act is what the shell does on an action key: it hands the tab an
// ActionMsg with a new ticket, and returns the ticket.
func (e *Env) Act(name keys.Action) int {
	e.T.Helper()
	e.Ticket++
	e.Send(ui.ActionMsg{Action: name, Ticket: e.Ticket})
	return e.Ticket
}

// Refused returns the CloseDialogMsgs sent so far (the actions refused
// before their confirmation), and forgets them.
func (e *Env) Refused() []ui.CloseDialogMsg { return Take[ui.CloseDialogMsg](e) }

// Notices returns the notices sent so far, and forgets them.
func (e *Env) Notices() []ui.Notice {
	var out []ui.Notice
	for _, m := range e.takeDialogs(func(m ui.OpenDialogMsg) bool { return m.Notice != nil }) {
		out = append(out, *m.Notice)
	}
	return out
}

// TakeModals returns the dialogs of the tab's own it opened so far on a
// key (not an action's: those answer a ticket), and forgets them.
func (e *Env) TakeModals() []ui.OpenDialogMsg {
	return e.takeDialogs(func(m ui.OpenDialogMsg) bool { return m.Modal != nil && m.Ticket == 0 })
}

// takeDialogs returns the OpenDialogMsgs sent so far that match, and
// forgets them.
func (e *Env) takeDialogs(match func(ui.OpenDialogMsg) bool) []ui.OpenDialogMsg {
	var out []ui.OpenDialogMsg
	rest := e.Shell[:0]
	for _, m := range e.Shell {
		if d, ok := m.(ui.OpenDialogMsg); ok && match(d) {
			out = append(out, d)
		} else {
			rest = append(rest, m)
		}
	}
	e.Shell = rest
	return out
}

// Take returns the messages of type T the tab sent the shell so far, and
// forgets them.
func Take[T any](e *Env) []T {
	var out []T
	rest := e.Shell[:0]
	for _, m := range e.Shell {
		if v, ok := m.(T); ok {
			out = append(out, v)
		} else {
			rest = append(rest, m)
		}
	}
	e.Shell = rest
	return out
}

// ConfirmSpec returns the last confirmation asked for, and forgets it.
func (e *Env) ConfirmSpec() (ui.ConfirmSpec, bool) {
	for i := len(e.Shell) - 1; i >= 0; i-- {
		if c, ok := e.Shell[i].(ui.OpenDialogMsg); ok && c.Confirm != nil {
			e.Shell = append(e.Shell[:i], e.Shell[i+1:]...)
			require.Equal(e.T, e.Ticket, c.Ticket, "the dialog answers the last action key")
			return *c.Confirm, true
		}
	}
	return ui.ConfirmSpec{}, false
}

func (e *Env) Errors() []ui.ErrorMsg {
	var out []ui.ErrorMsg
	for _, m := range e.Shell {
		if x, ok := m.(ui.ErrorMsg); ok {
			out = append(out, x)
		}
	}
	return out
}

func (e *Env) Journal() []journal.Entry {
	e.T.Helper()
	entries, err := journal.Read(e.Jpath)
	require.NoError(e.T, err)
	return entries
}

// View draws the tab and checks that it fills exactly w × h cells.
func (e *Env) View(w, h int) string {
	e.T.Helper()
	if w != e.W || h != e.H {
		e.Size(w, h) // the shell tells the tab its size before drawing at it
	}
	s := e.Tab.View(w, h)
	lines := strings.Split(s, "\n")
	require.Len(e.T, lines, h, "the view has %d lines, not %d:\n%s", len(lines), h, s)
	for i, l := range lines {
		require.Equal(e.T, w, ansi.StringWidth(l), "line %d is %d cells wide, not %d: %q", i, ansi.StringWidth(l), w, l)
	}
	return s
}

// SelectedLine is the screen line of the selection marker, -1 if none.
func SelectedLine(view string) int {
	for i, l := range strings.Split(ansi.Strip(view), "\n") {
		if strings.HasPrefix(l, ">") {
			return i
		}
	}
	return -1
}

// NewPayment makes a payment at the sandbox now, as a customer paying
// would: settled at once, or held when dual.
func (e *Env) NewPayment(dual bool, value string) sandbox.Payment {
	e.T.Helper()
	e.mayChange("NewPayment")
	st := e.srv.Store()
	m, ok := st.Merchant(e.Scope.MerchantID)
	require.True(e.T, ok)
	amount := money.Amount{Value: money.MustParse(value), Currency: m.Currencies[0]}
	p, err := st.CreatePayment(sandbox.PaymentRequest{
		MerchantID: m.ID, DualMode: dual, Amount: &amount, PaymentMethod: sandbox.MethodBankCard,
		Card:     &sandbox.CardData{PAN: "4111111111111111", Expiry: "12/30", CVC: "123"},
		Invoice:  sandbox.Invoice{OrderNo: "TEST-" + value, Description: "test payment"},
		Customer: sandbox.Customer{Email: "anna@example.com", Phone: "79161234567", IP: "10.1.2.3"},
	})
	require.NoError(e.T, err)
	return p
}

// countingBackend counts page requests of the payment and refund lists.
type countingBackend struct {
	backend.Backend
	Pages atomic.Int64
	Fail  atomic.Int64 // the next page requests that fail as if the service were down
	// ReadAheads are what the lists told their pagers (ReadAhead), in order.
	mu         sync.Mutex
	ReadAheads []bool
}

// ReadAheadsSeen is a copy of ReadAheads.
func (c *countingBackend) ReadAheadsSeen() []bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.ReadAheads)
}

func (c *countingBackend) ListPayments(q backend.PeriodQuery) backend.Pager[backend.Payment] {
	return &countingPager[backend.Payment]{p: c.Backend.ListPayments(q), n: &c.Pages, fail: &c.Fail, c: c}
}

func (c *countingBackend) ListStickers(q backend.StickerQuery) backend.Pager[backend.Sticker] {
	return &countingPager[backend.Sticker]{p: c.Backend.ListStickers(q), n: &c.Pages, fail: &c.Fail}
}

func (c *countingBackend) ListRefunds(q backend.PeriodQuery) backend.Pager[backend.Refund] {
	return &countingPager[backend.Refund]{p: c.Backend.ListRefunds(q), n: &c.Pages, fail: &c.Fail, c: c}
}

type countingPager[T any] struct {
	p    backend.Pager[T]
	n    *atomic.Int64
	fail *atomic.Int64
	c    *countingBackend
}

// ReadAhead passes the list's word on to a pager that reads ahead.
func (c *countingPager[T]) ReadAhead(on bool) {
	ra, ok := c.p.(backend.ReadAheader)
	if !ok {
		return
	}
	c.c.mu.Lock()
	c.c.ReadAheads = append(c.c.ReadAheads, on)
	c.c.mu.Unlock()
	ra.ReadAhead(on)
}

func (c *countingPager[T]) Next(ctx context.Context) (backend.Page[T], error) {
	c.n.Add(1)
	if c.fail.Add(-1) >= 0 {
		return backend.Page[T]{}, &backend.Error{Kind: backend.KindUnavailable, Op: "list payments", Message: "injected failure"}
	}
	c.fail.Store(0)
	return c.p.Next(ctx)
}

// GoldenCheck compares got with testdata/<TestName>/<name>.golden, as
// github.com/charmbracelet/x/exp/golden does for the subtest name
// (go test ./views -update rewrites them).
func GoldenCheck(t *testing.T, name, got string) {
	t.Helper()
	t.Run(name, func(t *testing.T) { golden.RequireEqual(t, got) })
}

// DefaultTab makes the tab of a test that names none: each test package
// sets it through Main.
var DefaultTab func(tab.Deps) ui.Tab

// Main runs a package's tests, as its TestMain: times in UTC, so that the
// goldens do not depend on the machine's zone, and defaultTab the tab of
// a test that names none; the shared sandboxes are closed after the tests.
func Main(m *testing.M, defaultTab func(tab.Deps) ui.Tab) {
	time.Local = time.UTC
	DefaultTab = defaultTab
	code := m.Run()
	closeShared()
	os.Exit(code)
}

// Start sizes the tab w × h and starts it (Init), as most tests begin.
func (e *Env) Start(w, h int) *Env {
	e.Size(w, h)
	e.Init()
	return e
}

// Flat is a view without styles, its runs of spaces and its line ends
// made one space: text that wraps or is padded still reads as one line.
func Flat(view string) string { return strings.Join(strings.Fields(ansi.Strip(view)), " ") }

// Selected is the row under the cursor of l; the test fails at once when
// there is none.
func Selected[T any](t testing.TB, l *tab.PagedList[T]) T {
	t.Helper()
	row, ok := l.Selected()
	require.True(t, ok, "a row is selected")
	return row
}
