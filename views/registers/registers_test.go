package registers

import (
	"bytes"
	"cmp"
	"context"
	"crypto/x509"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend"
	"paydash/backend/money"
	"paydash/backend/sandbox"
	"paydash/keys"
	"paydash/ui"
	"paydash/views/internal/viewtest"
	"paydash/views/tab"
)

// The Registers tab (registers.go), its register viewer (register_pane.go,
// register_totals.go) and its document viewer (document_pane.go), driven
// by keys through Update and View: against the real sandbox for what the
// service really answers, and against a small v1 server of the test's for
// registers that do not add up and for hostile ones.

// --- helpers ------------------------------------------------------------------

// newRegistersEnv is the Registers tab on the sandbox with the
// accountant's v1 login beside the v2 token, on the golden clock.
func newRegistersEnv(t *testing.T, o viewtest.Opts) *env {
	t.Helper()
	o.Tab = New
	if !o.V1Only {
		o.WithV1 = true
	}
	if o.Fixed.IsZero() {
		o.Fixed = viewtest.GoldenNow
	}
	return newEnv(t, o)
}

// transfersShown are the rows of the transfers list, in the order shown.
func (e *env) transfersShown() []backend.Transfer { return e.Tab.(*Registers).transfers.Table.Rows() }

// selectTransfer moves the list's selection to the transfer of register id.
func (e *env) selectTransfer(id string) backend.Transfer {
	e.T.Helper()
	l := e.Tab.(*Registers).transfers
	e.Press("g")
	for range l.Table.Len() + 1 {
		if tr, ok := l.Selected(); ok && tr.RegisterID == id {
			return tr
		}
		e.Press("down")
	}
	require.FailNow(e.T, "transfer not listed", "register %s", id)
	return backend.Transfer{}
}

// openRegister selects the transfer of register id and opens it.
func (e *env) openRegister(id string) backend.Transfer {
	e.T.Helper()
	tr := e.selectTransfer(id)
	e.Press("enter")
	p := e.Tab.(*Registers).Register
	require.True(e.T, p.IsOpen(), "enter opens the register")
	require.NotNil(e.T, p.data, "the register was read")
	return tr
}

// selectOperation moves the operations table's selection to row i.
func (e *env) selectOperation(i int) {
	e.T.Helper()
	p := e.Tab.(*Registers).Register
	for range i + 1 {
		if k, ok := p.ops.Selected(); ok && int(k) == i {
			return
		}
		e.Press("down")
	}
	k, _ := p.ops.Selected()
	require.Equal(e.T, i, int(k), "the operation's row is selected")
}

// sandboxTransfers are the transfers the sandbox lists for the tab's days.
func (e *env) sandboxTransfers() []sandbox.Transfer {
	days := dayQuery(e.Tab.(*Registers).OwnScope())
	return e.Store().Transfers(days.From, days.To.AddDate(0, 0, 1))
}

// sandboxRegister is the sandbox's own register.
func (e *env) sandboxRegister(id string) sandbox.Register {
	e.T.Helper()
	reg, err := e.Store().Register(id)
	require.NoError(e.T, err)
	return reg
}

// countingRegisters counts the Registers tab's list reads.
type countingRegisters struct {
	backend.Backend
	transfers, documents atomic.Int64
}

func (c *countingRegisters) ListTransfers(ctx context.Context, q backend.DayQuery) ([]backend.Transfer, error) {
	c.transfers.Add(1)
	return c.Backend.ListTransfers(ctx, q)
}

func (c *countingRegisters) ListDocuments(ctx context.Context, q backend.DayQuery) ([]backend.Document, error) {
	c.documents.Add(1)
	return c.Backend.ListDocuments(ctx, q)
}

// reversedRuns are the runs of text a view draws in reverse video (SGR 7),
// without styles: what the XML view highlights as search matches.
func reversedRuns(view string) []string {
	var runs []string
	for _, line := range strings.Split(view, "\n") {
		reverse := false
		var run strings.Builder
		flush := func() {
			if run.Len() > 0 {
				runs = append(runs, run.String())
				run.Reset()
			}
		}
		for i := 0; i < len(line); {
			if m := sgrAt.FindStringSubmatchIndex(line[i:]); m != nil && m[0] == 0 {
				params := line[i+m[2] : i+m[3]]
				reverse = applySGR(reverse, params)
				i += m[1]
				continue
			}
			r, size := utf8.DecodeRuneInString(line[i:])
			if reverse {
				run.WriteRune(r)
			} else {
				flush()
			}
			i += size
		}
		flush()
	}
	return runs
}

var (
	sgrAt = regexp.MustCompile(`^\x1b\[([0-9;:]*)m`)
	sgrRE = regexp.MustCompile(`\x1b\[[0-9;:]*m`)
)

// applySGR is whether text is reversed after an SGR sequence's params.
func applySGR(reverse bool, params string) bool {
	if params == "" {
		return false
	}
	ps := strings.Split(params, ";")
	for i := 0; i < len(ps); i++ {
		switch p := strings.SplitN(ps[i], ":", 2)[0]; p {
		case "", "0":
			reverse = false
		case "7":
			reverse = true
		case "27":
			reverse = false
		case "38", "48", "58": // a colour: its own parameters follow
			if i+1 < len(ps) && ps[i+1] == "5" {
				i += 2
			} else if i+1 < len(ps) && ps[i+1] == "2" {
				i += 4
			}
		}
	}
	return reverse
}

// assertNeutralView fails when a view holds anything a terminal would act
// on besides lipgloss's own well-formed SGR: ESC, C0 and C1 controls (the
// line ends aside), line and paragraph separators, bidi controls.
func assertNeutralView(t *testing.T, view, what string) {
	t.Helper()
	s := sgrRE.ReplaceAllString(view, "")
	require.True(t, utf8.ValidString(s), "%s: invalid UTF-8", what)
	for _, r := range s {
		bad := r == 0x1b || (r < 0x20 && r != '\n') || r == 0x7f || (r >= 0x80 && r <= 0x9f) ||
			r == '\u2028' || r == '\u2029' || unicode.Is(unicode.Bidi_Control, r)
		if bad {
			require.Failf(t, "unsafe character in the view", "%s: %U in\n%q", what, r, s)
		}
	}
}

// searchCount counts query in the XML view's pretty text, as a reader
// would: case-insensitively, line by line.
func searchCount(p *registerPane, query string) int {
	n := 0
	q := strings.ToLower(query)
	for i := range p.data.doc.Len() {
		n += strings.Count(strings.ToLower(p.data.doc.Plain(i)), q)
	}
	return n
}

// --- the list and the register, against the sandbox ------------------------

