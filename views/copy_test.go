package views

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend"
	"paydash/backend/known"
	"paydash/keys"
	"paydash/ui"
)

// --- helpers -------------------------------------------------------------------

// flatten runs a command and the commands of the batches it returns.
func flatten(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	switch m := cmd().(type) {
	case nil:
		return nil
	case tea.BatchMsg:
		var out []tea.Msg
		for _, c := range m {
			out = append(out, flatten(c)...)
		}
		return out
	default:
		return []tea.Msg{m}
	}
}

// clipboardOf is the text a tea.SetClipboard command's message puts on the
// clipboard (Bubble Tea keeps the message type to itself).
func clipboardOf(msg tea.Msg) (string, bool) {
	if fmt.Sprintf("%T", msg) != "tea.setClipboardMsg" {
		return "", false
	}
	return fmt.Sprint(msg), true
}

// copyChooser presses Y on the tab and returns the dialog it opens.
func (e *env) copyChooser() ui.Modal {
	e.t.Helper()
	e.press("Y")
	opened := take[ui.OpenModalMsg](e)
	require.Len(e.t, opened, 1, "Y opens the copy chooser")
	require.NotNil(e.t, opened[0].Modal)
	return opened[0].Modal
}

// choose presses keys in the chooser, the last of which closes it, and
// returns what it copied and the toast that says so.
func choose(t *testing.T, m ui.Modal, keys ...string) (clip, toast string) {
	t.Helper()
	var cmd tea.Cmd
	for i, k := range keys {
		var closed bool
		m, cmd, closed = m.Update(keyPress(k), goldenNow)
		require.Equal(t, i == len(keys)-1, closed, "after %q", k)
	}
	clips, toasts := 0, 0
	for _, msg := range flatten(cmd) {
		if s, ok := clipboardOf(msg); ok {
			clip = s
			clips++
		}
		if tm, ok := msg.(ui.ToastMsg); ok {
			toast = tm.Text
			toasts++
		}
	}
	require.Equal(t, 1, clips, "one clipboard command")
	require.Equal(t, 1, toasts, "one toast")
	return clip, toast
}

// lastByArrows are the keys that choose the last of n fields by the arrows.
func lastByArrows(n int) []string {
	var ks []string
	for range n - 1 {
		ks = append(ks, "down")
	}
	return append(ks, "enter")
}

// offered is the fields the chooser of fields shows.
func offered(fields []ui.CopyField) []ui.CopyField { return ui.CopyFields(fields) }

func chooserText(m ui.Modal) string { return ansi.Strip(m.View(120, 30)) }

// --- Payments --------------------------------------------------------------------

