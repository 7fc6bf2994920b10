package tab

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// refreshMaxPages bounds what one refresh reads.
const refreshMaxPages = 5

// Refresh re-reads the newest pages: the first page, and more while they
// hold only rows newer than the newest loaded one or until as many pages
// as are loaded have been read, never more than refreshMaxPages. A list
// not ordered by time reads as many pages as are loaded.
func (pl *PagedList[T]) Refresh() tea.Cmd {
	if pl.Pages == 0 || pl.Load == nil {
		// Nothing loaded yet: the first load (or its retry) is the refresh.
		return pl.Next()
	}
	if pl.refreshing {
		pl.again = true
		return nil
	}
	pl.refreshing, pl.again = true, false
	loadCtx, _ := pl.Loads.Current()
	ctx, st := pl.Refreshes.Start(loadCtx)
	pager := pl.Load()
	newest, loaded, when := pl.newest, pl.Pages, pl.when
	return func() tea.Msg {
		var rows []T
		for n := 1; n <= refreshMaxPages; n++ {
			page, err := pager.Next(ctx)
			if err != nil {
				return RefreshMsg[T]{Stamp: st, err: err}
			}
			rows = append(rows, page.Items...)
			if page.Done {
				return RefreshMsg[T]{Stamp: st, Rows: rows, done: true}
			}
			allNewer := when != nil && len(page.Items) > 0 && when(page.Items[len(page.Items)-1]).After(newest)
			if !allNewer && n >= loaded {
				break
			}
		}
		return RefreshMsg[T]{Stamp: st, Rows: rows}
	}
}

// OnRefresh applies a refresh: new rows at the top, changed rows in place
// (flashed), loaded rows the refresh no longer found taken out; rows older
// than everything loaded wait for their page.
func (pl *PagedList[T]) OnRefresh(msg RefreshMsg[T], now time.Time) (tea.Cmd, []T) {
	if !pl.Refreshes.Fresh(msg.Stamp) {
		return nil, nil
	}
	pl.refreshing = false
	var again tea.Cmd
	if pl.again {
		again = pl.Refresh()
	}
	if msg.err != nil {
		if Cancelled(msg.err) {
			return again, nil
		}
		return tea.Batch(again, ErrorCmd(msg.err)), nil
	}
	rows := msg.Rows[:0:0]
	for _, r := range msg.Rows {
		if pl.when == nil || pl.Done || pl.oldest.IsZero() || !pl.when(r).Before(pl.oldest) {
			rows = append(rows, r)
		}
	}
	pl.Table.Upsert(rows, now)
	pl.dropGone(msg.Rows, msg.done)
	pl.note(rows)
	pl.pickNow()
	pl.refreshed = now
	return again, rows
}

// dropGone takes out the loaded rows that a refresh read the place of and
// did not find: they left the list (a search the service narrows no
// longer selects them, or they left the period). The place read is the
// whole list when the refresh reached its end; else, when the rows came
// newest first, everything newer than the oldest row read (rows as old as
// that one may be on the next page). A list whose answer was not in that
// order (the legacy interface's, narrowed day by day) keeps its rows
// until a refresh reads to its end.
func (pl *PagedList[T]) dropGone(read []T, done bool) {
	var bound time.Time
	ordered := pl.when != nil
	seen := make(map[string]struct{}, len(read))
	for _, r := range read {
		seen[pl.rowID(r)] = struct{}{}
		if !ordered {
			continue
		}
		t := pl.when(r)
		if t.IsZero() || (!bound.IsZero() && t.After(bound)) {
			ordered = false
			continue
		}
		bound = t
	}
	if !done && (!ordered || bound.IsZero()) {
		return
	}
	missing := func(r *T) bool {
		_, ok := seen[pl.rowID(*r)]
		return !ok
	}
	if done {
		pl.Table.RemoveWhere(missing)
		return
	}
	// Newest first, until well past the place read: the rows older than
	// it are most of a long list, and none of them is looked at.
	pl.Table.RemoveNewest(pastRun, func(r *T) (gone, past bool) {
		if t := pl.when(*r); t.IsZero() || !t.After(bound) {
			return false, !t.IsZero()
		}
		return missing(r), false
	})
}

// pastRun is how many rows in a row older than a refresh's place read
// end the look for rows that left: rows arrive newest first, but a row
// put in from elsewhere (an action's answer) may sit among older ones.
const pastRun = 256

// Upsert puts one row read elsewhere (an action's answer, a detail) into
// the list, if it belongs here and to the loaded part of it.
func (pl *PagedList[T]) Upsert(r T, now time.Time) {
	if pl.belongs != nil && !pl.belongs(r) {
		return
	}
	if pl.Narrowed != "" {
		// The service's selection holds its own view of each row (the
		// legacy one): a row read through the other interface would flip
		// with it at every refresh, so the refresh brings a change. A row
		// that no longer matches the search leaves at once.
		if !pl.Table.Matches(r) {
			pl.Table.Remove(pl.rowID(r))
		}
		return
	}
	if pl.when != nil {
		if t := pl.when(r); !t.IsZero() && !pl.Done && (pl.oldest.IsZero() || t.Before(pl.oldest)) {
			return
		}
	}
	pl.Table.Upsert([]T{r}, now)
	pl.note([]T{r})
	pl.pickNow()
}

// Own marks a row the user just made or changed: it is selected (and
// scrolled to) as soon as it is loaded, now or when a refresh or a page
// brings it. Other rows that arrive meanwhile wait behind "↑ N new" as
// usual; the user's own does not.
func (pl *PagedList[T]) Own(id string) {
	pl.pick = id
	pl.pickNow()
}

// pickNow selects the row own asked for, once it is loaded and shown.
func (pl *PagedList[T]) pickNow() {
	if pl.pick != "" && pl.Table.SelectByID(pl.pick) {
		pl.pick = ""
	}
}
