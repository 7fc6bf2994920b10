package forms

import (
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/stretchr/testify/assert"
)

// The dialog's inside at the dashboard's smallest terminal (80×24).
const dialogW, dialogH = 74, 18

// goldenCheck compares the plain view with testdata/<TestName>/<name>.golden
// as github.com/charmbracelet/x/exp/golden does for the subtest name (go
// test ./views/forms -update rewrites them). The file ends with a line
// break, as a text file does.
func goldenCheck(t *testing.T, name, got string) {
	t.Helper()
	t.Run(name, func(t *testing.T) { golden.RequireEqual(t, got+"\n") })
}

// fits asserts that a view stays within width×height cells.
func fits(t *testing.T, view string, width, height int, what string) {
	t.Helper()
	lines := strings.Split(view, "\n")
	assert.LessOrEqual(t, len(lines), height, "%s: %d lines in %d:\n%s", what, len(lines), height, plain(view))
	for i, l := range lines {
		assert.LessOrEqual(t, ansi.StringWidth(l), width, "%s: line %d is %d wide in %d: %q", what, i, ansi.StringWidth(l), width, ansi.Strip(l))
	}
}

// walks fill each form's pages with valid values: pages[i] fills page i+1
// and moves on to the next page (the last one submits).
var walks = map[string]struct {
	make  func(Defaults) *Form
	pages []func(d *driver) // each fills one page and moves on
}{
	"invoice": {NewInvoiceLink, []func(*driver){
		func(d *driver) { d.field("1,500").enter().field("Two mugs").field("ORD-1") },
		func(d *driver) { d.field("ann@example.com").field("79001234567") },
		func(d *driver) { d.field("24h").enter().enter().enter() },
	}},
	"sticker": {NewSticker, []func(*driver){
		func(d *driver) { d.enter().enter().field("10").field("Coffee") },
		func(d *driver) { d.enter().enter().enter() },
	}},
	"tokenization": {NewTokenizationLink, []func(*driver){
		func(d *driver) { d.field("client-1").enter().enter() },
		func(d *driver) { d.enter().enter() },
	}},
}

func TestGoldenFirstPages(t *testing.T) {
	for name, w := range walks {
		t.Run(name, func(t *testing.T) {
			f := w.make(defaults(nil, true))
			drive(t, f)
			view := f.View(dialogW, dialogH)
			fits(t, view, dialogW, dialogH, name)
			goldenCheck(t, "page1", plain(view))
		})
	}
}

func TestGoldenLaterPages(t *testing.T) {
	for name, w := range walks {
		t.Run(name, func(t *testing.T) {
			f := w.make(defaults(nil, true))
			d := drive(t, f)
			for i, fill := range w.pages[:len(w.pages)-1] {
				fill(d)
				goldenCheck(t, "page"+itoa(i+2), plain(f.View(dialogW, dialogH)))
			}
		})
	}
}

func TestGoldenMessages(t *testing.T) {
	f := NewInvoiceLink(defaults(nil, true))
	d := drive(t, f)
	d.field("1 000")
	goldenCheck(t, "invoice_page1_error", d.screen())
}

// Every page of every form, in both themes and at several sizes, stays in
// its box, also with several messages on the page at once.
func TestViewsFitTheirBox(t *testing.T) {
	sizes := [][2]int{{dialogW, dialogH}, {40, 12}, {100, 30}, {30, 6}, {20, 5}, {10, 3}, {1, 1}}
	for name, w := range walks {
		for _, noColor := range []bool{true, false} {
			f := w.make(defaults(nil, noColor))
			d := drive(t, f)
			for i := range w.pages {
				for _, s := range sizes {
					fits(t, f.View(s[0], s[1]), s[0], s[1], name+" page "+itoa(i+1)+" at "+itoa(s[0])+"×"+itoa(s[1]))
				}
				if i < len(w.pages)-1 {
					w.pages[i](d)
				}
			}
		}
	}
}

