// Package tab is what the dashboard's tabs share: the paged list of a tab
// (PagedList), its detail pane (Detail), the routing of keys and the mouse
// (KeyRoute), a tab's table of keys (KeyTable), the part every list tab
// embeds (ListTab), the stamps that drop answers that come too late (Stamp,
// Reader), the read before a confirmation (Preparation), the tracker that
// follows every action to its outcome (Tracker), and the formatting of
// times, amounts and statuses. docs/architecture.md draws how they fit.
package tab

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"paydash/debuglog"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"paydash/backend"
	"paydash/backend/action"
	"paydash/backend/journal"
	"paydash/backend/known"
	"paydash/backend/money"
	"paydash/backend/textsafe"
	"paydash/keys"
	"paydash/ui"
	"paydash/ui/datatable"
)

// Deps is what the tabs need from main.
type Deps struct {
	Backend backend.Backend
	Keys    keys.Map
	Journal *journal.Journal // every action is written here before it is sent; required for actions
	Now     func() time.Time // the clock; nil = time.Now
	Theme   ui.Theme
	// Pending are the actions the journal holds without an outcome (an
	// earlier run was stopped while they were sent): found out at start.
	Pending []action.Request
	// TypedOver is, per currency (upper case), the amount above which a
	// confirmation asks for the last digits of the payment id typed
	// (config confirm_typed_over).
	TypedOver map[string]money.Decimal
	// InFlight is the actions not yet over, shared by the tabs so that no
	// tab sends an action on an object another tab is acting on; nil gives
	// each tab its own.
	InFlight *InFlight
	// Known is the tokens paydash knows, between runs (the file beside
	// the journal); nil keeps them in memory for this run only.
	Known *known.Store
	// DebugLog is the debug log (--debug-log): the actions sent and their
	// outcomes; nil = none.
	DebugLog *debuglog.Logger
	// Facts is what the tabs learned of payments (order number,
	// customer), shared so that the Refunds tab shows what the Payments
	// tab loaded; nil gives each tab its own.
	Facts *PaymentFacts
	// Team is the person at the dashboard and what the sessions of paydash
	// serve share (their people, approvals and locks); nil in the
	// single-user paydash.
	Team *Team
	// CheckAfter is how long to wait before the check number tries+1 of
	// an action whose outcome is unknown; nil waits as CheckAfter in
	// track.go does (tests give one that does not wait).
	CheckAfter func(tries int) time.Duration
}

// TypedOverFor is the amount above which a confirmation in currency asks
// for typed digits: the currency's own (config confirm_typed_over), else
// the one for every currency ("*").
func (d Deps) TypedOverFor(currency string) (money.Decimal, bool) {
	if over, ok := d.TypedOver[strings.ToUpper(currency)]; ok {
		return over, true
	}
	over, ok := d.TypedOver["*"]
	return over, ok
}

func (d Deps) TimeNow() time.Time {
	if d.Now == nil {
		return time.Now()
	}
	return d.Now()
}

// owners numbers the tab instances, so that a message finds its own tab
// even when the shell hands every message to every tab.
var owners atomic.Uint64

func NewOwner() uint64 { return owners.Add(1) }

// --- formatting ------------------------------------------------------------

const (
	ListTimeLayout   = "02 Jan 15:04"
	detailTimeLayout = "02 Jan 2006 15:04:05"
)

// FmtListTime is a time in the list: local, "02 Jan 15:04"; "" when zero.
func FmtListTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Local().Format(ListTimeLayout)
}

// FmtTime is a time in a detail pane, local, with the zone.
func FmtTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.Local().Format(detailTimeLayout + " MST")
}

// FmtAmount is an amount for people: "1,250.00 RUB" (money.Group's one
// number format; no currency when the service gave none, as v1 refund
// lists do).
func FmtAmount(a money.Amount) string {
	s := money.Group(a.Value, a.Currency)
	if a.Currency != "" {
		s += " " + textsafe.Clean(a.Currency)
	}
	return s
}

func refundMarker(s backend.RefundStatus) string {
	switch s {
	case backend.RefundSuccess:
		return "✓"
	case backend.RefundPending:
		return "~"
	case backend.RefundRejected:
		return "✗"
	}
	return " "
}

// The tones of the statuses: their colour in the lists (datatable.Tone)
// and the panes (toneStyle). Done is green, still to happen yellow, a hold
// waiting for the merchant magenta, ended without money red; the markers
// above say the same without colour.

func PaymentTone(s backend.PaymentStatus) datatable.Tone {
	switch s {
	case backend.PaymentSettled:
		return datatable.ToneSuccess
	case backend.PaymentPending, backend.PaymentConfirmation:
		return datatable.ToneWarning
	case backend.PaymentAuthorized:
		return datatable.ToneHeld
	case backend.PaymentCancelled, backend.PaymentRejected:
		return datatable.ToneDanger
	}
	return datatable.ToneNone
}

func RefundTone(s backend.RefundStatus) datatable.Tone {
	switch s {
	case backend.RefundSuccess:
		return datatable.ToneSuccess
	case backend.RefundPending:
		return datatable.ToneWarning
	case backend.RefundRejected:
		return datatable.ToneDanger
	}
	return datatable.ToneNone
}

// MarkedTone is the tone of a status cell that shows an action under way
// instead of the status (mark not ""): still to happen.
func MarkedTone(mark string, tone datatable.Tone) datatable.Tone {
	if mark != "" {
		return datatable.ToneWarning
	}
	return tone
}

