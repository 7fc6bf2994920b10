package views

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"

	"paydash/backend"
	"paydash/backend/textsafe"
	"paydash/keys"
	"paydash/ui"
	"paydash/ui/datatable"
)

// listTab is what the Payments and Refunds tabs have in common: a paged
// list of rows of type T with a detail pane P on one of them, the keys,
// messages, status and drawing that work the same on both. Each tab embeds
// it and gives it the rest through tabSpecific.
type listTab[T any, P detailPane[T]] struct {
	d     Deps
	owner uint64
	theme ui.Theme
	list  *pagedList[T]

	w, h int // the tab area, from SizeMsg

	detailState[P]

	// specific is the tab that embeds this listTab: what it does its own way.
	specific tabSpecific[T]
}

// tabSpecific is what a list tab does its own way; the shared code calls it
// at the points where the tabs differ.
type tabSpecific[T any] interface {
	// Available is the tab's ui.Tab Available, for resolving keys.
	Available(action keys.Action) (bool, string)
	// startScope drops what belongs to the old scope and loads the new one.
	startScope(s ui.Scope) tea.Cmd
	// openDetail opens the pane on row and starts reading it.
	openDetail(row T) tea.Cmd
	// reloadDetail reads the open pane again (on a refresh).
	reloadDetail() tea.Cmd
	// detailView draws the open pane in w × h cells.
	detailView(w, h int, border bool) []string
	// detailKey handles the keys the tab's open pane gives its own meaning
	// (beyond close, raw and scrolling); handled is false for the rest.
	detailKey(action keys.Action) (cmd tea.Cmd, handled bool)
	// otherKey handles the keys of the tab's own (refresh, actions).
	otherKey(action keys.Action) tea.Cmd
}

func newListTab[T any, P detailPane[T]](d Deps, cfg datatable.Config[T],
	open func(backend.PeriodQuery) backend.Pager[T], when func(T) time.Time,
	specific tabSpecific[T]) listTab[T, P] {
	owner := newOwner()
	return listTab[T, P]{
		d: d, owner: owner, theme: d.Theme,
		list:     newPagedList(owner, cfg, d.Keys, d.Theme, open, when),
		specific: specific,
	}
}

// Init implements ui.Tab: the first load of the scope.
func (b *listTab[T, P]) Init(s ui.Scope) tea.Cmd { return b.specific.startScope(s) }

// Context implements ui.Tab.
func (b *listTab[T, P]) Context() keys.Context {
	switch {
	case b.list.filtering:
		return keys.ContextFilter
	case b.isOpen():
		return keys.ContextDetail
	}
	return keys.ContextList
}

// Status implements ui.Tab: the list's status, loading while the pane reads.
func (b *listTab[T, P]) Status() ui.TabStatus {
	st := b.list.status()
	st.Loading = st.Loading || (b.isOpen() && b.det.busy())
	return st
}

// View implements ui.Tab: the list, with the pane beside it or instead of
// it while one is open.
func (b *listTab[T, P]) View(w, h int) string {
	if !b.isOpen() {
		return b.list.view(b.theme, w, h, nil)
	}
	return b.list.view(b.theme, w, h, b.specific.detailView)
}

// target is the row that copy id and the actions act on: the one in the
// detail pane, else the selected row.
func (b *listTab[T, P]) target() (T, bool) {
	if b.isOpen() {
		return b.det.row(), true
	}
	return b.list.table.Selected()
}

// refresh re-reads the newest pages and the open detail.
func (b *listTab[T, P]) refresh() tea.Cmd {
	cmd := b.list.refresh()
	if b.isOpen() {
		return tea.Batch(cmd, b.specific.reloadDetail())
	}
	return cmd
}

// update handles the messages both tabs handle alike; the tabs' Update
// takes their own messages first and passes the rest here.
func (b *listTab[T, P]) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		cmd := b.key(msg)
		// A key may open or close the pane, which resizes the list.
		if b.w > 0 && b.h > 0 {
			b.list.layout(b.w, b.h, b.isOpen())
		}
		return cmd
	case ui.ScopeMsg:
		return b.specific.startScope(msg.Scope)
	case ui.RefreshMsg:
		return b.refresh()
	case ui.SizeMsg:
		b.w, b.h = msg.Width, msg.Height
		b.list.layout(b.w, b.h, b.isOpen())
	case tea.PasteMsg:
		return b.list.paste(msg)
	case ui.TickMsg:
		b.list.table.Tick(msg.Now)
	case ui.ThemeMsg:
		b.theme = msg.Theme
		b.list.setTheme(msg.Theme)
	case pageMsg[T]:
		return b.list.onPage(msg, b.d.now())
	case refreshMsg[T]:
		return b.list.onRefresh(msg, b.d.now())
	}
	return nil
}

