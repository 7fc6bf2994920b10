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
// tab is and every tab, by name with its key, filtered and ranked as one
// types (a key, a part of the name, or its letters in order: filter),
// greyed with the reason, whole, where it cannot act now. Choosing an entry closes the palette and the
// shell presses the entry's key for it, so every guard of that key
// applies unchanged.
type paletteModal struct {
	km      keys.Map
	th      Theme
	input   textinput.Model
	all     []paletteEntry
	shown   []int   // indexes into all, after the filter, best match first
	marks   [][]int // per shown entry, the byte offsets in its name the typed text matched
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
func (app *App) paletteEntries(i int) []paletteEntry {
	ctx := app.tabs[i].Context()
	avail := app.availability(i)
	var out []paletteEntry
	pressable := func(action keys.Action) (string, string, bool) {
		b, ok := app.km.Binding(action)
		if !ok || !b.Enabled() || !ctx.Live(action) {
			return "", "", false
		}
		for _, k := range b.Keys() {
			press, ok := keyPressOf(k)
			if !ok {
				continue
			}
			if got, _, ok := app.km.Lookup(press, ctx); ok && got == action {
				return k, keys.Label(b.Keys()), true
			}
		}
		return "", "", false
	}
	for _, action := range tabActions {
		j := app.tabIndex(tabKeys[action])
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
		out = append(out, paletteEntry{action: action, name: app.tabs[j].Title(), keyStr: k, label: label,
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
		b, _ := app.km.Binding(action)
		out = append(out, paletteEntry{action: action, name: b.Help().Desc, keyStr: k, label: label, reason: reason})
	}
	return out
}

// tabActions are the number keys' actions, in order.
var tabActions = []keys.Action{keys.ActTab0, keys.ActTab1, keys.ActTab2, keys.ActTab3, keys.ActTab4, keys.ActTab5, keys.ActTab6, keys.ActTab7}

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

// filter keeps the entries that match the typed text and orders them by
// how well, keeping the cursor on its entry if it stays. The ranks, best
// first: a key of the entry is the text exactly (keys are case-sensitive:
// "R" is refund, "r" refresh); the name starts with it; a word of the name
// starts with it; the name holds it; the key's label holds it; the name
// holds its letters in order (fuzzy, github.com/sahilm/fuzzy: "rfnd" finds
// "refund"). Names and labels match in any case. Within a rank the
// palette's own order stays (the views first), except the fuzzy matches,
// which go by the matcher's score.
func (p *paletteModal) filter() {
	prev := -1
	if p.cursor >= 0 && p.cursor < len(p.shown) {
		prev = p.shown[p.cursor]
	}
	p.shown, p.marks = p.shown[:0], p.marks[:0]
	p.cursor = 0
	raw := strings.TrimSpace(p.input.Value())
	if raw == "" {
		for i := range p.all {
			p.shown = append(p.shown, i)
			p.marks = append(p.marks, nil)
		}
	} else {
		for _, h := range rankPalette(p.all, raw) {
			p.shown = append(p.shown, h.entry)
			p.marks = append(p.marks, h.marks)
		}
	}
	for k, i := range p.shown {
		if i == prev {
			p.cursor = k
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
