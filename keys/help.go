package keys

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// HelpStyles styles the help. A binding that cannot act now is drawn with
// the Disabled styles and its key in brackets ("[R] refund"), so it reads
// as disabled with colours stripped (NO_COLOR) too.
type HelpStyles struct {
	Key, Desc                 lipgloss.Style // a binding that can act now
	DisabledKey, DisabledDesc lipgloss.Style // a binding that cannot act now
	Reason                    lipgloss.Style // why not, under it in the full help
	Title                     lipgloss.Style // a column title in the full help
	Separator                 lipgloss.Style // " • " in the one-line help
	Ellipsis                  lipgloss.Style // "…" where help was cut
}

// DefaultHelpStyles returns the help styles for a dark or light terminal
// background (tea.BackgroundColorMsg.IsDark).
func DefaultHelpStyles(isDark bool) HelpStyles {
	ld := lipgloss.LightDark(isDark)
	keyColor := ld(lipgloss.Color("#303030"), lipgloss.Color("#D0D0D0"))
	descColor := ld(lipgloss.Color("#606060"), lipgloss.Color("#9A9A9A"))
	offColor := ld(lipgloss.Color("#B4B4B4"), lipgloss.Color("#585858"))
	reasonColor := ld(lipgloss.Color("#8A6D00"), lipgloss.Color("#B8A060"))
	sepColor := ld(lipgloss.Color("#C8C8C8"), lipgloss.Color("#4A4A4A"))
	return HelpStyles{
		Key:          lipgloss.NewStyle().Foreground(keyColor).Bold(true),
		Desc:         lipgloss.NewStyle().Foreground(descColor),
		DisabledKey:  lipgloss.NewStyle().Foreground(offColor).Faint(true),
		DisabledDesc: lipgloss.NewStyle().Foreground(offColor).Faint(true),
		Reason:       lipgloss.NewStyle().Foreground(reasonColor).Italic(true),
		Title:        lipgloss.NewStyle().Foreground(keyColor).Bold(true),
		Separator:    lipgloss.NewStyle().Foreground(sepColor),
		Ellipsis:     lipgloss.NewStyle().Foreground(sepColor),
	}
}

// PlainHelpStyles draws the help without any styling, as with NO_COLOR.
func PlainHelpStyles() HelpStyles { return HelpStyles{} }

const (
	shortSeparator = " • "
	ellipsis       = "…"
	columnGap      = 3
	minColumnGap   = 2
	// minReasonWidth is the narrowest a reason is wrapped to under a
	// binding, even when the column's descriptions are narrower.
	minReasonWidth = 24
	legend         = "[key]: cannot act now (reason below)"
)

// helpItem is one binding as the help shows it in a context.
type helpItem struct {
	label, desc string
	disabled    bool
	reason      string
}

// helpItem builds the item for an action in ctx; ok is false when the help
// leaves it out (not live, unbound, disabled by the app, or hidden by avail).
func (m *Map) helpItem(name Action, ctx Context, avail Availability) (helpItem, bool) {
	s, found := specByName[name]
	if !found || !ctx.Live(name) {
		return helpItem{}, false
	}
	b := m.field(name)
	if !b.Enabled() {
		return helpItem{}, false
	}
	keys := ctx.effectiveKeys(b.Keys())
	if len(keys) == 0 {
		return helpItem{}, false
	}
	ok, reason := avail.check(name)
	if !ok && reason == "" {
		return helpItem{}, false
	}
	desc := b.Help().Desc
	if desc == "" {
		desc = s.desc
	}
	if d, over := ctx.spec().desc[name]; over {
		desc = d
	}
	return helpItem{label: Label(keys), desc: sanitize(desc), disabled: !ok, reason: sanitize(reason)}, true
}

func (it helpItem) keyText() string {
	if it.disabled {
		return "[" + it.label + "]"
	}
	return it.label
}

// styles picks the item's styles from inline styles.
func (it helpItem) styles(st *inks) (k, d ink) {
	if it.disabled {
		return st.disabledKey(), st.disabledDesc()
	}
	return st.key(), st.desc()
}

