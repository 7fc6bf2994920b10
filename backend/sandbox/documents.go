package sandbox

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"paydash/backend/money"
)

// Documents (v1 listDocuments, getDocumentContent): for each site and each
// month that has ended and had settled operations, three documents made
// docDelay after the month (after the month's last transfer):
//
//	kind 0  Acceptance report         CSV: one row per day and currency (date, payments,
//	                                  amount, refunds, commission, to transfer), the
//	                                  same numbers as the registers
//	kind 1  Transfers                 CSV: the transfers of the month's operations
//	kind 2  Act of services rendered  PDF 1.4, one page: the commission as the service
//
// Like registers they are derived when asked, from the ledger, so they read
// the same every time. A document id is 600000 + month*16 + site*4 + kind,
// the month counted from January 2000 (February 2026 at site 1001: 605008,
// 605009, 605010).

const docDelay = 9 * time.Hour

// Document is one downloadable file of a site.
type Document struct {
	ID          string
	MerchantID  string
	Kind        string // acceptance-report, transfers, act
	Month       time.Time
	Created     time.Time
	Description string
	FileName    string
	ContentType string
}

type docKind struct {
	name, title, ext, contentType string
}

var docKinds = []docKind{
	{"acceptance-report", "Acceptance report", "csv", "text/csv; charset=utf-8"},
	{"transfers", "Transfers", "csv", "text/csv; charset=utf-8"},
	{"act", "Act of services rendered", "pdf", "application/pdf"},
}

const docBase = 600000

func monthNumber(month time.Time) int64 {
	return int64(month.Year()-2000)*12 + int64(month.Month()-1)
}

func (s *Store) newDocument(mi, kind int, month time.Time) Document {
	m := s.merchants[mi]
	k := docKinds[kind]
	end := month.AddDate(0, 1, 0)
	return Document{
		ID:         strconv.FormatInt(docBase+monthNumber(month)*16+int64(mi*4+kind), 10),
		MerchantID: m.ID, Kind: k.name, Month: month,
		Created:     end.Add(docDelay + time.Duration(mi*10+kind*2)*time.Minute),
		Description: fmt.Sprintf("%s, %s (site %s), %s %d", k.title, m.Name, m.ID, month.Month(), month.Year()),
		FileName:    fmt.Sprintf("%s-%s-%s.%s", k.name, m.ID, month.Format("2006-01"), k.ext),
		ContentType: k.contentType,
	}
}

// hasOps reports whether a site settled anything in [lo, hi), under the read lock.
func (s *Store) hasOps(m *merchantData, lo, hi time.Time) bool {
	sl := s.ledger.sites[m.ID]
	if sl == nil {
		return false
	}
	a, b := between(sl.payments, paymentStamp, lo, hi)
	if a < b {
		return true
	}
	a, b = between(sl.refunds, refundStamp, lo, hi)
	return a < b
}

// Documents lists the documents created in [from, to) (zero: unbounded) and
// by now, newest first (created, then id, descending).
func (s *Store) Documents(from, to time.Time) []Document {
	s.ledgerReady()
	s.mu.RLock()
	defer s.mu.RUnlock()
	now := s.clock()
	first := monthOf(s.seededAt().AddDate(0, 0, -seedDays-1))
	if !from.IsZero() {
		if f := monthOf(from.Add(-docDelay-time.Hour)).AddDate(0, -1, 0); f.After(first) {
			first = f
		}
	}
	var out []Document
	for month := first; ; month = month.AddDate(0, 1, 0) {
		end := month.AddDate(0, 1, 0)
		if end.Add(docDelay).After(now) || !to.IsZero() && !end.Before(to) {
			break
		}
		for mi, m := range s.merchants {
			if mi >= maxLedgerSites || !s.hasOps(m, month, end) {
				continue
			}
			for kind := range docKinds {
				d := s.newDocument(mi, kind, month)
				if d.Created.After(now) || !from.IsZero() && d.Created.Before(from) || !to.IsZero() && !d.Created.Before(to) {
					continue
				}
				out = append(out, d)
			}
		}
	}
	slices.SortFunc(out, func(a, b Document) int {
		if c := b.Created.Compare(a.Created); c != 0 {
			return c
		}
		return strings.Compare(b.ID, a.ID)
	})
	return out
}

