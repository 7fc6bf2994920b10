package payments

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
	"paydash/ui"
	"paydash/views/internal/viewtest"
	"paydash/views/search"
	"paydash/views/tab"
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
	e.T.Helper()
	all, err := backend.Collect(context.Background(), e.B.ListPayments(tab.PeriodQuery(e.Scope)))
	require.NoError(e.T, err)
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
	for _, r := range p.List.Table.Shown() {
		out[r.ID] = true
	}
	return out
}

// The prompt says what is wrong with a search as it is typed, and the list
// keeps the last search that made sense meanwhile.
func TestSearchErrorsAtThePrompt(t *testing.T) {
	t.Parallel()
	e, p := started(t, viewtest.Opts{}, 100, 24)
	e.Press("/")
	e.TypeText("status:settled")
	require.Equal(t, "status:settled", p.Status().Filter)
	settled := p.Status().Shown
	require.Positive(t, settled)

	e.Send(tea.PasteMsg{Content: " amount:>abc"})
	v := ansi.Strip(e.View(100, 24))
	assert.Contains(t, v, `✗ amount:>abc: "abc" is not a number, e.g. amount:>100`)
	assert.Contains(t, v, "/ status:settled amount:>abc")
	assert.Equal(t, "status:settled", p.Status().Filter, "the last good search stays")
	assert.Equal(t, settled, p.Status().Shown)

	// enter does not take a search that does not make sense.
	e.Press("enter")
	assert.True(t, p.List.Filtering)

	for range len(" amount:>abc") {
		e.Press("backspace")
	}
	e.TypeText(" statu:x")
	assert.Contains(t, ansi.Strip(e.View(140, 24)), "✗ statu: is not a field here; the fields are status: amount: card: email: phone: order: code: id: desc:")
	for range len(" statu:x") {
		e.Press("backspace")
	}
	e.TypeText(" status:c")
	assert.Contains(t, ansi.Strip(e.View(100, 24)), "✗ status: is given twice")
	for range len(" status:c") {
		e.Press("backspace")
	}
	assert.NotContains(t, ansi.Strip(e.View(100, 24)), "✗")

	// Without the legacy interface the customer's e-mail is not known:
	// the prompt says so instead of finding nothing.
	e.TypeText(" email:petrov")
	assert.Contains(t, ansi.Strip(e.View(100, 24)), "✗ email: cannot be searched: only the legacy interface (v1) gives a payment's customer")
}

// Fields combine with AND, and free words with them; each row shown passes
// every condition, and no row that passes is missing once the period is
// read.
func TestSearchFieldsAgainstTheWholePeriod(t *testing.T) {
	t.Parallel()
	e, p := started(t, viewtest.Opts{}, 120, 30)
	require.False(t, p.List.Done, "the period is longer than what is loaded at first")

	e.Press("/")
	e.TypeText("status:settled,auth amount:100..500")
	e.Press("enter")
	require.True(t, p.List.Done, "enter reads the whole period for the search")
	lo, hi := money.MustParse("100"), money.MustParse("500")
	want := e.truth(func(p backend.Payment) bool {
		ok := p.Status == backend.PaymentSettled || p.Status == backend.PaymentAuthorized
		return ok && p.Amount.Value >= lo && p.Amount.Value <= hi
	})
	require.NotEmpty(t, want)
	assert.Equal(t, want, shownIDs(p))

	// A free word beside them: an order-number fragment.
	var some backend.Payment
	for _, r := range p.List.Table.Shown() {
		if r.OrderNo != "" {
			some = r
			break
		}
	}
	frag := strings.ToLower(some.OrderNo[len(some.OrderNo)-3:])
	e.Press("/")
	e.TypeText(" " + frag)
	e.Press("enter")
	for _, r := range p.List.Table.Shown() {
		assert.Contains(t, strings.ToLower(r.OrderNo+r.ID+r.Description+tab.FmtAmount(r.Amount)+r.InstrumentTitle+tab.FmtListTime(tab.PaymentTime(r))), frag)
	}
	assert.True(t, shownIDs(p)[some.ID])

	// order: is the whole number, whatever its case.
	e.Press("esc")
	e.Press("/")
	e.TypeText("order:" + strings.ToLower(some.OrderNo))
	e.Press("enter")
	assert.Equal(t, e.truth(func(p backend.Payment) bool { return strings.EqualFold(p.OrderNo, some.OrderNo) }), shownIDs(p))

	// card: last digits.
	last4 := ""
	for _, r := range p.List.Table.Rows() {
		if d := search.DigitsOf(r.InstrumentTitle); len(d) >= 4 {
			last4 = d[len(d)-4:]
			break
		}
	}
	require.NotEmpty(t, last4)
	e.Press("esc")
	e.Press("/")
	e.TypeText("card:" + last4)
	e.Press("enter")
	assert.Equal(t, e.truth(func(p backend.Payment) bool { return strings.HasSuffix(search.DigitsOf(p.InstrumentTitle), last4) }), shownIDs(p))
}

