package ui

import (
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"paydash/backend/textsafe"
	"paydash/keys"
)

// paletteEntry is one line of the command palette: an action, or a view
// (a tab, reached by its number key).
type paletteEntry struct {
	action keys.Action
	name   string // "refresh now", "Payments"
	keyStr string // the key the palette presses for it: "r", "ctrl+s"
	label  string // the key as the help shows it: "r", "q/ctrl+c"
	// reason is why the action cannot act now ("" when it can): the
	// entry is greyed with it, and choosing it says it instead of acting.
	reason  string
	view    bool // a tab
	current bool // the tab on screen
}

// paletteChoice is what the palette closes with: the entry chosen.
type paletteChoice struct {
	entry paletteEntry
}

// paletteModal is the ctrl+k dialog: every action that exists where the
// tab is and every tab, by name with its key, filtered as one types (any
// part of the name or the key), greyed with the reason
// where it cannot act now. Choosing an entry closes the palette and the
// shell presses the entry's key for it, so every guard of that key
// applies unchanged.
type paletteModal struct {
	km      keys.Map
	th      Theme
	input   textinput.Model
	all     []paletteEntry
	shown   []int // indexes into all, after the filter
	cursor  int
	chosen  *paletteEntry
	labelW  int
	context string // where the palette was opened: "list", "detail pane"
}

// paletteEntries lists what the palette offers for tab i in its context:
// the tabs first, then every live action of the keymap that exists there,
// in the keymap's order. Modal keys, the number keys (the tabs stand for
// them), the palette itself and actions whose key cannot be pressed for
// them are left out.
func (a *App) paletteEntries(i int) []paletteEntry {
	ctx := a.tabs[i].Context()
	avail := a.availability(i)
	var out []paletteEntry
	pressable := func(action keys.Action) (string, string, bool) {
		b, ok := a.km.Binding(action)
		if !ok || !b.Enabled() || !ctx.Live(action) {
			return "", "", false
		}
		for _, k := range b.Keys() {
			press, ok := keyPressOf(k)
			if !ok {
				continue
			}
			if got, _, ok := a.km.Lookup(press, ctx); ok && got == action {
				return k, keys.Label(b.Keys()), true
			}
		}
		return "", "", false
	}
	for _, action := range tabActions {
		j := a.tabIndex(tabKeys[action])
		if j < 0 {
			continue
		}
		k, label, ok := pressable(action)
		if !ok {
			continue
		}
		en, reason := avail(action)
		if !en && reason == "" {
			continue
		}
		out = append(out, paletteEntry{action: action, name: a.tabs[j].Title(), keyStr: k, label: label,
			reason: reason, view: true, current: j == i})
	}
	for _, action := range keys.ActionNames() {
		if keys.GroupOf(action) == keys.GroupModal || action == keys.ActPalette {
			continue
		}
		if _, isTab := tabKeys[action]; isTab {
			continue
		}
		k, label, ok := pressable(action)
		if !ok {
			continue
		}
		en, reason := avail(action)
		if !en && (reason == "" || reason == keys.NotHere) {
			continue // does not exist here
		}
		b, _ := a.km.Binding(action)
		out = append(out, paletteEntry{action: action, name: b.Help().Desc, keyStr: k, label: label, reason: reason})
	}
	return out
}

// tabActions are the number keys' actions, in order.
var tabActions = []keys.Action{keys.ActTab1, keys.ActTab2, keys.ActTab3, keys.ActTab4, keys.ActTab5}

func newPalette(entries []paletteEntry, ctx keys.Context, km keys.Map, th Theme) *paletteModal {
	p := &paletteModal{km: km, th: th, all: entries, context: ctx.String()}
	p.input = newInput(th, "type to filter: a name or a key", 40)
	p.input.SetWidth(40)
	p.input.Focus()
	for _, e := range entries {
		p.labelW = max(p.labelW, ansi.StringWidth(e.label))
	}
	p.labelW = min(p.labelW, 12)
	p.filter()
	return p
}

// Context is the filter's: keys that type text go to the input.
func (p *paletteModal) Context() keys.Context { return keys.ContextFilter }

