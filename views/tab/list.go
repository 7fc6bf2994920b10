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

func (l *PagedList[T]) setTheme(t ui.Theme) {
	l.theme = t
	l.Table.SetStyles(t.Table)
	st := textinput.DefaultStyles(t.Dark)
	if t.NoColor {
		st = textinput.Styles{}
	}
	st.Focused.Prompt = t.Accent
	st.Blurred.Prompt = t.Muted
	st.Cursor.Blink = false
	l.Filter.SetStyles(st)
}

// Start drops everything loaded and loads from load in a new generation;
// belongs (nil: every row) says which rows read elsewhere belong here. A
// search stays, and a committed one reads the new list for itself.
func (l *PagedList[T]) Start(load Loader[T], belongs func(T) bool) tea.Cmd {
	l.base, l.baseIn, l.Narrowed = load, belongs, ""
	l.seeking = !l.query.Empty() && !l.Filtering
	l.seekStopped = false
	if l.Narrow != nil && l.seeking {
		if nl, key := l.Narrow(l.query); key != "" {
			l.Narrowed = key
			return l.loadFrom(nl, belongs)
		}
	}
	return l.loadFrom(load, belongs)
}

// loadFrom loads from load in a new generation, dropping the rows.
func (l *PagedList[T]) loadFrom(load Loader[T], belongs func(T) bool) tea.Cmd {
	l.Stop()
	l.Load, l.belongs = load, belongs
	l.Loads.Next()
	l.pager = load()
	l.Table.SetRows(nil)
	l.Table.SetEnd(false)
	l.Table.SetLoading(false)
	l.Table.SetEmptyText("")
	l.inflight, l.Done, l.refreshing = false, false, false
	l.Pages, l.moved, l.pick = 0, false, ""
	l.newest, l.oldest = time.Time{}, time.Time{}
	// A sort is of the whole list: it reads it all (sort.go).
	l.SortReading, l.sortStopped = l.sorted(), false
	return l.Next()
}

// Stop abandons what the list is loading: its answers will be dropped.
func (l *PagedList[T]) Stop() {
	l.Loads.Stop()
	l.Refreshes.Stop()
}

// Context is the context of the current load: a tab's own reads about the
// list (a search through it) end with it.
func (l *PagedList[T]) Context() context.Context {
	ctx, _ := l.Loads.Current()
	return ctx
}

// Next asks for the next page unless one is out or the list has ended.
func (l *PagedList[T]) Next() tea.Cmd {
	if l.inflight || l.Done || l.pager == nil {
		return nil
	}
	l.inflight = true
	l.Table.SetLoading(true)
	ctx, st := l.Loads.Current()
	pager := l.pager
	return func() tea.Msg {
		page, err := pager.Next(ctx)
		return PageMsg[T]{Stamp: st, Page: page, err: err}
	}
}

// maybeNext asks for the next page when the cursor is near the end.
func (l *PagedList[T]) maybeNext() tea.Cmd {
	if l.Table.NearEnd() {
		return l.Next()
	}
	return nil
}

// Update takes the list's own messages; ok is false for any other message.
// rows are the rows an accepted answer brought (the tab may note them).
func (l *PagedList[T]) Update(msg tea.Msg, now time.Time) (cmd tea.Cmd, rows []T, ok bool) {
	switch msg := msg.(type) {
	case PageMsg[T]:
		if !l.Loads.Owns(msg.Stamp) {
			return nil, nil, false
		}
		cmd, rows = l.onPage(msg, now)
		return cmd, rows, true
	case RefreshMsg[T]:
		if !l.Refreshes.Owns(msg.Stamp) {
			return nil, nil, false
		}
		cmd, rows = l.OnRefresh(msg, now)
		return cmd, rows, true
	case ui.TickMsg:
		l.Table.Tick(msg.Now)
	case ui.ThemeMsg:
		l.setTheme(msg.Theme)
	case tea.PasteMsg:
		return l.Paste(msg), nil, true
	case sortMsg:
		if msg.list != l.id {
			return nil, nil, false
		}
		return l.onSort(msg), nil, true
	}
	return nil, nil, false
}

