package datatable

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

var t0 = time.Date(2026, 11, 21, 12, 0, 0, 0, time.UTC)

// goldenModel is the fixed scene of the layout goldens: four rows sorted by
// amount, descending; the cursor moved up from the last row, onto the changed row; the row 8999999999 just
// changed (flash); a page loading.
func goldenModel(width int) Model[payment] {
	m := newPayments(width, 7, makePayments(0, 4))
	m.SortBy("amount", true)
	m, _ = m.Update(tea.KeyPressMsg{Code: tea.KeyUp})
	p := makePayment(1)
	p.Description = "Order payment (partial capture)"
	m.Upsert([]payment{p}, t0)
	m.SetLoading(true)
	return m
}
