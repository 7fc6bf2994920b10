package ui

import (
	"net/url"
	"strconv"
	"strings"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"paydash/backend"
	"paydash/backend/money"
	"paydash/backend/textsafe"
	"paydash/keys"
)

// segment is one part of the status bar. When the bar is too narrow the
// segments with the lowest prio are dropped first; keep segments
// (sandbox/live, the actions' state) are never dropped. A segment that may
// be cut (cut > 0: the merchant's name) is cut, with "…", to the room
// left when it is the next to go, as long as cut cells of it remain.
type segment struct {
	text  string // plain text, for measuring
	style lipgloss.Style
	prio  int
	keep  bool
	cut   int  // the fewest cells it may be cut to; 0: never cut, only dropped
	glued bool // follows the segment before it after a space, not a separator
}

const (
	statusSep      = " │ "
	statusSepWidth = 3
)

// statusBar: the last error with its hint (first), sandbox or live, the
// host, the merchant, the interfaces, the spinner, the time of the last
// refresh (local time), the period, the rows and the filter.
func (app *App) statusBar(w int) string {
	var st TabStatus
	var refreshedAt time.Time
	if len(app.tabs) > 0 {
		st = app.tabs[app.active].Status()
		refreshedAt = app.seen[app.active].refreshedAt
	}
	busy := app.busy()
	spin := ""
	if busy {
		spin = app.spin.View()
	}
	sending, checking, standsOut := 0, 0, 0
	for _, t := range app.tabs {
		ts := t.Status()
		sending += ts.Sending
		checking += ts.Checking
		standsOut += ts.StandsOut
	}
	if st.StandsOut > 0 {
		standsOut = 0 // the tab that says it shows it whole
	}
	key := statusKey{w: w, st: st, refreshedAt: refreshedAt, scope: app.shownScope(), sending: sending, checking: checking,
		standsOut: standsOut, quitting: app.quitting, spin: spin, busy: busy, gen: app.gen}
	if app.status.ok && app.status.key == key {
		return app.status.line
	}
	line := app.drawStatusBar(w, st, refreshedAt, busy, sending, checking, standsOut)
	app.status = statusCache{key: key, line: line, ok: true}
	return line
}

// statusKey is everything the status bar shows; the bar is drawn again
// only when it changes.
type statusKey struct {
	w           int
	st          TabStatus
	refreshedAt time.Time
	scope       Scope
	sending     int // actions sent, in every tab
	checking    int // actions whose outcome is being found out, in every tab
	standsOut   int // figures that stand out in another tab (the Overview)
	quitting    bool
	spin        string
	busy        bool
	gen         int // the theme's and the description's generation
}

type statusCache struct {
	key  statusKey
	line string
	ok   bool
}

// drawStatusBar draws the bar's segments, dropping (or cutting) the least
// important until the rest fits in w cells.
func (app *App) drawStatusBar(w int, st TabStatus, refreshedAt time.Time, busy bool, sending, checking, standsOut int) string {
	segs := make([]segment, 0, 12)
	segs = app.serviceSegments(segs)
	if standsOut > 0 {
		// Something stands out in the Overview: the person must not miss it,
		// whichever tab they are on.
		segs = append(segs, segment{text: "! " + strconv.Itoa(standsOut), style: app.theme.Danger.Bold(true), keep: true})
	}
	segs = app.activitySegments(segs, st, busy, sending, checking)
	segs = app.listSegments(segs, st, refreshedAt)
	return joinSegments(app.theme, fitSegments(segs, w), w)
}

// serviceSegments adds what the service is: sandbox or LIVE (and
// read-only), its host, the merchant and the interfaces.
func (app *App) serviceSegments(segs []segment) []segment {
	th := app.theme
	// Whether real money is at stake: "sandbox" only on the sandbox's own
	// word (backend.Description.Sandbox), else LIVE.
	if app.desc.Sandbox {
		mode := segment{text: "sandbox", style: th.Success, keep: true}
		if app.desc.ReadOnly {
			mode.text += " read-only"
		}
		segs = append(segs, mode)
	} else {
		segs = append(segs, segment{text: liveLabel, style: liveStyle(th), keep: true})
		if app.desc.ReadOnly {
			segs = append(segs, segment{text: "read-only", style: th.Danger.Bold(true), keep: true, glued: true})
		}
	}
	if host := app.host(); host != "" {
		prio := 35
		if !app.desc.Sandbox {
			prio = 75 // which live service matters
		}
		segs = append(segs, segment{text: host, style: th.Text, prio: prio})
	}
	if m := app.shownScope().MerchantID; m != "" {
		segs = append(segs, segment{text: "merchant " + textsafe.Line(m, 40), style: th.Text, prio: 90})
		// The name beside the id: cut to fit, and dropped before the rest
		// but the sandbox's host and the interfaces.
		if name := app.merchantName(m); name != "" {
			segs = append(segs, segment{text: name, style: th.Text, prio: merchantNamePrio, cut: 6, glued: true})
		}
	}
	if ifs := interfaces(app.desc.Interfaces); ifs != "" {
		segs = append(segs, segment{text: ifs, style: th.Muted, prio: 40})
	}
	return segs
}