func TestRegistersListsItsOwnPeriodAndOpensARegisterThatAddsUp(t *testing.T) {
	t.Parallel()
	e := newRegistersEnv(t, viewtest.Opts{})
	e.Size(120, 40)
	e.Init()
	require.Empty(t, e.Errors())
	r := e.Tab.(*Registers)

	// Its own 30 days, whatever the scope of the others (7 days here).
	own := r.OwnScope()
	assert.Equal(t, ui.Preset30Days, own.Preset)
	assert.Empty(t, own.MerchantID, "the v1 account's transfers, not one merchant's")
	days := dayQuery(own)
	assert.Equal(t, time.Date(2026, 10, 22, 0, 0, 0, 0, time.UTC), days.From, "30 days: today and the 29 before")
	assert.Equal(t, time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC), days.To)
	view := ansi.Strip(e.View(120, 40))
	assert.Contains(t, strings.Split(view, "\n")[0], "Transfers of the v1 account · 22 Oct – 20 Nov 2026 (UTC days) · d: documents")

	// The sandbox's transfers of those days, newest first.
	want := e.sandboxTransfers()
	require.NotEmpty(t, want, "the sandbox made transfers in 30 days")
	got := e.transfersShown()
	require.Len(t, got, len(want))
	for i := range want {
		assert.Equal(t, want[i].RegisterID, got[i].RegisterID, "row %d", i)
		assert.True(t, want[i].Created.Equal(got[i].Created), "row %d", i)
		assert.Equal(t, want[i].Amount, got[i].Amount.Value, "row %d", i)
		assert.Equal(t, want[i].Currency, got[i].Amount.Currency, "row %d", i)
		if i > 0 {
			assert.False(t, got[i].Created.After(got[i-1].Created), "newest first: row %d", i)
		}
	}
	assert.True(t, r.Status().AtEnd)
	assert.Equal(t, len(want), r.Status().Rows)
	first := got[0]
	assert.Contains(t, viewtest.LineWith(view, first.RegisterID), money.Group(first.Amount.Value, first.Amount.Currency))

	// enter opens the newest transfer's register: it adds up.
	e.Press("enter")
	p := r.Register
	require.True(t, p.IsOpen())
	require.NotNil(t, p.data)
	require.NoError(t, p.data.err)
	reg := e.sandboxRegister(first.RegisterID)
	require.Len(t, p.data.reg.Operations, len(reg.Operations))
	payments, refunds := 0, 0
	var paid, refunded, transfer money.Decimal
	for _, op := range reg.Operations {
		if op.Refund {
			refunds++
			refunded += op.Amount
		} else {
			payments++
			paid += op.Amount
		}
		transfer += op.TransferAmount
	}
	require.Equal(t, reg.Amount, transfer, "the sandbox's register adds up by construction")

	view = e.View(120, 40)
	lines := strings.Split(ansi.Strip(view), "\n")
	cur := first.Amount.Currency
	amount := money.Group(first.Amount.Value, cur) + " " + cur
	assert.Contains(t, lines[0], "Register "+reg.RegisterNumber+" · transfer of "+first.Created.UTC().Format("2006-01-02")+", "+amount)
	assert.Contains(t, lines[0], "w: XML")
	assert.Equal(t, "✓ The operations add up to the transfer: "+amount, strings.TrimSpace(lines[1]))
	word := func(n int, one string) string {
		if n == 1 {
			return "1 " + one
		}
		return fmt.Sprintf("%d %ss", n, one)
	}
	assert.Equal(t, fmt.Sprintf("%s: %s %s · %s %s · to transfer %s", cur,
		word(payments, "payment"), money.Group(paid, cur), word(refunds, "refund"), money.Group(refunded, cur),
		money.Group(transfer, cur)), strings.TrimSpace(lines[2]))
	assert.Contains(t, lines[3], "Operation")
	assert.Contains(t, lines[4], reg.Operations[0].OperationID, "oldest first, as the register lists them")
	assert.Contains(t, lines[4], money.Group(reg.Operations[0].TransferAmount, cur))
	assert.Equal(t, keys.ContextViewer, r.Context())
}

func TestRegisterXMLViewSearchesAndEscBacksOutStepByStep(t *testing.T) {
	t.Parallel()
	e := newRegistersEnv(t, viewtest.Opts{})
	e.Size(120, 40)
	e.Init()
	first := e.transfersShown()[0]
	e.openRegister(first.RegisterID)
	p := e.Tab.(*Registers).Register

	e.Press("w")
	view := ansi.Strip(e.View(120, 40))
	lines := strings.Split(view, "\n")
	assert.Contains(t, lines[0], "XML as received, "+ui.HumanBytes(int64(len(p.data.reg.Raw))))
	assert.Regexp(t, `lines 1–\d+ of `+regexp.QuoteMeta(money.Count(p.data.doc.Len())), lines[0])
	assert.Equal(t, `<?xml version="1.0" encoding="UTF-8"?>`, strings.TrimSpace(lines[1]))
	assert.Contains(t, lines[len(lines)-1], "/ search")

	// Search, case-insensitively: every tag name counts, open and close.
	const query = "invoiceid"
	n := searchCount(p, query)
	require.Equal(t, 2*len(p.data.reg.Operations), n, "an <InvoiceID> and a </InvoiceID> per operation")
	e.Press("/")
	assert.Equal(t, keys.ContextSearch, e.Tab.Context(), "the search input has the keys")
	e.TypeText(query)
	assert.Contains(t, ansi.Strip(e.View(120, 40)), "/ "+query, "the query is typed in the search line")
	e.Press("enter")
	assert.Equal(t, keys.ContextViewer, e.Tab.Context())
	matchLine := func() string {
		ls := strings.Split(ansi.Strip(e.View(120, 40)), "\n")
		return strings.TrimSpace(ls[len(ls)-1])
	}
	total := money.Count(n)
	assert.True(t, strings.HasPrefix(matchLine(), "match 1 of "+total+` for "invoiceid"`), matchLine())

	// The matches are drawn reversed, and nothing else is.
	raw := e.View(120, 40)
	runs := reversedRuns(raw)
	shown := 0
	xmlLines := strings.Split(ansi.Strip(raw), "\n")
	for _, l := range xmlLines[1 : len(xmlLines)-1] { // the title and the search line aside
		shown += strings.Count(strings.ToLower(l), query)
	}
	require.NotEmpty(t, runs, "matches on screen are reversed")
	assert.Len(t, runs, shown, "every match on screen, and only they, are reversed: %q", runs)
	for _, run := range runs {
		assert.True(t, strings.EqualFold(query, run), "a reversed run is a match: %q", run)
	}
	assert.Regexp(t, `\x1b\[(?:[0-9;]*;)?7(?:;[0-9;]*)?m`, raw, "SGR 7")

	e.Press("n")
	assert.True(t, strings.HasPrefix(matchLine(), "match 2 of "+total), matchLine())
	e.Press("n")
	assert.True(t, strings.HasPrefix(matchLine(), "match 3 of "+total), matchLine())
	e.Press("N")
	assert.True(t, strings.HasPrefix(matchLine(), "match 2 of "+total), matchLine())
	e.Press("N", "N")
	assert.True(t, strings.HasPrefix(matchLine(), "match "+total+" of "+total), "N wraps to the last: %s", matchLine())
	assert.Contains(t, ansi.Strip(e.View(120, 40)), "lines ", "scrolled to the last match")
	e.Press("n")
	assert.True(t, strings.HasPrefix(matchLine(), "match 1 of "+total), "n wraps to the first: %s", matchLine())

	// esc: the matches go, then the XML view, then the pane.
	e.Press("esc")
	view = ansi.Strip(e.View(120, 40))
	assert.NotContains(t, view, "match ")
	assert.Contains(t, strings.Split(view, "\n")[0], "XML as received")
	assert.Empty(t, reversedRuns(e.View(120, 40)), "nothing is reversed once the search is cleared")
	e.Press("esc")
	view = ansi.Strip(e.View(120, 40))
	assert.Contains(t, strings.Split(view, "\n")[0], "· transfer of ", "the operations view's title")
	assert.Contains(t, view, "✓ The operations add up")
	e.Press("esc")
	assert.False(t, p.IsOpen())
	assert.Contains(t, strings.Split(ansi.Strip(e.View(120, 40)), "\n")[0], "Transfers of the v1 account")

	// A search with no match says so where the count goes.
	e.Press("enter", "/")
	e.Send(viewtest.Ctrl('u')) // the input offers the last query again
	e.TypeText("no such text")
	e.Press("enter")
	assert.Contains(t, matchLine(), `no match for "no such text"`)
	e.Press("esc")
	assert.NotContains(t, matchLine(), "no match")
	assert.True(t, p.IsOpen())
}

