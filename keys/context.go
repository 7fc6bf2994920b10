package keys

import (
	"slices"
	"unicode"
	"unicode/utf8"
)

// Context is where the keyboard focus is; it selects which bindings are
// live, which the help shows, and which keys may not share a binding.
type Context int

const (
	// ContextList: a tab's list has the focus. Global, List and Actions
	// bindings are live.
	ContextList Context = iota
	// ContextDetail: the detail pane is open. Same bindings as the list
	// (movement scrolls the pane, esc closes it).
	ContextDetail
	// ContextFilter: the filter input has the focus. Keys that type text go
	// to the input; enter applies, esc clears, arrows move, ctrl+c quits.
	ContextFilter
	// ContextJump: the ":" jump input has the focus. Keys that type text go
	// to the input; enter jumps, esc cancels, ctrl+c quits.
	ContextJump
	// ContextModal: a confirmation modal whose field (if any) is not
	// focused. Only Modal bindings are live.
	ContextModal
	// ContextModalField: the modal's amount field has the focus. Keys that
	// type text go to the field; only leaving the field and cancelling are
	// live.
	ContextModalField
	// ContextForm: a create form (huh) has the focus. Keys that type text
	// go to its fields; the form shows its own keys; esc leaves it.
	ContextForm
	// ContextResult: the dialog that shows what a create made. y copies
	// the address, esc closes it.
	ContextResult
	// ContextViewer: the register viewer pane (Registers tab). The list's
	// bindings but the actions; n and N go to the next and previous match
	// of the search, ctrl+s saves the register.
	ContextViewer
	// ContextSearch: the viewer's search input has the focus. Keys that
	// type text go to the input; enter searches, esc cancels.
	ContextSearch
	// ContextApprovals: the Approvals tab's list or pane (paydash serve).
	// The list's bindings, with approve and reject for the actions on
	// objects.
	ContextApprovals
)

type contextSpec struct {
	name string
	// live lists the live actions; Lookup tries them in this order.
	live []Action
	// short lists the actions of the one-line help, most important first.
	short []Action
	// pinHelp keeps "? all keys" at the end of the one-line help.
	pinHelp bool
	// text: keys that type text belong to an input here.
	text bool
	// desc overrides help descriptions in this context.
	desc map[Action]string
}

// viewerOnly are the actions live only in the register viewer: their
// keys mean something else in a list (n is "new").
var viewerOnly = []Action{ActNextMatch, ActPrevMatch}

// approvalsOnly are the actions live only in the Approvals tab: x is
// "cancel hold" in a list.
var approvalsOnly = []Action{ActApprove, ActReject}

var listLive = func() []Action {
	var live []Action
	for _, s := range specs {
		if s.group != GroupModal && !slices.Contains(viewerOnly, s.name) && !slices.Contains(approvalsOnly, s.name) {
			live = append(live, s.name)
		}
	}
	return live
}()

// approvalsLive is the list's bindings with approve and reject in place
// of the actions on objects.
var approvalsLive = func() []Action {
	var live []Action
	for _, s := range specs {
		if s.group != GroupModal && s.group != GroupActions && !slices.Contains(viewerOnly, s.name) {
			live = append(live, s.name)
		}
	}
	return append(live, approvalsOnly...)
}()

// viewerLive is the list's bindings without the actions on objects, and
// the search's.
var viewerLive = func() []Action {
	var live []Action
	for _, s := range specs {
		if s.group != GroupModal && s.group != GroupActions && !slices.Contains(approvalsOnly, s.name) {
			live = append(live, s.name)
		}
	}
	return live
}()