// activitySegments adds the actions' state, right after sandbox/live as
// what the support person must not miss, and what is loading.
func (app *App) activitySegments(segs []segment, st TabStatus, busy bool, sending, checking int) []segment {
	th := app.theme
	if checking > 0 {
		segs = append(segs, segment{text: plural(checking, "outcome", "outcomes") + " unknown — checking",
			style: th.Warning.Bold(true), keep: true})
	}
	if app.quitting {
		segs = append(segs, segment{text: "quitting after the answer", style: th.Warning, keep: true})
	} else if sending > 0 {
		segs = append(segs, segment{text: "→ " + plural(sending, "action", "actions") + " sending", style: th.Warning, prio: 97})
	}
	switch {
	case busy && st.Progress != "":
		// What is loading, in words, instead of "loading"; cut before it goes.
		segs = append(segs, segment{text: ansi.Strip(app.spin.View()) + " " + textsafe.Line(st.Progress, 80),
			style: th.Accent, prio: 95, cut: 12})
	case busy:
		segs = append(segs, segment{text: ansi.Strip(app.spin.View()) + " loading", style: th.Accent, prio: 95})
	}
	return segs
}

// listSegments adds what the active tab's list shows: when it was
// refreshed, the period, the rows and the filter.
func (app *App) listSegments(segs []segment, st TabStatus, refreshedAt time.Time) []segment {
	th := app.theme
	if !refreshedAt.IsZero() {
		segs = append(segs, segment{text: "refreshed " + refreshedAt.In(app.loc).Format("15:04:05"), style: th.Muted, prio: 50})
	}
	if p := app.periodLabel(); p != "" {
		segs = append(segs, segment{text: p, style: th.Text, prio: 70})
	}
	segs = append(segs, segment{text: rowsLabel(st), style: th.Text, prio: 80})
	if st.Filter != "" {
		segs = append(segs, segment{text: "filter \"" + textsafe.Line(st.Filter, 30) + "\"", style: th.Warning, prio: 85})
	}
	return segs
}

// fitSegments drops the least important segments until the rest fits in
// w cells; a segment that may be cut is cut once instead, when that is
// enough. Segments to keep stay, even when they do not fit.
func fitSegments(segs []segment, w int) []segment {
	for over := segmentsWidth(segs) - w; over > 0; over = segmentsWidth(segs) - w {
		drop, lowest := -1, 1<<30
		for i, s := range segs {
			if !s.keep && s.prio < lowest {
				drop, lowest = i, s.prio
			}
		}
		if drop < 0 {
			break
		}
		if s := &segs[drop]; s.cut > 0 {
			if room := ansi.StringWidth(s.text) - over; room > s.cut {
				s.text = ansi.Truncate(s.text, room, "…")
				s.cut = 0 // cut once: what is left fits
				continue
			}
		}
		segs = append(segs[:drop], segs[drop+1:]...)
	}
	return segs
}

// segmentsWidth is the cells the segments take in the bar: a leading
// space, and a separator (or a space, when glued) between two.
func segmentsWidth(segs []segment) int {
	n := 1
	for i, s := range segs {
		switch {
		case i > 0 && s.glued:
			n++
		case i > 0:
			n += statusSepWidth
		}
		n += ansi.StringWidth(s.text)
	}
	return n
}

// joinSegments draws the segments in their styles, separated, in w cells.
func joinSegments(th Theme, segs []segment, w int) string {
	sep := th.Muted.Render(statusSep)
	var b strings.Builder
	b.WriteString(" ")
	for i, s := range segs {
		switch {
		case i > 0 && s.glued:
			b.WriteString(" ")
		case i > 0:
			b.WriteString(sep)
		}
		b.WriteString(s.style.Render(s.text))
	}
	return fitTail(b.String(), w)
}

