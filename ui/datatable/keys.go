package datatable

import "charm.land/bubbles/v2/key"

// KeyMap holds the widget's key bindings. It is exported so the app's keymap
// can replace the keys (or disable a binding) before the first key press:
//
//	m.KeyMap.Down.SetKeys("down", "ctrl+n")
//
// KeyMap implements bubbles' help.KeyMap.
type KeyMap struct {
	Up, Down         key.Binding
	PageUp, PageDown key.Binding
	Top, Bottom      key.Binding
}

// DefaultKeyMap is paydash's default (README.md, Using paydash): j/k/arrows,
// pgup/pgdown, g/G (home/end).
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Up:       key.NewBinding(key.WithKeys("up", "k"), key.WithHelp("↑/k", "up")),
		Down:     key.NewBinding(key.WithKeys("down", "j"), key.WithHelp("↓/j", "down")),
		PageUp:   key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "page up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdn", "page down")),
		Top:      key.NewBinding(key.WithKeys("g", "home"), key.WithHelp("g/home", "first row")),
		Bottom:   key.NewBinding(key.WithKeys("G", "end"), key.WithHelp("G/end", "last loaded row")),
	}
}

// ShortHelp implements help.KeyMap.
func (k KeyMap) ShortHelp() []key.Binding { return []key.Binding{k.Up, k.Down} }

// FullHelp implements help.KeyMap.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{{k.Up, k.Down}, {k.PageUp, k.PageDown}, {k.Top, k.Bottom}}
}

// matches is key.Matches for an already computed key string, so one key
// press is turned into a string once rather than once per binding.
func matches(s string, b key.Binding) bool {
	if !b.Enabled() {
		return false
	}
	for _, k := range b.Keys() {
		if k == s {
			return true
		}
	}
	return false
}
