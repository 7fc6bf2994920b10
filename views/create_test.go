package views

import (
	"bytes"
	"context"
	"reflect"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend"
	"paydash/backend/journal"
	"paydash/backend/money"
	"paydash/backend/sandbox"
	"paydash/keys"
	"paydash/ui"
	"paydash/ui/qr/qrtest"
	"paydash/views/forms"
)

// The shell gives a form's own messages to the open dialog.
var _ ui.ModalMsg = forms.Msg{}

// --- a dialog driven as the shell drives it ---------------------------------

// dialog is the dialog a tab put in place of the preparing one (n), driven
// as the shell drives its modal: Init once it is on screen, then every key
// and every message for the dialog (ui.ModalMsg) through Update with the
// shell's clock; what its commands bring that is not for the dialog goes
// to the tab and the shell as in env.run.
type dialog struct {
	e      *env
	m      ui.Modal
	now    time.Time
	closed bool
}

// openNew presses n as the shell does: an ActionMsg with a new ticket,
// answered by the tab with the form (ui.OpenDialogMsg for that ticket).
func (e *env) openNew() *dialog {
	e.t.Helper()
	e.ticket++
	ticket := e.ticket
	var opened *ui.OpenDialogMsg
	queue := []tea.Cmd{e.sendHold(ui.ActionMsg{Action: keys.ActNew, Ticket: ticket})}
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
			require.Nil(e.t, opened, "one answer per ticket")
			opened = &m
		default:
			e.run(func() tea.Msg { return m })
		}
	}
	require.NotNil(e.t, opened, "n is answered with a dialog; the shell got %v", e.shell)
	require.Equal(e.t, ticket, opened.Ticket, "the dialog answers the n key's ticket")
	require.IsType(e.t, &formModal{}, opened.Modal)
	d := &dialog{e: e, m: opened.Modal, now: e.now()}
	if in, ok := d.m.(ui.Initer); ok {
		d.run(in.Init())
	}
	return d
}

// send gives the dialog one message at the dialog's clock and runs what it
// returns.
func (d *dialog) send(msg tea.Msg) {
	d.e.t.Helper()
	require.False(d.e.t, d.closed, "the dialog is closed")
	m, cmd, closed := d.m.Update(msg, d.now)
	if m != nil {
		d.m = m
	}
	d.closed = closed
	d.m.View(76, 21) // the shell draws after every message (80×24: 76×21 for a dialog)
	d.run(cmd)
}

// press sends key presses, named as for env.press.
func (d *dialog) press(names ...string) {
	d.e.t.Helper()
	for _, n := range names {
		d.send(keyPress(n))
	}
}