func (b *listTab[T, P]) key(msg tea.KeyPressMsg) tea.Cmd {
	if b.list.filtering {
		return b.list.filterKey(msg, b.d.Keys)
	}
	p, ok := b.d.Keys.Resolve(msg, b.Context(), b.specific.Available)
	if !ok {
		return nil
	}
	if !p.Enabled {
		if p.Reason != "" && p.Reason != keys.NotHere {
			return toastCmd(ui.ToastWarning, p.Reason)
		}
		return nil
	}
	if b.isOpen() {
		if b.paneKey(p.Action) {
			return nil
		}
		if cmd, handled := b.specific.detailKey(p.Action); handled {
			return cmd
		}
	}
	switch p.Action {
	case keys.ActUp, keys.ActDown, keys.ActPageUp, keys.ActPageDown, keys.ActTop, keys.ActBottom:
		var cmd tea.Cmd
		b.list.table, cmd = b.list.table.Update(msg)
		return tea.Batch(cmd, b.list.maybeNext())
	case keys.ActOpen, keys.ActRaw:
		if sel, ok := b.list.table.Selected(); ok {
			cmd := b.specific.openDetail(sel)
			b.det.pane().raw = p.Action == keys.ActRaw
			return cmd
		}
	case keys.ActClose:
		if b.list.table.FilterText() != "" {
			b.list.clearFilter()
		}
	case keys.ActFilter:
		b.closeDetail() // the filter works on the list: show it
		b.list.focusFilter()
	case keys.ActCopyID:
		if sel, ok := b.target(); ok {
			return copyID(b.list.id(sel))
		}
	default:
		return b.specific.otherKey(p.Action)
	}
	return nil
}

// paneKey handles the keys every open pane gives the same meaning: close
// leaves the raw view first, then closes the pane; raw toggles the raw
// view; the movement keys scroll the view shown. It reports whether the
// key was one of them.
func (b *listTab[T, P]) paneKey(action keys.Action) bool {
	v := b.det.pane()
	switch action {
	case keys.ActClose:
		if v.raw {
			v.raw = false
		} else {
			b.closeDetail()
		}
		return true
	case keys.ActRaw:
		v.raw = !v.raw
		return true
	}
	return v.scroller().key(action)
}

// detailAnswer is the open pane if an answer with owner and gen is for it,
// so that answers for another tab or a pane since closed or re-read are
// dropped.
func (b *listTab[T, P]) detailAnswer(owner, gen uint64) (P, bool) {
	if owner != b.owner || gen != b.dgen || !b.isOpen() {
		var none P
		return none, false
	}
	return b.det, true
}

func copyID(id string) tea.Cmd {
	return tea.Batch(tea.SetClipboard(id), toastCmd(ui.ToastInfo, "Copied "+textsafe.Clean(id)))
}

// --- detail pane -------------------------------------------------------------

// detailPane is what the shared code needs of a tab's detail pane (a
// pointer; nil means no pane is open). T is the list's row type.
type detailPane[T any] interface {
	comparable
	pane() *paneView
	row() T     // the row shown, as last read
	busy() bool // a read of the pane is out
}

// detailState is the open detail pane with what abandons its reads: a
// generation that answers must carry, and the cancel func of its reads.
type detailState[P comparable] struct {
	det       P      // the open detail pane, nil when closed
	dgen      uint64 // bumped on every read and close: older answers are dropped
	detCancel context.CancelFunc
}

func (s *detailState[P]) isOpen() bool {
	var none P
	return s.det != none
}

// closeDetail closes the pane and abandons what it was reading.
func (s *detailState[P]) closeDetail() {
	var none P
	s.det = none
	s.dgen++
	if s.detCancel != nil {
		s.detCancel()
		s.detCancel = nil
	}
}

// newRead abandons the pane's reads under way and starts a new generation:
// the context for the new reads and the generation their answers carry.
func (s *detailState[P]) newRead() (context.Context, uint64) {
	s.dgen++
	if s.detCancel != nil {
		s.detCancel()
	}
	ctx, cancel := context.WithCancel(context.Background())
	s.detCancel = cancel
	return ctx, s.dgen
}

// paneView is the view state every detail pane has beside its content:
// the raw view toggle, the raw lines (built once per read) and a scroll
// position for each of the two views.
type paneView struct {
	raw      bool
	rawLines []string // nil: build them again on the next frame
	sc, rsc  scroller
}

// scroller is the scroll state of the view shown.
func (v *paneView) scroller() *scroller {
	if v.raw {
		return &v.rsc
	}
	return &v.sc
}

// render draws the raw view (building its lines with rawLines when they
// are not built yet) or the facts given by lines.
func (v *paneView) render(th ui.Theme, title string, w, h int, border bool,
	rawLines, lines func() []string) []string {
	if v.raw {
		if v.rawLines == nil {
			v.rawLines = rawLines()
		}
		return v.rsc.render(th, title+" · raw", v.rawLines, w, h, border)
	}
	return v.sc.render(th, title, lines(), w, h, border)
}
