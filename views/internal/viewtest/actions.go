package viewtest

import (
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/require"

	"paydash/backend/sandbox"
	"paydash/ui"
)

// The Payments tab's money actions against the real sandbox
// (docs/architecture.md has their path):
// what is confirmed is what is sent, once; an outcome that is not known is
// found out, never shown as a failure.

// HeldOrPaid makes a payment and selects it at the top of the list.
func (e *Env) HeldOrPaid(dual bool, value string) sandbox.Payment {
	e.T.Helper()
	p := e.NewPayment(dual, value)
	e.Send(ui.RefreshMsg{})
	e.Press("g")
	w, h := e.W, e.H
	if w == 0 {
		w, h = 80, 24
	}
	lines := strings.Split(ansi.Strip(e.View(w, h)), "\n")
	at := SelectedLine(strings.Join(lines, "\n"))
	require.GreaterOrEqual(e.T, at, 0, "a row is selected")
	require.Contains(e.T, lines[at], p.ID, "the new row is at the top, selected")
	return p
}
