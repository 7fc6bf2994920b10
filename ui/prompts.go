package ui

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"paydash/backend/textsafe"
	"paydash/keys"
)

const dateLayout = "2006-01-02"

// jumpPrompt is the ":" dialog: a payment id or order number; enter sends a
// JumpMsg to the first tab, esc cancels.
type jumpPrompt struct {
	input textinput.Model
	km    keys.Map
	th    Theme
	note  string
	query string
	words JumpWords
	tab   int // the tab the JumpMsg goes to
}

// JumpWords are the ":" prompt's words.
type JumpWords struct {
	Title       string // "Jump to a payment"
	Hint        string // "its id, or the order number"
	Placeholder string // "payment id or order number"
	Empty       string // said on enter with nothing typed
}

// paymentJump is the prompt of the Payments tab, the default.
var paymentJump = JumpWords{"Jump to a payment", "its id, or the order number",
	"payment id or order number", "type a payment id or an order number"}

// PeriodKeeper is a tab with a period of its own (Registers: transfers
// come once a day, so it opens on the last 30 days whatever the others
// show): "p" on it chooses its period, which goes to it alone as an
// OwnScopeMsg, and the status bar shows its period. Its scope's MerchantID is
// empty when the tab is not about one merchant (the v1 account).
type PeriodKeeper interface {
	OwnScope() Scope
}

// EveryMerchantTab is a tab that can show every merchant at once (the
// Overview): "m" on it offers "every merchant" first, and the choice goes
// to it alone as an EveryMerchantMsg. A merchant chosen there is
// everyone's scope, as anywhere.
type EveryMerchantTab interface {
	EveryMerchant() bool // whether it shows every merchant now
}

// EveryMerchantMsg tells an EveryMerchantTab to show every merchant (On),
// or its scope's merchant again.
type EveryMerchantMsg struct{ On bool }

// Jumper is a tab with its own ":" (the Tokens tab looks a token up by
// id): the prompt uses its words and the JumpMsg goes to it. Without one
// ":" jumps to a payment in the Payments tab.
type Jumper interface {
	JumpPrompt() JumpWords
}

func newJumpPrompt(km keys.Map, th Theme, words JumpWords, tab int) *jumpPrompt {
	p := &jumpPrompt{km: km, th: th, words: words, tab: tab}
	p.input = newInput(th, words.Placeholder, 64)
	p.input.SetWidth(36)
	p.input.Focus()
	return p
}

func (p *jumpPrompt) Context() keys.Context { return keys.ContextJump }

func (p *jumpPrompt) result() tea.Msg {
	if p.query == "" {
		return nil
	}
	return JumpMsg{Query: p.query}
}

func (p *jumpPrompt) Update(msg tea.Msg, _ time.Time) (Modal, tea.Cmd, bool) {
	press, ok := msg.(tea.KeyPressMsg)
	if !ok {
		if paste, isPaste := msg.(tea.PasteMsg); isPaste {
			p.input, _ = p.input.Update(tea.PasteMsg{Content: textsafe.Line(paste.Content, 64)})
		}
		return p, nil, false
	}
	action, _, _ := p.km.Lookup(press, keys.ContextJump)
	switch action {
	case keys.ActOpen:
		q := textsafe.Line(strings.TrimSpace(p.input.Value()), 64)
		if q == "" {
			p.note = p.words.Empty
			return p, nil, false
		}
		p.query = q
		return p, nil, true
	case keys.ActClose:
		return p, nil, true
	}
	p.note = ""
	var cmd tea.Cmd
	p.input, cmd = p.input.Update(press)
	return p, cmd, false
}

func (p *jumpPrompt) View(maxWidth, _ int) string {
	th := p.th
	inner := max(min(maxWidth-boxFrame, 44), 10)
	lines := []string{
		th.Title.Render(p.words.Title),
		th.Muted.Render(p.words.Hint),
		"",
		"> " + p.input.View(),
	}
	if p.note != "" {
		lines = append(lines, th.Warning.Render("! "+p.note))
	}
	for i, l := range lines {
		lines[i] = fitTail(l, inner)
	}
	return box(th, lines)
}

// chooserList is the moving part of a chooser: a cursor over items, one of
// them the current one, scrolled to fit.
type chooserList struct {
	items   []string
	current int
	cursor  int
}

