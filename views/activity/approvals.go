package activity

import (
	"cmp"
	"errors"
	"io/fs"
	"time"

	"paydash/backend/approval"
	"paydash/backend/textsafe"
	"paydash/ui/datatable"
)

// The phases of a row of the approvals file (a journal row's are the
// journal's: sent, done, failed, unknown, abandoned).
const (
	phaseFiled     = "filed"
	phaseApproved  = "approved"
	phaseRejected  = "rejected"
	phaseWithdrawn = "withdrawn"
	phaseExpired   = "expired"
)

// approvalPhases are the events of the approvals file shown as rows, by
// the phase they show; a settled event (what became of the action sent)
// is not a row of its own: the action's row from the journal says it.
var approvalPhases = map[approval.EventKind]string{
	approval.EventFiled: phaseFiled, approval.EventClaimed: phaseApproved, approval.EventRejected: phaseRejected,
	approval.EventWithdrawn: phaseWithdrawn, approval.EventExpired: phaseExpired,
}

// readApprovals reads the approvals file at path into one row an event
// (filed, approved, rejected, withdrawn, expired) written at since or
// later, in the order written; each row's Steps are every event of its
// request, settled ones too. A file not written yet (or no path: the
// single-user paydash) is no rows.
func readApprovals(path string, since time.Time) (rows []row, damaged int, err error) {
	if path == "" {
		return nil, 0, nil
	}
	evs, bad, err := approval.History(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, 0, nil
	}
	steps := map[string][]step{}
	for _, ev := range evs {
		r := ev.Request
		steps[r.ID] = append(steps[r.ID], step{Time: ev.Time, Phase: string(ev.Kind), Result: r.Outcome, Error: r.Reason})
	}
	seen := map[string]bool{}
	for i, ev := range evs {
		phase, ok := approvalPhases[ev.Kind]
		id := ev.Request.ID + "/" + phase
		if !ok || ev.Time.Before(since) || seen[id] {
			continue
		}
		seen[id] = true
		rows = append(rows, approvalRow(ev, phase, id, i+1, steps[ev.Request.ID]))
	}
	return rows, len(bad), err
}

// approvalRow is the row of one event of a request. Person is who asked;
// Decider who approved, rejected or withdrew it, and Approver the one who
// approved it (as the journal names the approver of the action sent).
func approvalRow(ev approval.Event, phase, id string, seq int, steps []step) row {
	r := ev.Request
	out := row{ID: id, Sent: ev.Time, Person: r.Requester, PersonKey: r.RequesterKey, Req: r.Action, Phase: phase,
		Steps: steps, RequestID: r.ID, Expires: r.Expires, seq: seq}
	switch phase {
	case phaseApproved, phaseRejected, phaseWithdrawn:
		out.Decider, out.DeciderKey = r.Decider, r.DeciderKey
	}
	if phase == phaseApproved {
		out.Approver, out.ApproverKey = r.Decider, r.DeciderKey
	}
	if phase == phaseRejected {
		out.Reason = r.Reason
	}
	return out
}

// approvalOutcome is what an event of a request says: "rejected by
// boris: over the daily limit"; ok is false for a journal row.
func approvalOutcome(r row) (string, bool) {
	switch r.Phase {
	case phaseFiled:
		return "filed: asks a supervisor's approval", true
	case phaseApproved:
		return "approved by " + textsafe.Line(r.Decider, 40) + ": sent as action " + shortID(r.Req.ID), true
	case phaseRejected:
		return "rejected by " + textsafe.Line(r.Decider, 40) + ": " + textsafe.Line(r.Reason, 200), true
	case phaseWithdrawn:
		return "withdrawn by " + textsafe.Line(r.Decider, 40), true
	case phaseExpired:
		return "expired: nobody decided it in time", true
	}
	return "", false
}

// approvalTones colour an approval event: a rejection red, an expiry
// amber, an approval green.
var approvalTones = map[string]datatable.Tone{
	phaseApproved: datatable.ToneSuccess, phaseRejected: datatable.ToneDanger, phaseExpired: datatable.ToneWarning,
}

// isApproval: the row is an event of the approvals file.
func (r row) isApproval() bool { return r.RequestID != "" }

// newestFirst orders the rows of both files: the newest first; at the same
// moment an action before the approval that sent it, and two events of
// the approvals file the later written first.
func newestFirst(a, b row) int {
	return cmp.Or(b.Sent.Compare(a.Sent), cmpBool(a.isApproval(), b.isApproval()), cmp.Compare(b.seq, a.seq),
		cmp.Compare(b.ID, a.ID))
}

func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// since is the oldest time of an approval event shown: that of the
// journal's current file (its rollover line), and when older actions were
// left out, that of the oldest action kept, so that the list's end is one
// moment for both.
func since(began time.Time, actions []row, cut int) time.Time {
	if cut > 0 && len(actions) > 0 {
		return actions[len(actions)-1].Sent
	}
	return began
}
