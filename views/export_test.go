package views

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend"
	"paydash/backend/known"
	"paydash/backend/money"
	"paydash/backend/textsafe"
	"paydash/keys"
	"paydash/ui"
)

// readCSVFile reads an exported CSV file whole.
func readCSVFile(t *testing.T, path string) [][]string {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	require.NoError(t, err)
	return recs
}

// readJSONFile reads an exported JSON file: an array of objects whose
// values are strings or null.
func readJSONFile(t *testing.T, path string) []map[string]*string {
	t.Helper()
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	var out []map[string]*string
	require.NoError(t, json.Unmarshal(data, &out), "%s", data)
	return out
}

// boxText is a dialog's text as one line of words, its border left out.
func boxText(s string) string {
	for _, b := range []string{"│", "╭", "╮", "╰", "╯", "─"} {
		s = strings.ReplaceAll(s, b, " ")
	}
	return strings.Join(strings.Fields(s), " ")
}

func strp(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// --- the Payments tab ------------------------------------------------------------

// paymentHeader is the export's header: the fields, in their order.
var paymentHeader = []string{"id", "status", "amount", "currency", "captured", "refunded", "created_utc",
	"completed_utc", "updated_utc", "order_no", "description", "invoice_expires_utc", "invoice_params",
	"customer_ip", "customer_identifier", "customer_phone", "payment_method", "instrument", "card_brand",
	"card_issuer", "card_country", "card_type", "card_category", "agreement", "token_id", "merchant_id",
	"result_code", "result_meaning", "message", "confirmation", "payment_url", "test_mode", "read_through",
	"v1_state", "v1_paid_amount", "v1_error_code"}

func rfc3339(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

// TestPaymentsExportAfterFilterAndSort exports the Payments list after a
// filter and a sort, to CSV and to JSON, and reads both back: the rows
// shown, in the order shown, field by field, and as the sandbox has them.
func TestPaymentsExportAfterFilterAndSort(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{fixed: goldenNow, withV1: true})
	e.scope.Start = goldenNow.AddDate(0, 0, -30)
	e.size(120, 40)
	e.init()
	e.loadPages(1)
	p := e.tab.(*Payments)
	dir := t.TempDir()

	e.press("/")
	e.typeText("settled")
	e.press("enter")
	e.sortBy("Amount")
	// The pane's payment, a card payment partly refunded, is read in full
	// with its refunds: its refunded amount is known, and its row is the
	// detailed one.
	e.press("g")
	for _, r := range p.list.table.Shown() {
		sp, err := e.srv.Store().GetPayment(r.ID)
		require.NoError(t, err)
		if sp.Instrument != nil && sp.Instrument.Card != nil && sp.Refunded.IsPositive() && sp.Customer != nil {
			break
		}
		e.press("j")
	}
	e.press("enter")
	require.True(t, p.detail.isOpen())
	require.True(t, p.refunds.loaded)
	open := p.detail.obj
	shown := p.list.table.Shown()
	require.Greater(t, len(shown), 50)
	require.Less(t, len(shown), p.list.table.Len(), "the filter hides rows")
	for i, r := range shown {
		require.Equal(t, backend.PaymentSettled, r.Status)
		if i > 0 {
			require.GreaterOrEqual(t, shown[i-1].Amount.Value, r.Amount.Value, "largest first")
		}
	}

	e.send(ctrl('s'))
	d := e.openModal()
	screen := boxText(d.screen())
	assert.Contains(t, screen, "Export the payments shown")
	assert.Contains(t, screen, "> payments-"+e.scope.MerchantID+"-2026-11-20.csv")
	assert.Contains(t, screen, "the "+money.Count(len(shown))+" payments shown (filter “settled”; sorted by Amount ▼ largest first in each currency)", "enter read the whole period for the search")
	assert.Contains(t, screen, "amounts exact, times UTC (ISO 8601). A path ending in .json saves JSON")
	d.saveTo(filepath.Join(dir, "payments.csv"))
	require.True(t, d.closed, d.screen())
	assert.Contains(t, e.saved(), filepath.Join(dir, "payments.csv"))

	recs := readCSVFile(t, filepath.Join(dir, "payments.csv"))
	require.Len(t, recs, 1+len(shown), "a header and a row per payment shown")
	assert.Equal(t, paymentHeader, recs[0])
	col := map[string]int{}
	for i, n := range recs[0] {
		col[n] = i
	}
	for i, r := range shown {
		row := recs[1+i]
		get := func(name string) string { return row[col[name]] }
		places := money.Decimals(r.Amount.Currency)
		assert.Equal(t, r.ID, get("id"))
		assert.Equal(t, string(r.Status), get("status"))
		assert.Equal(t, r.Amount.Value.StringFixed(places), get("amount"))
		assert.Regexp(t, `^\d+\.\d{`+strconv.Itoa(places)+`}$`, get("amount"), "exact, the currency's places")
		assert.Equal(t, r.Amount.Currency, get("currency"))
		assert.Equal(t, get("amount"), get("captured"), "a settled payment's captured amount")
		assert.Equal(t, rfc3339(r.Created), get("created_utc"))
		assert.Equal(t, rfc3339(r.Completed), get("completed_utc"))
		assert.Equal(t, r.OrderNo, get("order_no"))
		assert.Equal(t, r.Description, get("description"))
		assert.Equal(t, r.InstrumentTitle, get("instrument"))
		assert.Equal(t, r.MerchantID, get("merchant_id"))
		assert.Equal(t, string(r.Source), get("read_through"))
		if r.ID != open.ID {
			assert.Empty(t, get("refunded"), "not known for a row whose refunds were not read")
		}
	}
	assert.True(t, strings.HasSuffix(recs[1][col["created_utc"]], "Z"), "UTC")

	// The open payment, read in full: every field of its pane.
	row := recs[1+slices.IndexFunc(shown, func(r backend.Payment) bool { return r.ID == open.ID })]
	sp, err := e.srv.Store().GetPayment(open.ID)
	require.NoError(t, err)
	cur := sp.Amount.Currency
	assert.Equal(t, sp.Refunded.StringFixed(money.Decimals(cur)), row[col["refunded"]])
	assert.Equal(t, sp.Customer.IP, row[col["customer_ip"]])
	assert.Equal(t, sp.Customer.Identifier(), row[col["customer_identifier"]])
	assert.Equal(t, sp.Customer.Phone, row[col["customer_phone"]])
	assert.Equal(t, sp.Instrument.Card.Brand, row[col["card_brand"]])
	assert.Equal(t, sp.Instrument.Method, row[col["payment_method"]])
	assert.Equal(t, "false", row[col["test_mode"]])
	assert.Equal(t, "COMPLETE", row[col["v1_state"]])
	assert.Equal(t, sp.Captured.StringFixed(money.Decimals(cur)), row[col["v1_paid_amount"]])

	// A sample, as the sandbox has it.
	for _, r := range recs[1:min(len(recs), 21)] {
		sp, err := e.srv.Store().GetPayment(r[col["id"]])
		require.NoError(t, err)
		assert.Equal(t, sp.Captured.StringFixed(money.Decimals(sp.Amount.Currency)), r[col["amount"]])
		assert.Equal(t, sp.Invoice.OrderNo, r[col["order_no"]])
		assert.Equal(t, sp.Invoice.Description, r[col["description"]])
		assert.Equal(t, sp.Created.UTC().Format(time.RFC3339), r[col["created_utc"]])
		assert.Equal(t, sp.Completed.UTC().Format(time.RFC3339), r[col["completed_utc"]])
		assert.Equal(t, sp.MerchantID, r[col["merchant_id"]])
	}

	// JSON: the same rows, the same fields, values as strings or null.
	e.send(ctrl('s'))
	d = e.openModal()
	d.saveTo(filepath.Join(dir, "payments.json"))
	require.True(t, d.closed, d.screen())
	e.saved()
	objs := readJSONFile(t, filepath.Join(dir, "payments.json"))
	require.Len(t, objs, len(shown))
	for i, obj := range objs {
		require.Len(t, obj, len(paymentHeader))
		for j, name := range paymentHeader {
			assert.Equal(t, strp(recs[1+i][j]), obj[name], "row %d, %s", i, name)
		}
	}
	raw, err := os.ReadFile(filepath.Join(dir, "payments.json"))
	require.NoError(t, err)
	assert.True(t, json.Valid(raw))
	assert.True(t, strings.HasPrefix(string(raw), "[\n  {\"id\": "), "an array of objects, fields in order")
}

// The format follows the path, also when it changes after the dialog
// asked about an existing file.
func TestExportFormatFollowsThePath(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{fixed: goldenNow})
	e.size(100, 30)
	e.init()
	dir := t.TempDir()
	path := filepath.Join(dir, "p.json")
	e.send(ctrl('s'))
	d := e.openModal()
	d.saveTo(path)
	require.True(t, d.closed)
	e.saved()
	first, err := os.ReadFile(path)
	require.NoError(t, err)
	require.True(t, json.Valid(first))

	e.send(ctrl('s'))
	d = e.openModal()
	d.saveTo(path)
	require.False(t, d.closed, "the file exists: the dialog asks")
	assert.Contains(t, flat(d.screen()), "Overwrite it?")
	d.press("n")
	d.saveTo(filepath.Join(dir, "p.CSV"))
	require.True(t, d.closed, d.screen())
	e.saved()
	got, err := os.ReadFile(filepath.Join(dir, "p.CSV"))
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(string(got), strings.Join(paymentHeader, ",")+"\n"), "CSV, not the JSON made for the first path")
	again, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, first, again, "the JSON file was not touched")
}

