package action

import (
	"strings"
	"time"

	"paydash/backend"
	"paydash/backend/journal"
	"paydash/backend/money"
)

// entryOf is req as a journal line of phase. Every line of an action holds
// the whole request, its parameters too (Params), so that it can be rebuilt
// from any of them.
func entryOf(req Request, phase string) journal.Entry {
	e := journal.Entry{
		Action: string(req.Kind), Phase: phase, ObjectID: req.ObjectID,
		Amount: req.Amount.Value.StringFixed(money.Decimals(req.Amount.Currency)), Currency: req.Amount.Currency,
		Interface: string(req.Interface), IdempotencyKey: req.IdempotencyKey, ActionID: req.ID,
		Person: req.Person, Approver: req.Approver, ApproverKey: req.ApproverKey,
	}
	if v2Only(req.Kind) && req.Amount == (money.Amount{}) {
		e.Amount = "" // a revoke, a toggle, a card-saving link: no amount
	}
	if !req.Service.IsZero() {
		s := req.Service // every line of an action names the service of its sent line
		e.Service = &s
	}
	// Send has checked that the parameters encode: nothing is sent otherwise.
	e.Params, _ = params(req)
	return e
}

// Pending returns the actions of a journal's entries that have no final
// line, oldest first, rebuilt from their "sent" lines, each with the
// service its line names (PendingHere splits them by service). An action whose
// later lines are only unknown or abandoned is pending; one with any done
// or failed line is resolved, whatever the order of its lines.
//
// Lines without an actionId come from older versions of paydash: a sent
// line is resolved by a later done or failed line with the same action,
// objectId and idempotencyKey (the oldest open one first). Such an action,
// when pending, gets an ID made from its sent line, the same at every
// start, so that the final line Check writes under it resolves it next
// time.
//
// A toggle's state and a create's request are rebuilt from the line's
// params. A sent line whose amount or params cannot be read (or has none:
// a line of an older paydash) or whose kind is unknown is still returned
// (the kind as written, the amount zero) so that it is reported, not
// silently dropped; Check then says it cannot be found out.
func Pending(entries []journal.Entry) []Request {
	type action struct {
		req      Request
		fromSent bool // req was rebuilt from the sent line
		old      bool // journaled by an older paydash, without actionId
		final    bool
	}
	var (
		byID    = map[string]*action{}
		order   []*action
		oldByID = map[string]*action{}
		oldOpen = map[[3]string][]*action{} // older paydash: sent lines not yet resolved, by action, object and key
	)
	for _, e := range entries {
		if e.ActionID == "" {
			key := [3]string{e.Action, e.ObjectID, e.IdempotencyKey}
			switch {
			case e.Phase == journal.PhaseSent:
				a := &action{req: requestOf(e), fromSent: true, old: true}
				a.req.ID = oldID(e)
				oldByID[a.req.ID] = a
				order = append(order, a)
				oldOpen[key] = append(oldOpen[key], a)
			case journal.Final(e.Phase):
				if open := oldOpen[key]; len(open) > 0 {
					open[0].final = true
					oldOpen[key] = open[1:]
				}
			}
			continue
		}
		a := byID[e.ActionID]
		if a == nil {
			// Usually the sent line; if that is missing (a torn line), the
			// action is rebuilt from the first line it has, and when it
			// was sent is not known.
			a = &action{req: requestOf(e), fromSent: e.Phase == journal.PhaseSent}
			if !a.fromSent {
				a.req.Sent = time.Time{}
			}
			byID[e.ActionID] = a
			order = append(order, a)
		} else if e.Phase == journal.PhaseSent && !a.fromSent {
			a.req, a.fromSent = requestOf(e), true // the sent line came after another line
		}
		if journal.Final(e.Phase) {
			a.final = true
		}
	}
	var out []Request
	for _, a := range order {
		switch {
		case !a.old && oldByID[a.req.ID] != nil:
			continue // lines written under an older action's made ID belong to it
		case a.final:
			continue
		case a.old && byID[a.req.ID] != nil && byID[a.req.ID].final:
			continue // resolved by a line written under its made ID
		}
		out = append(out, a.req)
	}
	return out
}

// requestOf rebuilds a request from one of its journal lines.
func requestOf(e journal.Entry) Request {
	r := Request{
		ID: e.ActionID, Kind: backend.ActionName(e.Action), ObjectID: e.ObjectID, Interface: backend.Interface(e.Interface),
		IdempotencyKey: e.IdempotencyKey, Sent: e.Time,
		Amount: money.Amount{Currency: e.Currency}, Person: e.Person, Approver: e.Approver, ApproverKey: e.ApproverKey,
	}
	if v, err := money.Parse(strings.TrimSpace(e.Amount)); err == nil {
		r.Amount.Value = v
	}
	if e.Service != nil {
		r.Service = *e.Service
	}
	readParams(e.Params, &r)
	return r
}

// oldID is the ID of an action journaled by an older paydash, made from its
// sent line so that it is the same at every start (journal.LegacyID, which
// the journal's own reading of open actions uses too).
func oldID(e journal.Entry) string { return journal.LegacyID(e) }

// EntryOf is req as a journal line of phase, as the journal writes it
// (Params included): the approvals file keeps the action a support person
// asked for this way, so that the very request is sent once approved.
func EntryOf(req Request, phase string) journal.Entry { return entryOf(req, phase) }

// RequestOf rebuilds a request from a line EntryOf made (or a journal
// line): a create's or a toggle's Params too.
func RequestOf(e journal.Entry) Request { return requestOf(e) }
