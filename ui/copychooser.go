package ui

import (
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"paydash/backend/textsafe"
	"paydash/keys"
)

// CopyField is one thing the copy chooser ("Y") offers to copy.
type CopyField struct {
	// Key is the letter that copies it at once ("o"). A letter the
	// chooser's own keys use (the movement keys, such as j and k) or an
	// earlier field has is left out: the field is then chosen by the arrows.
	Key string
	// Label says what it is, in lower case: "order number".
	Label string
	// Value is the text copied. It is cleaned first (escape sequences
	// removed, control characters and line breaks turned into spaces, no
	// spaces around it): what is pasted is what the chooser showed. A field
	// whose cleaned value is empty is not offered.
	Value string
}

// CopyFields keeps the fields that have something to copy, cleaned; the
// chooser offers these, and a tab with none left says so instead of
// opening it.
func CopyFields(fields []CopyField) []CopyField {
	out := make([]CopyField, 0, len(fields))
	for _, f := range fields {
		f.Value = strings.TrimSpace(textsafe.Clean(f.Value))
		f.Label = textsafe.Line(f.Label, 60)
		if f.Value != "" {
			out = append(out, f)
		}
	}
	return out
}

// copyChooser is the "Y" dialog: the fields of the selected object, each
// with its value; a field's letter, or the arrows and enter, copy it to the
// clipboard (tea.SetClipboard, OSC 52) and close the dialog with a toast
// saying what was copied; esc cancels.
type copyChooser struct {
	km     keys.Map
	th     Theme
	title  string
	fields []CopyField
	keys   []string // per field: its letter, "" when it has none
	list   chooserList
	labelW int
}

// NewCopyChooser makes the copy chooser titled title ("Copy from payment
// 43149010") over the fields that have a value (see CopyFields). Open it
// with OpenDialogMsg; what it copies it copies itself, as it closes.
func NewCopyChooser(title string, fields []CopyField, km keys.Map, th Theme) Modal {
	c := &copyChooser{km: km, th: th, title: textsafe.Line(title, 120), fields: CopyFields(fields)}
	c.list = chooserList{current: -1}
	taken := map[string]bool{}
	for _, b := range []keys.Action{keys.ActUp, keys.ActDown, keys.ActPageUp, keys.ActPageDown, keys.ActTop,
		keys.ActBottom, keys.ActOpen, keys.ActClose} {
		if bd, ok := km.Binding(b); ok {
			for _, k := range bd.Keys() {
				taken[k] = true
			}
		}
	}
	for _, f := range c.fields {
		k := f.Key
		if len([]rune(k)) != 1 || taken[k] {
			k = ""
		}
		taken[k] = true
		c.keys = append(c.keys, k)
		c.labelW = max(c.labelW, ansi.StringWidth(f.Label))
	}
	for i, f := range c.fields {
		key := c.keys[i]
		if key == "" {
			key = " "
		}
		label := f.Label + strings.Repeat(" ", c.labelW-ansi.StringWidth(f.Label))
		c.list.items = append(c.list.items, key+"  "+label+"  "+f.Value)
	}
	return c
}

func (c *copyChooser) Context() keys.Context { return keys.ContextModal }

func (c *copyChooser) helpLine(width int) string {
	var letters []string
	for _, k := range c.keys {
		if k != "" {
			letters = append(letters, k)
		}
	}
	items := [][2]string{}
	if len(letters) > 0 {
		items = append(items, [2]string{strings.Join(letters, "/"), "copy"})
	}
	items = append(items,
		[2]string{keys.Label(c.km.List.Up.Keys()) + "/" + keys.Label(c.km.List.Down.Keys()), "choose"},
		[2]string{keys.Label(c.km.List.Open.Keys()), "copy"},
		[2]string{keys.Label(c.km.List.Close.Keys()), "cancel"},
		[2]string{"ctrl+c", "quit"})
	return helpLine(c.th, width, items...)
}

func (c *copyChooser) Update(msg tea.Msg, _ time.Time) (Modal, tea.Cmd, bool) {
	press, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return c, nil, false
	}
	if len(c.fields) == 0 {
		return c, nil, true
	}
	if s := press.String(); s != "" {
		for i, k := range c.keys {
			if k != "" && k == s {
				return c, c.copy(i), true
			}
		}
	}
	action, _, _ := c.km.Lookup(press, keys.ContextList)
	if c.list.move(action) {
		return c, nil, false
	}
	switch action {
	case keys.ActClose:
		return c, nil, true
	case keys.ActOpen:
		return c, c.copy(c.list.cursor), true
	}
	return c, nil, false
}

// copy puts field i on the clipboard and says so.
func (c *copyChooser) copy(i int) tea.Cmd {
	f := c.fields[i]
	return Copy(f.Label, f.Value)
}

func (c *copyChooser) View(maxWidth, maxHeight int) string {
	th := c.th
	inner := max(min(maxWidth-boxFrame, 76), 10)
	lines := []string{th.Title.Render(c.title), ""}
	if len(c.fields) == 0 {
		lines = append(lines, th.Muted.Render("nothing to copy"))
	}
	lines = append(lines, c.list.lines(th, inner, maxHeight-4)...)
	w := 0
	for _, l := range lines {
		w = max(w, ansi.StringWidth(l))
	}
	for i, l := range lines {
		lines[i] = fitTail(l, min(max(w, 30), inner))
	}
	return box(th, lines)
}
