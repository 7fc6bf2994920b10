package payments

import (
	"cmp"
	"context"
	"regexp"
	"slices"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend"
	"paydash/backend/money"
	"paydash/ui"
	"paydash/views/internal/viewtest"
	"paydash/views/tab"
)

// A sort is of the whole period (views/tab/sort.go): choosing one, or reversing,
// reads the rest of the period page by page as a committed search does;
// until it has, and when esc stops it, the line under the list says what
// is sorted. Amounts sort within their currency.

// periodPayments are every payment of the tab's period, read straight
// from the backend, in the list's own order.
func (e *env) periodPayments() []backend.Payment {
	e.T.Helper()
	var out []backend.Payment
	pager := e.B.ListPayments(tab.PeriodQuery(e.Scope))
	for {
		page, err := pager.Next(context.Background())
		require.NoError(e.T, err)
		out = append(out, page.Items...)
		if page.Done {
			return viewtest.OwnOrdered(out)
		}
	}
}

// step runs cmds and delivers what they answer to the tab, once: it
// returns the commands the tab answered with, not run (the next page's
// request), so a test sees the list between two pages.
func (e *env) step(cmds ...tea.Cmd) []tea.Cmd {
	e.T.Helper()
	var next []tea.Cmd
	for len(cmds) > 0 {
		c := cmds[0]
		cmds = cmds[1:]
		if c == nil {
			continue
		}
		switch m := c().(type) {
		case nil:
		case tea.BatchMsg:
			cmds = append(cmds, m...)
		case ui.ToastMsg, ui.ErrorMsg, ui.SwitchTabMsg, ui.OpenDialogMsg, ui.CloseDialogMsg:
			e.Shell = append(e.Shell, m)
		default:
			next = append(next, e.Update(m))
		}
	}
	return next
}

// byCurrencyThenAmount is rows (in the list's own order) sorted stably by
// currency A → Z, then amount.
func byCurrencyThenAmount(rows []backend.Payment, desc bool) []backend.Payment {
	out := slices.Clone(rows)
	slices.SortStableFunc(out, func(a, b backend.Payment) int {
		if c := cmp.Compare(a.Amount.Currency, b.Amount.Currency); c != 0 {
			return c
		}
		if desc {
			return cmp.Compare(b.Amount.Value, a.Amount.Value)
		}
		return cmp.Compare(a.Amount.Value, b.Amount.Value)
	})
	return out
}

// S on a period whose rows do not fit a page reads the whole period: the
// top is the oldest payment of the period, not of the loaded page.
func TestSortReverseReadsTheWholePeriod(t *testing.T) {
	t.Parallel()
	e := newEnv(t, viewtest.Opts{Fixed: viewtest.GoldenNow})
	e.Scope.Start = viewtest.GoldenNow.AddDate(0, 0, -30)
	e.Size(120, 40)
	e.Init()
	p := e.Tab.(*Payments)
	require.False(t, p.List.Done, "the period holds more than the first page")
	period := e.periodPayments()
	require.Greater(t, len(period), p.List.Table.Len())

	e.Press("S")
	require.True(t, p.List.Done, "the sort read the rest of the period")
	rows := p.List.Table.Rows()
	require.Len(t, rows, len(period))
	oldest := slices.MinFunc(period, func(a, b backend.Payment) int { return tab.PaymentTime(a).Compare(tab.PaymentTime(b)) })
	assert.Equal(t, oldest.ID, rows[0].ID, "the oldest of the whole period on top")
	assert.True(t, slices.IsSortedFunc(rows, func(a, b backend.Payment) int { return tab.PaymentTime(a).Compare(tab.PaymentTime(b)) }))

	// The rows read went above the row the cursor was on, which kept its
	// line: the line under the list says so, and g shows them.
	bottom := trimRight(e.bottomLine(120, 40))
	assert.Regexp(t, `^↑ [\d,]+ sorted above · g  sorted by Created ▲ oldest first \(s column · S reverse\)$`, bottom)
	e.Press("g")
	assert.Equal(t, oldest.ID, p.List.Table.SelectedID())
	assert.Equal(t, 1, viewtest.SelectedLine(e.View(120, 40)))
	assert.Equal(t, "sorted by Created ▲ oldest first (s column · S reverse)", trimRight(e.bottomLine(120, 40)))
}

// s a: the largest amount of the period on top, not of the loaded page.
func TestSortByAmountReadsTheWholePeriod(t *testing.T) {
	t.Parallel()
	e := newEnv(t, viewtest.Opts{Fixed: viewtest.GoldenNow})
	e.Scope.Start = viewtest.GoldenNow.AddDate(0, 0, -30)
	e.Size(120, 40)
	e.Init()
	p := e.Tab.(*Payments)
	require.False(t, p.List.Done)
	period := e.periodPayments()
	for _, r := range period {
		require.Equal(t, "RUB", r.Amount.Currency, "a merchant of one currency")
	}

	e.SortBy("Amount")
	require.True(t, p.List.Done)
	assert.Equal(t, paymentIDs(byCurrencyThenAmount(period, true)), paymentIDs(p.List.Table.Rows()))
	e.Press("g")
	largest := slices.MaxFunc(period, func(a, b backend.Payment) int { return cmp.Compare(a.Amount.Value, b.Amount.Value) })
	sel, _ := p.List.Selected()
	assert.Equal(t, largest.Amount, sel.Amount, "the largest of the period on top")
}

