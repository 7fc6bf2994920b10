package overview

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"paydash/backend"
	"paydash/backend/money"
	"paydash/backend/textsafe"
	"paydash/ui/chart"
	"paydash/views/overview/hourly"
)

// The Overview top to bottom: what the day is, what stands out (or that
// nothing does), the day's payments hour by hour with the hour under the
// cursor in numbers, the decline rate, the day's decline codes, and where
// payments stop. Every line the person can select starts with "> " when
// selected: the marker, not a colour, says which.

// chartSeries are the chart's statuses, bottom up, with their names.
var chartSeries = []struct {
	status backend.PaymentStatus
	name   string
}{
	{backend.PaymentSettled, "settled"},
	{backend.PaymentRejected, "declined"},
	{backend.PaymentConfirmation, "confirmation"},
	{backend.PaymentAuthorized, "authorized"},
}

// maxChartHeight is the tallest the chart grows: taller bars tell no more.
const maxChartHeight = 24

// View implements ui.Tab.
func (o *Overview) View(width, height int) string {
	if width <= 0 || height <= 0 {
		return ""
	}
	var top, bottom []string
	top = append(top, o.header())
	top = append(top, o.findingLines(width)...)
	bottom = append(bottom, o.hourLine(width))
	bottom = append(bottom, o.rateLines(width, height)...)
	bottom = append(bottom, o.sections(width)...)
	if n := o.codes.lacking; n > 0 {
		bottom = append(bottom, o.theme.Muted.Render(fmt.Sprintf("Result codes read for %d of the %d declines the list gave without one",
			o.codes.read, n)))
	}
	chartH := min(max(height-len(top)-len(bottom), 0), maxChartHeight)
	lines := append(top, strings.Split(o.stacked().Render(width, chartH), "\n")...)
	if chartH == 0 {
		lines = top
	}
	lines = append(lines, bottom...)
	return fit(lines, width, height)
}

// fit makes lines exactly width × height: each cut or padded, the lines
// past height left out, blank ones added.
func fit(lines []string, width, height int) string {
	out := make([]string, height)
	for i := range out {
		l := ""
		if i < len(lines) {
			l = ansi.Truncate(lines[i], width, "…")
		}
		if pad := width - ansi.StringWidth(l); pad > 0 {
			l += strings.Repeat(" ", pad)
		}
		out[i] = l
	}
	return strings.Join(out, "\n")
}

// header says what the day is: whose, how many payments, how much settled.
func (o *Overview) header() string {
	whose := "merchant " + textsafe.Line(o.scope.MerchantID, 40)
	if o.all {
		whose = "every merchant"
	}
	s := fmt.Sprintf("Last 24 hours · %s · %d payments", whose, o.sum.Total())
	if set := settledText(o.sum); set != "" {
		s += " · " + set + " settled"
	}
	switch {
	case o.err != nil:
		return o.theme.Danger.Render("Could not read the day: " + textsafe.Line(o.err.Error(), 200))
	case o.loading && o.tally.Len() == 0:
		return o.theme.Muted.Render("Reading the last 24 hours…")
	}
	return o.theme.Title.Render(s)
}

// settledText is the settled amounts by currency: "12,340.00 RUB · 80.00 USD".
func settledText(c hourly.Counts) string {
	var parts []string
	for cur, sums := range c.Amounts {
		v := sums[slices.Index(hourly.Statuses[:], backend.PaymentSettled)]
		if v != 0 {
			parts = append(parts, money.Group(v, cur)+" "+textsafe.Clean(cur))
		}
	}
	slices.Sort(parts)
	return strings.Join(parts, " · ")
}

// findingLines are what stands out, or a line saying nothing does.
func (o *Overview) findingLines(width int) []string {
	if len(o.findings) == 0 {
		if o.tally.Len() == 0 {
			return nil
		}
		return []string{o.theme.Muted.Render("Nothing stands out: the last hour is like the rest of the day.")}
	}
	var out []string
	for i, f := range o.findings {
		// A finding is read whole: it wraps under itself rather than being
		// cut.
		wrapped := strings.Split(ansi.Wrap("! "+f.Text, max(width-4, 20), " "), "\n")
		out = append(out, o.selectable(i, o.theme.Danger.Render(wrapped[0]), width))
		for _, more := range wrapped[1:] {
			out = append(out, "    "+o.theme.Danger.Render(more))
		}
	}
	return out
}

