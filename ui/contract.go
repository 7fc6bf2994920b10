// Package ui is the shell of the dashboard: the tab bar, the status bar,
// toasts, the modal stack, the help overlay, the theme and the layout. The
// screens themselves live in views/ and implement Tab; they talk to the
// shell only through the messages below, returned from their tea.Cmds, and
// the shell talks to them through Update. Data flows one way: a tab asks the
// backend in a tea.Cmd, the answer comes back as a message, Update stores
// it, View draws it. No I/O happens in Update or View.
package ui

import (
	"context"
	"paydash/debuglog"
	"time"

	tea "charm.land/bubbletea/v2"

	"paydash/backend"
	"paydash/backend/money"
	"paydash/keys"
)

// Config is what the shell needs; main builds it.
type Config struct {
	Service      Service          // what the status bar describes and the start probes (the tabs do the rest)
	Tabs         []Tab            // in tab-bar order; keys 1..5 select them
	Keys         keys.Map         // the keymap, after the config file's [keys]
	Scope        Scope            // the initial merchant and period
	Merchants    []Merchant       // what the merchant switcher offers, in order
	RefreshEvery time.Duration    // periodic refresh; 0 means 10 s
	Now          func() time.Time // the clock; nil = time.Now (tests fix it)
	// ServiceNow is the service's clock, as its answers tell it: a rolling
	// period ("today") ends at its now. nil means Now.
	ServiceNow func() time.Time
	NoColor    bool     // NO_COLOR is set
	Dark       bool     // assumed until the terminal says otherwise
	Warnings   []string // shown as toasts at start (and kept in the messages view)
	// Notices are news at start the user must not miss (actions left open
	// on another service): shown in the notice dialog, kept in the
	// messages view.
	Notices []Notice
	NoMouse bool // the mouse starts off (config mouse = false); the toggle key switches it
	// RequestLog is the request log being written (--log), "" when none:
	// an error whose answer could not be read points to it only then.
	RequestLog string
	// Theme is the theme chosen (config theme: auto, dark, light, none; ""
	// is auto) and Colors its roles' colours ([colors]); see ChosenTheme.
	Theme  string
	Colors map[string]string
	// DebugLog records what the shell did for a bug report (--debug-log):
	// keys it ignored and why, dialogs opened and closed; nil records
	// nothing.
	DebugLog *debuglog.Logger
	// InTmux: the dashboard runs inside tmux (TMUX is set), which passes a
	// copy (OSC 52) on to the terminal only with set-clipboard on.
	InTmux bool
}

// Merchant is one merchant the switcher offers and the status bar names:
// its id, and its name when known ("" when not). The name comes from the
// config file or a server; the shell cleans it (textsafe.Line) and cuts it
// to the room it has.
type Merchant struct {
	ID   string
	Name string
}

// TabID names a tab in messages between tabs (SwitchTabMsg); Title is the
// tab's name for people.
type TabID string

// The dashboard's tabs.
const (
	TabOverview  TabID = "overview"
	TabPayments  TabID = "payments"
	TabRefunds   TabID = "refunds"
	TabTokens    TabID = "tokens"
	TabStickers  TabID = "stickers"
	TabRegisters TabID = "registers"
	TabApprovals TabID = "approvals" // paydash serve only
	TabActivity  TabID = "activity"  // paydash serve only
)

// Service is what the shell asks of the backend: what it is connected to,
// for the status bar, and whether the credentials work, once at start.
type Service interface {
	Describe() backend.Description
	Probe(ctx context.Context) error
}

// Tab is one screen of the dashboard.
type Tab interface {
	// ID names the tab for SwitchTabMsg.
	ID() TabID
	// Title is the tab bar's label, e.g. "Payments".
	Title() string
	// Init starts the tab's first load for the scope.
	Init(s Scope) tea.Cmd
	// Update receives: key presses the shell did not take for itself (only
	// while no modal is open and the tab is active), ScopeMsg, RefreshMsg,
	// JumpMsg, TickMsg, tea.WindowSizeMsg-derived sizes through View, and the
	// tab's own result messages (which may arrive while the tab is inactive).
	Update(msg tea.Msg) (Tab, tea.Cmd)
	// View draws the tab into exactly width × height cells.
	View(width, height int) string
	// Context tells which keys are live now (list, detail, filter prompt...).
	Context() keys.Context
	// Available says whether an action (a keys action name such as
	// keys.ActRefund) can act now, and if not, why — for greying in the help
	// and for the message shown when the key is pressed anyway. Return
	// (false, "") for actions that do not exist on this tab.
	Available(action keys.Action) (ok bool, reason string)
	// Status is the tab's part of the status bar.
	Status() TabStatus
}

