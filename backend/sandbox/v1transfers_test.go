package sandbox

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend/money"
)

type tTransferList struct {
	Transfers []tV1Transfer `json:"Transfers"`
}

type tRegisterAnswer struct {
	Register tV1Register `json:"Register"`
}

type tDocumentList struct {
	Documents []tV1Document `json:"Documents"`
}

// xmlCall sends an operation with xml=1 and parses the answer.
func (c *v1Client) xmlCall(op string, params ...string) (tV1XML, []byte) {
	c.t.Helper()
	resp, b := c.send(v1Req{op: op, params: append(params, "xml", "1")})
	require.Equal(c.t, http.StatusOK, resp.StatusCode)
	require.Contains(c.t, resp.Header.Get("Content-Type"), "xml")
	require.True(c.t, bytes.HasPrefix(b, []byte(`<?xml version="1.0" encoding="UTF-8"?>`)), string(b[:min(len(b), 80)]))
	var out tV1XML
	require.NoError(c.t, xml.Unmarshal(b, &out), string(b[:min(len(b), 400)]))
	return out, b
}

func dec(t testing.TB, n json.Number) money.Decimal {
	t.Helper()
	d, err := money.Parse(string(n))
	require.NoError(t, err, n)
	return d
}

// xmlVisible is s as XML carries it: control characters other than tab, CR
// and LF replaced by U+FFFD.
func xmlVisible(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 && r != '\t' && r != '\n' && r != '\r' {
			return '\uFFFD'
		}
		return r
	}, s)
}

// checkRegister verifies a register against the store: every operation is
// a real settled payment or successful refund of the period, site and
// currency; every one of them is there; the amounts add up.
func checkRegister(t *testing.T, st *Store, tr tV1Transfer, reg tV1Register) {
	t.Helper()
	require.Equal(t, tr.RegisterID, reg.RegisterID)
	from, err := time.Parse("2006-01-02T15:04:05", reg.PeriodFrom)
	require.NoError(t, err)
	to, err := time.Parse("2006-01-02T15:04:05", reg.PeriodTo)
	require.NoError(t, err)
	end := to.Add(time.Second)
	require.NotEmpty(t, reg.Operations)
	site := reg.Operations[0].SiteAlias
	m, ok := st.Merchant(site)
	require.True(t, ok)
	bp := map[string]int64{"coffee": 210, "books": 240, "travel": 280, "electronics": 190}[m.Kind]
	var sum money.Decimal
	seen := map[string]bool{}
	for _, op := range reg.Operations {
		assert.Equal(t, site, op.SiteAlias)
		assert.Equal(t, tr.CurrencyCode, op.CurrencyCode)
		amount, transfer := dec(t, op.OperationAmount), dec(t, op.TransferAmount)
		sum += transfer
		stamp, err := time.Parse("2006-01-02T15:04:05", op.Stamp)
		require.NoError(t, err)
		assert.False(t, stamp.Before(from) || !stamp.Before(end), "stamp %s in [%s, %s)", op.Stamp, reg.PeriodFrom, reg.PeriodTo)
		id := string(op.OperationID)
		seen[id] = true
		if strings.HasPrefix(id, "43") {
			p, err := st.GetPayment(id)
			require.NoError(t, err)
			assert.Equal(t, PaymentSettled, p.Status)
			assert.Equal(t, p.Captured, amount)
			assert.Equal(t, xmlVisible(p.Invoice.OrderNo), xmlVisible(op.InvoiceID))
			assert.Equal(t, p.Completed.Format("2006-01-02T15:04:05"), op.Stamp)
			kopecks := int64(amount) / 100
			fee := money.Decimal((kopecks*bp + 5000) / 10000 * 100)
			assert.Equal(t, amount-fee, transfer, "payment %s: commission %d bp rounded half up", id, bp)
		} else {
			r, err := st.GetRefund(id)
			require.NoError(t, err)
			assert.Equal(t, RefundSuccess, r.Status)
			assert.Equal(t, -r.Amount.Value, amount)
			assert.Equal(t, amount, transfer, "no commission on a refund")
			p, _ := st.GetPayment(r.PaymentID)
			assert.Equal(t, xmlVisible(p.Invoice.OrderNo), xmlVisible(op.InvoiceID))
		}
	}
	assert.Equal(t, dec(t, tr.TransferAmount), sum, "the transfer is the sum of its operations")
	// Nothing of the period is missing.
	want := 0
	all, _ := st.FilterPayments(PaymentFilter{MerchantIDs: []string{site}, Statuses: []PaymentStatus{PaymentSettled}, Limit: 1 << 30})
	for _, p := range all {
		if p.Amount.Currency == tr.CurrencyCode && !p.Completed.Before(from) && p.Completed.Before(end) {
			want++
			assert.True(t, seen[p.ID], "payment %s is in the register", p.ID)
		}
	}
	refunds, _ := st.FilterRefunds(RefundFilter{MerchantIDs: []string{site}, Limit: 1 << 30})
	for _, r := range refunds {
		if r.Status == RefundSuccess && r.Amount.Currency == tr.CurrencyCode && !r.Updated.Before(from) && r.Updated.Before(end) {
			want++
			assert.True(t, seen[r.ID], "refund %s is in the register", r.ID)
		}
	}
	assert.Equal(t, want, len(reg.Operations))
}

