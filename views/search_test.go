package views

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend"
	"paydash/backend/money"
	"paydash/views/search"
)

// filteringBackend counts the lists the service narrowed (FilterPayments).
type filteringBackend struct {
	backend.Backend
	filtered atomic.Int64
	last     atomic.Value // backend.PaymentFilter
}

func (f *filteringBackend) FilterPayments(q backend.PeriodQuery, pf backend.PaymentFilter) (backend.Pager[backend.Payment], bool) {
	p, ok := f.Backend.FilterPayments(q, pf)
	if ok {
		f.filtered.Add(1)
		f.last.Store(pf)
	}
	return p, ok
}

// truth is every payment of the env's scope, read straight from the
// backend, that keep accepts.
func (e *env) truth(keep func(backend.Payment) bool) map[string]bool {
	e.t.Helper()
	all, err := backend.Collect(context.Background(), e.b.ListPayments(periodQuery(e.scope)))
	require.NoError(e.t, err)
	out := map[string]bool{}
	for _, p := range all {
		if keep(p) {
			out[p.ID] = true
		}
	}
	return out
}

func shownIDs(p *Payments) map[string]bool {
	out := map[string]bool{}
	for _, r := range p.list.table.Shown() {
		out[r.ID] = true
	}
	return out
}

// The prompt says what is wrong with a search as it is typed, and the list
// keeps the last search that made sense meanwhile.
func TestSearchErrorsAtThePrompt(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{})
	e.size(100, 24)
	e.init()
	p := e.tab.(*Payments)
	e.press("/")
	e.typeText("status:settled")
	require.Equal(t, "status:settled", p.Status().Filter)
	settled := p.Status().Shown
	require.Positive(t, settled)

	e.send(tea.PasteMsg{Content: " amount:>abc"})
	v := ansi.Strip(e.view(100, 24))
	assert.Contains(t, v, `✗ amount:>abc: "abc" is not a number, e.g. amount:>100`)
	assert.Contains(t, v, "/ status:settled amount:>abc")
	assert.Equal(t, "status:settled", p.Status().Filter, "the last good search stays")
	assert.Equal(t, settled, p.Status().Shown)

	// enter does not take a search that does not make sense.
	e.press("enter")
	assert.True(t, p.list.filtering)

	for range len(" amount:>abc") {
		e.press("backspace")
	}
	e.typeText(" statu:x")
	assert.Contains(t, ansi.Strip(e.view(100, 24)), "✗ statu: is not a field here; the fields are status: amount: card: email: phone: order: id: desc:")
	for range len(" statu:x") {
		e.press("backspace")
	}
	e.typeText(" status:c")
	assert.Contains(t, ansi.Strip(e.view(100, 24)), "✗ status: is given twice")
	for range len(" status:c") {
		e.press("backspace")
	}
	assert.NotContains(t, ansi.Strip(e.view(100, 24)), "✗")

	// Without the legacy interface the customer's e-mail is not known:
	// the prompt says so instead of finding nothing.
	e.typeText(" email:petrov")
	assert.Contains(t, ansi.Strip(e.view(100, 24)), "✗ email: cannot be searched: only the legacy interface (v1) gives a payment's customer")
}

