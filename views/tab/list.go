package tab

import (
	"context"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"paydash/backend"
	"paydash/backend/money"
	"paydash/backend/textsafe"
	"paydash/keys"
	"paydash/ui"
	"paydash/ui/datatable"
	"paydash/views/search"
)

// refreshMaxPages bounds what one refresh reads.
const refreshMaxPages = 5

// Loader opens a fresh pager over what a list shows. The tab builds it from
// its query, whatever its shape: a merchant's period (payments, refunds),
// a merchant (stickers), whole days (transfers) or a local set (the tokens
// paydash knows). The list calls it to load from the start and to refresh.
type Loader[T any] func() backend.Pager[T]

// OneCall is a Loader's pager over one call that answers the whole list
// (transfers, documents) or a local set (the tokens paydash knows).
func OneCall[T any](call func(ctx context.Context) ([]T, error)) backend.Pager[T] {
	return &onePager[T]{call: call}
}

type onePager[T any] struct {
	call func(ctx context.Context) ([]T, error)
	done bool
}

func (p *onePager[T]) Next(ctx context.Context) (backend.Page[T], error) {
	if p.done {
		return backend.Page[T]{Done: true}, nil
	}
	items, err := p.call(ctx)
	if err != nil {
		return backend.Page[T]{}, err
	}
	p.done = true
	return backend.Page[T]{Items: items, Done: true}, nil
}

// PagedList is a datatable fed page by page from a Loader, with the filter
// input under it. It is a component: the tab that owns it routes it its
// messages (update) and keys (key, filterKey) and draws it (view).
//
// Its properties, whatever the query: only the visible rows are drawn (the
// datatable), the selection stays on its row id when rows arrive, at most
// one page request is out, answers of an older load or refresh are
// dropped by their stamp, and "end of the list" is shown once the pager
// says Done.
type PagedList[T any] struct {
	id    uint64 // this list's own: its sort chooser's answer carries it
	Table datatable.Model[T]
	// when orders rows newest first (a refresh stops at known rows and
	// keeps rows older than the loaded ones for their page); nil for lists
	// that are not ordered by time: a refresh reads them from the start.
	when  func(T) time.Time
	rowID func(T) string

	Load    Loader[T]
	belongs func(T) bool // whether a row read elsewhere belongs here (nil: every row)
	// Loads are the list's loads: a new one (start) abandons the pages
	// under way, and answers of older ones are dropped.
	Loads Reader
	pager backend.Pager[T]

	inflight bool // a page request is out
	Done     bool // the pager said Done
	Pages    int  // pages loaded in this generation
	newest   time.Time
	oldest   time.Time

	refreshing bool
	// Refreshes are the list's refreshes, each under its load's context:
	// a new load abandons the one under way.
	Refreshes Reader
	refreshed time.Time
	// pick is a row the user just made or changed (own): it is selected,
	// and so on screen, as soon as it is loaded; "" when none.
	pick string
	// again: a refresh was asked for while one was out (an action's
	// outcome came): the one out may have been answered before the
	// action, so another follows it.
	again bool

	// FailText replaces the empty text when a load failed: an empty list
	// must not claim there is nothing to show.
	FailText string

	Filter    textinput.Model
	Filtering bool // the filter input has the focus

	// Search is what "/" can search by (searchfields.go); nil: free words
	// only. searchErr is what is wrong with the text at the prompt: the
	// table keeps the last query that made sense meanwhile.
	Search    *SearchSpec[T]
	SearchErr string
	query     search.Query
	// seeking: a search was committed (enter) and the rest of the list is
	// being read page after page for it; seekStopped: esc stopped that.
	seeking     bool
	seekStopped bool
	// SortReading: a sort was chosen while the list was not at its end,
	// and the rest of the list is being read page after page for it, as
	// for a search (sort.go); sortStopped: esc, or a page that could not
	// be read, stopped that: the sort is of the loaded rows.
	SortReading bool
	sortStopped bool
	// Span is the period the list covers, for the progress of a search
	// ("34% of the period"); zero for lists that are not a period. moved:
	// its start moved on (a rolling period) since the pager was made.
	Span  [2]time.Time
	moved bool
	// Narrow, when set, is a loader the service narrows for a search (the
	// legacy interface's listPaymentsFilter) and its key; "" when the
	// search gives it nothing to narrow by. base is the list's own loader
	// and belongs (start's); narrowed is the key of the loader in use.
	Narrow   func(search.Query) (Loader[T], string)
	base     Loader[T]
	baseIn   func(T) bool
	Narrowed string

	// Cols are the table's columns (the sort chooser offers those with
	// Less); km and theme are for the dialogs the list opens (sort.go).
	Cols  []datatable.Column[T]
	km    keys.Map
	theme ui.Theme
	// Dialogs is the tab's: the sort chooser and the export dialog open
	// through it at once.
	Dialogs *DialogSlot
	// relayout sizes the tab again when the bottom line comes or goes
	// outside a key press (a sort chosen in the chooser); nil: layout.
	relayout func()

	w, h   int  // the list's area, the filter line included (setSize)
	tableW int  // the table's width: w, less a pane beside it
	Beside bool // a pane is drawn beside the table (arrange)
}

