package tab

import (
	tea "charm.land/bubbletea/v2"

	"paydash/keys"
	"paydash/ui"
)

// KeyAction is one key of a tab, declared as a record in the tab's table
// (in the manner of lazygit's keybindings): what it is, when it works and
// why not, and what it does.
type KeyAction struct {
	Key keys.Action
	// When says whether the key acts now, and if not, why: the help
	// greys it out with the reason, and pressing it shows the reason.
	// nil: whenever the tab is shown.
	When func() (ok bool, why string)
	// Run is what the key does, for a key the tab handles itself; nil
	// for the keys the shared routing does (moves, filter, sort, open,
	// copy the id: KeyRoute) and for actions (Start).
	Run func() tea.Cmd
	// Start begins an action behind the shell's preparing dialog
	// (ui.ActionMsg brings its ticket). When is asked again first: the
	// selection may have changed since the key was pressed.
	Start func(ticket int) tea.Cmd
	// Target names what Start acts on, for the preparing dialog's title
	// ("Capture payment 7000123"); nil or "": the key's own words.
	Target func() string
}

// KeyTable is a tab's keys: the one place that says whether a key works
// on the tab. The shell asks it (through Tab.Available) for a key press,
// for the help and for the palette alike, so they cannot disagree. A key
// the table does not name does not exist on the tab: it is unavailable
// with no reason, and the help and the palette leave it out.
type KeyTable []KeyAction

// lookup is the record of key a, if the table names it.
func (kt KeyTable) lookup(a keys.Action) (KeyAction, bool) {
	for _, k := range kt {
		if k.Key == a {
			return k, true
		}
	}
	return KeyAction{}, false
}

// Available implements ui.Tab's Available for the table's tab.
func (kt KeyTable) Available(a keys.Action) (bool, string) {
	k, ok := kt.lookup(a)
	switch {
	case !ok:
		return false, ""
	case k.When == nil:
		return true, ""
	}
	return k.When()
}

// Run does what key a does on the tab, if the tab handles it itself
// (ok: the table has a Run for it).
func (kt KeyTable) Run(a keys.Action) (cmd tea.Cmd, ok bool) {
	k, found := kt.lookup(a)
	if !found || k.Run == nil {
		return nil, false
	}
	if ok, _ := kt.Available(a); !ok {
		return nil, true
	}
	return k.Run(), true
}

// Start begins action a for the shell's ticket, or refuses it with the
// reason it cannot act now.
func (kt KeyTable) Start(a keys.Action, ticket int) tea.Cmd {
	k, found := kt.lookup(a)
	if !found || k.Start == nil {
		return RefusedCmd(ticket, ui.ToastWarning, "this key does nothing here")
	}
	if ok, why := kt.Available(a); !ok {
		return RefusedCmd(ticket, ui.ToastWarning, why)
	}
	return k.Start(ticket)
}

// Target names what action a would act on now, "" when not known.
func (kt KeyTable) Target(a keys.Action) string {
	k, found := kt.lookup(a)
	if !found || k.Target == nil {
		return ""
	}
	return k.Target()
}

// Gate makes every record but the ones named in open unavailable, with
// the reason why() gives, while it gives one: a tab whose interface is not
// configured refuses them all with one sentence.
func (kt KeyTable) Gate(why func() string, open ...keys.Action) KeyTable {
	out := make(KeyTable, len(kt))
	for i, k := range kt {
		out[i] = k
		if isOneOf(k.Key, open) {
			continue
		}
		when := k.When
		out[i].When = func() (bool, string) {
			if reason := why(); reason != "" {
				return false, reason
			}
			if when == nil {
				return true, ""
			}
			return when()
		}
	}
	return out
}

// Without is the table less the records of the keys named: a tab that
// has no raw view or no fields to copy leaves those keys out, so that the
// help does not offer them.
func (kt KeyTable) Without(gone ...keys.Action) KeyTable {
	out := make(KeyTable, 0, len(kt))
	for _, k := range kt {
		if !isOneOf(k.Key, gone) {
			out = append(out, k)
		}
	}
	return out
}

// Unguarded are the keys a list tab keeps when it has nothing to show
// (its interface is not configured): moving, searching and esc, and r,
// which then does nothing. Gate leaves them open.
var Unguarded = []keys.Action{keys.ActUp, keys.ActDown, keys.ActPageUp, keys.ActPageDown,
	keys.ActTop, keys.ActBottom, keys.ActClose, keys.ActFilter, keys.ActRefresh}

func isOneOf(a keys.Action, set []keys.Action) bool {
	for _, b := range set {
		if a == b {
			return true
		}
	}
	return false
}

// Need is a When: the key works while ok() holds, else not, for why.
func Need(ok func() bool, why string) func() (bool, string) {
	return func() (bool, string) {
		if ok() {
			return true, ""
		}
		return false, why
	}
}
