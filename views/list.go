package views

import (
	"context"
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"paydash/backend"
	"paydash/backend/textsafe"
	"paydash/keys"
	"paydash/ui"
	"paydash/ui/datatable"
)

// refreshMaxPages bounds what one refresh reads.
const refreshMaxPages = 5

// Loader opens a fresh pager over what a list shows. The tab builds it from
// its query, whatever its shape: a merchant's period (payments, refunds),
// a merchant (stickers), whole days (transfers) or a local set (the tokens
// paydash knows). The list calls it to load from the start and to refresh.
type Loader[T any] func() backend.Pager[T]

// oneCall is a Loader's pager over one call that answers the whole list
// (transfers, documents) or a local set (the tokens paydash knows).
func oneCall[T any](call func(ctx context.Context) ([]T, error)) backend.Pager[T] {
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

// pagedList is a datatable fed page by page from a Loader, with the filter
// input under it. It is a component: the tab that owns it routes it its
// messages (update) and keys (key, filterKey) and draws it (view).
//
// Its properties, whatever the query: only the visible rows are drawn (the
// datatable), the selection stays on its row id when rows arrive, at most
// one page request is out, answers of an older load or refresh are
// dropped by generation, and "end of the list" is shown once the pager
// says Done.
type pagedList[T any] struct {
	id    uint64 // this list's own: its answers carry it
	table datatable.Model[T]
	// when orders rows newest first (a refresh stops at known rows and
	// keeps rows older than the loaded ones for their page); nil for lists
	// that are not ordered by time: a refresh reads them from the start.
	when  func(T) time.Time
	rowID func(T) string

	load    Loader[T]
	belongs func(T) bool // whether a row read elsewhere belongs here (nil: every row)
	gen     uint64       // the load's generation; answers of older ones are dropped
	ctx     context.Context
	cancel  context.CancelFunc
	pager   backend.Pager[T]

	inflight bool // a page request is out
	done     bool // the pager said Done
	pages    int  // pages loaded in this generation
	newest   time.Time
	oldest   time.Time

	refreshing bool
	rgen       uint64
	refreshed  time.Time

	// failText replaces the empty text when a load failed: an empty list
	// must not claim there is nothing to show.
	failText string

	filter    textinput.Model
	filtering bool // the filter input has the focus

	// cols are the table's columns (the sort chooser offers those with
	// Less); km and theme are for the dialogs the list opens (sort.go).
	cols  []datatable.Column[T]
	km    keys.Map
	theme ui.Theme
	// dialogs is the tab's: the sort chooser and the export dialog open
	// through it at once.
	dialogs *dialogSlot
	// relayout sizes the tab again when the bottom line comes or goes
	// outside a key press (a sort chosen in the chooser); nil: layout.
	relayout func()

	w, h   int  // the list's area, the filter line included (setSize)
	tableW int  // the table's width: w, less a pane beside it
	beside bool // a pane is drawn beside the table (arrange)
}

type pageMsg[T any] struct {
	list, gen uint64
	page      backend.Page[T]
	err       error
}

type refreshMsg[T any] struct {
	list, gen, rgen uint64
	rows            []T
	err             error
}

func newPagedList[T any](cfg datatable.Config[T], km keys.Map, theme ui.Theme, when func(T) time.Time) *pagedList[T] {
	cfg.Styles = theme.Table
	cfg.Columns = withRanks(cfg.Columns)
	l := &pagedList[T]{
		id:    newOwner(),
		table: datatable.New(cfg),
		when:  when,
		rowID: cfg.ID,
		ctx:   context.Background(),
		cols:  cfg.Columns,
		km:    km,

		failText: "Could not load the list (the reason is below); press r to try again",
	}
	l.table.KeyMap = tableKeys(km)
	l.filter = textinput.New()
	l.filter.Prompt = "/ "
	l.filter.Placeholder = "filter the loaded rows"
	l.setTheme(theme)
	return l
}

// tableKeys are the app's movement keys for a datatable.
func tableKeys(km keys.Map) datatable.KeyMap {
	return datatable.KeyMap{
		Up: km.List.Up, Down: km.List.Down, PageUp: km.List.PageUp, PageDown: km.List.PageDown,
		Top: km.List.Top, Bottom: km.List.Bottom,
	}
}

func (l *pagedList[T]) setTheme(t ui.Theme) {
	l.theme = t
	l.table.SetStyles(t.Table)
	st := textinput.DefaultStyles(t.Dark)
	if t.NoColor {
		st = textinput.Styles{}
	}
	st.Focused.Prompt = t.Accent
	st.Blurred.Prompt = t.Muted
	st.Cursor.Blink = false
	l.filter.SetStyles(st)
}

// start drops everything loaded and loads from load in a new generation;
// belongs (nil: every row) says which rows read elsewhere belong here.
func (l *pagedList[T]) start(load Loader[T], belongs func(T) bool) tea.Cmd {
	l.stop()
	l.load, l.belongs = load, belongs
	l.ctx, l.cancel = context.WithCancel(context.Background())
	l.pager = load()
	l.table.SetRows(nil)
	l.table.SetEnd(false)
	l.table.SetLoading(false)
	l.table.SetEmptyText("")
	l.inflight, l.done, l.refreshing = false, false, false
	l.pages = 0
	l.newest, l.oldest = time.Time{}, time.Time{}
	return l.next()
}

// stop abandons what the list is loading: its answers will be dropped.
func (l *pagedList[T]) stop() {
	if l.cancel != nil {
		l.cancel()
	}
	l.gen++
}

// context is the context of the current load: a tab's own reads about the
// list (a search through it) end with it.
func (l *pagedList[T]) context() context.Context { return l.ctx }

// next asks for the next page unless one is out or the list has ended.
func (l *pagedList[T]) next() tea.Cmd {
	if l.inflight || l.done || l.pager == nil {
		return nil
	}
	l.inflight = true
	l.table.SetLoading(true)
	list, gen, pager, ctx := l.id, l.gen, l.pager, l.ctx
	return func() tea.Msg {
		page, err := pager.Next(ctx)
		return pageMsg[T]{list: list, gen: gen, page: page, err: err}
	}
}

// maybeNext asks for the next page when the cursor is near the end.
func (l *pagedList[T]) maybeNext() tea.Cmd {
	if l.table.NearEnd() {
		return l.next()
	}
	return nil
}

// update takes the list's own messages; ok is false for any other message.
// rows are the rows an accepted answer brought (the tab may note them).
func (l *pagedList[T]) update(msg tea.Msg, now time.Time) (cmd tea.Cmd, rows []T, ok bool) {
	switch msg := msg.(type) {
	case pageMsg[T]:
		if msg.list != l.id {
			return nil, nil, false
		}
		cmd, rows = l.onPage(msg, now)
		return cmd, rows, true
	case refreshMsg[T]:
		if msg.list != l.id {
			return nil, nil, false
		}
		cmd, rows = l.onRefresh(msg, now)
		return cmd, rows, true
	case ui.TickMsg:
		l.table.Tick(msg.Now)
	case ui.ThemeMsg:
		l.setTheme(msg.Theme)
	case tea.PasteMsg:
		return l.paste(msg), nil, true
	case sortMsg:
		if msg.list != l.id {
			return nil, nil, false
		}
		l.onSort(msg)
		return nil, nil, true
	}
	return nil, nil, false
}

func (l *pagedList[T]) onPage(msg pageMsg[T], now time.Time) (tea.Cmd, []T) {
	if msg.gen != l.gen {
		return nil, nil
	}
	l.inflight = false
	l.table.SetLoading(false)
	if msg.err != nil {
		if cancelled(msg.err) {
			return nil, nil
		}
		// An empty list must not claim there is nothing to show; r does
		// not help an answer too large to read.
		text := l.failText
		if backend.KindOf(msg.err) == backend.KindTooLarge {
			text = "This period's answer is larger than paydash reads (the reason is below); p chooses a shorter period"
		}
		l.table.SetEmptyText(text)
		return errorCmd(msg.err), nil
	}
	l.table.SetEmptyText("")
	l.table.Append(msg.page.Items)
	l.note(msg.page.Items)
	if l.pages == 0 {
		l.refreshed = now
	}
	l.pages++
	if msg.page.Done {
		l.done = true
		l.table.SetEnd(true)
	}
	// Keep filling the screen, but do not walk the whole list behind a
	// filter that matches little: with a filter, pages come one per key.
	if l.table.FilterText() == "" {
		return l.maybeNext(), msg.page.Items
	}
	return nil, msg.page.Items
}

// note keeps the newest and oldest time of the loaded rows.
func (l *pagedList[T]) note(rows []T) {
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

// refresh re-reads the newest pages: the first page, and more while they
// hold only rows newer than the newest loaded one or until as many pages
// as are loaded have been read, never more than refreshMaxPages. A list
// not ordered by time reads as many pages as are loaded.
func (l *pagedList[T]) refresh() tea.Cmd {
	if l.pages == 0 || l.load == nil {
		// Nothing loaded yet: the first load (or its retry) is the refresh.
		return l.next()
	}
	if l.refreshing {
		return nil
	}
	l.refreshing = true
	l.rgen++
	list, gen, rgen, ctx := l.id, l.gen, l.rgen, l.ctx
	pager := l.load()
	newest, loaded, when := l.newest, l.pages, l.when
	return func() tea.Msg {
		var rows []T
		for n := 1; n <= refreshMaxPages; n++ {
			page, err := pager.Next(ctx)
			if err != nil {
				return refreshMsg[T]{list: list, gen: gen, rgen: rgen, err: err}
			}
			rows = append(rows, page.Items...)
			if page.Done {
				break
			}
			allNewer := when != nil && len(page.Items) > 0 && when(page.Items[len(page.Items)-1]).After(newest)
			if !allNewer && n >= loaded {
				break
			}
		}
		return refreshMsg[T]{list: list, gen: gen, rgen: rgen, rows: rows}
	}
}

// onRefresh applies a refresh: new rows at the top, changed rows in place
// (flashed); rows older than everything loaded wait for their page.
func (l *pagedList[T]) onRefresh(msg refreshMsg[T], now time.Time) (tea.Cmd, []T) {
	if msg.gen != l.gen || msg.rgen != l.rgen {
		return nil, nil
	}
	l.refreshing = false
	if msg.err != nil {
		if cancelled(msg.err) {
			return nil, nil
		}
		return errorCmd(msg.err), nil
	}
	rows := msg.rows[:0:0]
	for _, r := range msg.rows {
		if l.when == nil || l.done || l.oldest.IsZero() || !l.when(r).Before(l.oldest) {
			rows = append(rows, r)
		}
	}
	l.table.Upsert(rows, now)
	l.note(rows)
	l.refreshed = now
	return nil, rows
}

// upsert puts one row read elsewhere (an action's answer, a detail) into
// the list, if it belongs here and to the loaded part of it.
func (l *pagedList[T]) upsert(r T, now time.Time) {
	if l.belongs != nil && !l.belongs(r) {
		return
	}
	if l.when != nil {
		if t := l.when(r); !t.IsZero() && !l.done && (l.oldest.IsZero() || t.Before(l.oldest)) {
			return
		}
	}
	l.table.Upsert([]T{r}, now)
	l.note([]T{r})
}

// busy reports whether a list request is out.
func (l *pagedList[T]) busy() bool { return l.inflight || l.refreshing }

func (l *pagedList[T]) status() ui.TabStatus {
	return ui.TabStatus{
		Loading:   l.busy(),
		Rows:      l.table.Len(),
		Shown:     l.table.Filtered(),
		Filter:    l.table.FilterText(),
		AtEnd:     l.done,
		Refreshed: l.refreshed,
	}
}

// selected is the selected row.
func (l *pagedList[T]) selected() (T, bool) { return l.table.Selected() }

// selectID selects a loaded row by id, clearing a filter that hides it.
func (l *pagedList[T]) selectID(id string) (T, bool) {
	tb := &l.table
	if !tb.SelectByID(id) && tb.FilterText() != "" {
		l.clearFilter()
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
func (l *pagedList[T]) move(msg tea.KeyPressMsg) tea.Cmd {
	var cmd tea.Cmd
	l.table, cmd = l.table.Update(msg)
	return tea.Batch(cmd, l.maybeNext())
}

// isMove reports whether a is one of the keys move handles.
func isMove(a keys.Action) bool {
	switch a {
	case keys.ActUp, keys.ActDown, keys.ActPageUp, keys.ActPageDown, keys.ActTop, keys.ActBottom:
		return true
	}
	return false
}

// --- filter ------------------------------------------------------------------

// focusFilter opens the filter input with the current filter in it.
func (l *pagedList[T]) focusFilter() {
	l.filtering = true
	l.filter.SetValue(l.table.FilterText())
	l.filter.CursorEnd()
	_ = l.filter.Focus() // no blink: the command would only schedule blinking
	l.layout()
}

// filterKey handles a key while the filter input has the focus: enter keeps
// the filter, esc clears it, arrows move the list, text edits the filter.
func (l *pagedList[T]) filterKey(msg tea.KeyPressMsg, km keys.Map) tea.Cmd {
	if a, _, ok := km.Lookup(msg, keys.ContextFilter); ok {
		switch a {
		case keys.ActOpen:
			l.filtering = false
			l.filter.Blur()
			l.layout()
			return l.maybeNext()
		case keys.ActClose:
			l.filtering = false
			l.filter.Blur()
			l.clearFilter()
			return nil
		case keys.ActUp, keys.ActDown:
			return l.move(msg)
		case keys.ActQuit:
			return nil // the shell's
		}
	}
	var cmd tea.Cmd
	l.filter, cmd = l.filter.Update(msg)
	l.applyFilter()
	return cmd
}

// paste types pasted text into the filter input when it has the focus.
func (l *pagedList[T]) paste(msg tea.PasteMsg) tea.Cmd {
	if !l.filtering {
		return nil
	}
	var cmd tea.Cmd
	l.filter, cmd = l.filter.Update(msg)
	l.applyFilter()
	return cmd
}

func (l *pagedList[T]) applyFilter() {
	if v := l.filter.Value(); v != l.table.FilterText() {
		l.table.SetFilter(v)
		l.layout()
	}
}

// clearFilter drops the filter (esc in the list).
func (l *pagedList[T]) clearFilter() {
	l.filter.SetValue("")
	l.table.SetFilter("")
	l.layout()
}

// filterLine is the line under the list: the input while it has the focus,
// otherwise the active filter and the sort ("sorted by Amount ▼ largest
// first"), "" when there is neither.
func (l *pagedList[T]) filterLine(theme ui.Theme) string {
	if l.filtering {
		return fit(l.filter.View(), l.w)
	}
	var parts []string
	if f := l.table.FilterText(); f != "" {
		parts = append(parts, theme.Muted.Render("filter: ")+theme.Text.Render(textsafe.Clean(f))+
			theme.Muted.Render("  (/ edit · esc clear)"))
	}
	if s := l.sortDescription(); s != "" {
		hint := " (" + keyName(l.km, keys.ActSort, "s") + " column · " + keyName(l.km, keys.ActSortReverse, "S") + " reverse)"
		if len(parts) > 0 {
			hint = ""
		}
		parts = append(parts, theme.Muted.Render("sorted by ")+theme.Text.Render(s)+theme.Muted.Render(hint))
	}
	if n := l.table.NewAbove(); n > 0 {
		// First, so a long filter or sort cannot push it off the line.
		mark := theme.Accent.Render(fmt.Sprintf("↑ %d new", n)) + theme.Muted.Render(" · "+keyName(l.km, keys.ActTop, "g"))
		if len(parts) == 0 {
			return fit(mark, l.w)
		}
		return fit(mark+theme.Muted.Render("  ")+strings.Join(parts, theme.Muted.Render(" · ")), l.w)
	}
	if len(parts) == 0 {
		return ""
	}
	return fit(strings.Join(parts, theme.Muted.Render(" · ")), l.w)
}

// --- layout --------------------------------------------------------------------

// hasFilterLine reports whether the filter line (the filter, the sort)
// takes the bottom line.
func (l *pagedList[T]) hasFilterLine() bool {
	if l.filtering || l.table.FilterText() != "" || l.table.NewAbove() > 0 {
		return true
	}
	key, _ := l.table.SortKey()
	return key != ""
}

// setSize gives the list its area, w × h cells with the filter line, and
// the table's width in it (less than w when a pane is beside it). Called
// whenever the area or the filter line changes, never while drawing.
func (l *pagedList[T]) setSize(w, h, tableW int) {
	l.w, l.h, l.tableW = max(w, 0), max(h, 0), max(tableW, 0)
	l.layout()
}

func (l *pagedList[T]) layout() {
	th := l.h
	if l.hasFilterLine() {
		th--
	}
	l.table.SetSize(l.tableW, max(th, 0))
	l.filter.SetWidth(max(l.w-len(l.filter.Prompt)-1, 1))
}

// tableLines draws the table: tableW × (h less the filter line).
func (l *pagedList[T]) tableLines() []string {
	if l.table.Height() == 0 || l.table.Width() == 0 {
		return nil
	}
	return strings.Split(l.table.View(), "\n")
}