// selectable marks line i when it is the selected one.
func (o *Overview) selectable(i int, text string, width int) string {
	mark := "  "
	if i == o.sel {
		mark = o.theme.Accent.Render("> ")
	}
	return ansi.Truncate(mark+text, width, "…")
}

// lineIndex is the index in lines() of the first line of kind k.
func (o *Overview) lineIndex(k lineKind) int {
	for i, l := range o.lines() {
		if l.kind == k {
			return i
		}
	}
	return -1
}

// stacked is the day's chart.
func (o *Overview) stacked() chart.Stacked {
	styles := []lipgloss.Style{o.theme.Success, o.theme.Danger, o.theme.Warning, o.theme.Held}
	s := chart.Stacked{Cursor: o.cursor, Axis: o.theme.Muted, Marker: o.theme.Accent}
	for i, cs := range chartSeries {
		se := chart.Series{Name: cs.name, Style: styles[i], Values: make([]float64, dayHours)}
		for h, b := range o.day.Buckets {
			if b != nil {
				se.Values[h] = float64(b.Of(cs.status))
			}
		}
		s.Series = append(s.Series, se)
	}
	s.Labels = make([]string, dayHours)
	for h, t := range o.day.Start {
		s.Labels[h] = t.Format("15")
	}
	return s
}

// hourLine is the hour under the cursor in numbers.
func (o *Overview) hourLine(width int) string {
	from := o.day.Start[o.cursor]
	s := from.Format("15:04") + "–" + from.Add(time.Hour).Format("15:04") + " · " + o.stacked().Breakdown(o.cursor)
	if b := o.day.Buckets[o.cursor]; b != nil {
		if set := settledText(*b); set != "" {
			s += " · " + set + " settled"
		}
	}
	return o.selectable(o.lineIndex(lineHour), s, width)
}

// rateLines are the decline rate per hour, drawn in braille, with the last
// hour's and the rate of the hours before it: one line, or three where
// the window is tall.
func (o *Overview) rateLines(width, height int) []string {
	rates := make([]float64, dayHours)
	for h, b := range o.day.Buckets {
		if b != nil && b.Total() > 0 {
			rates[h] = float64(b.Of(backend.PaymentRejected)) / float64(b.Total())
		}
	}
	// The hours before are what the hour is judged against (hourly.StandOut).
	declined, all := 0, 0
	for _, b := range o.day.Buckets[:dayHours-1] {
		if b != nil {
			declined, all = declined+b.Of(backend.PaymentRejected), all+b.Total()
		}
	}
	before := 0.0
	if all > 0 {
		before = float64(declined) / float64(all)
	}
	label := fmt.Sprintf("Declined: %s this hour · %s in the 23 before ", pct(rates[dayHours-1]), pct(before))
	w := width - ansi.StringWidth(label) - 2
	if w < 8 {
		return []string{"  " + label}
	}
	rows := 1
	if height >= 40 {
		rows = 3
	}
	out := strings.Split(chart.Braille(rates, w, rows), "\n")
	pad := strings.Repeat(" ", ansi.StringWidth(label)+2)
	for i := range out {
		lead := pad
		if i == len(out)-1 {
			lead = "  " + label
		}
		out[i] = lead + o.theme.Danger.Render(out[i])
	}
	return out
}

// pct is a share in whole percent, "<1%" for a small one that is not
// nothing.
func pct(x float64) string {
	if x > 0 && x < 0.005 {
		return "<1%"
	}
	return fmt.Sprintf("%.0f%%", x*100)
}

// sections are the decline codes and where things stop: side by side
// where the window is wide enough, so that the chart keeps its room at
// 80x24; one under the other where it is not.
func (o *Overview) sections(width int) []string {
	if width < sideBySide {
		return append(o.codeLines(width), o.stuckLines(width)...)
	}
	leftW := min(width/2, 36)
	left, right := o.codeLines(leftW-1), o.stuckLines(width-leftW)
	out := make([]string, max(len(left), len(right)))
	for i := range out {
		l := ""
		if i < len(left) {
			l = left[i]
		}
		if pad := leftW - ansi.StringWidth(l); pad > 0 {
			l += strings.Repeat(" ", pad)
		}
		if i < len(right) {
			l += right[i]
		}
		out[i] = l
	}
	return out
}