// Text a spreadsheet would run is quoted in CSV and kept in JSON; control
// characters never reach the file; the JSON is valid whatever the text.
func TestExportTextIsSafe(t *testing.T) {
	t.Parallel()
	hostile := []string{"=HYPERLINK(\"http://x\")", "+1", "-2", "@SUM(A1)", "red\x1b[31m!", "a\u2028b\u2029c",
		"bad \xff utf-8", "say \"hi\", then\nleave", "tab\there", "\u202eevil"}
	var rows []backend.Payment
	for i, h := range hostile {
		rows = append(rows, backend.Payment{ID: strconv.Itoa(i + 1), Description: h, OrderNo: h,
			Amount: money.Amount{Value: money.MustParse("-0.5"), Currency: "RUB"}})
	}
	fields := paymentFields(nil)
	data, err := exportCSV(context.Background(), fields, rows)
	require.NoError(t, err)
	assert.NotContains(t, string(data), "\x1b")
	recs, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	require.NoError(t, err)
	require.Len(t, recs, 1+len(hostile))
	desc := slices.Index(recs[0], "description")
	amount := slices.Index(recs[0], "amount")
	for i, r := range recs[1:] {
		assert.Equal(t, "-0.50", r[amount], "a number is not text: no quote")
		assert.Equal(t, csvText(hostile[i]), r[desc])
		if strings.ContainsAny(hostile[i][:1], "=+-@") {
			assert.Equal(t, "'"+hostile[i], r[desc], "a formula stays text")
		}
	}

	data, err = exportJSON(context.Background(), fields, rows)
	require.NoError(t, err)
	require.True(t, json.Valid(data), "%s", data)
	assert.NotContains(t, string(data), "\u2028", "line separators escaped")
	var objs []map[string]*string
	require.NoError(t, json.Unmarshal(data, &objs))
	for i, o := range objs {
		require.NotNil(t, o["description"])
		assert.Equal(t, textsafe.Clean(hostile[i]), *o["description"], "JSON keeps the text (cleaned), unquoted")
	}
	assert.Equal(t, "=HYPERLINK(\"http://x\")", *objs[0]["description"])

	// Nothing to export: an empty array, a header alone.
	data, err = exportJSON(context.Background(), fields, nil)
	require.NoError(t, err)
	assert.Equal(t, "[]\n", string(data))
}

