package ui

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/sahilm/fuzzy"

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

// paletteHit is one entry that matches: its index, its rank (lower is
// better), the fuzzy matcher's score and the name's matched bytes.
type paletteHit struct {
	entry, rank, score int
	marks              []int
}

// The palette's ranks, best first (filter says what each is).
const (
	rankKey = iota
	rankPrefix
	rankWord
	rankInside
	rankLabel
	rankFuzzy
)

func rankPalette(all []paletteEntry, raw string) []paletteHit {
	q := strings.ToLower(raw)
	var hits []paletteHit
	var fuzzyNames []string
	var fuzzyIdx []int
	for i, e := range all {
		name := strings.ToLower(e.name)
		label := strings.ToLower(e.label)
		at := strings.Index(name, q)
		sameBytes := len(name) == len(e.name) // ToLower kept the offsets
		span := func(from int) []int {
			if !sameBytes {
				return nil
			}
			out := make([]int, 0, len(q))
			for j := from; j < from+len(q); j++ {
				out = append(out, j)
			}
			return out
		}
		switch {
		case isKeyOf(e, raw):
			hits = append(hits, paletteHit{entry: i, rank: rankKey})
		case at == 0:
			hits = append(hits, paletteHit{entry: i, rank: rankPrefix, marks: span(0)})
		case wordAt(name, q) >= 0:
			hits = append(hits, paletteHit{entry: i, rank: rankWord, marks: span(wordAt(name, q))})
		case at > 0:
			hits = append(hits, paletteHit{entry: i, rank: rankInside, marks: span(at)})
		case strings.Contains(label, q):
			hits = append(hits, paletteHit{entry: i, rank: rankLabel})
		default:
			fuzzyNames = append(fuzzyNames, e.name)
			fuzzyIdx = append(fuzzyIdx, i)
		}
	}
	for _, m := range fuzzy.Find(raw, fuzzyNames) {
		hits = append(hits, paletteHit{entry: fuzzyIdx[m.Index], rank: rankFuzzy, score: m.Score,
			marks: m.MatchedIndexes})
	}
	slices.SortStableFunc(hits, func(a, b paletteHit) int {
		if c := cmp.Compare(a.rank, b.rank); c != 0 {
			return c
		}
		if c := cmp.Compare(b.score, a.score); c != 0 {
			return c
		}
		return cmp.Compare(a.entry, b.entry)
	})
	return hits
}

// isKeyOf reports whether s is one of e's keys exactly.
func isKeyOf(e paletteEntry, s string) bool {
	if s == e.keyStr || s == e.label {
		return true
	}
	return slices.Contains(strings.Split(e.label, "/"), s) && s != ""
}