func TestV1TransfersAndRegisters(t *testing.T) {
	clock := newFakeClock() // 2026-03-10 12:00 UTC; the seed starts 2025-12-10
	srv := start(t, Options{Payments: 4000, Now: clock.Now, SettleDelay: time.Second})
	st := srv.Store()
	acc := newV1Client(t, srv, "accountant")

	list := response[tTransferList](t, acc.ok("listTransfers")).Transfers
	require.NotEmpty(t, list)
	x, _ := acc.xmlCall("listTransfers")
	require.Zero(t, x.ErrorCode)
	assert.Equal(t, list, x.Transfers, "XML and JSON list the same transfers")
	assert.Len(t, list, len(st.Transfers(time.Time{}, time.Time{})))
	for i, tr := range list {
		created, err := time.Parse("2006-01-02T15:04:05", tr.Created)
		require.NoError(t, err)
		assert.False(t, created.After(clock.Now()), "made by now")
		if i > 0 {
			assert.GreaterOrEqual(t, list[i-1].Created, tr.Created, "newest first")
		}
		assert.Len(t, string(tr.PaymentOrderID), 6)
	}
	// Transfers made on one day, both bounds inclusive.
	day := "2026-03-01"
	oneDay := response[tTransferList](t, acc.ok("listTransfers", "accountID", V1AccountID, "periodFrom", day, "periodTo", day)).Transfers
	// Daily: 1002, 1003 (RUB, EUR, USD: those it had) and 1004 for Feb 28;
	// monthly: 1001 for February.
	require.GreaterOrEqual(t, len(oneDay), 4, "%+v", oneDay)
	require.LessOrEqual(t, len(oneDay), 6, "%+v", oneDay)
	numbers := map[string]tV1Transfer{}
	for _, tr := range oneDay {
		assert.True(t, strings.HasPrefix(tr.Created, day), tr.Created)
		reg := response[tRegisterAnswer](t, acc.ok("getTransferRegister", "registerID", string(tr.RegisterID))).Register
		numbers[reg.RegisterNumber] = tr
		checkRegister(t, st, tr, reg)
		// The XML form is the same register.
		xr, _ := acc.xmlCall("getTransferRegister", "registerID", string(tr.RegisterID))
		require.NotNil(t, xr.Register)
		assert.Equal(t, reg, *xr.Register)
	}
	for _, n := range []string{"R-1001-202602", "R-1002-20260228", "R-1003-20260228", "R-1004-20260228"} {
		assert.Contains(t, numbers, n)
	}
	for n := range numbers {
		assert.Contains(t, []string{"R-1001-202602", "R-1002-20260228", "R-1003-20260228", "R-1003-20260228-EUR",
			"R-1003-20260228-USD", "R-1004-20260228"}, n)
	}
	// Since March the coffee site is settled daily.
	mar := response[tTransferList](t, acc.ok("listTransfers", "periodFrom", "2026-03-05", "periodTo", "2026-03-05")).Transfers
	var coffee *tV1Transfer
	for i := range mar {
		reg := response[tRegisterAnswer](t, acc.ok("getTransferRegister", "registerID", string(mar[i].RegisterID))).Register
		if reg.RegisterNumber == "R-1001-20260304" {
			coffee = &mar[i]
			checkRegister(t, st, mar[i], reg)
		}
	}
	require.NotNil(t, coffee)

	// Registers that do not exist (yet).
	acc.wantCode(v1ErrUnknown, "register 1 not found", v1Req{op: "getTransferRegister", params: []string{"registerID", "1"}})
	acc.wantCode(v1ErrUnknown, "registerID is required", v1Req{op: "getTransferRegister"})
	today := strconv.FormatInt(registerSeq(dayOf(clock.Now()), 1, 0, false), 10)
	acc.wantCode(v1ErrUnknown, "register "+today+" not found", v1Req{op: "getTransferRegister", params: []string{"registerID", today}})

	// A payment today, with markup and a control character in its order
	// number and description, and a refund of an older one: both in
	// today's register once it is made (tomorrow 06:07; all are made by 06:24), escaped in XML.
	c := newClient(t, srv)
	nasty := "<b>&\"'\x01 ORD"
	p := c.pay(cardPayment("1002", "4111111111111111", "999.99", func(b map[string]any) {
		b["invoice"] = map[string]any{"description": "Books " + nasty, "orderNo": nasty}
	}))
	assert.Equal(t, "Books "+nasty, acc.ok("getPayment", "paymentID", p.ID).Payment.Purpose, "JSON keeps the text exactly")
	old, _ := st.FilterPayments(PaymentFilter{MerchantIDs: []string{"1002"}, Statuses: []PaymentStatus{PaymentSettled}, End: clock.Now().AddDate(0, 0, -3), Limit: 50})
	var refunded Payment
	for _, o := range old {
		if o.Remaining() >= 20000 {
			refunded = o
			break
		}
	}
	require.NotEmpty(t, refunded.ID)
	ref := acc.post("refundPayment", "paymentID", refunded.ID, "amount", "2.00").Refund
	before := response[tTransferList](t, acc.ok("listTransfers")).Transfers

	clock.Advance(18 * time.Hour) // 06:00 tomorrow: not made yet
	st.RunDue()                   // the refund succeeds (stamped at its due time, today)
	acc.wantCode(v1ErrUnknown, "not found", v1Req{op: "getTransferRegister", params: []string{"registerID", today}})
	clock.Advance(30 * time.Minute)
	tomorrow := clock.Now().Format(time.DateOnly)
	made := response[tTransferList](t, acc.ok("listTransfers", "periodFrom", tomorrow)).Transfers
	require.GreaterOrEqual(t, len(made), 4, "a transfer per site and currency of yesterday")
	assert.Len(t, response[tTransferList](t, acc.ok("listTransfers")).Transfers, len(before)+len(made))
	var tr tV1Transfer
	for _, m := range made {
		if string(m.RegisterID) == today {
			tr = m
		}
	}
	require.Equal(t, json.Number(today), tr.RegisterID)
	xr, raw := acc.xmlCall("getTransferRegister", "registerID", today)
	require.NotNil(t, xr.Register)
	assert.NotContains(t, string(raw), "\x01", "no character XML 1.0 forbids")
	assert.Contains(t, string(raw), "&lt;b&gt;&amp;")
	var mine, refundOp *tV1Operation
	for i, op := range xr.Register.Operations {
		switch string(op.OperationID) {
		case p.ID:
			mine = &xr.Register.Operations[i]
		case string(ref.RefundID):
			refundOp = &xr.Register.Operations[i]
		}
	}
	require.NotNil(t, mine)
	assert.Equal(t, "<b>&\"'\uFFFD ORD", mine.InvoiceID)
	assert.Equal(t, json.Number("999.99"), mine.OperationAmount)
	assert.Equal(t, json.Number("975.99"), mine.TransferAmount, "999.99 less 2.4% (23.99976 rounded half up to 24.00)")
	require.NotNil(t, refundOp)
	assert.Equal(t, json.Number("-2.00"), refundOp.OperationAmount)
	assert.Equal(t, refunded.Invoice.OrderNo, refundOp.InvoiceID)
	checkRegister(t, st, tr, *xr.Register)

	// The same register answers the same, however many payments arrive.
	first := acc.ok("getTransferRegister", "registerID", today).Response
	for range 5 {
		c.pay(cardPayment("1002", "4111111111111111", "10"))
		st.Arrive()
	}
	st.RunDue()
	assert.JSONEq(t, string(first), string(acc.ok("getTransferRegister", "registerID", today).Response))

	// An XML error is XML too, its message escaped.
	xe, _ := acc.xmlCall("getTransferRegister", "registerID", "<&>\"'\x02")
	assert.Equal(t, v1ErrUnknown, xe.ErrorCode)
	assert.Contains(t, xe.Message, "register <&>\"'")
	xe, _ = acc.xmlCall("listTransfers", "periodFrom", "yesterday")
	assert.Equal(t, v1ErrUnknown, xe.ErrorCode)
	assert.Contains(t, xe.Message, "periodFrom")
	// xml=1 is ignored where XML is not offered.
	assert.Zero(t, acc.call(v1Req{op: "getPayment", params: []string{"paymentID", p.ID, "xml", "1"}}).ErrorCode)
}