func (p *paletteModal) result() tea.Msg {
	if p.chosen == nil {
		return nil
	}
	return paletteChoice{entry: *p.chosen}
}

// filter keeps the entries whose name, key or action name holds the
// typed text (any case): a part of the name, or of the key's label, and keeps the cursor on its entry if it stays.
func (p *paletteModal) filter() {
	prev := -1
	if p.cursor >= 0 && p.cursor < len(p.shown) {
		prev = p.shown[p.cursor]
	}
	q := strings.ToLower(strings.TrimSpace(p.input.Value()))
	p.shown = p.shown[:0]
	p.cursor = 0
	for i, e := range p.all {
		hay := strings.ToLower(e.name + "\x00" + e.label)
		if q == "" || strings.Contains(hay, q) {
			if i == prev {
				p.cursor = len(p.shown)
			}
			p.shown = append(p.shown, i)
		}
	}
}

func (p *paletteModal) Update(msg tea.Msg, _ time.Time) (Modal, tea.Cmd, bool) {
	press, ok := msg.(tea.KeyPressMsg)
	if !ok {
		if paste, isPaste := msg.(tea.PasteMsg); isPaste {
			p.input, _ = p.input.Update(tea.PasteMsg{Content: textsafe.Line(paste.Content, 40)})
			p.filter()
		}
		return p, nil, false
	}
	action, _, _ := p.km.Lookup(press, keys.ContextFilter)
	switch action {
	case keys.ActClose:
		return p, nil, true
	case keys.ActOpen:
		if len(p.shown) == 0 {
			return p, nil, false
		}
		e := p.all[p.shown[p.cursor]]
		p.chosen = &e
		return p, nil, true
	case keys.ActUp:
		p.cursor = max(p.cursor-1, 0)
		return p, nil, false
	case keys.ActDown:
		p.cursor = max(min(p.cursor+1, len(p.shown)-1), 0)
		return p, nil, false
	}
	if press.Text == "" {
		// Keys that type nothing may page the list (pgup, pgdown, home, end).
		if act, _, ok := p.km.Lookup(press, keys.ContextList); ok {
			l := chooserList{items: make([]string, len(p.shown)), cursor: p.cursor}
			if l.move(act) {
				p.cursor = max(l.cursor, 0)
				return p, nil, false
			}
		}
	}
	var cmd tea.Cmd
	p.input, cmd = p.input.Update(press)
	p.filter()
	return p, cmd, false
}

func (p *paletteModal) helpLine(width int) string {
	return helpLine(p.th, width,
		[2]string{"type", "filter"},
		[2]string{untypedLabel(p.km.List.Up.Keys()) + "/" + untypedLabel(p.km.List.Down.Keys()), "choose"},
		[2]string{keys.Label(p.km.List.Open.Keys()), "run"},
		[2]string{keys.Label(p.km.List.Close.Keys()), "close"},
		[2]string{"ctrl+c", "quit"})
}

// row draws entry e in width cells: the key, the name, and for an entry
// that cannot act now, the reason, all greyed.
func (p *paletteModal) row(e paletteEntry, width int, selected bool) string {
	label := textsafe.Line(e.label, 40)
	label = ansi.Truncate(label, p.labelW, "…")
	label += strings.Repeat(" ", p.labelW-ansi.StringWidth(label))
	name := textsafe.Line(e.name, 80)
	switch {
	case e.view && e.current:
		name += " (view, current)"
	case e.view:
		name += " (view)"
	}
	text := label + "  " + name
	if e.reason != "" {
		text += " — " + textsafe.Line(e.reason, 120)
	}
	mark := "  "
	if selected {
		mark = "> "
	}
	text = ansi.Truncate(mark+text, width, "…")
	switch {
	case selected:
		return fitTail(p.th.Selected.Render(text), width)
	case e.reason != "":
		return fitTail(p.th.Muted.Render(text), width)
	}
	return fitTail(p.th.Text.Render(text), width)
}

