package views

import (
	"context"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"paydash/keys"
	"paydash/ui"
	"paydash/ui/datatable"
)

// detail is a detail pane: the object shown, its loading state and error,
// the raw view, and the reads under way, cancelled when it closes or reads
// again. It is a component: the tab routes it its answers (update) and the
// pane keys (key) and gives it the content to draw.
type detail[T any] struct {
	open bool
	obj  T
	// read reads the object in full (nil: the row is all there is); it
	// runs in a command.
	read func(ctx context.Context, obj T) (T, error)

	loading bool
	err     error

	// reads are the pane's reads of its object: a new one and close
	// abandon those under way, and their answers are dropped.
	reads reader

	raw bool
	// rawSrc is the raw view's lines as received, built when the raw view
	// opens or the object changes; rawLines are those lines wrapped to the
	// pane's width, so that no part of a long line is out of sight.
	rawSrc, rawLines []string
	sc, rsc          scroller

	w, h   int
	border bool

	// facts and rawOf give the content: the facts, one a line, and the raw
	// view of the object. They are the tab's.
	facts func() []string
	rawOf func(T) []string
}

// detailMsg is the answer of a detail read.
type detailMsg[T any] struct {
	stamp stamp
	obj   T
	err   error
}

func newDetail[T any](read func(context.Context, T) (T, error), facts func() []string, rawOf func(T) []string) *detail[T] {
	return &detail[T]{read: read, facts: facts, rawOf: rawOf}
}

// show opens the pane on obj (in the raw view or not) in a new read
// generation, and reads it in full unless full says obj already is.
func (d *detail[T]) show(obj T, raw, full bool) tea.Cmd {
	d.open, d.obj, d.err, d.raw, d.loading = true, obj, nil, raw, false
	d.sc, d.rsc = scroller{}, scroller{}
	d.rebuildRaw()
	if full {
		d.reads.next()
		return nil
	}
	return d.reload()
}

// reload reads the object again in a new read generation (a refresh);
// nothing when the pane is closed.
func (d *detail[T]) reload() tea.Cmd {
	if !d.open {
		return nil
	}
	ctx, st := d.reads.next()
	if d.read == nil {
		return nil
	}
	d.loading = true
	read, obj := d.read, d.obj
	return func() tea.Msg {
		got, err := read(ctx, obj)
		return detailMsg[T]{stamp: st, obj: got, err: err}
	}
}

// close closes the pane and abandons what it was reading.
func (d *detail[T]) close() {
	var none T
	d.open, d.obj, d.loading, d.err = false, none, false, nil
	d.reads.stop()
}

// readStamp is the context and stamp of the pane's current read, for
// reads of the tab's own about the object (a payment's refunds): they
// end with it, and current accepts their answers.
func (d *detail[T]) readStamp() (context.Context, stamp) { return d.reads.current() }

// current reports whether an answer stamped s is for the pane as it is
// now.
func (d *detail[T]) current(s stamp) bool { return d.open && d.reads.fresh(s) }

// update takes the pane's answers; ok is false for other messages, loaded
// is true when the object was read (the tab may put it in the list).
func (d *detail[T]) update(msg tea.Msg) (loaded, ok bool) {
	m, isMine := msg.(detailMsg[T])
	if !isMine || !d.reads.owns(m.stamp) {
		return false, false
	}
	if !d.current(m.stamp) {
		return false, true
	}
	d.loading = false
	if m.err != nil {
		if !cancelled(m.err) {
			d.err = m.err
		}
		return false, true
	}
	d.err = nil
	d.set(m.obj)
	return true, true
}

// set replaces the object shown (an action's answer, a read).
func (d *detail[T]) set(obj T) {
	d.obj = obj
	d.rebuildRaw()
}