// A merchant taking RUB, EUR and USD: amounts sort within their currency,
// the currencies A → Z in either direction, never as bare numbers.
func TestSortAmountsWithinTheirCurrency(t *testing.T) {
	t.Parallel()
	e := newEnv(t, viewtest.Opts{Fixed: viewtest.GoldenNow})
	e.Scope.MerchantID = "1003"
	e.Size(120, 40)
	e.Init()
	p := e.Tab.(*Payments)
	period := e.periodPayments()
	currencies := map[string]bool{}
	for _, r := range period {
		currencies[r.Amount.Currency] = true
	}
	require.True(t, currencies["EUR"] && currencies["RUB"], "the period has EUR and RUB payments: %v", currencies)

	e.SortBy("Amount")
	assert.Equal(t, paymentIDs(byCurrencyThenAmount(period, true)), paymentIDs(p.List.Table.Rows()),
		"EUR largest first, then RUB largest first, then USD")
	assert.Equal(t, "sorted by Amount ▼ largest first in each currency (s column · S reverse)", trimRight(e.bottomLine(120, 40)))
	e.Press("S")
	assert.Equal(t, paymentIDs(byCurrencyThenAmount(period, false)), paymentIDs(p.List.Table.Rows()),
		"reversed within each currency; the currencies keep their order")
}

// While the sort reads, the line under the list says what is sorted and
// the status bar how far it got; the row under the cursor stays on its
// line as pages arrive; esc stops the read, and the line then says the
// sort is of the loaded rows; s enter reads on.
func TestSortReadingSaysWhatIsSortedAndEscStops(t *testing.T) {
	t.Parallel()
	e := newEnv(t, viewtest.Opts{Fixed: viewtest.GoldenNow})
	e.Scope.Start = viewtest.GoldenNow.AddDate(0, 0, -30)
	e.Size(120, 40)
	e.Init()
	p := e.Tab.(*Payments)
	require.False(t, p.List.Done)
	e.Press("j", "j", "j", "j", "j")

	next := []tea.Cmd{e.SendHold(viewtest.KeyPress("S"))} // the next page asked for, not yet read
	require.True(t, p.List.SortReading)
	sel := p.List.Table.SelectedID()
	line := viewtest.SelectedLine(e.View(120, 40))
	reading := regexp.MustCompile(`^sorted by Created ▲ oldest first: loaded ([\d,]+) of ~([\d,]+) — reading the rest · esc stops$`)
	m := reading.FindStringSubmatch(trimRight(e.bottomLine(120, 40)))
	require.NotNil(t, m, "%q", e.bottomLine(120, 40))
	assert.Equal(t, money.Count(p.List.Table.Len()), m[1])
	st := p.List.Status()
	assert.True(t, st.Loading)
	assert.Regexp(t, `^read [\d,]+ rows for the sort, back to .* \(\d+% of the period\)…$`, st.Progress)
	t.Logf("loaded %s of ~%s; the period holds %d", m[1], m[2], len(e.periodPayments()))

	// Pages arrive: the row under the cursor keeps its line.
	for range 2 {
		next = e.step(next...)
		require.False(t, p.List.Done, "the period holds more pages")
		assert.Equal(t, sel, p.List.Table.SelectedID())
		assert.Equal(t, line, viewtest.SelectedLine(e.View(120, 40)), "the cursor's row stays on its line")
	}

	// esc stops: the page already asked for still arrives, no other.
	e.Press("esc")
	e.Run(tea.Batch(next...))
	require.False(t, p.List.Done)
	assert.False(t, p.List.SortReading)
	loaded := p.List.Table.Len()
	assert.Regexp(t, `sorted by Created ▲ oldest first: the `+money.Count(loaded)+` loaded rows — the period holds more \(s enter reads on\)$`,
		trimRight(e.bottomLine(120, 40)))
	assert.Equal(t, sel, p.List.Table.SelectedID())
	assert.Empty(t, p.List.Status().Progress)

	// s enter: the current sort again reads on to the end.
	d := e.OpenSort()
	assert.Contains(t, d.Screen(), "now: Created ▲ oldest first: "+money.Count(loaded)+" loaded rows only", "the chooser says what is sorted now")
	d.Press("enter")
	require.True(t, d.Closed)
	assert.True(t, p.List.Done)
	assert.Regexp(t, `sorted by Created ▲ oldest first \(s column · S reverse\)$`, trimRight(e.bottomLine(120, 40)))
	assert.Len(t, p.List.Table.Rows(), len(e.periodPayments()))
	assert.Equal(t, sel, p.List.Table.SelectedID())
}

// Another period with a sort on: the sort stays and reads the whole new
// period.
func TestSortReadsANewPeriodWhole(t *testing.T) {
	t.Parallel()
	e, p := started(t, viewtest.Opts{Fixed: viewtest.GoldenNow}, 120, 40)
	e.Press("S")
	require.True(t, p.List.Done)

	e.Scope.Start = viewtest.GoldenNow.AddDate(0, 0, -30)
	e.Send(ui.ScopeMsg{Scope: e.Scope})
	key, desc := p.List.Table.SortKey()
	assert.Equal(t, "created", key)
	assert.False(t, desc)
	require.True(t, p.List.Done, "the new period read whole for the sort")
	period := e.periodPayments()
	assert.Len(t, p.List.Table.Rows(), len(period))
	assert.True(t, slices.IsSortedFunc(p.List.Table.Rows(), func(a, b backend.Payment) int { return tab.PaymentTime(a).Compare(tab.PaymentTime(b)) }))
}
