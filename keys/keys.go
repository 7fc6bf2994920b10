// Package keys is paydash's one keymap: every key binding of the app, the
// help generated from it (a one-line bar and the full "?" overlay), the
// translation of a key press into an action name, and the user's remapping
// from the config file's [keys] table.
//
// Bindings are grouped by where they work (Global, List, Actions, Modal);
// a Context says which of them are live at a given moment. A binding that
// cannot act right now (wrong state, wrong role, read-only) stays bound and
// is shown greyed out with the reason (see Availability), following
// lazygit's disabled-reason bindings.
package keys

import (
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// Action is the name of a binding: what a key does. The names are stable:
// they are the keys of the config file's [keys] table.
type Action string

// Action names: the stable names of the bindings, used in the config file's
// [keys] table, returned by Lookup and passed to Availability.
const (
	// Global.
	ActNextTab Action = "next_tab"
	ActPrevTab Action = "prev_tab"
	ActTab0    Action = "tab_0" // the Overview
	ActTab1    Action = "tab_1"
	ActTab2    Action = "tab_2"
	ActTab3    Action = "tab_3"
	ActTab4    Action = "tab_4"
	ActTab5    Action = "tab_5"
	ActTab6    Action = "tab_6" // Approvals, under paydash serve
	ActTab7    Action = "tab_7" // Activity, under paydash serve
	ActHelp    Action = "help"
	ActQuit    Action = "quit"
	ActRefresh Action = "refresh"
	ActJump    Action = "jump"
	ActFilter  Action = "filter"
	ActCopyID  Action = "copy_id"
	// Sort by a column, reverse it, and copy another field.
	ActSort        Action = "sort"
	ActSortReverse Action = "sort_reverse"
	ActCopyMore    Action = "copy_more"
	ActExport      Action = "export"
	// The period presets, the merchant switcher, and the raw JSON/XML view.
	ActPeriod   Action = "period"
	ActMerchant Action = "merchant"
	// The messages view: every toast and error since paydash started.
	ActMessages Action = "messages"
	// The mouse on or off (off lets the terminal select text).
	ActMouse Action = "toggle_mouse"
	// The command palette (ctrl+k), every action and view by name.
	ActPalette Action = "palette"

	// List (navigation, also used by the detail pane).
	ActUp       Action = "up"
	ActDown     Action = "down"
	ActPageUp   Action = "page_up"
	ActPageDown Action = "page_down"
	ActTop      Action = "top"
	ActBottom   Action = "bottom"
	ActLeft     Action = "left"  // the Overview: the hour before
	ActRight    Action = "right" // the Overview: the hour after
	ActOpen     Action = "open"
	ActClose    Action = "close"
	ActRaw      Action = "raw"
	// The Registers tab: its second list, and the register viewer's
	// search (live only in the viewer, where n is not "new").
	ActDocuments Action = "documents"
	ActNextMatch Action = "next_match"
	ActPrevMatch Action = "prev_match"

	// Actions on the selected object.
	ActCapture       Action = "capture"
	ActCancelHold    Action = "cancel_hold"
	ActRefund        Action = "refund"
	ActRevoke        Action = "revoke"
	ActToggleSticker Action = "toggle_sticker"
	ActNew           Action = "new"

	// Confirmation modal.
	ActModalConfirm    Action = "modal_confirm"
	ActModalCancel     Action = "modal_cancel"
	ActModalEditField  Action = "modal_edit_field"
	ActModalLeaveField Action = "modal_leave_field"

	// The Approvals tab's (paydash serve): a supervisor approves or
	// rejects a request.
	ActApprove Action = "approve"
	ActReject  Action = "reject"
)

// Global holds the bindings that work everywhere outside a modal.
type Global struct {
	NextTab, PrevTab                   key.Binding
	Tab0, Tab1, Tab2, Tab3, Tab4, Tab5 key.Binding
	Tab6, Tab7                         key.Binding
	Help, Quit, Refresh, Jump          key.Binding
	Filter, CopyID, Export             key.Binding
	Sort, SortReverse, CopyMore        key.Binding
	Period, Merchant, Messages         key.Binding
	Mouse, Palette                     key.Binding
}

// List holds the movement bindings of the list and the detail pane.
type List struct {
	Up, Down, PageUp, PageDown key.Binding
	Top, Bottom                key.Binding
	Left, Right                key.Binding
	Open, Close                key.Binding
	Raw                        key.Binding
	Documents                  key.Binding
	NextMatch, PrevMatch       key.Binding
}

// Actions holds the bindings that change something at the service.
type Actions struct {
	Capture, CancelHold, Refund key.Binding
	Revoke, ToggleSticker, New  key.Binding
	Approve, Reject             key.Binding // the Approvals tab's
}

// Modal holds the bindings of a confirmation modal. EditField works while
// the modal's field is not focused, LeaveField while it is.
type Modal struct {
	Confirm, Cancel       key.Binding
	EditField, LeaveField key.Binding
}

// Map is the whole keymap. Build it with Default, then Apply the user's
// overrides once at start.
type Map struct {
	Global  Global
	List    List
	Actions Actions
	Modal   Modal
}

// Group is a column of the full help.
type Group int

const (
	GroupNavigation Group = iota
	GroupActions
	GroupGlobal
	GroupModal
)

// String is the group's column title.
func (g Group) String() string {
	switch g {
	case GroupNavigation:
		return "Navigation"
	case GroupActions:
		return "Actions"
	case GroupGlobal:
		return "Global"
	case GroupModal:
		return "Modal"
	}
	return "?"
}

// spec describes one binding: its action name, group, help text, default
// keys and where it lives in a Map. specs is the single source of truth for
// Default, Apply, Lookup and the help.
type spec struct {
	name  Action
	group Group
	desc  string
	keys  []string
	field func(*Map) *key.Binding
}

var specs = []spec{
	{ActNextTab, GroupGlobal, "next tab", []string{"tab"}, func(m *Map) *key.Binding { return &m.Global.NextTab }},
	{ActPrevTab, GroupGlobal, "previous tab", []string{"shift+tab"}, func(m *Map) *key.Binding { return &m.Global.PrevTab }},
	{ActTab0, GroupGlobal, "overview", []string{"0"}, func(m *Map) *key.Binding { return &m.Global.Tab0 }},
	{ActTab1, GroupGlobal, "go to tab 1", []string{"1"}, func(m *Map) *key.Binding { return &m.Global.Tab1 }},
	{ActTab2, GroupGlobal, "go to tab 2", []string{"2"}, func(m *Map) *key.Binding { return &m.Global.Tab2 }},
	{ActTab3, GroupGlobal, "go to tab 3", []string{"3"}, func(m *Map) *key.Binding { return &m.Global.Tab3 }},
	{ActTab4, GroupGlobal, "go to tab 4", []string{"4"}, func(m *Map) *key.Binding { return &m.Global.Tab4 }},
	{ActTab5, GroupGlobal, "go to tab 5", []string{"5"}, func(m *Map) *key.Binding { return &m.Global.Tab5 }},
	{ActTab6, GroupGlobal, "approvals", []string{"6"}, func(m *Map) *key.Binding { return &m.Global.Tab6 }},
	{ActTab7, GroupGlobal, "activity", []string{"7"}, func(m *Map) *key.Binding { return &m.Global.Tab7 }},
	{ActFilter, GroupGlobal, "search rows", []string{"/"}, func(m *Map) *key.Binding { return &m.Global.Filter }},
	{ActJump, GroupGlobal, "jump to id", []string{":"}, func(m *Map) *key.Binding { return &m.Global.Jump }},
	{ActRefresh, GroupGlobal, "refresh now", []string{"r"}, func(m *Map) *key.Binding { return &m.Global.Refresh }},
	{ActCopyID, GroupGlobal, "copy id", []string{"y"}, func(m *Map) *key.Binding { return &m.Global.CopyID }},
	{ActCopyMore, GroupGlobal, "copy a field…", []string{"Y"}, func(m *Map) *key.Binding { return &m.Global.CopyMore }},
	{ActSort, GroupGlobal, "sort by…", []string{"s"}, func(m *Map) *key.Binding { return &m.Global.Sort }},
	{ActSortReverse, GroupGlobal, "reverse the sort", []string{"S"}, func(m *Map) *key.Binding { return &m.Global.SortReverse }},
	{ActExport, GroupGlobal, "export rows", []string{"ctrl+s"}, func(m *Map) *key.Binding { return &m.Global.Export }},
	{ActPeriod, GroupGlobal, "change period", []string{"p"}, func(m *Map) *key.Binding { return &m.Global.Period }},
	{ActMerchant, GroupGlobal, "switch merchant", []string{"m"}, func(m *Map) *key.Binding { return &m.Global.Merchant }},
	{ActMessages, GroupGlobal, "messages", []string{"M"}, func(m *Map) *key.Binding { return &m.Global.Messages }},
	{ActMouse, GroupGlobal, "mouse on/off", []string{"ctrl+o"}, func(m *Map) *key.Binding { return &m.Global.Mouse }},
	{ActPalette, GroupGlobal, "command palette", []string{"ctrl+k"}, func(m *Map) *key.Binding { return &m.Global.Palette }},
	{ActHelp, GroupGlobal, "all keys", []string{"?"}, func(m *Map) *key.Binding { return &m.Global.Help }},
	{ActQuit, GroupGlobal, "quit", []string{"q", "ctrl+c"}, func(m *Map) *key.Binding { return &m.Global.Quit }},

	{ActUp, GroupNavigation, "up", []string{"k", "up"}, func(m *Map) *key.Binding { return &m.List.Up }},
	{ActDown, GroupNavigation, "down", []string{"j", "down"}, func(m *Map) *key.Binding { return &m.List.Down }},
	{ActPageUp, GroupNavigation, "page up", []string{"pgup"}, func(m *Map) *key.Binding { return &m.List.PageUp }},
	{ActPageDown, GroupNavigation, "page down", []string{"pgdown"}, func(m *Map) *key.Binding { return &m.List.PageDown }},
	{ActTop, GroupNavigation, "first row", []string{"g", "home"}, func(m *Map) *key.Binding { return &m.List.Top }},
	{ActBottom, GroupNavigation, "last row", []string{"G", "end"}, func(m *Map) *key.Binding { return &m.List.Bottom }},
	{ActLeft, GroupNavigation, "earlier hour", []string{"h", "left"}, func(m *Map) *key.Binding { return &m.List.Left }},
	{ActRight, GroupNavigation, "later hour", []string{"l", "right"}, func(m *Map) *key.Binding { return &m.List.Right }},
	{ActOpen, GroupNavigation, "open details", []string{"enter"}, func(m *Map) *key.Binding { return &m.List.Open }},
	{ActClose, GroupNavigation, "close pane", []string{"esc"}, func(m *Map) *key.Binding { return &m.List.Close }},
	{ActRaw, GroupNavigation, "raw JSON/XML", []string{"w"}, func(m *Map) *key.Binding { return &m.List.Raw }},
	{ActDocuments, GroupNavigation, "transfers/documents", []string{"d"}, func(m *Map) *key.Binding { return &m.List.Documents }},
	{ActNextMatch, GroupNavigation, "next match", []string{"n"}, func(m *Map) *key.Binding { return &m.List.NextMatch }},
	{ActPrevMatch, GroupNavigation, "previous match", []string{"N"}, func(m *Map) *key.Binding { return &m.List.PrevMatch }},

	{ActCapture, GroupActions, "capture hold", []string{"c"}, func(m *Map) *key.Binding { return &m.Actions.Capture }},
	{ActCancelHold, GroupActions, "cancel hold", []string{"x"}, func(m *Map) *key.Binding { return &m.Actions.CancelHold }},
	{ActRefund, GroupActions, "refund", []string{"R"}, func(m *Map) *key.Binding { return &m.Actions.Refund }},
	{ActRevoke, GroupActions, "revoke token", []string{"v"}, func(m *Map) *key.Binding { return &m.Actions.Revoke }},
	{ActToggleSticker, GroupActions, "switch sticker on/off", []string{"t"}, func(m *Map) *key.Binding { return &m.Actions.ToggleSticker }},
	{ActNew, GroupActions, "new invoice/sticker/link", []string{"n"}, func(m *Map) *key.Binding { return &m.Actions.New }},
	{ActApprove, GroupActions, "approve and send", []string{"a"}, func(m *Map) *key.Binding { return &m.Actions.Approve }},
	{ActReject, GroupActions, "reject, with a reason", []string{"x"}, func(m *Map) *key.Binding { return &m.Actions.Reject }},

	{ActModalConfirm, GroupModal, "confirm", []string{"y"}, func(m *Map) *key.Binding { return &m.Modal.Confirm }},
	{ActModalCancel, GroupModal, "cancel", []string{"n", "esc"}, func(m *Map) *key.Binding { return &m.Modal.Cancel }},
	{ActModalEditField, GroupModal, "edit amount", []string{"tab", "e"}, func(m *Map) *key.Binding { return &m.Modal.EditField }},
	{ActModalLeaveField, GroupModal, "done editing", []string{"enter", "tab"}, func(m *Map) *key.Binding { return &m.Modal.LeaveField }},
}

var specByName = func() map[Action]*spec {
	idx := make(map[Action]*spec, len(specs))
	for i := range specs {
		idx[specs[i].name] = &specs[i]
	}
	return idx
}()

// field is where an action's binding lives in m, nil for an unknown name.
// The table's accessors take m's address: Lookup and Resolve have pointer
// receivers so that a key press reads the caller's Map where it is,
// instead of moving a 3 KB copy to the heap (BenchmarkLookup: 0 allocs).
func (m *Map) field(action Action) *key.Binding {
	if s, ok := specByName[action]; ok {
		return s.field(m)
	}
	return nil
}

// Default returns the default keymap, the one README.md (Using paydash)
// lists.
func Default() Map {
	var m Map
	for _, s := range specs {
		b := m.field(s.name)
		*b = key.NewBinding(key.WithKeys(append([]string(nil), s.keys...)...))
		b.SetHelp(Label(s.keys), s.desc)
	}
	return m
}

// ActionNames lists every action name, in the order of the keymap.
func ActionNames() []Action {
	names := make([]Action, len(specs))
	for i, s := range specs {
		names[i] = s.name
	}
	return names
}

// GroupOf is the group of an action name: GroupActions for the keys that
// change something at the service, which the shell puts behind a
// confirmation.
func GroupOf(action Action) Group {
	if s, ok := specByName[action]; ok {
		return s.group
	}
	return GroupGlobal
}

// Binding returns the binding of an action name.
func (m Map) Binding(action Action) (key.Binding, bool) {
	b := m.field(action)
	if b == nil {
		return key.Binding{}, false
	}
	return *b, true
}

// Label is the help label for a list of keys: "k/↑", "q/ctrl+c", "pgup".
func Label(keys []string) string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = keyGlyph(k)
	}
	return strings.Join(out, "/")
}