type PageMsg[T any] struct {
	Stamp Stamp // the list's load's
	Page  backend.Page[T]
	err   error
}

type RefreshMsg[T any] struct {
	Stamp Stamp // the list's refresh's
	Rows  []T
	done  bool // the refresh read to the end of the list
	err   error
}

func NewPagedList[T any](cfg datatable.Config[T], km keys.Map, theme ui.Theme, when func(T) time.Time) *PagedList[T] {
	cfg.Styles = theme.Table
	cfg.Columns = WithRanks(cfg.Columns)
	l := &PagedList[T]{
		id:    NewOwner(),
		Table: datatable.New(cfg),
		when:  when,
		rowID: cfg.ID,
		Cols:  cfg.Columns,
		km:    km,

		FailText: "Could not load the list (the reason is below); press r to try again",
	}
	l.Table.KeyMap = TableKeys(km)
	l.Filter = textinput.New()
	l.Filter.Prompt = "/ "
	l.setTheme(theme)
	return l
}

// TableKeys are the app's movement keys for a datatable.
func TableKeys(km keys.Map) datatable.KeyMap {
	return datatable.KeyMap{
		Up: km.List.Up, Down: km.List.Down, PageUp: km.List.PageUp, PageDown: km.List.PageDown,
		Top: km.List.Top, Bottom: km.List.Bottom,
	}
}

func (pl *PagedList[T]) setTheme(t ui.Theme) {
	pl.theme = t
	pl.Table.SetStyles(t.Table)
	st := textinput.DefaultStyles(t.Dark)
	if t.NoColor {
		st = textinput.Styles{}
	}
	st.Focused.Prompt = t.Accent
	st.Blurred.Prompt = t.Muted
	st.Cursor.Blink = false
	pl.Filter.SetStyles(st)
}

// Start drops everything loaded and loads from load in a new generation;
// belongs (nil: every row) says which rows read elsewhere belong here. A
// search stays, and a committed one reads the new list for itself.
func (pl *PagedList[T]) Start(load Loader[T], belongs func(T) bool) tea.Cmd {
	pl.base, pl.baseIn, pl.Narrowed = load, belongs, ""
	pl.seeking = !pl.query.Empty() && !pl.Filtering
	pl.seekStopped = false
	if pl.Narrow != nil && pl.seeking {
		if nl, key := pl.Narrow(pl.query); key != "" {
			pl.Narrowed = key
			return pl.loadFrom(nl, belongs)
		}
	}
	return pl.loadFrom(load, belongs)
}