// move handles the list keys (the keymap's up, down, page up and down,
// first and last); it reports whether the key was one of them.
func (l *chooserList) move(action keys.Action) bool {
	n := len(l.items)
	switch action {
	case keys.ActUp:
		l.cursor = max(l.cursor-1, 0)
	case keys.ActDown:
		l.cursor = min(l.cursor+1, n-1)
	case keys.ActPageUp:
		l.cursor = max(l.cursor-10, 0)
	case keys.ActPageDown:
		l.cursor = min(l.cursor+10, n-1)
	case keys.ActTop:
		l.cursor = 0
	case keys.ActBottom:
		l.cursor = n - 1
	default:
		return false
	}
	return true
}

// lines draws at most rows items around the cursor: "> " marks the
// cursor and "(current)" the current choice, so both read without colour.
// An item too long for width is cut, with "…", before the mark.
func (l *chooserList) lines(th Theme, width, rows int) []string {
	rows = max(rows, 1)
	first := 0
	if len(l.items) > rows {
		first = min(max(l.cursor-rows/2, 0), len(l.items)-rows)
	}
	var out []string
	for i := first; i < len(l.items) && i < first+rows; i++ {
		mark := ""
		if i == l.current {
			mark = "  (current)"
		}
		// "> " before and a space after.
		text := ansi.Truncate(l.items[i], max(width-3-ansi.StringWidth(mark), 1), "…") + mark
		if i == l.cursor {
			out = append(out, fitTail(th.Selected.Render("> "+text+" "), width))
		} else {
			out = append(out, fitTail(th.Text.Render("  "+text), width))
		}
	}
	return out
}

func chooserHelp(km keys.Map, th Theme, width int) string {
	return helpLine(th, width,
		[2]string{keys.Label(km.List.Up.Keys()) + "/" + keys.Label(km.List.Down.Keys()), "choose"},
		[2]string{keys.Label(km.List.Open.Keys()), "apply"},
		[2]string{keys.Label(km.List.Close.Keys()), "cancel"},
		[2]string{"ctrl+c", "quit"})
}

// periodChooser is the "p" dialog: today, 7 days, 30 days or a custom
// period from one day to another, both included.
type periodChooser struct {
	km    keys.Map
	th    Theme
	loc   *time.Location
	scope Scope
	list  chooserList

	custom   bool // the from/to form is open
	from, to textinput.Model
	onTo     bool
	problem  string

	chosen *Scope
	// keeper is the index of the tab whose own period is chosen (a
	// PeriodKeeper); -1: the period of every tab.
	keeper int
}

var periodPresets = []string{PresetToday, Preset7Days, Preset30Days, PresetCustom}

func newPeriodChooser(s Scope, keeper int, loc *time.Location, km keys.Map, th Theme) *periodChooser {
	c := &periodChooser{km: km, th: th, loc: loc, scope: s, keeper: keeper}
	c.list = chooserList{items: []string{"today", "7 days", "30 days", "custom…"}, current: -1}
	for i, p := range periodPresets {
		if p == s.Preset {
			c.list.current, c.list.cursor = i, i
		}
	}
	c.from = newInput(th, "yyyy-mm-dd", 10)
	c.to = newInput(th, "yyyy-mm-dd", 10)
	c.from.SetWidth(11)
	c.to.SetWidth(11)
	if !s.Start.IsZero() && !s.End.IsZero() {
		c.from.SetValue(s.Start.In(loc).Format(dateLayout))
		c.to.SetValue(s.End.Add(-time.Nanosecond).In(loc).Format(dateLayout))
	}
	return c
}

func (c *periodChooser) Context() keys.Context {
	if c.custom {
		return keys.ContextJump
	}
	return keys.ContextModal
}

func (c *periodChooser) result() tea.Msg {
	if c.chosen == nil {
		return nil
	}
	return ScopeMsg{Scope: *c.chosen}
}

func (c *periodChooser) helpLine(width int) string {
	if c.custom {
		return helpLine(c.th, width,
			[2]string{"tab/↑/↓", "other date"},
			[2]string{keys.Label(c.km.List.Open.Keys()), "apply"},
			[2]string{keys.Label(c.km.List.Close.Keys()), "back to the presets"},
			[2]string{"ctrl+c", "quit"})
	}
	return chooserHelp(c.km, c.th, width)
}

