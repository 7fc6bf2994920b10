package xmlview

import (
	"image/color"
	"reflect"

	"charm.land/lipgloss/v2"
)

// renderCacheSize bounds the drawn lines a Doc keeps: several screens'
// worth, so scrolling back and forth redraws little.
const renderCacheSize = 512

// renderKey is what a drawn line depends on, besides the styles.
type renderKey struct {
	line, width int
	matches     *Matches // nil when no match is on the line
	current     int      // which of the line's matches is current; -1 none
}

// renderCache keeps recently drawn lines in two generations: a lookup
// checks the recent one, then the older one (moving the entry up); when
// the recent one is full the older one is dropped. That bounds the cache
// at renderCacheSize entries with least-recently-used behaviour, at the
// price of a map swap now and then. It is not safe for concurrent use.
type renderCache struct {
	recent, older map[renderKey]string

	print  stylesPrint // what the entries were drawn with
	styles Styles      // the styles to draw with: seen, made inline
	ready  bool
}

// stylesFor returns the styles to draw with, dropping every entry when the
// caller's styles changed (a theme switch): lipgloss styles cannot be
// compared, so they are recognised by what a span uses of them. Reading
// them through lipgloss's getters costs a few microseconds, so Lines does
// it once for all the lines of a frame.
func (c *renderCache) stylesFor(st *Styles) *Styles {
	print := printStyles(st)
	if !c.ready || print != c.print {
		c.recent, c.older = nil, nil
		c.print, c.ready = print, true
		c.styles = inlineStyles(st)
	}
	return &c.styles
}

// ResetCache drops the drawn lines the Doc keeps. Render notices new colours
// and attributes by itself; call ResetCache after changing something it cannot
// compare, such as what a style's Transform function does.
func (d *Doc) ResetCache() { d.cache = renderCache{} }

func (c *renderCache) get(k renderKey) (string, bool) {
	if s, ok := c.recent[k]; ok {
		return s, true
	}
	s, ok := c.older[k]
	if ok {
		c.put(k, s)
	}
	return s, ok
}

func (c *renderCache) put(k renderKey, s string) {
	if c.recent == nil {
		c.recent = make(map[renderKey]string, renderCacheSize/2)
	}
	if len(c.recent) >= renderCacheSize/2 {
		c.older, c.recent = c.recent, make(map[renderKey]string, renderCacheSize/2)
	}
	c.recent[k] = s
}

// inlineStyles keeps of each style what suits a span inside a line: a
// width, padding, margin or border in a theme would wrap or pad every
// token, and a string set on a style would be drawn before each of them.
func inlineStyles(st *Styles) Styles {
	out := *st
	for _, s := range out.all() {
		*s = s.Inline(true).UnsetString().
			UnsetWidth().UnsetHeight().UnsetMaxWidth().UnsetMaxHeight().UnsetAlign().
			UnsetPadding().UnsetMargins().
			UnsetBorderStyle().UnsetBorderTop().UnsetBorderRight().UnsetBorderBottom().UnsetBorderLeft()
	}
	return out
}

func (st *Styles) all() []*lipgloss.Style {
	return []*lipgloss.Style{
		&st.Tag, &st.Name, &st.AttrName, &st.AttrValue, &st.Text, &st.Comment,
		&st.Punct, &st.Entity, &st.Error, &st.Match, &st.Current,
	}
}

// stylePrint is what an inline span uses of a style, in comparable form.
type stylePrint struct {
	attrs                   uint8
	underline               lipgloss.Underline
	fg, bg, underlineColour colourPrint
	link, linkParams        string
	transform               uintptr
}

type stylesPrint [11]stylePrint

type colourPrint struct {
	set        bool
	r, g, b, a uint32
}

func printStyles(st *Styles) (p stylesPrint) {
	for k, s := range st.all() {
		p[k] = printStyle(s)
	}
	return p
}

func printStyle(s *lipgloss.Style) stylePrint {
	var attrs uint8
	for bit, on := range []bool{s.GetBold(), s.GetItalic(), s.GetFaint(), s.GetBlink(), s.GetReverse(),
		s.GetStrikethrough(), s.GetUnderlineSpaces(), s.GetStrikethroughSpaces()} {
		if on {
			attrs |= 1 << bit
		}
	}
	link, params := s.GetHyperlink()
	p := stylePrint{
		attrs:           attrs,
		underline:       s.GetUnderlineStyle(),
		fg:              printColour(s.GetForeground()),
		bg:              printColour(s.GetBackground()),
		underlineColour: printColour(s.GetUnderlineColor()),
		link:            link,
		linkParams:      params,
	}
	if f := s.GetTransform(); f != nil {
		p.transform = reflect.ValueOf(f).Pointer()
	}
	return p
}

func printColour(c color.Color) colourPrint {
	if c == nil {
		return colourPrint{}
	}
	r, g, b, a := c.RGBA()
	return colourPrint{set: true, r: r, g: g, b: b, a: a}
}