// decodeDocument finds the document an id names, if it exists by now
// (under the read lock).
func (s *Store) decodeDocument(id string) (Document, int, bool) {
	n, ok := seqOf(id)
	if !ok || n < docBase || n > 1<<40 {
		return Document{}, 0, false
	}
	n -= docBase
	mn, slot := n/16, int(n%16)
	mi, kind := slot/4, slot%4
	if mi >= len(s.merchants) || mi >= maxLedgerSites || kind >= len(docKinds) {
		return Document{}, 0, false
	}
	month := time.Date(2000+int(mn/12), time.Month(mn%12+1), 1, 0, 0, 0, 0, time.UTC)
	d := s.newDocument(mi, kind, month)
	if d.ID != id || d.Created.After(s.clock()) || !s.hasOps(s.merchants[mi], month, month.AddDate(0, 1, 0)) {
		return Document{}, 0, false
	}
	return d, mi, true
}

// GetDocument describes one document (NotFoundError, kind "document").
func (s *Store) GetDocument(id string) (Document, error) {
	s.ledgerReady()
	s.mu.RLock()
	defer s.mu.RUnlock()
	d, _, ok := s.decodeDocument(id)
	if !ok {
		return Document{}, &NotFoundError{Kind: "document", ID: id}
	}
	return d, nil
}

// DocumentContent makes a document's file.
func (s *Store) DocumentContent(id string) (Document, []byte, error) {
	s.ledgerReady()
	s.mu.RLock()
	d, mi, ok := s.decodeDocument(id)
	if !ok {
		s.mu.RUnlock()
		return Document{}, nil, &NotFoundError{Kind: "document", ID: id}
	}
	m := s.merchants[mi]
	end := d.Month.AddDate(0, 1, 0)
	var (
		totals    map[[2]string]*dayTotals
		transfers []Transfer
	)
	switch d.Kind {
	case "transfers":
		for _, t := range s.bucket(mi, d.Month, end) {
			transfers = append(transfers, *t)
		}
	default:
		totals = s.dailyTotals(m, d.Month, end)
	}
	merchant := m.Merchant
	s.mu.RUnlock()

	var body []byte
	switch d.Kind {
	case "acceptance-report":
		body = acceptanceCSV(merchant, d.Month, totals)
	case "transfers":
		body = transfersCSV(transfers)
	default:
		body = actPDF(merchant, d, totals)
	}
	return d, body, nil
}

// currenciesIn lists the site's currencies that appear in totals, in the
// site's order.
func currenciesIn(m Merchant, totals map[[2]string]*dayTotals) []string {
	seen := map[string]bool{}
	for k := range totals {
		seen[k[1]] = true
	}
	var out []string
	for _, c := range m.Currencies {
		if seen[c] {
			out = append(out, c)
		}
	}
	return out
}

func fixedIn(v money.Decimal, currency string) string { return v.StringFixed(money.Decimals(currency)) }

func acceptanceCSV(m Merchant, month time.Time, totals map[[2]string]*dayTotals) []byte {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	_ = w.Write([]string{"Date", "Currency", "Payments", "Amount", "Refunds", "Commission", "To transfer"})
	currencies := currenciesIn(m, totals)
	for day := month; day.Before(month.AddDate(0, 1, 0)); day = day.AddDate(0, 0, 1) {
		for _, c := range currencies {
			t := totals[[2]string{day.Format(time.DateOnly), c}]
			if t == nil {
				t = &dayTotals{}
			}
			_ = w.Write([]string{day.Format(time.DateOnly), c, strconv.Itoa(t.Payments), fixedIn(t.Amount, c),
				fixedIn(t.Refunds, c), fixedIn(t.Commission, c), fixedIn(t.Transfer, c)})
		}
	}
	w.Flush()
	return buf.Bytes()
}

func transfersCSV(transfers []Transfer) []byte {
	slices.SortFunc(transfers, func(a, b Transfer) int {
		if c := a.PeriodFrom.Compare(b.PeriodFrom); c != 0 {
			return c
		}
		return strings.Compare(a.RegisterID, b.RegisterID)
	})
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	_ = w.Write([]string{"Created", "Payment order", "Register ID", "Register number", "Period from", "Period to",
		"Currency", "Operations", "Payments", "Refunds", "Commission", "Transfer amount"})
	for _, t := range transfers {
		c := t.Currency
		_ = w.Write([]string{t.Created.Format(v1TimeLayout), t.PaymentOrderID, t.RegisterID, t.RegisterNumber,
			t.PeriodFrom.Format(time.DateOnly), t.PeriodTo.Add(-time.Second).Format(time.DateOnly), c,
			strconv.Itoa(t.Count), fixedIn(t.Payments, c), fixedIn(t.Refunds, c), fixedIn(t.Commission, c), fixedIn(t.Amount, c)})
	}
	w.Flush()
	return buf.Bytes()
}

