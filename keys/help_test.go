package keys

import (
	"strconv"
	"strings"
	"testing"

	"charm.land/bubbles/v2/help"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// paymentsTab is what the Payments tab might say with a pending payment
// selected: refund is greyed out with a reason, the token and sticker
// actions do not exist there.
var paymentsTab = Availability(func(action Action) (bool, string) {
	switch action {
	case ActRefund:
		return false, "only a settled payment can be refunded"
	case ActRevoke, ActToggleSticker, ActDocuments:
		return false, ""
	case ActTab6, ActTab7: // the Approvals and Activity tabs are paydash serve's
		return false, ""
	}
	return true, ""
})

func TestShortHelpGolden(t *testing.T) {
	m := Default()
	plain := PlainHelpStyles()
	cases := []struct {
		name  string
		ctx   Context
		width int
		want  string
	}{
		{"list 80", ContextList, 80,
			"enter open details • / search rows • : jump to id • … • ? all keys"},
		{"list 160", ContextList, 160,
			"enter open details • / search rows • : jump to id • c capture hold • x cancel hold • [R] refund • n new invoice/sticker/link • y copy id • … • ? all keys"},
		{"detail 80", ContextDetail, 80,
			"esc close pane • c capture hold • x cancel hold • [R] refund • … • ? all keys"},
		{"detail 160", ContextDetail, 160,
			"esc close pane • c capture hold • x cancel hold • [R] refund • w raw JSON/XML • y copy id • r refresh now • k/↑ up • j/↓ down • q/ctrl+c quit • ? all keys"},
		{"filter 80", ContextFilter, 80,
			"enter search all • esc clear search • ↑ up • ↓ down • ctrl+c quit"},
		{"jump 80", ContextJump, 80,
			"enter jump • esc cancel • ctrl+c quit"},
		{"modal 80", ContextModal, 80,
			"y confirm • n/esc cancel • tab/e edit amount"},
		{"modal field 80", ContextModalField, 80,
			"enter/tab done editing • esc cancel"},
		{"tiny", ContextList, 12,
			"enter open …"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, ShortHelp(m, c.ctx, paymentsTab, c.width, plain))
		})
	}
}

func TestShortHelpWithoutAvailabilityShowsEverything(t *testing.T) {
	got := ShortHelp(Default(), ContextDetail, nil, 0, PlainHelpStyles())
	assert.Equal(t, "esc close pane • c capture hold • x cancel hold • R refund • v revoke token • "+
		"t switch sticker on/off • w raw JSON/XML • y copy id • r refresh now • k/↑ up • j/↓ down • q/ctrl+c quit • ? all keys", got)
}

func TestFullHelpGolden(t *testing.T) {
	m := Default()
	plain := PlainHelpStyles()
	// testdata/TestFullHelpGolden/list_<width>.golden (go test ./keys -update rewrites them)
	for _, w := range []int{80, 160, 60} {
		t.Run("list_"+strconv.Itoa(w), func(t *testing.T) {
			golden.RequireEqual(t, FullHelp(m, ContextList, paymentsTab, w, 40, plain))
		})
	}

	assert.Equal(t, "Modal\ny      confirm\nn/esc  cancel\ntab/e  edit amount",
		FullHelp(m, ContextModal, nil, 80, 40, plain))
	assert.Equal(t, "Modal\nenter/tab  done editing\nesc        cancel",
		FullHelp(m, ContextModalField, nil, 80, 40, plain))
	assert.Equal(t, "Navigation            Global\nenter  search all     ctrl+c  quit\nesc    clear search\n↑      up\n↓      down",
		FullHelp(m, ContextFilter, nil, 80, 40, plain))
}

func TestFullHelpTabsUnfoldWhenRemapped(t *testing.T) {
	m := Default()
	require.NoError(t, m.Apply(map[string][]string{"tab_3": {"f3"}}))
	got := FullHelp(m, ContextList, nil, 160, 0, PlainHelpStyles())
	assert.NotContains(t, got, "1-5")
	assert.Contains(t, got, "f3         go to tab 3")
	assert.Contains(t, got, "1          go to tab 1")
}

func TestFullHelpHeightLimit(t *testing.T) {
	got := FullHelp(Default(), ContextList, paymentsTab, 40, 12, PlainHelpStyles())
	lines := strings.Split(got, "\n")
	require.Len(t, lines, 12)
	assert.Equal(t, "Navigation", lines[0])
	assert.Equal(t, "… 32 more lines: make the window taller", lines[11])
}