// Fields combine with AND, and free words with them; each row shown passes
// every condition, and no row that passes is missing once the period is
// read.
func TestSearchFieldsAgainstTheWholePeriod(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{})
	e.size(120, 30)
	e.init()
	p := e.tab.(*Payments)
	require.False(t, p.list.done, "the period is longer than what is loaded at first")

	e.press("/")
	e.typeText("status:settled,auth amount:100..500")
	e.press("enter")
	require.True(t, p.list.done, "enter reads the whole period for the search")
	lo, hi := money.MustParse("100"), money.MustParse("500")
	want := e.truth(func(p backend.Payment) bool {
		ok := p.Status == backend.PaymentSettled || p.Status == backend.PaymentAuthorized
		return ok && p.Amount.Value >= lo && p.Amount.Value <= hi
	})
	require.NotEmpty(t, want)
	assert.Equal(t, want, shownIDs(p))

	// A free word beside them: an order-number fragment.
	var some backend.Payment
	for _, r := range p.list.table.Shown() {
		if r.OrderNo != "" {
			some = r
			break
		}
	}
	frag := strings.ToLower(some.OrderNo[len(some.OrderNo)-3:])
	e.press("/")
	e.typeText(" " + frag)
	e.press("enter")
	for _, r := range p.list.table.Shown() {
		assert.Contains(t, strings.ToLower(r.OrderNo+r.ID+r.Description+fmtAmount(r.Amount)+r.InstrumentTitle+fmtListTime(paymentTime(r))), frag)
	}
	assert.True(t, shownIDs(p)[some.ID])

	// order: is the whole number, whatever its case.
	e.press("esc")
	e.press("/")
	e.typeText("order:" + strings.ToLower(some.OrderNo))
	e.press("enter")
	assert.Equal(t, e.truth(func(p backend.Payment) bool { return strings.EqualFold(p.OrderNo, some.OrderNo) }), shownIDs(p))

	// card: last digits.
	last4 := ""
	for _, r := range p.list.table.Rows() {
		if d := search.DigitsOf(r.InstrumentTitle); len(d) >= 4 {
			last4 = d[len(d)-4:]
			break
		}
	}
	require.NotEmpty(t, last4)
	e.press("esc")
	e.press("/")
	e.typeText("card:" + last4)
	e.press("enter")
	assert.Equal(t, e.truth(func(p backend.Payment) bool { return strings.HasSuffix(search.DigitsOf(p.InstrumentTitle), last4) }), shownIDs(p))
}

// While a committed search reads the rest of the period, the tab reports
// its progress; matches appear as pages come; esc stops it and keeps what
// was read; enter reads on.
func TestSearchWhileLoadingAndEscStops(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{})
	e.size(120, 30)
	e.init()
	p := e.tab.(*Payments)
	pagesAtStart := e.count.pages.Load()

	e.press("/")
	e.typeText("status:authorized")
	shownBefore := p.Status().Shown
	cmd := e.sendHold(keyPress("enter"))
	require.NotNil(t, cmd)
	st := p.Status()
	assert.True(t, st.Loading)
	assert.Contains(t, st.Progress, "searched "+money.Count(st.Rows)+" rows, back to ")
	assert.Contains(t, st.Progress, "% of the period)…")
	assert.Contains(t, ansi.Strip(e.view(120, 30)), "reading the rest of the list · esc stops")

	// One page arrives: the search goes on by itself, with its next page.
	next := runOne(t, e, cmd)
	require.NotNil(t, next, "the search asks for the next page")
	assert.GreaterOrEqual(t, p.Status().Shown, shownBefore)
	rows := p.Status().Rows

	// esc stops it: the page out still lands, and nothing more is asked.
	e.press("esc")
	assert.Equal(t, "status:authorized", p.Status().Filter, "esc stops the reading, not the search")
	assert.Empty(t, p.Status().Progress)
	pages := e.count.pages.Load()
	e.run(next)
	assert.Greater(t, p.Status().Rows, rows, "the page that was out is kept")
	assert.Equal(t, pages+1, e.count.pages.Load(), "only the page that was out, none after esc")
	assert.False(t, p.list.done)
	assert.Contains(t, ansi.Strip(e.view(120, 30)), "stopped: only the loaded rows")

	// / enter reads on to the end.
	e.press("/")
	e.press("enter")
	assert.True(t, p.list.done)
	assert.Greater(t, e.count.pages.Load(), pagesAtStart+2)
	assert.Equal(t, e.truth(func(p backend.Payment) bool { return p.Status == backend.PaymentAuthorized }), shownIDs(p))

	// A second esc clears the search.
	e.press("esc")
	assert.Empty(t, p.Status().Filter)
}

