package tab

import (
	"context"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"paydash/keys"
	"paydash/ui"
	"paydash/ui/datatable"
)

// Detail is a detail pane: the object shown, its loading state and error,
// the raw view, and the reads under way, cancelled when it closes or reads
// again. It is a component: the tab routes it its answers (update) and the
// pane keys (key) and gives it the content to draw.
type Detail[T any] struct {
	open bool
	Obj  T
	// read reads the object in full (nil: the row is all there is); it
	// runs in a command.
	read func(ctx context.Context, obj T) (T, error)

	Loading bool
	Err     error

	// reads are the pane's reads of its object: a new one and close
	// abandon those under way, and their answers are dropped.
	reads Reader

	Raw bool
	// rawSrc is the raw view's lines as received, built when the raw view
	// opens or the object changes; rawLines are those lines wrapped to the
	// pane's width, so that no part of a long line is out of sight.
	rawSrc, rawLines []string
	sc, rsc          Scroller

	w, H   int
	border bool

	// facts and rawOf give the content: the facts, one a line, and the raw
	// view of the object. They are the tab's.
	facts func() []string
	rawOf func(T) []string
}

// detailMsg is the answer of a detail read.
type detailMsg[T any] struct {
	stamp Stamp
	obj   T
	err   error
}

func NewDetail[T any](read func(context.Context, T) (T, error), facts func() []string, rawOf func(T) []string) *Detail[T] {
	return &Detail[T]{read: read, facts: facts, rawOf: rawOf}
}

// Show opens the pane on obj (in the raw view or not) in a new read
// generation, and reads it in full unless full says obj already is.
func (dp *Detail[T]) Show(obj T, raw, full bool) tea.Cmd {
	dp.open, dp.Obj, dp.Err, dp.Raw, dp.Loading = true, obj, nil, raw, false
	dp.sc, dp.rsc = Scroller{}, Scroller{}
	dp.rebuildRaw()
	if full {
		dp.reads.Next()
		return nil
	}
	return dp.Reload()
}

// Reload reads the object again in a new read generation (a refresh);
// nothing when the pane is closed.
func (dp *Detail[T]) Reload() tea.Cmd {
	if !dp.open {
		return nil
	}
	ctx, st := dp.reads.Next()
	if dp.read == nil {
		return nil
	}
	dp.Loading = true
	read, obj := dp.read, dp.Obj
	return func() tea.Msg {
		got, err := read(ctx, obj)
		return detailMsg[T]{stamp: st, obj: got, err: err}
	}
}

// Close closes the pane and abandons what it was reading.
func (dp *Detail[T]) Close() {
	var none T
	dp.open, dp.Obj, dp.Loading, dp.Err = false, none, false, nil
	dp.reads.Stop()
}

// ReadStamp is the context and stamp of the pane's current read, for
// reads of the tab's own about the object (a payment's refunds): they
// end with it, and current accepts their answers.
func (dp *Detail[T]) ReadStamp() (context.Context, Stamp) { return dp.reads.Current() }

// Current reports whether an answer stamped s is for the pane as it is
// now.
func (dp *Detail[T]) Current(s Stamp) bool { return dp.open && dp.reads.Fresh(s) }

// Update takes the pane's answers; ok is false for other messages, loaded
// is true when the object was read (the tab may put it in the list).
func (dp *Detail[T]) Update(msg tea.Msg) (loaded, ok bool) {
	m, isMine := msg.(detailMsg[T])
	if !isMine || !dp.reads.Owns(m.stamp) {
		return false, false
	}
	if !dp.Current(m.stamp) {
		return false, true
	}
	dp.Loading = false
	if m.err != nil {
		if !Cancelled(m.err) {
			dp.Err = m.err
		}
		return false, true
	}
	dp.Err = nil
	dp.Set(m.obj)
	return true, true
}

// Set replaces the object shown (an action's answer, a read).
func (dp *Detail[T]) Set(obj T) {
	dp.Obj = obj
	dp.rebuildRaw()
}

func (dp *Detail[T]) rebuildRaw() {
	dp.rawSrc, dp.rawLines = nil, nil
	if dp.Raw && dp.rawOf != nil {
		dp.rawSrc = dp.rawOf(dp.Obj)
		dp.rawLines = wrapRaw(dp.rawSrc, dp.Inner())
	}
}

// wrapRaw breaks the lines longer than width into lines of width, at any
// character: a raw body is shown exactly, spaces included.
func wrapRaw(lines []string, width int) []string {
	if width <= 0 {
		return lines
	}
	var out []string
	for i, l := range lines {
		if ansi.StringWidth(l) <= width {
			if out != nil {
				out = append(out, l)
			}
			continue
		}
		if out == nil {
			out = append(make([]string, 0, len(lines)+8), lines[:i]...)
		}
		out = append(out, strings.Split(ansi.Hardwrap(l, width, true), "\n")...)
	}
	if out == nil {
		return lines
	}
	return out
}

