package approvals

import (
	"context"

	tea "charm.land/bubbletea/v2"

	"paydash/backend/action"
	"paydash/backend/approval"
	"paydash/backend/money"
	"paydash/backend/textsafe"
	"paydash/views/search"
	"paydash/views/tab"
)

// readObject reads again what a request acts on, for its pane and its
// approval: a supervisor decides on the object as it is now, not as it
// was when the request was filed. A create has no object yet.
func (a *Approvals) readObject(ctx context.Context, r row) (row, error) {
	if now, ok := a.t.Approvals.Get(r.ID); ok {
		r.Request = now // the request as it stands, decided meanwhile or not
	}
	ref, ok := action.KindOf(r.Action.Kind).Locks(r.Action)
	if !ok {
		r.now = []string{"a new " + action.Where(r.Action.Kind) + " object is made when it is sent"}
		return r, nil
	}
	switch ref.Type {
	case action.ObjectPayment:
		p, err := a.src.GetPayment(ctx, ref.ID)
		if err != nil {
			return r, err
		}
		r.now = []string{"payment " + textsafe.Clean(p.ID) + " is " + string(p.Status) + ", " + tab.FmtAmount(p.Amount)}
	case action.ObjectToken:
		t, err := a.src.GetToken(ctx, ref.ID)
		if err != nil {
			return r, err
		}
		r.now = []string{"token " + textsafe.Clean(t.ID) + " is " + tab.TokenStatusText(t.Status)}
	case action.ObjectSticker:
		s, err := a.src.GetSticker(ctx, ref.ID)
		if err != nil {
			return r, err
		}
		r.now = []string{"sticker " + textsafe.Clean(s.ID) + " is " + textsafe.Clean(s.Status)}
	}
	return r, nil
}

// detailLines is everything about the request, one fact a line.
func (a *Approvals) detailLines() []string {
	th := a.Theme
	d := a.Pane
	r := d.Obj
	c := textsafe.Clean
	f := &tab.Fields{Theme: th, LabelW: 14, Width: d.Inner()}
	f.AddAlways("State", string(r.State))
	f.Add("Action", action.Describe(r.Action))
	f.Add("Asked by", c(r.Requester))
	f.Add("Key", c(r.RequesterKey))
	f.Add("Filed", tab.FmtTime(r.Filed))
	f.Add("Expires", tab.FmtTime(r.Expires))
	f.Add("Decided by", c(r.Decider))
	f.Add("Decided", tab.FmtTime(r.Decided))
	f.Add("Reason", c(r.Reason))
	f.Add("Outcome", c(r.Outcome))
	f.Add("Idempotency", c(r.Action.IdempotencyKey))
	f.Add("Action id", c(r.Action.ID))
	f.Heading("Now at the service")
	switch {
	case d.Loading && r.now == nil:
		f.Line(th.Muted.Render("reading it again…"))
	case d.Err != nil:
		f.Failure("", d.Err)
	}
	for _, l := range r.now {
		f.Line(l)
	}
	return f.Lines
}

// export is ctrl+s: the requests shown, for the record.
func (a *Approvals) export() tea.Cmd {
	type R = row
	fields := []tab.ExportField[R]{
		{Name: "id", Value: func(r R) string { return r.ID }, Text: true},
		{Name: "state", Value: func(r R) string { return string(r.State) }, Text: true},
		{Name: "action", Value: func(r R) string { return string(r.Action.Kind) }, Text: true},
		{Name: "object_id", Value: func(r R) string { return r.Action.ObjectID }, Text: true},
		{Name: "amount", Value: func(r R) string { return tab.ExactAmount(r.Action.Amount) }},
		{Name: "currency", Value: func(r R) string { return r.Action.Amount.Currency }, Text: true},
		{Name: "requester", Value: func(r R) string { return r.Requester }, Text: true},
		{Name: "filed_utc", Value: func(r R) string { return tab.UTCTime(r.Filed) }},
		{Name: "decider", Value: func(r R) string { return r.Decider }, Text: true},
		{Name: "decided_utc", Value: func(r R) string { return tab.UTCTime(r.Decided) }},
		{Name: "reason", Value: func(r R) string { return r.Reason }, Text: true},
		{Name: "outcome", Value: func(r R) string { return r.Outcome }, Text: true},
	}
	return tab.ExportRows(a.List, tab.ExportSpec[R]{Noun: "requests", Stem: tab.ExportStem("approvals", ""),
		Fields: fields, Now: a.Deps.TimeNow()})
}

// requestSearch: state, by (who asked), amount, id.
func requestSearch() *tab.SearchSpec[row] {
	return &tab.SearchSpec[row]{
		Fields: []search.Field{
			{Name: "state", Kind: search.Enum, Example: "state:waiting",
				Values: tab.StatusValues(approval.Waiting, approval.Approved, approval.Sent, approval.Rejected, approval.Expired)},
			{Name: "by", Kind: search.Contains, Example: "by:desk-1"},
			tab.AmountField,
			tab.IDField,
		},
		Get: map[string]func(*row) string{
			"state": func(r *row) string { return string(r.State) },
			"by":    func(r *row) string { return r.Requester },
			"id":    func(r *row) string { return r.ID },
		},
		Amount: map[string]func(*row) money.Decimal{
			"amount": func(r *row) money.Decimal { return r.Action.Amount.Value },
		},
	}
}