func TestManyMessagesStillFitAndTheFocusedFieldShows(t *testing.T) {
	for _, noColor := range []bool{true, false} {
		f := NewInvoiceLink(defaults(nil, noColor))
		d := drive(t, f)
		d.typ("1").enter().enter()
		d.send(tea.PasteMsg{Content: strings.Repeat("x", 300)}).enter() // description: too long
		d.clear().typ("ok").enter().typ("bad\u202eorder").backtab()     // order number: control character, left with shift+tab
		d.clear().backtab().backtab()                                   // description: emptied and left
		d.clear().typ("1 000")                                          // amount: the longest message
		d.enter()
		view := f.View(dialogW, dialogH)
		fits(t, view, dialogW, dialogH, "page 1 with three messages")
		scr := plain(view)
		assert.Equal(t, "amount", d.focusedKey())
		assert.Contains(t, scr, "┃ Amount", "the focused field is on screen:\n%s", scr)
		assert.Contains(t, underFocused(scr), "✗ no spaces or apostrophes")
		assert.Contains(t, scr, "page 1 of 3")
		assert.Contains(t, scr, "esc cancel")
	}
}

var sgr = regexp.MustCompile(`\x1b\[([0-9;:]*)m`)

// sgrColours lists the colour parameters in a view's SGR sequences.
func sgrColours(view string) []string {
	var out []string
	for _, m := range sgr.FindAllStringSubmatch(view, -1) {
		for _, p := range strings.FieldsFunc(m[1], func(r rune) bool { return r == ';' || r == ':' }) {
			switch {
			case p == "38", p == "48", p == "58",
				len(p) == 2 && (p[0] == '3' || p[0] == '4') && p[1] <= '7',
				len(p) == 2 && p[0] == '9', len(p) == 3 && p[0] == '1' && p[1] == '0':
				out = append(out, p)
			}
		}
	}
	return out
}

func TestNoColorHasNoColours(t *testing.T) {
	for name, w := range walks {
		f := w.make(defaults(nil, true))
		d := drive(t, f)
		for i, fill := range w.pages {
			view := f.View(dialogW, dialogH)
			assert.Empty(t, sgrColours(view), "%s page %d:\n%q", name, i+1, view)
			if i < len(w.pages)-1 {
				fill(d)
			}
		}
		d.enter() // a message shows too
		assert.Empty(t, sgrColours(f.View(dialogW, dialogH)), name)
	}
}

func TestColourThemeIsApplied(t *testing.T) {
	f := NewInvoiceLink(defaults(nil, false))
	d := drive(t, f)
	d.field("x")
	view := f.View(dialogW, dialogH)
	assert.NotEmpty(t, sgrColours(view), "the dark theme colours the form")
	assert.Equal(t, plain(NewInvoiceLinkAfter(t, true, "x")), plain(view), "same layout as without colour")
}

// NewInvoiceLinkAfter is a payment link form after typing s and enter.
func NewInvoiceLinkAfter(t *testing.T, noColor bool, s string) string {
	f := NewInvoiceLink(defaults(nil, noColor))
	drive(t, f).field(s)
	return f.View(dialogW, dialogH)
}

func TestHelpKeepsEscWhenNarrow(t *testing.T) {
	f := NewInvoiceLink(defaults(nil, true))
	d := drive(t, f)
	d.field("1") // on the currency: the longest help
	full := plain(f.View(dialogW, dialogH))
	assert.True(t, strings.HasSuffix(full, "←/→ choose • shift+tab back • enter next • esc cancel"), full)
	narrow := plain(f.View(30, 10))
	last := narrow[strings.LastIndex(narrow, "\n")+1:]
	assert.Equal(t, "←/→ choose • esc cancel", last)
}

func TestViewBeforeInitAndAfterTheEnd(t *testing.T) {
	f := NewSticker(defaults(nil, true))
	fits(t, f.View(dialogW, dialogH), dialogW, dialogH, "before Init")
	d := drive(t, f)
	d.esc()
	assert.Equal(t, "", f.View(dialogW, dialogH), "aborted: nothing to draw")
	assert.Nil(t, f.Update(tea.KeyPressMsg{Code: 'a', Text: "a"}))
	assert.Equal(t, "", f.View(0, 10))
}