func TestCopyMorePayments(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{withV1: true})
	e.size(120, 30)
	e.init()
	pt := e.tab.(*Payments)

	// From the pane: the payment read in full, with v1's view of the
	// customer.
	e.press("enter")
	require.True(t, pt.detail.isOpen())
	p := pt.detail.obj
	require.NotNil(t, p.V1, "v1's view is read beside the payment")
	require.NotEmpty(t, p.OrderNo)
	email := p.V1.UserIdentifier
	require.Contains(t, email, "@", "the sandbox's customers have e-mails")

	c := e.copyChooser()
	text := chooserText(c)
	assert.Contains(t, text, "Copy from payment "+p.ID)
	assert.Contains(t, text, "o  order number     "+p.OrderNo)
	assert.Contains(t, text, "e  customer e-mail  "+email)
	assert.Contains(t, text, "a  amount           "+fmtAmount(p.Amount))
	if p.V1.UserPhoneNumber != "" {
		assert.Contains(t, text, "p  phone            "+p.V1.UserPhoneNumber)
	} else {
		assert.NotContains(t, text, "phone", "no phone: not offered")
	}

	clip, toast := choose(t, c, "o")
	assert.Equal(t, p.OrderNo, clip)
	assert.Equal(t, "Copied order number: "+p.OrderNo, toast)

	clip, _ = choose(t, e.copyChooser(), "e")
	assert.Equal(t, email, clip)

	// The summary is last: down to it, enter.
	n := len(offered(paymentCopyFields(p)))
	clip, toast = choose(t, e.copyChooser(), lastByArrows(n)...)
	want := "Payment " + p.ID + " · " + fmtAmount(p.Amount) + " · " + string(p.Status) + " · order " + p.OrderNo +
		" · " + email + " · " + p.Created.UTC().Format("02 Jan 2006 15:04") + " UTC"
	assert.Equal(t, want, clip)
	assert.True(t, strings.HasPrefix("Copied summary: "+want, strings.TrimSuffix(toast, "…")), toast)

	// esc cancels: nothing copied.
	_, cmd, closed := e.copyChooser().Update(keyPress("esc"), goldenNow)
	assert.True(t, closed)
	assert.Nil(t, cmd)

	// From a row of the list (v2's list has no customer): what it has.
	e.press("esc")
	require.False(t, pt.detail.isOpen())
	e.press("j")
	row, ok := pt.list.selected()
	require.True(t, ok)
	text = chooserText(e.copyChooser())
	assert.Contains(t, text, "Copy from payment "+row.ID)
	assert.Contains(t, text, row.OrderNo)
	if row.V1 == nil {
		assert.NotContains(t, text, "e-mail")
	}

	// Nothing selected: Y says why.
	e.press("/")
	e.typeText("no such payment anywhere")
	e.press("enter")
	ok, why := e.tab.Available(keys.ActCopyMore)
	assert.False(t, ok)
	assert.Equal(t, "no payment is selected", why)
	e.press("Y")
	assert.Empty(t, take[ui.OpenModalMsg](e))
}

// --- Refunds ---------------------------------------------------------------------

func TestCopyMoreRefunds(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{tab: NewRefunds})
	e.size(120, 30)
	e.init()
	sel, ok := e.tab.(*Refunds).list.selected()
	require.True(t, ok)
	require.NotEmpty(t, sel.PaymentID)

	c := e.copyChooser()
	text := chooserText(c)
	assert.Contains(t, text, "Copy from refund "+sel.ID)
	assert.Contains(t, text, "p  payment id  "+sel.PaymentID)
	clip, toast := choose(t, c, "p")
	assert.Equal(t, sel.PaymentID, clip)
	assert.Equal(t, "Copied payment id: "+sel.PaymentID, toast)

	clip, _ = choose(t, e.copyChooser(), "down", "enter")
	assert.Equal(t, fmtAmount(sel.Amount), clip, "the second field: the amount")

	n := len(offered(refundCopyFields(sel)))
	clip, _ = choose(t, e.copyChooser(), lastByArrows(n)...)
	assert.True(t, strings.HasPrefix(clip, "Refund "+sel.ID+" · "+fmtAmount(sel.Amount)+" · "+string(sel.Status)+
		" · payment "+sel.PaymentID), clip)
}

// --- Tokens ----------------------------------------------------------------------

func TestCopyMoreTokens(t *testing.T) {
	t.Parallel()
	store := known.NewMemory()
	e := newEnv(t, envOpts{tab: withKnown(store)})
	e.size(140, 30)
	e.init()
	ok, why := e.tab.Available(keys.ActCopyMore)
	assert.False(t, ok)
	assert.Equal(t, "no token is selected", why)

	tok := e.newToken()
	e.send(ui.JumpMsg{Query: tok.ID})
	require.True(t, e.tab.(*Tokens).detail.isOpen())

	c := e.copyChooser()
	text := chooserText(c)
	assert.Contains(t, text, "Copy from token "+tok.ID)
	assert.Contains(t, text, "c  card     "+tok.Title)
	clip, toast := choose(t, c, "c")
	assert.Equal(t, tok.Title, clip)
	assert.Equal(t, "Copied card: "+tok.Title, toast)

	v := e.tab.(*Tokens).detail.obj
	n := len(offered(tokenCopyFields(v)))
	clip, _ = choose(t, e.copyChooser(), lastByArrows(n)...)
	assert.True(t, strings.HasPrefix(clip, "Token "+tok.ID+" · "+tok.Title+" · Active"), clip)
}