// key handles the keys every open pane gives the same meaning: close
// leaves the raw view first, then closes the pane; raw toggles the raw
// view; the movement keys scroll the view shown. It reports whether the
// key was one of them.
func (dp *Detail[T]) key(a keys.Action) bool {
	switch a {
	case keys.ActClose:
		if dp.Raw {
			dp.Raw = false
		} else {
			dp.Close()
		}
		return true
	case keys.ActRaw:
		dp.Raw = !dp.Raw
		dp.rebuildRaw()
		return true
	}
	if dp.Raw {
		return dp.rsc.Key(a, len(dp.rawLines), PaneBody(dp.H))
	}
	return dp.sc.Key(a, len(dp.facts()), PaneBody(dp.H))
}

// setSize gives the pane its area; border when it is beside the list.
func (dp *Detail[T]) setSize(w, h int, border bool) {
	was := dp.Inner()
	dp.w, dp.H, dp.border = w, h, border
	if dp.Raw && dp.Inner() != was {
		dp.rawLines = wrapRaw(dp.rawSrc, dp.Inner())
	}
}

// Inner is the width of the pane's text: its width less the rule on its
// left when it is beside the list (as scroller.render draws it).
func (dp *Detail[T]) Inner() int {
	if dp.border {
		return max(dp.w-3, 0)
	}
	return dp.w
}

// IsOpen reports whether the pane is open.
func (dp *Detail[T]) IsOpen() bool { return dp.open }

// Lines draws the pane, titled, in its area.
func (dp *Detail[T]) Lines(th ui.Theme, title string) []string {
	if dp.Raw {
		return dp.rsc.Render(th, title+" · raw", dp.rawLines, dp.w, dp.H, dp.border)
	}
	return dp.sc.Render(th, title, dp.facts(), dp.w, dp.H, dp.border)
}

// --- a tab's frame -------------------------------------------------------------

// Arrange sizes a tab's list and open pane for a tab area of w × h: the pane
// beside the list from splitMinWidth, instead of it below; the filter line
// under both.
func Arrange[T, D any](l *PagedList[T], d *Detail[D], w, h int) {
	bodyH := max(h-l.bottomLines(), 0)
	switch {
	case d.IsOpen() && w >= splitMinWidth:
		pw := PaneWidth(w)
		l.SetSize(w, h, w-pw)
		d.setSize(pw, bodyH, true)
	case d.IsOpen():
		l.SetSize(w, h, l.tableW) // hidden behind the pane: keeps its layout
		d.setSize(w, bodyH, false)
	default:
		l.SetSize(w, h, w)
	}
	l.Beside = d.IsOpen() && w >= splitMinWidth
}

// Frame draws a tab of w × h: the list, the pane beside it or instead of it
// (pane nil: closed), and the filter line. The table and the pane draw
// themselves at their exact sizes (arrange gave them), so the common case,
// the list alone, is the table's own drawing: measuring every styled line
// again costs more than the rest of a key press.
func Frame[T any](th ui.Theme, l *PagedList[T], pane []string, w, h int) string {
	if w <= 0 || h <= 0 {
		return ""
	}
	fl := l.filterLine(th)
	if el := l.errorLine(th); el != "" {
		fl = el + "\n" + fl
	}
	bodyH := h - strings.Count(fl, "\n")
	if fl != "" {
		bodyH--
	}
	var body string
	switch {
	case pane == nil && l.Table.Height() > 0 && l.Table.Width() == w:
		body = l.Table.View()
	case pane == nil:
		body = strings.Join(Block(l.tableLines(), w, bodyH), "\n")
	case l.Beside:
		body = side(l.tableLines(), pane)
	default:
		body = strings.Join(Block(pane, w, bodyH), "\n")
	}
	if fl != "" {
		if body == "" {
			return fl
		}
		body += "\n" + fl
	}
	return body
}

// KeyRoute is the way every list tab handles a key, built once per tab:
// the filter prompt takes the key while it has the focus; a key the
// keymap does not resolve here ends, and a greyed-out one says why; the
// open pane takes its own keys (esc, w, scrolling) and enter (the tab's
// enterPane, nil: nothing); then the keys every list gives the same
// meaning: moving, opening the pane on the selected row, esc clearing the
// filter, the filter (which closes the pane: it works on the list), copy
// id, sort (s: the chooser, S: reverse; the list behind an open pane is
// sorted). esc first stops the tab's search under way (stop), if any.
// What is left is the tab's own (refresh, export, its actions).
type KeyRoute[T any] struct {
	Km        keys.Map
	List      *PagedList[T]
	Pane      *Detail[T] // nil: the tab's pane is its own (open must be set)
	Context   func() keys.Context
	Available func(keys.Action) (bool, string)
	Open      func(T, bool) tea.Cmd // opens the pane on a row; nil: the pane's show
	ClosePane func()                // nil: the pane's close
	EnterPane func() tea.Cmd        // enter on the open pane; nil: nothing
	// Stop is esc's first meaning when set: it stops a search of the
	// tab's under way (ok: there was one) before esc closes anything.
	Stop func() (cmd tea.Cmd, ok bool)
}

