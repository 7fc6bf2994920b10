package overview

import (
	"sort"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"paydash/backend"
	"paydash/keys"
	"paydash/ui"
	"paydash/views/overview/hourly"
)

// Every figure leads to its rows: the Overview's lines are a list the
// person moves through with up and down, the chart's hour with left and
// right, and enter opens the Payments tab with the period and the search
// that select exactly the payments behind the selected line.

// lineKind is what a line of the Overview shows.
type lineKind int

const (
	lineHour     lineKind = iota // the hour under the chart's cursor
	lineFinding                  // something that stands out
	lineCode                     // a result code of the day's declines
	lineStuck                    // payments stopped in Confirmation or Pending
	lineRefunds                  // the day's refunds late or rejected
	lineHolds                    // old holds
	lineStickers                 // stickers switched off
	lineTokens                   // tokens seen revoked today
)

// line is a line the person can select.
type line struct {
	kind    lineKind
	finding hourly.Finding
	code    string
	count   int
	status  backend.PaymentStatus
}

// topCodes is how many decline codes the Overview lists, and fewCodes how
// many where the window is short (under tallWindow lines).
const (
	topCodes   = 5
	fewCodes   = 3
	tallWindow = 30
)

// codesShown is how many decline codes fit.
func (o *Overview) codesShown() int {
	if o.h < tallWindow {
		return fewCodes
	}
	return topCodes
}

// lines are the selectable lines, top to bottom as View draws them.
func (o *Overview) lines() []line {
	out := make([]line, 0, 1+len(o.findings)+topCodes+2)
	for _, f := range o.findings {
		out = append(out, line{kind: lineFinding, finding: f})
	}
	out = append(out, line{kind: lineHour})
	for _, c := range o.dayCodes[:min(len(o.dayCodes), o.codesShown())] {
		out = append(out, line{kind: lineCode, code: c.code, count: c.count})
	}
	for _, s := range []backend.PaymentStatus{backend.PaymentConfirmation, backend.PaymentPending} {
		out = append(out, line{kind: lineStuck, status: s})
	}
	if o.also.read {
		out = append(out, line{kind: lineRefunds, status: backend.PaymentStatus(backend.RefundPending)},
			line{kind: lineRefunds, status: backend.PaymentStatus(backend.RefundRejected)},
			line{kind: lineHolds}, line{kind: lineStickers})
	}
	out = append(out, line{kind: lineTokens})
	return out
}

// codeCount is a result code and how many declines had it.
type codeCount struct {
	code  string
	count int
}

// topCodesOf are the most frequent decline codes of sum, the most first.
func topCodesOf(sum hourly.Counts) []codeCount {
	var out []codeCount
	for code, n := range sum.Codes {
		if code != "" {
			out = append(out, codeCount{code, n})
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].count != out[j].count {
			return out[i].count > out[j].count
		}
		return out[i].code < out[j].code
	})
	return out[:min(len(out), topCodes)]
}

// key moves the selection or the chart's cursor, or opens the rows behind
// the selected line.
func (o *Overview) key(msg tea.KeyPressMsg) tea.Cmd {
	a, _, ok := o.deps.Keys.Lookup(msg, keys.ContextList)
	if !ok {
		return nil
	}
	n := len(o.lines())
	switch a {
	case keys.ActUp:
		o.sel = max(o.sel-1, 0)
	case keys.ActDown:
		o.sel = min(o.sel+1, n-1)
	case keys.ActTop:
		o.sel = 0
	case keys.ActBottom:
		o.sel = n - 1
	case keys.ActLeft:
		o.cursor = max(o.cursor-1, 0)
		o.selectHour()
	case keys.ActRight:
		o.cursor = min(o.cursor+1, dayHours-1)
		o.selectHour()
	case keys.ActOpen:
		return o.open(o.lines()[o.sel])
	}
	return nil
}

// selectHour selects the chart's line, as moving its cursor means to look
// at it.
func (o *Overview) selectHour() {
	for i, l := range o.lines() {
		if l.kind == lineHour {
			o.sel = i
		}
	}
}

// open shows the payments behind l: the shell sets the period, then the
// Payments tab searches.
func (o *Overview) open(l line) tea.Cmd {
	dayStart, dayEnd := o.day.Start[0], o.now.Add(time.Minute)
	var from, to time.Time
	var query string
	switch l.kind {
	case lineHour:
		from = o.day.Start[o.cursor]
		to = from.Add(time.Hour)
	case lineFinding:
		from, to = l.finding.From, l.finding.To
		query = statusQuery(l.finding.Status)
		if l.finding.Code != "" {
			query += " code:" + l.finding.Code
		}
	case lineCode:
		from, to = dayStart, dayEnd
		query = statusQuery(backend.PaymentRejected) + " code:" + l.code
	case lineStuck:
		from, to = dayStart, o.stuckUntil()
		query = statusQuery(l.status)
	case lineHolds:
		from, to = o.now.Add(-holdsBack), o.now.Add(-holdOld)
		query = statusQuery(backend.PaymentAuthorized)
	}
	target := ui.TabPayments
	scope := &ui.Scope{MerchantID: o.scope.MerchantID, Start: from, End: to, Preset: "custom"}
	switch l.kind {
	case lineRefunds:
		target, query = ui.TabRefunds, statusQuery(l.status)
		scope.Start, scope.End = dayStart, dayEnd
		if l.status == backend.PaymentStatus(backend.RefundPending) {
			scope.End = o.now.Add(-refundLate)
		}
	case lineStickers:
		target, query, scope = ui.TabStickers, "status:inactive", nil // a sticker has no period
	case lineTokens:
		target, query, scope = ui.TabTokens, "status:revoked", nil
	}
	show := func() tea.Msg {
		return ui.SwitchTabMsg{Tab: target, Scope: scope, Then: ui.SearchMsg{Query: query, Exact: true}}
	}
	if !o.all {
		return show
	}
	return tea.Batch(show, func() tea.Msg {
		return ui.ToastMsg{Level: ui.ToastInfo, Text: "Payments shows merchant " + o.scope.MerchantID +
			"; the Overview counts every merchant"}
	})
}

// statusQuery is the search for a status ("status:rejected").
func statusQuery(s backend.PaymentStatus) string { return "status:" + strings.ToLower(string(s)) }
