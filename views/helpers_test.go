package views

import (
	"context"
	"os"
	"path/filepath"
	"strings"
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
)

// longWait bounds the waits for what a correct program does in well under
// a second (a held action reaching the backend, a command answering): a
// loaded machine stretches that, never to a minute, while what these
// waits catch (nothing arrives, a command hangs) never ends.
const longWait = time.Minute

func TestMain(m *testing.M) {
	// Times are shown in local time: pin it so the goldens do not depend
	// on the machine.
	time.Local = time.UTC
	defaultTab = NewPayments
	os.Exit(m.Run())
}

// env is one test's sandbox, backend, journal and tab.
type env struct {
	t     *testing.T
	srv   *sandbox.Server
	b     backend.Backend
	count *countingBackend
	j     *journal.Journal
	jpath string
	now   func() time.Time
	scope ui.Scope
	tab   ui.Tab
	// shell collects what the tab sends the shell (toasts, errors,
	// confirmations, tab switches), in order.
	shell  []tea.Msg
	ticket int // the last ActionMsg's
	w, h   int // the size last told the tab
	// also are other tabs of the same dashboard: a message the shell
	// hands every tab (one it does not know) reaches them too.
	also []ui.Tab
	deps Deps // the tab's, for other tabs of the same dashboard
	// checks are the tries the tab asked Deps.CheckAfter about, in order:
	// the tests do not wait between checks of an unknown outcome.
	checks []int
}

// noCheckWait is Deps.CheckAfter for tabs a test makes outside newEnv.
func noCheckWait(int) time.Duration { return 0 }

type envOpts struct {
	fixed    time.Time // fixed clock for the sandbox and the tab (zero: real time)
	readOnly bool
	withV1   bool // configure the accountant's v1 login beside the v2 token
	v1Only   bool // configure only the accountant's v1 login
	// tab, when set, makes the tab instead (Stickers, Tokens).
	tab func(Deps) ui.Tab
	// wrap, when set, puts a backend of the test's between the tab and the
	// sandbox (to lose answers, to hold them).
	wrap      func(backend.Backend) backend.Backend
	pending   []action.Request // Deps.Pending: actions an earlier run left open
	typedOver map[string]money.Decimal
	journal   string // the journal's path (default: a new one)
}

func newEnv(t *testing.T, o envOpts) *env {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	sopts := sandbox.Options{Seed: 3, Payments: 3000, SettleDelay: 200 * time.Millisecond}
	now := time.Now
	if !o.fixed.IsZero() {
		fixed := o.fixed
		now = func() time.Time { return fixed }
		sopts.Now = now
	}
	srv, err := sandbox.Start(ctx, sopts)
	require.NoError(t, err)
	t.Cleanup(func() { _ = srv.Close() })
	info := srv.Info()
	cfg := backend.Config{
		BaseURL: srv.BaseURL(), RootCAs: srv.CertPool(), V2Token: info.V2Token,
		MerchantIDs: info.MerchantIDs, Sandbox: true, ReadOnly: o.readOnly,
	}
	if o.v1Only {
		cfg.V2Token = ""
	}
	if o.withV1 || o.v1Only {
		for _, u := range info.V1Users {
			if u.Role == sandbox.RoleAccountant {
				cfg.V1Login, cfg.V1Password = u.Login, u.Password
			}
		}
		require.NotEmpty(t, cfg.V1Login)
	}
	b, err := backend.Open(cfg)
	require.NoError(t, err)
	cb := &countingBackend{Backend: b}
	jpath := o.journal
	if jpath == "" {
		jpath = filepath.Join(t.TempDir(), "journal.jsonl")
	}
	j, err := journal.Open(jpath)
	require.NoError(t, err)
	t.Cleanup(func() { _ = j.Close() })

	n := now()
	e := &env{
		t: t, srv: srv, b: b, count: cb, j: j, jpath: jpath, now: now,
		scope: ui.Scope{MerchantID: info.MerchantIDs[0], Start: n.AddDate(0, 0, -30), End: n.Add(time.Hour), Preset: "30 days"},
	}
	if !o.fixed.IsZero() {
		e.scope = ui.Scope{MerchantID: info.MerchantIDs[0], Start: n.AddDate(0, 0, -7), End: n.Add(time.Minute), Preset: "7 days"}
	}
	var tb backend.Backend = cb
	if o.wrap != nil {
		tb = o.wrap(cb)
	}
	d := Deps{Backend: tb, Keys: keys.Default(), Journal: j, Now: now, Theme: ui.NewTheme(true, true),
		Pending: o.pending, TypedOver: o.typedOver,
		InFlight: NewInFlight(), Known: known.NewMemory(), Facts: NewPaymentFacts(),
		CheckAfter: func(tries int) time.Duration { e.checks = append(e.checks, tries); return 0 }}
	e.deps = d
	switch {
	case o.tab != nil:
		e.tab = o.tab(d)
	default:
		e.tab = defaultTab(d)
	}
	return e
}


