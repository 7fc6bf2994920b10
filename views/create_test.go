package views

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend/journal"
	"paydash/backend/money"
	"paydash/ui"
	"paydash/views/forms"
	"paydash/views/internal/viewtest"
	"paydash/views/payments"
	"paydash/views/stickers"
	"paydash/views/tab"
	"paydash/views/tokens"
)

// The shell gives a form's own messages to the open dialog.
var _ ui.ModalMsg = forms.Msg{}

// The sandbox listens on a random port: goldens show it masked.
var sandboxPort = regexp.MustCompile(`127\.0\.0\.1:[0-9]+`)

func maskPort(s string) string { return sandboxPort.ReplaceAllString(s, "127.0.0.1:PORT") }

// --- leaving, and confirming twice --------------------------------------------

// esc leaves a form, on any page, and nothing is sent.
func TestCreateFormAbortedWithEscSendsNothing(t *testing.T) {
	t.Parallel()
	for name, tab := range map[string]func(tab.Deps) ui.Tab{"payment link": payments.New, "sticker": stickers.New, "card-saving link": tokens.New} {
		t.Run(name, func(t *testing.T) {
			e := startedEnv(t, viewtest.Opts{Tab: tab}, 80, 24)
			e.Shell = nil
			payments, tokens := e.Store().PaymentCount(), len(e.Store().TokensOf(e.Scope.MerchantID))
			stickers := len(e.StickersOf(e.Scope.MerchantID))

			d := e.OpenNew()
			d.Typ("12")
			d.Press("esc")
			assert.True(t, d.Closed, "esc closes the form")

			d = e.OpenNew() // again, leaving from the last page
			switch name {
			case "payment link":
				d.Field("10")
				d.Press("enter")
				d.Field("Tea")
				d.Press("enter", "enter", "enter")
				assert.Contains(t, d.Screen(), "page 3 of 3")
			case "sticker":
				d.Press("enter", "enter")
				d.Field("10")
				d.Field("Tea")
				assert.Contains(t, d.Screen(), "page 2 of 2")
			default:
				d.Field("client-1")
				d.Press("enter", "enter")
				assert.Contains(t, d.Screen(), "page 2 of 2")
			}
			d.Press("esc")
			assert.True(t, d.Closed)

			assert.Empty(t, e.Shell, "no toast, no dialog")
			assert.Empty(t, e.Journal(), "nothing journaled")
			assert.Equal(t, payments, e.Store().PaymentCount())
			assert.Len(t, e.Store().TokensOf(e.Scope.MerchantID), tokens)
			assert.Len(t, e.StickersOf(e.Scope.MerchantID), stickers)
			assert.Zero(t, e.Tab.Status().Sending)
		})
	}
}

// fillPaymentLink fills the payment link form with 25.00 RUB for tea,
// order orderNo, and submits it.
func fillPaymentLink(d *viewtest.Dialog, orderNo string) {
	d.E.T.Helper()
	d.Field("25")
	d.Press("enter")
	d.Field("Tea")
	d.Field(orderNo)
	d.Press("enter", "enter", "enter", "enter", "enter", "enter")
	_, isForm := d.M.(*tab.FormModal)
	require.False(d.E.T, isForm, "submitted:\n%s", d.Screen())
}

// n on the confirmation sends nothing.
func TestCreateConfirmationCancelledSendsNothing(t *testing.T) {
	t.Parallel()
	e := startedEnv(t, viewtest.Opts{}, 80, 24)
	e.Shell = nil
	before := e.Store().PaymentCount()
	d := e.OpenNew()
	fillPaymentLink(d, "ORD-NO")
	d.Wait(ui.ConfirmGuard)
	d.Press("n")
	assert.True(t, d.Closed)
	assert.Equal(t, before, e.Store().PaymentCount())
	assert.Empty(t, e.Journal())
	assert.Empty(t, e.Shell)
}