// runOne runs cmd (through its batches), gives the tab the messages it
// yields, and returns the tab's commands without running them.
func runOne(t *testing.T, e *env, cmd tea.Cmd) tea.Cmd {
	t.Helper()
	var next []tea.Cmd
	queue := []tea.Cmd{cmd}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		switch m := c().(type) {
		case nil:
		case tea.BatchMsg:
			queue = append(queue, m...)
		default:
			next = append(next, e.update(m))
		}
	}
	return tea.Batch(next...)
}

// With the legacy interface, a status and an order number are selected by
// the service (listPaymentsFilter state and invoiceID), and its rows carry
// the customer, whom free words and email: find.
func TestSearchNarrowedByTheLegacyInterface(t *testing.T) {
	t.Parallel()
	for _, mode := range []string{"v1", "both"} {
		t.Run(mode, func(t *testing.T) {
			fb := &filteringBackend{}
			e := newEnv(t, envOpts{v1Only: mode == "v1", withV1: mode == "both", wrap: func(b backend.Backend) backend.Backend {
				fb.Backend = b
				return fb
			}})
			e.size(120, 30)
			e.init()
			p := e.tab.(*Payments)

			e.press("/")
			e.typeText("status:settled")
			assert.Zero(t, fb.filtered.Load(), "typing filters the loaded rows; the service is asked on enter")
			e.press("enter")
			require.Equal(t, int64(1), fb.filtered.Load())
			assert.Equal(t, []backend.PaymentStatus{backend.PaymentSettled}, fb.last.Load().(backend.PaymentFilter).Statuses)
			require.True(t, p.list.done)
			// The legacy interface selects whole UTC days: its list may
			// begin earlier in the first day than the period does.
			want := e.truth(func(p backend.Payment) bool { return p.Status == backend.PaymentSettled })
			require.NotEmpty(t, want)
			shown := shownIDs(p)
			for id := range want {
				assert.True(t, shown[id], "settled payment %s of the period is shown", id)
			}
			for _, r := range p.list.table.Rows() {
				assert.Equal(t, backend.PaymentSettled, r.Status, "only the selected payments were read")
				assert.Equal(t, backend.V1, r.Source)
			}
			assert.Contains(t, ansi.Strip(e.view(120, 30)), "selected by the service")

			// A customer's e-mail, by field and by a free word.
			var who backend.Payment
			for _, r := range p.list.table.Rows() {
				if email, _ := customer(r); strings.Contains(email, "@") {
					who = r
					break
				}
			}
			require.NotEmpty(t, who.ID, "the legacy rows carry the customer")
			email, _ := customer(who)
			local := strings.ToLower(strings.SplitN(email, "@", 2)[0])
			e.press("/")
			e.typeText(" email:" + local)
			e.press("enter")
			assert.True(t, shownIDs(p)[who.ID])
			for _, r := range p.list.table.Shown() {
				em, _ := customer(r)
				assert.Contains(t, strings.ToLower(em), local)
			}
			e.press("esc") // clears: the list is the period's own again
			assert.Empty(t, p.Status().Filter)
			e.press("/")
			e.typeText("status:paid " + local)
			e.press("enter")
			assert.True(t, shownIDs(p)[who.ID], "a free word finds the customer's e-mail")

			// An order number, selected by the service.
			e.press("esc")
			e.press("/")
			e.typeText("order:" + who.OrderNo)
			e.press("enter")
			assert.Equal(t, who.OrderNo, fb.last.Load().(backend.PaymentFilter).OrderNo)
			assert.True(t, shownIDs(p)[who.ID])
			for _, r := range p.list.table.Shown() {
				assert.True(t, strings.EqualFold(who.OrderNo, r.OrderNo))
			}

			// Clearing goes back to the period's own list.
			e.press("esc")
			assert.Empty(t, p.list.narrowed)
			assert.Greater(t, p.list.table.Len(), 0)
		})
	}
}
