package forms

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"charm.land/huh/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"paydash/ui"
)

// field wraps a huh field to show its validation message right under it.
// huh v2's Input draws no error at all (the group would list them at the
// bottom of the page), so the forms switch the group's error list off and
// let every field carry its own. A field may also carry an outside error
// (ext): a refused paste, or a value that stopped being valid between
// typing and submitting (an expiry time that has passed); it counts as the
// field's error, so the page cannot be left, until the field is edited.
type field struct {
	huh.Field
	key   string
	ext   error
	width int
	style lipgloss.Style // the message's style
	hint  func() string  // when set, a line under the field while it has no error
	head  string         // when set, its section's heading, drawn above it (layout.go)
	hintS lipgloss.Style // the hint's style
}

// withHint shows hint() under the field while the field has no error.
func (w *field) withHint(hint func() string) *field {
	w.hint = hint
	return w
}

func (w *field) Update(msg tea.Msg) (huh.Model, tea.Cmd) {
	switch msg.(type) {
	case tea.KeyPressMsg, tea.PasteMsg:
		w.ext = nil
	}
	_, cmd := w.Field.Update(msg) // huh's fields are pointers: they update in place
	return w, cmd
}

func (w *field) Error() error {
	if err := w.Field.Error(); err != nil {
		return err
	}
	return w.ext
}

func (w *field) View() string {
	v := w.Field.View()
	if w.head != "" {
		v = ansi.Wrap(w.head, max(w.width, 1), "") + "\n" + v
	}
	err := w.Error()
	switch {
	case err != nil:
		// Indented by 2 to line up with the field's text (a bar and a space).
		return v + "\n" + w.style.Width(max(w.width, 4)).PaddingLeft(2).Render("✗ "+err.Error())
	case w.hint != nil:
		if h := w.hint(); h != "" {
			return v + "\n" + w.hintS.Width(max(w.width, 4)).PaddingLeft(2).Render(h)
		}
	}
	return v
}

func (w *field) WithTheme(t huh.Theme) huh.Field {
	w.Field.WithTheme(t)
	return w
}

func (w *field) WithKeyMap(k *huh.KeyMap) huh.Field {
	w.Field.WithKeyMap(k)
	return w
}

func (w *field) WithWidth(width int) huh.Field {
	w.width = width
	w.Field.WithWidth(width)
	return w
}

func (w *field) WithHeight(height int) huh.Field {
	w.Field.WithHeight(height)
	return w
}

func (w *field) WithPosition(p huh.FieldPosition) huh.Field {
	w.Field.WithPosition(p)
	return w
}

// keyMap is huh's default keys with the help worded for these forms, and
// the select's filter ("/", and esc to leave it) unbound: esc leaves the
// form, and a three-item select needs no filter.
func keyMap() *huh.KeyMap {
	km := huh.NewDefaultKeyMap()
	km.Input.Next.SetHelp("enter", "next")
	km.Input.Submit.SetHelp("enter", "review")
	km.Select.Next.SetHelp("enter", "next")
	km.Select.Submit.SetHelp("enter", "review")
	km.Select.Left.SetHelp("←/→", "choose")
	km.Select.Right.SetHelp("", "") // shown with Left
	km.Select.Filter = key.NewBinding()
	km.Select.SetFilter = key.NewBinding()
	km.Select.ClearFilter = key.NewBinding()
	km.Confirm.Next.SetHelp("enter", "next")
	km.Confirm.Submit.SetHelp("enter", "review")
	km.Confirm.Toggle.SetHelp("←/→", "choose")
	km.Note.Next.SetHelp("enter", "next")
	km.Note.Submit.SetHelp("enter", "review")
	return km
}

// huhTheme draws huh's fields with the dashboard's theme. With NoColor
// every style is the theme's plain one (bold and reverse at most), so no
// colour escapes appear: the focused field is marked by its bar and bold
// title, the chosen button by reverse video.
//
// The styles are made once: huh asks for them at every field's every
// View, only reads them, and the dashboard's theme decides light or dark
// (huh's guess, the argument, is not asked).
func huhTheme(t ui.Theme) huh.Theme {
	styles := huhStyles(t)
	return huh.ThemeFunc(func(bool) *huh.Styles { return styles })
}

// huhStyles are huhTheme's styles.
func huhStyles(t ui.Theme) *huh.Styles {
	s := huh.ThemeBase(t.Dark)
	plain := lipgloss.NewStyle()
	bar := plain.PaddingLeft(1).BorderStyle(lipgloss.ThickBorder()).BorderLeft(true)
	if !t.NoColor {
		bar = bar.BorderForeground(t.Accent.GetForeground())
	}
	button := func(st lipgloss.Style) lipgloss.Style { return st.Padding(0, 1).MarginRight(1) }

	s.Form.Base = plain
	s.Group.Base = plain
	s.Group.Title = t.Title
	s.Group.Description = t.Muted
	s.FieldSeparator = plain.SetString("\n\n")

	fo := &s.Focused
	fo.Base, fo.Card = bar, bar
	fo.Title = t.Accent
	fo.NoteTitle = t.Text
	fo.Description = t.Muted
	fo.ErrorIndicator = t.Danger.SetString(" *")
	fo.ErrorMessage = t.Danger
	fo.SelectSelector = t.Accent.SetString("> ")
	fo.Option = t.Text
	fo.SelectedOption = t.Text.Bold(true)
	fo.NextIndicator = t.Accent.MarginLeft(1).SetString("→")
	fo.PrevIndicator = t.Accent.MarginRight(1).SetString("←")
	fo.MultiSelectSelector = t.Accent.SetString("> ")
	fo.SelectedPrefix = t.Text.SetString("[x] ")
	fo.UnselectedPrefix = t.Text.SetString("[ ] ")
	fo.UnselectedOption = t.Text
	fo.FocusedButton = button(t.Selected)
	fo.BlurredButton = button(t.Text)
	fo.Next = fo.FocusedButton
	fo.TextInput = huh.TextInputStyles{
		Cursor: t.Accent, CursorText: t.Text, Placeholder: t.Muted, Prompt: t.Accent, Text: t.Text,
	}

	s.Blurred = s.Focused
	bl := &s.Blurred
	bl.Base = bar.BorderStyle(lipgloss.HiddenBorder())
	bl.Card = bl.Base
	bl.Title = t.Text
	bl.NextIndicator = plain
	bl.PrevIndicator = plain
	bl.SelectedOption = t.Text
	bl.FocusedButton = button(t.Accent)
	bl.TextInput.Prompt = t.Muted

	s.Help = helpStyles(t)
	return s
}
