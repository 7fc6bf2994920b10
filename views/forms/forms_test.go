package forms

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend"
	"paydash/backend/money"
)

// shows asserts that the message is right under the focused field (the
// lines after its bar, up to the blank line; a long message wraps), and
// that focus has not left the field.
func (d *driver) shows(fieldKey, msg string) *driver {
	d.t.Helper()
	scr := d.screen()
	assert.Equal(d.t, "✗ "+msg, underFocused(scr), "screen:\n%s", scr)
	assert.Equal(d.t, fieldKey, d.focusedKey(), "focus stays on the field at fault")
	assert.Equal(d.t, Editing, d.f.State())
	return d
}

// underFocused is the text between the focused field (its bar) and the
// next blank line, its lines joined by spaces.
func underFocused(scr string) string {
	lines := strings.Split(scr, "\n")
	last := -1
	for i, l := range lines {
		if strings.HasPrefix(l, "┃") {
			last = i
		}
	}
	var under []string
	for i := last + 1; last >= 0 && i < len(lines) && strings.TrimSpace(lines[i]) != ""; i++ {
		under = append(under, strings.TrimSpace(lines[i]))
	}
	return strings.Join(under, " ")
}

// clear deletes what the focused input holds.
func (d *driver) clear() *driver {
	return d.key('u', tea.ModCtrl)
}

func TestInvoiceLinkSubmitsTheTypedValues(t *testing.T) {
	f := NewInvoiceLink(defaults(nil, true))
	assert.Equal(t, "New payment link", f.Title())
	d := drive(t, f)

	assert.Contains(t, d.screen(), "Amount and order · page 1 of 3")
	d.field("1,500.5")
	assert.Equal(t, "currency", d.focusedKey())
	d.right().enter()                 // RUB → USD
	d.typ("  Two mugs, blue  ").tab() // tab moves on like enter
	d.typ("ORD-1234").tab()

	assert.Contains(t, d.screen(), "Customer · page 2 of 3")
	d.field("ann@example.com").field("79001234567")

	assert.Contains(t, d.screen(), "Link · page 3 of 3")
	d.field("2026-11-30 18:00")
	assert.Equal(t, "hold", d.focusedKey())
	d.typ("y") // yes, and on to the next field
	d.field("https://shop.example.com/done")
	assert.Equal(t, Editing, f.State())
	d.field("https://shop.example.com/notify")

	require.Equal(t, Submitted, f.State())
	got, ok := f.Invoice()
	require.True(t, ok)
	want := backend.InvoiceLinkRequest{
		MerchantID:    "m-100",
		Amount:        money.Amount{Value: money.MustParse("1500.5"), Currency: "USD"},
		Description:   "Two mugs, blue",
		OrderNo:       "ORD-1234",
		Expires:       time.Date(2026, 11, 30, 18, 0, 0, 0, msk),
		DualMode:      true,
		CustomerEmail: "ann@example.com",
		CustomerPhone: "79001234567",
		ReturnURL:     "https://shop.example.com/done",
		CallbackURL:   "https://shop.example.com/notify",
	}
	assert.True(t, want.Expires.Equal(got.Expires))
	assert.Equal(t, want, got)
	assert.Empty(t, got.IdempotencyKey, "the action layer sets it")

	assert.Equal(t, []string{
		"Merchant: m-100",
		"Amount: 1,500.50 USD",
		"Description: Two mugs, blue",
		"Order number: ORD-1234",
		"Customer e-mail: ann@example.com",
		"Customer phone: 79001234567",
		"Expires: 2026-11-30 18:00 local (UTC+03:00), 2026-11-30 15:00 UTC",
		"Hold (dual mode): yes: the money is held until captured",
		"Return page: https://shop.example.com/done",
		"Callback address: https://shop.example.com/notify",
	}, f.Summary())

	_, ok = f.Sticker()
	assert.False(t, ok, "not a sticker form")
	_, ok = f.Tokenization()
	assert.False(t, ok, "not a tokenization form")

	// Done means done: more keys change nothing.
	assert.Nil(t, f.Update(tea.KeyPressMsg{Code: tea.KeyEscape}))
	assert.Equal(t, Submitted, f.State())
}

