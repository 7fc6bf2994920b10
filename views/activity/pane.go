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

// exportFields are the columns of the export, one an action.
func exportFields() []tab.ExportField[row] {
	type R = row
	return []tab.ExportField[R]{
		{Name: "action_id", Value: func(r R) string { return r.ID }, Text: true},
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
	}
}

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
	return tab.ExportRows(a.List, tab.ExportSpec[row]{Noun: "actions", Stem: tab.ExportStem("activity", ""),
		Fields: exportFields(), Now: a.Deps.TimeNow()})
}

// activitySearch: person, approver, outcome, action, id (the action's).
func activitySearch() *tab.SearchSpec[row] {
	return &tab.SearchSpec[row]{
		Fields: []search.Field{
			{Name: "person", Kind: search.Contains, Example: "person:anna"},
			{Name: "approver", Kind: search.Contains, Example: "approver:boris"},
			{Name: "outcome", Kind: search.Enum, Example: "outcome:failed,unknown",
				Values: []string{"sent", "done", "failed", "unknown", "abandoned"}},
			{Name: "object", Kind: search.Exact, Example: "object:43149010"},
			tab.AmountField,
			tab.IDField,
		},
		Get: map[string]func(*row) string{
			"person":   func(r *row) string { return r.Person },
			"approver": func(r *row) string { return r.Approver },
			"outcome":  func(r *row) string { return r.Phase },
			"object":   func(r *row) string { return r.Req.ObjectID },
			"id":       func(r *row) string { return r.ID },
		},
		Amount: map[string]func(*row) money.Decimal{
			"amount": func(r *row) money.Decimal { return r.Req.Amount.Value },
		},
	}
}
