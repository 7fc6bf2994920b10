package keys

import (
	"testing"

	tea "charm.land/bubbletea/v2"
)

func BenchmarkFullHelp(b *testing.B) {
	m := Default()
	st := DefaultHelpStyles(true)
	for b.Loop() {
		FullHelp(m, ContextList, paymentsTab, 80, 40, st)
	}
}

func BenchmarkShortHelp(b *testing.B) {
	m := Default()
	st := DefaultHelpStyles(true)
	for b.Loop() {
		ShortHelp(m, ContextList, paymentsTab, 80, st)
	}
}

func BenchmarkLookup(b *testing.B) {
	m := Default()
	msg := tea.KeyPressMsg{Code: 'q', Text: "q"}
	for b.Loop() {
		m.Lookup(msg, ContextList)
	}
}