// A large export is made whole, in the dialog's command (never in
// Update), and gives up when the dialog is cancelled. How quickly is
// BenchmarkExportPayments's to say (well under a second without the race
// detector): a wall-clock bound here took 6 to 13 s on a loaded machine.
func TestExportOf100kRows(t *testing.T) {
	t.Parallel()
	rows := benchPayments(benchRows)
	fields := paymentFields(nil)
	data, err := exportCSV(context.Background(), fields, rows)
	require.NoError(t, err)
	assert.Equal(t, benchRows+1, bytes.Count(data, []byte("\n")))
	data, err = exportJSON(context.Background(), fields, rows)
	require.NoError(t, err)
	assert.True(t, json.Valid(data))

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = exportCSV(ctx, fields, rows)
	assert.ErrorIs(t, err, context.Canceled)
	_, err = exportJSON(ctx, fields, rows)
	assert.ErrorIs(t, err, context.Canceled)
}

func TestExportNeedsRowsShown(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{fixed: goldenNow})
	e.size(100, 30)
	e.init()
	e.press("/")
	e.typeText("no such payment anywhere")
	e.press("enter")
	ok, why := e.tab.Available(keys.ActExport)
	assert.False(t, ok)
	assert.Equal(t, "no row matches the filter: nothing to export", why)
	e.send(ctrl('s'))
	assert.Empty(t, take[ui.OpenModalMsg](e))
	toasts := e.toasts()
	require.Len(t, toasts, 1)
	assert.Equal(t, why, toasts[0].Text)
}