// size tells the tab its area, as the shell does.
func (e *env) size(w, h int) {
	e.w, e.h = w, h
	e.send(ui.SizeMsg{Width: w, Height: h})
}

// init starts the tab and runs its commands until quiet.
func (e *env) init() { e.run(e.tab.Init(e.scope)) }

// send delivers a message to the tab and runs what it returns.
func (e *env) send(msg tea.Msg) {
	e.t.Helper()
	e.run(e.update(msg))
}

// sendHold delivers a message and returns its command without running it.
func (e *env) sendHold(msg tea.Msg) tea.Cmd { return e.update(msg) }

// update is the tab's Update as the shell makes it: a dialog the tab
// opened on the way (ui.DialogOpener) is taken at once, and collected
// with the shell's other messages as the OpenModalMsg it stands for.
func (e *env) update(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	e.tab, cmd = e.tab.Update(msg)
	if d, ok := e.tab.(ui.DialogOpener); ok {
		if m := d.TakeDialog(); m != nil {
			e.shell = append(e.shell, ui.OpenModalMsg{Modal: m})
		}
	}
	return cmd
}

// run executes a command and every command that follows from it,
// synchronously: batches are flattened, messages for the shell are
// collected, everything else goes back to the tab (and to the other tabs
// of e.also, as the shell hands a message it does not know to every tab).
func (e *env) run(cmd tea.Cmd) {
	e.t.Helper()
	e.settle(cmd, func(m tea.Msg) []tea.Cmd {
		next := []tea.Cmd{e.update(m)}
		for i := range e.also {
			var cmd tea.Cmd
			e.also[i], cmd = e.also[i].Update(m)
			next = append(next, e.toAlso(i, cmd))
		}
		return next
	})
}

// settle runs cmd and what follows until nothing does: batches are
// flattened, messages for the shell collected, and every other message
// handed to deliver, whose commands run in turn.
func (e *env) settle(cmd tea.Cmd, deliver func(tea.Msg) []tea.Cmd) {
	e.t.Helper()
	queue := []tea.Cmd{cmd}
	for steps := 0; len(queue) > 0; steps++ {
		require.Less(e.t, steps, 10000, "commands never settle")
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		switch m := c().(type) {
		case nil:
		case tea.BatchMsg:
			queue = append(queue, m...)
		case ui.ToastMsg, ui.ErrorMsg, ui.OpenConfirmMsg, ui.SwitchTabMsg, ui.OpenModalMsg, ui.ActionRefusedMsg, ui.NoticeMsg:
			e.shell = append(e.shell, m)
		default:
			queue = append(queue, deliver(m)...)
		}
	}
}

// runAlso runs cmd for the other tab i now (see toAlso).
func (e *env) runAlso(i int, cmd tea.Cmd) {
	if c := e.toAlso(i, cmd); c != nil {
		c()
	}
}

// toAlso runs cmd for the other tab i, handing what it brings back to
// that tab alone (the shell's messages are collected).
func (e *env) toAlso(i int, cmd tea.Cmd) tea.Cmd {
	if cmd == nil {
		return nil
	}
	return func() tea.Msg {
		e.settle(cmd, func(m tea.Msg) []tea.Cmd {
			var next tea.Cmd
			e.also[i], next = e.also[i].Update(m)
			return []tea.Cmd{next}
		})
		return nil
	}
}

// deliver feeds one already computed message to the tab.
func (e *env) deliver(msg tea.Msg) {
	e.t.Helper()
	e.run(e.update(msg))
}

// press sends key presses: single characters, or names such as "enter",
// "esc", "down", "pgdown".
func (e *env) press(names ...string) {
	e.t.Helper()
	for _, n := range names {
		e.send(keyPress(n))
	}
}