func (c *periodChooser) Update(msg tea.Msg, now time.Time) (Modal, tea.Cmd, bool) {
	press, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return c, nil, false
	}
	if c.custom {
		return c.updateForm(press)
	}
	action, _, _ := c.km.Lookup(press, keys.ContextList)
	if c.list.move(action) {
		return c, nil, false
	}
	switch action {
	case keys.ActClose:
		return c, nil, true
	case keys.ActOpen:
		preset := periodPresets[c.list.cursor]
		if preset == PresetCustom {
			c.custom, c.onTo, c.problem = true, false, ""
			c.focusField()
			return c, nil, false
		}
		s := PresetScope(c.scope.MerchantID, preset, now.In(c.loc))
		c.chosen = &s
		return c, nil, true
	}
	return c, nil, false
}

func (c *periodChooser) focusField() {
	if c.onTo {
		c.from.Blur()
		c.to.Focus()
		c.to.CursorEnd()
	} else {
		c.to.Blur()
		c.from.Focus()
		c.from.CursorEnd()
	}
}

func (c *periodChooser) updateForm(press tea.KeyPressMsg) (Modal, tea.Cmd, bool) {
	action, _, _ := c.km.Lookup(press, keys.ContextJump)
	switch action {
	case keys.ActOpen:
		s, problem := c.customScope()
		if problem != "" {
			c.problem = problem
			return c, nil, false
		}
		c.chosen = &s
		return c, nil, true
	case keys.ActClose:
		c.custom, c.problem = false, ""
		c.from.Blur()
		c.to.Blur()
		return c, nil, false
	}
	switch press.String() {
	case "tab", "shift+tab", "up", "down":
		c.onTo = !c.onTo
		c.focusField()
		return c, nil, false
	}
	if press.Text != "" {
		for _, r := range press.Text {
			if (r < '0' || r > '9') && r != '-' {
				c.problem = "dates are written yyyy-mm-dd, digits and dashes only"
				return c, nil, false
			}
		}
	}
	var cmd tea.Cmd
	if c.onTo {
		c.to, cmd = c.to.Update(press)
	} else {
		c.from, cmd = c.from.Update(press)
	}
	return c, cmd, false
}

// customScope validates the form: two dates, the first not after the
// second; the period is whole days, the last one included.
func (c *periodChooser) customScope() (Scope, string) {
	parse := func(name, v string) (time.Time, string) {
		t, err := time.ParseInLocation(dateLayout, strings.TrimSpace(v), c.loc)
		if err != nil {
			return t, fmt.Sprintf("%s: write the date as yyyy-mm-dd, e.g. 2026-11-21", name)
		}
		return t, ""
	}
	from, p := parse("From", c.from.Value())
	if p != "" {
		return Scope{}, p
	}
	to, p := parse("To", c.to.Value())
	if p != "" {
		return Scope{}, p
	}
	if from.After(to) {
		return Scope{}, fmt.Sprintf("From (%s) is after To (%s)", from.Format(dateLayout), to.Format(dateLayout))
	}
	return CustomScope(c.scope.MerchantID, from, to), ""
}

func (c *periodChooser) View(maxWidth, maxHeight int) string {
	th := c.th
	inner := max(min(maxWidth-boxFrame, 48), 10)
	lines := []string{th.Title.Render("Period"), ""}
	if !c.custom {
		lines = append(lines, c.list.lines(th, inner, maxHeight-4)...)
	} else {
		label := func(name string, focused bool) string {
			if focused {
				return th.Accent.Render("> " + name)
			}
			return th.Text.Render("  " + name)
		}
		lines = append(lines,
			th.Muted.Render("whole days, both included (yyyy-mm-dd)"),
			"",
			label("From ", !c.onTo)+" ["+c.from.View()+"]",
			label("To   ", c.onTo)+" ["+c.to.View()+"]",
		)
		if c.problem != "" {
			lines = append(lines, "")
			lines = append(lines, wrapStyled(th.Danger, "✗ "+c.problem, inner)...)
		}
	}
	for i, l := range lines {
		lines[i] = fitTail(l, inner)
	}
	return box(th, lines)
}

