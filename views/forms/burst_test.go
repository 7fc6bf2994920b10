package forms

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Keys typed in one burst reach the program's input before any message a
// command of the form brings back. Whatever the form does on enter must
// therefore already hold for the next key read: a key after enter goes to
// the next field, never to the one enter left.

// burstKeys are the key presses of s as a terminal sends them: "\r" is
// enter, "\t" tab, any other rune itself.
func burstKeys(s string) []tea.Msg {
	var out []tea.Msg
	for _, r := range s {
		switch r {
		case '\r':
			out = append(out, tea.KeyPressMsg{Code: tea.KeyEnter})
		case '\t':
			out = append(out, tea.KeyPressMsg{Code: tea.KeyTab})
		default:
			out = append(out, tea.KeyPressMsg{Code: r, Text: string(r)})
		}
	}
	return out
}

// burst gives the form every message before running any command it
// returned, as the runtime does with a burst of input queued ahead of the
// commands' results; the commands then run in the order they were
// returned, with everything they lead to.
func (d *driver) burst(s string) *driver {
	d.t.Helper()
	var cmds []tea.Cmd
	for _, m := range burstKeys(s) {
		cmds = append(cmds, d.f.Update(m))
		d.f.View(74, 18) // the runtime draws after every update
	}
	for _, c := range cmds {
		d.run(c)
	}
	return d
}

func TestBurstAfterEnterGoesToTheNextField(t *testing.T) {
	// The sticker's amount is followed by a text field: the keys after
	// enter are its text.
	f := NewSticker(defaults(nil, true))
	d := drive(t, f)
	d.enter().enter() // the sticker type and the cashlink mode as they are
	require.Equal(t, "amount", d.focusedKey())
	d.burst("100\r50")
	assert.Equal(t, "100", f.stk.amount)
	assert.Equal(t, "50", f.stk.description)
	assert.Equal(t, "description", d.focusedKey())
	assert.Contains(t, d.screen(), "> 100")
	assert.Contains(t, d.screen(), "> 50")
}

func TestBurstAfterEnterOnThePaymentLinkAmount(t *testing.T) {
	// The payment link's amount is followed by the currency (a choice
	// that takes no digits); the second enter keeps RUB and the digits
	// after it are the description.
	f := NewInvoiceLink(defaults(nil, true))
	d := drive(t, f)
	d.burst("100\r50")
	assert.Equal(t, "100", f.inv.amount, "no key after enter goes into the amount")
	assert.Equal(t, "currency", d.focusedKey())
	assert.Equal(t, "RUB", f.inv.currency)
	d.burst("\r50\r")
	assert.Equal(t, "100", f.inv.amount)
	assert.Equal(t, "50", f.inv.description)
	assert.Equal(t, "orderNo", d.focusedKey())
}

func TestBurstAcrossPagesAndBack(t *testing.T) {
	f := NewInvoiceLink(defaults(nil, true))
	d := drive(t, f)
	// Page 1 to page 2 in one burst, and back with shift+tab at its first
	// field: each key goes where the focus is at that point.
	keys := burstKeys("7\r\rTea\rA-1\rann@example.com")
	keys = append(keys, tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift})
	keys = append(keys, burstKeys("2\r79001234567")...)
	var cmds []tea.Cmd
	for _, m := range keys {
		cmds = append(cmds, f.Update(m))
	}
	for _, c := range cmds {
		d.run(c)
	}
	assert.Equal(t, "7", f.inv.amount)
	assert.Equal(t, "Tea", f.inv.description)
	assert.Equal(t, "A-12", f.inv.orderNo, "shift+tab went back to the order number before the 2")
	assert.Equal(t, "ann@example.com79001234567", f.inv.email,
		"enter on the order number came back to the e-mail field, where the phone digits went")
	assert.Equal(t, "", f.inv.phone)
	assert.Equal(t, "email", d.focusedKey())
}

func TestBurstStopsAtAFieldThatRefusesEnter(t *testing.T) {
	// enter on an empty required field moves nothing: the keys after it
	// stay in that field, as they would one at a time.
	f := NewSticker(defaults(nil, true))
	d := drive(t, f)
	d.burst("\r\r\r12")
	assert.Equal(t, "amount", d.focusedKey())
	assert.Equal(t, "12", f.stk.amount)
	assert.Equal(t, "", f.stk.description)
}

func TestBurstAfterTheLastEnterTypesNothing(t *testing.T) {
	f := NewInvoiceLink(defaults(nil, true))
	d := drive(t, f)
	d.field("250").enter().field("Tea").enter()
	d.enter().enter()
	d.enter().enter().enter()
	require.Equal(t, "callbackURL", d.focusedKey())
	d.typ("https://shop.example.com/notify")
	d.burst("\ryy")
	require.Equal(t, Submitted, f.State(), "enter submitted the form before the y's were read")
	got, ok := f.Invoice()
	require.True(t, ok)
	assert.Equal(t, "https://shop.example.com/notify", got.CallbackURL)
	for _, v := range []string{f.inv.amount, f.inv.description, f.inv.orderNo, f.inv.email, f.inv.phone,
		f.inv.expires, f.inv.returnURL, f.inv.callbackURL} {
		assert.NotContains(t, v, "yy")
	}
	assert.False(t, f.inv.hold, "no y reached the hold field either")
	assert.NotContains(t, strings.Join(f.Summary(), "\n"), "yy")
	assert.Nil(t, f.Update(tea.KeyPressMsg{Code: 'y', Text: "y"}), "a submitted form takes no keys")
}

func TestBurstOnTheLastPageOfEveryForm(t *testing.T) {
	for name, w := range walks {
		t.Run(name, func(t *testing.T) {
			// The last page's fields as they are, then enter and y y in
			// one burst; the same form filled key by key, without the
			// y's, is what it must come to.
			run := func(last string) *Form {
				f := w.make(defaults(nil, true))
				d := drive(t, f)
				for _, fill := range w.pages[:len(w.pages)-1] {
					fill(d)
				}
				d.burst(last)
				return f
			}
			n := len(w.make(defaults(nil, true)).pages[len(w.pages)-1].fields)
			want := run(strings.Repeat("\r", n))
			require.Equal(t, Submitted, want.State())
			got := run(strings.Repeat("\r", n) + "yy")
			require.Equal(t, Submitted, got.State())
			assert.Equal(t, want.Summary(), got.Summary(), "no field took the y's")
		})
	}
}