// huh asks the runtime for the window size whenever a form starts, and the
// form starts again at every page and relayout. Bubble Tea answers each
// request in a goroutine of its own, and two at once write the program's
// size unsynchronized (a data race in bubbletea v2.1.1's checkResize). The
// dashboard knows its size and tells the form: the requests are dropped.
func TestAFormNeverAsksTheRuntimeForTheWindowSize(t *testing.T) {
	c := &clock{t: fixedNow}
	f := NewInvoiceLink(defaults(c, true))
	d := drive(t, f)
	d.field("10").enter().field("Tea").enter()
	d.resize(60, 14).enter().enter()
	d.resize(120, 40).field("24h").enter()
	for _, m := range d.forRuntime {
		assert.NotEqual(t, tea.RequestWindowSize(), m, "a window-size request reached the runtime")
	}
}

func TestInvoiceLinkOptionalFieldsLeftEmpty(t *testing.T) {
	c := &clock{t: fixedNow}
	f := NewInvoiceLink(defaults(c, true))
	d := drive(t, f)
	d.field("10").enter().field("Tea").enter() // amount, RUB, description, no order number
	d.enter().enter()                          // no e-mail, no phone
	c.t = fixedNow.Add(10 * time.Minute)       // the relative expiry counts from submission
	d.field("24h").enter().enter().enter()     // hold: No (the default), no addresses
	require.Equal(t, Submitted, f.State())
	got, ok := f.Invoice()
	require.True(t, ok)
	assert.Equal(t, backend.InvoiceLinkRequest{
		MerchantID:  "m-100",
		Amount:      money.Amount{Value: money.MustParse("10"), Currency: "RUB"},
		Description: "Tea",
		Expires:     time.Date(2026, 11, 22, 12, 10, 0, 0, msk),
	}, got)
	assert.Equal(t, []string{
		"Merchant: m-100",
		"Amount: 10.00 RUB",
		"Description: Tea",
		"Expires: 2026-11-22 12:10 local (UTC+03:00), 2026-11-22 09:10 UTC",
		"Hold (dual mode): no: the money is charged at once",
	}, f.Summary())
}

func TestInvoiceLinkRefusesBadInput(t *testing.T) {
	f := NewInvoiceLink(defaults(nil, true))
	d := drive(t, f)

	d.enter().shows("amount", "enter the amount")
	d.field("15O").shows("amount", "“O” is a letter, not the digit 0")
	d.clear().field("-5").shows("amount", "no sign: the amount is a positive number without “-”")
	d.clear().field("0").shows("amount", "the amount must be more than 0")
	d.clear().field("1.505").shows("amount", "RUB amounts have at most 2 decimals")
	d.backspace().enter()
	assert.Equal(t, "currency", d.focusedKey(), "a fixed amount lets the form go on")
	assert.NotContains(t, d.screen(), "✗")

	d.enter().enter().shows("description", "enter a description of what is paid for")
	d.send(tea.PasteMsg{Content: strings.Repeat("x", 251)}).enter()
	d.shows("description", "too long: 251 characters, at most 250")
	d.backspace().enter()
	assert.Equal(t, "orderNo", d.focusedKey())
	d.enter()

	d.field("ann@").shows("email", "an e-mail address like name@example.com")
	assert.Contains(t, d.screen(), "Customer · page 2 of 3", "the page cannot be left")
	d.clear().field("ann@example.com")
	d.field("+7 900 123-45-67 ext 5").shows("phone",
		"only digits, spaces, brackets, dashes and dots, and + before the country code: +7 916 123-45-67")
	d.clear().field("0900123")
	d.shows("phone", "not a phone number: check the digits; a number outside Russia starts with + and its country code (+49 151 12345678)")
	d.clear().enter()

	d.field("tomorrow").shows("expires", "a duration like 90m, 24h or 3d, or a local time like 2026-11-28 18:00")
	d.clear().field("45d").shows("expires", "too far: at most 30 days ahead (until 2026-12-21 12:00)")
	d.clear().field("3d").enter()
	d.field("shop.example.com").shows("returnURL", "a full address like https://shop.example.com/done")
	d.clear().enter()
	d.field("http://shop.example.com/notify").shows("callbackURL", "a callback address must start with https://")
	_, ok := f.Invoice()
	assert.False(t, ok, "not submitted while a field is wrong")

	// Going back is allowed from a wrong field, but not off its page.
	d.backtab()
	assert.Equal(t, "returnURL", d.focusedKey())
	assert.Contains(t, d.screen(), "✗ a callback address must start with https://", "the message stays with its field")
	d.enter()
	assert.Equal(t, "callbackURL", d.focusedKey())
	d.clear().field("https://shop.example.com/notify")
	require.Equal(t, Submitted, f.State())
	got, _ := f.Invoice()
	assert.Equal(t, "", got.CustomerPhone)
	assert.Equal(t, "ann@example.com", got.CustomerEmail)
	assert.Equal(t, money.MustParse("1.5"), got.Amount.Value)
}