// typ types text, one key press a character.
func (d *dialog) typ(s string) {
	d.e.t.Helper()
	for _, r := range s {
		d.send(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

// field types s and presses enter.
func (d *dialog) field(s string) {
	d.e.t.Helper()
	d.typ(s)
	d.press("enter")
}

// clear empties the focused input (ctrl+u).
func (d *dialog) clear() {
	d.e.t.Helper()
	d.send(tea.KeyPressMsg{Code: 'u', Mod: tea.ModCtrl})
}

// wait moves the shell's clock on.
func (d *dialog) wait(dt time.Duration) { d.now = d.now.Add(dt) }

// screen is the dialog as the shell draws it at 80×24, in plain text.
func (d *dialog) screen() string { return plainLines(d.m.View(76, 21)) }

// run executes a command of the dialog and everything that follows from
// it: messages for the dialog go back to it, the runtime's own requests
// (the window size huh asks for) are left out, everything else goes to the
// tab and the shell (env.run). A cursor's blink, a timer that never ends
// while the cursor is focused, is let run out in the background, unheard.
func (d *dialog) run(cmd tea.Cmd) {
	d.e.t.Helper()
	queue := []tea.Cmd{cmd}
	for steps := 0; len(queue) > 0; steps++ {
		require.Less(d.e.t, steps, 10000, "the dialog's commands never settle")
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		msg, ok := execCmd(d.e.t, c)
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
			if d.closed {
				continue
			}
			next, c, closed := d.m.Update(m, d.now)
			if next != nil {
				d.m = next
			}
			d.closed = closed
			queue = append(queue, c)
		default:
			if strings.HasPrefix(reflect.TypeOf(msg).PkgPath(), "charm.land/bubbletea/") {
				continue // a request to the runtime
			}
			d.e.run(func() tea.Msg { return m })
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

// execCmd runs c and returns its message; ok is false when c is a timer
// the runtime would fire much later (a text cursor's blink, a tea.Tick): it
// is seen blocked in one, and left to run out unheard. The function it is
// blocked in tells a timer, also when a wrapper runs it (a form tags its
// fields' commands), never how long c takes; one that neither answers nor
// waits in a timer for longWait is reported as hung.
func execCmd(t testing.TB, c tea.Cmd) (tea.Msg, bool) {
	t.Helper()
	done := make(chan tea.Msg, 1)
	ids := make(chan string, 1)
	go func() {
		ids <- goroutineID()
		done <- c()
	}()
	id := <-ids
	deadline := time.Now().Add(longWait)
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

// plainLines strips the escapes and the spaces that end lines.
func plainLines(s string) string {
	lines := strings.Split(ansi.Strip(s), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}

// qrIn finds the QR code drawn in a screen (the first line with a run of
// at least 25 '█', a light quiet zone drawn in light ink, and the lines
// under it with a code's glyphs in those columns) and reads it back.
func qrIn(t *testing.T, screen string) string {
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

// The sandbox listens on a random port: goldens show it masked.
var sandboxPort = regexp.MustCompile(`127\.0\.0\.1:[0-9]+`)

func maskPort(s string) string { return sandboxPort.ReplaceAllString(s, "127.0.0.1:PORT") }

// body is the dialog's content lines without its frame, spaces at the end
// dropped.
func body(screen string) []string {
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

// shows asserts that the focused field is the one titled title, with msg
// right under it (a long message wraps), and that the form is still open.
func (d *dialog) shows(title, msg string) {
	d.e.t.Helper()
	scr := d.screen()
	lines := body(scr)
	first, last := -1, -1
	for i, l := range lines {
		if strings.HasPrefix(l, "┃") {
			if first < 0 {
				first = i
			}
			last = i
		}
	}
	require.GreaterOrEqual(d.e.t, first, 0, "a field has the focus:\n%s", scr)
	assert.Equal(d.e.t, "┃ "+title, lines[first], "the focus stays on the field at fault:\n%s", scr)
	var under []string
	for i := last + 1; i < len(lines) && strings.TrimSpace(lines[i]) != ""; i++ {
		under = append(under, strings.TrimSpace(lines[i]))
	}
	assert.Equal(d.e.t, "✗ "+msg, strings.Join(under, " "), "the message is under the field:\n%s", scr)
	assert.IsType(d.e.t, &formModal{}, d.m, "the form stays open")
	assert.False(d.e.t, d.closed)
}

// confirm presses y once the confirmation's guard is over: the shell's
// dialog calls Spec.Confirm, and the send runs to its outcome.
func (d *dialog) confirm() {
	d.e.t.Helper()
	_, isForm := d.m.(*formModal)
	require.False(d.e.t, isForm, "the form was submitted")
	d.wait(ui.ConfirmGuard)
	d.press("y")
	require.True(d.e.t, d.closed, "y closes the confirmation:\n%s", d.screen())
}

// result is the dialog the tab opened with what was made, and forgets it.
func (e *env) result() *resultModal {
	e.t.Helper()
	ms := take[ui.OpenModalMsg](e)
	require.Len(e.t, ms, 1, "one dialog shows what was made")
	r, ok := ms[0].Modal.(*resultModal)
	require.True(e.t, ok, "a result dialog, not %T", ms[0].Modal)
	return r
}

// quietLines is how many lines of light ink top the QR code on a screen:
// 2 for the standard quiet zone of 4 modules, 1 for the narrower one of 2.
func quietLines(screen string) int {
	n, in := 0, false
	for _, l := range strings.Split(ansi.Strip(screen), "\n") {
		if strings.Contains(l, strings.Repeat("█", 25)) && strings.Trim(strings.Trim(l, "│ "), "█") == "" {
			n, in = n+1, true
		} else if in {
			break
		}
	}
	return n
}

type actionTargeter interface{ ActionTarget(keys.Action) string }

// stickersOf lists a merchant's stickers through the backend.
func (e *env) stickersOf(merchant string) map[string]backend.Sticker {
	e.t.Helper()
	out := map[string]backend.Sticker{}
	pg := e.b.ListStickers(backend.StickerQuery{MerchantID: merchant})
	for range 100 {
		page, err := pg.Next(context.Background())
		require.NoError(e.t, err)
		for _, s := range page.Items {
			out[s.ID] = s
		}
		if page.Done {
			return out
		}
	}
	e.t.Fatal("the sticker list never ends")
	return nil
}

// summaryOf is the lines the confirmation shows first: the form's Summary.
func summaryOf(screen string, n int) []string {
	lines := body(screen)
	if len(lines) < 2+n {
		return lines
	}
	return lines[2 : 2+n]
}

// --- the payment link (Payments tab) ------------------------------------------

func TestCreatePaymentLinkFromPaymentsTab(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{})
	e.size(80, 24)
	e.init()
	merchant := e.scope.MerchantID
	before := e.srv.Store().PaymentCount()
	assert.Equal(t, "New payment link", e.tab.(actionTargeter).ActionTarget(keys.ActNew))
	ok, why := e.tab.Available(keys.ActNew)
	require.True(t, ok, why)

	d := e.openNew()
	fm := d.m.(*formModal)
	assert.Equal(t, keys.ContextForm, d.m.Context(), "the form's fields take the keys")
	assert.Contains(t, d.screen(), "Amount and order · page 1 of 3")

	d.field("abc")
	d.shows("Amount", "“a” is a letter: an amount has digits only")
	d.clear()
	d.field("0")
	d.shows("Amount", "the amount must be more than 0")
	d.clear()
	d.field("1,500.50")
	d.press("enter") // RUB
	d.press("enter")
	d.shows("Description", "enter a description of what is paid for")
	d.field("Two mugs")
	d.field("ORD-77")

	assert.Contains(t, d.screen(), "Customer · page 2 of 3")
	d.field("ann@")
	d.shows("Customer e-mail (optional)", "an e-mail address like name@example.com")
	d.clear()
	d.field("ann@example.com")
	d.field("+7 900 123-45-67 доб. 5")
	d.shows("Customer phone (optional)",
		"only digits, spaces, brackets, dashes and dots, and + before the country code: +7 916 123-45-67")
	d.clear()
	d.field("8 (900) 123-45-67") // written the Russian way: sent as the digits the service wants

	assert.Contains(t, d.screen(), "Link · page 3 of 3")
	d.press("enter", "enter", "enter") // the service's expiry, no hold, no return page
	d.field("http://shop.example.com/notify")
	d.shows("Callback address (optional, https)", "a callback address must start with https://")
	assert.Equal(t, before, e.srv.Store().PaymentCount(), "nothing is sent while a field is wrong")
	assert.Empty(t, e.journal())
	d.clear()
	d.field("https://shop.example.com/notify")

	// The confirmation: exactly what the form built.
	summary := []string{
		"Merchant: " + merchant,
		"Amount: 1,500.50 RUB",
		"Description: Two mugs",
		"Order number: ORD-77",
		"Customer e-mail: ann@example.com",
		"Customer phone: 79001234567",
		"Hold (dual mode): no: the money is charged at once",
		"Callback address: https://shop.example.com/notify",
	}
	assert.Equal(t, summary, fm.form.Summary())
	scr := d.screen()
	assert.Equal(t, "Create this payment link?", body(scr)[0])
	assert.Equal(t, summary, summaryOf(scr, len(summary)), "the confirmation's lines are the form's summary:\n%s", scr)
	assert.Contains(t, scr, "Create 1,500.50 RUB", "the button names the amount")
	assert.Equal(t, keys.ContextModal, d.m.Context())
	assert.Equal(t, before, e.srv.Store().PaymentCount(), "nothing is sent before y")
	assert.Empty(t, e.journal())

	d.confirm()
	assert.Equal(t, before+1, e.srv.Store().PaymentCount(), "exactly one payment made")
	made, err := e.srv.Store().PaymentByOrderNo(merchant, "ORD-77")
	require.NoError(t, err)
	assert.True(t, made.IsInvoice)
	assert.Equal(t, sandbox.PaymentPending, made.Status)
	assert.Equal(t, money.Amount{Value: money.MustParse("1500.50"), Currency: "RUB"}, made.Amount)
	assert.Equal(t, "Two mugs", made.Invoice.Description)
	require.NotNil(t, made.Customer)
	assert.Equal(t, "ann@example.com", made.Customer.Email)
	assert.Equal(t, "79001234567", made.Customer.Phone)
	require.NotNil(t, made.Protocol)
	assert.Equal(t, "https://shop.example.com/notify", made.Protocol.CallbackURL)
	assert.False(t, made.DualMode)
	got, err := e.b.GetPayment(context.Background(), made.ID)
	require.NoError(t, err, "the backend reads it")
	assert.Equal(t, made.Amount, got.Amount)
	assert.Equal(t, "ORD-77", got.OrderNo)
	link := e.srv.Store().PaymentPageURL(made.ID)

	ts := e.toasts()
	require.Len(t, ts, 1)
	assert.Equal(t, ui.ToastSuccess, ts[0].Level)
	assert.Equal(t, "Payment link for 1,500.50 RUB (order ORD-77) made: payment "+made.ID+", "+link, ts[0].Text)
	assert.Empty(t, e.errors())
	j := e.journal()
	require.Len(t, j, 2)
	assert.Equal(t, string(backend.ActionCreateInvoice), j[0].Action)
	assert.Equal(t, []string{journal.PhaseSent, journal.PhaseDone}, []string{j[0].Phase, j[1].Phase})
	assert.Equal(t, "1500.50", j[0].Amount)
	assert.Equal(t, "RUB", j[0].Currency)
	assert.Equal(t, "v2", j[0].Interface)
	assert.NotEmpty(t, j[0].IdempotencyKey)
	assert.Equal(t, j[0].IdempotencyKey, j[1].IdempotencyKey)

	// The result: the address and its QR code, which a phone reads back.
	r := e.result()
	assert.Equal(t, keys.ContextResult, r.Context())
	big := plainLines(r.View(120, 50))
	assert.Contains(t, big, "Payment link made")
	assert.Contains(t, big, "Payment "+made.ID+" for 1,500.50 RUB · order ORD-77")
	assert.Contains(t, big, link)
	assert.Equal(t, link, qrIn(t, big))
	assert.Equal(t, 2, quietLines(big), "a roomy dialog draws the standard quiet zone (4 modules)")
	for _, size := range [][2]int{{80, 21}, {76, 21}} { // 80×24: the shell gives a dialog 76×21
		small := plainLines(r.View(size[0], size[1]))
		assert.LessOrEqual(t, len(strings.Split(small, "\n")), size[1], "%dx%d: the dialog fits", size[0], size[1])
		assert.Contains(t, small, link)
		assert.Equal(t, link, qrIn(t, small), "%dx%d", size[0], size[1])
		assert.Equal(t, 1, quietLines(small), "%dx%d: the narrower quiet zone (2 modules)", size[0], size[1])
	}

	// y copies the address; esc closes the dialog.
	_, cmd, closed := r.Update(keyPress("y"), e.now())
	assert.False(t, closed)
	assert.NotNil(t, cmd, "the clipboard is set")
	assert.Contains(t, plainLines(r.View(120, 50)), "copied · esc close")
	_, _, closed = r.Update(keyPress("esc"), e.now())
	assert.True(t, closed)

	// The new payment is listed.
	e.press("g")
	assert.Equal(t, made.ID, e.tab.(*Payments).list.table.SelectedID(), "the list was refreshed: the new payment is at the top")
}

// --- the sticker (Stickers tab) -----------------------------------------------

func TestCreateStickerFromStickersTab(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{tab: NewStickers})
	e.size(120, 40)
	e.init()
	merchant := e.scope.MerchantID
	before := e.stickersOf(merchant)
	assert.Equal(t, "New sticker", e.tab.(actionTargeter).ActionTarget(keys.ActNew))

	d := e.openNew()
	fm := d.m.(*formModal)
	assert.Contains(t, d.screen(), "Sticker · page 1 of 2")
	d.press("enter", "enter") // SBP, no cashlink
	d.press("enter")
	d.shows("Amount, RUB", "enter the amount")
	d.field("abc")
	d.shows("Amount, RUB", "“a” is a letter: an amount has digits only")
	d.clear()
	d.field("99.999")
	d.shows("Amount, RUB", "RUB amounts have at most 2 decimals")
	d.clear()
	d.field("150")
	d.press("enter")
	d.shows("Description", "enter a description of the sticker")
	d.field("Coffee to go")

	assert.Contains(t, d.screen(), "Details · page 2 of 2")
	d.field("SKU-42")
	d.press("enter") // no payment purpose
	d.field("http://shop.example.com/sbp")
	d.shows("Callback address (optional, https)", "a callback address must start with https://")
	assert.Len(t, e.stickersOf(merchant), len(before), "nothing is sent while a field is wrong")
	d.clear()
	d.press("enter")

	summary := []string{
		"Merchant: " + merchant,
		"Sticker type: Sbp",
		"Cashlink: no",
		"Amount: 150.00 RUB",
		"Description: Coffee to go",
		"Product code: SKU-42",
	}
	assert.Equal(t, summary, fm.form.Summary())
	scr := d.screen()
	assert.Equal(t, "Create this sticker?", body(scr)[0])
	assert.Equal(t, summary, summaryOf(scr, len(summary)), scr)
	assert.Contains(t, scr, "Create 150.00 RUB")
	assert.Empty(t, e.journal(), "nothing is sent before y")

	d.confirm()
	after := e.stickersOf(merchant)
	require.Len(t, after, len(before)+1, "exactly one sticker made")
	var made backend.Sticker
	for id, s := range after {
		if _, old := before[id]; !old {
			made = s
		}
	}
	assert.Equal(t, "Coffee to go", made.Description, "the new sticker is listed")
	assert.Equal(t, "SKU-42", made.ProductCode)
	assert.Equal(t, money.Amount{Value: money.MustParse("150"), Currency: "RUB"}, made.Amount)
	assert.Equal(t, "Active", made.Status)
	assert.Equal(t, "Sbp", made.StickerType)
	require.NotEmpty(t, made.Payload)

	ts := e.toasts()
	require.Len(t, ts, 1)
	assert.Equal(t, `Sticker "Coffee to go" for 150.00 RUB made: sticker `+made.ID+", "+made.Payload+" — Active", ts[0].Text)
	j := e.journal()
	require.Len(t, j, 2)
	assert.Equal(t, string(backend.ActionCreateSticker), j[0].Action)
	assert.Equal(t, []string{journal.PhaseSent, journal.PhaseDone}, []string{j[0].Phase, j[1].Phase})

	r := e.result()
	big := plainLines(r.View(120, 50))
	assert.Contains(t, big, "Sticker made")
	assert.Contains(t, big, "Sticker "+made.ID+" for 150.00 RUB · Active")
	assert.Contains(t, big, made.Payload)
	assert.Equal(t, made.Payload, qrIn(t, big))
	// At 80×24 an SBP link's code does not fit: the dialog says how much
	// taller the window must be, and still shows the whole address.
	small := plainLines(r.View(76, 21))
	assert.Contains(t, small, "more lines: make the window taller")
	assert.Contains(t, strings.ReplaceAll(strings.Join(body(small), ""), " ", ""), made.Payload)

	// The tab lists it.
	s := e.tab.(*Stickers)
	require.True(t, s.list.table.SelectByID(made.ID), "the new sticker is in the list")
	row, _ := s.list.selected()
	assert.Equal(t, merchant, row.MerchantID)
	assert.Equal(t, "Coffee to go", row.Description)
}

// --- the card-saving link (Tokens tab) ----------------------------------------

func TestCreateTokenizationLinkFromTokensTab(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{tab: NewTokens})
	e.size(80, 24)
	e.init()
	merchant := e.scope.MerchantID
	before := len(e.srv.Store().TokensOf(merchant))
	assert.Equal(t, "New card-saving link", e.tab.(actionTargeter).ActionTarget(keys.ActNew))

	d := e.openNew()
	fm := d.m.(*formModal)
	scr := d.screen()
	assert.Contains(t, scr, "Customer · page 1 of 2")
	assert.Contains(t, scr, "Token type: recurring")
	d.press("enter")
	d.shows("Customer account (in your system)", "enter the customer's account in your system")
	d.field("client-1042")
	d.field("ann@example")
	d.shows("Customer e-mail (optional)", "an e-mail address like name@example.com")
	d.field(".com")
	d.field("Monthly subscription")

	assert.Contains(t, d.screen(), "Addresses · page 2 of 2")
	d.field("shop.example.com/done")
	d.shows("Return page (optional)", "a full address like https://shop.example.com/done")
	d.clear()
	d.field("https://shop.example.com/done")
	d.field("http://shop.example.com/tokens")
	d.shows("Callback address (optional, https)", "a callback address must start with https://")
	assert.Len(t, e.srv.Store().TokensOf(merchant), before, "nothing is sent while a field is wrong")
	d.clear()
	d.field("https://shop.example.com/tokens")

	summary := []string{
		"Merchant: " + merchant,
		"Token type: recurring",
		"Payment method: bankcard",
		"Purpose: Monthly subscription",
		"Customer account: client-1042",
		"Customer e-mail: ann@example.com",
		"Return page: https://shop.example.com/done",
		"Callback address: https://shop.example.com/tokens",
	}
	assert.Equal(t, summary, fm.form.Summary())
	scr = d.screen()
	assert.Equal(t, "Create this card-saving link?", body(scr)[0])
	assert.Equal(t, summary, summaryOf(scr, len(summary)), scr)
	assert.Empty(t, e.journal(), "nothing is sent before y")

	d.confirm()
	tokens := e.srv.Store().TokensOf(merchant)
	require.Len(t, tokens, before+1, "exactly one token made")
	made := tokens[0] // newest first
	assert.Equal(t, sandbox.TokenCreated, made.Status)
	assert.Equal(t, "Monthly subscription", made.Purpose)
	require.NotNil(t, made.Customer)
	assert.Equal(t, "client-1042", made.Customer.Account)
	assert.Equal(t, "ann@example.com", made.Customer.Email)
	tok, err := e.b.GetToken(context.Background(), made.ID)
	require.NoError(t, err, "the backend reads the token")
	assert.Equal(t, made.ID, tok.ID)
	link := e.srv.Store().TokenizationPageURL(made.ID)

	ts := e.toasts()
	require.Len(t, ts, 1)
	assert.Equal(t, "Card-saving link for customer account client-1042 made: token "+made.ID+", "+link, ts[0].Text)
	j := e.journal()
	require.Len(t, j, 2)
	assert.Equal(t, string(backend.ActionCreateTokenization), j[0].Action)
	assert.Equal(t, []string{journal.PhaseSent, journal.PhaseDone}, []string{j[0].Phase, j[1].Phase})

	r := e.result()
	big := plainLines(r.View(120, 50))
	assert.Contains(t, big, "Card-saving link made")
	assert.Contains(t, big, "Token "+made.ID)
	assert.Equal(t, link, qrIn(t, big))
	small := plainLines(r.View(76, 21))
	assert.Contains(t, small, link)
	assert.Equal(t, link, qrIn(t, small))

	// The tab knows the token from then on.
	v := ansi.Strip(e.view(80, 24))
	assert.Contains(t, v, made.ID)
}

// --- leaving, and confirming twice --------------------------------------------

// esc leaves a form, on any page, and nothing is sent.
func TestCreateFormAbortedWithEscSendsNothing(t *testing.T) {
	t.Parallel()
	for name, tab := range map[string]func(Deps) ui.Tab{"payment link": NewPayments, "sticker": NewStickers, "card-saving link": NewTokens} {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t, envOpts{tab: tab})
			e.size(80, 24)
			e.init()
			e.shell = nil
			payments, tokens := e.srv.Store().PaymentCount(), len(e.srv.Store().TokensOf(e.scope.MerchantID))
			stickers := len(e.stickersOf(e.scope.MerchantID))

			d := e.openNew()
			d.typ("12")
			d.press("esc")
			assert.True(t, d.closed, "esc closes the form")

			d = e.openNew() // again, leaving from the last page
			switch name {
			case "payment link":
				d.field("10")
				d.press("enter")
				d.field("Tea")
				d.press("enter", "enter", "enter")
				assert.Contains(t, d.screen(), "page 3 of 3")
			case "sticker":
				d.press("enter", "enter")
				d.field("10")
				d.field("Tea")
				assert.Contains(t, d.screen(), "page 2 of 2")
			default:
				d.field("client-1")
				d.press("enter", "enter")
				assert.Contains(t, d.screen(), "page 2 of 2")
			}
			d.press("esc")
			assert.True(t, d.closed)

			assert.Empty(t, e.shell, "no toast, no dialog")
			assert.Empty(t, e.journal(), "nothing journaled")
			assert.Equal(t, payments, e.srv.Store().PaymentCount())
			assert.Len(t, e.srv.Store().TokensOf(e.scope.MerchantID), tokens)
			assert.Len(t, e.stickersOf(e.scope.MerchantID), stickers)
			assert.Zero(t, e.tab.Status().Sending)
		})
	}
}

// fillPaymentLink fills the payment link form with 25.00 RUB for tea,
// order orderNo, and submits it.
func fillPaymentLink(d *dialog, orderNo string) {
	d.e.t.Helper()
	d.field("25")
	d.press("enter")
	d.field("Tea")
	d.field(orderNo)
	d.press("enter", "enter", "enter", "enter", "enter", "enter")
	_, isForm := d.m.(*formModal)
	require.False(d.e.t, isForm, "submitted:\n%s", d.screen())
}

// n on the confirmation sends nothing.
func TestCreateConfirmationCancelledSendsNothing(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{})
	e.size(80, 24)
	e.init()
	e.shell = nil
	before := e.srv.Store().PaymentCount()
	d := e.openNew()
	fillPaymentLink(d, "ORD-NO")
	d.wait(ui.ConfirmGuard)
	d.press("n")
	assert.True(t, d.closed)
	assert.Equal(t, before, e.srv.Store().PaymentCount())
	assert.Empty(t, e.journal())
	assert.Empty(t, e.shell)
}

// Keys typed at the confirmation as it appears are ignored; y then needs
// pressing twice, each after a pause, and more y's send nothing more: one
// payment is made.
func TestCreateConfirmTwiceSendsOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{})
	e.size(80, 24)
	e.init()
	before := e.srv.Store().PaymentCount()
	d := e.openNew()
	fillPaymentLink(d, "ORD-TWICE")

	d.press("y") // typed on: within the guard
	assert.False(t, d.closed)
	assert.Contains(t, strings.Join(strings.Fields(d.screen()), " "), "1 key ignored")
	d.wait(ui.ConfirmGuard)
	d.press("y") // "I have seen it"
	assert.False(t, d.closed)
	assert.Empty(t, e.journal(), "not sent yet")
	d.wait(ui.ConfirmGuard - time.Millisecond)
	d.press("y") // too soon after the one before: ignored
	assert.False(t, d.closed)
	assert.Empty(t, e.journal(), "not sent yet")
	d.wait(ui.ConfirmGuard)
	d.press("y") // "I have seen it", again
	d.wait(ui.ConfirmGuard)
	d.press("y")
	require.True(t, d.closed)
	// The shell has closed it; a dialog that gets y again sends nothing.
	for range 2 {
		_, cmd, closed := d.m.Update(keyPress("y"), d.now.Add(time.Second))
		assert.Nil(t, cmd)
		assert.True(t, closed)
	}

	assert.Equal(t, before+1, e.srv.Store().PaymentCount(), "one payment")
	j := e.journal()
	require.Len(t, j, 2, "one action: sent, done")
	assert.Len(t, e.toasts(), 1)
	assert.Len(t, take[ui.OpenModalMsg](e), 1)
}

