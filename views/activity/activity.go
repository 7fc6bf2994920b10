// Package activity is the Activity tab of paydash serve (key 7): who did
// what, when, and with which outcome, as the journal has it, and who asked
// for, approved, rejected or withdrew an action over a limit, or let it
// expire, as the approvals file has it (backend/approval). One row an
// action (its journal lines put together by actionId) and one an event
// of a request (approvals.go), newest first; it is an audit, so everyone
// at the dashboard sees every person's actions (docs/serve.md). It reads
// the current month's journal file only (backend/journal rolls it over
// monthly) and the approval events since it began, keeps the newest
// MaxActions actions, and reads again on r, on the periodic refresh
// (which brings other sessions' actions) and when an action of this
// session ends.
package activity

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"time"

	tea "charm.land/bubbletea/v2"

	"paydash/backend"
	"paydash/backend/action"
	"paydash/backend/journal"
	"paydash/backend/money"
	"paydash/backend/textsafe"
	"paydash/ui"
	"paydash/ui/datatable"
	"paydash/views/tab"
)

const endText = "— end of this month's journal —"

// Activity is the tab.
type Activity struct {
	tab.ListTab[row]
	path      string // the journal's current file
	approvals string // the approvals file; "" without one
}

// New makes the tab. It needs Deps.Journal; the approval events come
// from Deps.Team.Approvals's file when there is one (Deps.Team may be nil).
func New(d tab.Deps) ui.Tab {
	a := &Activity{path: d.Journal.Path()}
	if d.Team != nil && d.Team.Approvals != nil {
		a.approvals = d.Team.Approvals.Path()
	}
	cfg := datatable.Config[row]{
		ID:        func(r row) string { return r.ID },
		Columns:   columns(),
		EmptyText: "No actions in this month's journal",
		EndText:   endText,
	}
	list := tab.NewPagedList(cfg, d.Keys, d.Theme, func(r row) time.Time { return r.Sent })
	list.Search = activitySearch()
	pane := tab.NewDetail(func(_ context.Context, r row) (row, error) { return r, nil }, a.detailLines, rawLines)
	a.ListTab = tab.NewListTab(d, list, pane)
	a.PaneTitle = func(r row) string {
		if r.isApproval() {
			return "Approval request " + shortID(r.RequestID)
		}
		return "Action " + shortID(r.ID)
	}
	a.Keys = a.ListKeys("action", a.List.Refresh, nil, a.export)
	a.Hooks = tab.ListHooks[row]{Rows: a.rows}
	a.Wire(tab.KeyRoute[row]{})
	return a
}

func columns() []datatable.Column[row] {
	return []datatable.Column[row]{
		{Key: "time", Title: "Time", Width: 12, Priority: 100,
			Text: func(r row) string { return tab.FmtListTime(r.Sent) },
			Less: func(a, b row) int { return a.Sent.Compare(b.Sent) }},
		{Key: "person", Title: "Person", Width: 8, MaxWidth: 16, Priority: 90,
			Text: func(r row) string { return r.Person },
			Less: func(a, b row) int { return cmp.Compare(a.Person, b.Person) }},
		{Key: "approver", Title: "Approver", Width: 8, MaxWidth: 16, Priority: 40,
			Text: func(r row) string { return r.Approver },
			Less: func(a, b row) int { return cmp.Compare(a.Approver, b.Approver) }},
		{Key: "what", Title: "What", Width: 22, Flex: 3, Priority: 80,
			Text: func(r row) string { return what(r) },
			Less: func(a, b row) int { return cmp.Compare(what(a), what(b)) }},
		{Key: "outcome", Title: "Outcome", Width: 14, Flex: 3, Priority: 95,
			Text: outcome,
			Tone: func(r row) datatable.Tone { return cmp.Or(phaseTones[r.Phase], approvalTones[r.Phase]) },
			Less: func(a, b row) int { return cmp.Compare(outcome(a), outcome(b)) }},
	}
}

// what is the action and its object and amount: "refund of 500.00 RUB
// for payment 43149010".
func what(r row) string { return action.Describe(r.Req) }

// outcome is the phase the action reached, with what the service did or
// why it was not done: "done: refund 7000123 Pending".
// An approval event says what became of the request.
func outcome(r row) string {
	if s, ok := approvalOutcome(r); ok {
		return s
	}
	var detail string
	switch r.Phase {
	case journal.PhaseSent:
		detail = "no answer yet"
	case journal.PhaseDone:
		detail = r.Result
	default:
		detail = r.Error
	}
	if detail == "" {
		return r.Phase
	}
	return r.Phase + ": " + textsafe.Line(detail, 200)
}