func TestInvoiceLinkCurrencyMustFitTheAmount(t *testing.T) {
	dd := defaults(nil, true)
	dd.Currency = "kwd" // three decimals; offered first, before RUB
	f := NewInvoiceLink(dd)
	d := drive(t, f)
	d.field("1.125")
	assert.Equal(t, "currency", d.focusedKey())
	d.right().enter() // KWD → RUB: 1.125 has a decimal too many
	d.shows("currency", "change the amount: RUB amounts have at most 2 decimals")
	d.key(tea.KeyLeft).enter() // back to KWD
	assert.Equal(t, "description", d.focusedKey())
}

func TestInvoiceLinkExpiryThatPassesBeforeSubmitReopensTheForm(t *testing.T) {
	c := &clock{t: fixedNow}
	f := NewInvoiceLink(defaults(c, true))
	d := drive(t, f)
	d.field("100").enter().field("Tea").enter().enter().enter()
	d.field("2026-11-21 12:30").enter().enter()
	assert.Equal(t, "callbackURL", d.focusedKey())

	c.t = fixedNow.Add(28 * time.Minute) // the support person was called away
	d.enter()
	require.Equal(t, Editing, f.State(), "not submitted with an expiry 2 minutes away")
	_, ok := f.Invoice()
	assert.False(t, ok)
	d.shows("expires", "too soon: the link must stay open at least 5 minutes")
	assert.Contains(t, d.screen(), "Link · page 3 of 3")
	assert.Contains(t, d.screen(), "> 2026-11-21 12:30", "the typed values are kept")

	d.enter().shows("expires", "too soon: the link must stay open at least 5 minutes")
	d.clear().field("2h").enter().enter().enter()
	require.Equal(t, Submitted, f.State())
	got, _ := f.Invoice()
	assert.Equal(t, time.Date(2026, 11, 21, 14, 28, 0, 0, msk), got.Expires)
	assert.Equal(t, "Tea", got.Description)
	assert.Equal(t, money.MustParse("100"), got.Amount.Value)
}

func TestEscAborts(t *testing.T) {
	for name, mk := range map[string]func(Defaults) *Form{
		"invoice": NewInvoiceLink, "sticker": NewSticker, "tokenization": NewTokenizationLink,
	} {
		t.Run(name, func(t *testing.T) {
			f := mk(defaults(nil, true))
			d := drive(t, f)
			d.typ("12")
			d.esc()
			assert.Equal(t, Aborted, f.State())
			assert.Nil(t, f.Summary())
			_, ok := f.Invoice()
			assert.False(t, ok)
			_, ok = f.Sticker()
			assert.False(t, ok)
			_, ok = f.Tokenization()
			assert.False(t, ok)
			assert.Nil(t, f.Update(tea.KeyPressMsg{Code: tea.KeyEnter}))
			assert.Equal(t, Aborted, f.State())
		})
	}
}