// Even were Spec.Confirm called twice for the same create (the shell calls
// it once), the service makes one object: both sends carry the same
// idempotency key.
func TestCreateSpecConfirmedTwiceMakesOneObject(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{})
	e.size(80, 24)
	e.init()
	before := e.srv.Store().PaymentCount()
	d := e.openNew()
	fm := d.m.(*formModal)
	fillPaymentLink(d, "ORD-SPEC")
	req, ok := fm.kind.build(fm.form)
	require.True(t, ok)
	spec := fm.confirmSpec(req)
	first, second := spec.Confirm(money.Amount{}), spec.Confirm(money.Amount{})
	e.run(first)
	if second != nil {
		e.run(second)
	}
	assert.Equal(t, before+1, e.srv.Store().PaymentCount(), "one payment")
	sent := 0
	for _, l := range e.journal() {
		if l.Phase == journal.PhaseSent {
			sent++
		}
	}
	assert.Equal(t, 1, sent, "the second Confirm is refused by the tracker, not sent under the same key")
	var again bool
	for _, ts := range e.toasts() {
		again = again || strings.Contains(ts.Text, "Not sent again")
	}
	assert.True(t, again, "the second Confirm says why")
}

// --- golden dialogs -----------------------------------------------------------

// Each form's first page as the shell draws it at 80×24 (a dialog gets
// 76×21 there).
func TestGoldenCreateForms80x24(t *testing.T) {
	t.Parallel()
	for name, tab := range map[string]func(Deps) ui.Tab{
		"payment_link": NewPayments, "sticker": NewStickers, "card_saving_link": NewTokens,
	} {
		t.Run(name, func(t *testing.T) {
			e := newEnv(t, envOpts{tab: tab, fixed: goldenNow})
			e.size(80, 24)
			e.init()
			d := e.openNew()
			v := ansi.Strip(d.m.View(76, 21))
			for i, l := range strings.Split(v, "\n") {
				assert.LessOrEqual(t, ansi.StringWidth(l), 76, "line %d", i)
			}
			assert.LessOrEqual(t, len(strings.Split(v, "\n")), 21)
			goldenCheck(t, "create_form_"+name+"_80x24", v)
		})
	}
}