func TestV1Documents(t *testing.T) {
	clock := newFakeClock()
	srv := start(t, Options{Payments: 4000, Now: clock.Now})
	st := srv.Store()
	acc := newV1Client(t, srv, "accountant")

	docs := response[tDocumentList](t, acc.ok("listDocuments")).Documents
	// Three kinds for each of the 4 sites for December (from the 10th),
	// January and February.
	require.Len(t, docs, 36)
	x, _ := acc.xmlCall("listDocuments")
	assert.Equal(t, docs, x.Documents)
	march := response[tDocumentList](t, acc.ok("listDocuments", "periodFrom", "2026-03-01", "periodTo", "2026-03-01")).Documents
	require.Len(t, march, 12)
	byName := map[string]tV1Document{}
	for _, d := range march {
		assert.True(t, strings.HasPrefix(d.Created, "2026-03-01T"))
		assert.Contains(t, d.Description, "February 2026")
		byName[d.FileName] = d
	}

	get := func(name string) (*http.Response, []byte) {
		d, ok := byName[name]
		require.True(t, ok, name)
		resp, b := acc.send(v1Req{op: "getDocumentContent", params: []string{"documentID", string(d.DocumentID)}})
		require.Equal(t, http.StatusOK, resp.StatusCode)
		assert.Equal(t, `attachment; filename="`+name+`"`, resp.Header.Get("Content-Disposition"))
		return resp, b
	}

	// The acceptance report's days add up to the registers: the coffee
	// site's February register (monthly) and the books site's daily ones.
	transfers := st.Transfers(time.Time{}, time.Time{})
	regAmount := map[string]money.Decimal{}
	for _, tr := range transfers {
		regAmount[tr.RegisterNumber] = tr.Amount
	}
	readCSV := func(b []byte) [][]string {
		rows, err := csv.NewReader(bytes.NewReader(b)).ReadAll()
		require.NoError(t, err)
		return rows
	}
	resp, b := get("acceptance-report-1001-2026-02.csv")
	assert.Equal(t, "text/csv; charset=utf-8", resp.Header.Get("Content-Type"))
	rows := readCSV(b)
	require.Equal(t, []string{"Date", "Currency", "Payments", "Amount", "Refunds", "Commission", "To transfer"}, rows[0])
	require.Len(t, rows, 1+28, "one row per day of February")
	var month money.Decimal
	for _, r := range rows[1:] {
		amount, refunds, fee, to := money.MustParse(r[3]), money.MustParse(r[4]), money.MustParse(r[5]), money.MustParse(r[6])
		assert.Equal(t, amount-refunds-fee, to, r)
		month += to
	}
	assert.Equal(t, regAmount["R-1001-202602"], month)
	_, b = get("acceptance-report-1002-2026-02.csv")
	rows = readCSV(b)
	require.Len(t, rows, 1+28)
	for _, r := range rows[1:] {
		n := "R-1002-" + strings.ReplaceAll(r[0], "-", "")
		assert.Equal(t, regAmount[n], money.MustParse(r[6]), n)
	}
	_, b = get("acceptance-report-1003-2026-02.csv")
	assert.Len(t, readCSV(b), 1+28*3, "a row per day and currency")

	// The transfers statement lists the month's transfers.
	_, b = get("transfers-1003-2026-02.csv")
	rows = readCSV(b)
	require.Greater(t, len(rows), 28)
	for _, r := range rows[1:] {
		assert.Equal(t, regAmount[r[3]], money.MustParse(r[11]), r)
	}

	// The act is a PDF.
	resp, b = get("act-1001-2026-02.pdf")
	assert.Equal(t, "application/pdf", resp.Header.Get("Content-Type"))
	checkPDF(t, b)
	assert.Contains(t, string(b), "Daily Grind Coffee")

	// Unknown documents.
	env := acc.wantCode(v1ErrUnknown, "document 1 not found", v1Req{op: "getDocumentContent", params: []string{"documentID", "1"}})
	_ = env
	resp, _ = acc.send(v1Req{op: "getDocumentContent", params: []string{"documentID", "605999"}})
	assert.Equal(t, "application/json", resp.Header.Get("Content-Type"))
	future := strconv.Itoa(docBase + int(monthNumber(monthOf(clock.Now())))*16)
	acc.wantCode(v1ErrUnknown, "document "+future+" not found", v1Req{op: "getDocumentContent", params: []string{"documentID", future}})
}

