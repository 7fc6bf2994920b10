package ui

import (
	"net/url"
	"strconv"
	"strings"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"paydash/backend"
	"paydash/backend/textsafe"
)

// segment is one part of the status bar. When the bar is too narrow the
// segments with the lowest prio are dropped first; keep segments (the
// error, sandbox/live) are never dropped, the error is shortened instead.
type segment struct {
	text  string // plain text, for measuring
	style lipgloss.Style
	prio  int
	keep  bool
}

const (
	statusSep      = " │ "
	statusSepWidth = 3
)

// statusBar: the last error with its hint (first), sandbox or live, the
// host, the merchant, the interfaces, the spinner, the time of the last
// refresh (local time), the period, the rows and the filter.
func (a *App) statusBar(w int) string {
	var st TabStatus
	var refreshedAt time.Time
	if len(a.tabs) > 0 {
		st = a.tabs[a.active].Status()
		refreshedAt = a.seen[a.active].refreshedAt
	}
	busy := a.busy()
	spin := ""
	if busy {
		spin = a.spin.View()
	}
	key := statusKey{w: w, st: st, refreshedAt: refreshedAt, scope: a.scope, err: a.errText, hint: a.errHint,
		spin: spin, busy: busy, gen: a.gen}
	if a.status.ok && a.status.key == key {
		return a.status.line
	}
	line := a.drawStatusBar(w, st, refreshedAt, busy)
	a.status = statusCache{key: key, line: line, ok: true}
	return line
}

// statusKey is everything the status bar shows; the bar is drawn again
// only when it changes.
type statusKey struct {
	w           int
	st          TabStatus
	refreshedAt time.Time
	scope       Scope
	err, hint   string
	spin        string
	busy        bool
	gen         int // the theme's and the description's generation
}

type statusCache struct {
	key  statusKey
	line string
	ok   bool
}

func (a *App) drawStatusBar(w int, st TabStatus, refreshedAt time.Time, busy bool) string {
	th := a.theme
	segs := make([]segment, 0, 10)

	mode := segment{text: "sandbox", style: th.Success, keep: true}
	if !a.desc.Sandbox {
		mode = segment{text: "live", style: th.Danger.Bold(true), keep: true}
	}
	if a.desc.ReadOnly {
		mode.text += " read-only"
	}
	segs = append(segs, mode)
	if host := a.host(); host != "" {
		prio := 35
		if !a.desc.Sandbox {
			prio = 75 // which live service matters
		}
		segs = append(segs, segment{text: host, style: th.Text, prio: prio})
	}
	if a.scope.MerchantID != "" {
		segs = append(segs, segment{text: "merchant " + textsafe.Line(a.scope.MerchantID, 40), style: th.Text, prio: 90})
	}
	if ifs := interfaces(a.desc.Interfaces); ifs != "" {
		segs = append(segs, segment{text: ifs, style: th.Muted, prio: 40})
	}
	if busy {
		segs = append(segs, segment{text: ansi.Strip(a.spin.View()) + " loading", style: th.Accent, prio: 95})
	}
	if !refreshedAt.IsZero() {
		segs = append(segs, segment{text: "refreshed " + refreshedAt.In(a.loc).Format("15:04:05"), style: th.Muted, prio: 50})
	}
	if p := a.periodLabel(); p != "" {
		segs = append(segs, segment{text: p, style: th.Text, prio: 70})
	}
	segs = append(segs, segment{text: rowsLabel(st), style: th.Text, prio: 80})
	if st.Filter != "" {
		segs = append(segs, segment{text: "filter \"" + textsafe.Line(st.Filter, 30) + "\"", style: th.Warning, prio: 85})
	}

	errSeg := -1
	if a.errText != "" {
		segs = append([]segment{{style: th.Danger, keep: true}}, segs...)
		errSeg = 0
	}

	// Drop the least important segments until the rest fits.
	width := func() int {
		n := 0
		for i, s := range segs {
			if i > 0 {
				n += statusSepWidth
			}
			if i != errSeg {
				n += ansi.StringWidth(s.text)
			}
		}
		return n
	}
	errRoom := func() int { return w - 2 - width() } // one space each side
	for errRoom() < a.errMinWidth() {
		drop, lowest := -1, 1<<30
		for i, s := range segs {
			if !s.keep && s.prio < lowest {
				drop, lowest = i, s.prio
			}
		}
		if drop < 0 {
			break
		}
		segs = append(segs[:drop], segs[drop+1:]...)
	}
	if errSeg >= 0 {
		segs[errSeg].text = a.errorText(errRoom())
	}

	sep := th.Muted.Render(statusSep)
	var b strings.Builder
	b.WriteString(" ")
	for i, s := range segs {
		if i > 0 {
			b.WriteString(sep)
		}
		b.WriteString(s.style.Render(s.text))
	}
	return fitTail(b.String(), w)
}

// errMinWidth is the room the error needs: all of it, so that other
// segments give way to it first; only alone is it shortened.
func (a *App) errMinWidth() int {
	if a.errText == "" {
		return 0
	}
	return ansi.StringWidth(a.fullError())
}

func (a *App) fullError() string {
	s := "✗ " + a.errText
	if a.errHint != "" {
		s += " — " + a.errHint
	}
	return s
}

// errorText fits the error into room cells, shortening the message before
// the hint, since the hint says what to do.
func (a *App) errorText(room int) string {
	full := a.fullError()
	if room <= 0 {
		return ""
	}
	if ansi.StringWidth(full) <= room {
		return full
	}
	if a.errHint != "" {
		hint := " — " + a.errHint
		msgRoom := room - ansi.StringWidth(hint)
		if msgRoom >= 16 {
			return ansi.Truncate("✗ "+a.errText, msgRoom, "…") + hint
		}
	}
	return ansi.Truncate(full, room, "…")
}

func (a *App) host() string {
	if a.desc.Host != "" {
		return textsafe.Line(a.desc.Host, 60)
	}
	if u, err := url.Parse(a.desc.BaseURL); err == nil && u.Host != "" {
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

// periodLabel is the preset, or the days of a custom period.
func (a *App) periodLabel() string {
	s := a.scope
	if s.Preset != "" && s.Preset != PresetCustom {
		return s.Preset
	}
	if s.Start.IsZero() || s.End.IsZero() {
		return s.Preset
	}
	from := s.Start.In(a.loc).Format(dateLayout)
	to := s.End.Add(-time.Nanosecond).In(a.loc).Format(dateLayout)
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
		return thousands(st.Shown) + " of " + thousands(st.Rows) + more + " rows"
	}
	if st.Rows == 1 && st.AtEnd {
		return "1 row"
	}
	return thousands(st.Rows) + more + " rows"
}

// thousands writes n with comma separators: 1,250,000.
func thousands(n int) string {
	s := strconv.Itoa(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}
