package tab

import (
	tea "charm.land/bubbletea/v2"

	"paydash/keys"
	"paydash/ui"
)

// ListTab is the part the list tabs share (Payments, Refunds, Tokens,
// Stickers): a paged list of T and its pane, the actions under way, the
// table of keys, and the routing of keys and messages between them. A tab
// embeds it, declares its keys (Keys) and its additions (Hooks), and
// handles only the messages that are its own.
type ListTab[T any] struct {
	Deps  Deps
	Owner uint64 // tells this tab's answers from another instance's
	Theme ui.Theme
	Scope ui.Scope
	W, H  int // the tab's area

	List    *PagedList[T]
	Pane    *Detail[T]
	Acts    *Tracker    // nil for a tab without actions
	Prep    Preparation // the read before an action's confirmation
	Route   KeyRoute[T]
	Keys    KeyTable
	Dialogs DialogSlot // the dialog a key opens, for the shell to open at once
	Hooks   ListHooks[T]
	// PaneTitle is the pane's title for its object ("Payment 7000123").
	PaneTitle func(T) string
}

// ListHooks are what a tab adds to the shared handling of a message; each
// may be nil.
type ListHooks[T any] struct {
	Rows      func(rows []T) tea.Cmd        // rows came into the list
	Pane      func(read bool) tea.Cmd       // an answer for the pane came (read: the object, in full)
	Outcome   func(over OutcomeMsg) tea.Cmd // an action's outcome became known
	ReadAgain func(msg ReadAgainMsg) tea.Cmd
}

// NewListTab is the shared part of a tab over list and pane; the tab
// sets Keys, Hooks and, when it acts, Acts.
func NewListTab[T any](d Deps, list *PagedList[T], pane *Detail[T]) ListTab[T] {
	return ListTab[T]{Deps: d, Owner: NewOwner(), Theme: d.Theme, List: list, Pane: pane}
}

// Wire points the parts at each other once the tab that embeds lt has
// its final address (the route's functions are the tab's methods).
func (lt *ListTab[T]) Wire(route KeyRoute[T]) {
	lt.List.Dialogs = &lt.Dialogs
	route.Km, route.List, route.Pane = lt.Deps.Keys, lt.List, lt.Pane
	if route.Context == nil {
		route.Context = lt.Context
	}
	route.Available = lt.Keys.Available
	lt.Route = route
}

// Context implements ui.Tab: the filter line, the pane or the list.
func (lt *ListTab[T]) Context() keys.Context { return ListContext(lt.List.Filtering, lt.Pane.IsOpen()) }

// Available implements ui.Tab: the tab's table of keys decides.
func (lt *ListTab[T]) Available(a keys.Action) (bool, string) { return lt.Keys.Available(a) }

// ActionTarget implements ui's preparing dialog's title: the table's.
func (lt *ListTab[T]) ActionTarget(a keys.Action) string { return lt.Keys.Target(a) }

// TakeDialog implements ui.DialogOpener.
func (lt *ListTab[T]) TakeDialog() (ui.OpenDialogMsg, bool) { return lt.Dialogs.Take() }

// Target is the object a key acts on: the pane's, else the selected row.
func (lt *ListTab[T]) Target() (T, bool) {
	if lt.Pane.IsOpen() {
		return lt.Pane.Obj, true
	}
	return lt.List.Selected()
}

// HasTarget reports whether a key has an object to act on.
func (lt *ListTab[T]) HasTarget() bool {
	_, ok := lt.Target()
	return ok
}

// NewMerchant moves a tab whose list is the merchant's, not the period's
// (stickers and tokens last), to scope s. It says whether the list is to
// be read again: only when the merchant changed, and never while why says
// the tab cannot show anything (its interface is not configured), which
// the list then says instead.
func (lt *ListTab[T]) NewMerchant(s ui.Scope, why string) bool {
	changed := s.MerchantID != lt.Scope.MerchantID || lt.List.Load == nil
	lt.Scope = s
	if why != "" {
		lt.List.Table.SetEmptyText(why)
		return false
	}
	if !changed {
		return false
	}
	lt.Pane.Close()
	lt.Layout()
	return true
}

// StartCreate is the Start of a key that opens the form of a create
// (kind: CreateInvoice, CreateSticker, CreateTokenization), filled in for
// the tab's scope.
func (lt *ListTab[T]) StartCreate(kind createKind) func(ticket int) tea.Cmd {
	return func(ticket int) tea.Cmd {
		return OpenCreate(ticket, kind, FormDefaults(lt.Scope, lt.Theme, lt.Deps.TimeNow), lt.Deps.Keys, lt.Acts)
	}
}

// View implements ui.Tab: the list, and the pane beside or over it.
func (lt *ListTab[T]) View(w, h int) string {
	var pane []string
	if lt.Pane.IsOpen() {
		pane = lt.Pane.Lines(lt.Theme, lt.PaneTitle(lt.Pane.Obj))
	}
	return Frame(lt.Theme, lt.List, pane, w, h)
}