// Each form as the shell draws it in a roomy window (a dialog gets the
// width less 4 and the height less 3): all on one page, as tall as its
// fields.
func TestGoldenCreateFormsOnOnePage(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{140, 45}, {200, 50}} {
		for name, tab := range map[string]func(Deps) ui.Tab{
			"payment_link": NewPayments, "sticker": NewStickers, "card_saving_link": NewTokens,
		} {
			sz := strconv.Itoa(size[0]) + "x" + strconv.Itoa(size[1])
			t.Run(name+"_"+sz, func(t *testing.T) {
				e := newEnv(t, envOpts{tab: tab, fixed: goldenNow})
				e.size(size[0], size[1])
				e.init()
				d := e.openNew()
				w, h := size[0]-4, size[1]-3
				v := ansi.Strip(d.m.View(w, h))
				lines := strings.Split(v, "\n")
				for i, l := range lines {
					assert.LessOrEqual(t, ansi.StringWidth(l), w, "line %d", i)
				}
				assert.Less(t, len(lines), h, "as tall as the fields, not the window")
				assert.NotContains(t, v, " · page ", "one page:\n%s", v)
				goldenCheck(t, "create_form_"+name+"_"+sz, v)
			})
		}
	}
}

// The dialog that shows a payment link made, as the shell draws it at
// 80×24: the address and a code with the narrower quiet zone. The
// sandbox's random port is masked (in the code too).
func TestGoldenPaymentLinkResult80x24(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{fixed: goldenNow})
	e.size(80, 24)
	e.init()
	d := e.openNew()
	fillPaymentLink(d, "ORD-GOLDEN")
	d.confirm()
	r := e.result()
	masked := *r
	masked.link = maskPort(r.link)
	require.NotEqual(t, r.link, masked.link, "the address names the sandbox's port")
	v := ansi.Strip(masked.View(76, 21))
	assert.Equal(t, masked.link, qrIn(t, v))
	goldenCheck(t, "create_result_payment_link_80x24", v)
}