// TabStatus is what a tab tells the status bar.
type TabStatus struct {
	Loading   bool      // a request of this tab is in flight: the spinner turns
	Rows      int       // rows loaded
	Shown     int       // rows shown after the filter
	Filter    string    // the active filter, "" when none
	AtEnd     bool      // the whole period is loaded
	Refreshed time.Time // when the tab's data was last refreshed (zero: never)
	Sending   int       // actions sent and not yet answered: quitting waits for their answer
	Checking  int       // actions whose outcome is unknown and being found out
	// Progress is a long read under way, in words ("looking for ORD-5 back
	// to 12 Oct…"); the status bar shows it beside the spinner.
	Progress string
	// Footer is how many lines at the bottom of the tab's area are the
	// tab's own prompt or search line (the search input, the active search
	// or sort, a search's error): toasts are drawn above them, never over
	// them. While the tab's Context is keys.ContextFilter at least its last
	// line is taken to be its input.
	Footer int
	// SelectedLine is the line of the tab's area (1: its first) that draws
	// the selected row, 0 when none is on screen: toasts are drawn clear
	// of it, so that a toast about a row never hides the row.
	SelectedLine int
	// StandsOut is how many figures stand out (the Overview's): the
	// status bar of every other tab says "! N" while it is more than 0.
	StandsOut int
}

// Scope is what every tab shows: one merchant and one period [Start, End).
type Scope struct {
	MerchantID string
	Start, End time.Time
	Preset     string // "today", "7 days", "30 days" or "custom", for the status bar
}

// Messages from the shell to tabs.
type (
	// ScopeMsg says the merchant or the period changed: reload from scratch,
	// dropping any answer that belongs to the old scope.
	ScopeMsg struct{ Scope Scope }
	// OwnScopeMsg is the period chosen with "p" on a PeriodKeeper tab,
	// for it alone; it keeps ignoring the ScopeMsg of everyone's.
	OwnScopeMsg struct{ Scope Scope }
	// RefreshMsg asks for a refresh now: the periodic timer (paused while a
	// modal is open) or the refresh key. New rows come in at the top and
	// changed rows update in place.
	//
	// Now is the service's time when the refresh was asked (zero when not
	// known): a tab showing a rolling period (Scope.Rolling) moves it to
	// Scope.At(Now) before it reads, so its end is now at every refresh and
	// rows older than its new start leave.
	RefreshMsg struct {
		Manual bool
		Now    time.Time
	}
	// JumpMsg asks the tab to show a payment by id or order number (":").
	JumpMsg struct{ Query string }
	// SearchMsg asks a list tab to search for Query as if it was typed at
	// "/" and entered: the Overview opens the rows behind a figure so.
	// Exact reads the period's own list, never one the service narrows by
	// whole days (the legacy interface's), so that the rows are exactly
	// the period's.
	SearchMsg struct {
		Query string
		Exact bool
	}
	// TickMsg is the shell's clock tick (about once a second), for flashes
	// that expire; Now comes from the shell's clock so tests can fix it.
	TickMsg struct{ Now time.Time }
	// ActionMsg asks the active tab to prepare the dialog of an action key
	// (a key of the keymap's Actions group that the tab said it can act
	// on). The shell has already put a "preparing" dialog on screen for
	// Ticket, which takes every key until the tab answers with exactly one
	// OpenDialogMsg or CloseDialogMsg carrying the same Ticket, or the
	// user gives up and the tab gets CancelActionMsg for it. The
	// dialog must name the object the key was pressed on, whatever happens
	// to the list behind it meanwhile.
	ActionMsg struct {
		Action keys.Action
		Ticket int
	}
	// CancelActionMsg tells the tab that was asked to prepare Ticket
	// (ActionMsg) that the user gave up its preparing dialog (esc): the
	// tab cancels what it reads for it and answers nothing.
	CancelActionMsg struct{ Ticket int }
	// ShutdownMsg asks the dashboard to stop, as q does: at once when no
	// action is being sent, else once their answers came (at most
	// QuitWait); a second one stops it at once. main sends it on SIGTERM,
	// SIGHUP and SIGINT.
	ShutdownMsg struct{ Signal string }
	// AbandonMsg: paydash is stopping before the answers of the actions
	// still being sent came (a signal or a forced quit, after the bounded
	// wait): the tab journals them as abandoned, in a command the shell
	// runs to the end before it quits.
	AbandonMsg struct{}
)

