package viewtest

import (
	"bytes"
	"context"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend"
	"paydash/keys"
	"paydash/ui"
	"paydash/ui/qr/qrtest"
	"paydash/views/tab"
)

// --- a dialog driven as the shell drives it ---------------------------------

// Dialog is the dialog a tab put in place of the preparing one (n), driven
// as the shell drives its modal: Init once it is on screen, then every key
// and every message for the dialog (ui.ModalMsg) through Update with the
// shell's clock; what its commands bring that is not for the dialog goes
// to the tab and the shell as in env.run.
type Dialog struct {
	E      *Env
	M      ui.Modal
	Now    time.Time
	Closed bool
}

// OpenNew presses n as the shell does: an ActionMsg with a new ticket,
// answered by the tab with the form (ui.OpenDialogMsg for that ticket).
func (e *Env) OpenNew() *Dialog {
	e.T.Helper()
	e.Ticket++
	ticket := e.Ticket
	var opened *ui.OpenDialogMsg
	queue := []tea.Cmd{e.SendHold(ui.ActionMsg{Action: keys.ActNew, Ticket: ticket})}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		switch m := c().(type) {
		case nil:
		case tea.BatchMsg:
			queue = append(queue, m...)
		case ui.OpenDialogMsg:
			require.Nil(e.T, opened, "one answer per ticket")
			opened = &m
		default:
			e.Run(func() tea.Msg { return m })
		}
	}
	require.NotNil(e.T, opened, "n is answered with a dialog; the shell got %v", e.Shell)
	require.Equal(e.T, ticket, opened.Ticket, "the dialog answers the n key's ticket")
	require.IsType(e.T, &tab.FormModal{}, opened.Modal)
	d := &Dialog{E: e, M: opened.Modal, Now: e.Now()}
	if in, ok := d.M.(ui.Initer); ok {
		d.run(in.Init())
	}
	return d
}

// send gives the dialog one message at the dialog's clock and runs what it
// returns.
func (d *Dialog) send(msg tea.Msg) {
	d.E.T.Helper()
	require.False(d.E.T, d.Closed, "the dialog is closed")
	m, cmd, closed := d.M.Update(msg, d.Now)
	if m != nil {
		d.M = m
	}
	d.Closed = closed
	d.M.View(76, 21) // the shell draws after every message (80×24: 76×21 for a dialog)
	d.run(cmd)
}

// Press sends key presses, named as for env.press.
func (d *Dialog) Press(names ...string) {
	d.E.T.Helper()
	for _, n := range names {
		d.send(KeyPress(n))
	}
}

