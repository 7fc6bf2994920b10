package views

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend/known"
	"paydash/backend/money"
	"paydash/keys"
	"paydash/ui"
	"paydash/views/internal/viewtest"
	"paydash/views/refunds"
	"paydash/views/stickers"
	"paydash/views/tokens"
)

// The format follows the path, also when it changes after the dialog
// asked about an existing file.
func TestExportFormatFollowsThePath(t *testing.T) {
	t.Parallel()
	e := startedEnv(t, viewtest.Opts{Fixed: viewtest.GoldenNow}, 100, 30)
	dir := t.TempDir()
	path := filepath.Join(dir, "p.json")
	e.Send(viewtest.Ctrl('s'))
	d := e.OpenModal()
	d.SaveTo(path)
	require.True(t, d.Closed)
	e.Saved()
	first, err := os.ReadFile(path)
	require.NoError(t, err)
	require.True(t, json.Valid(first))

	e.Send(viewtest.Ctrl('s'))
	d = e.OpenModal()
	d.SaveTo(path)
	require.False(t, d.Closed, "the file exists: the dialog asks")
	assert.Contains(t, viewtest.Flat(d.Screen()), "Overwrite it?")
	d.Press("n")
	d.SaveTo(filepath.Join(dir, "p.CSV"))
	require.True(t, d.Closed, d.Screen())
	e.Saved()
	got, err := os.ReadFile(filepath.Join(dir, "p.CSV"))
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(string(got), strings.Join(viewtest.PaymentHeader, ",")+"\n"), "CSV, not the JSON made for the first path")
	again, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, first, again, "the JSON file was not touched")
}

func TestExportNeedsRowsShown(t *testing.T) {
	t.Parallel()
	e := startedEnv(t, viewtest.Opts{Fixed: viewtest.GoldenNow}, 100, 30)
	e.Press("/")
	e.TypeText("no such payment anywhere")
	e.Press("enter")
	ok, why := e.Tab.Available(keys.ActExport)
	assert.False(t, ok)
	assert.Equal(t, "no row matches the filter: nothing to export", why)
	e.Send(viewtest.Ctrl('s'))
	assert.Empty(t, e.TakeModals())
	toasts := e.Toasts()
	require.Len(t, toasts, 1)
	assert.Equal(t, why, toasts[0].Text)
}

// --- the other tabs -------------------------------------------------------------------

// exportTab presses ctrl+s on the tab, saves to name in dir and returns
// the CSV read back.
func (e *env) exportTab(dir, name string) [][]string {
	e.T.Helper()
	e.Send(viewtest.Ctrl('s'))
	d := e.OpenModal()
	d.SaveTo(filepath.Join(dir, name))
	require.True(e.T, d.Closed, d.Screen())
	e.Saved()
	return viewtest.ReadCSVFile(e.T, filepath.Join(dir, name))
}

func TestRefundsTokensStickersExport(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()

	e := startedEnv(t, viewtest.Opts{Changes: true, Fixed: viewtest.GoldenNow, Tab: refunds.New}, 120, 40)
	r := e.Tab.(*refunds.Refunds)
	recs := e.exportTab(dir, "refunds.csv")
	assert.Equal(t, []string{"id", "status", "amount", "currency", "payment_id", "merchant_id", "created_utc",
		"updated_utc", "result_code", "external_id", "read_through"}, recs[0])
	shown := r.List.Table.Shown()
	require.Len(t, recs, 1+len(shown))
	assert.Equal(t, shown[0].ID, recs[1][0])
	assert.Equal(t, shown[0].PaymentID, recs[1][4])
	sr, err := e.Store().GetRefund(shown[0].ID)
	require.NoError(t, err)
	assert.Equal(t, sr.Amount.Value.StringFixed(money.Decimals(sr.Amount.Currency)), recs[1][2])

	e = newEnv(t, viewtest.Opts{Changes: true, Fixed: viewtest.GoldenNow, Tab: stickers.New})
	e.Size(120, 40)
	e.Init()
	s := e.Tab.(*stickers.Stickers)
	recs = e.exportTab(dir, "stickers.csv")
	assert.Equal(t, []string{"id", "status", "description", "amount", "currency", "any_amount", "type", "cash_link",
		"product_code", "purpose", "merchant_id", "payload", "read_through"}, recs[0])
	require.Len(t, recs, 1+s.List.Table.Filtered())
	assert.Equal(t, s.List.Table.Shown()[0].ID, recs[1][0])

	e = newEnv(t, viewtest.Opts{Changes: true, Tab: tokens.New})
	e.Size(120, 40)
	e.Init()
	ok, why := e.Tab.Available(keys.ActExport)
	assert.False(t, ok)
	assert.Equal(t, "no rows to export", why)
	tok := e.NewToken()
	e.Send(ui.JumpMsg{Query: tok.ID})
	recs = e.exportTab(dir, "tokens.csv")
	assert.Equal(t, []string{"id", "status", "card", "expires_utc", "result_code", "card_brand", "card_issuer",
		"card_country", "card_type", "card_category", "known_from", "first_seen_utc", "last_seen_utc", "payments",
		"payment_ids"}, recs[0])
	require.Len(t, recs, 2)
	assert.Equal(t, tok.ID, recs[1][0])
	assert.Equal(t, "Active", recs[1][1])
	assert.Equal(t, tok.Title, recs[1][2])
	assert.Equal(t, string(known.LookedUp), recs[1][10])
}