// ShortHelp is the one-line help of ctx: the most important bindings first,
// cut with "…" to width (0: no limit), never wrapping. Where "?" works it
// stays at the end of the line. Bindings avail says cannot act now are
// dimmed and their key is bracketed.
func ShortHelp(m Map, ctx Context, avail Availability, width int, styles HelpStyles) string {
	st := inlineStyles(styles)
	type part struct {
		s string
		w int
	}
	render := func(it helpItem) part {
		ks, ds := st.key(), st.desc()
		if it.disabled {
			ks, ds = st.disabledKey(), st.disabledDesc()
		}
		s := ks.Render(it.keyText()) + " " + ds.Render(it.desc)
		if ks.slow || ds.slow {
			return part{s, lipgloss.Width(s)}
		}
		return part{s, ansi.StringWidth(it.keyText()) + 1 + ansi.StringWidth(it.desc)}
	}
	var parts []part
	for _, name := range ctx.spec().short {
		if it, ok := m.helpItem(name, ctx, avail); ok {
			parts = append(parts, render(it))
		}
	}
	var pinned []part
	if ctx.spec().pinHelp {
		if it, ok := m.helpItem(ActHelp, ctx, avail); ok {
			pinned = append(pinned, render(it))
		}
	}
	sep := st.separator().Render(shortSeparator)
	sepW := lipgloss.Width(sep)
	join := func(groups ...[]part) string {
		var b strings.Builder
		n := 0
		for _, g := range groups {
			for _, p := range g {
				if n > 0 {
					b.WriteString(sep)
				}
				b.WriteString(p.s)
				n++
			}
		}
		return b.String()
	}
	// widthOf is the width of the joined parts.
	widthOf := func(groups ...[]part) int {
		w, n := 0, 0
		for _, g := range groups {
			for _, p := range g {
				w += p.w
				n++
			}
		}
		return w + max(n-1, 0)*sepW
	}

	if width <= 0 || widthOf(parts, pinned) <= width {
		return join(parts, pinned)
	}
	ellS := st.ellipsis().Render(ellipsis)
	ell := []part{{ellS, lipgloss.Width(ellS)}}
	for k := len(parts) - 1; k >= 0; k-- {
		if widthOf(parts[:k], ell, pinned) <= width {
			return join(parts[:k], ell, pinned)
		}
	}
	return ansi.Truncate(join(parts, pinned), width, ellipsis)
}

// ink applies one style to single-line text. Rendering through lipgloss
// costs microseconds per call, and the help is drawn on every frame, so a
// style is rendered once around a marker and its escape sequences reused.
type ink struct {
	pre, post string
	style     lipgloss.Style
	slow      bool // the style changes more than colours and attributes
}

const inkMarker = "\uE000" // a private-use character no help text contains

func newInk(st lipgloss.Style) ink {
	st = st.Inline(true)
	r := st.Render(inkMarker)
	i := strings.Index(r, inkMarker)
	if i < 0 || strings.Count(r, inkMarker) != 1 || ansi.StringWidth(ansi.Strip(r)) != ansi.StringWidth(inkMarker) {
		return ink{style: st, slow: true}
	}
	return ink{pre: r[:i], post: r[i+len(inkMarker):]}
}

// Render styles s.
func (k ink) Render(s string) string {
	if k.slow {
		return k.style.Render(s)
	}
	if s == "" {
		return ""
	}
	return k.pre + s + k.post
}

// inks are HelpStyles ready to draw with, each made on first use.
type inks struct {
	src  *HelpStyles
	memo [8]*ink
}

func inlineStyles(st HelpStyles) *inks { return &inks{src: &st} }

func (k *inks) get(i int, st lipgloss.Style) ink {
	if k.memo[i] == nil {
		in := newInk(st)
		k.memo[i] = &in
	}
	return *k.memo[i]
}

func (k *inks) key() ink          { return k.get(0, k.src.Key) }
func (k *inks) desc() ink         { return k.get(1, k.src.Desc) }
func (k *inks) disabledKey() ink  { return k.get(2, k.src.DisabledKey) }
func (k *inks) disabledDesc() ink { return k.get(3, k.src.DisabledDesc) }
func (k *inks) reason() ink       { return k.get(4, k.src.Reason) }
func (k *inks) title() ink        { return k.get(5, k.src.Title) }
func (k *inks) separator() ink    { return k.get(6, k.src.Separator) }
func (k *inks) ellipsis() ink     { return k.get(7, k.src.Ellipsis) }

// helpColumn is one group of the full help.
type helpColumn struct {
	title string
	items []helpItem
}

// columns returns the full help's groups for ctx, in the order Navigation,
// Actions, Global, Modal, leaving out empty ones.
func (m *Map) columns(ctx Context, avail Availability) []helpColumn {
	var cols []helpColumn
	for _, g := range []Group{GroupNavigation, GroupActions, GroupGlobal, GroupModal} {
		col := helpColumn{title: g.String()}
		folded := false
		for _, name := range ctx.live() {
			if specByName[name].group != g {
				continue
			}
			switch name {
			case ActTab1:
				if it, ok := m.tabsItem(ctx, avail); ok {
					col.items = append(col.items, it)
					folded = true
					continue
				}
			case ActTab2, ActTab3, ActTab4, ActTab5:
				if folded {
					continue
				}
			}
			if it, ok := m.helpItem(name, ctx, avail); ok {
				col.items = append(col.items, it)
			}
		}
		if len(col.items) > 0 {
			cols = append(cols, col)
		}
	}
	return cols
}

