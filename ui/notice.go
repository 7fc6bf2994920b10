package ui

import (
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"paydash/backend/textsafe"
	"paydash/keys"
)

// noticeModal is news the user must read before going on: the actions of
// the last run that were left without an outcome, and what became of
// each, as they are found out (OpenDialogMsg with a Notice). Its lines update in place. It
// acts on nothing, so it has no guard: enter or esc closes it.
type noticeModal struct {
	title  string
	items  []noticeItem
	scroll int
	km     keys.Map
	th     Theme
}

type noticeItem struct {
	id    string
	level ToastLevel
	text  string
}

func newNotice(title string, km keys.Map, th Theme) *noticeModal {
	if title == "" {
		title = "Notice"
	}
	return &noticeModal{title: textsafe.Line(title, 120), km: km, th: th}
}

// set adds a line, or replaces the one with the same id.
func (n *noticeModal) set(m Notice) {
	it := noticeItem{id: m.ID, level: m.Level, text: textsafe.Line(m.Text, 1000)}
	for i := range n.items {
		if m.ID != "" && n.items[i].id == m.ID {
			n.items[i] = it
			return
		}
	}
	n.items = append(n.items, it)
}

func (n *noticeModal) Context() keys.Context { return keys.ContextModal }

func (n *noticeModal) Update(msg tea.Msg, _ time.Time) (Modal, tea.Cmd, bool) {
	press, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return n, nil, false
	}
	action, _, _ := n.km.Lookup(press, keys.ContextList)
	switch {
	case action == keys.ActOpen, action == keys.ActClose, keys.Matches(press, n.km.Modal.Cancel):
		return n, nil, true
	case action == keys.ActDown:
		n.scroll = min(n.scroll+1, max(len(n.items)-1, 0))
	case action == keys.ActUp:
		n.scroll = max(n.scroll-1, 0)
	}
	return n, nil, false
}

func (n *noticeModal) helpLine(width int) string {
	return helpLine(n.th, width,
		[2]string{keys.Label(n.km.List.Open.Keys()) + "/" + keys.Label(n.km.List.Close.Keys()), "close"},
		[2]string{keys.Label(n.km.List.Down.Keys()) + "/" + keys.Label(n.km.List.Up.Keys()), "scroll"},
		[2]string{keys.Label(n.km.Global.Messages.Keys()), "messages, later"},
		[2]string{"ctrl+c", "quit"})
}

// View draws the lines from the item scrolled to, as many as fit.
func (n *noticeModal) View(maxWidth, maxHeight int) string {
	th := n.th
	inner := max(min(maxWidth-boxFrame, 76), 10)
	room := max(maxHeight-2-4, 1) // border, title and blank, blank and hint
	var body []string
	last := n.scroll - 1
	for i := n.scroll; i < len(n.items); i++ {
		it := n.items[i]
		item := wrapWords(toastMarker(it.level)+" "+it.text, inner-2)
		if len(body) > 0 && len(body)+len(item) > room {
			break
		}
		for k, l := range item {
			if k > 0 {
				l = "  " + l
			}
			body = append(body, levelStyle(n.th, it.level).Render(l))
		}
		last = i
	}
	hint := keys.Label(n.km.List.Open.Keys()) + " or " + keys.Label(n.km.List.Close.Keys()) + " closes · " +
		keys.Label(n.km.Global.Messages.Keys()) + " shows it again later"
	if n.scroll > 0 || last < len(n.items)-1 {
		hint = fmt.Sprintf("%d–%d of %d, %s/%s scroll · ", n.scroll+1, last+1, len(n.items),
			keys.Label(n.km.List.Down.Keys()), keys.Label(n.km.List.Up.Keys())) + hint
	}
	lines := []string{th.Title.Render(n.title), ""}
	lines = append(lines, body...)
	lines = append(lines, "", th.Muted.Render(hint))
	for i, l := range lines {
		lines[i] = fitTail(l, inner)
	}
	return box(th, lines)
}