// sideBySide is the narrowest window the two sections share.
const sideBySide = 78

// codeLines are the day's decline codes, the most frequent first, with
// how many of them came in the last hour.
func (o *Overview) codeLines(width int) []string {
	codes := o.dayCodes
	if len(codes) == 0 {
		return nil
	}
	out := []string{o.theme.Muted.Render("Declines by code · hour / day")}
	last := o.day.Buckets[dayHours-1]
	first := o.lineIndex(lineCode)
	for i, c := range codes[:min(len(codes), o.codesShown())] {
		now := 0
		if last != nil {
			now = last.Codes[c.code]
		}
		out = append(out, o.selectable(first+i, fmt.Sprintf("%-22s %4d / %d", textsafe.Line(c.code, 22), now, c.count), width))
	}
	return out
}

// stuckLines are where payments stop: how many of the day's are still in
// Confirmation or Pending.
func (o *Overview) stuckLines(width int) []string {
	sum := o.sum
	out := []string{o.theme.Muted.Render("Where things stop (5 min or more)")}
	first := o.lineIndex(lineStuck)
	for i, st := range []backend.PaymentStatus{backend.PaymentConfirmation, backend.PaymentPending} {
		n := o.stuck(st)
		text := fmt.Sprintf("%-23s %4d of %d", "in "+string(st), n, sum.Total())
		if sum.Total() > 0 {
			text += " (" + pct(float64(n)/float64(sum.Total())) + ")"
		}
		out = append(out, o.selectable(first+i, text, width))
	}
	out = append(out, o.alsoLines(width)...)
	return append(out, o.selectable(o.lineIndex(lineTokens),
		fmt.Sprintf("%-23s %4d of %d known", "tokens revoked today", o.revoked, o.known), width))
}

// alsoLines are the refunds, holds and stickers that stop.
func (o *Overview) alsoLines(width int) []string {
	var out []string
	a := o.also
	switch {
	case !a.read && a.err != nil:
		return append(out, o.theme.Danger.Render("  Could not read refunds, holds and stickers: "+textsafe.Line(a.err.Error(), 200)))
	case !a.read && o.alsoAsked:
		return append(out, o.theme.Muted.Render("  refunds, holds, stickers: reading…"))
	case !a.read:
		return append(out, o.theme.Muted.Render("  refunds, holds, stickers: at the next refresh (r: now)"))
	}
	first := o.lineIndex(lineRefunds)
	for i, text := range []string{
		fmt.Sprintf("%-23s %4d of %d", "refunds late (>30 min)", a.refundsLate, a.refunds),
		fmt.Sprintf("%-23s %4d of %d", "refunds rejected", a.refundsDenied, a.refunds),
		fmt.Sprintf("%-23s %4d", "holds older than 3 days", a.holds),
		fmt.Sprintf("%-23s %4d of %d", "stickers switched off", a.stickersOff, a.stickers),
	} {
		out = append(out, o.selectable(first+i, text, width))
	}
	if a.err != nil {
		out = append(out, o.theme.Danger.Render("  Not brought up to date: "+textsafe.Line(a.err.Error(), 200)))
	}
	return out
}

// stuckUntil is the end of the last hour stuck counts: the latest o'clock
// at least stuckAfter before now.
func (o *Overview) stuckUntil() time.Time {
	return o.now.Add(-stuckAfter).Truncate(time.Hour)
}

// stuck is how many of the day's payments are in st and were created
// stuckAfter ago or more: those of the hours that ended that long ago (a
// bucket holds no times, so the hour now is in counts only in what stands
// out).
func (o *Overview) stuck(st backend.PaymentStatus) int {
	n := 0
	for h, b := range o.day.Buckets {
		if b != nil && !o.day.Start[h].Add(time.Hour).After(o.stuckUntil()) {
			n += b.Of(st)
		}
	}
	return n
}