// tabsItem folds tab_1..tab_5 into one line ("1-5 go to tab")
// when each has a single key, the keys are consecutive characters and all
// five are equally available.
func (m *Map) tabsItem(ctx Context, avail Availability) (helpItem, bool) {
	names := []Action{ActTab1, ActTab2, ActTab3, ActTab4, ActTab5}
	var first helpItem
	var runes []rune
	for i, name := range names {
		it, ok := m.helpItem(name, ctx, avail)
		if !ok {
			return helpItem{}, false
		}
		keys := ctx.effectiveKeys(m.field(name).Keys())
		if len(keys) != 1 || utf8.RuneCountInString(keys[0]) != 1 {
			return helpItem{}, false
		}
		r := []rune(keys[0])
		if i == 0 {
			first = it
		} else if r[0] != runes[i-1]+1 || it.disabled != first.disabled || it.reason != first.reason {
			return helpItem{}, false
		}
		runes = append(runes, r[0])
	}
	return helpItem{
		label:    fmt.Sprintf("%c-%c", runes[0], runes[len(runes)-1]),
		desc:     "go to tab",
		disabled: first.disabled,
		reason:   first.reason,
	}, true
}

// renderColumn draws a column: its title, then "key  description" lines,
// each disabled one followed by its reason, wrapped, under the description.
// extra widens the reasons beyond their usual width, to use a band's spare room.
func renderColumn(col helpColumn, width, extra int, st *inks) (lines []string, colWidth int) {
	keyW, descW := 0, 0
	for _, it := range col.items {
		keyW = max(keyW, ansi.StringWidth(it.keyText()))
		descW = max(descW, ansi.StringWidth(it.desc))
	}
	reasonW := max(descW, minReasonWidth) + extra
	if width > 0 {
		reasonW = min(reasonW, max(width-keyW-2, 8))
	}
	indent := strings.Repeat(" ", keyW+2)

	add := func(s string) {
		lines = append(lines, s)
		colWidth = max(colWidth, lipgloss.Width(s))
	}
	add(st.title().Render(col.title))
	for _, it := range col.items {
		ks, ds := it.styles(st)
		pad := strings.Repeat(" ", keyW-ansi.StringWidth(it.keyText())+2)
		add(ks.Render(it.keyText()) + pad + ds.Render(it.desc))
		if it.disabled && it.reason != "" {
			for _, l := range strings.Split(ansi.Wrap(it.reason, reasonW, ""), "\n") {
				add(indent + st.reason().Render(strings.TrimSpace(l)))
			}
		}
	}
	return lines, colWidth
}

// FullHelp is the "?" overlay for ctx: one column per group (Navigation,
// Actions, Global, Modal) side by side as far as width allows, the rest
// below. A binding that cannot act now is dimmed, bracketed and followed by
// its reason. No line is wider than width; with more lines than height
// (0: no limit) the last line says how many were left out.
func FullHelp(m Map, ctx Context, avail Availability, width, height int, styles HelpStyles) string {
	st := inlineStyles(styles)
	cols, anyDisabled := m.drawColumns(ctx, avail, width, st)
	bands, gap := packBands(cols, width)
	if width > 0 {
		for _, b := range bands {
			widenReasons(b, width, gap, st)
		}
	}
	out := joinBands(bands, gap)
	if anyDisabled {
		out = append(out, "", st.desc().Render(legend))
	}
	return strings.Join(fitHelp(out, width, height, st), "\n")
}

// drawnColumn is a column of the full help, drawn.
type drawnColumn struct {
	lines   []string
	width   int
	src     helpColumn
	reasons bool // some line of it is a reason, which wraps
}

// drawColumns draws the full help's columns for ctx; anyDisabled says
// whether some binding cannot act now (the help then ends with a legend).
func (m *Map) drawColumns(ctx Context, avail Availability, width int, st *inks) (cols []drawnColumn, anyDisabled bool) {
	for _, c := range m.columns(ctx, avail) {
		reasons := false
		for _, it := range c.items {
			anyDisabled = anyDisabled || it.disabled
			reasons = reasons || (it.disabled && it.reason != "")
		}
		lines, w := renderColumn(c, width, 0, st)
		cols = append(cols, drawnColumn{lines, w, c, reasons})
	}
	return cols, anyDisabled
}