// loadFrom loads from load in a new generation, dropping the rows.
func (pl *PagedList[T]) loadFrom(load Loader[T], belongs func(T) bool) tea.Cmd {
	pl.Stop()
	pl.Load, pl.belongs = load, belongs
	pl.Loads.Next()
	pl.pager = load()
	pl.Table.SetRows(nil)
	pl.Table.SetEnd(false)
	pl.Table.SetLoading(false)
	pl.Table.SetEmptyText("")
	pl.inflight, pl.Done, pl.refreshing = false, false, false
	pl.Pages, pl.moved, pl.pick = 0, false, ""
	pl.newest, pl.oldest = time.Time{}, time.Time{}
	// A sort is of the whole list: it reads it all (sort.go).
	pl.SortReading, pl.sortStopped = pl.sorted(), false
	return pl.Next()
}

// Stop abandons what the list is loading: its answers will be dropped.
func (pl *PagedList[T]) Stop() {
	pl.Loads.Stop()
	pl.Refreshes.Stop()
}

// Context is the context of the current load: a tab's own reads about the
// list (a search through it) end with it.
func (pl *PagedList[T]) Context() context.Context {
	ctx, _ := pl.Loads.Current()
	return ctx
}

// Next asks for the next page unless one is out or the list has ended.
func (pl *PagedList[T]) Next() tea.Cmd {
	if pl.inflight || pl.Done || pl.pager == nil {
		return nil
	}
	pl.inflight = true
	pl.Table.SetLoading(true)
	ctx, st := pl.Loads.Current()
	pager := pl.pager
	return func() tea.Msg {
		page, err := pager.Next(ctx)
		return PageMsg[T]{Stamp: st, Page: page, err: err}
	}
}

// maybeNext asks for the next page when the cursor is near the end.
func (pl *PagedList[T]) maybeNext() tea.Cmd {
	if pl.Table.NearEnd() {
		return pl.Next()
	}
	return nil
}

// Update takes the list's own messages; ok is false for any other message.
// rows are the rows an accepted answer brought (the tab may note them).
func (pl *PagedList[T]) Update(msg tea.Msg, now time.Time) (cmd tea.Cmd, rows []T, ok bool) {
	switch msg := msg.(type) {
	case PageMsg[T]:
		if !pl.Loads.Owns(msg.Stamp) {
			return nil, nil, false
		}
		cmd, rows = pl.onPage(msg, now)
		return cmd, rows, true
	case RefreshMsg[T]:
		if !pl.Refreshes.Owns(msg.Stamp) {
			return nil, nil, false
		}
		cmd, rows = pl.OnRefresh(msg, now)
		return cmd, rows, true
	case ui.TickMsg:
		pl.Table.Tick(msg.Now)
	case ui.ThemeMsg:
		pl.setTheme(msg.Theme)
	case tea.PasteMsg:
		return pl.Paste(msg), nil, true
	case sortMsg:
		if msg.list != pl.id {
			return nil, nil, false
		}
		return pl.onSort(msg), nil, true
	}
	return nil, nil, false
}

func (pl *PagedList[T]) onPage(msg PageMsg[T], now time.Time) (tea.Cmd, []T) {
	if !pl.Loads.Fresh(msg.Stamp) {
		return nil, nil
	}
	pl.inflight = false
	pl.Table.SetLoading(false)
	if msg.err != nil {
		if Cancelled(msg.err) {
			return nil, nil
		}
		if pl.seeking {
			// The search stops where the list could not be read; / enter
			// reads on from there.
			pl.seeking, pl.seekStopped = false, true
		}
		pl.sortReadFailed()
		// An empty list must not claim there is nothing to show; r does
		// not help an answer too large to read.
		text := pl.FailText
		if backend.KindOf(msg.err) == backend.KindTooLarge {
			text = "This period's answer is larger than paydash reads (the reason is below); p chooses a shorter period"
		}
		pl.Table.SetEmptyText(text)
		return ErrorCmd(msg.err), nil
	}
	pl.Table.SetEmptyText("")
	if pl.moved {
		// A rolling period's start moved on since its pager was made:
		// the pager still reads the old period's older rows.
		msg.Page.Items = pl.withinSpan(msg.Page.Items)
	}
	pl.Table.Append(msg.Page.Items)
	pl.note(msg.Page.Items)
	pl.pickNow()
	if pl.Pages == 0 {
		pl.refreshed = now
	}
	pl.Pages++
	if msg.Page.Done {
		pl.Done = true
		pl.Table.SetEnd(true)
	}
	// Keep filling the screen. A committed search reads on to the end of
	// the list, its matches appearing as they come; a filter being typed
	// does not walk the list (pages come one per key).
	switch {
	case pl.Done:
		pl.seeking, pl.SortReading = false, false
	case pl.seeking || pl.SortReading:
		return pl.Next(), msg.Page.Items
	case pl.sortStopped:
		// esc stopped a sort's read: rows sort in above the screen, so
		// filling the screen would read on; pages come when asked (G).
		return nil, msg.Page.Items
	case pl.Table.FilterText() == "":
		return pl.maybeNext(), msg.Page.Items
	}
	return nil, msg.Page.Items
}

