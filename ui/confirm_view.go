package ui

import (
	"fmt"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"paydash/backend/money"
	"paydash/backend/textsafe"
	"paydash/keys"
)

// View draws the dialog in the shell's dialog box.
func (c *confirmModal) View(maxWidth, maxHeight int) string {
	lines, _ := c.layout(maxWidth, maxHeight)
	return box(c.th, lines)
}

// buttonLabel is the verb with what it sends: "Refund 500.00 RUB"; "Ask
// approval: Refund 500.00 RUB" when it needs a supervisor's.
func (c *confirmModal) buttonLabel() string {
	prefix := ""
	if c.approvalNote() != "" {
		prefix = "Ask approval: "
	}
	a, ok := c.amount()
	switch {
	case ok:
		return prefix + c.verb + " " + textsafe.Line(a.Display(), 40)
	case c.field:
		return prefix + c.verb + " —"
	}
	return prefix + c.verb
}

// approvalNote is why the amount shown needs a supervisor's approval, ""
// when it does not (or the dialog is not under paydash serve).
func (c *confirmModal) approvalNote() string {
	if c.spec.Approval == nil {
		return ""
	}
	a, _ := c.amount()
	return c.spec.Approval(a)
}

// layout is the dialog's content lines for a box of at most maxWidth ×
// maxHeight cells, and whether all of it is there. Title, amount, notes,
// buttons and hint always show; facts that do not fit are cut, and then
// the dialog is not complete: the shell holds its keys until it is.
func (c *confirmModal) layout(maxWidth, maxHeight int) ([]string, bool) {
	th := c.th
	innerMax := max(min(maxWidth-boxFrame, 72), 10)
	buttons := c.buttons()
	natural := max(ansi.StringWidth(c.titlePrefix()+c.title), ansi.StringWidth(buttons), ansi.StringWidth(c.hint()), 48)
	for _, l := range c.lines {
		natural = max(natural, ansi.StringWidth(l))
	}
	inner := min(natural, innerMax)

	var facts []string
	for _, l := range c.lines {
		facts = append(facts, wrapStyled(th.Text, l, inner)...)
	}
	amount := c.amountLines(inner)
	notes := c.noteLines(inner)
	hint := th.Muted.Render(fitTail(c.hint(), inner))

	// Room: the border takes two lines; title, buttons and hint always show.
	room := maxHeight - 2
	fixed := 1 + len(amount) + len(notes) + 1 + 1
	blanks := 2 // after the title, before the buttons
	if len(amount) > 0 {
		blanks++ // before the amount
	}
	complete := len(facts) <= room-fixed-blanks
	if !complete {
		keep := max(room-fixed-blanks-1, 0)
		facts = append(facts[:min(keep, len(facts))],
			th.Warning.Render(fitTail("… make the window taller to see all of it; keys wait until then", inner)))
	}
	title := th.Title.Render(c.title)
	if c.live {
		title = liveStyle(th).Render(liveLabel) + th.Title.Render(liveTitleSep+c.title)
	}
	lines := []string{fitTail(title, inner), ""}
	lines = append(lines, facts...)
	if len(amount) > 0 {
		lines = append(lines, "")
		lines = append(lines, amount...)
	}
	lines = append(lines, notes...)
	lines = append(lines, "", buttons, hint)
	for i, l := range lines {
		lines[i] = fit(l, inner)
	}
	return lines, complete && len(lines)+2 <= maxHeight
}

// amountLines: the field with its currency and limit, what is wrong with
// it, and the large-amount check.
func (c *confirmModal) amountLines(inner int) []string {
	th := c.th
	var out []string
	if c.field {
		a := c.spec.Amount
		label := textsafe.Line(a.Label, 40)
		if label == "" {
			label = "Amount"
		}
		out = append(out, fitTail(th.Title.Render(label+": ")+"["+c.fieldView()+"] "+th.Text.Render(c.currency), inner))
		if c.problem != "" {
			out = append(out, wrapStyled(th.Danger, "✗ "+c.problem, inner)...)
		} else {
			limit := "at most " + money.Group(a.Max, c.currency) + " " + c.currency
			if a.MaxLabel != "" {
				limit += " (" + textsafe.Line(a.MaxLabel, 60) + ")"
			}
			out = append(out, wrapStyled(th.Muted, limit, inner)...)
		}
	}
	if c.checkNeeded() {
		ck := c.spec.Check
		shown := c.typed + strings.Repeat("_", max(len(ck.Digits)-len(c.typed), 0))
		mark := ""
		if c.typed == ck.Digits {
			mark = " ✓"
		}
		text := fmt.Sprintf("Over %s %s: type %s, the end of the %s id: [%s]%s",
			money.Group(ck.Over, c.sentCurrency()), c.sentCurrency(), ck.Digits, kindOf(ck.Of), shown, mark)
		out = append(out, wrapStyled(th.Warning, text, inner)...)
	}
	if note := c.approvalNote(); note != "" {
		out = append(out, wrapStyled(th.Warning, upperFirst(textsafe.Line(note, 120))+
			". Confirming files the request; nothing is sent until a supervisor approves it.", inner)...)
	}
	return out
}