// phaseTones colour the outcome: done green, failed red, not yet known
// amber; a sent action without an answer yet stays plain.
var phaseTones = map[string]datatable.Tone{
	journal.PhaseDone: datatable.ToneSuccess, journal.PhaseFailed: datatable.ToneDanger,
	journal.PhaseUnknown: datatable.ToneWarning, journal.PhaseAbandoned: datatable.ToneWarning,
}

// ID implements ui.Tab.
func (a *Activity) ID() ui.TabID { return ui.TabActivity }

// Title implements ui.Tab.
func (a *Activity) Title() string { return "Activity" }

// Init implements ui.Tab: the journal's actions.
func (a *Activity) Init(s ui.Scope) tea.Cmd {
	a.Scope = s
	a.Layout()
	return a.List.Start(a.load(), nil)
}

// load reads the journal, in the list's command: never in Update.
func (a *Activity) load() tab.Loader[row] {
	path, approvals := a.path, a.approvals
	return func() backend.Pager[row] {
		return tab.OneCall(func(context.Context) ([]row, error) { return loadRows(path, approvals) })
	}
}

// loadRows is the rows of the journal at path and of the approvals file
// at approvals, newest first, the oldest carrying the list's end text
// when older actions were left out or lines were damaged. A file not
// written yet has no rows; an approvals file that cannot be read is said
// at the list's end, beside the actions.
func loadRows(path, approvals string) ([]row, error) {
	if path == "" {
		return nil, nil
	}
	rows, cut, began, err := readActions(path, MaxActions)
	var corrupt *journal.CorruptError
	var n note
	switch {
	case errors.Is(err, os.ErrNotExist):
		rows, err = nil, nil
	case errors.As(err, &corrupt) && len(rows) > 0:
		n.damaged, err = len(corrupt.Lines), nil
	case err != nil:
		return nil, err
	}
	n.cut = cut
	events, damaged, aerr := readApprovals(approvals, since(began, rows, cut))
	n.approvalsDamaged = damaged
	if aerr != nil {
		n.approvalsErr = textsafe.Line(aerr.Error(), 200)
	}
	rows = append(rows, events...)
	slices.SortStableFunc(rows, newestFirst)
	if len(rows) > 0 {
		rows[len(rows)-1].end = n.text()
	}
	return rows, nil
}

// note is what the list's end says when not everything is shown.
type note struct {
	cut, damaged, approvalsDamaged int
	approvalsErr                   string
}

// endNote is the list's end when not every action is shown.
func endNote(cut, damaged int) string { return note{cut: cut, damaged: damaged}.text() }

// text is the list's end: "" when everything is shown.
func (n note) text() string {
	if n == (note{}) {
		return ""
	}
	s := "— end"
	if n.cut > 0 {
		s += fmt.Sprintf(": the newest %s actions; %s older ones this month are not shown",
			money.Count(MaxActions), money.Count(n.cut))
	}
	if n.damaged > 0 {
		s += "; " + tab.Plural(n.damaged, "damaged journal line", "damaged journal lines") + " skipped"
	}
	if n.approvalsDamaged > 0 {
		s += "; " + tab.Plural(n.approvalsDamaged, "damaged line", "damaged lines") + " of the approvals file skipped"
	}
	if n.approvalsErr != "" {
		s += "; the approvals could not be read: " + n.approvalsErr
	}
	return s + " —"
}

// rows notes what a read brought: the list's end, and the action in the
// pane as read now.
func (a *Activity) rows(rows []row) tea.Cmd {
	if len(rows) == 0 {
		return nil
	}
	a.List.Table.SetEndText(cmp.Or(rows[len(rows)-1].end, endText))
	if a.Pane.IsOpen() {
		for _, r := range rows {
			if r.ID == a.Pane.Obj.ID {
				a.Pane.Obj = r
				break
			}
		}
	}
	return nil
}

// Update implements ui.Tab.
func (a *Activity) Update(msg tea.Msg) (ui.Tab, tea.Cmd) {
	if cmd, ok := a.ListTab.Update(msg); ok {
		return a, cmd
	}
	switch msg.(type) {
	case ui.RefreshMsg, tab.ChangedMsg:
		// The periodic refresh brings other sessions' actions; an action
		// of this one that ended (in any tab) comes at once.
		return a, a.List.Refresh()
	}
	return a, nil
}

func shortID(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}