// Keys typed at the confirmation as it appears are ignored; y then needs
// pressing twice, each after a pause, and more y's send nothing more: one
// payment is made.
func TestCreateConfirmTwiceSendsOnce(t *testing.T) {
	t.Parallel()
	e := startedEnv(t, viewtest.Opts{Changes: true}, 80, 24)
	before := e.Store().PaymentCount()
	d := e.OpenNew()
	fillPaymentLink(d, "ORD-TWICE")

	d.Press("y") // typed on: within the guard
	assert.False(t, d.Closed)
	assert.Contains(t, strings.Join(strings.Fields(d.Screen()), " "), "1 key ignored")
	d.Wait(ui.ConfirmGuard)
	d.Press("y") // "I have seen it"
	assert.False(t, d.Closed)
	assert.Empty(t, e.Journal(), "not sent yet")
	d.Wait(ui.ConfirmGuard - time.Millisecond)
	d.Press("y") // too soon after the one before: ignored
	assert.False(t, d.Closed)
	assert.Empty(t, e.Journal(), "not sent yet")
	d.Wait(ui.ConfirmGuard)
	d.Press("y") // "I have seen it", again
	d.Wait(ui.ConfirmGuard)
	d.Press("y")
	require.True(t, d.Closed)
	// The shell has closed it; a dialog that gets y again sends nothing.
	for range 2 {
		_, cmd, closed := d.M.Update(viewtest.KeyPress("y"), d.Now.Add(time.Second))
		assert.Nil(t, cmd)
		assert.True(t, closed)
	}

	assert.Equal(t, before+1, e.Store().PaymentCount(), "one payment")
	j := e.Journal()
	require.Len(t, j, 2, "one action: sent, done")
	assert.Len(t, e.Toasts(), 1)
	assert.Len(t, e.TakeModals(), 1)
}

// Even were Spec.Confirm called twice for the same create (the shell calls
// it once), the service makes one object: both sends carry the same
// idempotency key.
func TestCreateSpecConfirmedTwiceMakesOneObject(t *testing.T) {
	t.Parallel()
	e := startedEnv(t, viewtest.Opts{Changes: true}, 80, 24)
	before := e.Store().PaymentCount()
	d := e.OpenNew()
	fm := d.M.(*tab.FormModal)
	fillPaymentLink(d, "ORD-SPEC")
	req, ok := fm.Kind.Build(fm.Form)
	require.True(t, ok)
	spec := fm.ConfirmSpec(req)
	first, second := spec.Confirm(money.Amount{}), spec.Confirm(money.Amount{})
	e.Run(first)
	if second != nil {
		e.Run(second)
	}
	assert.Equal(t, before+1, e.Store().PaymentCount(), "one payment")
	sent := 0
	for _, l := range e.Journal() {
		if l.Phase == journal.PhaseSent {
			sent++
		}
	}
	assert.Equal(t, 1, sent, "the second Confirm is refused by the tracker, not sent under the same key")
	var again bool
	for _, ts := range e.Toasts() {
		again = again || strings.Contains(ts.Text, "Not sent again")
	}
	assert.True(t, again, "the second Confirm says why")
}

// --- golden dialogs -----------------------------------------------------------

// Each form's first page as the shell draws it at 80×24 (a dialog gets
// 76×21 there).
func TestGoldenCreateForms80x24(t *testing.T) {
	t.Parallel()
	for name, tab := range map[string]func(tab.Deps) ui.Tab{
		"payment_link": payments.New, "sticker": stickers.New, "card_saving_link": tokens.New,
	} {
		t.Run(name, func(t *testing.T) {
			e := startedEnv(t, viewtest.Opts{Tab: tab, Fixed: viewtest.GoldenNow}, 80, 24)
			d := e.OpenNew()
			v := ansi.Strip(d.M.View(76, 21))
			for i, l := range strings.Split(v, "\n") {
				assert.LessOrEqual(t, ansi.StringWidth(l), 76, "line %d", i)
			}
			assert.LessOrEqual(t, len(strings.Split(v, "\n")), 21)
			viewtest.GoldenCheck(t, "create_form_"+name+"_80x24", v)
		})
	}
}