// liveLabel names a live service: real money. The status bar shows it, and
// every confirmation's title starts with it (confirm_view.go, titlePrefix).
const liveLabel = "LIVE"

// liveStyle draws liveLabel in reverse video and bold, so that it reads
// without colour (NO_COLOR) as well as with it.
func liveStyle(th Theme) lipgloss.Style { return th.Danger.Bold(true).Reverse(true) }

// merchantNamePrio is the merchant name's place in the status bar: it goes
// after the sandbox's host (35) and the interfaces (40), before anything
// else; it is cut before it goes.
const merchantNamePrio = 45

// merchantName is the name of the merchant id among the configured ones,
// cleaned and cut to 40 characters; "" when it has none.
func (app *App) merchantName(id string) string {
	for _, m := range app.cfg.Merchants {
		if m.ID == id {
			return textsafe.Line(m.Name, 40)
		}
	}
	return ""
}

func (app *App) fullError() string {
	s := "✗ " + app.errText
	if app.errHint != "" {
		s += " — " + app.errHint
	}
	return s
}

// maxErrorLines is how many lines the error may take above the status bar
// (one while a dialog or an overlay is open, so the dialog keeps its room).
const maxErrorLines = 3

// errorLines draws the last error whole above the status bar, wrapped, with
// how to dismiss it; when it is longer than its lines, the messages view
// has it whole.
func (app *App) errorLines(w int) []string {
	if app.errText == "" || w <= 0 {
		return nil
	}
	th := app.theme
	room := maxErrorLines
	if app.modal != nil || app.helpOpen || app.messagesOpen {
		room = 1
	}
	// No-break spaces keep the way out in one piece when the line wraps.
	tail := strings.ReplaceAll(" ("+keys.Label(untyped(app.km.List.Close.Keys()))+" dismisses · "+
		keys.Label(app.km.Global.Messages.Keys())+" all messages)", " ", "\u00a0")
	tail = " " + tail[len("\u00a0"):]
	lines := wrapWords(app.fullError()+tail, w-2)
	if len(lines) > room {
		more := "… " + keys.Label(app.km.Global.Messages.Keys()) + " shows it whole"
		lines = lines[:room]
		last := ansi.Truncate(lines[room-1], max(w-2-ansi.StringWidth(more)-1, 1), "")
		lines[room-1] = last + " " + more
	}
	for i, l := range lines {
		lines[i] = fit(" "+th.Danger.Render(l), w)
	}
	return lines
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return money.Count(n) + " " + many
}

func (app *App) host() string {
	if app.desc.Host != "" {
		return textsafe.Line(app.desc.Host, 60)
	}
	if u, err := url.Parse(app.desc.BaseURL); err == nil && u.Host != "" {
		return textsafe.Line(u.Host, 60)
	}
	return ""
}

func interfaces(ifs []backend.Interface) string {
	has := map[backend.Interface]bool{}
	for _, i := range ifs {
		has[i] = true
	}
	switch {
	case has[backend.V2] && has[backend.V1]:
		return "v2+v1"
	case has[backend.V2]:
		return "v2"
	case has[backend.V1]:
		return "v1"
	}
	return ""
}

// shownScope is the scope the active tab shows: its own when it keeps
// one, else everyone's.
func (app *App) shownScope() Scope {
	if app.active < len(app.tabs) {
		if k, ok := app.tabs[app.active].(PeriodKeeper); ok {
			return k.OwnScope()
		}
	}
	return app.scope
}

// periodLabel is the preset, which rolls with the service's clock and says
// so ("today→now"), or the days of a custom period, which stay where they
// were put ("12 Nov…19 Nov").
func (app *App) periodLabel() string {
	s := app.shownScope()
	if s.Rolling() {
		return s.Preset + "→now"
	}
	if s.Start.IsZero() || s.End.IsZero() {
		return s.Preset
	}
	from := s.Start.In(app.loc).Format(dateLayout)
	to := s.End.Add(-time.Nanosecond).In(app.loc).Format(dateLayout)
	if from == to {
		return from
	}
	return from + "…" + to
}

func rowsLabel(st TabStatus) string {
	more := ""
	if !st.AtEnd && st.Rows > 0 {
		more = "+"
	}
	if st.Filter != "" {
		return money.Count(st.Shown) + " of " + money.Count(st.Rows) + more + " rows"
	}
	if st.Rows == 1 && st.AtEnd {
		return "1 row"
	}
	return money.Count(st.Rows) + more + " rows"
}