var contexts = map[Context]*contextSpec{
	ContextList: {
		name: "list",
		live: listLive,
		short: []Action{ActOpen, ActFilter, ActJump, ActCapture, ActCancelHold, ActRefund, ActRevoke,
			ActToggleSticker, ActNew, ActCopyID, ActRefresh, ActExport, ActNextTab, ActQuit},
		pinHelp: true,
	},
	ContextDetail: {
		name: "detail pane",
		live: listLive,
		short: []Action{ActClose, ActCapture, ActCancelHold, ActRefund, ActRevoke, ActToggleSticker,
			ActRaw, ActCopyID, ActRefresh, ActUp, ActDown, ActQuit},
		pinHelp: true,
	},
	ContextFilter: {
		name:  "filter input",
		live:  []Action{ActOpen, ActClose, ActUp, ActDown, ActQuit},
		short: []Action{ActOpen, ActClose, ActUp, ActDown, ActQuit},
		text:  true,
		desc:  map[Action]string{ActOpen: "search all", ActClose: "clear search"},
	},
	ContextJump: {
		name:  "jump input",
		live:  []Action{ActOpen, ActClose, ActQuit},
		short: []Action{ActOpen, ActClose, ActQuit},
		text:  true,
		desc:  map[Action]string{ActOpen: "jump", ActClose: "cancel"},
	},
	ContextModal: {
		name:  "modal",
		live:  []Action{ActModalConfirm, ActModalCancel, ActModalEditField},
		short: []Action{ActModalConfirm, ActModalCancel, ActModalEditField},
	},
	ContextModalField: {
		name:  "modal field",
		live:  []Action{ActModalLeaveField, ActModalCancel},
		short: []Action{ActModalLeaveField, ActModalCancel},
		text:  true,
	},
	ContextForm: {
		name:  "form",
		live:  []Action{ActModalCancel},
		short: []Action{ActModalCancel},
		text:  true,
		desc:  map[Action]string{ActModalCancel: "leave the form (nothing is sent)"},
	},
	ContextResult: {
		name:  "result",
		live:  []Action{ActModalConfirm, ActModalCancel},
		short: []Action{ActModalConfirm, ActModalCancel},
		desc:  map[Action]string{ActModalConfirm: "copy the address", ActModalCancel: "close"},
	},
	ContextViewer: {
		name:    "register viewer",
		live:    viewerLive,
		short:   []Action{ActClose, ActRaw, ActFilter, ActNextMatch, ActPrevMatch, ActOpen, ActExport, ActUp, ActDown, ActQuit},
		pinHelp: true,
		desc: map[Action]string{ActRaw: "switch view", ActFilter: "search", ActExport: "save to file",
			ActOpen: "open the operation's payment"},
	},
	ContextApprovals: {
		name:    "approvals",
		live:    approvalsLive,
		short:   []Action{ActOpen, ActApprove, ActReject, ActFilter, ActClose, ActRefresh, ActExport, ActNextTab, ActQuit},
		pinHelp: true,
	},
	ContextSearch: {
		name:  "search input",
		live:  []Action{ActOpen, ActClose, ActQuit},
		short: []Action{ActOpen, ActClose, ActQuit},
		text:  true,
		desc:  map[Action]string{ActOpen: "search", ActClose: "cancel"},
	},
}

// Contexts lists every context.
func Contexts() []Context {
	return []Context{ContextList, ContextDetail, ContextFilter, ContextJump, ContextModal, ContextModalField,
		ContextForm, ContextResult, ContextViewer, ContextSearch, ContextApprovals}
}

func (c Context) spec() *contextSpec {
	if s, ok := contexts[c]; ok {
		return s
	}
	return contexts[ContextList]
}

// String names the context as the error messages do ("list", "modal").
func (c Context) String() string { return c.spec().name }

func (c Context) live() []Action { return c.spec().live }

func (c Context) typesText() bool { return c.spec().text }

// Live reports whether an action can be triggered in c.
func (c Context) Live(action Action) bool { return slices.Contains(c.live(), action) }

// effectiveKeys are the keys of an action that can trigger it in c: in a
// context that types text, keys that type text are left out.
func (c Context) effectiveKeys(keys []string) []string {
	if !c.typesText() {
		return keys
	}
	var out []string
	for _, k := range keys {
		if !isTextKey(k) {
			out = append(out, k)
		}
	}
	return out
}

// isTextKey reports whether a key string is one Bubble Tea reports for a key
// that types text: a single printable character or "space".
func isTextKey(k string) bool {
	if k == "space" {
		return true
	}
	r, size := utf8.DecodeRuneInString(k)
	return size == len(k) && r != utf8.RuneError && unicode.IsPrint(r)
}
