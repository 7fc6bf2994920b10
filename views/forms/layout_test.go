package forms

import (
	"reflect"
	"strings"
	"testing"

	"charm.land/huh/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The dialog's inside where the window is roomy (views/tab/create.go: at 140×45 and
// 200×50 a form gets formWidth columns and the height less the frame).
var roomy = [][2]int{{96, 40}, {96, 45}}

// fieldTitles are every form's field titles, in order.
var fieldTitles = map[string][]string{
	"invoice": {"Amount", "Currency", "Description", "Order number (optional)", "Customer e-mail (optional)",
		"Customer phone (optional)", "Expires (optional", "Hold the money, capture later?", "Return page (optional)",
		"Callback address (optional, https)"},
	"sticker": {"Sticker type", "Cashlink mode?", "Amount, RUB", "Description", "Product code (optional)",
		"Payment purpose (optional)", "Callback address (optional, https)"},
	"tokenization": {"Token type: recurring", "Customer account (in your system)", "Customer e-mail (optional)",
		"Purpose (optional)", "Return page (optional)", "Callback address (optional, https)"},
}

// Where the window allows, a form is one page: every field shows, under
// its section's heading, the header is the form's title and no page count,
// and the dialog is as tall as the fields, not the window.
func TestOnePageWhereItFits(t *testing.T) {
	for name, w := range walks {
		for _, s := range roomy {
			f := w.make(defaults(nil, true))
			d := driveAt(t, f, s[0], s[1])
			view := f.View(s[0], s[1])
			fits(t, view, s[0], s[1], name)
			scr := plain(view)
			assert.NotContains(t, scr, " · page ", "%s at %dx%d:\n%s", name, s[0], s[1], scr)
			assert.True(t, strings.HasPrefix(scr, f.Title()+"\n"), "%s: the form's title heads it:\n%s", name, scr)
			assert.Len(t, f.pages, 1, name)
			last := 0
			for _, title := range fieldTitles[name] {
				i := strings.Index(scr, title)
				if assert.GreaterOrEqual(t, i, last, "%s: %q shows, in order:\n%s", name, title, scr) {
					last = i
				}
			}
			assert.Less(t, len(strings.Split(scr, "\n")), s[1], "%s: no padding to the window's height:\n%s", name, scr)
			assert.True(t, strings.HasSuffix(scr, "enter next • esc cancel"), "%s: the keys close it:\n%s", name, scr)
			_ = d
		}
	}
}

// The same keys fill a form on one page as on several (enter from the last
// field of a section goes on to the next section's first), and it sends
// the same request; no move between fields is left for later (nav.go).
func TestOnePageFormSubmitsLikeThePagedOne(t *testing.T) {
	navTypes := map[reflect.Type]bool{
		reflect.TypeOf(huh.NextField()): true,
		reflect.TypeOf(huh.PrevField()): true,
	}
	for name, w := range walks {
		t.Run(name, func(t *testing.T) {
			paged := w.make(defaults(nil, true))
			dp := drive(t, paged)
			for _, fill := range w.pages {
				fill(dp)
			}
			require.Equal(t, Submitted, paged.State())

			one := w.make(defaults(nil, true))
			d := driveAt(t, one, roomy[0][0], roomy[0][1])
			require.Len(t, one.pages, 1)
			d.check = func(m Msg) {
				assert.False(t, navTypes[reflect.TypeOf(m.inner)], "%T left for later", m.inner)
			}
			for _, fill := range w.pages {
				fill(d)
			}
			require.Equal(t, Submitted, one.State())
			assert.Equal(t, paged.done, one.done)
			assert.Equal(t, paged.Summary(), one.Summary())
		})
	}
}

// The pages are planned again on every resize: the focus stays on its
// field, what was typed stays, a message stays under its field, and the
// moves between pages work in the new layout.
func TestResizeKeepsFocusValuesAndMessages(t *testing.T) {
	f := NewInvoiceLink(defaults(nil, true))
	d := drive(t, f)
	d.field("1,500").enter().field("Two mugs").field("")
	require.Equal(t, "email", d.focusedKey())
	assert.Contains(t, d.screen(), "Customer · page 2 of 3")
	d.typ("ann@")

	d.resize(roomy[1][0], roomy[1][1])
	scr := d.screen()
	assert.NotContains(t, scr, " · page ", scr)
	assert.Equal(t, "email", d.focusedKey(), "the focus stays on its field")
	assert.Contains(t, scr, "┃ > ann@", "what was typed stays:\n%s", scr)
	assert.Contains(t, scr, "> 1,500")
	assert.Contains(t, scr, "> Two mugs")
	d.enter()
	d.shows("email", "an e-mail address like name@example.com")

	d.resize(dialogW, dialogH)
	assert.Contains(t, d.screen(), "Customer · page 2 of 3")
	d.shows("email", "an e-mail address like name@example.com")
	d.clear().field("ann@example.com")
	d.typ("+7 916 123 45 67")
	d.resize(roomy[0][0], roomy[0][1])
	assert.Equal(t, "phone", d.focusedKey())
	d.enter()
	assert.Equal(t, "expires", d.focusedKey(), "enter goes on from the phone to the next section")
	d.backtab().backtab()
	assert.Equal(t, "email", d.focusedKey(), "and shift+tab back across it")

	d.resize(dialogW, dialogH)
	assert.Contains(t, d.screen(), "Customer · page 2 of 3")
	d.enter().enter()
	assert.Contains(t, d.screen(), "Link · page 3 of 3")
	d.backtab()
	assert.Equal(t, "phone", d.focusedKey(), "back to the page before")
	d.enter().field("24h").enter().enter().enter()
	require.Equal(t, Submitted, f.State())
	got, _ := f.Invoice()
	assert.Equal(t, "ann@example.com", got.CustomerEmail)
	assert.Equal(t, "79161234567", got.CustomerPhone)
	assert.Equal(t, "Two mugs", got.Description)
}

// A window between the two: whole sections are put together on a page
// while they fit, each under its heading.
func TestSectionsSharePagesWhereTheyFit(t *testing.T) {
	f := NewInvoiceLink(defaults(nil, true))
	d := driveAt(t, f, 74, 24) // body: 21 lines
	require.Len(t, f.pages, 2, d.screen())
	scr := d.screen()
	assert.True(t, strings.HasPrefix(scr, "New payment link · page 1 of 2\n\n── Amount and order ──\n┃ Amount\n"), scr)
	assert.Contains(t, scr, "\n\n── Customer ──\n  Customer e-mail (optional)\n", scr)
	d.field("1,500").enter().field("Two mugs").field("")
	assert.Equal(t, "email", d.focusedKey())
	d.enter().enter()
	assert.Equal(t, "expires", d.focusedKey())
	assert.True(t, strings.HasPrefix(d.screen(), "Link · page 2 of 2\n\n┃ Expires"), d.screen())
}

// plan itself: one page when all fits, else sections while they fit, and a
// section too tall alone split between its fields.
func TestPlan(t *testing.T) {
	heights := [][]int{{2, 2, 2}, {2}, {3, 3}}
	headH := []int{1, 1, 1}
	// All on one page: a heading line each, 6+2, 2, 6+1, and 2 blank lines.
	assert.Equal(t, []pagePlan{{{0, 0, 3}, {1, 0, 1}, {2, 0, 2}}}, plan(heights, headH, 22))
	assert.Equal(t, []pagePlan{{{0, 0, 3}, {1, 0, 1}}, {{2, 0, 2}}}, plan(heights, headH, 21))
	assert.Equal(t, []pagePlan{{{0, 0, 3}, {1, 0, 1}}, {{2, 0, 2}}}, plan(heights, headH, 13))
	assert.Equal(t, []pagePlan{{{0, 0, 3}}, {{1, 0, 1}, {2, 0, 2}}}, plan(heights, headH, 12))
	assert.Equal(t, []pagePlan{{{0, 0, 3}}, {{1, 0, 1}}, {{2, 0, 2}}}, plan(heights, headH, 8))
	assert.Equal(t, []pagePlan{{{0, 0, 2}}, {{0, 2, 3}}, {{1, 0, 1}}, {{2, 0, 1}}, {{2, 1, 2}}}, plan(heights, headH, 5))
	assert.Equal(t, []pagePlan{{{0, 0, 1}}, {{0, 1, 2}}, {{0, 2, 3}}, {{1, 0, 1}}, {{2, 0, 1}}, {{2, 1, 2}}}, plan(heights, headH, 1),
		"a field taller than the page still gets one")
}