func TestRegisterSavesTheXMLAsReceivedAndTheOperationsAsCSV(t *testing.T) {
	t.Parallel()
	e := newRegistersEnv(t, viewtest.Opts{})
	e.Size(120, 40)
	e.Init()
	first := e.transfersShown()[0]
	e.openRegister(first.RegisterID)
	reg := e.sandboxRegister(first.RegisterID)
	dir := t.TempDir()

	// The XML view saves the XML, byte for byte as the service sent it.
	e.Press("w")
	e.Send(viewtest.Ctrl('s'))
	d := e.OpenModal()
	screen := d.Screen()
	assert.Contains(t, screen, "Save register "+reg.RegisterNumber)
	assert.Contains(t, screen, "> register-"+reg.RegisterNumber+".xml", "the default file name")
	xmlPath := filepath.Join(dir, "register.xml")
	d.SaveTo(xmlPath)
	require.True(t, d.Closed, "saved: %s", d.Screen())
	assert.Equal(t, "Saved "+ui.HumanBytes(int64(len(e.Tab.(*Registers).Register.data.reg.Raw)))+" to "+xmlPath, e.Saved())
	got, err := os.ReadFile(xmlPath)
	require.NoError(t, err)
	served, err := e.B.GetRegister(context.Background(), first.RegisterID)
	require.NoError(t, err)
	require.NotEmpty(t, served.Raw)
	assert.True(t, bytes.Equal(served.Raw, got), "the file is the register as the service sent it")

	// The operations view saves the operations as CSV.
	e.Press("w")
	require.False(t, e.Tab.(*Registers).Register.showXML)
	e.Send(viewtest.Ctrl('s'))
	d = e.OpenModal()
	screen = d.Screen()
	assert.Contains(t, screen, "Save the operations of register "+reg.RegisterNumber)
	assert.Contains(t, screen, "> register-"+reg.RegisterNumber+".csv")
	csvPath := filepath.Join(dir, "operations.csv")
	d.SaveTo(csvPath)
	require.True(t, d.Closed, "saved: %s", d.Screen())
	e.Saved()
	f, err := os.Open(csvPath)
	require.NoError(t, err)
	records, err := csv.NewReader(f).ReadAll()
	require.NoError(t, f.Close())
	require.NoError(t, err)
	require.Len(t, records, 1+len(reg.Operations), "a header and a row per operation")
	assert.Equal(t, []string{"operation_id", "kind", "site", "invoice_id", "time_utc", "currency", "operation_amount", "transfer_amount"}, records[0])
	op := reg.Operations[0]
	places := money.Decimals(op.Currency)
	row := records[1]
	assert.Equal(t, op.OperationID, row[0])
	assert.Equal(t, map[bool]string{false: "payment", true: "refund"}[op.Refund], row[1])
	assert.Equal(t, op.MerchantID, row[2])
	assert.Equal(t, op.InvoiceID, row[3])
	assert.Equal(t, op.Stamp.UTC().Format(time.RFC3339), row[4])
	assert.True(t, strings.HasSuffix(row[4], "Z"), "UTC: %s", row[4])
	assert.Equal(t, op.Currency, row[5])
	assert.Equal(t, op.Amount.StringFixed(places), row[6])
	assert.Equal(t, op.TransferAmount.StringFixed(places), row[7])
	assert.Regexp(t, `^-?\d+\.\d{`+strconv.Itoa(places)+`}$`, row[6], "exact, with the currency's decimals")
	var sum money.Decimal
	for _, rec := range records[1:] {
		v, err := money.Parse(rec[7])
		require.NoError(t, err)
		sum += v
	}
	assert.Equal(t, reg.Amount, sum, "the CSV's transfer amounts add up to the transfer")

	// Saving again to the same path asks first; n leaves the file alone.
	before, err := os.ReadFile(csvPath)
	require.NoError(t, err)
	e.Send(viewtest.Ctrl('s'))
	d = e.OpenModal()
	d.SaveTo(csvPath)
	require.False(t, d.Closed)
	screen = strings.Join(strings.Fields(strings.ReplaceAll(d.Screen(), "│", "")), " ")
	assert.Contains(t, screen, "exists")
	assert.Contains(t, screen, "Overwrite it?")
	d.Press("n")
	assert.False(t, d.Closed, "n goes back to the path")
	assert.Equal(t, keys.ContextModalField, d.M.Context())
	after, err := os.ReadFile(csvPath)
	require.NoError(t, err)
	assert.Equal(t, before, after, "the file is untouched")
	d.Press("esc")
	assert.True(t, d.Closed)
	assert.Empty(t, viewtest.Take[ui.ToastMsg](e.Env), "nothing was saved")
}

// ctrl+s on the lists exports the rows shown (export.go); a register and
// a document are saved from their panes (the tests above and below).
func TestRegistersListsExportTheRowsShown(t *testing.T) {
	t.Parallel()
	e := newRegistersEnv(t, viewtest.Opts{})
	e.Size(120, 40)
	e.Init()
	r := e.Tab.(*Registers)
	dir := t.TempDir()

	// The transfers, newest first as shown, to CSV.
	shown := e.transfersShown()
	require.NotEmpty(t, shown)
	e.Send(viewtest.Ctrl('s'))
	d := e.OpenModal()
	screen := viewtest.BoxText(d.Screen())
	assert.Contains(t, screen, "Export the transfers shown")
	assert.Contains(t, screen, "> transfers-"+viewtest.GoldenNow.Format("2006-01-02")+".csv")
	assert.Contains(t, screen, tab.Plural(len(shown), "transfer", "transfers")+" shown")
	assert.Contains(t, screen, ".json saves JSON")
	assert.False(t, r.Register.IsOpen(), "the pane stays closed")
	d.SaveTo(filepath.Join(dir, "transfers.csv"))
	require.True(t, d.Closed, d.Screen())
	e.Saved()
	recs := viewtest.ReadCSVFile(t, filepath.Join(dir, "transfers.csv"))
	require.Len(t, recs, 1+len(shown), "a header and a row per transfer shown")
	assert.Equal(t, []string{"date_utc", "amount", "currency", "payment_order_id", "register_id"}, recs[0])
	for i, tr := range shown {
		row := recs[1+i]
		assert.Equal(t, tr.Created.UTC().Format(time.RFC3339), row[0])
		assert.Equal(t, tr.Amount.Value.StringFixed(money.Decimals(tr.Amount.Currency)), row[1])
		assert.Equal(t, []string{tr.Amount.Currency, tr.PaymentOrderID, tr.RegisterID}, row[2:])
	}
	// …and as the sandbox has them.
	byID := map[string]sandbox.Transfer{}
	for _, st := range e.sandboxTransfers() {
		byID[st.RegisterID] = st
	}
	for _, row := range recs[1:] {
		st, ok := byID[row[4]]
		require.True(t, ok, "transfer %s is the sandbox's", row[4])
		assert.Equal(t, st.Amount.StringFixed(money.Decimals(st.Currency)), row[1])
	}

	// The documents, to JSON.
	e.Press("d")
	docs := r.Documents.Table.Shown()
	require.NotEmpty(t, docs)
	e.Send(viewtest.Ctrl('s'))
	d = e.OpenModal()
	assert.Contains(t, viewtest.BoxText(d.Screen()), "> documents-"+viewtest.GoldenNow.Format("2006-01-02")+".csv")
	d.SaveTo(filepath.Join(dir, "documents.json"))
	require.True(t, d.Closed, d.Screen())
	e.Saved()
	objs := viewtest.ReadJSONFile(t, filepath.Join(dir, "documents.json"))
	require.Len(t, objs, len(docs))
	for i, doc := range docs {
		assert.Equal(t, map[string]*string{"id": viewtest.Strp(doc.ID), "created_utc": viewtest.Strp(doc.Created.UTC().Format(time.RFC3339)),
			"file_name": viewtest.Strp(doc.FileName), "description": viewtest.Strp(doc.Description)}, objs[i])
	}
	assert.False(t, r.document.isOpen(), "no document was opened")
}

