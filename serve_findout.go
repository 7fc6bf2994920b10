package main

import (
	"context"
	"log/slog"
	"time"

	"paydash/backend/action"
	"paydash/backend/approval"
	"paydash/team"
	"paydash/views/tab"
)

// serverHolder is the holder of the locks the server takes while it finds
// out actions an earlier run left open: a person who tries to act on one
// of those objects is told so.
const serverHolder = "the server (finding out an action an earlier run left open)"

// findOutLeftOpen finds out, in the background, what became of the actions
// an earlier run left without an outcome (the journal's, found at start),
// as the dashboard does for one person: asked again, or the object read,
// with the same waits, until the service can say. Each object stays
// locked for every session meanwhile. An approved request whose action is
// among them gets its outcome; one whose action never reached the journal
// was not sent, and the log says so.
func findOutLeftOpen(ctx context.Context, run *action.Runner, pending []action.Request, store *approval.Store,
	locks *team.Locks, log *slog.Logger) {
	byAction := map[string]approval.Request{}
	for _, r := range store.Unsettled() {
		byAction[r.Action.ID] = r
	}
	for _, req := range pending {
		if r, ok := byAction[req.ID]; ok {
			delete(byAction, req.ID)
			go findOut(ctx, run, req, &r, store, locks, log)
		} else {
			go findOut(ctx, run, req, nil, store, locks, log)
		}
	}
	for _, r := range byAction {
		log.Warn("an approved request was never sent (the server stopped before it journaled it); ask for it again if it is still wanted",
			"request", r.ID, "requester", r.Requester, "approver", r.Decider, "action", action.Describe(r.Action))
	}
}

func findOut(ctx context.Context, run *action.Runner, req action.Request, approved *approval.Request,
	store *approval.Store, locks *team.Locks, log *slog.Logger) {
	ref, locked := action.KindOf(req.Kind).Locks(req)
	key := tab.LockKey(tab.ObjectRef{Kind: ref.Type, ID: ref.ID})
	if locked {
		if _, ok := locks.Claim(key, serverHolder); ok {
			defer locks.Release(key, serverHolder)
		}
	}
	for tries := 0; ; tries++ {
		o := run.Check(ctx, req)
		if o.Final() || !o.Retry {
			text := o.Text(req)
			log.Info("an action left open was found out", "action", action.Describe(req), "person", req.Person, "outcome", text)
			if approved != nil {
				if err := store.Settle(approved.ID, text, o.Final()); err != nil {
					log.Warn("the request's outcome could not be written", "request", approved.ID, "error", err.Error())
				}
			}
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(tab.CheckAfter(tries)):
		}
	}
}
