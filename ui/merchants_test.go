package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Merchants have names; the status bar and the switcher show
// them beside the id.

func TestStatusBarNamesTheMerchant(t *testing.T) {
	ta := newTestApp(t)
	ta.send(tea.WindowSizeMsg{Width: 160, Height: 48})
	bar := statusLine(ta)
	assert.Contains(t, bar, "│ merchant 10000001 Daily Grind Coffee │", "the name follows the id, in its segment")
	assert.Contains(t, bar, "127.0.0.1:8443")
	assert.Contains(t, bar, "v2+v1")

	// A merchant without a name is its id alone.
	ta.press("m", "G", "enter")
	bar = statusLine(ta)
	assert.Contains(t, bar, "│ merchant 10000003 │")
}

// At 80 columns the name is cut before anything but the sandbox's host and
// the interfaces goes, and dropped before the period, the rows or the
// merchant's id.
func TestStatusBarCutsTheNameAt80Columns(t *testing.T) {
	long := Merchant{ID: "1001", Name: "The Very Long Name of a Coffee Roastery and Bakery on Main Street"}
	ta := newTestApp(t, withNamedMerchants(long, Merchant{ID: "1002", Name: "Page Turner Books"}))
	ta.scope.MerchantID = "1001"
	ta.tabs[0].status = TabStatus{Rows: 1250, Shown: 1250, AtEnd: true, Refreshed: t0}
	ta.send(struct{}{})
	ta.send(tea.WindowSizeMsg{Width: 80, Height: 24})
	bar := statusLine(ta)
	assert.Equal(t, 80, ansi.StringWidth(bar))
	assert.Contains(t, bar, " │ merchant 1001 The Ver… │ refreshed", "as much of the name as fits, cut with an ellipsis")
	for _, want := range []string{"sandbox", "refreshed 14:03:22", "7 days", "1,250 rows"} {
		assert.Contains(t, bar, want)
	}
	assert.NotContains(t, bar, "127.0.0.1", "the sandbox's host goes first")
	assert.NotContains(t, bar, "v2+v1")

	// Tighter: a filter and the loading spinner take the room; the name
	// is cut to its last few letters, then dropped, and the id stays.
	ta.tabs[0].status = TabStatus{Loading: true, Rows: 1250, Shown: 37, Filter: "petrov", Refreshed: t0}
	ta.send(struct{}{})
	bar = statusLine(ta)
	assert.Contains(t, bar, "merchant 1001 │", "the name is dropped whole when too little of it would be left")
	assert.NotContains(t, bar, "The Very")
	for _, want := range []string{"loading", `filter "petrov"`, "37 of 1,250+ rows"} {
		assert.Contains(t, bar, want)
	}
}

func TestStatusBarCleansHostileNames(t *testing.T) {
	hostile := Merchant{ID: "1001", Name: "Evil\x1b]0;pwned\x07 Shop\x1b[2J\r\nReload\u202e"}
	ta := newTestApp(t, withNamedMerchants(hostile, Merchant{ID: "1002"}))
	ta.scope.MerchantID = "1001"
	ta.send(tea.WindowSizeMsg{Width: 160, Height: 48})
	out := ta.View().Content
	for _, bad := range []string{"\x1b]0;", "\x1b[2J", "\x07", "\r", "\u202e", "pwned"} {
		assert.NotContains(t, out, bad)
	}
	assert.Contains(t, statusLine(ta), "merchant 1001 Evil Shop Reload │")

	ta.press("m")
	require.NotNil(t, ta.modal)
	out = ta.View().Content
	for _, bad := range []string{"\x1b]0;", "\x1b[2J", "\x07", "\u202e", "pwned"} {
		assert.NotContains(t, out, bad)
	}
	assert.Contains(t, ta.screen(), "> 1001  Evil Shop Reload  (current)")
	requireFrame(t, out, 160, 48)
}

func TestMerchantSwitcherListsNames(t *testing.T) {
	ta := newTestApp(t, withNamedMerchants(
		Merchant{ID: "1001", Name: "Daily Grind Coffee"},
		Merchant{ID: "99", Name: "Short Id"},
		Merchant{ID: "1003"},
		Merchant{ID: "1004", Name: strings.Repeat("Volt Electronics ", 6)},
	))
	ta.scope.MerchantID = "1001"
	ta.press("m")
	require.NotNil(t, ta.modal)
	sc := ta.screen()
	assert.Contains(t, sc, "> 1001  Daily Grind Coffee  (current)")
	assert.Contains(t, sc, "  99    Short Id", "names line up after the longest id")
	assert.Contains(t, sc, "  1003 ", "a merchant without a name is its id")
	var long string
	for _, l := range splitLines(sc) {
		if strings.Contains(l, "1004") {
			long = l
		}
	}
	assert.Contains(t, long, "1004  Volt Electronics Volt", "a long name is cut to the dialog")
	assert.Contains(t, long, "…")
	requireFrame(t, ta.View().Content, 80, 24)

	// The current mark survives a long name.
	ta.press("G", "enter")
	require.Nil(t, ta.modal)
	assert.Equal(t, "1004", msgsOf[ScopeMsg](ta.tabs[0])[0].Scope.MerchantID)
	ta.press("m")
	sc = ta.screen()
	assert.Contains(t, sc, "…  (current)")
	assert.Contains(t, statusLine(ta), "merchant 1004 Volt Electronics")
}

// A merchant chooser without names is as it was: the ids.
func TestMerchantSwitcherWithoutNames(t *testing.T) {
	ta := newTestApp(t, withMerchants("10000001", "10000002"))
	ta.press("m")
	sc := ta.screen()
	assert.Contains(t, sc, "> 10000001  (current)")
	assert.Contains(t, sc, "  10000002 ")
	assert.Contains(t, statusLine(ta), "merchant 10000001 │")
}

// everyTab is a tab that can show every merchant.
type everyTab struct {
	*fakeTab
	on bool
}

func (t *everyTab) EveryMerchant() bool { return t.on }

func (t *everyTab) Update(msg tea.Msg) (Tab, tea.Cmd) {
	if m, ok := msg.(EveryMerchantMsg); ok {
		t.on = m.On
	}
	t.fakeTab.Update(msg)
	return t, nil
}

// On a tab that can show every merchant, "m" offers it first; it goes to
// that tab alone, and a merchant chosen after it goes to every tab and
// takes the tab back to one merchant.
func TestMerchantSwitcherOffersEveryMerchantWhereATabCanShowIt(t *testing.T) {
	ta := newTestApp(t, withMerchants("1001", "1002"))
	ta.press("m")
	assert.NotContains(t, ta.screen(), "every merchant", "not on a tab of one merchant")
	ta.press("esc")

	ev := &everyTab{fakeTab: ta.tabs[1]}
	ta.App.tabs[1] = ev
	ta.press("2", "m")
	require.Contains(t, ta.screen(), "every merchant")
	ta.press("g", "enter") // the first item
	assert.True(t, ev.on)
	assert.Empty(t, msgsOf[EveryMerchantMsg](ta.tabs[0]), "the other tabs are not told")
	assert.Empty(t, msgsOf[ScopeMsg](ta.tabs[0]), "nor given a scope")

	ta.press("m")
	assert.Contains(t, ta.screen(), "every merchant  (current)")
	ta.press("G", "enter") // 1002
	assert.False(t, ev.on, "a merchant chosen shows it alone")
	got := msgsOf[ScopeMsg](ta.tabs[0])
	assert.Equal(t, "1002", got[len(got)-1].Scope.MerchantID, "and is everyone's")
}
