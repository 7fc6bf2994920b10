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
func (a *App) logMessage(level ToastLevel, text string, now time.Time) {
	text = textsafe.Line(text, 4000)
	if text == "" {
		return
	}
	if n := len(a.messages); n > 0 {
		last := a.messages[n-1]
		if last.text == text && last.level == level && now.Sub(last.at) < toastFor {
			return
		}
	}
	a.messages = append(a.messages, message{at: now, level: level, text: text})
	if len(a.messages) > maxMessages {
		a.messages = append(a.messages[:0], a.messages[len(a.messages)-maxMessages:]...)
	}
}

// messagesKey handles a key while the messages view is open: it scrolls,
// closes, or quits.
func (a *App) messagesKey(msg tea.KeyPressMsg, now time.Time) tea.Cmd {
	switch {
	case msg.String() == "esc" || keys.Matches(msg, a.km.Global.Messages):
		a.messagesOpen = false
	case keys.Matches(msg, a.km.Global.Quit):
		return a.quit(quitByKey, now)
	default:
		a.scrollKey(msg, a.scrollMessages)
	}
	return nil
}

// messageLines are the messages view's lines at the current width, newest
// first, and how many fit the overlay.
func (a *App) messageLines() (lines []string, fits int) {
	th := a.theme
	innerW := max(min(a.width-4-boxFrame, 160), 10)
	if len(a.messages) == 0 {
		lines = []string{th.Muted.Render("nothing yet: toasts, errors and notices are kept here")}
	}
	for i := len(a.messages) - 1; i >= 0; i-- {
		m := a.messages[i]
		stamp := m.at.In(a.loc).Format("15:04:05") + " "
		for k, l := range wrapWords(toastMarker(m.level)+" "+m.text, innerW-len(stamp)) {
			prefix := th.Muted.Render(stamp)
			if k > 0 {
				prefix = fmt.Sprintf("%*s", len(stamp), "")
			}
			lines = append(lines, prefix+levelStyle(a.theme, m.level).Render(l))
		}
	}
	return lines, max(a.height-a.chromeHeight()-2-2, 1)
}

func (a *App) scrollMessages(delta int) {
	lines, fits := a.messageLines()
	a.messagesScroll = min(max(a.messagesScroll+delta, 0), max(len(lines)-fits, 0))
}

func (a *App) drawMessages(frame []string, w, bodyH int) {
	th := a.theme
	innerW := min(w-4-boxFrame, 160)
	lines, fits := a.messageLines()
	hint := keys.Label(a.km.Global.Messages.Keys()) + " or esc closes"
	if len(lines) > fits {
		top := min(a.messagesScroll, len(lines)-fits)
		hint = fmt.Sprintf("lines %d–%d of %d, %s/%s scroll; ", top+1, top+fits, len(lines),
			keys.Label(a.km.List.Down.Keys()), keys.Label(a.km.List.Up.Keys())) + hint
		lines = lines[top : top+fits]
	}
	head := th.Title.Render("Messages") + th.Muted.Render(fmt.Sprintf("  (%d since start, newest first; %s)", len(a.messages), hint))
	all := append([]string{fitTail(head, innerW), ""}, lines...)
	for i, l := range all {
		all[i] = fitTail(l, innerW)
	}
	block := clampBlock(box(th, all), w, bodyH)
	bw, bh := blockSize(block)
	overlay(frame, block, center(w, bw), 1+center(bodyH, bh), w)
}