// Messages from tabs to the shell.
type (
	// CopiedMsg says Value was sent to the terminal's clipboard (OSC 52,
	// see Copy): the shell says so, in words that fit the terminal.
	CopiedMsg struct {
		What  string // what it is ("order number"); "" for an id
		Value string
	}
	// ToastMsg shows a short-lived outcome ("Refund 7000123 of 150.00 RUB made").
	ToastMsg struct {
		Level ToastLevel
		Text  string
	}
	// ErrorMsg shows an error, whole, above the status bar with what to do
	// about it. It stays until it is dismissed (esc in the list) or
	// replaced by another; one that is not Sticky (a failed list load)
	// also goes when a refresh succeeds. Every error is kept in the
	// messages view.
	ErrorMsg struct {
		Err    error
		Hint   string
		Sticky bool // an action's failure: a refresh does not clear it
		// Key, when set, names what the error is about (a jump): a
		// ClearErrorMsg with the same Key clears it while it is shown.
		Key string
	}
	// ClearErrorMsg clears the error shown if it was sent with this Key
	// (the next jump succeeded); any other error stays.
	ClearErrorMsg struct {
		Key string
	}
	// CloseDialogMsg is the one way a tab closes a dialog: the
	// preparing dialog of Ticket (see ActionMsg) closes with no dialog in
	// its place (the payment moved, nothing is left to refund, it could
	// not be read), and Text says why.
	CloseDialogMsg struct {
		Ticket int
		Level  ToastLevel
		Text   string
	}
	// SwitchTabMsg makes another tab active (e.g. a refund's "open payment"),
	// then delivers Then to it (e.g. a JumpMsg), if set. With Scope, every
	// tab first takes that scope, as when it is chosen with p or m (the
	// Overview opens the rows of an hour so).
	SwitchTabMsg struct {
		Tab   TabID
		Then  tea.Msg
		Scope *Scope
	}
	// OpenDialogMsg is the one way a dialog opens, whoever asks for it.
	// Exactly one of Modal, Confirm and Notice is set:
	//   - Modal is a dialog of the tab's own: a chooser, a form, a result.
	//     The shell calls its Init, when it has one, once it is on screen.
	//   - Confirm is the confirmation of an action (docs/confirmation.md):
	//     Cancel focused, y confirms only what it showed unchanged for 400 ms
	//     with no key pressed, n or esc cancels, keys pressed within 400 ms
	//     of it appearing ignored (and then y needed twice, each after a
	//     pause; see NewConfirm), an amount prefilled and validated before y
	//     can act. The shell calls Confirm.Confirm exactly once, when the
	//     user confirms.
	//   - Notice is news the user must not miss (actions of the last run
	//     found out): it opens a notice dialog, or updates the line with the
	//     same ID in the one that is open; when another dialog is open it is
	//     shown as a toast instead. It is kept in the messages view.
	//
	// With a Ticket, the dialog replaces the preparing dialog of that
	// ticket (see ActionMsg), and is dropped when that is no longer open
	// (the user gave up). Without one, it opens when no dialog is open. A
	// dialog never stacks on another: what cannot open is dropped.
	OpenDialogMsg struct {
		Ticket  int
		Modal   Modal
		Confirm *ConfirmSpec
		Notice  *Notice
	}
)

