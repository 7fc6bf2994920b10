package forms

import (
	"slices"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
)

// Pages that fit the window.
//
// A form is made of sections ("Amount and order", "Customer", "Link"), and
// a page of huh's is not fixed to one: every time the form is drawn at a
// new size, plan works out how the sections fit the height there, and the
// form is laid out again when that changes. Where the whole form fits, it
// is one page, each section under its heading; where it does not, whole
// sections are put together while they fit, and a section taller than the
// window on its own is split between its fields. So a roomy window shows
// every field at once, and the dashboard's smallest (80×24) pages as it
// must.
//
// Laying out again makes a new huh form over the same values (they live in
// the Form, not in huh), with the focus put back on the field that had it
// and the messages kept under their fields. The moves between pages stay
// huh's own, made at once (nav.go), whatever the layout.

// span is the fields from..to (exclusive) of section sec.
type span struct{ sec, from, to int }

// pagePlan is what one page holds: spans of sections, in order.
type pagePlan []span

// sectionPlan is one page per section: the layout before the size is known.
func sectionPlan(sections []page) []pagePlan {
	plan := make([]pagePlan, len(sections))
	for i, s := range sections {
		plan[i] = pagePlan{{i, 0, len(s.fields)}}
	}
	return plan
}

// plan lays the sections out on pages of bodyH lines. heights[s][i] is the
// lines field i of section s takes, headH[s] those of the section's heading
// (shown only on a page that holds more than one section, right above the
// section's first field). Fields are one blank line apart.
func plan(heights [][]int, headH []int, bodyH int) []pagePlan {
	fieldsH := func(sp span) int {
		h := 0
		for _, fh := range heights[sp.sec][sp.from:sp.to] {
			h += fh
		}
		return h + max(sp.to-sp.from-1, 0)
	}
	pageH := func(p pagePlan) int {
		if len(p) == 1 {
			return fieldsH(p[0])
		}
		h := len(p) - 1
		for _, sp := range p {
			h += headH[sp.sec] + fieldsH(sp)
		}
		return h
	}
	all := make(pagePlan, len(heights))
	for s := range heights {
		all[s] = span{s, 0, len(heights[s])}
	}
	if pageH(all) <= bodyH {
		return []pagePlan{all}
	}
	var pages []pagePlan
	var cur pagePlan
	for _, whole := range all {
		if cur != nil {
			if pageH(append(slices.Clone(cur), whole)) <= bodyH {
				cur = append(cur, whole)
				continue
			}
			pages, cur = append(pages, cur), nil
		}
		if fieldsH(whole) <= bodyH {
			cur = pagePlan{whole}
			continue
		}
		// Too tall alone: as many fields a page as fit, at least one.
		for from := whole.from; from < whole.to; {
			to := from + 1
			for to < whole.to && fieldsH(span{whole.sec, from, to + 1}) <= bodyH {
				to++
			}
			pages = append(pages, pagePlan{{whole.sec, from, to}})
			from = to
		}
	}
	if cur != nil {
		pages = append(pages, cur)
	}
	return pages
}

// planPages makes the pages of the current plan from the sections: a page
// of one section takes the section's title; a page of several has none of
// its own, and each section on it starts with its heading.
func (f *Form) planPages() []page {
	pages := make([]page, 0, len(f.plan))
	for _, p := range f.plan {
		if len(p) == 1 {
			s := f.sections[p[0].sec]
			pages = append(pages, page{title: s.title, fields: s.fields[p[0].from:p[0].to]})
			continue
		}
		var pg page
		for _, sp := range p {
			s := f.sections[sp.sec]
			s.fields[sp.from].head = f.heading(s.title)
			pg.fields = append(pg.fields, s.fields[sp.from:sp.to]...)
		}
		pages = append(pages, pg)
	}
	return pages
}

// heading is a section's title on a page of several sections, drawn above
// its first field (field.View), between rules so that it reads as a
// heading without colour or bold too.
func (f *Form) heading(title string) string {
	return f.d.Theme.Title.Render(headingText(title))
}

func headingText(title string) string { return "── " + title + " ──" }

// repage plans the pages for width×bodyH and, when that differs from the
// pages the form has, lays the form out again, the focus and the messages
// kept. The commands that brings (the cursor's) go out with the next
// Update.
func (f *Form) repage(width, bodyH int) {
	heights := make([][]int, len(f.sections))
	headH := make([]int, len(f.sections))
	for s, sec := range f.sections {
		for _, w := range sec.fields {
			heights[s] = append(heights[s], w.plainHeight(width))
		}
		headH[s] = lipgloss.Height(ansi.Wrap(headingText(sec.title), max(width, 1), ""))
	}
	p := plan(heights, headH, bodyH)
	if slices.EqualFunc(p, f.plan, slices.Equal) {
		return
	}
	focus := keyOf(f.focused())
	errs := map[string]error{}
	for _, pg := range f.pages {
		for _, w := range pg.fields {
			if err := w.Error(); err != nil {
				errs[w.key] = err
			}
		}
	}
	f.plan = p
	f.rebuild()
	if !f.started {
		return // Init focuses the first field
	}
	cmd := f.restart(focus)
	for k, err := range errs {
		if w, _ := f.fieldByKey(k); w != nil && w.Error() == nil {
			w.ext = err
		}
	}
	f.pending = tea.Batch(f.pending, cmd)
}

// restart starts the new huh form and moves the focus to the field with
// the given key (the first field when there is none): a page at a time,
// then a field at a time on its page.
func (f *Form) restart(fieldKey string) tea.Cmd {
	cmds := []tea.Cmd{f.hf.Init()}
	target, targetPage := f.fieldByKey(fieldKey)
	if target == nil {
		return tea.Batch(cmds...)
	}
	for range 64 { // at most every field of every page once
		cur := f.focused()
		if cur == target {
			break
		}
		if _, p := f.fieldByKey(keyOf(cur)); p < targetPage {
			cmds = append(cmds, f.hf.NextGroup())
		} else {
			cmds = append(cmds, f.hf.NextField())
		}
	}
	return tea.Batch(cmds...)
}

// plainHeight is the lines the field takes at width without a message
// under it (its hint counts: it is always there).
func (w *field) plainHeight(width int) int {
	w.WithWidth(width)
	h := lipgloss.Height(w.Field.View()) // its heading is counted by plan
	if w.hint != nil {
		if s := w.hint(); s != "" {
			h += lipgloss.Height(w.hintS.Width(max(width, 4)).PaddingLeft(2).Render(s))
		}
	}
	return h
}

// contentHeight is the lines the fields of page i take as they are now,
// messages included.
func (f *Form) contentHeight(i int) int {
	fields := f.pages[i].fields
	h := max(len(fields)-1, 0)
	for _, w := range fields {
		h += lipgloss.Height(w.View())
	}
	return h
}