// Layout sizes the list and its pane for the tab's area.
func (lt *ListTab[T]) Layout() { Arrange(lt.List, lt.Pane, lt.W, lt.H) }

// Status is the list's part of the status bar, with the actions under
// way and the pane's read.
func (lt *ListTab[T]) Status() ui.TabStatus {
	st := lt.List.Status()
	if lt.Acts != nil {
		lt.Acts.Counts(&st)
	}
	st.Loading = st.Loading || lt.Pane.Loading || st.Sending > 0
	if line, ok := lt.List.Table.SelectedLine(); ok && (!lt.Pane.IsOpen() || lt.List.Beside) {
		st.SelectedLine = 1 + line // the table is the first thing Frame draws
	}
	return st
}

// ListKeys are the keys every list tab has: the moves, the search, the
// sort and esc, opening a row, its raw answer and copying its id (the
// shared routing does them), and refresh, copy more and export, which
// the tab does. noun names a row: "no payment is selected".
func (lt *ListTab[T]) ListKeys(noun string, refresh, copyMore, export func() tea.Cmd) KeyTable {
	selected := Need(lt.HasTarget, "no "+noun+" is selected")
	return KeyTable{
		{Key: keys.ActUp}, {Key: keys.ActDown}, {Key: keys.ActPageUp}, {Key: keys.ActPageDown},
		{Key: keys.ActTop}, {Key: keys.ActBottom},
		{Key: keys.ActClose}, {Key: keys.ActFilter}, {Key: keys.ActSort}, {Key: keys.ActSortReverse},
		{Key: keys.ActOpen, When: selected}, {Key: keys.ActRaw, When: selected}, {Key: keys.ActCopyID, When: selected},
		{Key: keys.ActCopyMore, When: selected, Run: copyMore},
		{Key: keys.ActExport, When: func() (bool, string) { return Exportable(lt.List) }, Run: export},
		{Key: keys.ActRefresh, Run: refresh},
	}
}

// Update handles the messages every list tab handles alike: the list's
// pages, the pane's reads, the actions' answers, keys, the mouse, sizes,
// the theme and the shell's action messages. ok is false for a message
// that is the tab's own.
func (lt *ListTab[T]) Update(msg tea.Msg) (cmd tea.Cmd, ok bool) {
	if cmd, rows, ok := lt.List.Update(msg, lt.Deps.TimeNow()); ok {
		lt.Layout() // the bottom line comes or goes with the "↑ new" mark
		return batchHook(cmd, lt.Hooks.Rows, rows), true
	}
	if read, ok := lt.Pane.Update(msg); ok {
		return batchHook(nil, lt.Hooks.Pane, read), true
	}
	if lt.Acts != nil {
		if cmd, over, ok := lt.Acts.Update(msg); ok {
			if over != nil {
				cmd = batchHook(cmd, lt.Hooks.Outcome, *over)
			}
			return cmd, true
		}
	}
	switch msg := msg.(type) {
	case ui.MouseMsg:
		cmd := lt.Route.Mouse(msg)
		lt.Layout() // a double click may open the pane
		return cmd, true
	case tea.KeyPressMsg:
		cmd := lt.key(msg)
		lt.Layout() // a key may open or close the pane or the filter line
		return cmd, true
	case ui.SizeMsg:
		lt.W, lt.H = msg.Width, msg.Height
		lt.Layout()
		return nil, true
	case ui.ThemeMsg:
		lt.Theme = msg.Theme
		return nil, true
	case ui.SearchMsg:
		cmd := lt.List.SearchFor(msg.Query, msg.Exact)
		lt.Layout()
		return cmd, true
	case ui.ActionMsg:
		return lt.Keys.Start(msg.Action, msg.Ticket), true
	case ui.CancelActionMsg:
		lt.Prep.GiveUp(msg.Ticket)
		return nil, true
	case ReadAgainMsg:
		if lt.Prep.Answered(msg.Stamp) && lt.Hooks.ReadAgain != nil {
			return lt.Hooks.ReadAgain(msg), true
		}
		return nil, true
	case ui.AbandonMsg:
		if lt.Acts == nil {
			return nil, true
		}
		return lt.Acts.Abandon(), true
	}
	return nil, false
}

// key routes a key press: the shared routing first, then the table.
func (lt *ListTab[T]) key(msg tea.KeyPressMsg) tea.Cmd {
	a, cmd, handled := lt.Route.Handle(msg)
	if handled {
		return cmd
	}
	cmd, _ = lt.Keys.Run(a)
	return cmd
}

// batchHook adds what hook (if any) makes of v to cmd.
func batchHook[V any](cmd tea.Cmd, hook func(V) tea.Cmd, v V) tea.Cmd {
	if hook == nil {
		return cmd
	}
	return tea.Batch(cmd, hook(v))
}
