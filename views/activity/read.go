package activity

import (
	"cmp"
	"slices"
	"time"

	"paydash/backend/action"
	"paydash/backend/journal"
)

// MaxActions is how many actions the tab keeps: the newest. A month's
// journal of a busy team holds more; the list's end says how many older
// ones were left out.
const MaxActions = 10_000

// step is one line of an action in the journal.
type step struct {
	Time   time.Time
	Phase  string
	Result string
	Error  string
	How    string
}

// row is one action, its journal lines put together, or one event of a
// request for approval (approvals.go): RequestID is set then.
type row struct {
	ID          string    // the action's ID; for an approval event, its request's and the phase
	Sent        time.Time // the time of its sent line (else of its first line); of an approval event, its time
	Person      string    // who did it; of an approval event, who asked
	Approver    string
	ApproverKey string
	Req         action.Request // as its sent line (else its first line) gives it
	// Phase is the latest line's, except that a final phase (done,
	// failed) is never replaced by a later line that is not final (an
	// "abandoned" written on quit after the answer came).
	Phase  string
	Result string
	Error  string
	How    string
	Steps  []step
	// end is the list's end text when not every action is shown, set on
	// the oldest row kept only (loadRows).
	end     string
	hasSent bool

	// Of an approval event only: the request, who asked (their key), who
	// decided it (approved, rejected or withdrew it), why (a rejection's
	// reason), when it would expire; seq is its line in the file.
	RequestID, PersonKey string
	Decider, DeciderKey  string
	Reason               string
	Expires              time.Time
	seq                  int
}

// readActions reads the journal file at path into one row per action,
// newest first, at most limit of them; cut is how many older ones were
// left out; began is the time of the file's rollover line (zero when it
// was never rolled over). The rollover line is left out; the lines a
// rollover carried into the file are kept, as they are the only lines of
// those actions in it.
func readActions(path string, limit int) (rows []row, cut int, began time.Time, err error) {
	byID := map[string]*row{}
	var order []*row
	err = journal.Scan(path, func(e journal.Entry, _ bool) error {
		if e.Action == journal.ActionRollover {
			began = e.Time
			return nil
		}
		id := e.ActionID
		if id == "" {
			id = journal.LegacyID(e)
		}
		r := byID[id]
		if r == nil {
			r = &row{ID: id}
			byID[id] = r
			order = append(order, r)
		}
		r.add(e)
		return nil
	})
	if err != nil && len(order) == 0 {
		return nil, 0, began, err
	}
	// A damaged line (a *journal.CorruptError) leaves the others readable:
	// they are shown, and the error is said beside them.
	rows = make([]row, len(order))
	for i, r := range order {
		rows[i] = *r
	}
	slices.SortStableFunc(rows, func(a, b row) int { return cmp.Or(b.Sent.Compare(a.Sent), cmp.Compare(b.ID, a.ID)) })
	if len(rows) > limit {
		cut = len(rows) - limit
		rows = rows[:limit]
	}
	return rows, cut, began, err
}

// add puts one line of the action into r.
func (r *row) add(e journal.Entry) {
	r.Steps = append(r.Steps, step{Time: e.Time, Phase: e.Phase, Result: e.Result, Error: e.Error, How: e.How})
	if len(r.Steps) == 1 || (e.Phase == journal.PhaseSent && !r.hasSent) {
		r.Req, r.Sent = action.RequestOf(e), e.Time
		r.hasSent = r.hasSent || e.Phase == journal.PhaseSent
	}
	r.Person = cmp.Or(r.Person, e.Person)
	r.Approver = cmp.Or(r.Approver, e.Approver)
	r.ApproverKey = cmp.Or(r.ApproverKey, e.ApproverKey)
	if journal.Final(r.Phase) && !journal.Final(e.Phase) {
		return
	}
	r.Phase, r.Result, r.Error, r.How = e.Phase, e.Result, e.Error, e.How
}