// lossyCreates makes the sticker but loses the first answer.
type lossyCreates struct {
	backend.Backend
	lose  atomic.Int32
	calls atomic.Int32
}

func (l *lossyCreates) CreateSticker(ctx context.Context, r backend.StickerRequest) (backend.Sticker, error) {
	l.calls.Add(1)
	s, err := l.Backend.CreateSticker(ctx, r)
	if err == nil && l.lose.Add(-1) >= 0 {
		return backend.Sticker{}, &backend.Error{Kind: backend.KindUnavailable, Op: "create sticker", Message: "connection reset"}
	}
	return s, err
}

// A create whose answer is lost is found out by asking again with the same
// idempotency key: one sticker, shown once it is known, never a failure.
func TestCreateStickerWithALostAnswerIsFoundOut(t *testing.T) {
	t.Parallel()
	lossy := &lossyCreates{}
	lossy.lose.Store(1)
	e := newEnv(t, envOpts{tab: NewStickers, wrap: func(b backend.Backend) backend.Backend {
		lossy.Backend = b
		return lossy
	}})
	e.size(120, 40)
	e.init()
	before := e.stickersOf(e.scope.MerchantID)
	d := e.openNew()
	d.press("enter", "enter")
	d.field("75")
	d.field("Lost and found")
	d.press("enter", "enter", "enter")
	d.confirm()

	after := e.stickersOf(e.scope.MerchantID)
	require.Len(t, after, len(before)+1, "exactly one sticker, though it was asked for twice")
	assert.Equal(t, int32(2), lossy.calls.Load(), "asked again once")
	ts := e.toasts()
	require.Len(t, ts, 2)
	assert.Equal(t, ui.ToastWarning, ts[0].Level)
	assert.Contains(t, ts[0].Text, `Sticker "Lost and found" for 75.00 RUB: outcome unknown — checking`)
	assert.Equal(t, ui.ToastSuccess, ts[1].Level)
	assert.Contains(t, ts[1].Text, `Sticker "Lost and found" for 75.00 RUB made: sticker `)
	assert.Empty(t, e.errors(), "never shown as a failure")
	phases := []string{}
	for _, l := range e.journal() {
		phases = append(phases, l.Phase)
	}
	assert.Equal(t, []string{journal.PhaseSent, journal.PhaseUnknown, journal.PhaseDone}, phases)
	var made backend.Sticker
	for id, st := range after {
		if _, old := before[id]; !old {
			made = st
		}
	}
	assert.Equal(t, "Lost and found", made.Description)
	r := e.result()
	big := plainLines(r.View(120, 50))
	assert.Contains(t, big, "Sticker "+made.ID+" for 75.00 RUB · Active", "the result dialog opens once it is known")
	assert.Equal(t, made.Payload, qrIn(t, big))
}

