package ui

// The dialogs' one-line text fields.

import (
	"charm.land/bubbles/v2/textinput"
	"charm.land/lipgloss/v2"
)

// newInput is a one-line text input in the theme, with a steady cursor (a
// blinking one would keep a timer running while the dialog is open).
func newInput(th Theme, placeholder string, limit int) textinput.Model {
	in := textinput.New()
	in.Prompt = ""
	in.Placeholder = placeholder
	in.CharLimit = limit
	st := textinput.DefaultStyles(th.Dark)
	if th.NoColor {
		plain := lipgloss.NewStyle()
		st.Focused = textinput.StyleState{Text: plain, Placeholder: plain, Suggestion: plain, Prompt: plain}
		st.Blurred = st.Focused
		st.Cursor.Color = nil
	}
	st.Cursor.Blink = false
	in.SetStyles(st)
	return in
}

// untyped leaves out the keys that type text (they go into a focused field).
func untyped(ks []string) []string {
	var out []string
	for _, k := range ks {
		if len([]rune(k)) > 1 {
			out = append(out, k)
		}
	}
	return out
}