func TestEscAbortsOnALaterPage(t *testing.T) {
	f := NewInvoiceLink(defaults(nil, true))
	d := drive(t, f)
	d.field("5").enter().field("Tea").enter()
	assert.Contains(t, d.screen(), "page 2 of 3")
	d.esc()
	assert.Equal(t, Aborted, f.State())
}

func TestCtrlCAborts(t *testing.T) {
	f := NewSticker(defaults(nil, true))
	d := drive(t, f)
	d.key('c', tea.ModCtrl)
	assert.Equal(t, Aborted, f.State())
}

func TestBackToAnEarlierPageKeepsTheValues(t *testing.T) {
	f := NewInvoiceLink(defaults(nil, true))
	d := drive(t, f)
	d.field("250").enter().field("Tea").field("A-1")
	assert.Equal(t, "email", d.focusedKey())
	d.backtab()
	assert.Equal(t, "orderNo", d.focusedKey())
	scr := d.screen()
	assert.Contains(t, scr, "page 1 of 3")
	assert.Contains(t, scr, "> 250")
	assert.Contains(t, scr, "> Tea")
	assert.Contains(t, scr, "> A-1")
	d.enter().field("bob@example.com")
	assert.Equal(t, "phone", d.focusedKey())
}

func TestStickerSubmitsTheTypedValues(t *testing.T) {
	f := NewSticker(defaults(nil, true))
	assert.Equal(t, "New sticker", f.Title())
	d := drive(t, f)
	assert.Contains(t, d.screen(), "Sticker · page 1 of 2")
	assert.Equal(t, "stickerType", d.focusedKey())
	d.enter()
	d.key(tea.KeyLeft).enter() // No → Yes
	d.enter().shows("amount", "enter the amount")
	d.field("99.999").shows("amount", "RUB amounts have at most 2 decimals")
	d.clear().field("1,250")
	d.enter().shows("description", "enter a description of the sticker")
	d.field("Coffee to go")

	assert.Contains(t, d.screen(), "Details · page 2 of 2")
	d.field("SKU-42").send(tea.PasteMsg{Content: strings.Repeat("p", 141)}).enter()
	d.shows("paymentPurpose", "too long: 141 characters, at most 140")
	d.backspace().enter()
	d.field("https://shop.example.com/sbp").enter()
	require.Equal(t, Submitted, f.State())

	got, ok := f.Sticker()
	require.True(t, ok)
	assert.Equal(t, backend.StickerRequest{
		MerchantID:     "m-100",
		StickerType:    "Sbp",
		Cashlink:       true,
		Description:    "Coffee to go",
		ProductCode:    "SKU-42",
		PaymentPurpose: strings.Repeat("p", 140),
		Amount:         money.Amount{Value: money.MustParse("1250"), Currency: "RUB"},
		CallbackURL:    "https://shop.example.com/sbp",
	}, got)
	assert.Equal(t, []string{
		"Merchant: m-100",
		"Sticker type: Sbp",
		"Cashlink: yes",
		"Amount: 1,250.00 RUB",
		"Description: Coffee to go",
		"Product code: SKU-42",
		"Payment purpose: " + strings.Repeat("p", 140),
		"Callback address: https://shop.example.com/sbp",
	}, f.Summary())
	_, ok = f.Invoice()
	assert.False(t, ok)
}

func TestStickerCallbackMustBeHTTPS(t *testing.T) {
	f := NewSticker(defaults(nil, true))
	d := drive(t, f)
	d.enter().enter().field("10").field("Tea").enter().enter()
	d.field("http://shop.example.com/sbp").shows("callbackURL", "a callback address must start with https://")
	_, ok := f.Sticker()
	assert.False(t, ok)
}