// Each form as the shell draws it in a roomy window (a dialog gets the
// width less 4 and the height less 3): all on one page, as tall as its
// fields.
func TestGoldenCreateFormsOnOnePage(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{140, 45}, {200, 50}} {
		for name, tab := range map[string]func(tab.Deps) ui.Tab{
			"payment_link": payments.New, "sticker": stickers.New, "card_saving_link": tokens.New,
		} {
			sz := strconv.Itoa(size[0]) + "x" + strconv.Itoa(size[1])
			t.Run(name+"_"+sz, func(t *testing.T) {
				e := newEnv(t, viewtest.Opts{Tab: tab, Fixed: viewtest.GoldenNow})
				e.Size(size[0], size[1])
				e.Init()
				d := e.OpenNew()
				w, h := size[0]-4, size[1]-3
				v := ansi.Strip(d.M.View(w, h))
				lines := strings.Split(v, "\n")
				for i, l := range lines {
					assert.LessOrEqual(t, ansi.StringWidth(l), w, "line %d", i)
				}
				assert.Less(t, len(lines), h, "as tall as the fields, not the window")
				assert.NotContains(t, v, " · page ", "one page:\n%s", v)
				viewtest.GoldenCheck(t, "create_form_"+name+"_"+sz, v)
			})
		}
	}
}

// The dialog that shows a payment link made, as the shell draws it at
// 80×24: the address and a code with the narrower quiet zone. The
// sandbox's random port is masked (in the code too).
func TestGoldenPaymentLinkResult80x24(t *testing.T) {
	t.Parallel()
	e := startedEnv(t, viewtest.Opts{Changes: true, Fixed: viewtest.GoldenNow}, 80, 24)
	d := e.OpenNew()
	fillPaymentLink(d, "ORD-GOLDEN")
	d.Confirm()
	r := e.Result()
	masked := *r
	masked.Link = maskPort(r.Link)
	require.NotEqual(t, r.Link, masked.Link, "the address names the sandbox's port")
	v := ansi.Strip(masked.View(76, 21))
	assert.Equal(t, masked.Link, viewtest.QRIn(t, v))
	viewtest.GoldenCheck(t, "create_result_payment_link_80x24", v)
}

// fieldValue is what the form shows in the field titled title: the text
// after "> " on the line under the title.
func fieldValue(screen, title string) string {
	lines := viewtest.Body(screen)
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
	e := startedEnv(t, viewtest.Opts{}, 80, 24)
	before := e.Store().PaymentCount()

	d := e.OpenNew()
	fm := d.M.(*tab.FormModal)
	d.Burst("100\r\r50") // the amount, RUB as it is, a description
	scr := d.Screen()
	assert.Equal(t, "100", fieldValue(scr, "Amount"), "no key after enter went into the amount:\n%s", scr)
	assert.Equal(t, "50", fieldValue(scr, "Description"), "the keys after enter went to the next field:\n%s", scr)

	// On to the last page and past it in one burst: the order number, six
	// fields as they are, the enter that submits, then y y.
	d.Burst("\rORD-9" + strings.Repeat("\r", 7) + "yy")
	require.Equal(t, forms.Submitted, fm.Form.State(), "the last enter submitted the form:\n%s", d.Screen())
	assert.Equal(t, []string{
		"Merchant: " + e.Scope.MerchantID,
		"Amount: 100.00 RUB",
		"Description: 50",
		"Order number: ORD-9",
		"Hold (dual mode): no: the money is charged at once",
	}, fm.Form.Summary(), "no field took the y's")
	scr = d.Screen()
	assert.False(t, d.Closed, "the y's did not confirm:\n%s", scr)
	assert.NotContains(t, scr, "yy")
	assert.Equal(t, "Create this payment link?", viewtest.Body(scr)[0])
	assert.Contains(t, scr, "ignored", "the confirmation counted the keys it did not take:\n%s", scr)
	assert.Equal(t, before, e.Store().PaymentCount(), "nothing was sent")
	assert.Empty(t, e.Journal())
}