// burst gives the dialog every key of s (as in a terminal: "\r" is enter)
// before running any command they returned, as the runtime does with keys
// typed faster than it reads them: they wait in its input ahead of the
// commands' results. The commands then run in the order they were
// returned.
func (d *dialog) burst(s string) {
	d.e.t.Helper()
	var cmds []tea.Cmd
	for _, r := range s {
		k := tea.KeyPressMsg{Code: r, Text: string(r)}
		if r == '\r' {
			k = keyPress("enter")
		}
		require.False(d.e.t, d.closed, "the dialog is closed")
		m, cmd, closed := d.m.Update(k, d.now)
		if m != nil {
			d.m = m
		}
		d.closed = closed
		d.m.View(76, 21)
		cmds = append(cmds, cmd)
	}
	for _, c := range cmds {
		d.run(c)
	}
}

// fieldValue is what the form shows in the field titled title: the text
// after "> " on the line under the title.
func fieldValue(screen, title string) string {
	lines := body(screen)
	for i, l := range lines {
		if strings.TrimSpace(strings.TrimLeft(l, "┃ ")) == title && i+1 < len(lines) {
			v := strings.TrimSpace(strings.TrimLeft(lines[i+1], "┃ "))
			if rest, ok := strings.CutPrefix(v, ">"); ok {
				return strings.TrimSpace(rest)
			}
			return "(no input: " + v + ")"
		}
	}
	return "(no field " + title + ")"
}