// ModalMsg is a message for the open dialog (a form's cursor blink, its
// page changes): the shell gives it to the dialog on top and to no tab. A
// dialog ignores what is not its own.
type ModalMsg interface{ ForModal() }

// DialogOpener is a tab that opens dialogs on keys (sort, copy, export,
// save): the shell takes the tab's OpenDialogMsg right after its Update,
// before the next message, so that a key typed in the same burst goes to
// the dialog and never to the screen behind it. It opens as a sent
// OpenDialogMsg does.
type DialogOpener interface {
	TakeDialog() (OpenDialogMsg, bool)
}

// Notice is one line of news in the notice dialog (OpenDialogMsg).
type Notice struct {
	Title string // the dialog's title, when this notice opens it
	ID    string // the line's identity: a later Notice with the same ID replaces it
	Level ToastLevel
	Text  string
}

// ConfirmDialog is the OpenDialogMsg of a confirmation in place of the
// preparing dialog of ticket.
func ConfirmDialog(ticket int, spec ConfirmSpec) OpenDialogMsg {
	return OpenDialogMsg{Ticket: ticket, Confirm: &spec}
}

// NoticeDialog is the OpenDialogMsg of a notice.
func NoticeDialog(n Notice) OpenDialogMsg { return OpenDialogMsg{Notice: &n} }

// Initer is a dialog with a first command, run when it opens.
type Initer interface{ Init() tea.Cmd }

// ToastLevel colours a toast.
type ToastLevel int

const (
	ToastInfo ToastLevel = iota
	ToastSuccess
	ToastWarning
	ToastError
)

// Modal is a dialog on the shell's stack. It gets every key while it is on
// top; now is the shell's clock, so the 400 ms guard is testable.
type Modal interface {
	// Update returns the modal after msg, a command, and whether it closed.
	Update(msg tea.Msg, now time.Time) (m Modal, cmd tea.Cmd, closed bool)
	// View draws the dialog box (the shell centres it over the screen).
	View(maxWidth, maxHeight int) string
	// Context tells which keys are live (keys.ContextModal or ContextModalField).
	Context() keys.Context
}

// ConfirmSpec describes a confirmation: what will happen, in words that
// leave no doubt (payment, amount, currency, customer, interface).
type ConfirmSpec struct {
	Title  string   // "Refund payment 43149010"
	Lines  []string // the facts, one per line
	Verb   string   // the confirm button's verb; the button adds the amount: "Refund 500.00 RUB"
	Danger bool     // drawn in the warning colour
	Amount *AmountField
	// Fixed is an amount the action moves that the user does not choose
	// (a hold released): the button names it and Check applies to it.
	Fixed *money.Amount
	// Check, when set, asks for typed digits before y can act above a
	// threshold (config confirm_typed_over).
	Check *TypedCheck
	// Confirm is called once, when y confirms, with the amount the dialog
	// shows (the zero Amount when it has none).
	Confirm func(amount money.Amount) tea.Cmd
	// Approval, under paydash serve, says why the amount shown needs a
	// supervisor's approval ("" when it does not): the dialog says so and
	// its button files a request instead of sending. nil: never.
	Approval func(amount money.Amount) string
}

// TypedCheck is the second check for large amounts (after k9s and
// lazygit): above Over (in the dialog's currency) y acts only once
// Digits were typed.
type TypedCheck struct {
	Over   money.Decimal
	Digits string // what to type: the last four digits of the payment id
	Of     string // whose digits, for the prompt: "payment 43149010"
}

// AmountField is an editable amount in a confirmation, prefilled and not
// focused (docs/confirmation.md): y confirms it as shown; tab or e edits it.
type AmountField struct {
	Label    string       // "Amount to refund"
	Value    money.Amount // the prefill
	Max      money.Decimal
	MaxLabel string // why the maximum, e.g. "still refundable"
}

// SizeMsg tells every tab the size of its area (the terminal less the
// shell's tab bar, status bar and help bar) when the terminal is resized,
// so a tab can size its list and page by the screen in Update. View gets
// the same size. Added by the shell.
type SizeMsg struct{ Width, Height int }