// Every line of the help fits its width, styled or not, at any width, and
// the one-line help never wraps.
func TestHelpFitsWidth(t *testing.T) {
	m := Default()
	longReason := Availability(func(action Action) (bool, string) {
		if action == ActCapture || action == ActQuit {
			return false, "read-only mode: paydash was started with --read-only, so nothing can be sent to the service"
		}
		return true, ""
	})
	for _, styles := range []HelpStyles{PlainHelpStyles(), DefaultHelpStyles(true), DefaultHelpStyles(false)} {
		for _, ctx := range Contexts() {
			for _, avail := range []Availability{nil, paymentsTab, longReason} {
				for _, w := range []int{1, 5, 12, 20, 33, 40, 59, 60, 80, 100, 160} {
					short := ShortHelp(m, ctx, avail, w, styles)
					assert.NotContains(t, short, "\n")
					assert.LessOrEqual(t, ansi.StringWidth(short), w, "short %s width %d: %q", ctx, w, short)
					for _, h := range []int{0, 1, 3, 10} {
						full := FullHelp(m, ctx, avail, w, h, styles)
						lines := strings.Split(full, "\n")
						if h > 0 {
							assert.LessOrEqual(t, len(lines), h, "full %s %dx%d", ctx, w, h)
						}
						for _, l := range lines {
							assert.LessOrEqual(t, ansi.StringWidth(l), w, "full %s width %d: %q", ctx, w, l)
						}
					}
				}
			}
		}
	}
}

// With colours stripped (NO_COLOR) the styled help reads exactly as the
// plain one: the brackets, not the colour, mark a disabled key.
func TestStyledHelpReadsWithoutColour(t *testing.T) {
	m := Default()
	for _, dark := range []bool{true, false} {
		st := DefaultHelpStyles(dark)
		for _, w := range []int{80, 160} {
			full := FullHelp(m, ContextList, paymentsTab, w, 40, st)
			assert.NotEqual(t, FullHelp(m, ContextList, paymentsTab, w, 40, PlainHelpStyles()), full, "styles do something")
			assert.Equal(t, FullHelp(m, ContextList, paymentsTab, w, 40, PlainHelpStyles()), ansi.Strip(full))
			short := ShortHelp(m, ContextDetail, paymentsTab, w, st)
			assert.Equal(t, ShortHelp(m, ContextDetail, paymentsTab, w, PlainHelpStyles()), ansi.Strip(short))
		}
	}
}

func TestDisabledBindingIsDimmed(t *testing.T) {
	m := Default()
	st := DefaultHelpStyles(true)
	full := FullHelp(m, ContextList, paymentsTab, 160, 0, st)
	assert.Contains(t, full, st.DisabledKey.Inline(true).Render("[R]"))
	assert.Contains(t, full, st.DisabledDesc.Inline(true).Render("refund"))
	assert.Contains(t, full, st.Reason.Inline(true).Render("only a settled payment can be refunded"))
	assert.Contains(t, full, st.Key.Inline(true).Render("c"), "an available key is not dimmed")
	short := ShortHelp(m, ContextDetail, paymentsTab, 160, st)
	assert.Contains(t, short, st.DisabledKey.Inline(true).Render("[R]"))
	assert.NotEqual(t, st.Key.Render("x"), st.DisabledKey.Render("x"))
}

func TestReasonIsSanitized(t *testing.T) {
	evil := Availability(func(action Action) (bool, string) {
		if action == ActRefund {
			return false, "denied\x1b[2J\x1b]0;pwned\x07 by server"
		}
		return true, ""
	})
	full := FullHelp(Default(), ContextList, evil, 160, 0, PlainHelpStyles())
	assert.NotContains(t, full, "\x1b")
	assert.NotContains(t, full, "\x07")
	assert.Contains(t, full, "denied")
}

func TestKeyMapAdapter(t *testing.T) {
	h := help.New()
	h.SetWidth(200)
	km := Default().KeyMap(ContextList)
	assert.Contains(t, ansi.Strip(h.View(km)), "R refund")
	h.ShowAll = true
	assert.Contains(t, ansi.Strip(h.View(km)), "revoke token")
	assert.Len(t, km.FullHelp(), 3)
	assert.Len(t, Default().KeyMap(ContextModal).FullHelp(), 1)
}
