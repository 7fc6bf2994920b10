package views

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend"
	"paydash/backend/money"
	"paydash/backend/sandbox"
)

// heldOver is how many of the merchant's held payments in the env's scope
// are above value, from the sandbox's own store.
func (e *env) heldOver(value string) int {
	e.t.Helper()
	ps, _ := e.srv.Store().FilterPayments(sandbox.PaymentFilter{MerchantIDs: []string{e.scope.MerchantID},
		Start: e.scope.Start, End: e.scope.End, Limit: 100000})
	n := 0
	for _, p := range ps {
		if p.Status == sandbox.PaymentAuthorized && p.Amount.Value > money.MustParse(value) {
			n++
		}
	}
	return n
}

// search types a search at the "/" prompt and commits it (enter).
func (e *env) search(text string) {
	e.t.Helper()
	e.press("/")
	e.typeText(text)
	e.press("enter")
}

// A comparison typed without the colon is a condition: the rows are those
// held above the amount, not none.
func TestSearchAmountWithoutColonGivesRows(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		o    envOpts
	}{{"v2", envOpts{}}, {"both", envOpts{withV1: true}}} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, tc.o)
			big := e.newPayment(true, "1500")
			e.newPayment(true, "800")
			e.newPayment(false, "2500")
			e.size(120, 30)
			e.init()
			p := e.tab.(*Payments)
			want := e.heldOver("1000")
			require.Positive(t, want)

			e.search("status:held amount>1000")
			assert.Empty(t, p.list.searchErr)
			assert.Equal(t, "status:held amount>1000", p.list.table.FilterText())
			shown := p.list.table.Shown()
			assert.Len(t, shown, want, "every held payment above 1000 of the period")
			ids := []string{}
			for _, r := range shown {
				ids = append(ids, r.ID)
				assert.Equal(t, backend.PaymentAuthorized, r.Status)
				assert.Greater(t, r.Amount.Value, money.MustParse("1000"))
			}
			assert.Contains(t, ids, big.ID)
			assert.Contains(t, ansi.Strip(e.view(120, 30)), "search: status:held amount>1000")
		})
	}
}

// The prompt says a field typed apart from its value as it is typed.
func TestSearchSaysDidYouMean(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{})
	e.size(80, 24)
	e.init()
	e.press("/")
	e.typeText("status:held amount > 1000")
	assert.Contains(t, ansi.Strip(e.view(80, 24)), "✗ did you mean amount:>1000?")
}

// A search that read the whole period and found nothing says so, and where
// else to look: ":" for a payment of any period, "p" for a longer period.
func TestSearchNothingFoundSaysWhereElseToLook(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		o    envOpts
	}{{"v2", envOpts{}}, {"both", envOpts{withV1: true}}} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, tc.o)
			e.size(80, 24)
			e.init()
			p := e.tab.(*Payments)
			e.search("status:held amount>999999")
			require.True(t, p.list.done, "the whole period was read")
			require.Zero(t, p.list.table.Filtered())
			screen := ansi.Strip(e.view(80, 24))
			assert.Contains(t, screen, "No match · : finds an id or order number in any period · p a longer period")
			assert.Contains(t, screen, "search: status:held amount>999999  (none in this period · / edit · esc clears)")
			for _, l := range strings.Split(screen, "\n") {
				assert.LessOrEqual(t, ansi.StringWidth(l), 80)
			}
		})
	}
}
