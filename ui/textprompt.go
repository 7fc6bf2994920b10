package ui

import (
	"fmt"
	"strings"
	"time"

	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"paydash/backend/textsafe"
	"paydash/keys"
)

// TextPrompt is a dialog that asks for one line of text (a rejection's
// reason): enter gives it to Done, which makes the command that acts on
// it; esc leaves and nothing is done. Empty text is refused with a word.
// Keys that come within ConfirmGuard of the dialog opening are ignored
// and counted, as a confirmation's are: they were typed for the screen
// behind it, and an enter among them must not act.
type TextPrompt struct {
	Title   string
	Lines   []string  // what the text is for
	Label   string    // before the field: "Reason"
	Opened  time.Time // when the dialog opened (the tab's clock)
	Done    func(text string) tea.Cmd
	input   textinput.Model
	km      keys.Map
	th      Theme
	problem string
	ignored int // keys that came too soon after the dialog opened
}

// NewTextPrompt makes the dialog, its field focused.
func NewTextPrompt(p TextPrompt, km keys.Map, th Theme) *TextPrompt {
	p.input = newInput(th, "type it here", 200)
	p.input.Focus()
	p.km, p.th = km, th
	return &p
}

// Context implements Modal: the field types text; enter and esc act.
func (p *TextPrompt) Context() keys.Context { return keys.ContextModalField }

// Update implements Modal.
func (p *TextPrompt) Update(msg tea.Msg, now time.Time) (Modal, tea.Cmd, bool) {
	press, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return p, nil, false
	}
	action, _, _ := p.km.Lookup(press, keys.ContextModalField)
	switch {
	case action == keys.ActModalCancel:
		return p, nil, true
	case now.Sub(p.Opened) < ConfirmGuard:
		p.ignored++
		return p, nil, false
	case press.String() == "enter":
		text := strings.TrimSpace(textsafe.Line(p.input.Value(), 200))
		if text == "" {
			p.problem = "type something first (esc leaves, nothing is done)"
			return p, nil, false
		}
		return p, p.Done(text), true
	}
	var cmd tea.Cmd
	p.input, cmd = p.input.Update(msg)
	p.problem = ""
	return p, cmd, false
}

// View implements Modal.
func (p *TextPrompt) View(maxWidth, _ int) string {
	inner := max(min(maxWidth-boxFrame, 72), 20)
	th := p.th
	lines := []string{fitTail(th.Title.Render(p.Title), inner), ""}
	for _, l := range p.Lines {
		lines = append(lines, wrapStyled(th.Text, l, inner)...)
	}
	p.input.SetWidth(max(inner-len(p.Label)-6, 10)) // room for ": [", "]" and the cursor
	lines = append(lines, "", th.Title.Render(p.Label+": ")+"["+p.input.View()+"]")
	if p.problem != "" {
		lines = append(lines, wrapStyled(th.Danger, "✗ "+p.problem, inner)...)
	}
	if p.ignored > 0 {
		lines = append(lines, wrapStyled(th.Warning, fmt.Sprintf("! %d key(s) ignored: %s; type again", p.ignored, whyOpened), inner)...)
	}
	lines = append(lines, "", th.Muted.Render(fitTail("enter: done · esc: leave, nothing is done", inner)))
	for i, l := range lines {
		lines[i] = fit(l, inner)
	}
	return box(th, lines)
}
