package tab

import (
	"context"
	"time"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"paydash/backend"
	"paydash/keys"
	"paydash/ui"
	"paydash/ui/datatable"
	"paydash/views/search"
)

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
//
// This file is the list and its loading; the rest of it, a part a file:
// refresh.go (refreshes, rows that left, rows put in from elsewhere),
// filter.go (the filter input and the search it commits), filterline.go
// (the lines under the table, and the list's size), moves.go (the
// selection and the movement keys), sort.go (sorting).
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
	exact    bool // the search must read base: the period's rows exactly (SearchFor)
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
	if pl.narrows() && pl.seeking {
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
	pl.readAhead(pl.seeking || pl.SortReading)
	ctx, st := pl.Loads.Current()
	pager := pl.pager
	return func() tea.Msg {
		page, err := pager.Next(ctx)
		return PageMsg[T]{Stamp: st, Page: page, err: err}
	}
}

// readAhead tells a pager that can read ahead (a period read in slices,
// backend/period.go) whether the whole list is wanted (a committed search,
// a sort), or, off, to stop every request it has out (esc, a page that
// failed). Telling starts or cancels no request by itself: the slices are
// read under the context of the next page asked for, in its command.
func (pl *PagedList[T]) readAhead(on bool) {
	if ra, ok := pl.pager.(backend.ReadAheader); ok {
		ra.ReadAhead(on)
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
		pl.readAhead(false)
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
	if pl.Narrowed != "" && pl.narrows() {
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