// --- the other tabs -------------------------------------------------------------------

// exportTab presses ctrl+s on the tab, saves to name in dir and returns
// the CSV read back.
func (e *env) exportTab(dir, name string) [][]string {
	e.t.Helper()
	e.send(ctrl('s'))
	d := e.openModal()
	d.saveTo(filepath.Join(dir, name))
	require.True(e.t, d.closed, d.screen())
	e.saved()
	return readCSVFile(e.t, filepath.Join(dir, name))
}

func TestRefundsTokensStickersExport(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()

	e := newEnv(t, envOpts{fixed: goldenNow, tab: NewRefunds})
	e.size(120, 40)
	e.init()
	r := e.tab.(*Refunds)
	recs := e.exportTab(dir, "refunds.csv")
	assert.Equal(t, []string{"id", "status", "amount", "currency", "payment_id", "merchant_id", "created_utc",
		"updated_utc", "result_code", "external_id", "read_through"}, recs[0])
	shown := r.list.table.Shown()
	require.Len(t, recs, 1+len(shown))
	assert.Equal(t, shown[0].ID, recs[1][0])
	assert.Equal(t, shown[0].PaymentID, recs[1][4])
	sr, err := e.srv.Store().GetRefund(shown[0].ID)
	require.NoError(t, err)
	assert.Equal(t, sr.Amount.Value.StringFixed(money.Decimals(sr.Amount.Currency)), recs[1][2])

	e = newEnv(t, envOpts{fixed: goldenNow, tab: NewStickers})
	e.size(120, 40)
	e.init()
	s := e.tab.(*Stickers)
	recs = e.exportTab(dir, "stickers.csv")
	assert.Equal(t, []string{"id", "status", "description", "amount", "currency", "any_amount", "type", "cash_link",
		"product_code", "purpose", "merchant_id", "payload", "read_through"}, recs[0])
	require.Len(t, recs, 1+s.list.table.Filtered())
	assert.Equal(t, s.list.table.Shown()[0].ID, recs[1][0])

	e = newEnv(t, envOpts{tab: NewTokens})
	e.size(120, 40)
	e.init()
	ok, why := e.tab.Available(keys.ActExport)
	assert.False(t, ok)
	assert.Equal(t, "no rows to export", why)
	tok := e.newToken()
	e.send(ui.JumpMsg{Query: tok.ID})
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

// More payments than fullReadLimit are exported with what the list
// carries, and the dialog says so.
func TestLargePaymentExportsAreNotReadOneByOne(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOpts{fixed: goldenNow})
	e.scope.Start = goldenNow.AddDate(0, 0, -30)
	e.size(100, 30)
	e.init()
	e.loadPages(2)
	p := e.tab.(*Payments)
	require.Greater(t, p.list.table.Filtered(), fullReadLimit)
	e.send(ctrl('s'))
	d := e.openModal()
	assert.Contains(t, boxText(d.screen()), "with the fields the list carries (customer and card details are read for at most 200 rows: filter first)")
	dir := t.TempDir()
	d.saveTo(filepath.Join(dir, "all.csv"))
	require.True(t, d.closed, d.screen())
	e.saved()
	recs := readCSVFile(t, filepath.Join(dir, "all.csv"))
	require.Len(t, recs, 1+p.list.table.Filtered())
}