// withinSpan drops the rows of a page older than the list's period
// (span): rows of a rolling period's old start, which the pager made
// before it moved still reads. (Only then: the legacy interface answers
// whole UTC days, which may begin before a period does.)
func (pl *PagedList[T]) withinSpan(rows []T) []T {
	start := pl.Span[0]
	if pl.when == nil || start.IsZero() {
		return rows
	}
	kept := rows[:0:0]
	for _, r := range rows {
		if t := pl.when(r); t.IsZero() || !t.Before(start) {
			kept = append(kept, r)
		}
	}
	return kept
}

// Rescope points the list at its period moved on (a rolling period at a
// refresh): load and belongs replace the list's own (start's), a search
// the service narrows is asked again for the new period, and the rows
// loaded stay, less those that no longer belong when startMoved.
func (pl *PagedList[T]) Rescope(load Loader[T], belongs func(T) bool, span [2]time.Time, startMoved bool) {
	pl.base, pl.baseIn, pl.belongs, pl.Span = load, belongs, belongs, span
	pl.Load = load
	if pl.Narrowed != "" && pl.Narrow != nil {
		if nl, key := pl.Narrow(pl.query); key != "" {
			pl.Narrowed, pl.Load = key, nl
		}
	}
	if !startMoved {
		return
	}
	pl.moved = true
	pl.oldest = time.Time{} // noted again from the rows that stay
	pl.Table.RemoveWhere(func(r *T) bool {
		if belongs != nil && !belongs(*r) {
			return true
		}
		if pl.when == nil {
			return false
		}
		t := pl.when(*r)
		if !t.IsZero() && !span[0].IsZero() && t.Before(span[0]) {
			return true
		}
		if !t.IsZero() && (pl.oldest.IsZero() || t.Before(pl.oldest)) {
			pl.oldest = t
		}
		return false
	})
}

// note keeps the newest and oldest time of the loaded rows.
func (pl *PagedList[T]) note(rows []T) {
	if pl.when == nil {
		return
	}
	for _, r := range rows {
		t := pl.when(r)
		if t.IsZero() {
			continue
		}
		if pl.newest.IsZero() || t.After(pl.newest) {
			pl.newest = t
		}
		if pl.oldest.IsZero() || t.Before(pl.oldest) {
			pl.oldest = t
		}
	}
}

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

// busy reports whether a list request is out.
func (pl *PagedList[T]) busy() bool { return pl.inflight || pl.refreshing }

func (pl *PagedList[T]) Status() ui.TabStatus {
	st := ui.TabStatus{
		Loading:   pl.busy(),
		Rows:      pl.Table.Len(),
		Shown:     pl.Table.Filtered(),
		Filter:    pl.Table.FilterText(),
		AtEnd:     pl.Done,
		Refreshed: pl.refreshed,
		Footer:    pl.bottomLines(),
	}
	switch {
	case pl.seeking:
		st.Progress = pl.seekProgress()
	case pl.SortReading:
		st.Progress = pl.sortProgress()
	}
	return st
}

