package ui

import (
	"strings"
	"time"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"paydash/backend/textsafe"
	"paydash/keys"
)

// SortColumn is a column the sort chooser offers.
type SortColumn struct {
	Key   string // the column's key, given back to Choose
	Title string // "Amount"
	// Desc is the direction choosing the column gives: its current one
	// for the column the list is sorted by, its natural one otherwise.
	Desc bool
	// Words say what the direction means for this column: "largest
	// first", "newest first", "A → Z".
	Words string
}

// SortSpec describes the sort chooser of a list.
type SortSpec struct {
	Title   string // "Sort the payments by"
	Now     string // what the list is sorted by now: "Amount ▼ largest first", "the list's own order (newest first)"
	Columns []SortColumn
	Current string // the key of the column the list is sorted by; "" for its own order
	// Choose is called once, when a column is chosen (never on cancel);
	// its command carries the choice to the list.
	Choose func(key string, desc bool) tea.Cmd
}

// sortChooser is the "s" dialog: the list's sortable columns, each with a
// letter that chooses it at once (its first letter that is free: not
// another column's, not one of the dialog's own keys), the current one
// marked; arrows and enter choose too, esc cancels. Letters are choices
// here, so the dialog reads them itself and writes its own help line.
type sortChooser struct {
	km      keys.Map
	th      Theme
	spec    SortSpec
	letters []rune // per column; 0: none left
	list    chooserList
	note    string
}

// NewSortChooser builds the sort chooser. Open it with OpenDialogMsg.
func NewSortChooser(spec SortSpec, km keys.Map, th Theme) Modal {
	c := &sortChooser{km: km, th: th, spec: spec}
	c.letters = sortLetters(spec.Columns, c.reserved())
	c.list = chooserList{current: -1}
	for i, col := range spec.Columns {
		arrow := "▲"
		if col.Desc {
			arrow = "▼"
		}
		letter := "   "
		if c.letters[i] != 0 {
			letter = "[" + string(c.letters[i]) + "]"
		}
		text := letter + " " + textsafe.Line(col.Title, 30) + " " + arrow
		if col.Words != "" {
			text += " " + col.Words
		}
		c.list.items = append(c.list.items, text)
		if col.Key == spec.Current && spec.Current != "" {
			c.list.current, c.list.cursor = i, i
		}
	}
	return c
}

// reserved are the dialog's own keys that type a character (j, k, g, G
// by default): no column gets them as its letter.
func (c *sortChooser) reserved() map[rune]bool {
	out := map[rune]bool{}
	l := c.km.List
	for _, b := range [][]string{l.Up.Keys(), l.Down.Keys(), l.PageUp.Keys(), l.PageDown.Keys(),
		l.Top.Keys(), l.Bottom.Keys(), l.Open.Keys(), l.Close.Keys()} {
		for _, k := range b {
			if r, size := utf8.DecodeRuneInString(k); size == len(k) && r != utf8.RuneError {
				out[r] = true
			}
		}
	}
	return out
}

// sortLetters gives each column the first letter of its title that is
// neither reserved nor taken, else the first free letter of the alphabet.
func sortLetters(cols []SortColumn, reserved map[rune]bool) []rune {
	taken := map[rune]bool{}
	free := func(r rune) bool { return r >= 'a' && r <= 'z' && !reserved[r] && !taken[r] }
	out := make([]rune, len(cols))
	for i, col := range cols {
		for _, r := range strings.ToLower(col.Title) {
			if free(r) {
				out[i] = r
				break
			}
		}
		for r := 'a'; out[i] == 0 && r <= 'z'; r++ {
			if free(r) {
				out[i] = r
			}
		}
		if out[i] != 0 {
			taken[out[i]] = true
		}
	}
	return out
}

// Context is the modal's: the dialog reads its letters itself and its
// help line says which keys act (helpLine).
func (c *sortChooser) Context() keys.Context { return keys.ContextModal }

func (c *sortChooser) Update(msg tea.Msg, _ time.Time) (Modal, tea.Cmd, bool) {
	press, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return c, nil, false
	}
	if len(c.spec.Columns) == 0 {
		return c, nil, true
	}
	if i := c.letterOf(press); i >= 0 {
		return c.choose(i)
	}
	action, _, _ := c.km.Lookup(press, keys.ContextList)
	if c.list.move(action) {
		c.note = ""
		return c, nil, false
	}
	switch action {
	case keys.ActClose:
		return c, nil, true
	case keys.ActOpen:
		return c.choose(c.list.cursor)
	}
	c.note = "a letter in [ ] sorts by that column; " + c.moveLabel() + " and " +
		keys.Label(c.km.List.Open.Keys()) + " too; " + keys.Label(c.km.List.Close.Keys()) + " cancels"
	return c, nil, false
}

// letterOf is the column whose letter was typed, -1 for none.
func (c *sortChooser) letterOf(press tea.KeyPressMsg) int {
	r, size := utf8.DecodeRuneInString(press.Text)
	if size == 0 || size != len(press.Text) || press.Mod.Contains(tea.ModCtrl) || press.Mod.Contains(tea.ModAlt) {
		return -1
	}
	for i, l := range c.letters {
		if l != 0 && l == r {
			return i
		}
	}
	return -1
}

func (c *sortChooser) choose(i int) (Modal, tea.Cmd, bool) {
	col := c.spec.Columns[i]
	if c.spec.Choose == nil {
		return c, nil, true
	}
	return c, c.spec.Choose(col.Key, col.Desc), true
}

func (c *sortChooser) moveLabel() string {
	return keys.Label(c.km.List.Up.Keys()) + "/" + keys.Label(c.km.List.Down.Keys())
}

func (c *sortChooser) helpLine(width int) string {
	return helpLine(c.th, width,
		[2]string{"[letter]", "sort by that column"},
		[2]string{c.moveLabel(), "choose"},
		[2]string{keys.Label(c.km.List.Open.Keys()), "sort"},
		[2]string{keys.Label(c.km.List.Close.Keys()), "cancel"},
		[2]string{"ctrl+c", "quit"})
}

func (c *sortChooser) View(maxWidth, maxHeight int) string {
	th := c.th
	inner := max(min(maxWidth-boxFrame, 52), 10)
	title := c.spec.Title
	if title == "" {
		title = "Sort by"
	}
	lines := []string{th.Title.Render(textsafe.Line(title, 80))}
	if c.spec.Now != "" {
		lines = append(lines, th.Muted.Render("now: "+textsafe.Line(c.spec.Now, 120)))
	}
	lines = append(lines, "")
	if len(c.spec.Columns) == 0 {
		lines = append(lines, th.Muted.Render("no column of this list can be sorted"))
	}
	var tail []string
	if c.note != "" {
		tail = wrapStyled(th.Warning, "! "+c.note, inner)
	} else {
		tail = []string{th.Muted.Render("a letter, or " + c.moveLabel() + " and " + keys.Label(c.km.List.Open.Keys()))}
	}
	fixed := len(lines) + 1 + len(tail) + 2 // the blank line, the hint and the border
	lines = append(lines, c.list.lines(th, inner, maxHeight-fixed)...)
	lines = append(lines, "")
	lines = append(lines, tail...)
	w := 28
	for _, l := range lines {
		w = max(w, ansi.StringWidth(l))
	}
	w = min(w, inner)
	for i, l := range lines {
		lines[i] = fitTail(l, w)
	}
	return box(th, lines)
}