// checkPDF checks a PDF's frame: header, %%EOF, and an xref table whose
// offsets point at the objects.
func checkPDF(t *testing.T, b []byte) {
	t.Helper()
	require.True(t, bytes.HasPrefix(b, []byte("%PDF-1.4\n")))
	require.True(t, bytes.HasSuffix(b, []byte("%%EOF")))
	m := regexp.MustCompile(`startxref\n(\d+)\n%%EOF$`).FindSubmatch(b)
	require.NotNil(t, m)
	off, _ := strconv.Atoi(string(m[1]))
	require.True(t, bytes.HasPrefix(b[off:], []byte("xref\n0 ")), "startxref points at the table")
	lines := strings.Split(string(b[off:]), "\n")
	n, _ := strconv.Atoi(strings.Fields(lines[1])[1])
	require.Equal(t, 8, n)
	assert.Equal(t, "0000000000 65535 f ", lines[2])
	for i := 1; i < n; i++ {
		e := lines[2+i]
		require.Len(t, e, 19, "entries are 20 bytes with the newline")
		at, _ := strconv.Atoi(e[:10])
		assert.True(t, bytes.HasPrefix(b[at:], fmt.Appendf(nil, "%d 0 obj\n", i)), "object %d at %d", i, at)
	}
	ls := regexp.MustCompile(`<< /Length (\d+) >>\nstream\n`).FindSubmatchIndex(b)
	require.NotNil(t, ls)
	length, _ := strconv.Atoi(string(b[ls[2]:ls[3]]))
	assert.True(t, bytes.HasPrefix(b[ls[1]+length:], []byte("\nendstream")), "the stream length is exact")
	assert.Contains(t, string(b), "/Root 1 0 R")
}