// wordAt is the offset of the first word of name (after a space or a
// slash) that starts with q, -1 when none does.
func wordAt(name, q string) int {
	for i := 1; i < len(name); i++ {
		if (name[i-1] == ' ' || name[i-1] == '/') && strings.HasPrefix(name[i:], q) {
			return i
		}
	}
	return -1
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

// entryLines draws entry e in width cells: the key, the name (the
// letters the typed text matched underlined), and for an entry that
// cannot act now the reason, whole: on the same line when it fits, else
// wrapped under the name. A greyed entry is muted; the cursor's entry is
// marked "> " and drawn selected.
func (p *paletteModal) entryLines(e paletteEntry, marks []int, width int, selected bool) []string {
	base := p.th.Text
	switch {
	case selected:
		base = p.th.Selected
	case e.reason != "":
		base = p.th.Muted
	}
	label := textsafe.Line(e.label, 40)
	label = ansi.Truncate(label, p.labelW, "…")
	label += strings.Repeat(" ", p.labelW-ansi.StringWidth(label))
	mark := "  "
	if selected {
		mark = "> "
	}
	indent := len(mark) + p.labelW + 2
	room := max(width-indent, 1)
	name := e.name
	if textsafe.Clean(name) != name || ansi.StringWidth(name) > room {
		// Names are the keymap's short descriptions; one that is not clean
		// or too long for the line is shown cleaned and cut, unmarked.
		name, marks = ansi.Truncate(textsafe.Line(name, 80), room, "…"), nil
	}
	var b strings.Builder
	b.WriteString(base.Render(mark + label + "  "))
	b.WriteString(markedName(base, name, marks))
	used := indent + ansi.StringWidth(name)
	suffix := ""
	switch {
	case e.view && e.current:
		suffix = " (view, current)"
	case e.view:
		suffix = " (view)"
	}
	if used+ansi.StringWidth(suffix) <= width {
		b.WriteString(base.Render(suffix))
		used += ansi.StringWidth(suffix)
	}
	lines := []string{b.String()}
	if e.reason == "" {
		return padLines(lines, base, width)
	}
	reason := "— " + textsafe.Clean(e.reason)
	if used+1+ansi.StringWidth(reason) <= width {
		lines[0] += base.Render(" " + reason)
		return padLines(lines, base, width)
	}
	pad := strings.Repeat(" ", indent)
	for _, l := range wrapWords(reason, room) {
		lines = append(lines, base.Render(pad+l))
	}
	return padLines(lines, base, width)
}

// padLines fills each line to width in style st (the selection's colour
// reaches the edge).
func padLines(lines []string, st lipgloss.Style, width int) []string {
	for i, l := range lines {
		if w := ansi.StringWidth(l); w < width {
			lines[i] = l + st.Render(strings.Repeat(" ", width-w))
		}
	}
	return lines
}

// markedName is name in style st with the bytes at marks underlined.
func markedName(st lipgloss.Style, name string, marks []int) string {
	if len(marks) == 0 {
		return st.Render(name)
	}
	hi := st.Underline(true)
	var b strings.Builder
	start, on := 0, false
	flush := func(end int) {
		if end > start {
			if on {
				b.WriteString(hi.Render(name[start:end]))
			} else {
				b.WriteString(st.Render(name[start:end]))
			}
		}
		start = end
	}
	mi := 0
	for i := range name { // i: the byte offset of each rune
		hit := mi < len(marks) && marks[mi] == i
		if hit {
			mi++
		}
		if hit != on {
			flush(i)
			on = hit
		}
	}
	flush(len(name))
	return b.String()
}

// window is the shown entries that fit rows lines around the cursor, as
// [first, last): whole entries only, the cursor's about in the middle
// when the list is longer than the room.
func window(heights []int, cursor, rows int) (first, last int) {
	if len(heights) == 0 {
		return 0, 0
	}
	first, last = cursor, cursor+1
	used := heights[cursor]
	above := 0
	for first > 0 && used+heights[first-1] <= rows && above+heights[first-1] <= (rows-heights[cursor])/2 {
		first--
		used += heights[first]
		above += heights[first]
	}
	for last < len(heights) && used+heights[last] <= rows {
		used += heights[last]
		last++
	}
	for first > 0 && used+heights[first-1] <= rows {
		first--
		used += heights[first]
	}
	return first, last
}

func (p *paletteModal) View(maxWidth, maxHeight int) string {
	th := p.th
	// As wide as the longest entry with its reason on one line needs,
	// between 72 and 120 cells and within the window; measured over every
	// entry, so the box does not change its width as one types.
	inner := max(min(maxWidth-boxFrame, min(max(p.widest(), 72), 120)), 10)
	lines := []string{
		th.Title.Render("Command palette"),
		th.Muted.Render(textsafe.Line("every action and view here ("+p.context+"); greyed: cannot act now", 120)),
		"> " + p.input.View(),
		"",
	}
	// The list scrolls around the cursor within the room left: the title,
	// hint, input, blank line, count line and the border (2).
	rows := max(maxHeight-len(lines)-1-2, 1)
	first, last := 0, 0
	if len(p.shown) == 0 {
		lines = append(lines, th.Muted.Render("nothing matches"))
	} else {
		drawn := make([][]string, len(p.shown))
		heights := make([]int, len(p.shown))
		for k, i := range p.shown {
			drawn[k] = p.entryLines(p.all[i], p.marks[k], inner, k == p.cursor)
			heights[k] = len(drawn[k])
		}
		first, last = window(heights, p.cursor, rows)
		for k := first; k < last; k++ {
			lines = append(lines, drawn[k]...)
		}
		if extra := len(lines) - 4 - rows; extra > 0 { // the cursor's entry alone is taller than the room
			lines = lines[:len(lines)-extra]
		}
	}
	lines = append(lines, th.Muted.Render(p.countLine(first, last, inner)))
	for i, l := range lines {
		lines[i] = fitTail(l, inner)
	}
	return box(th, lines)
}

// widest is the width of the longest entry drawn on one line.
func (p *paletteModal) widest() int {
	w := 0
	for _, e := range p.all {
		n := 2 + p.labelW + 2 + ansi.StringWidth(textsafe.Clean(e.name)) + len(" (view, current)")
		if e.reason != "" {
			n += 1 + ansi.StringWidth("— "+textsafe.Clean(e.reason))
		}
		w = max(w, n)
	}
	return w
}

// countLine says how many entries there are, how many match the typed
// text and how many of those are on screen: "12 shown of 34 · ↓ 22
// more" when some are off it, "2 of 34 match" or "34 entries" when all
// are on it.
func (p *paletteModal) countLine(first, last, width int) string {
	n, all := len(p.shown), len(p.all)
	filtered := strings.TrimSpace(p.input.Value()) != ""
	var s string
	switch {
	case n == 0:
		s = fmt.Sprintf("0 of %d match", all)
	case last-first < n && filtered:
		s = fmt.Sprintf("%d shown of %d matching (%d in all)", last-first, n, all)
	case last-first < n:
		s = fmt.Sprintf("%d shown of %d", last-first, n)
	case filtered:
		s = fmt.Sprintf("%d of %d match", n, all)
	default:
		s = fmt.Sprintf("%d entries", n)
	}
	if first > 0 {
		s += fmt.Sprintf(" · ↑ %d more", first)
	}
	if last < n {
		s += fmt.Sprintf(" · ↓ %d more", n-last)
	}
	if n > 0 && p.all[p.shown[p.cursor]].reason != "" {
		if more := " · this one cannot act now"; ansi.StringWidth(s+more) <= width {
			s += more
		}
	}
	return s
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