// kindOf is the first word of "payment 43149010": what the digits end.
func kindOf(of string) string {
	kind, _, _ := strings.Cut(textsafe.Line(of, 60), " ")
	if kind == "" {
		return "object"
	}
	return kind
}

// sentCurrency is the currency of the amount sent, field or fixed.
func (c *confirmModal) sentCurrency() string {
	if c.field {
		return c.currency
	}
	if c.spec.Fixed != nil {
		return c.spec.Fixed.Currency
	}
	return ""
}

// fieldView is the amount field; while its text is selected, the text in
// reverse video (the hint line says what that means), as wide as the
// input draws it.
func (c *confirmModal) fieldView() string {
	view := c.input.View()
	if !c.editing || !c.selected {
		return view
	}
	text := c.input.Value()
	return c.th.Text.Reverse(true).Render(text) + strings.Repeat(" ", max(ansi.StringWidth(view)-ansi.StringWidth(text), 0))
}

// shownAmount is the amount as the field shows it, for a sentence: "574.00
// RUB", or the text as typed when it is not an amount.
func (c *confirmModal) shownAmount() string {
	if a, ok := c.amount(); ok {
		return textsafe.Line(a.Display(), 40)
	}
	return quote(textsafe.Line(c.input.Value(), 40)) + " " + c.currency
}

// noteLines: why keys were ignored, what that left as it was, what to
// press next; and why the last key did nothing.
func (c *confirmModal) noteLines(inner int) []string {
	th := c.th
	var out []string
	confirm := keys.Label(c.km.Modal.Confirm.Keys())
	send := ""
	if ok, _ := c.canSend(); ok {
		send = lowerFirst(c.buttonLabel())
	}
	lost := ""
	if c.lostEdit {
		lost = "; what you typed was not taken: the amount is still " + c.shownAmount() + " — press " +
			keys.Label(c.km.Modal.EditField.Keys()) + " to change it"
	}
	switch {
	case c.swallowed > 0:
		what := "1 key"
		if c.swallowed > 1 {
			what = fmt.Sprintf("%d keys", c.swallowed)
		}
		text := fmt.Sprintf("! %s ignored — %s%s. Pause, %s to say you saw it", what, c.why, lost, confirm)
		if send != "" {
			text += fmt.Sprintf(", pause, %s to %s", confirm, send)
		}
		out = append(out, wrapStyled(th.Warning, text+".", inner)...)
	case c.seen > 0:
		what := "1 key was"
		if c.seen > 1 {
			what = fmt.Sprintf("%d keys were", c.seen)
		}
		text := "! " + what + " ignored" + lost + "."
		if send != "" {
			text += " After a pause, press " + confirm + " again to " + send + ", as shown."
		}
		out = append(out, wrapStyled(th.Warning, text, inner)...)
	}
	if c.note != "" {
		out = append(out, wrapStyled(th.Warning, "! "+c.note, inner)...)
	}
	return out
}

func (c *confirmModal) hint() string {
	cancel := keys.Label(c.km.Modal.Cancel.Keys()) + " cancel"
	if c.editing {
		done := keys.Label(c.km.Modal.LeaveField.Keys())
		if c.selected {
			return "typing replaces " + textsafe.Line(c.input.Value(), 40) + " • backspace clears • " + done + " done"
		}
		return done + " done editing • " + keys.Label(untyped(c.km.Modal.Cancel.Keys())) + " cancel"
	}
	first := keys.Label(c.km.Modal.Confirm.Keys()) + " " + lowerFirst(c.buttonLabel())
	if ok, _ := c.canSend(); !ok {
		if c.checkNeeded() && c.typed != c.spec.Check.Digits {
			first = "type " + c.spec.Check.Digits
		} else {
			first = ""
		}
	}
	parts := []string{}
	if first != "" {
		parts = append(parts, first)
	}
	parts = append(parts, cancel)
	if c.field {
		parts = append(parts, keys.Label(c.km.Modal.EditField.Keys())+" edit amount")
	}
	return strings.Join(parts, " • ")
}

func (c *confirmModal) buttons() string {
	th := c.th
	button := func(label string, focused bool, st lipgloss.Style) string {
		if focused {
			return st.Reverse(true).Bold(true).Render("[ " + label + " ]")
		}
		return st.Render("  " + label + "  ")
	}
	verbStyle := th.Text
	if c.spec.Danger {
		verbStyle = th.Danger
	}
	return button("Cancel", !c.onVerb, th.Text) + "   " + button(c.buttonLabel(), c.onVerb, verbStyle)
}

// lowerFirst lower-cases the first letter: "Refund 5.00 RUB" in a sentence.
func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	r := []rune(s)
	return strings.ToLower(string(r[0])) + string(r[1:])
}

// liveTitleSep separates LIVE from a confirmation's title: "LIVE · Refund
// payment 43149010".
const liveTitleSep = " · "

// titlePrefix is what the title starts with before spec.Title.
func (c *confirmModal) titlePrefix() string {
	if c.live {
		return liveLabel + liveTitleSep
	}
	return ""
}