// BenchmarkRegister builds the biggest register (the coffee site's monthly
// one) and renders it as XML, through the handler without TLS.
func BenchmarkRegister(b *testing.B) {
	now := time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)
	for _, payments := range []int{DefaultPayments, 300000} {
		b.Run(fmt.Sprintf("payments=%d", payments), func(b *testing.B) {
			srv := start(b, Options{Payments: payments, Now: func() time.Time { return now }})
			st := srv.Store()
			u, _ := st.V1User("accountant")
			id := strconv.FormatInt(registerSeq(time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC), 0, 0, true), 10)
			reg, err := st.Register(id)
			require.NoError(b, err)
			h := srv.srv.Handler
			for _, format := range []string{"xml", "json"} {
				b.Run("format="+format, func(b *testing.B) {
					var size int
					i := 0
					for b.Loop() {
						i++
						nonce := "bench-" + format + strconv.Itoa(i)
						q := url.Values{"registerID": {id}, "login": {u.Login}, "nonce": {nonce},
							"hash": {tSign(u.Login, u.Password, nonce, []string{id})}}
						ok := []byte(`"ErrorCode":0`)
						if format == "xml" {
							q.Set("xml", "1")
							ok = []byte("<ErrorCode>0</ErrorCode>")
						}
						rec := httptest.NewRecorder()
						h.ServeHTTP(rec, httptest.NewRequest("GET", "/api/v1/getTransferRegister?"+q.Encode(), nil))
						if rec.Code != 200 || !bytes.Contains(rec.Body.Bytes()[:100], ok) {
							b.Fatal(rec.Code, rec.Body.String()[:200])
						}
						size = rec.Body.Len()
					}
					b.ReportMetric(float64(len(reg.Operations)), "operations")
					b.ReportMetric(float64(size)/(1<<20), "MiB")
				})
			}
		})
	}
}

