package payments

import (
	"fmt"
	"testing"
	"time"

	"paydash/views/internal/viewtest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Whenever a pane is open, the selected row is the pane's payment, at
// every size; esc leaves the cursor on it. Tried with a payment among the
// loaded rows but off screen, one of the period not loaded yet, and one
// outside the period (the period widens and the list loads afresh).
func TestTheSelectedRowIsThePanesPaymentAtEverySize(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{80, 24}, {120, 40}, {200, 50}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			e := newEnv(t, viewtest.Opts{WithV1: true})
			s := newShell(e, size[0], size[1])
			p := e.Tab.(*Payments)
			rows := p.List.Table.Rows()
			require.Greater(t, len(rows), size[1]+5)
			offScreen := rows[size[1]+3]
			notLoaded := e.oldPayment(e.Scope.MerchantID, 20) // in the 30 days, pages away
			old := e.oldPayment(e.Scope.MerchantID, 60)

			for _, target := range []struct{ name, query, id string }{
				{"loaded, off screen", offScreen.OrderNo, offScreen.ID},
				{"loaded, by id", rows[2].ID, rows[2].ID},
				{"in the period, not loaded", notLoaded.Invoice.OrderNo, notLoaded.ID},
				{"outside the period", old.Invoice.OrderNo, old.ID},
			} {
				s.jump(target.query)
				require.True(t, p.Pane.IsOpen(), "%s: found", target.name)
				require.Equal(t, target.id, p.Pane.Obj.ID, target.name)
				assert.Equal(t, target.id, p.List.Table.SelectedID(), "%s: the selected row is the pane's", target.name)
				if p.List.Beside {
					assert.Equal(t, target.id, markedRow(s.screen()), "%s: the screen marks it:\n%s", target.name, s.screen())
				}
				s.press("esc")
				require.False(t, p.Pane.IsOpen())
				assert.Equal(t, target.id, p.List.Table.SelectedID(), "%s: esc leaves the cursor on it", target.name)
				assert.Equal(t, target.id, markedRow(s.screen()), "%s: on screen:\n%s", target.name, s.screen())
			}
		})
	}
}

// The toast of a jump that widened the period never hides the payment it
// jumped to: at this clock (a reading of the real one that failed), the
// payment's row is the list's last line at 80x24, where the toast would
// stand.
func TestTheWideningToastLeavesTheJumpedToRowInSight(t *testing.T) {
	t.Parallel()
	e := newEnv(t, viewtest.Opts{WithV1: true, Fixed: time.Date(2026, 11, 27, 21, 36, 0, 0, time.UTC)})
	s := newShell(e, 80, 24)
	p := e.Tab.(*Payments)
	old := e.oldPayment(e.Scope.MerchantID, 60)
	s.jump(old.Invoice.OrderNo)
	s.press("esc")
	require.False(t, p.Pane.IsOpen())
	sc := s.screen()
	require.Contains(t, sc, "Period widened", "the toast is up")
	assert.Equal(t, old.ID, markedRow(sc), "the row is in sight:\n%s", sc)
}