// Keys typed in one burst go where the focus is when each is read: after
// enter to the next field, and after the enter that submits to the
// confirmation, which ignores them (it has only just appeared), never into
// a field and never as a y that confirms.
func TestCreateFormBurstGoesToTheFieldInFocus(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{})
	e.size(80, 24)
	e.init()
	before := e.srv.Store().PaymentCount()

	d := e.openNew()
	fm := d.m.(*formModal)
	d.burst("100\r\r50") // the amount, RUB as it is, a description
	scr := d.screen()
	assert.Equal(t, "100", fieldValue(scr, "Amount"), "no key after enter went into the amount:\n%s", scr)
	assert.Equal(t, "50", fieldValue(scr, "Description"), "the keys after enter went to the next field:\n%s", scr)

	// On to the last page and past it in one burst: the order number, six
	// fields as they are, the enter that submits, then y y.
	d.burst("\rORD-9" + strings.Repeat("\r", 7) + "yy")
	require.Equal(t, forms.Submitted, fm.form.State(), "the last enter submitted the form:\n%s", d.screen())
	assert.Equal(t, []string{
		"Merchant: " + e.scope.MerchantID,
		"Amount: 100.00 RUB",
		"Description: 50",
		"Order number: ORD-9",
		"Hold (dual mode): no: the money is charged at once",
	}, fm.form.Summary(), "no field took the y's")
	scr = d.screen()
	assert.False(t, d.closed, "the y's did not confirm:\n%s", scr)
	assert.NotContains(t, scr, "yy")
	assert.Equal(t, "Create this payment link?", body(scr)[0])
	assert.Contains(t, scr, "ignored", "the confirmation counted the keys it did not take:\n%s", scr)
	assert.Equal(t, before, e.srv.Store().PaymentCount(), "nothing was sent")
	assert.Empty(t, e.journal())
}