// Selected is the selected row.
func (pl *PagedList[T]) Selected() (T, bool) { return pl.Table.Selected() }

// SelectID selects a loaded row by id, clearing a filter that hides it
// (not a search the service narrowed: the row may not be loaded then).
func (pl *PagedList[T]) SelectID(id string) (T, bool) {
	tb := &pl.Table
	if !tb.SelectByID(id) && tb.FilterText() != "" && pl.Narrowed == "" {
		_ = pl.clearFilter() // nothing to reload: the list is its own
		tb.SelectByID(id)
	}
	if sel, ok := tb.Selected(); ok && pl.rowID(sel) == id {
		return sel, true
	}
	var none T
	return none, false
}

// move handles a movement key (up, down, pages, top, bottom) and asks for
// the next page when the cursor nears the end.
func (pl *PagedList[T]) move(msg tea.KeyPressMsg) tea.Cmd {
	var cmd tea.Cmd
	pl.Table, cmd = pl.Table.Update(msg)
	return tea.Batch(cmd, pl.maybeNext())
}

// IsMove reports whether a is one of the keys move handles.
func IsMove(a keys.Action) bool {
	switch a {
	case keys.ActUp, keys.ActDown, keys.ActPageUp, keys.ActPageDown, keys.ActTop, keys.ActBottom:
		return true
	}
	return false
}

// --- filter and search -------------------------------------------------------

// focusFilter opens the filter input with the current filter in it.
func (pl *PagedList[T]) focusFilter() {
	pl.Filtering = true
	pl.Filter.Placeholder = pl.placeholder()
	pl.Filter.SetValue(pl.Table.FilterText())
	pl.Filter.CursorEnd()
	_ = pl.Filter.Focus() // no blink: the command would only schedule blinking
	pl.layout()
}

// placeholder is the empty prompt's help: what can be typed.
func (pl *PagedList[T]) placeholder() string {
	if pl.Search == nil || len(pl.Search.Fields) == 0 {
		return "words to look for · enter searches the whole list"
	}
	names := make([]string, len(pl.Search.Fields))
	for i, f := range pl.Search.Fields {
		names[i] = f.Name + ":"
	}
	return "words, or " + strings.Join(names, " ") + " · enter searches the whole list"
}

// filterKey handles a key while the filter input has the focus: enter
// commits the search (it then reads the rest of the list), esc clears it,
// arrows move the list, text edits the search, which applies to the loaded
// rows as it is typed.
func (pl *PagedList[T]) filterKey(msg tea.KeyPressMsg, km keys.Map) tea.Cmd {
	if a, _, ok := km.Lookup(msg, keys.ContextFilter); ok {
		switch a {
		case keys.ActOpen:
			if pl.SearchErr != "" {
				return nil // the message at the prompt says what to fix
			}
			pl.Filtering = false
			pl.Filter.Blur()
			cmd := pl.commitSearch()
			pl.layout()
			return tea.Batch(cmd, pl.maybeNext())
		case keys.ActClose:
			pl.Filtering = false
			pl.Filter.Blur()
			return pl.clearFilter()
		case keys.ActUp, keys.ActDown:
			return pl.move(msg)
		case keys.ActQuit:
			return nil // the shell's
		}
	}
	var cmd tea.Cmd
	pl.Filter, cmd = pl.Filter.Update(msg)
	pl.applyFilter()
	return cmd
}

// Paste types pasted text into the filter input when it has the focus.
func (pl *PagedList[T]) Paste(msg tea.PasteMsg) tea.Cmd {
	if !pl.Filtering {
		return nil
	}
	var cmd tea.Cmd
	pl.Filter, cmd = pl.Filter.Update(msg)
	pl.applyFilter()
	return cmd
}