func (l *PagedList[T]) onPage(msg PageMsg[T], now time.Time) (tea.Cmd, []T) {
	if !l.Loads.Fresh(msg.Stamp) {
		return nil, nil
	}
	l.inflight = false
	l.Table.SetLoading(false)
	if msg.err != nil {
		if Cancelled(msg.err) {
			return nil, nil
		}
		if l.seeking {
			// The search stops where the list could not be read; / enter
			// reads on from there.
			l.seeking, l.seekStopped = false, true
		}
		l.sortReadFailed()
		// An empty list must not claim there is nothing to show; r does
		// not help an answer too large to read.
		text := l.FailText
		if backend.KindOf(msg.err) == backend.KindTooLarge {
			text = "This period's answer is larger than paydash reads (the reason is below); p chooses a shorter period"
		}
		l.Table.SetEmptyText(text)
		return ErrorCmd(msg.err), nil
	}
	l.Table.SetEmptyText("")
	if l.moved {
		// A rolling period's start moved on since its pager was made:
		// the pager still reads the old period's older rows.
		msg.Page.Items = l.withinSpan(msg.Page.Items)
	}
	l.Table.Append(msg.Page.Items)
	l.note(msg.Page.Items)
	l.pickNow()
	if l.Pages == 0 {
		l.refreshed = now
	}
	l.Pages++
	if msg.Page.Done {
		l.Done = true
		l.Table.SetEnd(true)
	}
	// Keep filling the screen. A committed search reads on to the end of
	// the list, its matches appearing as they come; a filter being typed
	// does not walk the list (pages come one per key).
	switch {
	case l.Done:
		l.seeking, l.SortReading = false, false
	case l.seeking || l.SortReading:
		return l.Next(), msg.Page.Items
	case l.sortStopped:
		// esc stopped a sort's read: rows sort in above the screen, so
		// filling the screen would read on; pages come when asked (G).
		return nil, msg.Page.Items
	case l.Table.FilterText() == "":
		return l.maybeNext(), msg.Page.Items
	}
	return nil, msg.Page.Items
}

// withinSpan drops the rows of a page older than the list's period
// (span): rows of a rolling period's old start, which the pager made
// before it moved still reads. (Only then: the legacy interface answers
// whole UTC days, which may begin before a period does.)
func (l *PagedList[T]) withinSpan(rows []T) []T {
	start := l.Span[0]
	if l.when == nil || start.IsZero() {
		return rows
	}
	kept := rows[:0:0]
	for _, r := range rows {
		if t := l.when(r); t.IsZero() || !t.Before(start) {
			kept = append(kept, r)
		}
	}
	return kept
}

// Rescope points the list at its period moved on (a rolling period at a
// refresh): load and belongs replace the list's own (start's), a search
// the service narrows is asked again for the new period, and the rows
// loaded stay, less those that no longer belong when startMoved.
func (l *PagedList[T]) Rescope(load Loader[T], belongs func(T) bool, span [2]time.Time, startMoved bool) {
	l.base, l.baseIn, l.belongs, l.Span = load, belongs, belongs, span
	l.Load = load
	if l.Narrowed != "" && l.Narrow != nil {
		if nl, key := l.Narrow(l.query); key != "" {
			l.Narrowed, l.Load = key, nl
		}
	}
	if !startMoved {
		return
	}
	l.moved = true
	l.oldest = time.Time{} // noted again from the rows that stay
	l.Table.RemoveWhere(func(r *T) bool {
		if belongs != nil && !belongs(*r) {
			return true
		}
		if l.when == nil {
			return false
		}
		t := l.when(*r)
		if !t.IsZero() && !span[0].IsZero() && t.Before(span[0]) {
			return true
		}
		if !t.IsZero() && (l.oldest.IsZero() || t.Before(l.oldest)) {
			l.oldest = t
		}
		return false
	})
}