// relayout sizes the list and its pane again for the tab's area (the
// bottom line came or went).
func (r KeyRoute[T]) relayout() {
	if r.Pane != nil {
		Arrange(r.List, r.Pane, r.List.w, r.List.h)
		return
	}
	r.List.layout()
}

// Handle handles msg; handled is false for the tab's own keys, whose
// action it gives.
func (r KeyRoute[T]) Handle(msg tea.KeyPressMsg) (a keys.Action, cmd tea.Cmd, handled bool) {
	l, d := r.List, r.Pane
	if l.Filtering {
		return "", l.filterKey(msg, r.Km), true
	}
	p, ok := r.Km.Resolve(msg, r.Context(), r.Available)
	switch {
	case !ok:
		return "", nil, true
	case !p.Enabled:
		return p.Action, RefusedKey(p), true
	}
	a = p.Action
	if a == keys.ActClose && r.Stop != nil {
		if cmd, ok := r.Stop(); ok {
			return a, cmd, true
		}
	}
	if d != nil && d.IsOpen() {
		if d.key(a) {
			if !d.IsOpen() && r.ClosePane != nil {
				r.ClosePane()
			}
			return a, nil, true
		}
		if a == keys.ActOpen {
			if r.EnterPane != nil {
				cmd = r.EnterPane()
			}
			return a, cmd, true
		}
	}
	switch {
	case IsMove(a):
		return a, l.move(msg), true
	case a == keys.ActOpen || a == keys.ActRaw:
		sel, ok := l.Selected()
		switch {
		case !ok:
		case r.Open != nil:
			cmd = r.Open(sel, a == keys.ActRaw)
		case d != nil:
			cmd = d.Show(sel, a == keys.ActRaw, false)
		}
		return a, cmd, true
	case a == keys.ActClose:
		return a, l.escape(), true
	case a == keys.ActFilter:
		if r.ClosePane != nil {
			r.ClosePane()
		} else if d != nil {
			d.Close()
		}
		l.focusFilter()
		return a, nil, true
	case a == keys.ActSort:
		return a, l.chooseSort("Sort the list by", r.relayout), true
	case a == keys.ActSortReverse:
		cmd = l.reverseSort()
		r.relayout()
		return a, cmd, true
	case a == keys.ActCopyID:
		var obj T
		ok := false
		if d != nil {
			obj, ok = d.Obj, d.IsOpen()
		}
		if !ok {
			obj, ok = l.Selected()
		}
		if ok {
			cmd = CopyID(l.rowID(obj))
		}
		return a, cmd, true
	}
	return a, nil, false
}

// Mouse handles a mouse event in the tab's area (ui.MouseMsg, relative to
// it): over the table the wheel scrolls and a click selects a row (the
// datatable); a double click on a row opens it as enter does; over an
// open pane the wheel scrolls the pane. The filter line takes nothing.
func (r KeyRoute[T]) Mouse(msg ui.MouseMsg) tea.Cmd {
	l, d := r.List, r.Pane
	if d != nil && d.IsOpen() && (!l.Beside || msg.X >= l.tableW) {
		a := keys.ActDown
		switch msg.Kind {
		case ui.MouseWheelUp:
			a = keys.ActUp
		case ui.MouseWheelDown:
		default:
			return nil
		}
		for range datatable.WheelLines {
			d.key(a)
		}
		return nil
	}
	if msg.X < 0 || msg.X >= l.tableW || msg.Y < 0 || msg.Y >= l.Table.Height() {
		return nil
	}
	var cmd tea.Cmd
	l.Table, cmd = l.Table.Update(msg.Tea())
	cmd = tea.Batch(cmd, l.maybeNext())
	if msg.Kind != ui.MouseDoubleClick || l.Filtering {
		return cmd
	}
	if _, onRow := l.Table.RowAt(msg.X, msg.Y); !onRow {
		return cmd
	}
	if ok, why := r.Available(keys.ActOpen); !ok {
		if why != "" {
			return tea.Batch(cmd, func() tea.Msg { return ui.ToastMsg{Level: ui.ToastWarning, Text: why} })
		}
		return cmd
	}
	sel, ok := l.Selected()
	switch {
	case !ok:
	case r.Open != nil:
		cmd = tea.Batch(cmd, r.Open(sel, false))
	case d != nil:
		cmd = tea.Batch(cmd, d.Show(sel, false, false))
	}
	return cmd
}