// applyFilter applies the text at the prompt to the loaded rows, and says
// what is wrong with it.
func (pl *PagedList[T]) applyFilter() {
	dq, q, err := pl.Search.compile(pl.Filter.Value())
	pl.SearchErr = ""
	if err != nil {
		pl.SearchErr = err.Error()
	}
	// The parts that make sense apply while the rest is being typed.
	pl.query = q
	if dq.Text != pl.Table.FilterText() {
		pl.Table.SetQuery(dq)
	}
	pl.layout()
}

// commitSearch starts reading the rest of the list for the search (enter):
// from a loader the service narrows when it can, else page after page of
// the list's own.
func (pl *PagedList[T]) commitSearch() tea.Cmd {
	pl.seekStopped = false
	if pl.query.Empty() {
		pl.seeking = false
		return pl.unnarrow()
	}
	if pl.Narrow != nil {
		nl, key := pl.Narrow(pl.query)
		switch {
		case key != "" && key != pl.Narrowed:
			pl.Narrowed = key
			pl.seeking = true
			return pl.loadFrom(nl, pl.baseIn)
		case key == "":
			if cmd := pl.unnarrow(); cmd != nil {
				pl.seeking = true
				return cmd
			}
		}
	}
	pl.seeking = !pl.Done
	return pl.Next()
}

// unnarrow goes back to the list's own loader after a search the service
// narrowed; nil when it is in use.
func (pl *PagedList[T]) unnarrow() tea.Cmd {
	if pl.Narrowed == "" || pl.base == nil {
		return nil
	}
	pl.Narrowed = ""
	return pl.loadFrom(pl.base, pl.baseIn)
}

// escape is esc in the list: it stops a search reading the list (the page
// out still arrives: a pager cannot take back a page it has moved past),
// else it clears the filter.
func (pl *PagedList[T]) escape() tea.Cmd {
	if pl.stopReading() { // a search's or a sort's (sort.go)
		pl.layout()
		return nil
	}
	return pl.clearFilter()
}

// clearFilter drops the filter (esc in the list), and the service's
// narrowed list with it.
func (pl *PagedList[T]) clearFilter() tea.Cmd {
	pl.Filter.SetValue("")
	pl.SearchErr = ""
	pl.query = search.Query{}
	pl.seeking, pl.seekStopped = false, false
	pl.Table.SetFilter("")
	pl.layout()
	return pl.unnarrow()
}

// seekProgress is how far a search has read: "searched 12,300 rows, back
// to 14 Nov 10:32 (34% of the period)…".
func (pl *PagedList[T]) seekProgress() string {
	return pl.readProgress("searched " + money.Count(pl.Table.Len()) + " rows")
}

// readProgress is text, what has been read, with how far back in the
// period it reached: "…, back to 14 Nov 10:32 (34% of the period)…".
func (pl *PagedList[T]) readProgress(text string) string {
	if pl.when == nil || pl.oldest.IsZero() {
		return text + "…"
	}
	text += ", back to " + FmtListTime(pl.oldest)
	if done, ok := pl.periodRead(); ok {
		text += fmt.Sprintf(" (%d%% of the period)", int(done*100))
	}
	return text + "…"
}

