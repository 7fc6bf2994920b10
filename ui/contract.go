// Package ui is the shell of the dashboard: the tab bar, the status bar,
// toasts, the modal stack, the help overlay, the theme and the layout. The
// screens themselves live in views/ and implement Tab; they talk to the
// shell only through the messages below, returned from their tea.Cmds, and
// the shell talks to them through Update. Data flows one way: a tab asks the
// backend in a tea.Cmd, the answer comes back as a message, Update stores
// it, View draws it. No I/O happens in Update or View.
package ui

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"paydash/backend"
	"paydash/backend/money"
	"paydash/keys"
)

// Config is what the shell needs; main builds it.
type Config struct {
	Backend      backend.Backend  // for Describe, Can and Probe (the tabs do the rest)
	Tabs         []Tab            // in tab-bar order; keys 1..5 select them
	Keys         keys.Map         // the keymap, after the config file's [keys]
	Scope        Scope            // the initial merchant and period
	Merchants    []string         // what the merchant switcher offers
	RefreshEvery time.Duration    // periodic refresh; 0 means 10 s
	Now          func() time.Time // the clock; nil = time.Now (tests fix it)
	NoColor      bool             // NO_COLOR is set
	Dark         bool             // assumed until the terminal says otherwise
}

// Tab is one screen of the dashboard.
type Tab interface {
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
	Available(action string) (ok bool, reason string)
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
	Sending   int       // actions sent and not yet answered: quitting would leave their outcome unknown
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
	// RefreshMsg asks for a refresh now: the periodic timer (paused while a
	// modal is open) or the refresh key. New rows come in at the top and
	// changed rows update in place.
	RefreshMsg struct{ Manual bool }
	// JumpMsg asks the tab to show a payment by id or order number (":").
	JumpMsg struct{ Query string }
	// TickMsg is the shell's clock tick (about once a second), for flashes
	// that expire; Now comes from the shell's clock so tests can fix it.
	TickMsg struct{ Now time.Time }
)

// Messages from tabs to the shell.
type (
	// OpenModalMsg puts a modal on top of the stack.
	OpenModalMsg struct{ Modal Modal }
	// ToastMsg shows a short-lived outcome ("Refund 7000123 of 150.00 RUB made").
	ToastMsg struct {
		Level ToastLevel
		Text  string
	}
	// ErrorMsg puts an error in the status bar with what to do about it; it
	// stays until the next successful refresh or error.
	ErrorMsg struct {
		Err  error
		Hint string
	}
	// SwitchTabMsg makes another tab active (e.g. a refund's "open payment"),
	// then delivers Then to it (e.g. a JumpMsg), if set.
	SwitchTabMsg struct {
		Title string
		Then  tea.Msg
	}
	// OpenConfirmMsg asks the shell for a confirmation dialog (design §7):
	// Cancel focused, y confirms, n or esc cancels, keys pressed in the first
	// 400 ms ignored, an amount prefilled and validated before y can act.
	// The shell calls Spec.Confirm exactly once, when the user confirms.
	OpenConfirmMsg struct{ Spec ConfirmSpec }
)

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
	Title   string   // "Refund payment 43149010"
	Lines   []string // the facts, one per line
	Verb    string   // the confirm button, e.g. "Refund"
	Danger  bool     // drawn in the warning colour
	Amount  *AmountField
	Confirm func(amount money.Amount) tea.Cmd // called once, when y confirms
}

// AmountField is an editable amount in a confirmation, prefilled and not
// focused (design §7): y confirms it as shown; tab or e edits it.
type AmountField struct {
	Label    string       // "Amount to refund"
	Value    money.Amount // the prefill
	Max      money.Decimal
	MaxLabel string // why the maximum, e.g. "still refundable"
}

// SizeMsg tells every tab the size of its area (the terminal less the
// shell's tab bar, status bar and help bar) when the terminal is resized,
// so a tab can size its list and page by the screen in Update. View gets
// the same size. Added by the shell (issue 4).
type SizeMsg struct{ Width, Height int }
