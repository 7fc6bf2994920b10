package payments

import (
	"context"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend"
	"paydash/backend/journal"
	"paydash/backend/money"
	"paydash/backend/sandbox"
	"paydash/keys"
	"paydash/ui"
	"paydash/views/internal/viewtest"
	"paydash/views/tab"
)

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

// --- the payment link (Payments tab) ------------------------------------------

func TestCreatePaymentLinkFromPaymentsTab(t *testing.T) {
	t.Parallel()
	e := startedEnv(t, viewtest.Opts{Changes: true}, 80, 24)
	merchant := e.Scope.MerchantID
	before := e.Store().PaymentCount()
	assert.Equal(t, "New payment link", e.Tab.(viewtest.ActionTargeter).ActionTarget(keys.ActNew))
	ok, why := e.Tab.Available(keys.ActNew)
	require.True(t, ok, why)

	d := e.OpenNew()
	fm := d.M.(*tab.FormModal)
	assert.Equal(t, keys.ContextForm, d.M.Context(), "the form's fields take the keys")
	assert.Contains(t, d.Screen(), "Amount and order · page 1 of 3")

	d.Field("abc")
	d.Shows("Amount", "“a” is a letter: an amount has digits only")
	d.Clear()
	d.Field("0")
	d.Shows("Amount", "the amount must be more than 0")
	d.Clear()
	d.Field("1,500.50")
	d.Press("enter") // RUB
	d.Press("enter")
	d.Shows("Description", "enter a description of what is paid for")
	d.Field("Two mugs")
	d.Field("ORD-77")

	assert.Contains(t, d.Screen(), "Customer · page 2 of 3")
	d.Field("ann@")
	d.Shows("Customer e-mail (optional)", "an e-mail address like name@example.com")
	d.Clear()
	d.Field("ann@example.com")
	d.Field("+7 900 123-45-67 доб. 5")
	d.Shows("Customer phone (optional)",
		"only digits, spaces, brackets, dashes and dots, and + before the country code: +7 916 123-45-67")
	d.Clear()
	d.Field("8 (900) 123-45-67") // written the Russian way: sent as the digits the service wants

	assert.Contains(t, d.Screen(), "Link · page 3 of 3")
	d.Press("enter", "enter", "enter") // the service's expiry, no hold, no return page
	d.Field("http://shop.example.com/notify")
	d.Shows("Callback address (optional, https)", "a callback address must start with https://")
	assert.Equal(t, before, e.Store().PaymentCount(), "nothing is sent while a field is wrong")
	assert.Empty(t, e.Journal())
	d.Clear()
	d.Field("https://shop.example.com/notify")

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
	scr := d.Confirms(fm.Form, "Create this payment link?", summary)
	assert.Contains(t, scr, "Create 1,500.50 RUB", "the button names the amount")
	assert.Equal(t, keys.ContextModal, d.M.Context())
	assert.Equal(t, before, e.Store().PaymentCount(), "nothing is sent before y")
	assert.Empty(t, e.Journal())

	d.Confirm()
	assert.Equal(t, before+1, e.Store().PaymentCount(), "exactly one payment made")
	made, err := e.Store().PaymentByOrderNo(merchant, "ORD-77")
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
	got, err := e.B.GetPayment(context.Background(), made.ID)
	require.NoError(t, err, "the backend reads it")
	assert.Equal(t, made.Amount, got.Amount)
	assert.Equal(t, "ORD-77", got.OrderNo)
	link := e.Store().PaymentPageURL(made.ID)

	ts := e.Toasts()
	require.Len(t, ts, 1)
	assert.Equal(t, ui.ToastSuccess, ts[0].Level)
	assert.Equal(t, "Payment link for 1,500.50 RUB (order ORD-77) made: payment "+made.ID+", "+link, ts[0].Text)
	assert.Empty(t, e.Errors())
	j := e.Journal()
	require.Len(t, j, 2)
	assert.Equal(t, string(backend.ActionCreateInvoice), j[0].Action)
	assert.Equal(t, []string{journal.PhaseSent, journal.PhaseDone}, []string{j[0].Phase, j[1].Phase})
	assert.Equal(t, "1500.50", j[0].Amount)
	assert.Equal(t, "RUB", j[0].Currency)
	assert.Equal(t, "v2", j[0].Interface)
	assert.NotEmpty(t, j[0].IdempotencyKey)
	assert.Equal(t, j[0].IdempotencyKey, j[1].IdempotencyKey)

	// The result: the address and its QR code, which a phone reads back.
	r := e.Result()
	assert.Equal(t, keys.ContextResult, r.Context())
	big := viewtest.PlainLines(r.View(120, 50))
	assert.Contains(t, big, "Payment link made")
	assert.Contains(t, big, "Payment "+made.ID+" for 1,500.50 RUB · order ORD-77")
	assert.Contains(t, big, link)
	assert.Equal(t, link, viewtest.QRIn(t, big))
	assert.Equal(t, 2, quietLines(big), "a roomy dialog draws the standard quiet zone (4 modules)")
	for _, size := range [][2]int{{80, 21}, {76, 21}} { // 80×24: the shell gives a dialog 76×21
		small := viewtest.PlainLines(r.View(size[0], size[1]))
		assert.LessOrEqual(t, len(strings.Split(small, "\n")), size[1], "%dx%d: the dialog fits", size[0], size[1])
		assert.Contains(t, small, link)
		assert.Equal(t, link, viewtest.QRIn(t, small), "%dx%d", size[0], size[1])
		assert.Equal(t, 1, quietLines(small), "%dx%d: the narrower quiet zone (2 modules)", size[0], size[1])
	}

	// y copies the address; esc closes the dialog.
	_, cmd, closed := r.Update(viewtest.KeyPress("y"), e.Now())
	assert.False(t, closed)
	assert.NotNil(t, cmd, "the clipboard is set")
	assert.Contains(t, viewtest.PlainLines(r.View(120, 50)), "sent to the terminal's clipboard · esc close")
	_, _, closed = r.Update(viewtest.KeyPress("esc"), e.Now())
	assert.True(t, closed)

	// The new payment is listed.
	e.Press("g")
	assert.Equal(t, made.ID, e.Tab.(*Payments).List.Table.SelectedID(), "the list was refreshed: the new payment is at the top")
}