// While a committed search reads the rest of the period, the tab reports
// its progress; matches appear as pages come; esc stops it and keeps what
// was read; enter reads on.
func TestSearchWhileLoadingAndEscStops(t *testing.T) {
	t.Parallel()
	e, p := started(t, viewtest.Opts{}, 120, 30)
	pagesAtStart := e.Count.Pages.Load()

	e.Press("/")
	e.TypeText("status:authorized")
	shownBefore := p.Status().Shown
	cmd := e.SendHold(viewtest.KeyPress("enter"))
	require.NotNil(t, cmd)
	st := p.Status()
	assert.True(t, st.Loading)
	assert.Contains(t, st.Progress, "searched "+money.Count(st.Rows)+" rows, back to ")
	assert.Contains(t, st.Progress, "% of the period)…")
	assert.Contains(t, ansi.Strip(e.View(120, 30)), "reading the rest of the list · esc stops")

	// One page arrives: the search goes on by itself, with its next page.
	next := runOne(t, e, cmd)
	require.NotNil(t, next, "the search asks for the next page")
	assert.GreaterOrEqual(t, p.Status().Shown, shownBefore)
	rows := p.Status().Rows

	// esc stops it: the page out still lands, and nothing more is asked.
	e.Press("esc")
	assert.Equal(t, "status:authorized", p.Status().Filter, "esc stops the reading, not the search")
	assert.Empty(t, p.Status().Progress)
	pages := e.Count.Pages.Load()
	e.Run(next)
	assert.Greater(t, p.Status().Rows, rows, "the page that was out is kept")
	assert.Equal(t, pages+1, e.Count.Pages.Load(), "only the page that was out, none after esc")
	assert.False(t, p.List.Done)
	assert.Contains(t, ansi.Strip(e.View(120, 30)), "stopped: only the loaded rows")

	// / enter reads on to the end.
	e.Press("/")
	e.Press("enter")
	assert.True(t, p.List.Done)
	assert.Greater(t, e.Count.Pages.Load(), pagesAtStart+2)
	assert.Equal(t, e.truth(func(p backend.Payment) bool { return p.Status == backend.PaymentAuthorized }), shownIDs(p))

	// A second esc clears the search.
	e.Press("esc")
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
			next = append(next, e.Update(m))
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
			e := startedEnv(t, viewtest.Opts{V1Only: mode == "v1", WithV1: mode == "both", Wrap: func(b backend.Backend) backend.Backend {
				fb.Backend = b
				return fb
			}}, 120, 30)
			p := e.Tab.(*Payments)

			e.Press("/")
			e.TypeText("status:settled")
			assert.Zero(t, fb.filtered.Load(), "typing filters the loaded rows; the service is asked on enter")
			e.Press("enter")
			require.Equal(t, int64(1), fb.filtered.Load())
			assert.Equal(t, []backend.PaymentStatus{backend.PaymentSettled}, fb.last.Load().(backend.PaymentFilter).Statuses)
			require.True(t, p.List.Done)
			// The legacy interface selects whole UTC days: its list may
			// begin earlier in the first day than the period does.
			want := e.truth(func(p backend.Payment) bool { return p.Status == backend.PaymentSettled })
			require.NotEmpty(t, want)
			shown := shownIDs(p)
			for id := range want {
				assert.True(t, shown[id], "settled payment %s of the period is shown", id)
			}
			for _, r := range p.List.Table.Rows() {
				assert.Equal(t, backend.PaymentSettled, r.Status, "only the selected payments were read")
				assert.Equal(t, backend.V1, r.Source)
			}
			assert.Contains(t, ansi.Strip(e.View(120, 30)), "selected by the service")

			// A customer's e-mail, by field and by a free word.
			var who backend.Payment
			for _, r := range p.List.Table.Rows() {
				if email, _ := tab.Customer(r); strings.Contains(email, "@") {
					who = r
					break
				}
			}
			require.NotEmpty(t, who.ID, "the legacy rows carry the customer")
			email, _ := tab.Customer(who)
			local := strings.ToLower(strings.SplitN(email, "@", 2)[0])
			e.Press("/")
			e.TypeText(" email:" + local)
			e.Press("enter")
			assert.True(t, shownIDs(p)[who.ID])
			for _, r := range p.List.Table.Shown() {
				em, _ := tab.Customer(r)
				assert.Contains(t, strings.ToLower(em), local)
			}
			e.Press("esc") // clears: the list is the period's own again
			assert.Empty(t, p.Status().Filter)
			e.Press("/")
			e.TypeText("status:paid " + local)
			e.Press("enter")
			assert.True(t, shownIDs(p)[who.ID], "a free word finds the customer's e-mail")

			// An order number, selected by the service.
			e.Press("esc")
			e.Press("/")
			e.TypeText("order:" + who.OrderNo)
			e.Press("enter")
			assert.Equal(t, who.OrderNo, fb.last.Load().(backend.PaymentFilter).OrderNo)
			assert.True(t, shownIDs(p)[who.ID])
			for _, r := range p.List.Table.Shown() {
				assert.True(t, strings.EqualFold(who.OrderNo, r.OrderNo))
			}

			// Clearing goes back to the period's own list.
			e.Press("esc")
			assert.Empty(t, p.List.Narrowed)
			assert.Greater(t, p.List.Table.Len(), 0)
		})
	}
}

// A search sent as exact (the Overview's) reads the period's own list, not
// one the legacy interface narrows by whole days, until it is edited.
func TestAnExactSearchIsNotNarrowedByTheService(t *testing.T) {
	t.Parallel()
	fb := &filteringBackend{}
	e, p := started(t, viewtest.Opts{WithV1: true, Wrap: func(b backend.Backend) backend.Backend {
		fb.Backend = b
		return fb
	}}, 120, 30)
	e.Send(ui.SearchMsg{Query: "status:settled", Exact: true})
	assert.Zero(t, fb.filtered.Load(), "the service was not asked to select")
	assert.Empty(t, p.List.Narrowed)
	require.True(t, p.List.Done)
	want := e.truth(func(p backend.Payment) bool { return p.Status == backend.PaymentSettled })
	assert.Equal(t, want, shownIDs(p), "exactly the period's settled payments")

	// Edited and entered, it is a search like any other.
	e.Press("/")
	e.Press("enter")
	assert.Equal(t, int64(1), fb.filtered.Load())
	assert.NotEmpty(t, p.List.Narrowed)
}