func TestTokenizationLinkSubmitsTheTypedValues(t *testing.T) {
	f := NewTokenizationLink(defaults(nil, true))
	assert.Equal(t, "New tokenization link", f.Title())
	d := drive(t, f)
	scr := d.screen()
	assert.Contains(t, scr, "Customer · page 1 of 2")
	assert.Contains(t, scr, "Token type: recurring")
	assert.Equal(t, "account", d.focusedKey(), "the note about the type is not a stop")
	d.backtab()
	assert.Equal(t, "account", d.focusedKey(), "nothing before the first field")

	d.enter().shows("account", "enter the customer's account in your system")
	d.field("client-1042")
	d.field("ann@example").shows("email", "an e-mail address like name@example.com")
	d.field(".com").field("Monthly subscription")

	assert.Contains(t, d.screen(), "Addresses · page 2 of 2")
	d.field("ftp://shop.example.com/").shows("returnURL", "a full address like https://shop.example.com/done")
	d.clear().field("http://shop.example.com/cards")
	d.field("https://shop.example.com/tokens")
	require.Equal(t, Submitted, f.State())

	got, ok := f.Tokenization()
	require.True(t, ok)
	assert.Equal(t, backend.TokenizationLinkRequest{
		MerchantID:      "m-100",
		Purpose:         "Monthly subscription",
		CustomerAccount: "client-1042",
		CustomerEmail:   "ann@example.com",
		ReturnURL:       "http://shop.example.com/cards",
		CallbackURL:     "https://shop.example.com/tokens",
	}, got)
	assert.Equal(t, []string{
		"Merchant: m-100",
		"Token type: recurring",
		"Payment method: bankcard",
		"Purpose: Monthly subscription",
		"Customer account: client-1042",
		"Customer e-mail: ann@example.com",
		"Return page: http://shop.example.com/cards",
		"Callback address: https://shop.example.com/tokens",
	}, f.Summary())
}

func TestPaste(t *testing.T) {
	f := NewInvoiceLink(defaults(nil, true))
	d := drive(t, f)
	d.send(tea.PasteMsg{Content: "1,500.00\n"}) // a line copied from a terminal
	assert.Contains(t, d.screen(), "> 1,500.00")
	d.enter().enter()
	d.send(tea.PasteMsg{Content: "line one\nline two"})
	d.shows("description", "paste one line of plain text, without line breaks or control codes")
	assert.NotContains(t, d.screen(), "line one")
	d.typ("Two")
	assert.NotContains(t, d.screen(), "✗", "typing clears the message")
	d.send(tea.PasteMsg{Content: " mugs\r\n"}) // the line break goes, the space inside stays
	d.typ("!").enter()
	assert.Equal(t, "orderNo", d.focusedKey())
	d.enter().enter().enter().enter().enter().enter().enter()
	require.Equal(t, Submitted, f.State())
	got, _ := f.Invoice()
	assert.Equal(t, "Two mugs!", got.Description)
	assert.Equal(t, money.MustParse("1500"), got.Amount.Value)
}

func TestMessagesOfAnotherFormAreIgnored(t *testing.T) {
	a := NewInvoiceLink(defaults(nil, true))
	b := NewInvoiceLink(defaults(nil, true))
	da, db := drive(t, a), drive(t, b)
	da.typ("5")
	db.typ("7")
	next := Msg{form: a.id, inner: huh.NextField()}
	db.send(next)
	assert.Equal(t, "amount", db.focusedKey(), "b ignores a's message")
	da.send(next)
	assert.Equal(t, "currency", da.focusedKey(), "a takes its own")
	// Anything that is neither a key, a paste nor the form's own is ignored.
	assert.Nil(t, b.Update(huh.NextField()))
	assert.Nil(t, b.Update(tea.WindowSizeMsg{Width: 80, Height: 24}))
	assert.Nil(t, b.Update(tea.KeyReleaseMsg{Code: tea.KeyEnter}))
	assert.Equal(t, "amount", db.focusedKey())
}