// merchantChooser is the "m" dialog: the configured merchants, each id
// with its name ("1001  Daily Grind"), the current one marked; choosing
// another sends the new scope to every tab.
type merchantChooser struct {
	km     keys.Map
	th     Theme
	scope  Scope
	ids    []string // "" is "every merchant"
	list   chooserList
	chosen *Scope
	// every is the tab that may show every merchant (-1: none), and
	// everyNow whether it does; everyChosen is its choice.
	every       int
	everyNow    bool
	everyChosen *bool
}

// maxChooserName is how much of a merchant's name the switcher keeps; the
// dialog cuts it further to its width.
const maxChooserName = 60

func newMerchantChooser(merchants []Merchant, s Scope, km keys.Map, th Theme) *merchantChooser {
	c := &merchantChooser{km: km, th: th, scope: s, every: -1}
	c.list = chooserList{current: -1}
	// The names line up after the longest id.
	idWidth := 0
	for _, m := range merchants {
		idWidth = max(idWidth, ansi.StringWidth(textsafe.Line(m.ID, 60)))
	}
	for i, m := range merchants {
		item := textsafe.Line(m.ID, 60)
		if name := textsafe.Line(m.Name, maxChooserName); name != "" {
			item += strings.Repeat(" ", idWidth-ansi.StringWidth(item)) + "  " + name
		}
		c.ids = append(c.ids, m.ID)
		c.list.items = append(c.list.items, item)
		if m.ID == s.MerchantID {
			c.list.current, c.list.cursor = i, i
		}
	}
	return c
}

// offerEvery puts "every merchant" first, for tab, which shows every
// merchant now when on.
func (c *merchantChooser) offerEvery(tab int, on bool) {
	if len(c.ids) < 2 {
		return
	}
	c.every, c.everyNow = tab, on
	c.ids = append([]string{""}, c.ids...)
	c.list.items = append([]string{"every merchant"}, c.list.items...)
	c.list.current++
	c.list.cursor++
	if on {
		c.list.current, c.list.cursor = 0, 0
	}
}

func (c *merchantChooser) Context() keys.Context { return keys.ContextModal }

func (c *merchantChooser) helpLine(width int) string { return chooserHelp(c.km, c.th, width) }

func (c *merchantChooser) result() tea.Msg {
	var msgs []tea.Msg
	if c.everyChosen != nil {
		msgs = append(msgs, EveryMerchantMsg{On: *c.everyChosen})
	}
	if c.chosen != nil {
		msgs = append(msgs, ScopeMsg{Scope: *c.chosen})
	}
	switch len(msgs) {
	case 0:
		return nil
	case 1:
		return msgs[0]
	}
	return merchantChoices(msgs)
}

// merchantChoices are both of a merchant chooser's outcomes: every merchant
// off for the tab, and a new merchant for everyone.
type merchantChoices []tea.Msg

func (c *merchantChooser) Update(msg tea.Msg, _ time.Time) (Modal, tea.Cmd, bool) {
	press, ok := msg.(tea.KeyPressMsg)
	if !ok || len(c.ids) == 0 {
		return c, nil, ok && len(c.ids) == 0
	}
	action, _, _ := c.km.Lookup(press, keys.ContextList)
	if c.list.move(action) {
		return c, nil, false
	}
	switch action {
	case keys.ActClose:
		return c, nil, true
	case keys.ActOpen:
		id := c.ids[c.list.cursor]
		if c.every >= 0 && (id == "") != c.everyNow {
			on := id == ""
			c.everyChosen = &on
		}
		if id != "" && id != c.scope.MerchantID {
			s := c.scope
			s.MerchantID = id
			c.chosen = &s
		}
		return c, nil, true
	}
	return c, nil, false
}

func (c *merchantChooser) View(maxWidth, maxHeight int) string {
	th := c.th
	// As wide as the longest item needs ("> ", the item, "  (current) "),
	// at least 24, at most 60 or the screen: longer names are cut.
	w := 24
	for _, item := range c.list.items {
		w = max(w, 2+ansi.StringWidth(item)+len("  (current)")+1)
	}
	w = min(w, max(min(maxWidth-boxFrame, 60), 10))
	lines := []string{th.Title.Render("Merchant"), ""}
	lines = append(lines, c.list.lines(th, w, maxHeight-4)...)
	for i, l := range lines {
		lines[i] = fitTail(l, w)
	}
	return box(th, lines)
}