// Typ types text, one key press a character.
func (d *Dialog) Typ(s string) {
	d.E.T.Helper()
	for _, r := range s {
		d.send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

// Field types s and presses enter.
func (d *Dialog) Field(s string) {
	d.E.T.Helper()
	d.Typ(s)
	d.Press("enter")
}

// Clear empties the focused input (ctrl+u).
func (d *Dialog) Clear() {
	d.E.T.Helper()
	d.send(tea.KeyPressMsg{Code: 'u', Mod: tea.ModCtrl})
}

// Wait moves the shell's clock on.
func (d *Dialog) Wait(dt time.Duration) { d.Now = d.Now.Add(dt) }

// Screen is the dialog as the shell draws it at 80×24, in plain text.
func (d *Dialog) Screen() string { return PlainLines(d.M.View(76, 21)) }

// run executes a command of the dialog and everything that follows from
// it: messages for the dialog go back to it, the runtime's own requests
// (the window size huh asks for) are left out, everything else goes to the
// tab and the shell (env.run). A cursor's blink, a timer that never ends
// while the cursor is focused, is let run out in the background, unheard.
func (d *Dialog) run(cmd tea.Cmd) {
	d.E.T.Helper()
	queue := []tea.Cmd{cmd}
	for steps := 0; len(queue) > 0; steps++ {
		require.Less(d.E.T, steps, 10000, "the dialog's commands never settle")
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		msg, ok := ExecCmd(d.E.T, c)
		if !ok {
			continue
		}
		if cmds, isSeq := sequenceOf(msg); isSeq {
			queue = append(queue, cmds...)
			continue
		}
		switch m := msg.(type) {
		case nil:
		case tea.BatchMsg:
			queue = append(queue, m...)
		case ui.ModalMsg:
			if d.Closed {
				continue
			}
			next, c, closed := d.M.Update(m, d.Now)
			if next != nil {
				d.M = next
			}
			d.Closed = closed
			queue = append(queue, c)
		default:
			if strings.HasPrefix(reflect.TypeOf(msg).PkgPath(), "charm.land/bubbletea/") {
				continue // a request to the runtime
			}
			d.E.Run(func() tea.Msg { return m })
		}
	}
}

var cmdsType = reflect.TypeFor[[]tea.Cmd]()

// sequenceOf recognises tea.Sequence's message (its type is unexported).
func sequenceOf(msg tea.Msg) ([]tea.Cmd, bool) {
	v := reflect.ValueOf(msg)
	if !v.IsValid() || v.Kind() != reflect.Slice || v.Type().Elem() != cmdsType.Elem() {
		return nil, false
	}
	if _, batch := msg.(tea.BatchMsg); batch {
		return nil, false
	}
	return v.Convert(cmdsType).Interface().([]tea.Cmd), true
}

// ExecCmd runs c and returns its message; ok is false when c is a timer
// the runtime would fire much later (a text cursor's blink, a tea.Tick): it
// is seen blocked in one, and left to run out unheard. The function it is
// blocked in tells a timer, also when a wrapper runs it (a form tags its
// fields' commands), never how long c takes; one that neither answers nor
// waits in a timer for longWait is reported as hung.
func ExecCmd(t testing.TB, c tea.Cmd) (tea.Msg, bool) {
	t.Helper()
	done := make(chan tea.Msg, 1)
	ids := make(chan string, 1)
	go func() {
		ids <- goroutineID()
		done <- c()
	}()
	id := <-ids
	deadline := time.Now().Add(LongWait)
	for wait := 50 * time.Microsecond; ; wait = min(2*wait, 5*time.Millisecond) {
		select {
		case m := <-done:
			return m, true
		case <-time.After(wait):
		}
		if inTimer(id) {
			return nil, false
		}
		require.True(t, time.Now().Before(deadline), "a command never returns")
	}
}

// goroutineID is the running goroutine's number, as runtime.Stack writes it.
func goroutineID() string {
	buf := make([]byte, 64)
	buf = buf[:runtime.Stack(buf, false)]
	f := bytes.Fields(buf)
	if len(f) < 2 {
		return ""
	}
	return string(f[1])
}

// timers are the functions a command waits in when it is a timer.
var timers = []string{"bubbles/v2/cursor.(*Model).Blink", "bubbletea/v2.Tick", "bubbletea/v2.Every"}

// inTimer reports whether goroutine id is waiting in a timer.
func inTimer(id string) bool {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	head := []byte("goroutine " + id + " [")
	i := bytes.Index(buf, head)
	if i < 0 {
		return false
	}
	stack := buf[i:]
	if j := bytes.Index(stack, []byte("\n\n")); j >= 0 {
		stack = stack[:j]
	}
	for _, fn := range timers {
		if bytes.Contains(stack, []byte(fn)) {
			return true
		}
	}
	return false
}

// PlainLines strips the escapes and the spaces that end lines.
func PlainLines(s string) string {
	lines := strings.Split(ansi.Strip(s), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}

// QRIn finds the QR code drawn in a screen (the first line with a run of
// at least 25 '█', a light quiet zone drawn in light ink, and the lines
// under it with a code's glyphs in those columns) and reads it back.
func QRIn(t *testing.T, screen string) string {
	t.Helper()
	lines := strings.Split(ansi.Strip(screen), "\n")
	start, width, first := -1, 0, -1
	for i, l := range lines {
		r := []rune(l)
		for j := 0; j < len(r); {
			if r[j] != '█' {
				j++
				continue
			}
			k := j
			for k < len(r) && r[k] == '█' {
				k++
			}
			if k-j >= 25 {
				start, width, first = j, k-j, i
				break
			}
			j = k
		}
		if first >= 0 {
			break
		}
	}
	require.GreaterOrEqual(t, first, 0, "no QR code on the screen:\n%s", screen)
	var code []string
	for _, l := range lines[first:] {
		r := []rune(l)
		if len(r) < start+width {
			break
		}
		s := string(r[start : start+width])
		if strings.Trim(s, "█▀▄ ") != "" || (r[start] != '█' && r[start] != '▀') {
			break
		}
		code = append(code, s)
	}
	got, err := qrtest.Decode(code, true) // no colour, dark terminal: light ink
	require.NoError(t, err, "the code:\n%s", strings.Join(code, "\n"))
	return got
}

// Body is the dialog's content lines without its frame, spaces at the end
// dropped.
func Body(screen string) []string {
	lines := strings.Split(screen, "\n")
	var out []string
	for _, l := range lines[1 : len(lines)-1] {
		r := []rune(strings.TrimRight(l, " "))
		if len(r) < 2 {
			out = append(out, "")
			continue
		}
		out = append(out, strings.TrimRight(string(r[2:len(r)-1]), " "))
	}
	return out
}

// Shows asserts that the focused field is the one titled title, with msg
// right under it (a long message wraps), and that the form is still open.
func (d *Dialog) Shows(title, msg string) {
	d.E.T.Helper()
	scr := d.Screen()
	lines := Body(scr)
	first, last := -1, -1
	for i, l := range lines {
		if strings.HasPrefix(l, "┃") {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	require.GreaterOrEqual(d.E.T, first, 0, "a field has the focus:\n%s", scr)
	assert.Equal(d.E.T, "┃ "+title, lines[first], "the focus stays on the field at fault:\n%s", scr)
	var under []string
	for i := last + 1; i < len(lines) && strings.TrimSpace(lines[i]) != ""; i++ {
		under = append(under, strings.TrimSpace(lines[i]))
	}
	assert.Equal(d.E.T, "✗ "+msg, strings.Join(under, " "), "the message is under the field:\n%s", scr)
	assert.IsType(d.E.T, &tab.FormModal{}, d.M, "the form stays open")
	assert.False(d.E.T, d.Closed)
}

// Confirm presses y once the confirmation's guard is over: the shell's
// Dialog calls Spec.Confirm, and the send runs to its outcome.
func (d *Dialog) Confirm() {
	d.E.T.Helper()
	_, isForm := d.M.(*tab.FormModal)
	require.False(d.E.T, isForm, "the form was submitted")
	d.Wait(ui.ConfirmGuard)
	d.Press("y")
	require.True(d.E.T, d.Closed, "y closes the confirmation:\n%s", d.Screen())
}

// Result is the dialog the tab opened with what was made, and forgets it.
func (e *Env) Result() *tab.ResultModal {
	e.T.Helper()
	ms := e.TakeModals()
	require.Len(e.T, ms, 1, "one dialog shows what was made")
	r, ok := ms[0].Modal.(*tab.ResultModal)
	require.True(e.T, ok, "a result dialog, not %T", ms[0].Modal)
	return r
}

type ActionTargeter interface{ ActionTarget(keys.Action) string }

// StickersOf lists a merchant's stickers through the backend.
func (e *Env) StickersOf(merchant string) map[string]backend.Sticker {
	e.T.Helper()
	out := map[string]backend.Sticker{}
	pg := e.B.ListStickers(backend.StickerQuery{MerchantID: merchant})
	for range 100 {
		page, err := pg.Next(context.Background())
		require.NoError(e.T, err)
		for _, s := range page.Items {
			out[s.ID] = s
		}
		if page.Done {
			return out
		}
	}
	e.T.Fatal("the sticker list never ends")
	return nil
}

// SummaryOf is the lines the confirmation shows first: the form's Summary.
func SummaryOf(screen string, n int) []string {
	lines := Body(screen)
	if len(lines) < 2+n {
		return lines
	}
	return lines[2 : 2+n]
}

// Confirms asserts that the dialog asks to confirm: title at the top and,
// under it, exactly summary, which is also what the form built (its
// Summary). It returns the screen, for the test's further checks.
func (d *Dialog) Confirms(form interface{ Summary() []string }, title string, summary []string) string {
	t := d.E.T
	t.Helper()
	assert.Equal(t, summary, form.Summary())
	scr := d.Screen()
	assert.Equal(t, title, Body(scr)[0])
	assert.Equal(t, summary, SummaryOf(scr, len(summary)), "the confirmation's lines are the form's summary:\n%s", scr)
	return scr
}

// Burst gives the dialog every key of s (as in a terminal: "\r" is enter)
// before running any command they returned, as the runtime does with keys
// typed faster than it reads them: they wait in its input ahead of the
// commands' results. The commands then run in the order they were
// returned.
func (d *Dialog) Burst(s string) {
	d.E.T.Helper()
	var cmds []tea.Cmd
	for _, r := range s {
		k := tea.KeyPressMsg{Code: r, Text: string(r)}
		if r == '\r' {
			k = KeyPress("enter")
		}
		require.False(d.E.T, d.Closed, "the dialog is closed")
		m, cmd, closed := d.M.Update(k, d.Now)
		if m != nil {
			d.M = m
		}
		d.Closed = closed
		d.M.View(76, 21)
		cmds = append(cmds, cmd)
	}
	for _, c := range cmds {
		d.run(c)
	}
}
