package ui

import (
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"paydash/backend/textsafe"
	"paydash/keys"
)

// maxMessages bounds what the messages view keeps: a day of a busy
// support shift, with room to spare.
const maxMessages = 2000

// message is one toast, error or notice, kept whole for the messages view.
type message struct {
	at    time.Time
	level ToastLevel
	text  string
}

// logMessage keeps a message for the messages view; the same text again
// within a few seconds (a toast repeated) is kept once.
func (app *App) logMessage(level ToastLevel, text string, now time.Time) {
	text = textsafe.Line(text, 4000)
	if text == "" {
		return
	}
	if n := len(app.messages); n > 0 {
		last := app.messages[n-1]
		if last.text == text && last.level == level && now.Sub(last.at) < toastFor {
			return
		}
	}
	app.messages = append(app.messages, message{at: now, level: level, text: text})
	if len(app.messages) > maxMessages {
		app.messages = append(app.messages[:0], app.messages[len(app.messages)-maxMessages:]...)
	}
}

// messagesKey handles a key while the messages view is open: it scrolls,
// closes, or quits.
func (app *App) messagesKey(msg tea.KeyPressMsg, now time.Time) tea.Cmd {
	switch {
	case msg.String() == "esc" || keys.Matches(msg, app.km.Global.Messages):
		app.messagesOpen = false
	case keys.Matches(msg, app.km.Global.Quit):
		return app.quit(quitByKey, now)
	default:
		app.scrollKey(msg, app.scrollMessages)
	}
	return nil
}

// messageLines are the messages view's lines at the current width, newest
// first, and how many fit the overlay.
func (app *App) messageLines() (lines []string, fits int) {
	th := app.theme
	innerW := max(min(app.width-4-boxFrame, 160), 10)
	if len(app.messages) == 0 {
		lines = []string{th.Muted.Render("nothing yet: toasts, errors and notices are kept here")}
	}
	for i := len(app.messages) - 1; i >= 0; i-- {
		m := app.messages[i]
		stamp := m.at.In(app.loc).Format("15:04:05") + " "
		for k, l := range wrapWords(toastMarker(m.level)+" "+m.text, innerW-len(stamp)) {
			prefix := th.Muted.Render(stamp)
			if k > 0 {
				prefix = fmt.Sprintf("%*s", len(stamp), "")
			}
			lines = append(lines, prefix+levelStyle(app.theme, m.level).Render(l))
		}
	}
	return lines, max(app.height-app.chromeHeight()-2-2, 1)
}

func (app *App) scrollMessages(delta int) {
	lines, fits := app.messageLines()
	app.messagesScroll = min(max(app.messagesScroll+delta, 0), max(len(lines)-fits, 0))
}

func (app *App) drawMessages(frame []string, w, bodyH int) {
	th := app.theme
	innerW := min(w-4-boxFrame, 160)
	lines, fits := app.messageLines()
	hint := keys.Label(app.km.Global.Messages.Keys()) + " or esc closes"
	if len(lines) > fits {
		top := min(app.messagesScroll, len(lines)-fits)
		hint = fmt.Sprintf("lines %d–%d of %d, %s/%s scroll; ", top+1, top+fits, len(lines),
			keys.Label(app.km.List.Down.Keys()), keys.Label(app.km.List.Up.Keys())) + hint
		lines = lines[top : top+fits]
	}
	head := th.Title.Render("Messages") + th.Muted.Render(fmt.Sprintf("  (%d since start, newest first; %s)", len(app.messages), hint))
	all := append([]string{fitTail(head, innerW), ""}, lines...)
	for i, l := range all {
		all[i] = fitTail(l, innerW)
	}
	block := clampBlock(box(th, all), w, bodyH)
	bw, bh := blockSize(block)
	overlay(frame, block, center(w, bw), 1+center(bodyH, bh), w)
}