// The register's hand-written XML is byte for byte what encoding/xml writes.
func TestRegisterXMLMatchesEncoder(t *testing.T) {
	at := time.Date(2026, 2, 3, 4, 5, 6, 789e6, time.UTC)
	reg := Register{Transfer: Transfer{RegisterID: "305784", RegisterNumber: "R-1003-20260228-EUR",
		PeriodFrom: time.Date(2026, 2, 28, 0, 0, 0, 0, time.UTC), PeriodTo: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)}}
	for i, inv := range []string{"ORD-1", "<b>&\"'\\", "tab\there\nnew\rline", "\x01\x1f\x7f", "Заказ №5", "bad \xff utf8", "\uFFFE\U0001F600\u2028", ""} {
		reg.Operations = append(reg.Operations, RegisterOperation{OperationID: strconv.Itoa(43000000 + i), MerchantID: "1003",
			InvoiceID: inv, Stamp: at, Currency: []string{"RUB", "EUR", "JPY", "KWD"}[i%4],
			Amount: money.Decimal(int64(i*123457) - 300000), TransferAmount: money.Decimal(-int64(i * 7))})
	}
	var want bytes.Buffer
	want.WriteString(xml.Header)
	require.NoError(t, xml.NewEncoder(&want).Encode(&v1XML{Register: renderV1Register(&reg)}))
	var got bytes.Buffer
	writeRegisterXML(&got, &reg)
	assert.Equal(t, want.String(), got.String())
	var back tV1XML
	require.NoError(t, xml.Unmarshal(got.Bytes(), &back))
	require.Len(t, back.Register.Operations, len(reg.Operations))

	// And the JSON is what encoding/json writes.
	wantJSON, err := json.Marshal(&v1Envelope{Response: &v1RegisterJSON{Register: renderV1Register(&reg)}})
	require.NoError(t, err)
	got.Reset()
	writeRegisterJSON(&got, &reg)
	assert.Equal(t, string(wantJSON), got.String())
	require.True(t, json.Valid(got.Bytes()))

	for _, v := range []string{"0", "1", "-1", "0.5", "-0.5", "10.5", "1250", "0.0001", "-12.3456", "99999999.99", "-0.01"} {
		d := money.MustParse(v)
		for places := range 6 {
			assert.Equal(t, d.StringFixed(places), string(appendFixed(nil, d, places)), "%s %d", v, places)
		}
	}
}
