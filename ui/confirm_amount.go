package ui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"paydash/backend/money"
	"paydash/backend/textsafe"
	"paydash/keys"
)

// amount is what y sends now: the field's amount, the fixed amount, or
// none.
func (c *confirmModal) amount() (money.Amount, bool) {
	switch {
	case c.field && c.problem == "":
		return money.Amount{Value: c.value, Currency: c.currency}, true
	case c.field:
		return money.Amount{}, false
	case c.spec.Fixed != nil:
		return *c.spec.Fixed, true
	}
	return money.Amount{}, false
}

// checkNeeded: the amount is above spec.Check's threshold.
func (c *confirmModal) checkNeeded() bool {
	a, ok := c.amount()
	return c.spec.Check != nil && ok && a.Value > c.spec.Check.Over
}

// wouldEdit reports whether msg, taken, would have been (part of) changing
// the amount: a paste, the edit key, a character or a deletion typed for
// the field, focused or not.
func (c *confirmModal) wouldEdit(msg tea.Msg) bool {
	if !c.field {
		return false
	}
	press, ok := msg.(tea.KeyPressMsg)
	if !ok {
		_, paste := msg.(tea.PasteMsg)
		return paste
	}
	if keys.Matches(press, c.km.Modal.Confirm) || keys.Matches(press, c.km.Modal.Cancel) && press.Text == "" {
		return false
	}
	if c.editing {
		return insertsText(press) || c.deletes(press)
	}
	if keys.Matches(press, c.km.Modal.EditField) || c.deletes(press) {
		return true
	}
	return len(press.Text) == 1 && strings.ContainsAny(press.Text, "0123456789.,")
}

// insertsText: the press inserts its text into a focused input.
func insertsText(press tea.KeyPressMsg) bool {
	return press.Text != "" && !press.Mod.Contains(tea.ModCtrl) && !press.Mod.Contains(tea.ModAlt)
}

// deletes: the press deletes text in the field (backspace, ctrl+u, …).
func (c *confirmModal) deletes(press tea.KeyPressMsg) bool {
	km := c.input.KeyMap
	return key.Matches(press, km.DeleteCharacterBackward, km.DeleteCharacterForward, km.DeleteWordBackward,
		km.DeleteWordForward, km.DeleteBeforeCursor, km.DeleteAfterCursor)
}

// moves: the press moves the field's cursor.
func (c *confirmModal) moves(press tea.KeyPressMsg) bool {
	km := c.input.KeyMap
	return key.Matches(press, km.CharacterForward, km.CharacterBackward, km.WordForward, km.WordBackward,
		km.LineStart, km.LineEnd)
}

// typeCheck takes a digit typed for the large-amount check.
func (c *confirmModal) typeCheck(text string) {
	if !c.checkNeeded() || len(text) != 1 {
		return
	}
	if text[0] < '0' || text[0] > '9' {
		c.note = "type the digits " + c.spec.Check.Digits + " to confirm this amount"
		return
	}
	if len(c.typed) < len(c.spec.Check.Digits) {
		c.typed += text
	}
}

func (c *confirmModal) updateField(press tea.KeyPressMsg) (Modal, tea.Cmd, bool) {
	action, _, _ := c.km.Lookup(press, keys.ContextModalField)
	switch action {
	case keys.ActModalLeaveField:
		c.editing, c.selected = false, false
		c.input.Blur()
		return c, nil, false
	case keys.ActModalCancel:
		return c.cancel()
	}
	if press.Text != "" && keys.Matches(press, c.km.Modal.Confirm) {
		c.note = "finish editing the amount with " + keys.Label(c.km.Modal.LeaveField.Keys()) + ", then confirm"
		return c, nil, false
	}
	if c.selected {
		// The prefilled amount is selected: a deletion clears it, typing
		// replaces it, moving the cursor keeps it and ends the selection.
		switch {
		case c.deletes(press):
			c.replaceSelection()
			c.revalidate()
			return c, nil, false
		case insertsText(press):
			c.replaceSelection()
		case c.moves(press):
			c.selected = false
		}
	}
	before := c.input.Value()
	var cmd tea.Cmd
	c.input, cmd = c.input.Update(press)
	if c.input.Value() != before {
		c.revalidate()
	}
	return c, cmd, false
}

// replaceSelection empties the field when its text is selected, so that
// what comes next takes its place.
func (c *confirmModal) replaceSelection() {
	if c.selected {
		c.input.SetValue("")
		c.selected = false
	}
}

// revalidate reads the field's text: an amount in the currency's
// decimals, above zero, not above the maximum. The prefill and the
// maximum, which the service reported, are taken written in full even
// when they have more decimals than the currency. The text is never
// changed.
func (c *confirmModal) revalidate() {
	a := c.spec.Amount
	d, problem := ParseAmountAllowing(c.input.Value(), c.currency, a.Value.Value, a.Max)
	if problem == "" && d > a.Max {
		problem = "too much: at most " + money.Group(a.Max, c.currency) + " " + c.currency
		if a.MaxLabel != "" {
			problem += " (" + textsafe.Line(a.MaxLabel, 60) + ")"
		}
	}
	c.value, c.problem = d, problem
}
