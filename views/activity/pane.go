package activity

import (
	tea "charm.land/bubbletea/v2"

	"paydash/backend/money"
	"paydash/backend/textsafe"
	"paydash/views/search"
	"paydash/views/tab"
)

// detailLines is everything about the action, one fact a line, and its
// journal lines in order.
func (a *Activity) detailLines() []string {
	th := a.Theme
	r := a.Pane.Obj
	c := textsafe.Clean
	f := &tab.Fields{Theme: th, LabelW: 14, Width: a.Pane.Inner()}
	if r.isApproval() {
		return approvalLines(f, r)
	}
	f.AddAlways("Outcome", outcome(r))
	f.Add("Action", what(r))
	f.Add("Person", c(r.Person))
	f.Add("Approver", c(r.Approver))
	f.Add("Approver key", c(r.ApproverKey))
	f.Add("Sent", tab.FmtTime(r.Sent))
	f.Add("Learned how", c(r.How))
	f.Add("Idempotency", c(r.Req.IdempotencyKey))
	f.Add("Interface", c(string(r.Req.Interface)))
	f.Add("Action id", c(r.ID))
	f.Heading("In the journal")
	for _, l := range stepLines(r) {
		f.Line(l)
	}
	return f.Lines
}

// approvalLines is everything about an event of a request for approval,
// and every event of the request in order.
func approvalLines(f *tab.Fields, r row) []string {
	c := textsafe.Clean
	f.AddAlways("Event", outcome(r))
	f.Add("Action", what(r))
	f.Add("Asked by", c(r.Person))
	f.Add("Their key", c(r.PersonKey))
	f.Add("Decided by", c(r.Decider))
	f.Add("Decider key", c(r.DeciderKey))
	f.Add("Reason", textsafe.Line(r.Reason, 200))
	f.Add("At", tab.FmtTime(r.Sent))
	if r.Phase == phaseFiled || r.Phase == phaseExpired {
		f.Add("Expires", tab.FmtTime(r.Expires))
	}
	f.Add("Request id", c(r.RequestID))
	f.Add("Action id", c(r.Req.ID))
	f.Heading("In the approvals file")
	for _, l := range stepLines(r) {
		f.Line(l)
	}
	return f.Lines
}

// rawLines is the raw view (v): the action's journal lines.
func rawLines(r row) []string { return stepLines(r) }

func stepLines(r row) []string {
	lines := make([]string, 0, len(r.Steps))
	for _, s := range r.Steps {
		l := tab.FmtTime(s.Time) + "  " + textsafe.Clean(s.Phase)
		for _, part := range []string{s.Result, s.Error, s.How} {
			if part != "" {
				l += " · " + textsafe.Line(part, 200)
			}
		}
		lines = append(lines, l)
	}
	return lines
}

// exportFields are the columns of the export, one an action or an event
// of a request for approval: its action_id is the action's (the same as
// the row of the action sent after an approval), sent_utc the event's
// time, phase the event (filed, approved, rejected, withdrawn, expired),
// and the last three columns are the approval's own.
func exportFields() []tab.ExportField[row] {
	type R = row
	return []tab.ExportField[R]{
		{Name: "action_id", Value: actionID, Text: true},
		{Name: "sent_utc", Value: func(r R) string { return tab.UTCTime(r.Sent) }},
		{Name: "person", Value: func(r R) string { return r.Person }, Text: true},
		{Name: "approver", Value: func(r R) string { return r.Approver }, Text: true},
		{Name: "approver_key", Value: func(r R) string { return r.ApproverKey }, Text: true},
		{Name: "action", Value: func(r R) string { return string(r.Req.Kind) }, Text: true},
		{Name: "object_id", Value: func(r R) string { return r.Req.ObjectID }, Text: true},
		{Name: "amount", Value: func(r R) string { return amountText(r.Req.Amount) }},
		{Name: "currency", Value: func(r R) string { return r.Req.Amount.Currency }, Text: true},
		{Name: "phase", Value: func(r R) string { return r.Phase }, Text: true},
		{Name: "result", Value: func(r R) string { return r.Result }, Text: true},
		{Name: "error", Value: func(r R) string { return r.Error }, Text: true},
		{Name: "how", Value: func(r R) string { return r.How }, Text: true},
		{Name: "approval_id", Value: func(r R) string { return r.RequestID }, Text: true},
		{Name: "decided_by", Value: func(r R) string { return r.Decider }, Text: true},
		{Name: "reason", Value: func(r R) string { return r.Reason }, Text: true},
	}
}

// actionID is the ID of the row's action: an approval event's too.
func actionID(r row) string {
	if r.isApproval() {
		return r.Req.ID
	}
	return r.ID
}

// involved is everyone a row concerns, for person:: who did or asked for
// it, who approved it, who rejected or withdrew it.
func involved(r *row) string { return r.Person + "\n" + r.Approver + "\n" + r.Decider }

// amountText is an action's amount exactly, "" for an action without one
// (a revoke, a toggle).
func amountText(a money.Amount) string {
	if a.Value.IsZero() && a.Currency == "" {
		return ""
	}
	return tab.ExactAmount(a)
}

// export is ctrl+s: the actions shown, for the record.
func (a *Activity) export() tea.Cmd {
	return tab.ExportRows(a.List, tab.ExportSpec[row]{Noun: "rows", Stem: tab.ExportStem("activity", ""),
		Fields: exportFields(), Now: a.Deps.TimeNow()})
}

// activitySearch: person (anyone involved: involved), approver, outcome
// (an action's phase or an approval's event), object, amount, id (the
// action's: an approval's events and the action it sent share it).
func activitySearch() *tab.SearchSpec[row] {
	return &tab.SearchSpec[row]{
		Fields: []search.Field{
			{Name: "person", Kind: search.Contains, Example: "person:anna"},
			{Name: "approver", Kind: search.Contains, Example: "approver:boris"},
			{Name: "outcome", Kind: search.Enum, Example: "outcome:failed,unknown",
				Values: []string{"sent", "done", "failed", "unknown", "abandoned",
					phaseFiled, phaseApproved, phaseRejected, phaseWithdrawn, phaseExpired}},
			{Name: "object", Kind: search.Exact, Example: "object:43149010"},
			tab.AmountField,
			tab.IDField,
		},
		Get: map[string]func(*row) string{
			"person":   involved,
			"approver": func(r *row) string { return r.Approver },
			"outcome":  func(r *row) string { return r.Phase },
			"object":   func(r *row) string { return r.Req.ObjectID },
			"id":       func(r *row) string { return actionID(*r) },
		},
		Amount: map[string]func(*row) money.Decimal{
			"amount": func(r *row) money.Decimal { return r.Req.Amount.Value },
		},
	}
}
