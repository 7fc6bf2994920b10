package ui

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/keys"
)

// clipboardOf is the text a tea.SetClipboard command's message puts on the
// clipboard (Bubble Tea keeps the message type to itself).
func clipboardOf(msg tea.Msg) (string, bool) {
	if fmt.Sprintf("%T", msg) != "tea.setClipboardMsg" {
		return "", false
	}
	return fmt.Sprint(msg), true
}

// copied runs what the chooser returned: the clipboard's text and the toast.
func copied(t *testing.T, cmd tea.Cmd) (clip string, toast ToastMsg) {
	t.Helper()
	var clips, toasts int
	for _, m := range run(cmd) {
		if s, ok := clipboardOf(m); ok {
			clip = s
			clips++
		}
		if cm, ok := m.(CopiedMsg); ok {
			toast = ToastMsg{Level: ToastInfo, Text: CopiedText(cm, false)}
			toasts++
		}
	}
	require.Equal(t, 1, clips, "one clipboard command")
	require.Equal(t, 1, toasts, "one toast")
	return clip, toast
}

func paymentCopyFields() []CopyField {
	return []CopyField{
		{Key: "o", Label: "order number", Value: "ORD-5561"},
		{Key: "e", Label: "customer e-mail", Value: ""}, // not known: not offered
		{Key: "p", Label: "phone", Value: "  79161234567\n"},
		{Key: "a", Label: "amount", Value: "1,250.00 RUB"},
		{Key: "j", Label: "summary", Value: "Payment 43149010 · 1,250.00 RUB · \x1b]0;pwned\x07Settled"},
	}
}

func TestCopyChooserByLetter(t *testing.T) {
	c := NewCopyChooser("Copy from payment 43149010", paymentCopyFields(), keys.Default(), NewTheme(true, true))
	view := ansi.Strip(c.View(80, 20))
	assert.Contains(t, view, "Copy from payment 43149010")
	assert.Contains(t, view, "o  order number  ORD-5561")
	assert.Contains(t, view, "p  phone         79161234567", "values are shown cleaned")
	assert.NotContains(t, view, "e-mail", "a field without a value is not offered")
	assert.Contains(t, view, "   summary       Payment 43149010 · 1,250.00 RUB · Settled",
		"j moves down: the summary has no letter, and its escape sequence is gone")
	assert.NotContains(t, view, "pwned")

	hl := c.(helpLiner).helpLine(200)
	assert.Contains(t, ansi.Strip(hl), "o/p/a copy")

	// j moves, it does not choose the summary.
	_, cmd, closed := c.Update(keyPress("j"), t0)
	assert.False(t, closed)
	assert.Nil(t, cmd)

	_, cmd, closed = c.Update(keyPress("p"), t0)
	require.True(t, closed)
	clip, toast := copied(t, cmd)
	assert.Equal(t, "79161234567", clip, "the value copied is the one shown: no spaces, no line break")
	assert.Equal(t, "Phone sent to the terminal's clipboard: 79161234567", toast.Text)
}

func TestCopyChooserByArrows(t *testing.T) {
	c := NewCopyChooser("Copy from payment 43149010", paymentCopyFields(), keys.Default(), NewTheme(true, true))
	for _, k := range []string{"down", "down", "down", "down", "up"} { // the last is the fourth: the summary
		var closed bool
		c, _, closed = c.Update(keyPress(k), t0)
		require.False(t, closed)
	}
	c, _, _ = c.Update(keyPress("down"), t0)
	view := ansi.Strip(c.View(80, 20))
	assert.Contains(t, view, "> ")
	for _, l := range strings.Split(view, "\n") {
		if strings.Contains(l, "> ") {
			assert.Contains(t, l, "summary", "the cursor is on the last field")
		}
	}
	_, cmd, closed := c.Update(keyPress("enter"), t0)
	require.True(t, closed)
	clip, toast := copied(t, cmd)
	assert.Equal(t, "Payment 43149010 · 1,250.00 RUB · Settled", clip)
	assert.Equal(t, "Summary sent to the terminal's clipboard: Payment 43149010 · 1,250.00 RUB · Settled", toast.Text)

	c = NewCopyChooser("Copy", paymentCopyFields(), keys.Default(), NewTheme(true, true))
	_, cmd, closed = c.Update(keyPress("esc"), t0)
	assert.True(t, closed, "esc cancels")
	assert.Nil(t, cmd, "and copies nothing")
}

func TestCopyChooserCutsLongValues(t *testing.T) {
	long := strings.Repeat("word ", 40)
	c := NewCopyChooser("Copy from sticker 7", []CopyField{{Key: "d", Label: "description", Value: long}},
		keys.Default(), NewTheme(true, false))
	for _, w := range []int{40, 80, 200} {
		box := c.View(w, 20)
		for _, l := range strings.Split(box, "\n") {
			assert.LessOrEqual(t, ansi.StringWidth(l), w, "the dialog fits %d cells", w)
		}
		assert.Contains(t, ansi.Strip(box), "…", "a long value is cut on screen")
	}
	_, cmd, _ := c.Update(keyPress("d"), t0)
	clip, toast := copied(t, cmd)
	assert.Equal(t, strings.TrimSpace(long), clip, "but copied whole")
	assert.LessOrEqual(t, len([]rune(toast.Text)), 180, "the toast cuts it")
}

// The shell opens the chooser from a tab's OpenDialogMsg, gives it the keys,
// and shows the toast of the copy.
func TestCopyChooserInTheShell(t *testing.T) {
	ta := newTestApp(t)
	ta.send(OpenDialogMsg{Modal: NewCopyChooser("Copy from payment 43149010", paymentCopyFields(), ta.km, ta.theme)})
	assert.Contains(t, ta.screen(), "Copy from payment 43149010")
	assert.Contains(t, ta.screen(), "o/p/a copy")
	cmd := ta.press("a")
	assert.NotContains(t, ta.screen(), "Copy from payment", "the chooser closed")
	var clip string
	for _, m := range run(cmd) {
		if s, ok := clipboardOf(m); ok {
			clip = s
		} else {
			ta.send(m)
		}
	}
	assert.Equal(t, "1,250.00 RUB", clip)
	assert.Contains(t, ta.screen(), "Amount sent to the terminal's clipboard: 1,250.00 RUB")
	assert.Empty(t, msgsOf[tea.KeyPressMsg](ta.tabs[0]), "the key went to the chooser, not the tab")
}

// A copy says what was done (sent to the terminal's clipboard), and inside
// tmux how to let it through.
func TestACopySaysWhereItWentAndHowThroughTmux(t *testing.T) {
	m := CopiedMsg{What: "order number", Value: "ORD-5561"}
	assert.Equal(t, "Order number sent to the terminal's clipboard: ORD-5561", CopiedText(m, false))
	assert.Equal(t, "Order number sent to the terminal's clipboard: ORD-5561 (in tmux, set -g set-clipboard on passes it on)",
		CopiedText(m, true))
	assert.Equal(t, "43002971 sent to the terminal's clipboard", CopiedText(CopiedMsg{Value: "43002971"}, false))

	ta := newTestApp(t)
	ta.App.cfg.InTmux = true
	ta.send(m)
	assert.Contains(t, unwrapped(ta.screen()), "set -g set-clipboard on")
}