func TestFormCommandsComeBackTagged(t *testing.T) {
	f := NewInvoiceLink(defaults(nil, true))
	f.View(74, 18)
	cmd := f.Init()
	require.NotNil(t, cmd)
	var kinds []string
	var walk func(tea.Cmd)
	walk = func(c tea.Cmd) {
		if c == nil {
			return
		}
		switch m := c().(type) {
		case nil:
		case tea.BatchMsg:
			for _, c := range m {
				walk(c)
			}
		case Msg:
			assert.Equal(t, f.id, m.form)
			kinds = append(kinds, "form")
		default:
			if cmds, ok := sequence(m); ok {
				for _, c := range cmds {
					walk(c)
				}
				return
			}
			kinds = append(kinds, "runtime")
		}
	}
	walk(cmd)
	assert.Contains(t, kinds, "form")
}

func TestDefaultsCurrency(t *testing.T) {
	for in, want := range map[string]string{"": "RUB", "usd": "USD", " EUR ": "EUR", "rubles": "RUB", "KWD": "KWD"} {
		dd := defaults(nil, true)
		dd.Currency = in
		f := NewInvoiceLink(dd)
		d := drive(t, f)
		d.field("1").enter().field("Tea").enter().enter().enter().enter().enter().enter().enter()
		require.Equal(t, Submitted, f.State(), "currency %q", in)
		got, _ := f.Invoice()
		assert.Equal(t, want, got.Amount.Currency, "currency %q", in)
	}
}

func TestNilClockIsTimeNow(t *testing.T) {
	f := NewInvoiceLink(Defaults{})
	d := drive(t, f)
	d.field("1").enter().field("Tea").enter().enter().enter()
	before := time.Now()
	d.field("1h").enter().enter().enter()
	after := time.Now()
	require.Equal(t, Submitted, f.State())
	got, _ := f.Invoice()
	// An hour from the submission, rounded up to the minute, however long
	// the submission took between these two readings of the clock; with a
	// minute's slack either way should the clock be set meanwhile.
	assert.WithinRange(t, got.Expires, before.Add(time.Hour-time.Minute), after.Add(time.Hour+2*time.Minute))
	assert.Equal(t, "", got.MerchantID)
	assert.NotContains(t, strings.Join(f.Summary(), "\n"), "Merchant", "an empty member is not sent")
}

// A phone typed the way people write it, with spaces, brackets and dashes,
// goes out as the digits the service wants; the form shows them under the
// field while they are typed, and the confirmation lists them.
func TestInvoicePhoneTypedWithSpacesAndBrackets(t *testing.T) {
	f := NewInvoiceLink(defaults(nil, true))
	d := drive(t, f)
	d.field("1,500").enter().field("Two mugs").field("")
	d.enter() // no e-mail
	require.Equal(t, "phone", d.focusedKey())
	assert.Contains(t, d.screen(), "sent as digits with the country code: +7 916 123-45-67 → 79161234567")
	d.typ("8 (916) 123-45-67")
	assert.Contains(t, underField(d.screen(), "Customer phone"), "will be sent as 79161234567")
	d.enter()
	require.Equal(t, "expires", d.focusedKey(), "the number is accepted")
	d.enter().enter().enter().enter()
	require.Equal(t, Submitted, f.State())
	got, ok := f.Invoice()
	require.True(t, ok)
	assert.Equal(t, "79161234567", got.CustomerPhone)
	assert.Contains(t, f.Summary(), "Customer phone: 79161234567")
}

// underField is the text of the named field: its title line up to the
// next blank line.
func underField(scr, title string) string {
	i := strings.Index(scr, title)
	if i < 0 {
		return ""
	}
	rest := scr[i:]
	if j := strings.Index(rest, "\n\n"); j >= 0 {
		rest = rest[:j]
	}
	return rest
}