// --- Stickers --------------------------------------------------------------------

func TestCopyMoreStickers(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{tab: NewStickers})
	e.size(160, 40)
	e.init()
	s, ok := e.tab.(*Stickers).list.selected()
	require.True(t, ok)
	require.NotEmpty(t, s.Payload)

	c := e.copyChooser()
	assert.Contains(t, chooserText(c), "Copy from sticker "+s.ID)
	clip, toast := choose(t, c, "l")
	assert.Equal(t, s.Payload, clip, "the payment link, whole")
	assert.True(t, strings.HasPrefix(toast, "Copied payment link: "), toast)

	if s.Description != "" {
		clip, _ = choose(t, e.copyChooser(), "d")
		assert.Equal(t, strings.TrimSpace(s.Description), clip)
	}
	n := len(offered(stickerCopyFields(s)))
	clip, _ = choose(t, e.copyChooser(), lastByArrows(n)...)
	assert.True(t, strings.HasPrefix(clip, "Sticker "+s.ID+" · "+s.Status), clip)
}

// --- Registers -------------------------------------------------------------------

func TestCopyMoreRegisters(t *testing.T) {
	t.Parallel()
	e := newRegistersEnv(t, envOpts{})
	e.size(120, 30)
	e.init()
	r := e.tab.(*Registers)
	tr, ok := r.transfers.selected()
	require.True(t, ok, "the sandbox has transfers")

	c := e.copyChooser()
	text := chooserText(c)
	assert.Contains(t, text, "Copy from the transfer of "+transferDay(tr.Created))
	clip, toast := choose(t, c, "o")
	assert.Equal(t, tr.PaymentOrderID, clip)
	assert.Equal(t, "Copied payment order: "+tr.PaymentOrderID, toast)
	clip, _ = choose(t, e.copyChooser(), "down", "enter")
	assert.Equal(t, tr.RegisterID, clip)

	// In the register's pane: the same transfer.
	e.press("enter")
	require.True(t, r.register.isOpen())
	clip, _ = choose(t, e.copyChooser(), "a")
	assert.Equal(t, fmtAmount(tr.Amount), clip)
	e.press("esc")
	require.False(t, r.register.isOpen())

	// The documents.
	e.press("d")
	require.True(t, r.docs)
	doc, ok := r.documents.selected()
	require.True(t, ok, "the sandbox has documents")
	clip, toast = choose(t, e.copyChooser(), "f")
	assert.Equal(t, doc.FileName, clip)
	assert.Equal(t, "Copied file name: "+doc.FileName, toast)
	e.press("enter")
	require.True(t, r.document.isOpen())
	clip, _ = choose(t, e.copyChooser(), "f")
	assert.Equal(t, doc.FileName, clip, "from the open document too")
}

// --- colour that carries meaning ------------------------------------------------------

var sgrSeq = regexp.MustCompile(`\x1b\[([0-9;:]*)m`)

// colours lists the colour parameters of the SGR sequences in s.
func colours(s string) []string {
	var out []string
	for _, m := range sgrSeq.FindAllStringSubmatch(s, -1) {
		for _, p := range strings.FieldsFunc(m[1], func(r rune) bool { return r == ';' || r == ':' }) {
			var n int
			if _, err := fmt.Sscan(p, &n); err == nil &&
				(n >= 30 && n <= 49 || n >= 90 && n <= 107) {
				out = append(out, p)
			}
		}
	}
	return out
}

