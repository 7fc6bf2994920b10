package payments

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend"
	"paydash/keys"
	"paydash/ui"
	"paydash/views/internal/viewtest"
	"paydash/views/tab"
)

// --- Payments --------------------------------------------------------------------

func TestCopyMorePayments(t *testing.T) {
	t.Parallel()
	e, pt := started(t, viewtest.Opts{WithV1: true}, 120, 30)

	// From the pane: the payment read in full, with v1's view of the
	// customer.
	e.Press("enter")
	require.True(t, pt.Pane.IsOpen())
	p := pt.Pane.Obj
	require.NotNil(t, p.V1, "v1's view is read beside the payment")
	require.NotEmpty(t, p.OrderNo)
	email := p.V1.UserIdentifier
	require.Contains(t, email, "@", "the sandbox's customers have e-mails")

	c := e.CopyChooser()
	text := viewtest.ChooserText(c)
	assert.Contains(t, text, "Copy from payment "+p.ID)
	assert.Contains(t, text, "o  order number     "+p.OrderNo)
	assert.Contains(t, text, "e  customer e-mail  "+email)
	assert.Contains(t, text, "a  amount           "+tab.FmtAmount(p.Amount))
	if p.V1.UserPhoneNumber != "" {
		assert.Contains(t, text, "p  phone            "+p.V1.UserPhoneNumber)
	} else {
		assert.NotContains(t, text, "phone", "no phone: not offered")
	}

	clip, toast := viewtest.Choose(t, c, "o")
	assert.Equal(t, p.OrderNo, clip)
	assert.Equal(t, "Order number sent to the terminal's clipboard: "+p.OrderNo, toast)

	clip, _ = viewtest.Choose(t, e.CopyChooser(), "e")
	assert.Equal(t, email, clip)

	// The summary is last: down to it, enter.
	n := len(viewtest.Offered(paymentCopyFields(p)))
	clip, toast = viewtest.Choose(t, e.CopyChooser(), viewtest.LastByArrows(n)...)
	want := "Payment " + p.ID + " · " + tab.FmtAmount(p.Amount) + " · " + string(p.Status) + " · order " + p.OrderNo +
		" · " + email + " · " + p.Created.UTC().Format("02 Jan 2006 15:04") + " UTC"
	assert.Equal(t, want, clip)
	assert.True(t, strings.HasPrefix("Summary sent to the terminal's clipboard: "+want, strings.TrimSuffix(toast, "…")), toast)

	// esc cancels: nothing copied.
	_, cmd, closed := e.CopyChooser().Update(viewtest.KeyPress("esc"), viewtest.GoldenNow)
	assert.True(t, closed)
	assert.Nil(t, cmd)

	// From a row of the list (v2's list has no customer): what it has.
	e.Press("esc")
	require.False(t, pt.Pane.IsOpen())
	e.Press("j")
	row := viewtest.Selected(t, pt.List)
	text = viewtest.ChooserText(e.CopyChooser())
	assert.Contains(t, text, "Copy from payment "+row.ID)
	assert.Contains(t, text, row.OrderNo)
	if row.V1 == nil {
		assert.NotContains(t, text, "e-mail")
	}

	// Nothing selected: Y says why.
	e.Press("/")
	e.TypeText("no such payment anywhere")
	e.Press("enter")
	ok, why := e.Tab.Available(keys.ActCopyMore)
	assert.False(t, ok)
	assert.Equal(t, "no payment is selected", why)
	e.Press("Y")
	assert.Empty(t, e.TakeModals())
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
	e := newEnv(t, viewtest.Opts{Changes: true})
	held := e.NewPayment(true, "150.00") // the newest: the first row
	e.Init()
	e.Size(160, 48)
	first := viewtest.Selected(t, e.Tab.(*Payments).List)
	require.Equal(t, held.ID, first.ID)
	require.Equal(t, backend.PaymentAuthorized, first.Status)

	// NO_COLOR (the tests' theme): no colour at all; the markers say it.
	plain := e.View(160, 48)
	assert.Empty(t, colours(plain), "NO_COLOR: no colour in the list")
	assert.Contains(t, ansi.Strip(plain), "✓ Settled")
	assert.Contains(t, ansi.Strip(plain), "! Authorized")

	// The colour theme: the status cells in the terminal's own palette.
	e.Send(ui.ThemeMsg{Theme: ui.NewTheme(true, false)})
	v := e.View(160, 48)
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
	e.Press("enter")
	assert.Contains(t, e.View(160, 48), "\x1b[35m! Authorized", "a hold in the pane: magenta")
}

// Y offers the long texts a list cell cuts: the description, and the link
// of a payment waiting for confirmation, each whole.
func TestCopyMorePaymentsOffersItsLongTexts(t *testing.T) {
	t.Parallel()
	e, pt := started(t, viewtest.Opts{Fixed: viewtest.GoldenNow}, 120, 30)
	var id string
	for _, r := range pt.List.Table.Rows() {
		if r.Status == backend.PaymentConfirmation {
			id = r.ID
			break
		}
	}
	require.NotEmpty(t, id)
	_, ok := pt.List.SelectID(id)
	require.True(t, ok)
	e.Press("enter")
	p := pt.Pane.Obj
	require.NotNil(t, p.Confirmation)
	require.NotEmpty(t, p.Confirmation.PaymentURL)

	clip, toast := viewtest.Choose(t, e.CopyChooser(), "u")
	assert.Equal(t, p.Confirmation.PaymentURL, clip, "the link, whole")
	assert.True(t, strings.HasPrefix(toast, "Payment link sent to the terminal's clipboard: "), toast)
	clip, _ = viewtest.Choose(t, e.CopyChooser(), "d")
	assert.Equal(t, p.Description, clip)
}
