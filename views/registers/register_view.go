package registers

import (
	"fmt"
	"strings"

	"paydash/backend/money"
	"paydash/backend/textsafe"
	"paydash/keys"
	"paydash/ui"
	"paydash/views/tab"
)

// setSize gives the pane the tab's area.
func (rp *registerPane) setSize(w, h int) {
	rp.w, rp.h = max(w, 0), max(h, 0)
	rp.layout()
}

// layout sizes the operations table under the pane's heading lines and the
// search input; called whenever they may change, never while drawing.
func (rp *registerPane) layout() {
	rp.ops.SetSize(rp.w, max(rp.h-len(rp.opsHead()), 0))
	rp.searchInput.SetWidth(max(rp.w-len(rp.searchInput.Prompt)-1, 1))
	if rp.data != nil {
		rp.xmlTop = tab.ClampOffset(rp.xmlTop, rp.xmlCount(), rp.xmlBody())
	}
}

// lines draws the pane: exactly h lines (block pads them).
func (rp *registerPane) lines() []string {
	th := rp.theme
	if rp.data == nil {
		out := []string{rp.titleLine("", "")}
		if rp.loading {
			out = append(out, th.Muted.Render("reading register "+cleanName(rp.transfer.RegisterID)+"…"))
		}
		return out
	}
	if rp.showXML {
		return rp.xmlView()
	}
	return append(rp.opsHead(), strings.Split(rp.ops.View(), "\n")...)
}

// titleLine is the pane's first line: the register, then the transfer
// (the operations view, whose check is against it) or what the view is
// (the XML's size), and right of it the other view's key or the position.
func (rp *registerPane) titleLine(view, right string) string {
	th := rp.theme
	name := rp.transfer.RegisterID
	if rp.data != nil && rp.data.reg.Number != "" {
		name = rp.data.reg.Number
	}
	left := th.Title.Render("Register " + cleanName(name))
	if view == "" {
		left += th.Muted.Render(" · transfer of " + transferDay(rp.transfer.Created) + ", " + tab.FmtAmount(rp.transfer.Amount))
	} else {
		left += th.Muted.Render(" · ") + th.Accent.Render(view)
	}
	return spread(left, th.Muted.Render(right), rp.w)
}

// opsHead is the operations view's heading: the title, the totals check,
// and the totals of each currency.
func (rp *registerPane) opsHead() []string {
	if rp.data == nil {
		return nil
	}
	th, d := rp.theme, rp.data
	w := tab.KeyName(rp.km, keys.ActRaw, "w")
	out := []string{rp.titleLine("", w+": XML")}
	if d.err != nil {
		out = append(out, th.Danger.Render(tab.Fit("✗ Could not read the operations: "+tab.ErrText(d.err), rp.w)))
		if h := tab.HintOf(d.err); h != "" {
			out = append(out, th.Muted.Render(tab.Fit("  "+h, rp.w)))
		}
		if d.doc != nil {
			out = append(out, th.Muted.Render(tab.Fit("  "+w+" shows the answer as far as it parses", rp.w)))
		}
		return out
	}
	ok, text := d.totals.check(rp.transfer)
	style := th.Success
	if !ok {
		style = th.Danger.Bold(true)
	}
	for i, l := range ui.WrapWords(text, rp.w) {
		if i == 2 {
			break
		}
		out = append(out, style.Render(tab.Fit(l, rp.w)))
	}
	for _, total := range d.totals.lines(3) {
		for i, l := range ui.WrapWords(total, rp.w) {
			if i == 2 {
				break
			}
			out = append(out, th.Muted.Render(tab.Fit(l, rp.w)))
		}
	}
	return out
}

// xmlView draws the XML view: the title, the error and notes, the lines
// shown, and the search line.
func (rp *registerPane) xmlView() []string {
	th, d := rp.theme, rp.data
	total, body := rp.xmlCount(), rp.xmlBody()
	pos := ""
	if total > 0 {
		pos = fmt.Sprintf("lines %s–%s of %s", money.Count(rp.xmlTop+1), money.Count(min(rp.xmlTop+body, total)), money.Count(total))
	}
	size := ""
	if d.doc != nil {
		size = "XML as received, " + ui.HumanBytes(int64(len(d.doc.Raw())))
		if rp.w < 100 {
			size = "XML, " + ui.HumanBytes(int64(len(d.doc.Raw())))
		}
	}
	out := []string{rp.titleLine(size, pos)}
	out = append(out, rp.xmlNotes()...)
	if d.doc == nil {
		msg := "no XML: the service's answer had no body"
		if d.err != nil {
			msg = "✗ " + tab.ErrText(d.err)
		}
		return append(out, th.Danger.Render(tab.Fit(msg, rp.w)))
	}
	end := min(rp.xmlTop+body, total)
	out = append(out, d.doc.Lines(rp.xmlTop, end, rp.w, rp.styles, rp.matches, rp.cur)...)
	if end > d.doc.Len() { // the line after the last one laid out
		out = append(out, th.Danger.Render(tab.Fit("✗ the XML breaks off here: "+d.doc.Err().Error(), rp.w)))
	}
	for len(out) < rp.h-1 {
		out = append(out, "")
	}
	return append(out, rp.searchLine())
}

// xmlNotes are the lines above the XML: where it breaks, and what was not
// done with it (entities are never expanded).
func (rp *registerPane) xmlNotes() []string {
	d := rp.data
	if d == nil || d.doc == nil {
		return nil
	}
	var out []string
	if e := d.doc.Err(); e != nil {
		out = append(out, rp.theme.Danger.Render(tab.Fit("✗ Malformed XML, shown as far as it parses: "+e.Error(), rp.w)))
	}
	for i, n := range d.doc.Notes() {
		if i == 2 {
			break
		}
		out = append(out, rp.theme.Muted.Render(tab.Fit(n, rp.w)))
	}
	return out
}

// searchLine is the XML view's last line: the search input, the current
// match, or the keys to search.
func (rp *registerPane) searchLine() string {
	th := rp.theme
	switch {
	case rp.searching:
		return tab.Fit(rp.searchInput.View(), rp.w)
	case rp.searchNote != "":
		return th.Warning.Render(tab.Fit(rp.searchNote, rp.w))
	case rp.matches != nil && rp.cur >= 0:
		n := tab.KeyName(rp.km, keys.ActNextMatch, "n")
		prev := tab.KeyName(rp.km, keys.ActPrevMatch, "N")
		text := fmt.Sprintf("match %s of %s for \"%s\"", money.Count(rp.cur+1), money.Count(rp.matches.Len()),
			textsafe.Line(rp.matches.Query(), 40))
		return tab.Fit(th.Accent.Render(text)+th.Muted.Render(" · "+n+" next · "+prev+" previous · esc clears"), rp.w)
	}
	return th.Muted.Render(tab.Fit(tab.KeyName(rp.km, keys.ActFilter, "/")+" search · "+tab.KeyName(rp.km, keys.ActRaw, "w")+
		": operations · "+tab.KeyName(rp.km, keys.ActExport, "ctrl+s")+" save the XML", rp.w))
}

// xmlCount is how many lines the XML view scrolls through: the laid-out
// lines and, when the XML breaks off, the line that says where.
func (rp *registerPane) xmlCount() int {
	if rp.data == nil || rp.data.doc == nil {
		return 0
	}
	n := rp.data.doc.Len()
	if rp.data.doc.Err() != nil {
		n++
	}
	return n
}

// xmlBody is how many XML lines the view shows.
func (rp *registerPane) xmlBody() int {
	return max(rp.h-2-len(rp.xmlNotes()), 1)
}
