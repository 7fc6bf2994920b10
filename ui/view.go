package ui

import (
	"fmt"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"paydash/backend/textsafe"
	"paydash/keys"
)

// View draws the whole screen in exactly width × height cells: the tab bar,
// the active tab, the status bar and the one-line help, with the toasts,
// the help overlay and the dialog drawn over it.
func (app *App) View() tea.View {
	v := tea.NewView(app.render())
	v.AltScreen = true
	v.WindowTitle = "paydash"
	if app.mouseOn && !app.tooSmall() {
		// Off below the minimum size: nothing there answers a click.
		v.MouseMode = tea.MouseModeCellMotion
	}
	return v
}

func (app *App) render() string {
	w, h := app.width, app.height
	if w <= 0 || h <= 0 {
		return ""
	}
	if app.tooSmall() {
		return app.tooSmallView(w, h)
	}
	errLines := app.errorLines(w)
	bodyH := max(h-chromeLines-len(errLines), 0)
	frame := make([]string, 0, h)
	frame = append(frame, app.tabBar(w))
	if len(app.tabs) > 0 {
		frame = append(frame, app.body.fitBlock(app.tabs[app.active].View(w, bodyH), w, bodyH)...)
	} else {
		frame = append(frame, fitBlock(app.theme.Muted.Render("no tabs"), w, bodyH)...)
	}
	frame = append(frame, errLines...)
	frame = append(frame, app.statusBar(w), app.helpBar(w))

	if app.helpOpen {
		app.drawFullHelp(frame, w, bodyH)
	}
	if app.messagesOpen {
		app.drawMessages(frame, w, bodyH)
	}
	top, bottom := -1, -1 // the rows the dialog covers: toasts stay off them
	if app.modal != nil {
		block := clampBlock(app.modal.View(w-4, bodyH), w, bodyH)
		bw, bh := blockSize(block)
		top = 1 + center(bodyH, bh)
		bottom = top + bh - 1
		overlay(frame, block, center(w, bw), top, w)
	}
	app.drawToasts(frame, w, bodyH, top, bottom)
	return strings.Join(frame, "\n")
}

func (app *App) tooSmallView(w, h int) string {
	msg := fmt.Sprintf("make the window at least %dx%d (it is %dx%d); keys wait until then", MinWidth, MinHeight, w, h)
	msg = strings.Join(wrapWords(msg, w), "\n")
	return strings.Join(fitBlock(lipgloss.Place(w, h, lipgloss.Center, lipgloss.Center, msg), w, h), "\n")
}

// tabBar lists the tabs with their number keys. The active tab is in
// brackets, so it shows without colour too.
func (app *App) tabBar(w int) string {
	var titles strings.Builder
	for _, t := range app.tabs {
		titles.WriteString(t.Title())
		titles.WriteByte(0)
	}
	key := tabBarKey{w: w, active: app.active, gen: app.gen, titles: titles.String()}
	if app.bar.ok && app.bar.key == key {
		return app.bar.line
	}
	app.bar = tabBarCache{key: key, line: app.drawTabBar(w), ok: true}
	return app.bar.line
}

type tabBarKey struct {
	w, active, gen int
	titles         string
}

type tabBarCache struct {
	key  tabBarKey
	line string
	ok   bool
}

func (app *App) drawTabBar(w int) string {
	th := app.theme
	left := app.tabLabels(false)
	if ansi.StringWidth(left) > w {
		// Too many tabs for the width (paydash serve's eight at 80
		// columns): the others by their number only, so that the active
		// one keeps its name.
		left = app.tabLabels(true)
	}
	right := th.Title.Render("paydash") + " "
	lw, rw := ansi.StringWidth(left), ansi.StringWidth(right)
	if lw+rw <= w {
		return left + strings.Repeat(" ", w-lw-rw) + right
	}
	return fitTail(left, w)
}

// tabLabels is the tab bar's tabs, the active one bracketed; short writes
// the others by their number key alone.
func (app *App) tabLabels(short bool) string {
	th := app.theme
	var b strings.Builder
	b.WriteString(" ")
	for i, t := range app.tabs {
		label := textsafe.Line(t.Title(), 24)
		if n, ok := tabNumber(t.ID()); ok {
			label = strconv.Itoa(n) + " " + label
			if short && i != app.active {
				label = strconv.Itoa(n)
			}
		}
		if i == app.active {
			b.WriteString(th.Accent.Render("[" + label + "]"))
		} else {
			b.WriteString(th.Muted.Render(" " + label + " "))
		}
		b.WriteString(" ")
	}
	return b.String()
}

