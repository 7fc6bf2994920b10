package payments

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend"
	"paydash/backend/money"
	"paydash/backend/sandbox"
	"paydash/views/internal/viewtest"
)

// heldOver is how many of the merchant's held payments in the env's scope
// are above value, from the sandbox's own store.
func (e *env) heldOver(value string) int {
	e.T.Helper()
	ps, _ := e.Store().FilterPayments(sandbox.PaymentFilter{MerchantIDs: []string{e.Scope.MerchantID},
		Start: e.Scope.Start, End: e.Scope.End, Limit: 100000})
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
	e.T.Helper()
	e.Press("/")
	e.TypeText(text)
	e.Press("enter")
}

// A comparison typed without the colon is a condition: the rows are those
// held above the amount, not none.
func TestSearchAmountWithoutColonGivesRows(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		o    viewtest.Opts
	}{{"v2", viewtest.Opts{Changes: true}}, {"both", viewtest.Opts{Changes: true, WithV1: true}}} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, tc.o)
			big := e.NewPayment(true, "1500")
			e.NewPayment(true, "800")
			e.NewPayment(false, "2500")
			e.Size(120, 30)
			e.Init()
			p := e.Tab.(*Payments)
			want := e.heldOver("1000")
			require.Positive(t, want)

			e.search("status:held amount>1000")
			assert.Empty(t, p.List.SearchErr)
			assert.Equal(t, "status:held amount>1000", p.List.Table.FilterText())
			shown := p.List.Table.Shown()
			assert.Len(t, shown, want, "every held payment above 1000 of the period")
			ids := []string{}
			for _, r := range shown {
				ids = append(ids, r.ID)
				assert.Equal(t, backend.PaymentAuthorized, r.Status)
				assert.Greater(t, r.Amount.Value, money.MustParse("1000"))
			}
			assert.Contains(t, ids, big.ID)
			assert.Contains(t, ansi.Strip(e.View(120, 30)), "search: status:held amount>1000")
		})
	}
}

// A search that read the whole period and found nothing says so, and where
// else to look: ":" for a payment of any period, "p" for a longer period.
func TestSearchNothingFoundSaysWhereElseToLook(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		o    viewtest.Opts
	}{{"v2", viewtest.Opts{}}, {"both", viewtest.Opts{WithV1: true}}} {
		t.Run(tc.name, func(t *testing.T) {
			e := startedEnv(t, tc.o, 80, 24)
			p := e.Tab.(*Payments)
			e.search("status:held amount>999999")
			require.True(t, p.List.Done, "the whole period was read")
			require.Zero(t, p.List.Table.Filtered())
			screen := ansi.Strip(e.View(80, 24))
			assert.Contains(t, screen, "No match · : finds an id or order number in any period · p a longer period")
			assert.Contains(t, screen, "search: status:held amount>999999  (none in this period · / edit · esc clears)")
			for _, l := range strings.Split(screen, "\n") {
				assert.LessOrEqual(t, ansi.StringWidth(l), 80)
			}
		})
	}
}
