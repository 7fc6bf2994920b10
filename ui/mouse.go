package ui

import (
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"paydash/backend/textsafe"
	"paydash/keys"
)

// DoubleClickWithin is how soon a second left click on the same cell must
// follow the first to be a double click.
const DoubleClickWithin = 400 * time.Millisecond

// MouseKind is what a MouseMsg reports.
type MouseKind int

const (
	MouseClick       MouseKind = iota // a left click
	MouseDoubleClick                  // a second left click on the same cell, soon after (MouseClick came first)
	MouseWheelUp
	MouseWheelDown
)

// MouseMsg is a mouse event in the tab area, for the active tab only, with
// X, Y relative to the tab area's top-left cell (the line under the tab
// bar is Y 0). The shell sends none while a dialog, the help or the
// messages are open, nor below the minimum size, nor with the mouse off.
type MouseMsg struct {
	Kind MouseKind
	X, Y int
}

// Tea is the event as a Bubble Tea mouse message at the same coordinates
// (a double click as a click), for a component that takes those.
func (m MouseMsg) Tea() tea.Msg {
	switch m.Kind {
	case MouseWheelUp:
		return tea.MouseWheelMsg{X: m.X, Y: m.Y, Button: tea.MouseWheelUp}
	case MouseWheelDown:
		return tea.MouseWheelMsg{X: m.X, Y: m.Y, Button: tea.MouseWheelDown}
	}
	return tea.MouseClickMsg{X: m.X, Y: m.Y, Button: tea.MouseLeft}
}

// Shift is the event moved by dx, dy (into a component's own coordinates).
func (m MouseMsg) Shift(dx, dy int) MouseMsg {
	m.X += dx
	m.Y += dy
	return m
}

// lastClick is the previous left click, for double clicks.
type lastClick struct {
	x, y int
	at   time.Time
}

// MouseOn reports whether the mouse is on (the View asks the terminal for
// its events).
func (app *App) MouseOn() bool { return app.mouseOn }

// toggleMouse switches the mouse on or off (the toggle key).
func (app *App) toggleMouse(now time.Time) {
	app.mouseOn = !app.mouseOn
	app.click = lastClick{}
	b := keys.Label(app.km.Global.Mouse.Keys())
	if app.mouseOn {
		app.addToast(ToastInfo, "mouse on: wheel scrolls, click selects, double click opens; "+b+" turns it off", now)
		return
	}
	app.addToast(ToastInfo, "mouse off: the terminal selects text; "+b+" turns it on", now)
}

// mouse handles a mouse event: a left click on the tab bar switches tabs;
// the wheel and left clicks in the tab area go to the active tab (a
// second click on the same cell soon after as a double click); the wheel
// scrolls the help or the messages when open. Nothing acts below the
// minimum size or while a dialog is open: no click reaches the screen
// behind a dialog.
func (app *App) mouse(msg tea.MouseMsg, now time.Time) tea.Cmd {
	if !app.mouseOn || app.tooSmall() || app.modal != nil || len(app.tabs) == 0 {
		return nil
	}
	m := msg.Mouse()
	var kind MouseKind
	switch msg.(type) {
	case tea.MouseWheelMsg:
		switch m.Button {
		case tea.MouseWheelUp:
			kind = MouseWheelUp
		case tea.MouseWheelDown:
			kind = MouseWheelDown
		default:
			return nil
		}
	case tea.MouseClickMsg:
		if m.Button != tea.MouseLeft {
			return nil
		}
		kind = MouseClick
		if app.click.x == m.X && app.click.y == m.Y && !app.click.at.IsZero() && now.Sub(app.click.at) < DoubleClickWithin {
			kind = MouseDoubleClick
			app.click = lastClick{} // a third click starts again
		} else {
			app.click = lastClick{x: m.X, y: m.Y, at: now}
		}
	default:
		return nil // releases and motion
	}
	if app.helpOpen || app.messagesOpen {
		scroll := app.scrollHelp
		if app.messagesOpen {
			scroll = app.scrollMessages
		}
		switch kind {
		case MouseWheelUp:
			scroll(-3)
		case MouseWheelDown:
			scroll(3)
		}
		return nil
	}
	bodyH := app.bodyHeight()
	switch {
	case m.Y == 0:
		if kind == MouseClick || kind == MouseDoubleClick {
			if i := app.tabAt(m.X); i >= 0 {
				app.active = i
			}
		}
		return nil
	case m.Y >= 1 && m.Y <= bodyH && m.X >= 0 && m.X < app.width:
		return app.updateTab(app.active, MouseMsg{Kind: kind, X: m.X, Y: m.Y - 1})
	}
	return nil
}

// tabAt is the tab whose label is drawn at column x of the tab bar, -1 for
// none. It follows drawTabBar: a space, then each label in three cells
// more than its text ("[1 Payments]" or " 1 Payments ", and a space).
func (app *App) tabAt(x int) int {
	at := 1
	for i, t := range app.tabs {
		label := textsafe.Line(t.Title(), 24)
		if n, ok := tabNumber(t.ID()); ok {
			label = string(rune('0'+n)) + " " + label
		}
		w := ansi.StringWidth(label) + 2
		if x >= at && x < at+w {
			return i
		}
		at += w + 1
		if at > app.width {
			break
		}
	}
	return -1
}