func keyGlyph(k string) string {
	mods, base := splitMods(k)
	switch base {
	case "up":
		base = "↑"
	case "down":
		base = "↓"
	case "left":
		base = "←"
	case "right":
		base = "→"
	}
	return mods + base
}

// modifierNames are the modifier prefixes Bubble Tea writes, in its order.
var modifierNames = []string{"ctrl", "alt", "shift", "meta", "hyper", "super"}

// splitMods splits "ctrl+alt+x" into "ctrl+alt+" and "x". Only known
// modifiers are split off, and a final "+" is a key ("ctrl++", "+").
func splitMods(k string) (mods, base string) {
	rest := k
	for {
		stripped := false
		for _, m := range modifierNames {
			p := m + "+"
			if len(rest) > len(p) && strings.EqualFold(rest[:len(p)], p) {
				rest = rest[len(p):]
				stripped = true
				break
			}
		}
		if !stripped {
			return k[:len(k)-len(rest)], rest
		}
	}
}

// Matches reports whether a key press triggers b (which must be enabled).
// It takes only presses, so a key release cannot act twice.
func Matches(msg tea.KeyPressMsg, b key.Binding) bool {
	return key.Matches(msg, b)
}

// Lookup maps a key press to the action it triggers in ctx. In a context
// where the user types text (filter, jump, the modal's field), presses that
// produce text are never actions: they belong to the input.
func (m *Map) Lookup(msg tea.KeyPressMsg, ctx Context) (action Action, b key.Binding, ok bool) {
	if ctx.typesText() && isTextPress(msg) {
		return "", key.Binding{}, false
	}
	pressed := msg.String() // once, not once per binding as key.Matches would
	for _, name := range ctx.live() {
		b := m.field(name)
		if b.Enabled() && slices.Contains(b.Keys(), pressed) {
			return name, *b, true
		}
	}
	return "", key.Binding{}, false
}