// toneStyle is a tone's style in a pane.
func toneStyle(th ui.Theme, t datatable.Tone) lipgloss.Style {
	switch t {
	case datatable.ToneSuccess:
		return th.Success
	case datatable.ToneWarning:
		return th.Warning
	case datatable.ToneHeld:
		return th.Held
	case datatable.ToneDanger:
		return th.Danger
	}
	return th.Text
}

func RefundStatusText(s backend.RefundStatus) string {
	return refundMarker(s) + " " + textsafe.Clean(string(s))
}

// ScopeText names a scope for messages: "1001, 7 days (13 Nov – 20 Nov)".
func ScopeText(s ui.Scope) string {
	var b strings.Builder
	b.WriteString(textsafe.Clean(s.MerchantID))
	if s.Preset != "" {
		b.WriteString(", ")
		b.WriteString(s.Preset)
	}
	if !s.Start.IsZero() && !s.End.IsZero() {
		last := s.End.Add(-time.Nanosecond)
		fmt.Fprintf(&b, " (%s – %s)", s.Start.Local().Format("02 Jan"), last.Local().Format("02 Jan"))
	}
	return b.String()
}

func PeriodQuery(s ui.Scope) backend.PeriodQuery {
	return backend.PeriodQuery{MerchantID: s.MerchantID, Start: s.Start, End: s.End}
}

// --- errors ------------------------------------------------------------------

// HintOf is the adapter error's advice, "" for other errors.
func HintOf(err error) string {
	var e *backend.Error
	switch {
	case errors.As(err, &e):
		return e.Hint()
	case errors.Is(err, action.ErrNotRecorded) && errors.Is(err, syscall.ENOSPC):
		return "nothing was sent; free space on the disk that holds the journal, then try again"
	case errors.Is(err, action.ErrNotRecorded):
		return "nothing was sent; make the journal writable (see the error), then try again"
	}
	return ""
}

// ErrText is an error for the screen: one clean line.
func ErrText(err error) string {
	if err == nil {
		return ""
	}
	return textsafe.Line(err.Error(), 300)
}

func ErrorCmd(err error) tea.Cmd {
	msg := ui.ErrorMsg{Err: err, Hint: HintOf(err)}
	return func() tea.Msg { return msg }
}

func ToastCmd(level ui.ToastLevel, text string) tea.Cmd {
	msg := ui.ToastMsg{Level: level, Text: text}
	return func() tea.Msg { return msg }
}

func MsgCmd(m tea.Msg) tea.Cmd { return func() tea.Msg { return m } }

// Cancelled reports whether err only says that the request was abandoned
// (the user left the scope): nothing to tell anyone.
func Cancelled(err error) bool {
	return errors.Is(err, context.Canceled)
}

// --- layout helpers ------------------------------------------------------------

// Fit cuts s (which may hold styles) to w cells with "…" and pads it to
// exactly w cells.
func Fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if ansi.StringWidth(s) > w {
		s = ansi.Truncate(s, w, "…")
	}
	if pad := w - ansi.StringWidth(s); pad > 0 {
		s += strings.Repeat(" ", pad)
	}
	return s
}

// Block makes exactly h lines of exactly w cells from lines.
func Block(lines []string, w, h int) []string {
	out := make([]string, h)
	blank := strings.Repeat(" ", max(w, 0))
	for i := range out {
		if i < len(lines) {
			out[i] = Fit(lines[i], w)
		} else {
			out[i] = blank
		}
	}
	return out
}

// IsDigits reports whether s is a non-empty string of ASCII digits.
func IsDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// --- what every list tab does alike ----------------------------------------------

// ListContext is a list tab's key context: the filter prompt while it has
// the focus, the detail pane while one is open, else the list.
func ListContext(filtering, detailOpen bool) keys.Context {
	switch {
	case filtering:
		return keys.ContextFilter
	case detailOpen:
		return keys.ContextDetail
	}
	return keys.ContextList
}

// RefusedKey is what a key that cannot act now does: say why, unless the
// action does not exist here at all.
func RefusedKey(p keys.Press) tea.Cmd {
	if p.Reason != "" && p.Reason != keys.NotHere {
		return ToastCmd(ui.ToastWarning, p.Reason)
	}
	return nil
}

func CopyID(id string) tea.Cmd {
	return ui.Copy("", textsafe.Clean(id))
}

// NeedsV2 is why a tab that lives on the current interface has nothing to
// show when only the legacy one is configured ("" when v2 is there).
func NeedsV2(b interface{ Describe() backend.Description }, what string) string {
	if b == nil || slices.Contains(b.Describe().Interfaces, backend.V2) {
		return ""
	}
	return "The service's " + what + " exist only in its current (v2) interface; paydash has only the v1 login. Set PAYDASH_V2_TOKEN (or v2_token in the config file) to see them."
}

// RawOrNote is the raw view of a body as received, or a note that there
// is none (the list does not keep one).
func RawOrNote(raw []byte, th ui.Theme) []string {
	if len(raw) == 0 {
		return []string{th.Muted.Render("no body: the list does not keep one; r reads it again")}
	}
	return RawLines(raw)
}

// KeyName is the first key bound to an action, for hints in text.
func KeyName(km keys.Map, a keys.Action, fallback string) string {
	if b, ok := km.Binding(a); ok && len(b.Keys()) > 0 {
		return keys.Label(b.Keys()[:1])
	}
	return fallback
}
