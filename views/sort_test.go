package views

import (
	"cmp"
	"context"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend"
	"paydash/backend/known"
	"paydash/ui/datatable"
	"paydash/views/internal/viewtest"
	"paydash/views/payments"
	"paydash/views/refunds"
	"paydash/views/registers"
	"paydash/views/stickers"
	"paydash/views/tab"
	"paydash/views/tokens"
)

func TestSortOnTheOtherTabs(t *testing.T) {
	t.Parallel()
	// Refunds.
	e := startedEnv(t, viewtest.Opts{Fixed: viewtest.GoldenNow, Tab: refunds.New}, 120, 40)
	r := e.Tab.(*refunds.Refunds)
	require.Positive(t, r.List.Table.Len())
	e.SortBy("Amount")
	assert.True(t, slices.IsSortedFunc(r.List.Table.Rows(), func(a, b backend.Refund) int {
		return cmp.Compare(b.Amount.Value, a.Amount.Value)
	}))

	// Stickers: their own order is by id, newest first; S: oldest first.
	e = newEnv(t, viewtest.Opts{Fixed: viewtest.GoldenNow, Tab: stickers.New})
	e.Size(120, 40)
	e.Init()
	s := e.Tab.(*stickers.Stickers)
	require.Positive(t, s.List.Table.Len())
	e.Press("S")
	key, desc := s.List.Table.SortKey()
	assert.Equal(t, "id", key)
	assert.False(t, desc)
	assert.True(t, slices.IsSortedFunc(s.List.Table.Rows(), func(a, b backend.Sticker) int { return tab.CmpIDs(a.ID, b.ID) }))
}

// The Ranks withRanks gives the columns order the rows exactly as their
// Less does (the datatable sorts by them), within a Group (a currency):
// checked on the sandbox's rows, every pair of a sample, for every list.
func TestRanksAgreeWithLess(t *testing.T) {
	t.Parallel()
	e := newEnv(t, viewtest.Opts{WithV1: true, Fixed: viewtest.GoldenNow})
	ctx := context.Background()
	var pays []backend.Payment
	pager := e.B.ListPayments(tab.PeriodQuery(e.Scope))
	for len(pays) < 400 {
		page, err := pager.Next(ctx)
		require.NoError(t, err)
		pays = append(pays, page.Items...)
		if page.Done {
			break
		}
	}
	pays = append(pays, backend.Payment{ID: "7", Updated: viewtest.GoldenNow}, backend.Payment{ID: "12"})
	checkRanks(t, payments.PaymentColumns(nil), pays)

	var rfs []backend.Refund
	rp := e.B.ListRefunds(tab.PeriodQuery(e.Scope))
	for page, err := rp.Next(ctx); err == nil; page, err = rp.Next(ctx) {
		rfs = append(rfs, page.Items...)
		if page.Done || len(rfs) > 300 {
			break
		}
	}
	require.NotEmpty(t, rfs)
	checkRanks(t, refunds.RefundColumns(), rfs)

	page, err := e.B.ListStickers(backend.StickerQuery{MerchantID: e.Scope.MerchantID}).Next(ctx)
	require.NoError(t, err)
	require.NotEmpty(t, page.Items)
	checkRanks(t, stickers.StickerColumns(nil), page.Items)

	days := backend.DayQuery{From: viewtest.GoldenNow.AddDate(0, 0, -30), To: viewtest.GoldenNow}
	transfers, err := e.B.ListTransfers(ctx, days)
	require.NoError(t, err)
	require.NotEmpty(t, transfers)
	checkRanks(t, registers.TransferColumns(), transfers)
	docs, err := e.B.ListDocuments(ctx, days)
	require.NoError(t, err)
	checkRanks(t, registers.DocumentColumns(), docs)

	seen := viewtest.GoldenNow.Add(-time.Hour)
	toks := []tab.TokenView{
		{Token: known.Token{ID: "t1", Expires: viewtest.GoldenNow.AddDate(2, 0, 0), LastSeen: seen, Payments: []string{"1", "2"}}},
		{Token: known.Token{ID: "t2", LastSeen: seen.Add(time.Minute)}},
		{Token: known.Token{ID: "t3", Expires: viewtest.GoldenNow.AddDate(1, 0, 0), LastSeen: seen, Payments: []string{"3"}}},
	}
	checkRanks(t, tokens.TokenColumns(func(tab.TokenView) string { return "" }), toks)
}

// checkRanks checks every ranked column against its Less on rows.
func checkRanks[T any](t *testing.T, cols []datatable.Column[T], rows []T) {
	t.Helper()
	ranked := 0
	for _, c := range tab.WithRanks(cols) {
		if c.Rank == nil {
			continue
		}
		ranked++
		for i := range rows {
			ri, ok := c.Rank(rows[i])
			if !ok {
				continue
			}
			for j := range rows {
				rj, ok := c.Rank(rows[j])
				if !ok || (c.Group != nil && c.Group(rows[i]) != c.Group(rows[j])) {
					continue // a Rank orders the rows of one group
				}
				require.Equal(t, c.Less(rows[i], rows[j]), cmp.Compare(ri, rj),
					"column %s: rows %d and %d", c.Key, i, j)
			}
		}
	}
	require.Positive(t, ranked, "some column is ranked")
}

// --- golden screens -------------------------------------------------------------

func TestGoldenSortedPayments(t *testing.T) {
	t.Parallel()
	for _, sz := range [][2]int{{80, 24}, {200, 50}} {
		e := newEnv(t, viewtest.Opts{Fixed: viewtest.GoldenNow})
		e.Size(sz[0], sz[1])
		e.Init()
		e.SortBy("Amount")
		e.Press("j", "j")
		viewtest.GoldenCheck(t, "sorted_"+strconv.Itoa(sz[0])+"x"+strconv.Itoa(sz[1]), ansi.Strip(e.View(sz[0], sz[1])))
	}
}
