package ui

import (
	"strings"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"

	"paydash/backend/textsafe"
)

// What a person types or pastes is cleaned once, here, before any text
// input sees it, exactly as text from a server is (textsafe.Clean): an
// escape sequence, a control character or a bidi override pasted into a
// prompt, a form or the amount field would otherwise be drawn raw by the
// input, and could reorder or hide what the screen shows. Every input of
// the dashboard gets its keys and pastes through the shell, so no input
// has to remember to do it.

// cleanKey is a key press with its text cleaned. A press whose text was
// only invisible characters keeps its place in the order of keys (a dialog
// still counts it) but types nothing and matches no binding.
func cleanKey(k tea.KeyPressMsg) tea.KeyPressMsg {
	if k.Text == "" {
		return k
	}
	text := textsafe.Clean(k.Text)
	switch {
	case text == k.Text:
		return k
	case text == "":
		return tea.KeyPressMsg{Code: utf8.RuneError, Mod: k.Mod}
	}
	k.Text = text
	if r, _ := utf8.DecodeRuneInString(text); utf8.RuneCountInString(text) == 1 {
		k.Code = r
	}
	return k
}

// cleanPaste is pasted text cleaned. The line break that ends a line
// copied from a terminal or a spreadsheet is dropped first, so that it
// does not become a trailing space; breaks inside become spaces.
func cleanPaste(p tea.PasteMsg) tea.PasteMsg {
	return tea.PasteMsg{Content: textsafe.Clean(strings.Trim(p.Content, "\r\n"))}
}

// cleanInput is msg with what a person typed or pasted cleaned (cleanKey,
// cleanPaste); any other message as it is.
func cleanInput(msg tea.Msg) tea.Msg {
	switch m := msg.(type) {
	case tea.KeyPressMsg:
		return cleanKey(m)
	case tea.PasteMsg:
		return cleanPaste(m)
	}
	return msg
}