// statusLine is the first line of the list whose status is st.
func statusLine(view string, st backend.PaymentStatus) string {
	for _, l := range strings.Split(view, "\n") {
		if strings.Contains(ansi.Strip(l), paymentStatusText(st)) {
			return l
		}
	}
	return ""
}

func TestStatusColours(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{})
	held := e.newPayment(true, "150.00") // the newest: the first row
	e.init()
	e.size(160, 48)
	first, ok := e.tab.(*Payments).list.selected()
	require.True(t, ok)
	require.Equal(t, held.ID, first.ID)
	require.Equal(t, backend.PaymentAuthorized, first.Status)

	// NO_COLOR (the tests' theme): no colour at all; the markers say it.
	plain := e.view(160, 48)
	assert.Empty(t, colours(plain), "NO_COLOR: no colour in the list")
	assert.Contains(t, ansi.Strip(plain), "✓ Settled")
	assert.Contains(t, ansi.Strip(plain), "! Authorized")

	// The colour theme: the status cells in the terminal's own palette.
	e.send(ui.ThemeMsg{Theme: ui.NewTheme(true, false)})
	v := e.view(160, 48)
	assert.Equal(t, ansi.Strip(plain), ansi.Strip(v), "the same text")
	seen := 0
	for st, sgr := range map[backend.PaymentStatus]string{
		backend.PaymentSettled:      "\x1b[32m", // green: ANSI colour 2
		backend.PaymentAuthorized:   "\x1b[35m", // magenta: held
		backend.PaymentPending:      "\x1b[33m", // yellow: still to happen
		backend.PaymentConfirmation: "\x1b[33m",
		backend.PaymentRejected:     "\x1b[31m", // red
		backend.PaymentCancelled:    "\x1b[31m",
	} {
		l := statusLine(v, st)
		if l == "" {
			continue // not on the first screen of this sandbox
		}
		seen++
		assert.Contains(t, l, sgr+paymentStatusText(st)+"\x1b[m", "%s", st)
	}
	assert.GreaterOrEqual(t, seen, 3, "settled, held and at least one other status on screen")
	require.NotEmpty(t, statusLine(v, backend.PaymentSettled), "a settled payment is on screen")
	// The held row is selected: reverse video over the colour, and the
	// rest of the row still reversed after the cell.
	assert.Contains(t, statusLine(v, backend.PaymentAuthorized), "\x1b[35m! Authorized\x1b[m\x1b[1;7m")
	for _, c := range colours(v) {
		n := 0
		_, _ = fmt.Sscan(c, &n)
		assert.True(t, n >= 30 && n <= 37 || n == 39, "only the terminal's own eight colours, not %s", c)
	}

	// The pane's status in the same colour.
	e.press("enter")
	assert.Contains(t, e.view(160, 48), "\x1b[35m! Authorized", "a hold in the pane: magenta")
}

// Y offers the long texts a list cell cuts: the description, and the link
// of a payment waiting for confirmation, each whole.
func TestCopyMorePaymentsOffersItsLongTexts(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{fixed: goldenNow})
	e.size(120, 30)
	e.init()
	pt := e.tab.(*Payments)
	var id string
	for _, r := range pt.list.table.Rows() {
		if r.Status == backend.PaymentConfirmation {
			id = r.ID
			break
		}
	}
	require.NotEmpty(t, id)
	_, ok := pt.list.selectID(id)
	require.True(t, ok)
	e.press("enter")
	p := pt.detail.obj
	require.NotNil(t, p.Confirmation)
	require.NotEmpty(t, p.Confirmation.PaymentURL)

	clip, toast := choose(t, e.copyChooser(), "u")
	assert.Equal(t, p.Confirmation.PaymentURL, clip, "the link, whole")
	assert.True(t, strings.HasPrefix(toast, "Copied payment link: "), toast)
	clip, _ = choose(t, e.copyChooser(), "d")
	assert.Equal(t, p.Description, clip)
}
