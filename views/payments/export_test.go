package payments

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
	"paydash/backend/money"
	"paydash/backend/textsafe"
	"paydash/views/internal/viewtest"
	"paydash/views/tab"
)

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
	e := newEnv(t, viewtest.Opts{Fixed: viewtest.GoldenNow, WithV1: true})
	e.Scope.Start = viewtest.GoldenNow.AddDate(0, 0, -30)
	e.Size(120, 40)
	e.Init()
	e.loadPages(1)
	p := e.Tab.(*Payments)
	dir := t.TempDir()

	e.Press("/")
	e.TypeText("settled")
	e.Press("enter")
	e.SortBy("Amount")
	// The pane's payment, a card payment partly refunded, is read in full
	// with its refunds: its refunded amount is known, and its row is the
	// detailed one.
	e.Press("g")
	for _, r := range p.List.Table.Shown() {
		sp, err := e.Store().GetPayment(r.ID)
		require.NoError(t, err)
		if sp.Instrument != nil && sp.Instrument.Card != nil && sp.Refunded.IsPositive() && sp.Customer != nil {
			break
		}
		e.Press("j")
	}
	e.Press("enter")
	require.True(t, p.Pane.IsOpen())
	require.True(t, p.refunds.loaded)
	open := p.Pane.Obj
	shown := p.List.Table.Shown()
	require.Greater(t, len(shown), 50)
	require.Less(t, len(shown), p.List.Table.Len(), "the filter hides rows")
	for i, r := range shown {
		require.Equal(t, backend.PaymentSettled, r.Status)
		if i > 0 {
			require.GreaterOrEqual(t, shown[i-1].Amount.Value, r.Amount.Value, "largest first")
		}
	}

	e.Send(viewtest.Ctrl('s'))
	d := e.OpenModal()
	screen := viewtest.BoxText(d.Screen())
	assert.Contains(t, screen, "Export the payments shown")
	assert.Contains(t, screen, "> payments-"+e.Scope.MerchantID+"-2026-11-20.csv")
	assert.Contains(t, screen, "the "+money.Count(len(shown))+" payments shown (filter “settled”; sorted by Amount ▼ largest first in each currency)", "enter read the whole period for the search")
	assert.Contains(t, screen, "amounts exact, times UTC (ISO 8601). A path ending in .json saves JSON")
	d.SaveTo(filepath.Join(dir, "payments.csv"))
	require.True(t, d.Closed, d.Screen())
	assert.Contains(t, e.Saved(), filepath.Join(dir, "payments.csv"))

	recs := viewtest.ReadCSVFile(t, filepath.Join(dir, "payments.csv"))
	require.Len(t, recs, 1+len(shown), "a header and a row per payment shown")
	assert.Equal(t, viewtest.PaymentHeader, recs[0])
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
	sp, err := e.Store().GetPayment(open.ID)
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
		sp, err := e.Store().GetPayment(r[col["id"]])
		require.NoError(t, err)
		assert.Equal(t, sp.Captured.StringFixed(money.Decimals(sp.Amount.Currency)), r[col["amount"]])
		assert.Equal(t, sp.Invoice.OrderNo, r[col["order_no"]])
		assert.Equal(t, sp.Invoice.Description, r[col["description"]])
		assert.Equal(t, sp.Created.UTC().Format(time.RFC3339), r[col["created_utc"]])
		assert.Equal(t, sp.Completed.UTC().Format(time.RFC3339), r[col["completed_utc"]])
		assert.Equal(t, sp.MerchantID, r[col["merchant_id"]])
	}

	// JSON: the same rows, the same fields, values as strings or null.
	e.Send(viewtest.Ctrl('s'))
	d = e.OpenModal()
	d.SaveTo(filepath.Join(dir, "payments.json"))
	require.True(t, d.Closed, d.Screen())
	e.Saved()
	objs := viewtest.ReadJSONFile(t, filepath.Join(dir, "payments.json"))
	require.Len(t, objs, len(shown))
	for i, obj := range objs {
		require.Len(t, obj, len(viewtest.PaymentHeader))
		for j, name := range viewtest.PaymentHeader {
			assert.Equal(t, viewtest.Strp(recs[1+i][j]), obj[name], "row %d, %s", i, name)
		}
	}
	raw, err := os.ReadFile(filepath.Join(dir, "payments.json"))
	require.NoError(t, err)
	assert.True(t, json.Valid(raw))
	assert.True(t, strings.HasPrefix(string(raw), "[\n  {\"id\": "), "an array of objects, fields in order")
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
	data, err := tab.ExportCSV(context.Background(), fields, rows)
	require.NoError(t, err)
	assert.NotContains(t, string(data), "\x1b")
	recs, err := csv.NewReader(bytes.NewReader(data)).ReadAll()
	require.NoError(t, err)
	require.Len(t, recs, 1+len(hostile))
	desc := slices.Index(recs[0], "description")
	amount := slices.Index(recs[0], "amount")
	for i, r := range recs[1:] {
		assert.Equal(t, "-0.50", r[amount], "a number is not text: no quote")
		assert.Equal(t, tab.CSVText(hostile[i]), r[desc])
		if strings.ContainsAny(hostile[i][:1], "=+-@") {
			assert.Equal(t, "'"+hostile[i], r[desc], "a formula stays text")
		}
	}

	data, err = tab.ExportJSON(context.Background(), fields, rows)
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
	data, err = tab.ExportJSON(context.Background(), fields, nil)
	require.NoError(t, err)
	assert.Equal(t, "[]\n", string(data))
}

// A large export is made whole, in the dialog's command (never in
// Update), and gives up when the dialog is cancelled. 10,000 rows are
// more than two of the stretches between its looks at the cancellation;
// how quickly 100,000 go is BenchmarkExportPayments's to say.
func TestALargeExportIsWholeAndGivesUpWhenCancelled(t *testing.T) {
	t.Parallel()
	const n = 10_000
	rows := viewtest.BenchPayments(n)
	fields := paymentFields(nil)
	data, err := tab.ExportCSV(context.Background(), fields, rows)
	require.NoError(t, err)
	assert.Equal(t, n+1, bytes.Count(data, []byte("\n")))
	data, err = tab.ExportJSON(context.Background(), fields, rows)
	require.NoError(t, err)
	assert.True(t, json.Valid(data))

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = tab.ExportCSV(ctx, fields, rows)
	assert.ErrorIs(t, err, context.Canceled)
	_, err = tab.ExportJSON(ctx, fields, rows)
	assert.ErrorIs(t, err, context.Canceled)
}

// More payments than fullReadLimit are exported with what the list
// carries, and the dialog says so.
func TestLargePaymentExportsAreNotReadOneByOne(t *testing.T) {
	t.Parallel()
	e := newEnv(t, viewtest.Opts{Fixed: viewtest.GoldenNow})
	e.Scope.Start = viewtest.GoldenNow.AddDate(0, 0, -30)
	e.Size(100, 30)
	e.Init()
	e.loadPages(2)
	p := e.Tab.(*Payments)
	require.Greater(t, p.List.Table.Filtered(), fullReadLimit)
	e.Send(viewtest.Ctrl('s'))
	d := e.OpenModal()
	assert.Contains(t, viewtest.BoxText(d.Screen()), "with the fields the list carries (customer and card details are read for at most 200 rows: filter first)")
	dir := t.TempDir()
	d.SaveTo(filepath.Join(dir, "all.csv"))
	require.True(t, d.Closed, d.Screen())
	e.Saved()
	recs := viewtest.ReadCSVFile(t, filepath.Join(dir, "all.csv"))
	require.Len(t, recs, 1+p.List.Table.Filtered())
}