func (p *paletteModal) View(maxWidth, maxHeight int) string {
	th := p.th
	inner := max(min(maxWidth-boxFrame, 72), 10)
	lines := []string{
		th.Title.Render("Command palette"),
		th.Muted.Render(textsafe.Line("every action and view here ("+p.context+"); greyed: cannot act now", 120)),
		"> " + p.input.View(),
		"",
	}
	// The list scrolls around the cursor within the room left: the title,
	// hint, input, blank line, count line and the border (2).
	rows := max(maxHeight-len(lines)-1-2, 1)
	if len(p.shown) == 0 {
		lines = append(lines, th.Muted.Render("nothing matches"))
	} else {
		first := 0
		if len(p.shown) > rows {
			first = min(max(p.cursor-rows/2, 0), len(p.shown)-rows)
		}
		for i := first; i < len(p.shown) && i < first+rows; i++ {
			lines = append(lines, p.row(p.all[p.shown[i]], inner, i == p.cursor))
		}
	}
	count := fmt.Sprintf("%d of %d", len(p.shown), len(p.all))
	if len(p.shown) > 0 && p.all[p.shown[p.cursor]].reason != "" {
		count += " · this one cannot act now"
	}
	lines = append(lines, th.Muted.Render(count))
	for i, l := range lines {
		lines[i] = fitTail(l, inner)
	}
	return box(th, lines)
}

// untypedLabel is the label of the keys that type no text (the arrows): the
// palette's input takes the others.
func untypedLabel(ks []string) string {
	var out []string
	for _, k := range ks {
		if press, ok := keyPressOf(k); !ok || press.Text == "" {
			out = append(out, k)
		}
	}
	if len(out) == 0 {
		return "?"
	}
	return keys.Label(out)
}

// keyPressOf is the press Bubble Tea delivers for a key string of the
// keymap ("r", "R", "enter", "ctrl+s", "shift+tab", "pgup", "f5"); false
// for a string it cannot build, or one Bubble Tea would spell otherwise.
func keyPressOf(s string) (tea.KeyPressMsg, bool) {
	rest := s
	var mod tea.KeyMod
	for {
		found := false
		for _, m := range []struct {
			name string
			mod  tea.KeyMod
		}{{"ctrl+", tea.ModCtrl}, {"alt+", tea.ModAlt}, {"shift+", tea.ModShift}, {"meta+", tea.ModMeta},
			{"hyper+", tea.ModHyper}, {"super+", tea.ModSuper}} {
			if len(rest) > len(m.name) && strings.HasPrefix(rest, m.name) {
				rest, mod, found = rest[len(m.name):], mod|m.mod, true
				break
			}
		}
		if !found {
			break
		}
	}
	var msg tea.KeyPressMsg
	if code, ok := namedKeys[rest]; ok {
		msg = tea.KeyPressMsg{Code: code, Mod: mod}
		if rest == "space" && mod == 0 {
			msg.Text = " "
		}
	} else {
		r, size := utf8.DecodeRuneInString(rest)
		if r == utf8.RuneError || size != len(rest) {
			return tea.KeyPressMsg{}, false
		}
		msg = tea.KeyPressMsg{Code: r, Mod: mod}
		if mod == 0 {
			msg.Text = rest
		}
	}
	if msg.String() != s {
		return tea.KeyPressMsg{}, false
	}
	return msg, true
}

// namedKeys are the key names Bubble Tea writes for keys that are not a
// character.
var namedKeys = func() map[string]rune {
	m := map[string]rune{
		"enter": tea.KeyEnter, "esc": tea.KeyEscape, "tab": tea.KeyTab, "space": tea.KeySpace,
		"backspace": tea.KeyBackspace, "delete": tea.KeyDelete, "insert": tea.KeyInsert,
		"up": tea.KeyUp, "down": tea.KeyDown, "left": tea.KeyLeft, "right": tea.KeyRight,
		"pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown, "home": tea.KeyHome, "end": tea.KeyEnd,
	}
	for i := range 12 {
		m[fmt.Sprintf("f%d", i+1)] = tea.KeyF1 + rune(i)
	}
	return m
}()