func (d *detail[T]) rebuildRaw() {
	d.rawSrc, d.rawLines = nil, nil
	if d.raw && d.rawOf != nil {
		d.rawSrc = d.rawOf(d.obj)
		d.rawLines = wrapRaw(d.rawSrc, d.inner())
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
func (d *detail[T]) key(a keys.Action) bool {
	switch a {
	case keys.ActClose:
		if d.raw {
			d.raw = false
		} else {
			d.close()
		}
		return true
	case keys.ActRaw:
		d.raw = !d.raw
		d.rebuildRaw()
		return true
	}
	if d.raw {
		return d.rsc.key(a, len(d.rawLines), paneBody(d.h))
	}
	return d.sc.key(a, len(d.facts()), paneBody(d.h))
}

// setSize gives the pane its area; border when it is beside the list.
func (d *detail[T]) setSize(w, h int, border bool) {
	was := d.inner()
	d.w, d.h, d.border = w, h, border
	if d.raw && d.inner() != was {
		d.rawLines = wrapRaw(d.rawSrc, d.inner())
	}
}

// inner is the width of the pane's text: its width less the rule on its
// left when it is beside the list (as scroller.render draws it).
func (d *detail[T]) inner() int {
	if d.border {
		return max(d.w-3, 0)
	}
	return d.w
}

// isOpen reports whether the pane is open.
func (d *detail[T]) isOpen() bool { return d.open }

// lines draws the pane, titled, in its area.
func (d *detail[T]) lines(th ui.Theme, title string) []string {
	if d.raw {
		return d.rsc.render(th, title+" · raw", d.rawLines, d.w, d.h, d.border)
	}
	return d.sc.render(th, title, d.facts(), d.w, d.h, d.border)
}

// --- a tab's frame -------------------------------------------------------------

// arrange sizes a tab's list and open pane for a tab area of w × h: the pane
// beside the list from splitMinWidth, instead of it below; the filter line
// under both.
func arrange[T, D any](l *pagedList[T], d *detail[D], w, h int) {
	bodyH := max(h-l.bottomLines(), 0)
	switch {
	case d.isOpen() && w >= splitMinWidth:
		pw := paneWidth(w)
		l.setSize(w, h, w-pw)
		d.setSize(pw, bodyH, true)
	case d.isOpen():
		l.setSize(w, h, l.tableW) // hidden behind the pane: keeps its layout
		d.setSize(w, bodyH, false)
	default:
		l.setSize(w, h, w)
	}
	l.beside = d.isOpen() && w >= splitMinWidth
}

// frame draws a tab of w × h: the list, the pane beside it or instead of it
// (pane nil: closed), and the filter line. The table and the pane draw
// themselves at their exact sizes (arrange gave them), so the common case,
// the list alone, is the table's own drawing: measuring every styled line
// again costs more than the rest of a key press.
func frame[T any](th ui.Theme, l *pagedList[T], pane []string, w, h int) string {
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
	case pane == nil && l.table.Height() > 0 && l.table.Width() == w:
		body = l.table.View()
	case pane == nil:
		body = strings.Join(block(l.tableLines(), w, bodyH), "\n")
	case l.beside:
		body = side(l.tableLines(), pane)
	default:
		body = strings.Join(block(pane, w, bodyH), "\n")
	}
	if fl != "" {
		if body == "" {
			return fl
		}
		body += "\n" + fl
	}
	return body
}

// keyRoute is the way every list tab handles a key, built once per tab:
// the filter prompt takes the key while it has the focus; a key the
// keymap does not resolve here ends, and a greyed-out one says why; the
// open pane takes its own keys (esc, w, scrolling) and enter (the tab's
// enterPane, nil: nothing); then the keys every list gives the same
// meaning: moving, opening the pane on the selected row, esc clearing the
// filter, the filter (which closes the pane: it works on the list), copy
// id, sort (s: the chooser, S: reverse; the list behind an open pane is
// sorted). esc first stops the tab's search under way (stop), if any.
// What is left is the tab's own (refresh, export, its actions).
type keyRoute[T any] struct {
	km        keys.Map
	list      *pagedList[T]
	pane      *detail[T] // nil: the tab's pane is its own (open must be set)
	context   func() keys.Context
	available func(keys.Action) (bool, string)
	open      func(T, bool) tea.Cmd // opens the pane on a row; nil: the pane's show
	closePane func()                // nil: the pane's close
	enterPane func() tea.Cmd        // enter on the open pane; nil: nothing
	// stop is esc's first meaning when set: it stops a search of the
	// tab's under way (ok: there was one) before esc closes anything.
	stop func() (cmd tea.Cmd, ok bool)
}

// relayout sizes the list and its pane again for the tab's area (the
// bottom line came or went).
func (r keyRoute[T]) relayout() {
	if r.pane != nil {
		arrange(r.list, r.pane, r.list.w, r.list.h)
		return
	}
	r.list.layout()
}

// handle handles msg; handled is false for the tab's own keys, whose
// action it gives.
func (r keyRoute[T]) handle(msg tea.KeyPressMsg) (a keys.Action, cmd tea.Cmd, handled bool) {
	l, d := r.list, r.pane
	if l.filtering {
		return "", l.filterKey(msg, r.km), true
	}
	p, ok := r.km.Resolve(msg, r.context(), r.available)
	switch {
	case !ok:
		return "", nil, true
	case !p.Enabled:
		return p.Action, refusedKey(p), true
	}
	a = p.Action
	if a == keys.ActClose && r.stop != nil {
		if cmd, ok := r.stop(); ok {
			return a, cmd, true
		}
	}
	if d != nil && d.isOpen() {
		if d.key(a) {
			if !d.isOpen() && r.closePane != nil {
				r.closePane()
			}
			return a, nil, true
		}
		if a == keys.ActOpen {
			if r.enterPane != nil {
				cmd = r.enterPane()
			}
			return a, cmd, true
		}
	}
	switch {
	case isMove(a):
		return a, l.move(msg), true
	case a == keys.ActOpen || a == keys.ActRaw:
		sel, ok := l.selected()
		switch {
		case !ok:
		case r.open != nil:
			cmd = r.open(sel, a == keys.ActRaw)
		case d != nil:
			cmd = d.show(sel, a == keys.ActRaw, false)
		}
		return a, cmd, true
	case a == keys.ActClose:
		return a, l.escape(), true
	case a == keys.ActFilter:
		if r.closePane != nil {
			r.closePane()
		} else if d != nil {
			d.close()
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
			obj, ok = d.obj, d.isOpen()
		}
		if !ok {
			obj, ok = l.selected()
		}
		if ok {
			cmd = copyID(l.rowID(obj))
		}
		return a, cmd, true
	}
	return a, nil, false
}

// mouse handles a mouse event in the tab's area (ui.MouseMsg, relative to
// it): over the table the wheel scrolls and a click selects a row (the
// datatable); a double click on a row opens it as enter does; over an
// open pane the wheel scrolls the pane. The filter line takes nothing.
func (r keyRoute[T]) mouse(msg ui.MouseMsg) tea.Cmd {
	l, d := r.list, r.pane
	if d != nil && d.isOpen() && (!l.beside || msg.X >= l.tableW) {
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
	if msg.X < 0 || msg.X >= l.tableW || msg.Y < 0 || msg.Y >= l.table.Height() {
		return nil
	}
	var cmd tea.Cmd
	l.table, cmd = l.table.Update(msg.Tea())
	cmd = tea.Batch(cmd, l.maybeNext())
	if msg.Kind != ui.MouseDoubleClick || l.filtering {
		return cmd
	}
	if _, onRow := l.table.RowAt(msg.X, msg.Y); !onRow {
		return cmd
	}
	if ok, why := r.available(keys.ActOpen); !ok {
		if why != "" {
			return tea.Batch(cmd, func() tea.Msg { return ui.ToastMsg{Level: ui.ToastWarning, Text: why} })
		}
		return cmd
	}
	sel, ok := l.selected()
	switch {
	case !ok:
	case r.open != nil:
		cmd = tea.Batch(cmd, r.open(sel, false))
	case d != nil:
		cmd = tea.Batch(cmd, d.show(sel, false, false))
	}
	return cmd
}