// note keeps the newest and oldest time of the loaded rows.
func (l *PagedList[T]) note(rows []T) {
	if l.when == nil {
		return
	}
	for _, r := range rows {
		t := l.when(r)
		if t.IsZero() {
			continue
		}
		if l.newest.IsZero() || t.After(l.newest) {
			l.newest = t
		}
		if l.oldest.IsZero() || t.Before(l.oldest) {
			l.oldest = t
		}
	}
}

// Refresh re-reads the newest pages: the first page, and more while they
// hold only rows newer than the newest loaded one or until as many pages
// as are loaded have been read, never more than refreshMaxPages. A list
// not ordered by time reads as many pages as are loaded.
func (l *PagedList[T]) Refresh() tea.Cmd {
	if l.Pages == 0 || l.Load == nil {
		// Nothing loaded yet: the first load (or its retry) is the refresh.
		return l.Next()
	}
	if l.refreshing {
		l.again = true
		return nil
	}
	l.refreshing, l.again = true, false
	loadCtx, _ := l.Loads.Current()
	ctx, st := l.Refreshes.Start(loadCtx)
	pager := l.Load()
	newest, loaded, when := l.newest, l.Pages, l.when
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
func (l *PagedList[T]) OnRefresh(msg RefreshMsg[T], now time.Time) (tea.Cmd, []T) {
	if !l.Refreshes.Fresh(msg.Stamp) {
		return nil, nil
	}
	l.refreshing = false
	var again tea.Cmd
	if l.again {
		again = l.Refresh()
	}
	if msg.err != nil {
		if Cancelled(msg.err) {
			return again, nil
		}
		return tea.Batch(again, ErrorCmd(msg.err)), nil
	}
	rows := msg.Rows[:0:0]
	for _, r := range msg.Rows {
		if l.when == nil || l.Done || l.oldest.IsZero() || !l.when(r).Before(l.oldest) {
			rows = append(rows, r)
		}
	}
	l.Table.Upsert(rows, now)
	l.dropGone(msg.Rows, msg.done)
	l.note(rows)
	l.pickNow()
	l.refreshed = now
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
func (l *PagedList[T]) dropGone(read []T, done bool) {
	var bound time.Time
	ordered := l.when != nil
	seen := make(map[string]struct{}, len(read))
	for _, r := range read {
		seen[l.rowID(r)] = struct{}{}
		if !ordered {
			continue
		}
		t := l.when(r)
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
		_, ok := seen[l.rowID(*r)]
		return !ok
	}
	if done {
		l.Table.RemoveWhere(missing)
		return
	}
	// Newest first, until well past the place read: the rows older than
	// it are most of a long list, and none of them is looked at.
	l.Table.RemoveNewest(pastRun, func(r *T) (gone, past bool) {
		if t := l.when(*r); t.IsZero() || !t.After(bound) {
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
func (l *PagedList[T]) Upsert(r T, now time.Time) {
	if l.belongs != nil && !l.belongs(r) {
		return
	}
	if l.Narrowed != "" {
		// The service's selection holds its own view of each row (the
		// legacy one): a row read through the other interface would flip
		// with it at every refresh, so the refresh brings a change. A row
		// that no longer matches the search leaves at once.
		if !l.Table.Matches(r) {
			l.Table.Remove(l.rowID(r))
		}
		return
	}
	if l.when != nil {
		if t := l.when(r); !t.IsZero() && !l.Done && (l.oldest.IsZero() || t.Before(l.oldest)) {
			return
		}
	}
	l.Table.Upsert([]T{r}, now)
	l.note([]T{r})
	l.pickNow()
}

// Own marks a row the user just made or changed: it is selected (and
// scrolled to) as soon as it is loaded, now or when a refresh or a page
// brings it. Other rows that arrive meanwhile wait behind "↑ N new" as
// usual; the user's own does not.
func (l *PagedList[T]) Own(id string) {
	l.pick = id
	l.pickNow()
}

// pickNow selects the row own asked for, once it is loaded and shown.
func (l *PagedList[T]) pickNow() {
	if l.pick != "" && l.Table.SelectByID(l.pick) {
		l.pick = ""
	}
}

// busy reports whether a list request is out.
func (l *PagedList[T]) busy() bool { return l.inflight || l.refreshing }

func (l *PagedList[T]) Status() ui.TabStatus {
	st := ui.TabStatus{
		Loading:   l.busy(),
		Rows:      l.Table.Len(),
		Shown:     l.Table.Filtered(),
		Filter:    l.Table.FilterText(),
		AtEnd:     l.Done,
		Refreshed: l.refreshed,
		Footer:    l.bottomLines(),
	}
	switch {
	case l.seeking:
		st.Progress = l.seekProgress()
	case l.SortReading:
		st.Progress = l.sortProgress()
	}
	return st
}

// Selected is the selected row.
func (l *PagedList[T]) Selected() (T, bool) { return l.Table.Selected() }

// SelectID selects a loaded row by id, clearing a filter that hides it
// (not a search the service narrowed: the row may not be loaded then).
func (l *PagedList[T]) SelectID(id string) (T, bool) {
	tb := &l.Table
	if !tb.SelectByID(id) && tb.FilterText() != "" && l.Narrowed == "" {
		_ = l.clearFilter() // nothing to reload: the list is its own
		tb.SelectByID(id)
	}
	if sel, ok := tb.Selected(); ok && l.rowID(sel) == id {
		return sel, true
	}
	var none T
	return none, false
}

// move handles a movement key (up, down, pages, top, bottom) and asks for
// the next page when the cursor nears the end.
func (l *PagedList[T]) move(msg tea.KeyPressMsg) tea.Cmd {
	var cmd tea.Cmd
	l.Table, cmd = l.Table.Update(msg)
	return tea.Batch(cmd, l.maybeNext())
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
func (l *PagedList[T]) focusFilter() {
	l.Filtering = true
	l.Filter.Placeholder = l.placeholder()
	l.Filter.SetValue(l.Table.FilterText())
	l.Filter.CursorEnd()
	_ = l.Filter.Focus() // no blink: the command would only schedule blinking
	l.layout()
}

// placeholder is the empty prompt's help: what can be typed.
func (l *PagedList[T]) placeholder() string {
	if l.Search == nil || len(l.Search.Fields) == 0 {
		return "words to look for · enter searches the whole list"
	}
	names := make([]string, len(l.Search.Fields))
	for i, f := range l.Search.Fields {
		names[i] = f.Name + ":"
	}
	return "words, or " + strings.Join(names, " ") + " · enter searches the whole list"
}

// filterKey handles a key while the filter input has the focus: enter
// commits the search (it then reads the rest of the list), esc clears it,
// arrows move the list, text edits the search, which applies to the loaded
// rows as it is typed.
func (l *PagedList[T]) filterKey(msg tea.KeyPressMsg, km keys.Map) tea.Cmd {
	if a, _, ok := km.Lookup(msg, keys.ContextFilter); ok {
		switch a {
		case keys.ActOpen:
			if l.SearchErr != "" {
				return nil // the message at the prompt says what to fix
			}
			l.Filtering = false
			l.Filter.Blur()
			cmd := l.commitSearch()
			l.layout()
			return tea.Batch(cmd, l.maybeNext())
		case keys.ActClose:
			l.Filtering = false
			l.Filter.Blur()
			return l.clearFilter()
		case keys.ActUp, keys.ActDown:
			return l.move(msg)
		case keys.ActQuit:
			return nil // the shell's
		}
	}
	var cmd tea.Cmd
	l.Filter, cmd = l.Filter.Update(msg)
	l.applyFilter()
	return cmd
}

// Paste types pasted text into the filter input when it has the focus.
func (l *PagedList[T]) Paste(msg tea.PasteMsg) tea.Cmd {
	if !l.Filtering {
		return nil
	}
	var cmd tea.Cmd
	l.Filter, cmd = l.Filter.Update(msg)
	l.applyFilter()
	return cmd
}

// applyFilter applies the text at the prompt to the loaded rows, and says
// what is wrong with it.
func (l *PagedList[T]) applyFilter() {
	dq, q, err := l.Search.compile(l.Filter.Value())
	l.SearchErr = ""
	if err != nil {
		l.SearchErr = err.Error()
	}
	// The parts that make sense apply while the rest is being typed.
	l.query = q
	if dq.Text != l.Table.FilterText() {
		l.Table.SetQuery(dq)
	}
	l.layout()
}

// commitSearch starts reading the rest of the list for the search (enter):
// from a loader the service narrows when it can, else page after page of
// the list's own.
func (l *PagedList[T]) commitSearch() tea.Cmd {
	l.seekStopped = false
	if l.query.Empty() {
		l.seeking = false
		return l.unnarrow()
	}
	if l.Narrow != nil {
		nl, key := l.Narrow(l.query)
		switch {
		case key != "" && key != l.Narrowed:
			l.Narrowed = key
			l.seeking = true
			return l.loadFrom(nl, l.baseIn)
		case key == "":
			if cmd := l.unnarrow(); cmd != nil {
				l.seeking = true
				return cmd
			}
		}
	}
	l.seeking = !l.Done
	return l.Next()
}

// unnarrow goes back to the list's own loader after a search the service
// narrowed; nil when it is in use.
func (l *PagedList[T]) unnarrow() tea.Cmd {
	if l.Narrowed == "" || l.base == nil {
		return nil
	}
	l.Narrowed = ""
	return l.loadFrom(l.base, l.baseIn)
}

// escape is esc in the list: it stops a search reading the list (the page
// out still arrives: a pager cannot take back a page it has moved past),
// else it clears the filter.
func (l *PagedList[T]) escape() tea.Cmd {
	if l.stopReading() { // a search's or a sort's (sort.go)
		l.layout()
		return nil
	}
	return l.clearFilter()
}

// clearFilter drops the filter (esc in the list), and the service's
// narrowed list with it.
func (l *PagedList[T]) clearFilter() tea.Cmd {
	l.Filter.SetValue("")
	l.SearchErr = ""
	l.query = search.Query{}
	l.seeking, l.seekStopped = false, false
	l.Table.SetFilter("")
	l.layout()
	return l.unnarrow()
}

// seekProgress is how far a search has read: "searched 12,300 rows, back
// to 14 Nov 10:32 (34% of the period)…".
func (l *PagedList[T]) seekProgress() string {
	return l.readProgress("searched " + money.Count(l.Table.Len()) + " rows")
}

// readProgress is text, what has been read, with how far back in the
// period it reached: "…, back to 14 Nov 10:32 (34% of the period)…".
func (l *PagedList[T]) readProgress(text string) string {
	if l.when == nil || l.oldest.IsZero() {
		return text + "…"
	}
	text += ", back to " + FmtListTime(l.oldest)
	if done, ok := l.periodRead(); ok {
		text += fmt.Sprintf(" (%d%% of the period)", int(done*100))
	}
	return text + "…"
}

// filterLine is the line under the list: the input while it has the focus,
// otherwise the active filter and the sort ("sorted by Amount ▼ largest
// first"), "" when there is neither.
func (l *PagedList[T]) filterLine(theme ui.Theme) string {
	if l.Filtering {
		return Fit(l.Filter.View(), l.w)
	}
	var parts []string
	f := l.Table.FilterText()
	if s := l.sortDescription(); s != "" {
		hint := " (" + KeyName(l.km, keys.ActSort, "s") + " column · " + KeyName(l.km, keys.ActSortReverse, "S") + " reverse)"
		if f != "" {
			// Short, and first: the search and its hint are what gets cut.
			key, desc := l.Table.SortKey()
			c, _ := l.column(key)
			s, hint = textsafe.Line(c.Title, 30)+" "+arrow(desc), ""
		}
		// What the sort covers, until it is the whole list (sort.go).
		if reach, keysHint := l.sortReach(); reach != "" {
			s += ": " + reach
			if f == "" {
				hint = keysHint
			}
		}
		parts = append(parts, theme.Muted.Render("sorted by ")+theme.Text.Render(s)+theme.Muted.Render(hint))
	}
	if f != "" {
		parts = append(parts, theme.Muted.Render("search: ")+theme.Text.Render(textsafe.Clean(f))+
			theme.Muted.Render("  ("+l.searchHint()+")"))
	}
	if mark := l.aboveMark(theme); mark != "" {
		// First, so a long filter or sort cannot push it off the line.
		if len(parts) == 0 {
			return Fit(mark, l.w)
		}
		return Fit(mark+theme.Muted.Render("  ")+strings.Join(parts, theme.Muted.Render(" · ")), l.w)
	}
	if len(parts) == 0 {
		return ""
	}
	return Fit(strings.Join(parts, theme.Muted.Render(" · ")), l.w)
}

// searchHint says where the search stands and what the keys do now.
func (l *PagedList[T]) searchHint() string {
	esc := KeyName(l.km, keys.ActClose, "esc")
	switch {
	case l.Done && l.Table.Filtered() == 0:
		// Read to the end, nothing matched: the table's line says where
		// else to look (the tab's NoMatchText).
		where := "none in this period"
		if l.Span[0].IsZero() && l.Span[1].IsZero() {
			where = "none in the list"
		}
		return where + " · / edit · " + esc + " clears"
	case l.seeking && !l.Done:
		return "reading the rest of the list · " + esc + " stops"
	case l.seekStopped && !l.Done:
		return "stopped: only the loaded rows · / enter reads on · " + esc + " clears"
	case l.Narrowed != "":
		return "selected by the service · / edit · " + esc + " clears"
	case !l.Done:
		return "the loaded rows · / enter searches the whole list · " + esc + " clears"
	}
	return "/ edit · " + esc + " clears"
}

// errorLine is the line above the prompt that says what is wrong with the
// search typed, "" when nothing is.
func (l *PagedList[T]) errorLine(theme ui.Theme) string {
	if !l.Filtering || l.SearchErr == "" {
		return ""
	}
	return Fit(theme.Danger.Render("✗ "+textsafe.Clean(l.SearchErr)), l.w)
}

// --- layout --------------------------------------------------------------------

// hasFilterLine reports whether the filter line (the filter, the sort)
// takes the bottom line.
func (l *PagedList[T]) hasFilterLine() bool {
	if l.Filtering || l.Table.FilterText() != "" || l.Table.NewAbove() > 0 {
		return true
	}
	key, _ := l.Table.SortKey()
	return key != ""
}

// bottomLines is how many lines under the table the list takes: the
// filter line, and the search's error above it.
func (l *PagedList[T]) bottomLines() int {
	n := 0
	if l.hasFilterLine() {
		n++
	}
	if l.Filtering && l.SearchErr != "" {
		n++
	}
	return n
}

// SetSize gives the list its area, w × h cells with the filter line, and
// the table's width in it (less than w when a pane is beside it). Called
// whenever the area or the filter line changes, never while drawing.
func (l *PagedList[T]) SetSize(w, h, tableW int) {
	l.w, l.h, l.tableW = max(w, 0), max(h, 0), max(tableW, 0)
	l.layout()
}

func (l *PagedList[T]) layout() {
	th := l.h - l.bottomLines()
	l.Table.SetSize(l.tableW, max(th, 0))
	l.Filter.SetWidth(max(l.w-len(l.Filter.Prompt)-1, 1))
}

// tableLines draws the table: tableW × (h less the filter line).
func (l *PagedList[T]) tableLines() []string {
	if l.Table.Height() == 0 || l.Table.Width() == 0 {
		return nil
	}
	return strings.Split(l.Table.View(), "\n")
}
