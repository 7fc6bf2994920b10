package views

import (
	"context"
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

// pagedList is a datatable fed page by page from a backend pager, with the
// filter input above the status bar. It is shared by the tabs; it keeps at
// most one page request in flight and drops answers of older generations.
type pagedList[T any] struct {
	owner uint64
	table datatable.Model[T]
	open  func(backend.PeriodQuery) backend.Pager[T]
	// when is the time a row is ordered by (newest first): created, or the
	// last update for v1-only rows that have no creation time.
	when func(T) time.Time
	id   func(T) string

	scope  ui.Scope
	gen    uint64 // the scope's generation; answers of older ones are dropped
	ctx    context.Context
	cancel context.CancelFunc
	pager  backend.Pager[T]

	inflight bool // a page request is out
	done     bool // the pager said Done
	pages    int  // pages loaded in this generation
	failed   bool // the last page request failed (r or the next NearEnd retries)
	newest   time.Time
	oldest   time.Time

	refreshing bool
	rgen       uint64
	refreshed  time.Time

	filter    textinput.Model
	filtering bool // the filter input has the focus
}

type pageMsg[T any] struct {
	owner, gen uint64
	page       backend.Page[T]
	err        error
}

type refreshMsg[T any] struct {
	owner, gen, rgen uint64
	rows             []T
	err              error
}

func newPagedList[T any](owner uint64, cfg datatable.Config[T], km keys.Map, theme ui.Theme,
	open func(backend.PeriodQuery) backend.Pager[T], when func(T) time.Time) *pagedList[T] {
	cfg.Styles = theme.Table
	l := &pagedList[T]{
		owner: owner,
		table: datatable.New(cfg),
		open:  open,
		when:  when,
		id:    cfg.ID,
		ctx:   context.Background(),
	}
	l.table.KeyMap = datatable.KeyMap{
		Up: km.List.Up, Down: km.List.Down, PageUp: km.List.PageUp, PageDown: km.List.PageDown,
		Top: km.List.Top, Bottom: km.List.Bottom,
	}
	l.filter = textinput.New()
	l.filter.Prompt = "/ "
	l.filter.Placeholder = "filter the loaded rows"
	l.setTheme(theme)
	return l
}

func (l *pagedList[T]) setTheme(t ui.Theme) {
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

// start drops everything loaded and begins a new generation for scope.
func (l *pagedList[T]) start(s ui.Scope) tea.Cmd {
	if l.cancel != nil {
		l.cancel()
	}
	l.scope = s
	l.gen++
	l.ctx, l.cancel = context.WithCancel(context.Background())
	l.pager = l.open(periodQuery(s))
	l.table.SetRows(nil)
	l.table.SetEnd(false)
	l.table.SetLoading(false)
	l.inflight, l.done, l.failed, l.refreshing = false, false, false, false
	l.pages = 0
	l.newest, l.oldest = time.Time{}, time.Time{}
	return l.next()
}

// next asks for the next page unless one is out or the list has ended.
func (l *pagedList[T]) next() tea.Cmd {
	if l.inflight || l.done || l.pager == nil {
		return nil
	}
	l.inflight = true
	l.table.SetLoading(true)
	owner, gen, pager, ctx := l.owner, l.gen, l.pager, l.ctx
	return func() tea.Msg {
		page, err := pager.Next(ctx)
		return pageMsg[T]{owner: owner, gen: gen, page: page, err: err}
	}
}

// maybeNext asks for the next page when the cursor is near the end.
func (l *pagedList[T]) maybeNext() tea.Cmd {
	if l.table.NearEnd() {
		return l.next()
	}
	return nil
}

// onPage takes a page answer; now is the tab's clock.
func (l *pagedList[T]) onPage(msg pageMsg[T], now time.Time) tea.Cmd {
	if msg.owner != l.owner || msg.gen != l.gen {
		return nil
	}
	l.inflight = false
	l.table.SetLoading(false)
	if msg.err != nil {
		l.failed = true
		if cancelled(msg.err) {
			return nil
		}
		// An empty list must not claim there is nothing in the period.
		l.table.SetEmptyText("Could not load this period (the reason is below); press r to try again")
		return errorCmd(msg.err)
	}
	l.failed = false
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
	// Keep filling the screen, but do not walk the whole period behind a
	// filter that matches little: with a filter, pages come one per key.
	if l.table.FilterText() == "" {
		return l.maybeNext()
	}
	return nil
}

// note keeps the newest and oldest time of the loaded rows.
func (l *pagedList[T]) note(rows []T) {
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

// refresh re-reads the newest pages of the scope: the first page, and more
// while they hold only rows newer than the newest loaded one or until as
// many pages as are loaded have been read, never more than refreshMaxPages.
func (l *pagedList[T]) refresh() tea.Cmd {
	if l.pages == 0 {
		// Nothing loaded yet: the first load (or its retry) is the refresh.
		return l.next()
	}
	if l.refreshing {
		return nil
	}
	l.refreshing = true
	l.rgen++
	owner, gen, rgen, ctx := l.owner, l.gen, l.rgen, l.ctx
	pager := l.open(periodQuery(l.scope))
	newest, loaded, when := l.newest, l.pages, l.when
	return func() tea.Msg {
		var rows []T
		for n := 1; n <= refreshMaxPages; n++ {
			page, err := pager.Next(ctx)
			if err != nil {
				return refreshMsg[T]{owner: owner, gen: gen, rgen: rgen, err: err}
			}
			rows = append(rows, page.Items...)
			if page.Done {
				break
			}
			allNewer := len(page.Items) > 0 && when(page.Items[len(page.Items)-1]).After(newest)
			if !allNewer && n >= loaded {
				break
			}
		}
		return refreshMsg[T]{owner: owner, gen: gen, rgen: rgen, rows: rows}
	}
}

// onRefresh applies a refresh: new rows at the top, changed rows in place
// (flashed); rows older than everything loaded wait for their page.
func (l *pagedList[T]) onRefresh(msg refreshMsg[T], now time.Time) tea.Cmd {
	if msg.owner != l.owner || msg.gen != l.gen || msg.rgen != l.rgen {
		return nil
	}
	l.refreshing = false
	if msg.err != nil {
		if cancelled(msg.err) {
			return nil
		}
		return errorCmd(msg.err)
	}
	rows := msg.rows[:0:0]
	for _, r := range msg.rows {
		if l.done || l.oldest.IsZero() || !l.when(r).Before(l.oldest) {
			rows = append(rows, r)
		}
	}
	l.table.Upsert(rows, now)
	l.note(rows)
	l.refreshed = now
	return nil
}

// upsertOne puts one row read elsewhere (an action's answer, a detail) into
// the list, if it belongs to the loaded part of the scope.
func (l *pagedList[T]) upsertOne(r T, merchant string, now time.Time) {
	t := l.when(r)
	if merchant != "" && merchant != l.scope.MerchantID {
		return
	}
	if !t.IsZero() {
		if (!l.scope.Start.IsZero() && t.Before(l.scope.Start)) || (!l.scope.End.IsZero() && !t.Before(l.scope.End)) {
			return
		}
		if !l.done && (l.oldest.IsZero() || t.Before(l.oldest)) {
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

// --- filter ------------------------------------------------------------------

// focusFilter opens the filter input with the current filter in it.
func (l *pagedList[T]) focusFilter() {
	l.filtering = true
	l.filter.SetValue(l.table.FilterText())
	l.filter.CursorEnd()
	_ = l.filter.Focus() // no blink: the command would only schedule blinking
}

// filterKey handles a key while the filter input has the focus: enter keeps
// the filter, esc clears it, arrows move the list, text edits the filter.
func (l *pagedList[T]) filterKey(msg tea.KeyPressMsg, km keys.Map) tea.Cmd {
	if a, _, ok := km.Lookup(msg, keys.ContextFilter); ok {
		switch a {
		case keys.ActOpen:
			l.filtering = false
			l.filter.Blur()
			return l.maybeNext()
		case keys.ActClose:
			l.filtering = false
			l.filter.Blur()
			l.filter.SetValue("")
			l.table.SetFilter("")
			return nil
		case keys.ActUp, keys.ActDown:
			var cmd tea.Cmd
			l.table, cmd = l.table.Update(msg)
			return tea.Batch(cmd, l.maybeNext())
		case keys.ActQuit:
			return nil // the shell's
		}
	}
	var cmd tea.Cmd
	l.filter, cmd = l.filter.Update(msg)
	if v := l.filter.Value(); v != l.table.FilterText() {
		l.table.SetFilter(v)
	}
	return cmd
}

// paste types pasted text into the filter input when it has the focus.
func (l *pagedList[T]) paste(msg tea.PasteMsg) tea.Cmd {
	if !l.filtering {
		return nil
	}
	var cmd tea.Cmd
	l.filter, cmd = l.filter.Update(msg)
	if v := l.filter.Value(); v != l.table.FilterText() {
		l.table.SetFilter(v)
	}
	return cmd
}

// clearFilter drops the filter (esc in the list).
func (l *pagedList[T]) clearFilter() {
	l.filter.SetValue("")
	l.table.SetFilter("")
}

// filterLine is the line under the list: the input while it has the focus,
// the active filter otherwise, "" when there is none.
func (l *pagedList[T]) filterLine(theme ui.Theme, w int) string {
	switch {
	case l.filtering:
		l.filter.SetWidth(max(w-len(l.filter.Prompt)-1, 1))
		return fit(l.filter.View(), w)
	case l.table.FilterText() != "":
		return fit(theme.Muted.Render("filter: ")+theme.Text.Render(textsafe.Clean(l.table.FilterText()))+
			theme.Muted.Render("  (/ edit · esc clear)"), w)
	}
	return ""
}

// --- layout --------------------------------------------------------------------

// hasFilterLine reports whether the filter line takes the bottom line.
func (l *pagedList[T]) hasFilterLine() bool {
	return l.filtering || l.table.FilterText() != ""
}

// layout sizes the list for a tab area of w × h with the detail pane open
// or not; it returns the height left for the list and the pane and the
// pane's width beside the list (0: the pane, if open, takes the whole width).
func (l *pagedList[T]) layout(w, h int, detailOpen bool) (bodyH, paneW int) {
	bodyH = h
	if l.hasFilterLine() {
		bodyH--
	}
	bodyH = max(bodyH, 0)
	switch {
	case detailOpen && w >= splitMinWidth:
		paneW = paneWidth(w)
		l.table.SetSize(w-paneW, bodyH)
	case !detailOpen:
		l.table.SetSize(w, bodyH)
	}
	return bodyH, paneW
}

// view draws a tab: the list, the detail pane beside it or instead of it,
// and the filter line.
func (l *pagedList[T]) view(theme ui.Theme, w, h int, pane func(w, h int, border bool) []string) string {
	if w <= 0 || h <= 0 {
		return ""
	}
	bodyH, paneW := l.layout(w, h, pane != nil)
	var body string
	switch {
	case bodyH == 0:
	case pane != nil && paneW > 0:
		body = side(strings.Split(l.table.View(), "\n"), pane(paneW, bodyH, true))
	case pane != nil:
		body = strings.Join(pane(w, bodyH, false), "\n")
	default:
		body = l.table.View()
	}
	if fl := l.filterLine(theme, w); fl != "" {
		if body == "" {
			return fl
		}
		body += "\n" + fl
	}
	return body
}