func TestRegisterOperationOpensItsPayment(t *testing.T) {
	t.Parallel()
	e := newRegistersEnv(t, viewtest.Opts{})
	e.Size(120, 40)
	e.Init()

	// A register with a refund among its operations.
	var tr backend.Transfer
	var reg sandbox.Register
	refundAt := -1
	for _, row := range e.transfersShown() {
		r := e.sandboxRegister(row.RegisterID)
		for i, op := range r.Operations {
			if op.Refund {
				tr, reg, refundAt = row, r, i
				break
			}
		}
		if refundAt >= 0 {
			break
		}
	}
	require.GreaterOrEqual(t, refundAt, 0, "the sandbox refunded something in 30 days")
	paymentAt := -1
	for i, op := range reg.Operations {
		if !op.Refund {
			paymentAt = i
			break
		}
	}
	require.GreaterOrEqual(t, paymentAt, 0)
	e.openRegister(tr.RegisterID)

	// A payment's operation id is the payment's.
	e.selectOperation(paymentAt)
	e.Press("enter")
	switches := viewtest.Take[ui.SwitchTabMsg](e.Env)
	require.Len(t, switches, 1)
	assert.Equal(t, ui.SwitchTabMsg{Tab: ui.TabPayments, Then: ui.JumpMsg{Query: reg.Operations[paymentAt].OperationID}}, switches[0])

	// A refund's is the refund's: its payment is read first.
	refund := reg.Operations[refundAt]
	require.NotEqual(t, refund.OperationID, refund.PaymentID)
	e.selectOperation(refundAt)
	assert.Contains(t, viewtest.LineWith(ansi.Strip(e.View(120, 40)), refund.OperationID), "refund")
	e.Press("enter")
	switches = viewtest.Take[ui.SwitchTabMsg](e.Env)
	require.Len(t, switches, 1, "the shell got %v", e.Shell)
	assert.Equal(t, ui.SwitchTabMsg{Tab: ui.TabPayments, Then: ui.JumpMsg{Query: refund.PaymentID}}, switches[0])
	assert.Empty(t, e.Errors())

	// enter in the XML view opens nothing.
	e.Press("w", "enter")
	assert.Empty(t, viewtest.Take[ui.SwitchTabMsg](e.Env))
}

func TestRegisterRefundOverV1OnlyLooksForItsPaymentByOrderNumber(t *testing.T) {
	t.Parallel()
	e := newRegistersEnv(t, viewtest.Opts{V1Only: true})
	e.Size(120, 40)
	e.Init()
	require.Empty(t, e.Errors())
	for _, row := range e.transfersShown() {
		reg := e.sandboxRegister(row.RegisterID)
		for i, op := range reg.Operations {
			if !op.Refund {
				continue
			}
			e.openRegister(row.RegisterID)
			e.selectOperation(i)
			e.Press("enter")
			switches := viewtest.Take[ui.SwitchTabMsg](e.Env)
			require.Len(t, switches, 1, "the shell got %v", e.Shell)
			assert.Equal(t, ui.JumpMsg{Query: op.InvoiceID}, switches[0].Then, "v1 cannot read a refund: its order number")
			toasts := e.Toasts()
			require.Len(t, toasts, 1)
			assert.Contains(t, toasts[0].Text, "Refund "+op.OperationID+" cannot be read here")
			return
		}
	}
	t.Fatal("the sandbox refunded nothing in 30 days")
}

// --- registers that do not add up, and hostile ones, from a test server --------

// fakeTransfer is one transfer the test server lists.
type fakeTransfer struct {
	created           string // yyyy-MM-ddTHH:mm:ss
	amount, currency  string
	order, registerID string
}