// helpCache keeps the one-line help until the context, the width, the tab
// or what is available changes.
type helpCache struct {
	key  string
	line string
}

// helpLiner is a modal that writes its own one-line help (the choosers,
// whose keys no keys.Context describes).
type helpLiner interface {
	helpLine(width int) string
}

// modalAvailability is a modal that says which of its keys can act now.
type modalAvailability interface {
	Available(action keys.Action) (bool, string)
}

func (app *App) helpBar(w int) string {
	var (
		ctx   keys.Context
		avail keys.Availability
		who   string
	)
	switch {
	case app.helpOpen:
		return fit(helpLine(app.theme, w, [2]string{"esc/" + keys.Label(app.km.Global.Help.Keys()), "close help"},
			[2]string{keys.Label(app.km.List.Down.Keys()) + "/" + keys.Label(app.km.List.Up.Keys()), "scroll"},
			[2]string{"ctrl+c", "quit"}), w)
	case app.messagesOpen:
		return fit(helpLine(app.theme, w, [2]string{"esc/" + keys.Label(app.km.Global.Messages.Keys()), "close messages"},
			[2]string{keys.Label(app.km.List.Down.Keys()) + "/" + keys.Label(app.km.List.Up.Keys()), "scroll"},
			[2]string{"ctrl+c", "quit"}), w)
	case app.modal != nil:
		top := app.modal
		if hl, ok := top.(helpLiner); ok {
			return fit(hl.helpLine(w), w)
		}
		ctx = top.Context()
		if ma, ok := top.(modalAvailability); ok {
			avail = ma.Available
		}
		who = fmt.Sprintf("modal%p", top)
	case len(app.tabs) > 0:
		ctx = app.tabs[app.active].Context()
		avail = app.availability(app.active)
		who = "tab" + strconv.Itoa(app.active)
	default:
		return fit("", w)
	}
	key := who + "|" + strconv.Itoa(int(ctx)) + "|" + strconv.Itoa(w) + "|" + availSignature(ctx, avail)
	if app.help.key != key {
		app.help = helpCache{key: key, line: fit(keys.ShortHelp(app.km, ctx, avail, w, app.theme.Help), w)}
	}
	return app.help.line
}

var actionNames = keys.ActionNames()

// availSignature sums up what avail says about the actions live in ctx.
func availSignature(ctx keys.Context, avail keys.Availability) string {
	if avail == nil {
		return ""
	}
	var b strings.Builder
	for _, name := range actionNames {
		if !ctx.Live(name) {
			continue
		}
		ok, why := avail(name)
		if ok {
			b.WriteByte('+')
		} else {
			b.WriteByte('-')
			b.WriteString(why)
		}
		b.WriteByte(';')
	}
	return b.String()
}

// helpLine draws key/description pairs like keys.ShortHelp, cut to width.
func helpLine(th Theme, width int, items ...[2]string) string {
	sep := th.Help.Separator.Render(" • ")
	parts := make([]string, 0, len(items))
	for _, it := range items {
		parts = append(parts, th.Help.Key.Render(it[0])+" "+th.Help.Desc.Render(it[1]))
	}
	return fitTail(strings.Join(parts, sep), width)
}

// fullHelp is the "?" overlay's text for the active tab, whole, and how many
// of its lines fit the overlay at this size.
func (app *App) fullHelp() (lines []string, fits int) {
	ctx, avail := keys.ContextList, keys.Availability(nil)
	if len(app.tabs) > 0 {
		ctx, avail = app.tabs[app.active].Context(), app.availability(app.active)
	}
	innerW := min(app.width-4-boxFrame, 160)
	innerH := app.height - app.chromeHeight() - 2 - 2 // border, title and a blank line
	return strings.Split(keys.FullHelp(app.km, ctx, avail, innerW, 0, app.theme.Help), "\n"), max(innerH, 1)
}

// scrollHelp moves the help overlay by delta lines, within its length.
func (app *App) scrollHelp(delta int) {
	lines, fits := app.fullHelp()
	app.helpScroll = min(max(app.helpScroll+delta, 0), max(len(lines)-fits, 0))
}

