package ui

import (
	"strings"

	tea "charm.land/bubbletea/v2"

	"paydash/backend/textsafe"
)

// Copy sends value to the terminal's clipboard and tells the shell so
// (CopiedMsg). paydash cannot know whether the terminal took it: OSC 52 is
// a request the terminal may ignore, and tmux drops it unless its
// set-clipboard option is on. The words say what was done, not "copied".
func Copy(what, value string) tea.Cmd {
	return tea.Batch(tea.SetClipboard(value), func() tea.Msg { return CopiedMsg{What: what, Value: value} })
}

// tmuxClipboardHint is how to let a copy through tmux.
const tmuxClipboardHint = "in tmux, set -g set-clipboard on passes it on"

// CopiedText is the toast of m: "Order number sent to the terminal's
// clipboard: ORD-1", and inside tmux how to let it through.
func CopiedText(m CopiedMsg, inTmux bool) string {
	value := textsafe.Line(m.Value, 120)
	s := value + " sent to the terminal's clipboard"
	if m.What != "" {
		s = upperFirst(m.What) + " sent to the terminal's clipboard: " + value
	}
	if inTmux {
		s += " (" + tmuxClipboardHint + ")"
	}
	return s
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