// fakeV1 is a v1 server of the test's: listTransfers answers transfers
// (JSON), getTransferRegister the XML of registers[registerID],
// listDocuments an empty list, anything else "no access".
func fakeV1(t *testing.T, transfers []fakeTransfer, registers map[string][]byte) backend.Backend {
	t.Helper()
	var list strings.Builder
	for i, tr := range transfers {
		if i > 0 {
			list.WriteString(",")
		}
		fmt.Fprintf(&list, `{"Created":%s,"CurrencyCode":%s,"TransferAmount":%s,"PaymentOrderID":%s,"RegisterID":%s}`,
			jsonString(tr.created), jsonString(tr.currency), tr.amount, jsonString(tr.order), jsonString(tr.registerID))
	}
	transfersBody := []byte(`{"ErrorCode":0,"Response":{"Overflow":false,"Transfers":[` + list.String() + `]}}`)
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch path.Base(r.URL.Path) {
		case "listTransfers":
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write(transfersBody)
		case "listDocuments":
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"ErrorCode":0,"Response":{"Overflow":false,"Documents":[]}}`))
		case "getTransferRegister":
			body, ok := registers[r.URL.Query().Get("registerID")]
			if !ok {
				w.Header().Set("Content-Type", "application/json")
				_, _ = w.Write([]byte(`{"ErrorCode":-1,"Message":"no such register"}`))
				return
			}
			w.Header().Set("Content-Type", "application/xml; charset=utf-8")
			_, _ = w.Write(body)
		default:
			w.Header().Set("Content-Type", "application/json")
			_, _ = w.Write([]byte(`{"ErrorCode":-6,"Message":"not in this test"}`))
		}
	}))
	t.Cleanup(srv.Close)
	pool := x509.NewCertPool()
	pool.AddCert(srv.Certificate())
	b, err := backend.Open(backend.Config{BaseURL: srv.URL, RootCAs: pool, V1Login: "accountant", V1Password: "secret",
		MerchantIDs: []string{"1001"}})
	require.NoError(t, err)
	return b
}

// jsonString is s as a JSON string.
func jsonString(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// newFakeEnv is the Registers tab on b, on the golden clock.
func newFakeEnv(t *testing.T, b backend.Backend) *env {
	now := func() time.Time { return viewtest.GoldenNow }
	return &env{&viewtest.Env{T: t, B: b, Now: now, Tab: New(tab.Deps{Backend: b, Keys: keys.Default(), Now: now,
		Theme: ui.NewTheme(true, true)})}}
}

// fakeRegister is a register's XML as the service writes it; each
// operation is currency, operation amount, transfer amount.
func fakeRegister(id string, ops ...[3]string) []byte {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	fmt.Fprintf(&b, `<Response><ErrorCode>0</ErrorCode><Register><PeriodFrom>2026-11-18T00:00:00</PeriodFrom>`+
		`<PeriodTo>2026-11-18T23:59:59</PeriodTo><RegisterID>%s</RegisterID><RegisterNumber>R-%s</RegisterNumber><Operations>`, id, id)
	for i, op := range ops {
		fmt.Fprintf(&b, `<Operation><OperationID>%d</OperationID><SiteAlias>1001</SiteAlias><InvoiceID>ORD-%d</InvoiceID>`+
			`<Stamp>2026-11-18T10:%02d:00</Stamp><CurrencyCode>%s</CurrencyCode><OperationAmount>%s</OperationAmount>`+
			`<TransferAmount>%s</TransferAmount></Operation>`, 43000000+i, i, i, op[0], op[1], op[2])
	}
	b.WriteString(`</Operations></Register></Response>`)
	return []byte(b.String())
}

func TestRegisterTotalsThatDoNotAddUpAreFlagged(t *testing.T) {
	t.Parallel()
	b := fakeV1(t, []fakeTransfer{
		{created: "2026-11-19T06:00:00", amount: "1000.00", currency: "RUB", order: "100001", registerID: "501"},
		{created: "2026-11-18T06:00:00", amount: "1000.00", currency: "RUB", order: "100002", registerID: "502"},
		{created: "2026-11-17T06:00:00", amount: "1000.00", currency: "RUB", order: "100003", registerID: "503"},
	}, map[string][]byte{
		"501": fakeRegister("501", [3]string{"RUB", "1100.00", "1100.00"}, [3]string{"RUB", "-100.00", "-100.00"}),
		"502": fakeRegister("502", [3]string{"RUB", "600.00", "600.00"}, [3]string{"RUB", "390.00", "390.00"}),
		"503": fakeRegister("503", [3]string{"RUB", "1000.00", "1000.00"}, [3]string{"USD", "5.00", "5.00"}),
	})
	e := newFakeEnv(t, b)
	e.Size(100, 30)
	e.Init()
	require.Empty(t, e.Errors())
	require.Len(t, e.transfersShown(), 3)

	check := func(id string) string {
		t.Helper()
		e.openRegister(id)
		require.NoError(t, e.Tab.(*Registers).Register.data.err)
		v := e.View(100, 30)
		e.Press("esc")
		require.False(t, e.Tab.(*Registers).Register.IsOpen())
		return v
	}

	// It adds up (a refund included): ✓.
	v := viewtest.Flat(check("501"))
	assert.Contains(t, v, "✓ The operations add up to the transfer: 1,000.00 RUB")
	assert.Contains(t, v, "RUB: 1 payment 1,100.00 · 1 refund -100.00 · to transfer 1,000.00")
	assert.NotContains(t, v, "✗")

	// 990.00 for a transfer of 1,000.00: 10.00 off.
	raw := check("502")
	v = viewtest.Flat(raw)
	assert.Contains(t, v, "✗ Does not add up: the operations add up to 990.00 RUB, the transfer is 1,000.00 RUB: "+
		"10.00 RUB more than its operations")
	assert.NotContains(t, v, "✓")
	assert.Contains(t, v, "RUB: 2 payments 990.00 · 0 refunds 0.00 · to transfer 990.00")
	assert.Contains(t, ansi.Strip(raw), "\n✗ Does not add up", "the check is the line under the title")

	// An operation in another currency.
	v = viewtest.Flat(check("503"))
	assert.Contains(t, v, "✗ Does not add up: 1 operation is in USD, not the transfer's currency")
	assert.NotContains(t, v, "more than its operations", "the RUB operations add up")
	assert.Contains(t, v, "USD: 1 payment 5.00 · 0 refunds 0.00 · to transfer 5.00")
}

// hostileText is text meant to take over a terminal: colour, a window
// title (OSC), an 8-bit CSI, C0 controls, line and paragraph separators,
// a bidi override, "]]>".
const hostileText = "red\x1b[31mALERT\x1b[0m title\x1b]0;pwned\x07 csi\u009b2J c0\x01\x02\x08\x0b\x0c\x0d\x7f " +
	"ls\u2028ps\u2029 bidi\u202eevil\u202c cdata]]> clear\x1b[2J\x1b[H"

// deepNesting is how deep the hostile register nests (the viewer stops at 256).
const deepNesting = 300

// hostileRegister is a register no parser should trust: hostile text in
// its fields, comments, CDATA sections (one of them hiding "]]>"), a
// "billion laughs" DOCTYPE whose biggest entity a field references, and
// elements nested 300 deep.
func hostileRegister() []byte {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	b.WriteString("<!DOCTYPE Response [\n  <!ENTITY lol \"lol\">\n")
	for i := 1; i <= 9; i++ {
		prev := "lol"
		if i > 1 {
			prev = "lol" + strconv.Itoa(i-1)
		}
		fmt.Fprintf(&b, "  <!ENTITY lol%d \"%s\">\n", i, strings.Repeat("&"+prev+";", 10))
	}
	b.WriteString("]>\n")
	b.WriteString("<Response><ErrorCode>0</ErrorCode><Register>\n")
	b.WriteString("<RegisterID>666</RegisterID><RegisterNumber>R-666</RegisterNumber>\n")
	b.WriteString("<Bomb>&lol9;</Bomb>\n")
	b.WriteString("<Operations><Operation><OperationID>1</OperationID><SiteAlias>" + hostileText + "</SiteAlias>\n")
	b.WriteString("<InvoiceID><![CDATA[" + hostileText + "]]]]><![CDATA[>" + hostileText + "]]></InvoiceID>\n")
	b.WriteString("<!-- " + hostileText + " -->\n")
	b.WriteString("<Stamp>2026-11-18T10:00:00</Stamp><CurrencyCode>RUB</CurrencyCode><OperationAmount>1.00</OperationAmount>" +
		"<TransferAmount>1.00</TransferAmount></Operation></Operations>\n")
	b.WriteString("<Note>" + hostileText + "</Note>\n")
	for range deepNesting {
		b.WriteString("<d>\n")
	}
	b.WriteString("deep\n")
	for range deepNesting {
		b.WriteString("</d>\n")
	}
	b.WriteString("</Register></Response>\n")
	return []byte(b.String())
}

// hostileButValid is a register that encoding/xml reads: only characters
// XML allows, yet C1 controls (raw and as references), separators, a bidi
// override and a CDATA section hiding "]]>" in its fields.
func hostileButValid() []byte {
	text := "c1\u009b31m ref&#x9b;2J nel&#x85; ls\u2028 ps&#x2029; bidi\u202e&#x202e;evil"
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	b.WriteString(`<Response><ErrorCode>0</ErrorCode><Register><PeriodFrom>2026-11-18T00:00:00</PeriodFrom>` +
		`<PeriodTo>2026-11-18T23:59:59</PeriodTo><RegisterID>667</RegisterID><RegisterNumber>R-` + text + `</RegisterNumber><Operations>`)
	for i, cur := range []string{"RUB", "RU\u009bB\u202e"} {
		fmt.Fprintf(&b, `<Operation><OperationID>4300%d%s</OperationID><SiteAlias><![CDATA[s]]]]><![CDATA[>%s]]></SiteAlias>`+
			`<InvoiceID>%s</InvoiceID><Stamp>2026-11-18T10:00:00</Stamp><CurrencyCode>%s</CurrencyCode>`+
			`<OperationAmount>500.00</OperationAmount><TransferAmount>500.00</TransferAmount></Operation>`, i, text, text, text, cur)
	}
	b.WriteString(`</Operations></Register></Response>`)
	return []byte(b.String())
}

func TestRegisterHostileContentNeverReachesTheTerminal(t *testing.T) {
	t.Parallel()
	bad := hostileRegister()
	b := fakeV1(t, []fakeTransfer{
		{created: "2026-11-19T06:00:00", amount: "1.00", currency: "RUB", order: "\x1b]0;pwned\x07\u009b31m\u202e1", registerID: "666"},
		{created: "2026-11-18T06:00:00", amount: "1000.00", currency: "RUB", order: "100002", registerID: "667"},
	}, map[string][]byte{"666": bad, "667": hostileButValid()})
	e := newFakeEnv(t, b)
	const w, h = 120, 50
	e.Size(w, h)
	e.Init()
	require.Empty(t, e.Errors())
	require.Len(t, e.transfersShown(), 2)
	assertNeutralView(t, e.View(w, h), "the transfers list")

	bounded := func(view, what string) {
		t.Helper()
		assertNeutralView(t, view, what)
		assert.Less(t, len(view), 64<<10, "%s: %d bytes for %d lines", what, len(view), h)
	}

	// The malformed one: the operations cannot be read, the pane opens on
	// the XML, which says where it stops; the entity is never expanded.
	e.openRegister("666")
	p := e.Tab.(*Registers).Register
	require.Error(t, p.data.err, "encoding/xml refuses it")
	require.True(t, p.showXML, "opened on the XML")
	view := e.View(w, h)
	bounded(view, "the hostile XML")
	plain := ansi.Strip(view)
	assert.Contains(t, plain, "&lol9;", "the reference is shown as written")
	assert.Less(t, strings.Count(plain, "lol"), 200, "never expanded")
	assert.Contains(t, viewtest.LineWith(plain, "<Note>"), "redALERT title csi c0", "the text is there, its controls gone")
	m := regexp.MustCompile(`✗ Malformed XML, shown as far as it parses: line (\d+), column (\d+)`).FindStringSubmatch(plain)
	require.NotNil(t, m, "the error names a line and column:\n%s", plain)
	line, _ := strconv.Atoi(m[1])
	col, _ := strconv.Atoi(m[2])
	rawLines := strings.Split(string(bad), "\n")
	require.Less(t, line-1, len(rawLines))
	require.Less(t, col-1, len(rawLines[line-1]))
	assert.True(t, strings.HasPrefix(rawLines[line-1][col-1:], "<d>"), "line %d column %d is a nested element: %q", line, col, rawLines[line-1])
	firstD := slices.Index(rawLines, "<d>") + 1
	assert.GreaterOrEqual(t, line, firstD+250, "it stops past 250 levels, not earlier")
	assert.Less(t, line, firstD+deepNesting)

	// Scrolled to the end, searched for the escapes: still neutral.
	e.Press("G")
	bounded(e.View(w, h), "the hostile XML's end")
	e.Press("/")
	e.TypeText("[31m")
	e.Press("enter")
	view = e.View(w, h)
	bounded(view, "the hostile XML searched")
	assert.Contains(t, ansi.Strip(view), `for "[31m"`)
	e.Press("esc", "g")

	// Its operations view says why there are none, neutralised too.
	e.Press("w")
	require.False(t, p.showXML)
	view = e.View(w, h)
	bounded(view, "the hostile register's operations")
	assert.Contains(t, ansi.Strip(view), "✗ Could not read the operations")
	assert.Contains(t, ansi.Strip(view), "w shows the answer as far as it parses")
	e.Press("esc")
	require.False(t, p.IsOpen())

	// The valid one decodes: its operations table, its totals and its XML.
	e.openRegister("667")
	require.NoError(t, p.data.err)
	require.Len(t, p.data.reg.Operations, 2)
	require.Contains(t, p.data.reg.Operations[0].InvoiceID, "\u009b", "the C1 control reached the operations")
	require.False(t, p.showXML)
	for _, size := range [][2]int{{w, h}, {80, 24}, {200, 50}} {
		view = e.View(size[0], size[1])
		bounded(view, fmt.Sprintf("the hostile operations at %dx%d", size[0], size[1]))
	}
	view = ansi.Strip(e.View(w, h))
	assert.Contains(t, viewtest.LineWith(view, "> 43000"), "payme", "the operations are drawn, cleaned")
	assert.Contains(t, viewtest.Flat(view), "✗ Does not add up")
	e.Press("w")
	view = e.View(w, h)
	bounded(view, "the hostile valid XML")
	assert.Contains(t, ansi.Strip(view), "&#x9b;2J", "references are shown as written")
	e.Press("/")
	e.TypeText("evil")
	e.Press("enter")
	bounded(e.View(w, h), "the hostile valid XML searched")
}

// --- documents -------------------------------------------------------------------

func TestRegistersDocumentsShowsACSVAsATableAndSavesUnderItsName(t *testing.T) {
	t.Parallel()
	e := newRegistersEnv(t, viewtest.Opts{})
	const w, h = 200, 40
	e.Size(w, h)
	e.Init()
	r := e.Tab.(*Registers)

	e.Press("d")
	require.True(t, r.docs)
	view := ansi.Strip(e.View(w, h))
	assert.Contains(t, strings.Split(view, "\n")[0], "Documents of the v1 account · 22 Oct – 20 Nov 2026 (UTC days) · d: transfers")
	docs := r.Documents.Table.Rows()
	require.NotEmpty(t, docs)

	// The newest acceptance report: a CSV.
	var doc backend.Document
	for _, d := range docs {
		if strings.HasPrefix(d.FileName, "acceptance-report-") {
			doc = d
			break
		}
	}
	require.NotEmpty(t, doc.ID, "an acceptance report was listed: %v", docs)
	_, content, err := e.Store().DocumentContent(doc.ID)
	require.NoError(t, err)
	records, err := csv.NewReader(bytes.NewReader(content)).ReadAll()
	require.NoError(t, err)
	require.Greater(t, len(records), 1)
	for range docs {
		if sel, _ := r.Documents.Selected(); sel.ID == doc.ID {
			break
		}
		e.Press("down")
	}
	e.Press("enter")
	require.True(t, r.document.isOpen())
	view = ansi.Strip(e.View(w, h))
	lines := strings.Split(view, "\n")
	assert.Contains(t, lines[0], "Document "+doc.FileName)
	assert.Contains(t, lines[0], "text/csv")
	header := strings.Fields(lines[1])
	assert.Equal(t, strings.Fields(strings.Join(records[0], " ")), header, "the CSV's header is the table's")
	assert.Contains(t, lines[2], records[1][0], "the first row")
	assert.Contains(t, lines[2], records[1][3], "its amount")
	assert.True(t, strings.HasPrefix(strings.TrimSpace(lines[2]), "> "+records[1][0]))

	// Ctrl+s: under the document's own name.
	e.Send(viewtest.Ctrl('s'))
	d := e.OpenModal()
	assert.Contains(t, d.Screen(), "> "+doc.FileName, "the default path is the document's name")
	path := filepath.Join(t.TempDir(), doc.FileName)
	d.SaveTo(path)
	require.True(t, d.Closed)
	e.Saved()
	got, err := os.ReadFile(path)
	require.NoError(t, err)
	assert.Equal(t, content, got, "saved as received")

	// w: its text.
	e.Press("w")
	view = ansi.Strip(e.View(w, h))
	assert.Contains(t, view, strings.Join(records[0], ","))
	assert.Contains(t, view, strings.Join(records[1], ","))
	e.Press("esc")
	assert.True(t, r.document.isOpen(), "esc goes back to the table first")
	assert.Contains(t, strings.Fields(strings.Split(ansi.Strip(e.View(w, h)), "\n")[1]), records[0][0])
	e.Press("esc")
	assert.False(t, r.document.isOpen())
	assert.True(t, r.docs, "back on the documents")

	// A PDF: its facts, and how to save it.
	var pdf backend.Document
	for _, d := range docs {
		if strings.HasSuffix(d.FileName, ".pdf") {
			pdf = d
			break
		}
	}
	require.NotEmpty(t, pdf.ID)
	for range docs {
		if sel, _ := r.Documents.Selected(); sel.ID == pdf.ID {
			break
		}
		e.Press("up")
	}
	e.Press("enter")
	view = ansi.Strip(e.View(w, h))
	assert.Contains(t, viewtest.LineWith(view, "Type"), "application/pdf")
	assert.Contains(t, viewtest.LineWith(view, "File"), pdf.FileName)
	assert.Contains(t, view, "ctrl+s saves this one as "+pdf.FileName)
	assert.NotContains(t, view, "%PDF", "a PDF's bytes are not drawn")
	e.Send(viewtest.Ctrl('s'))
	d = e.OpenModal()
	assert.Contains(t, d.Screen(), "> "+pdf.FileName)
}

// --- rights --------------------------------------------------------------------------

func TestRegistersWithoutV1SaysWhatIsNeeded(t *testing.T) {
	t.Parallel()
	var count *countingRegisters
	e := startedEnv(t, viewtest.Opts{Tab: New, Fixed: viewtest.GoldenNow, Wrap: func(b backend.Backend) backend.Backend {
		count = &countingRegisters{Backend: b}
		return count
	}}, 80, 24)
	view := viewtest.Flat(e.View(80, 24))
	assert.Contains(t, view, "legacy (v1) interface")
	assert.Contains(t, view, "PAYDASH_V1_LOGIN")
	assert.Contains(t, view, "PAYDASH_V1_PASSWORD")

	e.Press("enter", "d", "w", "/", "n", "N")
	e.Send(viewtest.Ctrl('s'))
	e.Send(ui.RefreshMsg{Manual: true})
	assert.Equal(t, view, viewtest.Flat(e.View(80, 24)), "nothing changes")
	r := e.Tab.(*Registers)
	assert.False(t, r.Register.IsOpen())
	assert.False(t, r.document.isOpen())
	assert.False(t, r.docs)
	assert.Empty(t, e.TakeModals())
	assert.Empty(t, viewtest.Take[ui.SwitchTabMsg](e.Env))
	assert.Empty(t, e.Errors())
	for _, toast := range e.Toasts() {
		assert.NotEqual(t, ui.ToastError, toast.Level, toast.Text)
	}
	assert.Zero(t, count.transfers.Load(), "nothing is asked of the service")
	assert.Zero(t, count.documents.Load())
	ok, why := r.Available(keys.ActOpen)
	assert.False(t, ok)
	assert.NotEmpty(t, why)
}

func TestRegistersWithACashierLoginSaysWhy(t *testing.T) {
	t.Parallel()
	e := newRegistersEnv(t, viewtest.Opts{})
	var cashier sandbox.V1User
	for _, u := range e.Info().V1Users {
		if u.Role == sandbox.RoleCashier {
			cashier = u
		}
	}
	require.NotEmpty(t, cashier.Login)
	b, err := backend.Open(backend.Config{BaseURL: e.Info().BaseURL, RootCAs: e.CertPool(), V1Login: cashier.Login,
		V1Password: cashier.Password, MerchantIDs: e.Info().MerchantIDs, Sandbox: true})
	require.NoError(t, err)
	require.NoError(t, b.Probe(context.Background()), "a Cashier's login is a good login")
	ok, _ := b.Can(backend.ReadRegisters)
	require.False(t, ok, "the probe learned the role")
	count := &countingRegisters{Backend: b}
	e.Tab = New(tab.Deps{Backend: count, Keys: keys.Default(), Now: e.Now, Theme: ui.NewTheme(true, true)})
	e.Size(100, 24)
	e.Init()
	view := viewtest.Flat(e.View(100, 24))
	assert.Contains(t, view, "cannot be read with this login")
	assert.Contains(t, view, "Cashier")
	assert.Contains(t, view, "it may read payments only")
	assert.Contains(t, view, "an Accountant's login")
	e.Press("enter", "d")
	e.Send(viewtest.Ctrl('s'))
	assert.Empty(t, e.TakeModals())
	assert.False(t, e.Tab.(*Registers).Register.IsOpen())
	assert.Empty(t, e.Errors())
	assert.Zero(t, count.transfers.Load())
}

// --- its own period ---------------------------------------------------------------

func TestRegistersKeepsItsOwnPeriod(t *testing.T) {
	t.Parallel()
	var count *countingRegisters
	e := newRegistersEnv(t, viewtest.Opts{Wrap: func(b backend.Backend) backend.Backend {
		count = &countingRegisters{Backend: b}
		return count
	}})
	e.Size(120, 30)
	e.Init()
	r := e.Tab.(*Registers)
	var _ ui.PeriodKeeper = r
	require.Equal(t, int64(1), count.transfers.Load())
	before := e.transfersShown()
	head := strings.Split(ansi.Strip(e.View(120, 30)), "\n")[0]

	// Everyone's scope changes (another merchant, another period): not this tab's.
	e.Send(ui.ScopeMsg{Scope: ui.Scope{MerchantID: "1002", Start: viewtest.GoldenNow.AddDate(0, 0, -1), End: viewtest.GoldenNow, Preset: ui.PresetToday}})
	assert.Equal(t, int64(1), count.transfers.Load(), "no reload")
	assert.Equal(t, before, e.transfersShown())
	assert.Equal(t, head, strings.Split(ansi.Strip(e.View(120, 30)), "\n")[0])
	assert.Equal(t, ui.Preset30Days, r.OwnScope().Preset)

	// Its own period, chosen with p: reloaded.
	own := ui.CustomScope("", time.Date(2026, 11, 10, 0, 0, 0, 0, time.UTC), time.Date(2026, 11, 15, 0, 0, 0, 0, time.UTC))
	e.Send(ui.OwnScopeMsg{Scope: own})
	assert.Equal(t, int64(2), count.transfers.Load(), "reloaded")
	assert.Equal(t, own, r.OwnScope())
	assert.Contains(t, strings.Split(ansi.Strip(e.View(120, 30)), "\n")[0], "Transfers of the v1 account · 10 Nov – 15 Nov 2026 (UTC days)")
	got := e.transfersShown()
	want := e.Store().Transfers(time.Date(2026, 11, 10, 0, 0, 0, 0, time.UTC), time.Date(2026, 11, 16, 0, 0, 0, 0, time.UTC))
	require.NotEmpty(t, want)
	require.Len(t, got, len(want))
	for i, tr := range got {
		assert.Equal(t, want[i].RegisterID, tr.RegisterID)
		day := tr.Created.UTC().Format(time.DateOnly)
		assert.True(t, day >= "2026-11-10" && day <= "2026-11-15", "row %d made on %s", i, day)
	}

	// The open register closes with the period it belonged to.
	e.Press("enter")
	require.True(t, r.Register.IsOpen())
	e.Send(ui.ScopeMsg{Scope: e.Scope})
	assert.True(t, r.Register.IsOpen(), "everyone's scope leaves it open")
	e.Send(ui.OwnScopeMsg{Scope: ui.PresetScope("", ui.Preset7Days, viewtest.GoldenNow)})
	assert.False(t, r.Register.IsOpen())
	assert.Equal(t, int64(3), count.transfers.Load())
}

// --- keys of one screen do not act on another ---------------------------------------

func TestRegistersKeysStayOnTheirScreen(t *testing.T) {
	t.Parallel()
	e := newRegistersEnv(t, viewtest.Opts{})
	e.Size(120, 40)
	e.Init()
	r := e.Tab.(*Registers)
	first := e.transfersShown()[0]

	// With the pane open, d does not switch the lists behind it.
	e.openRegister(first.RegisterID)
	e.Press("d")
	assert.False(t, r.docs)
	assert.True(t, r.Register.IsOpen())
	e.Press("w", "d")
	assert.False(t, r.docs)
	assert.True(t, r.Register.showXML)

	// n and N before any search: nothing.
	top := r.Register.xmlTop
	e.Press("n", "N")
	assert.Equal(t, top, r.Register.xmlTop)
	assert.NotContains(t, ansi.Strip(e.View(120, 40)), "match ")

	// A search, then back to the list: n there is not "next match".
	e.Press("/")
	e.TypeText("invoiceid")
	e.Press("enter")
	require.Positive(t, r.Register.matches.Len())
	e.Press("esc", "esc", "esc")
	require.False(t, r.Register.IsOpen())
	sel, _ := r.transfers.Selected()
	e.Press("n", "N")
	assert.False(t, r.Register.IsOpen(), "n does not open the pane on a match")
	now, _ := r.transfers.Selected()
	assert.Equal(t, sel.RegisterID, now.RegisterID)
	view := ansi.Strip(e.View(120, 40))
	assert.Contains(t, strings.Split(view, "\n")[0], "Transfers of the v1 account")
	assert.NotContains(t, view, "match ")
	assert.Empty(t, e.TakeModals())

	// Typed into the search, d and w are text, not keys.
	e.Press("enter", "/")
	e.Send(viewtest.Ctrl('u'))
	e.TypeText("dw")
	assert.False(t, r.docs)
	assert.True(t, r.Register.showXML, "/ shows the XML")
	assert.Contains(t, ansi.Strip(e.View(120, 40)), "/ dw")
	e.Press("esc")
	assert.False(t, r.Register.searching)
	assert.True(t, r.Register.IsOpen(), "esc leaves the search input, not the pane")

	// The list's filter takes its own keys: d typed there is text.
	e.Press("esc", "esc")
	require.False(t, r.Register.IsOpen())
	e.Press("/")
	e.TypeText("d")
	assert.False(t, r.docs)
	e.Press("esc")
}

func TestRegistersPastedTextGoesWhereTheFocusIs(t *testing.T) {
	t.Parallel()
	e := newRegistersEnv(t, viewtest.Opts{})
	e.Size(120, 40)
	e.Init()
	r := e.Tab.(*Registers)

	t.Run("transfers filter", func(t *testing.T) {
		e.T = t
		e.Press("/")
		e.Send(tea.PasteMsg{Content: "3142"})
		assert.Equal(t, "3142", r.transfers.Filter.Value())
		e.Press("esc", "esc")
	})
	t.Run("register search", func(t *testing.T) {
		e.T = t
		e.openRegister(e.transfersShown()[0].RegisterID)
		e.Press("/")
		e.Send(tea.PasteMsg{Content: "InvoiceID"})
		got := r.Register.searchInput.Value()
		e.Press("esc", "esc", "esc")
		assert.Equal(t, "InvoiceID", got)
	})
	t.Run("documents filter", func(t *testing.T) {
		e.T = t
		e.Press("d", "/")
		e.Send(tea.PasteMsg{Content: "acceptance"})
		assert.Equal(t, "acceptance", r.Documents.Filter.Value())
	})
}

// --- golden screens ---------------------------------------------------------------

func TestRegistersGoldenScreens(t *testing.T) {
	t.Parallel()
	e := newRegistersEnv(t, viewtest.Opts{})
	e.Size(80, 24)
	e.Init()
	// The newest register with a refund: both kinds of operation show.
	id := ""
	for _, tr := range e.transfersShown() {
		if slices.ContainsFunc(e.sandboxRegister(tr.RegisterID).Operations, func(op sandbox.RegisterOperation) bool { return op.Refund }) {
			id = tr.RegisterID
			break
		}
	}
	require.NotEmpty(t, id)
	e.openRegister(id)
	viewtest.GoldenCheck(t, "registers_ops_80x24", ansi.Strip(e.View(80, 24)))
	viewtest.GoldenCheck(t, "registers_ops_200x50", ansi.Strip(e.View(200, 50)))

	e.Size(80, 24)
	e.Press("w", "/")
	e.TypeText("invoiceid")
	e.Press("enter", "n")
	viewtest.GoldenCheck(t, "registers_xml_search_80x24", ansi.Strip(e.View(80, 24)))
}

// r reads an open register again and stays where the reader was: on the
// same operation, at the same XML line; the periodic refresh leaves an
// open register alone (a register never changes once made).
func TestRegisterReadAgainKeepsThePlace(t *testing.T) {
	t.Parallel()
	e := newRegistersEnv(t, viewtest.Opts{})
	e.Size(120, 40)
	e.Init()
	p := e.Tab.(*Registers).Register
	var tr backend.Transfer
	for _, row := range e.transfersShown() { // one long enough to scroll
		if tr = e.openRegister(row.RegisterID); len(p.data.reg.Operations) > 40 {
			break
		}
		e.Press("esc")
	}
	require.Greater(t, len(p.data.reg.Operations), 40)
	e.Press("down", "down", "down")
	before := p.data

	e.Send(ui.RefreshMsg{})
	assert.Same(t, before, p.data, "the periodic refresh does not read the register again")

	e.Send(ui.RefreshMsg{Manual: true})
	require.NotSame(t, before, p.data, "r reads it again")
	i, ok := p.ops.Selected()
	require.True(t, ok)
	assert.Equal(t, int32(3), i, "still on the fourth operation")
	assert.Equal(t, tr.RegisterID, p.transfer.RegisterID)

	e.Press("w", "pgdown")
	top := p.xmlTop
	require.Positive(t, top)
	e.Send(ui.RefreshMsg{Manual: true})
	assert.Equal(t, top, p.xmlTop, "the XML view keeps its line")
}

// The transfers sort; in a register's pane s does nothing; the documents
// sort by their own keys.
func TestRegistersSortTransfersAndDocuments(t *testing.T) {
	t.Parallel()
	// Registers: the transfers sort; in a register's pane s does nothing.
	e := newRegistersEnv(t, viewtest.Opts{})
	e.Size(120, 40)
	e.Init()
	reg := e.Tab.(*Registers)
	e.SortBy("Amount")
	assert.True(t, slices.IsSortedFunc(e.transfersShown(), func(a, b backend.Transfer) int {
		if c := cmp.Compare(a.Amount.Currency, b.Amount.Currency); c != 0 {
			return c // the currencies apart, A → Z
		}
		return cmp.Compare(b.Amount.Value, a.Amount.Value)
	}))
	assert.Contains(t, ansi.Strip(e.View(120, 40)), "sorted by Amount ▼ largest first in each currency")
	e.Press("enter")
	require.True(t, reg.Register.IsOpen())
	ok, _ := reg.Available(keys.ActSort)
	assert.False(t, ok, "a register's operations keep the service's order")
	e.Press("s")
	assert.Empty(t, e.TakeModals())
	e.Press("esc")
	e.Press("d")
	e.Press("S")
	key, desc := reg.Documents.Table.SortKey()
	assert.Equal(t, "date", key)
	assert.False(t, desc, "oldest first")
	assert.Contains(t, ansi.Strip(e.View(120, 40)), "sorted by Created ▲ oldest first")
}