func keyPress(n string) tea.KeyPressMsg {
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

// typeText types text into whatever has the focus.
func (e *env) typeText(s string) {
	e.t.Helper()
	for _, r := range s {
		e.send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

// toasts returns the ToastMsgs sent so far, and forgets them.
func (e *env) toasts() []ui.ToastMsg { return take[ui.ToastMsg](e) }

// act is what the shell does on an action key: it hands the tab an
// ActionMsg with a new ticket, and returns the ticket.
func (e *env) act(name keys.Action) int {
	e.t.Helper()
	e.ticket++
	e.send(ui.ActionMsg{Action: name, Ticket: e.ticket})
	return e.ticket
}

// refused returns the ActionRefusedMsgs sent so far, and forgets them.
func (e *env) refused() []ui.ActionRefusedMsg { return take[ui.ActionRefusedMsg](e) }

// notices returns the NoticeMsgs sent so far, and forgets them.
func (e *env) notices() []ui.NoticeMsg { return take[ui.NoticeMsg](e) }

// take returns the messages of type T the tab sent the shell so far, and
// forgets them.
func take[T any](e *env) []T {
	var out []T
	rest := e.shell[:0]
	for _, m := range e.shell {
		if v, ok := m.(T); ok {
			out = append(out, v)
		} else {
			rest = append(rest, m)
		}
	}
	e.shell = rest
	return out
}

// confirmSpec returns the last confirmation asked for, and forgets it.
func (e *env) confirmSpec() (ui.ConfirmSpec, bool) {
	for i := len(e.shell) - 1; i >= 0; i-- {
		if c, ok := e.shell[i].(ui.OpenConfirmMsg); ok {
			e.shell = append(e.shell[:i], e.shell[i+1:]...)
			require.Equal(e.t, e.ticket, c.Ticket, "the dialog answers the last action key")
			return c.Spec, true
		}
	}
	return ui.ConfirmSpec{}, false
}

func (e *env) errors() []ui.ErrorMsg {
	var out []ui.ErrorMsg
	for _, m := range e.shell {
		if x, ok := m.(ui.ErrorMsg); ok {
			out = append(out, x)
		}
	}
	return out
}

func (e *env) journal() []journal.Entry {
	e.t.Helper()
	entries, err := journal.Read(e.jpath)
	require.NoError(e.t, err)
	return entries
}

// view draws the tab and checks that it fills exactly w × h cells.
func (e *env) view(w, h int) string {
	e.t.Helper()
	if w != e.w || h != e.h {
		e.size(w, h) // the shell tells the tab its size before drawing at it
	}
	s := e.tab.View(w, h)
	lines := strings.Split(s, "\n")
	require.Len(e.t, lines, h, "the view has %d lines, not %d:\n%s", len(lines), h, s)
	for i, l := range lines {
		require.Equal(e.t, w, ansi.StringWidth(l), "line %d is %d cells wide, not %d: %q", i, ansi.StringWidth(l), w, l)
	}
	return s
}

// selectedLine is the screen line of the selection marker, -1 if none.
func selectedLine(view string) int {
	for i, l := range strings.Split(ansi.Strip(view), "\n") {
		if strings.HasPrefix(l, ">") {
			return i
		}
	}
	return -1
}

// newPayment makes a payment at the sandbox now, as a customer paying
// would: settled at once, or held when dual.
func (e *env) newPayment(dual bool, value string) sandbox.Payment {
	e.t.Helper()
	st := e.srv.Store()
	m, ok := st.Merchant(e.scope.MerchantID)
	require.True(e.t, ok)
	amount := money.Amount{Value: money.MustParse(value), Currency: m.Currencies[0]}
	p, err := st.CreatePayment(sandbox.PaymentRequest{
		MerchantID: m.ID, DualMode: dual, Amount: &amount, PaymentMethod: sandbox.MethodBankCard,
		Card:     &sandbox.CardData{PAN: "4111111111111111", Expiry: "12/30", CVC: "123"},
		Invoice:  sandbox.Invoice{OrderNo: "TEST-" + value, Description: "test payment"},
		Customer: sandbox.Customer{Email: "anna@example.com", Phone: "79161234567", IP: "10.1.2.3"},
	})
	require.NoError(e.t, err)
	return p
}

// countingBackend counts page requests of the payment and refund lists.
type countingBackend struct {
	backend.Backend
	pages atomic.Int64
	fail  atomic.Int64 // the next page requests that fail as if the service were down
}

func (c *countingBackend) ListPayments(q backend.PeriodQuery) backend.Pager[backend.Payment] {
	return &countingPager[backend.Payment]{p: c.Backend.ListPayments(q), n: &c.pages, fail: &c.fail}
}

func (c *countingBackend) ListStickers(q backend.StickerQuery) backend.Pager[backend.Sticker] {
	return &countingPager[backend.Sticker]{p: c.Backend.ListStickers(q), n: &c.pages, fail: &c.fail}
}

func (c *countingBackend) ListRefunds(q backend.PeriodQuery) backend.Pager[backend.Refund] {
	return &countingPager[backend.Refund]{p: c.Backend.ListRefunds(q), n: &c.pages, fail: &c.fail}
}

type countingPager[T any] struct {
	p    backend.Pager[T]
	n    *atomic.Int64
	fail *atomic.Int64
}

func (c *countingPager[T]) Next(ctx context.Context) (backend.Page[T], error) {
	c.n.Add(1)
	if c.fail.Add(-1) >= 0 {
		return backend.Page[T]{}, &backend.Error{Kind: backend.KindUnavailable, Op: "list payments", Message: "injected failure"}
	}
	c.fail.Store(0)
	return c.p.Next(ctx)
}

// goldenCheck compares got with testdata/<TestName>/<name>.golden, as
// github.com/charmbracelet/x/exp/golden does for the subtest name
// (go test ./views -update rewrites them).
func goldenCheck(t *testing.T, name, got string) {
	t.Helper()
	t.Run(name, func(t *testing.T) { golden.RequireEqual(t, got) })
}

// defaultTab makes the tab of a test that names none: each test package
// sets it in its TestMain.
var defaultTab func(Deps) ui.Tab