func (app *App) drawFullHelp(frame []string, w, bodyH int) {
	th := app.theme
	ctx := keys.ContextList
	if len(app.tabs) > 0 {
		ctx = app.tabs[app.active].Context()
	}
	innerW := min(w-4-boxFrame, 160)
	help, fits := app.fullHelp()
	hint := "? or esc closes"
	if len(help) > fits {
		// Too tall for the window: show a window of it, and say how to move.
		top := min(app.helpScroll, len(help)-fits)
		hint = fmt.Sprintf("lines %d–%d of %d, j/k scroll; ? or esc closes", top+1, top+fits, len(help))
		help = help[top : top+fits]
	}
	head := th.Title.Render("All keys") + th.Muted.Render("  ("+ctx.String()+"; "+hint+")")
	lines := append([]string{fitTail(head, innerW), ""}, help...)
	block := clampBlock(box(th, lines), w, bodyH)
	bw, bh := blockSize(block)
	overlay(frame, block, center(w, bw), 1+center(bodyH, bh), w)
}

// maxToastLines bounds one toast's height: a toast is shown whole, wrapped,
// up to this many lines (the messages view has every one whole anyway).
const maxToastLines = 3

// drawToasts draws the toasts at the bottom right of the tab area, the
// newest nearest the status bar, each whole (wrapped), never over the rows
// top..bottom of an open dialog (a toast must not hide what the user
// confirms) nor over the tab's footer: its search input, its search or
// sort line (a toast must not hide what the user types or has typed).
func (app *App) drawToasts(frame []string, w, bodyH, top, bottom int) {
	if len(app.toasts) == 0 {
		return
	}
	maxW := min(w-2, 72)
	row := bodyH - app.tabFooter() // frame[0] is the tab bar, so the tab area is rows 1..bodyH
	sel := app.selectedLine()
	for k := range app.toasts {
		t := app.toasts[len(app.toasts)-1-k]
		lines := app.toastLines(t, maxW)
		first := row - len(lines) + 1
		switch {
		case first <= bottom && row >= top:
			row = top - 1 // jump over the dialog
			first = row - len(lines) + 1
		case sel > 0 && first <= sel && sel <= row && sel-len(lines) >= 1:
			row = sel - 1 // and over the selected row
			first = row - len(lines) + 1
		}
		if first < 1 {
			break
		}
		bw, _ := blockSize(lines)
		overlay(frame, lines, w-bw-1, first, w)
		row = first - 1
	}
}

// selectedLine is the row of the frame (the tab area's line: frame[0] is
// the tab bar) that shows the active tab's selected row, 0 when none does
// or the tab is hidden under the help or the messages.
func (app *App) selectedLine() int {
	if len(app.tabs) == 0 || app.helpOpen || app.messagesOpen {
		return 0
	}
	return max(app.tabs[app.active].Status().SelectedLine, 0)
}

// tabFooter is how many lines at the bottom of the active tab's area are
// its own prompt or search line: at least one while its input has the
// focus, whatever the tab says.
func (app *App) tabFooter() int {
	if len(app.tabs) == 0 {
		return 0
	}
	t := app.tabs[app.active]
	n := max(t.Status().Footer, 0)
	if t.Context() == keys.ContextFilter {
		n = max(n, 1)
	}
	return n
}

// toastLines is a toast as a block of lines of one width, at most maxW.
func (app *App) toastLines(t toast, maxW int) []string {
	text := toastMarker(t.level) + " " + t.text
	wrapped := wrapWords(text, maxW-2)
	if len(wrapped) > maxToastLines {
		wrapped = wrapped[:maxToastLines]
		more := "… " + keys.Label(app.km.Global.Messages.Keys()) + " shows all"
		wrapped[maxToastLines-1] = ansi.Truncate(wrapped[maxToastLines-1], max(maxW-2-ansi.StringWidth(more)-1, 1), "") + " " + more
	}
	bw, _ := blockSize(wrapped)
	st := app.toastStyle(t.level)
	out := make([]string, len(wrapped))
	for i, l := range wrapped {
		out[i] = st.Render(" " + fit(l, bw) + " ")
	}
	return out
}

func toastMarker(l ToastLevel) string {
	switch l {
	case ToastSuccess:
		return "✓"
	case ToastWarning:
		return "!"
	case ToastError:
		return "✗"
	}
	return "i"
}

// toastStyle is a toast's colour: its level's, reversed.
func (app *App) toastStyle(l ToastLevel) lipgloss.Style {
	if l == ToastInfo {
		return app.theme.Accent.Reverse(true)
	}
	return levelStyle(app.theme, l).Reverse(true)
}

// levelStyle is the colour of a message of level l in running text (the
// messages view, a notice).
func levelStyle(th Theme, l ToastLevel) lipgloss.Style {
	switch l {
	case ToastSuccess:
		return th.Success
	case ToastWarning:
		return th.Warning
	case ToastError:
		return th.Danger
	}
	return th.Text
}