// Availability says whether an action can act right now and, if not, why
// ("read-only mode", "only a held payment can be captured"). Return
// (false, reason) to show the key greyed out with the reason; return
// (false, "") to leave the key out of the help altogether because the
// action does not exist here (revoke on the Payments tab). A nil
// Availability means everything is available.
type Availability func(action Action) (ok bool, reason string)

func (a Availability) check(action Action) (ok bool, reason string) {
	if a == nil {
		return true, ""
	}
	return a(action)
}

// NotHere is the reason Resolve gives for an action that Availability hides.
const NotHere = "not available here"

// Press is what a key press means in a context.
type Press struct {
	Action  Action
	Binding key.Binding
	// Enabled is false when the action cannot act now; the app shows
	// Reason instead of acting.
	Enabled bool
	Reason  string
}

// Resolve is Lookup followed by the availability check, so that the app
// handles "act" and "say why not" in one place. ok is false when the key
// means nothing in ctx.
func (m *Map) Resolve(msg tea.KeyPressMsg, ctx Context, avail Availability) (p Press, ok bool) {
	action, b, ok := m.Lookup(msg, ctx)
	if !ok {
		return Press{}, false
	}
	en, reason := avail.check(action)
	if !en && reason == "" {
		reason = NotHere
	}
	return Press{Action: action, Binding: b, Enabled: en, Reason: reason}, true
}

// isTextPress reports whether a press types text into a focused input.
func isTextPress(msg tea.KeyPressMsg) bool {
	return msg.Text != "" || isTextKey(msg.String())
}