// actPDF is the act: the acquiring commission of the month as the service
// rendered, per currency.
func actPDF(m Merchant, d Document, totals map[[2]string]*dayTotals) []byte {
	type sum struct {
		n                    int
		amount, refunds, fee money.Decimal
	}
	sums := map[string]*sum{}
	for k, t := range totals {
		x := sums[k[1]]
		if x == nil {
			x = &sum{}
			sums[k[1]] = x
		}
		x.n += t.Payments
		x.amount += t.Amount
		x.refunds += t.Refunds
		x.fee += t.Commission
	}
	last := d.Month.AddDate(0, 1, -1)
	number := "A-" + m.ID + "-" + d.Month.Format("200601")
	lines := []pdfLine{
		{bold: true, size: 16, text: "Act of services rendered No. " + number},
		{size: 11, text: "Date: " + d.Created.Format(time.DateOnly)},
		{size: 11, text: "Contractor: Sandbox Payment Services LLC (payment acceptance service)"},
		{size: 11, text: fmt.Sprintf("Customer: %s, site %s, account %s", m.Name, m.ID, V1AccountID)},
		{size: 11, text: fmt.Sprintf("Period: %s to %s", d.Month.Format(time.DateOnly), last.Format(time.DateOnly))},
		{size: 11, text: ""},
		{bold: true, size: 11, text: "Payment acceptance services"},
	}
	var total []string
	for _, c := range currenciesIn(m, totals) {
		x := sums[c]
		lines = append(lines,
			pdfLine{size: 11, text: fmt.Sprintf("%s: %d payments accepted for %s %s, refunds %s %s", c, x.n,
				fixedIn(x.amount, c), c, fixedIn(x.refunds, c), c)},
			pdfLine{size: 11, text: fmt.Sprintf("    commission (the price of the services): %s %s", fixedIn(x.fee, c), c)})
		total = append(total, fixedIn(x.fee, c)+" "+c)
	}
	lines = append(lines,
		pdfLine{size: 11, text: ""},
		pdfLine{bold: true, size: 11, text: "Total for the services rendered: " + strings.Join(total, ", ")},
		pdfLine{size: 11, text: "The services were rendered in full and on time; the customer has no claims."},
		pdfLine{size: 9, text: "Document " + d.ID + ", made by the paydash sandbox; not a real accounting document."})
	return buildPDF(d.Description, d.Created, lines)
}

type pdfLine struct {
	bold bool
	size int
	text string
}

// pdfText escapes a PDF literal string: \ ( ) escaped, anything outside
// printable ASCII replaced (the standard fonts have no other glyphs here).
func pdfText(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\\' || r == '(' || r == ')':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r > 0x7e:
			b.WriteByte('?')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// buildPDF writes a minimal PDF 1.4: catalog, pages, one A4 page, two
// standard fonts, the content stream and an info dictionary, with an exact
// cross-reference table.
func buildPDF(title string, created time.Time, lines []pdfLine) []byte {
	var content bytes.Buffer
	content.WriteString("BT\n72 770 Td\n")
	for i, l := range lines {
		font := "/F1"
		if l.bold {
			font = "/F2"
		}
		if i > 0 {
			fmt.Fprintf(&content, "0 -%d Td\n", l.size+7)
		}
		fmt.Fprintf(&content, "%s %d Tf\n(%s) Tj\n", font, l.size, pdfText(l.text))
	}
	content.WriteString("ET")
	objects := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R /F2 5 0 R >> >> /Contents 6 0 R >>",
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>",
		fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", content.Len(), content.String()),
		fmt.Sprintf("<< /Title (%s) /Producer (paydash sandbox) /CreationDate (D:%sZ) >>",
			pdfText(title), created.UTC().Format("20060102150405")),
	}
	var out bytes.Buffer
	out.WriteString("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
	offsets := make([]int, len(objects))
	for i, o := range objects {
		offsets[i] = out.Len()
		fmt.Fprintf(&out, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := out.Len()
	fmt.Fprintf(&out, "xref\n0 %d\n0000000000 65535 f \n", len(objects)+1)
	for _, off := range offsets {
		fmt.Fprintf(&out, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&out, "trailer\n<< /Size %d /Root 1 0 R /Info %d 0 R >>\nstartxref\n%d\n%%%%EOF", len(objects)+1, len(objects), xref)
	return out.Bytes()
}