// filterLine is the line under the list: the input while it has the focus,
// otherwise the active filter and the sort ("sorted by Amount ▼ largest
// first"), "" when there is neither.
func (pl *PagedList[T]) filterLine(theme ui.Theme) string {
	if pl.Filtering {
		return Fit(pl.Filter.View(), pl.w)
	}
	var parts []string
	f := pl.Table.FilterText()
	if s := pl.sortDescription(); s != "" {
		hint := " (" + KeyName(pl.km, keys.ActSort, "s") + " column · " + KeyName(pl.km, keys.ActSortReverse, "S") + " reverse)"
		if f != "" {
			// Short, and first: the search and its hint are what gets cut.
			key, desc := pl.Table.SortKey()
			c, _ := pl.column(key)
			s, hint = textsafe.Line(c.Title, 30)+" "+arrow(desc), ""
		}
		// What the sort covers, until it is the whole list (sort.go).
		if reach, keysHint := pl.sortReach(); reach != "" {
			s += ": " + reach
			if f == "" {
				hint = keysHint
			}
		}
		parts = append(parts, theme.Muted.Render("sorted by ")+theme.Text.Render(s)+theme.Muted.Render(hint))
	}
	if f != "" {
		parts = append(parts, theme.Muted.Render("search: ")+theme.Text.Render(textsafe.Clean(f))+
			theme.Muted.Render("  ("+pl.searchHint()+")"))
	}
	if mark := pl.aboveMark(theme); mark != "" {
		// First, so a long filter or sort cannot push it off the line.
		if len(parts) == 0 {
			return Fit(mark, pl.w)
		}
		return Fit(mark+theme.Muted.Render("  ")+strings.Join(parts, theme.Muted.Render(" · ")), pl.w)
	}
	if len(parts) == 0 {
		return ""
	}
	return Fit(strings.Join(parts, theme.Muted.Render(" · ")), pl.w)
}

// searchHint says where the search stands and what the keys do now.
func (pl *PagedList[T]) searchHint() string {
	esc := KeyName(pl.km, keys.ActClose, "esc")
	switch {
	case pl.Done && pl.Table.Filtered() == 0:
		// Read to the end, nothing matched: the table's line says where
		// else to look (the tab's NoMatchText).
		where := "none in this period"
		if pl.Span[0].IsZero() && pl.Span[1].IsZero() {
			where = "none in the list"
		}
		return where + " · / edit · " + esc + " clears"
	case pl.seeking && !pl.Done:
		return "reading the rest of the list · " + esc + " stops"
	case pl.seekStopped && !pl.Done:
		return "stopped: only the loaded rows · / enter reads on · " + esc + " clears"
	case pl.Narrowed != "":
		return "selected by the service · / edit · " + esc + " clears"
	case !pl.Done:
		return "the loaded rows · / enter searches the whole list · " + esc + " clears"
	}
	return "/ edit · " + esc + " clears"
}

// errorLine is the line above the prompt that says what is wrong with the
// search typed, "" when nothing is.
func (pl *PagedList[T]) errorLine(theme ui.Theme) string {
	if !pl.Filtering || pl.SearchErr == "" {
		return ""
	}
	return Fit(theme.Danger.Render("✗ "+textsafe.Clean(pl.SearchErr)), pl.w)
}

// --- layout --------------------------------------------------------------------

// hasFilterLine reports whether the filter line (the filter, the sort)
// takes the bottom line.
func (pl *PagedList[T]) hasFilterLine() bool {
	if pl.Filtering || pl.Table.FilterText() != "" || pl.Table.NewAbove() > 0 {
		return true
	}
	key, _ := pl.Table.SortKey()
	return key != ""
}

// bottomLines is how many lines under the table the list takes: the
// filter line, and the search's error above it.
func (pl *PagedList[T]) bottomLines() int {
	n := 0
	if pl.hasFilterLine() {
		n++
	}
	if pl.Filtering && pl.SearchErr != "" {
		n++
	}
	return n
}

// SetSize gives the list its area, w × h cells with the filter line, and
// the table's width in it (less than w when a pane is beside it). Called
// whenever the area or the filter line changes, never while drawing.
func (pl *PagedList[T]) SetSize(w, h, tableW int) {
	pl.w, pl.h, pl.tableW = max(w, 0), max(h, 0), max(tableW, 0)
	pl.layout()
}

func (pl *PagedList[T]) layout() {
	th := pl.h - pl.bottomLines()
	pl.Table.SetSize(pl.tableW, max(th, 0))
	pl.Filter.SetWidth(max(pl.w-len(pl.Filter.Prompt)-1, 1))
}

// tableLines draws the table: tableW × (h less the filter line).
func (pl *PagedList[T]) tableLines() []string {
	if pl.Table.Height() == 0 || pl.Table.Width() == 0 {
		return nil
	}
	return strings.Split(pl.Table.View(), "\n")
}