// packBands puts columns side by side while they fit in width, the rest in
// bands below, gap cells apart; a narrower gap is used when it saves a band.
func packBands(cols []drawnColumn, width int) (bands [][]drawnColumn, gap int) {
	pack := func(gap int) [][]drawnColumn {
		var bands [][]drawnColumn
		var band []drawnColumn
		bandW := 0
		for _, c := range cols {
			if len(band) > 0 && width > 0 && bandW+gap+c.width > width {
				bands = append(bands, band)
				band, bandW = nil, 0
			}
			if len(band) > 0 {
				bandW += gap
			}
			band = append(band, c)
			bandW += c.width
		}
		if len(band) > 0 {
			bands = append(bands, band)
		}
		return bands
	}
	gap, bands = columnGap, pack(columnGap)
	if narrow := pack(minColumnGap); len(narrow) < len(bands) {
		gap, bands = minColumnGap, narrow
	}
	return bands, gap
}

// widenReasons gives the spare room of a band narrower than the window to
// its last column with reasons, so they wrap onto fewer lines (at 80
// columns the help would otherwise run past the bottom of the screen).
func widenReasons(band []drawnColumn, width, gap int, st *inks) {
	used := gap * (len(band) - 1)
	for _, c := range band {
		used += c.width
	}
	for i := len(band) - 1; i >= 0; i-- {
		if band[i].reasons && width > used {
			lines, w := renderColumn(band[i].src, width, width-used, st)
			if w <= band[i].width+width-used {
				band[i].lines, band[i].width = lines, w
			}
			return
		}
	}
}

// joinBands lays each band's columns side by side, a blank line between
// bands.
func joinBands(bands [][]drawnColumn, gap int) []string {
	var out []string
	for bi, b := range bands {
		if bi > 0 {
			out = append(out, "")
		}
		n := 0
		for _, c := range b {
			n = max(n, len(c.lines))
		}
		for i := range n {
			var sb strings.Builder
			for j, c := range b {
				cell := ""
				if i < len(c.lines) {
					cell = c.lines[i]
				}
				sb.WriteString(cell)
				if j < len(b)-1 {
					sb.WriteString(strings.Repeat(" ", c.width-lipgloss.Width(cell)+gap))
				}
			}
			out = append(out, strings.TrimRight(sb.String(), " "))
		}
	}
	return out
}

// fitHelp keeps the help's lines within height (0: no limit), its last
// line then saying how many were left out, and cuts each to width.
func fitHelp(out []string, width, height int, st *inks) []string {
	if height > 0 && len(out) > height {
		hidden := len(out) - (height - 1)
		more := st.ellipsis().Render(
			fmt.Sprintf("%s %d more lines: make the window taller", ellipsis, hidden))
		out = append(out[:height-1], more)
	}
	if width > 0 {
		for i, l := range out {
			if lipgloss.Width(l) > width {
				out[i] = ansi.Truncate(l, width, ellipsis)
			}
		}
	}
	return out
}

// sanitize keeps control characters (escape sequences, newlines) of a
// reason, which may quote the service, or a description away from the
// terminal and the layout.
func sanitize(s string) string {
	if !strings.ContainsFunc(s, isUnsafe) {
		return s
	}
	return strings.Map(func(r rune) rune {
		if isUnsafe(r) {
			return ' '
		}
		return r
	}, s)
}

func isUnsafe(r rune) bool { return unicode.IsControl(r) || r == '\u2028' || r == '\u2029' }

// KeyMap adapts the bindings live in ctx to bubbles' help.KeyMap, for
// components that take one. It cannot show disabled reasons: use ShortHelp
// and FullHelp for paydash's own help.
func (m Map) KeyMap(ctx Context) help.KeyMap { return contextKeyMap{m, ctx} }

type contextKeyMap struct {
	m   Map
	ctx Context
}

func (k contextKeyMap) binding(name Action) key.Binding {
	b, _ := k.m.Binding(name)
	return b
}

func (k contextKeyMap) ShortHelp() []key.Binding {
	var out []key.Binding
	for _, name := range k.ctx.spec().short {
		out = append(out, k.binding(name))
	}
	if k.ctx.spec().pinHelp {
		out = append(out, k.binding(ActHelp))
	}
	return out
}

func (k contextKeyMap) FullHelp() [][]key.Binding {
	var cols [][]key.Binding
	for _, g := range []Group{GroupNavigation, GroupActions, GroupGlobal, GroupModal} {
		var col []key.Binding
		for _, name := range k.ctx.live() {
			if specByName[name].group == g {
				col = append(col, k.binding(name))
			}
		}
		if len(col) > 0 {
			cols = append(cols, col)
		}
	}
	return cols
}
