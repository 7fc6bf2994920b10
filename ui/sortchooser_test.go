package ui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/keys"
)

// The sort chooser (docs/sorting.md): a letter or the arrows and enter choose a
// column, esc cancels; the choice reaches the tab as the message its
// callback's command makes.

type sortChosen struct {
	key  string
	desc bool
}

// paymentSortSpec is what the Payments list offers, sorted by Amount ▼;
// chosen collects what Choose is called with.
func paymentSortSpec(chosen *[]sortChosen) SortSpec {
	return SortSpec{
		Title: "Sort the list by",
		Now:   "Amount ▼ largest first",
		Columns: []SortColumn{
			{Key: "id", Title: "ID", Desc: true, Words: "highest first"},
			{Key: "created", Title: "Created", Desc: true, Words: "newest first"},
			{Key: "status", Title: "Status", Words: "A → Z"},
			{Key: "amount", Title: "Amount", Desc: true, Words: "largest first"},
			{Key: "order", Title: "Order", Words: "A → Z"},
			{Key: "description", Title: "Description", Words: "A → Z"},
			{Key: "instrument", Title: "Instrument", Words: "A → Z"},
			{Key: "kind", Title: "Kind", Words: "A → Z"},
			{Key: "gauge", Title: "Gauge", Words: "A → Z"},
		},
		Current: "amount",
		Choose: func(key string, desc bool) tea.Cmd {
			*chosen = append(*chosen, sortChosen{key, desc})
			return func() tea.Msg { return sortChosen{key, desc} }
		},
	}
}

func TestSortChooserLettersAreFreeAndNotItsOwnKeys(t *testing.T) {
	var chosen []sortChosen
	c := NewSortChooser(paymentSortSpec(&chosen), keys.Default(), NewTheme(true, true)).(*sortChooser)
	got := map[string]string{}
	for i, col := range c.spec.Columns {
		got[col.Title] = string(c.letters[i])
	}
	// First free letter of each title; j, k, g and G move the cursor, so
	// Kind is not k and Gauge is not g.
	// Kind's own letters are taken: it gets the first free one.
	assert.Equal(t, map[string]string{"ID": "i", "Created": "c", "Status": "s", "Amount": "a", "Order": "o",
		"Description": "d", "Instrument": "n", "Kind": "b", "Gauge": "u"}, got)
}

func TestSortChooserView(t *testing.T) {
	var chosen []sortChosen
	c := NewSortChooser(paymentSortSpec(&chosen), keys.Default(), NewTheme(true, true))
	v := unwrapped(c.View(76, 21))
	assert.Contains(t, v, "Sort the list by")
	assert.Contains(t, v, "now: Amount ▼ largest first")
	assert.Contains(t, v, "[i] ID ▼ highest first")
	assert.Contains(t, v, "> [a] Amount ▼ largest first (current)", "the cursor starts on the current column")
	assert.Contains(t, v, "[s] Status ▲ A → Z")
	assert.Contains(t, v, "a letter, or k/↑/j/↓ and enter")
	for _, l := range strings.Split(c.View(76, 21), "\n") {
		assert.LessOrEqual(t, len([]rune(l)), 76)
	}
	assert.Equal(t, "[letter] sort by that column • k/↑/j/↓ choose • enter sort • esc cancel • ctrl+c quit",
		strings.TrimRight(c.(*sortChooser).helpLine(200), " "))
	// A short window scrolls the list around the cursor.
	short := unwrapped(c.View(76, 9))
	assert.Contains(t, short, "[a] Amount")
}

func TestSortChooserKeys(t *testing.T) {
	km, th := keys.Default(), NewTheme(true, true)
	now := t0 // the chooser keeps no time: any instant does

	// A letter chooses at once, in the column's natural direction.
	var chosen []sortChosen
	var m Modal = NewSortChooser(paymentSortSpec(&chosen), km, th)
	_, cmd, closed := m.Update(keyPress("c"), now)
	assert.True(t, closed)
	assert.Equal(t, []sortChosen{{"created", true}}, chosen)
	assert.Equal(t, []tea.Msg{sortChosen{"created", true}}, run(cmd), "the callback's command carries the choice")

	// esc cancels: nothing is chosen.
	chosen = nil
	m = NewSortChooser(paymentSortSpec(&chosen), km, th)
	_, cmd, closed = m.Update(keyPress("esc"), now)
	assert.True(t, closed)
	assert.Nil(t, cmd)
	assert.Empty(t, chosen)

	// The arrows (and j/k) move, enter chooses; the current column keeps
	// its direction (its Desc is the current one).
	spec := paymentSortSpec(&chosen)
	spec.Columns[3].Desc, spec.Columns[3].Words = false, "smallest first"
	m = NewSortChooser(spec, km, th)
	for _, k := range []string{"down", "up", "j", "k"} {
		m, _, closed = m.Update(keyPress(k), now)
		require.False(t, closed)
	}
	_, _, closed = m.Update(keyPress("enter"), now)
	assert.True(t, closed)
	assert.Equal(t, []sortChosen{{"amount", false}}, chosen)

	chosen = nil
	m = NewSortChooser(paymentSortSpec(&chosen), km, th)
	m, _, _ = m.Update(keyPress("up"), now)
	m, _, _ = m.Update(keyPress("up"), now)
	_, _, closed = m.Update(keyPress("enter"), now)
	assert.True(t, closed)
	assert.Equal(t, []sortChosen{{"created", true}}, chosen, "two up from Amount is Created")

	// A key that chooses nothing says what does.
	chosen = nil
	m = NewSortChooser(paymentSortSpec(&chosen), km, th)
	m, _, closed = m.Update(keyPress("x"), now)
	assert.False(t, closed)
	assert.Contains(t, unwrapped(m.View(76, 21)), "a letter in [ ] sorts by that column")
	_, _, closed = m.Update(keyPress("ctrl+u"), now)
	assert.False(t, closed, "ctrl+letter is not a letter")
	assert.Empty(t, chosen)
}

// Through the shell: the chooser is a dialog like the others; its help
// line is its own, its choice goes to the tabs.
func TestSortChooserInTheShell(t *testing.T) {
	ta := newTestApp(t)
	var chosen []sortChosen
	ta.send(OpenDialogMsg{Modal: NewSortChooser(paymentSortSpec(&chosen), ta.km, ta.theme)})
	require.NotNil(t, ta.modal)
	s := ta.screen()
	assert.Contains(t, s, "[letter] sort by that column")
	assert.Contains(t, unwrapped(s), "[a] Amount ▼ largest first (current)")
	cmd := ta.press("s")
	assert.Nil(t, ta.modal)
	assert.Empty(t, keysOf(ta.tabs[0]), "the letter went to the dialog, not the list")
	for _, msg := range run(cmd) {
		ta.send(msg)
	}
	assert.Equal(t, []sortChosen{{"status", false}}, msgsOf[sortChosen](ta.tabs[0]))
}
