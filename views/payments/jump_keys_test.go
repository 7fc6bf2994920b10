package payments

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/keys"
	"paydash/ui"
	"paydash/views/internal/viewtest"
)

// markedRow is the id of the row the screen marks as selected ("> "), ""
// when none is.
func markedRow(screen string) string {
	for _, l := range strings.Split(screen, "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(l), "> "); ok {
			if f := strings.Fields(rest); len(f) > 0 {
				return f[0]
			}
		}
	}
	return ""
}

// An order number typed in lower case finds the payment, whichever
// interface answers: v1's lookup (asked as typed, then in upper case),
// or the search back through v2's lists.
func TestJumpLowerCaseOrderNumberFound(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		o    viewtest.Opts
	}{{"v2", viewtest.Opts{}}, {"both", viewtest.Opts{WithV1: true}}, {"v1", viewtest.Opts{V1Only: true}}} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, tc.o)
			s := newShell(e, 120, 30)
			p := e.Tab.(*Payments)
			old := e.oldPayment(e.Scope.MerchantID, 60)
			require.NotEqual(t, strings.ToLower(old.Invoice.OrderNo), old.Invoice.OrderNo)

			s.jump(strings.ToLower(old.Invoice.OrderNo))
			require.True(t, p.Pane.IsOpen(), "found:\n%s", s.screen())
			assert.Equal(t, old.ID, p.Pane.Obj.ID)
			assert.Contains(t, s.screen(), "Payment "+old.ID)
			assert.False(t, s.hasError("No payment"))
		})
	}
}

// The error of a jump that found nothing goes when the next jump finds its
// payment; an error about something else stays.
func TestJumpErrorClearedByNextJump(t *testing.T) {
	t.Parallel()
	e := newEnv(t, viewtest.Opts{WithV1: true})
	s := newShell(e, 120, 30)
	p := e.Tab.(*Payments)
	loaded := p.List.Table.Rows()[3]
	old := e.oldPayment(e.Scope.MerchantID, 60)

	s.jump("NO-SUCH-ORDER")
	require.True(t, s.hasError("No payment with order number NO-SUCH-ORDER"), s.screen())

	// Found among the loaded rows.
	s.jump(loaded.OrderNo)
	require.True(t, p.Pane.IsOpen())
	assert.Equal(t, loaded.ID, p.Pane.Obj.ID)
	assert.False(t, s.hasError("No payment"), "cleared by the jump that found:\n%s", s.screen())
	s.press("esc")

	// Found by the service, outside the period.
	s.jump("no-such-order")
	require.True(t, s.hasError("No payment with order number no-such-order"), s.screen())
	s.jump(old.Invoice.OrderNo)
	require.True(t, p.Pane.IsOpen())
	assert.Equal(t, old.ID, p.Pane.Obj.ID)
	assert.False(t, s.hasError("No payment"), s.screen())
	s.press("esc")

	// Another error is not the jump's to clear.
	s.send(ui.ErrorMsg{Err: errors.New("Could not capture 43000001"), Sticky: true})
	s.jump(loaded.OrderNo)
	require.True(t, p.Pane.IsOpen())
	assert.True(t, s.hasError("Could not capture 43000001"), s.screen())
}

// After a failed jump the list has the keys, and they act on the row the
// screen marks; after a jump that found a payment outside the loaded rows,
// closing its pane leaves that payment selected, not the row that happened
// to be (the list reads on to it), so a key acts on the payment jumped to.
func TestJumpKeysActOnTheMarkedRow(t *testing.T) {
	t.Parallel()
	e := newEnv(t, viewtest.Opts{WithV1: true})
	s := newShell(e, 120, 30)
	p := e.Tab.(*Payments)
	s.press("down", "down")
	marked := markedRow(s.screen())
	require.Equal(t, p.List.Table.Rows()[2].ID, marked)

	s.jump("NO-SUCH-ORDER")
	require.True(t, s.hasError("No payment"))
	assert.Equal(t, keys.ContextList, p.Context(), "the prompt closed: the list has the keys")
	assert.Equal(t, marked, markedRow(s.screen()), "the selection stays where it was")
	s.press("enter")
	require.True(t, p.Pane.IsOpen())
	assert.Equal(t, marked, p.Pane.Obj.ID, "enter opens the marked row")
	s.press("esc")

	// Found outside the period: the period widens, the list loads afresh.
	old := e.oldPayment(e.Scope.MerchantID, 60)
	s.jump(old.Invoice.OrderNo)
	require.True(t, p.Pane.IsOpen())
	require.Equal(t, old.ID, p.Pane.Obj.ID)
	s.press("esc")
	require.False(t, p.Pane.IsOpen())
	assert.Equal(t, old.ID, p.List.Table.SelectedID(), "the payment jumped to stays selected")
	assert.Equal(t, old.ID, markedRow(s.screen()), "and the screen marks it:\n%s", s.screen())
	s.press("enter")
	require.True(t, p.Pane.IsOpen())
	assert.Equal(t, old.ID, p.Pane.Obj.ID, "enter opens it again")
}
