package views

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"

	"paydash/backend"
	"paydash/backend/money"
	"paydash/backend/textsafe"
	"paydash/ui"
)

// Export (ctrl+s on every list): the rows the list shows, after
// the filter and in the sort shown, to a file through the save dialog
// (ui.NewSave: a path prompt with a default name, never an overwrite
// without asking). The path's extension chooses the format: .json gives a
// JSON array of objects, anything else CSV with a header line. Both carry
// the same fields, every field the detail pane has that the row knows:
//
//   - money exact, as a decimal string with the currency's places
//     (money.Decimal.StringFixed(money.Decimals(cur)), never rounded);
//   - times in UTC, RFC 3339 ("2026-11-20T11:59:03Z");
//   - a server's text cleaned of control characters; in CSV, text a
//     spreadsheet would take for a formula (=, +, -, @) is quoted with a
//     leading apostrophe (csvText), as in the register's CSV. JSON keeps
//     the text as it is (no apostrophe);
//   - in JSON every value is a string, or null when empty or not known.
//
// The rows are taken when ctrl+s is pressed (what the user sees then); the
// file is made in the dialog's command, never in Update, and a 100,000-row
// export takes a fraction of a second (export_test.go measures it).

// exportField is one field of an export: its name (the CSV header, the
// JSON member) and its value for a row. text marks a server's free text,
// which CSV keeps from being read as a formula.
type exportField[T any] struct {
	name  string
	value func(T) string
	text  bool
}

// exportSpec is what a tab exports: its rows' noun, the default file
// name's stem, the fields.
type exportSpec[T any] struct {
	noun   string // "payments"
	stem   string // "payments-1001": the date and extension are added
	fields []exportField[T]
	now    time.Time
	// complete, when set, reads the rows in full before they are written
	// (a list row carries a part of what the detail pane shows); it runs
	// in the dialog's command, once, and gives up with its context.
	complete func(ctx context.Context, rows []T) ([]T, error)
	// how says how the rows are read, for the dialog ("each read in
	// full first").
	how string
}

// exportable says whether the list has rows to export now.
func exportable[T any](l *pagedList[T]) (bool, string) {
	if l.table.Filtered() == 0 {
		if l.table.FilterText() != "" {
			return false, "no row matches the filter: nothing to export"
		}
		return false, "no rows to export"
	}
	return true, ""
}

// exportRows opens the save dialog for the rows l shows now.
func exportRows[T any](l *pagedList[T], spec exportSpec[T]) tea.Cmd {
	if ok, why := exportable(l); !ok {
		return toastCmd(ui.ToastWarning, why)
	}
	rows := l.table.Shown()
	fields, complete := spec.fields, spec.complete
	var mu sync.Mutex
	completed := complete == nil
	save := ui.SaveSpec{
		Title:       "Export the " + spec.noun + " shown",
		What:        exportWhat(l, spec.noun, len(rows), spec.how),
		DefaultPath: ui.SafeFileName(spec.stem+"-"+spec.now.Format("2006-01-02")+".csv", spec.noun+".csv"),
		DataFor: func(ctx context.Context, path string) ([]byte, error) {
			mu.Lock() // a second path reuses the rows read in full
			defer mu.Unlock()
			if !completed {
				full, err := complete(ctx, rows)
				if err != nil {
					return nil, err
				}
				rows, completed = full, true
			}
			if exportsJSON(path) {
				return exportJSON(ctx, fields, rows)
			}
			return exportCSV(ctx, fields, rows)
		},
	}
	return l.dialogs.open(ui.NewSave(save, l.km, l.theme))
}

// exportWhat is the dialog's line on what is saved: how many rows, after
// which filter and in which sort, and how.
func exportWhat[T any](l *pagedList[T], noun string, n int, how string) string {
	var about []string
	if f := l.table.FilterText(); f != "" {
		about = append(about, "filter “"+textsafe.Line(f, 40)+"”")
	}
	if s := l.sortDescription(); s != "" {
		about = append(about, "sorted by "+s)
	}
	if !l.done {
		about = append(about, "of the rows loaded so far")
	}
	what := "the " + plural(n, strings.TrimSuffix(noun, "s"), noun) + " shown"
	if len(about) > 0 {
		what += " (" + strings.Join(about, "; ") + ")"
	}
	if how != "" {
		what += ", " + how + ","
	}
	return what + " as CSV with every field: amounts exact, times UTC (ISO 8601). A path ending in .json saves JSON instead"
}

// exportsJSON reports whether path asks for JSON (its extension).
func exportsJSON(path string) bool {
	return strings.EqualFold(filepath.Ext(strings.TrimSpace(path)), ".json")
}

// exportCancelEvery is how many rows are written between looks at the
// context (the user may give up a large export).
const exportCancelEvery = 4096

// exportCSV writes rows as CSV: a header line of the field names, then a
// line per row.
func exportCSV[T any](ctx context.Context, fields []exportField[T], rows []T) ([]byte, error) {
	var buf bytes.Buffer
	buf.Grow(len(rows) * len(fields) * 12)
	w := csv.NewWriter(&buf)
	rec := make([]string, len(fields))
	for i, f := range fields {
		rec[i] = f.name
	}
	if err := w.Write(rec); err != nil {
		return nil, err
	}
	for n, r := range rows {
		if n%exportCancelEvery == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		for i, f := range fields {
			v := f.value(r)
			if f.text {
				v = csvText(v)
			}
			rec[i] = v
		}
		if err := w.Write(rec); err != nil {
			return nil, err
		}
	}
	w.Flush()
	return buf.Bytes(), w.Error()
}

// exportJSON writes rows as a JSON array of objects, the fields in their
// order; every value a string, null when empty.
func exportJSON[T any](ctx context.Context, fields []exportField[T], rows []T) ([]byte, error) {
	names := make([][]byte, len(fields))
	for i, f := range fields {
		names[i] = appendJSONString(nil, f.name)
	}
	buf := make([]byte, 0, len(rows)*len(fields)*24+2)
	buf = append(buf, '[')
	for n, r := range rows {
		if n%exportCancelEvery == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		if n > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, "\n  {"...)
		for i, f := range fields {
			if i > 0 {
				buf = append(buf, ", "...)
			}
			buf = append(buf, names[i]...)
			buf = append(buf, ": "...)
			v := f.value(r)
			if f.text {
				v = textsafe.Clean(v)
			}
			if v == "" {
				buf = append(buf, "null"...)
			} else {
				buf = appendJSONString(buf, v)
			}
		}
		buf = append(buf, '}')
	}
	if len(rows) > 0 {
		buf = append(buf, '\n')
	}
	buf = append(buf, "]\n"...)
	return buf, nil
}

// appendJSONString appends s as a JSON string: quotes, backslashes and
// control characters escaped, invalid UTF-8 replaced by U+FFFD, U+2028 and
// U+2029 escaped (JavaScript reads them as line ends).
func appendJSONString(buf []byte, s string) []byte {
	const hex = "0123456789abcdef"
	buf = append(buf, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				buf = append(buf, '\\', c)
			case c == '\n':
				buf = append(buf, '\\', 'n')
			case c == '\r':
				buf = append(buf, '\\', 'r')
			case c == '\t':
				buf = append(buf, '\\', 't')
			case c < 0x20 || c == 0x7f:
				buf = append(buf, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			default:
				buf = append(buf, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			buf = append(buf, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			buf = append(buf, `\u202`...)
			buf = append(buf, hex[r&0xf])
		default:
			buf = append(buf, s[i:i+size]...)
		}
		i += size
	}
	return append(buf, '"')
}

// --- values ------------------------------------------------------------------

// utcTime is a time for an export: UTC, RFC 3339; "" when zero.
func utcTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

// exactAmount is an amount's value for an export: exact, with its
// currency's places (more only when it has them, never rounded).
func exactAmount(a money.Amount) string {
	return a.Value.StringFixed(money.Decimals(a.Currency))
}

func boolText(b bool) string { return strconv.FormatBool(b) }

// --- the tabs' exports -------------------------------------------------------------

// exportStem is a file name's stem: what, and the merchant when there is one.
func exportStem(noun, merchant string) string {
	if merchant == "" {
		return noun
	}
	return noun + "-" + merchant
}

// paymentFields are a payment's fields, as its pane shows them. refunded
// holds what is known to be refunded of a payment (the one whose refunds
// the pane read); the list does not carry it for the others.
func paymentFields(refunded map[string]money.Amount) []exportField[backend.Payment] {
	type P = backend.Payment
	v1 := func(get func(*backend.PaymentV1View) string) func(P) string {
		return func(p P) string {
			if p.V1 == nil {
				return ""
			}
			return get(p.V1)
		}
	}
	card := func(get func(*backend.CardInfo) string) func(P) string {
		return func(p P) string {
			if p.Card == nil {
				return ""
			}
			return get(p.Card)
		}
	}
	return []exportField[P]{
		{name: "id", value: func(p P) string { return p.ID }, text: true},
		{name: "status", value: func(p P) string { return string(p.Status) }, text: true},
		{name: "amount", value: func(p P) string { return exactAmount(p.Amount) }},
		{name: "currency", value: func(p P) string { return p.Amount.Currency }, text: true},
		{name: "captured", value: func(p P) string {
			if p.Status != backend.PaymentSettled {
				return ""
			}
			return exactAmount(p.Amount)
		}},
		{name: "refunded", value: func(p P) string {
			if r, ok := refunded[p.ID]; ok {
				return exactAmount(r)
			}
			return ""
		}},
		{name: "created_utc", value: func(p P) string { return utcTime(p.Created) }},
		{name: "completed_utc", value: func(p P) string { return utcTime(p.Completed) }},
		{name: "updated_utc", value: func(p P) string { return utcTime(p.Updated) }},
		{name: "order_no", value: func(p P) string { return p.OrderNo }, text: true},
		{name: "description", value: func(p P) string { return p.Description }, text: true},
		{name: "invoice_expires_utc", value: func(p P) string { return utcTime(p.InvoiceExpires) }},
		{name: "invoice_params", value: func(p P) string { return joinParams(p.InvoiceParams) }, text: true},
		{name: "customer_ip", value: func(p P) string { return p.CustomerIP }, text: true},
		{name: "customer_identifier", value: v1(func(v *backend.PaymentV1View) string { return v.UserIdentifier }), text: true},
		{name: "customer_phone", value: v1(func(v *backend.PaymentV1View) string { return v.UserPhoneNumber }), text: true},
		{name: "payment_method", value: func(p P) string { return p.PaymentMethod }, text: true},
		{name: "instrument", value: func(p P) string { return p.InstrumentTitle }, text: true},
		{name: "card_brand", value: card(func(c *backend.CardInfo) string { return c.Brand }), text: true},
		{name: "card_issuer", value: card(func(c *backend.CardInfo) string { return c.Issuer }), text: true},
		{name: "card_country", value: card(func(c *backend.CardInfo) string { return c.Country }), text: true},
		{name: "card_type", value: card(func(c *backend.CardInfo) string { return c.Type }), text: true},
		{name: "card_category", value: card(func(c *backend.CardInfo) string { return c.Category }), text: true},
		{name: "agreement", value: func(p P) string { return p.Agreement }, text: true},
		{name: "token_id", value: func(p P) string {
			if p.Token == nil {
				return ""
			}
			return p.Token.ID
		}, text: true},
		{name: "merchant_id", value: func(p P) string { return p.MerchantID }, text: true},
		{name: "result_code", value: func(p P) string { return p.ResultCode }, text: true},
		{name: "result_meaning", value: func(p P) string {
			if p.ResultCode == "" || p.Source != backend.V2 {
				return ""
			}
			return backend.ResultMeaning(p.ResultCode)
		}, text: true},
		{name: "message", value: func(p P) string { return p.Message }, text: true},
		{name: "confirmation", value: func(p P) string {
			if p.Confirmation == nil {
				return ""
			}
			return p.Confirmation.Type
		}, text: true},
		{name: "payment_url", value: func(p P) string {
			if p.Confirmation == nil {
				return ""
			}
			return p.Confirmation.PaymentURL
		}, text: true},
		{name: "test_mode", value: func(p P) string {
			if !p.Detailed {
				return "" // the list does not say
			}
			return boolText(p.TestMode)
		}},
		{name: "read_through", value: func(p P) string { return string(p.Source) }},
		{name: "v1_state", value: v1(func(v *backend.PaymentV1View) string { return v.State }), text: true},
		{name: "v1_paid_amount", value: v1(func(v *backend.PaymentV1View) string {
			if v.PaymentAmount.Value.IsZero() && v.PaymentAmount.Currency == "" {
				return ""
			}
			return exactAmount(v.PaymentAmount)
		})},
		{name: "v1_error_code", value: v1(func(v *backend.PaymentV1View) string {
			if v.ErrorCode == 0 {
				return ""
			}
			return strconv.Itoa(v.ErrorCode)
		})},
	}
}

// joinParams writes an invoice's parameters as "key=value; key=value",
// in the order of their keys.
func joinParams(m map[string]string) string {
	if len(m) == 0 {
		return ""
	}
	var b strings.Builder
	for i, k := range sortedKeys(m) {
		if i > 0 {
			b.WriteString("; ")
		}
		b.WriteString(k)
		b.WriteByte('=')
		b.WriteString(m[k])
	}
	return b.String()
}

func refundFields() []exportField[backend.Refund] {
	type R = backend.Refund
	return []exportField[R]{
		{name: "id", value: func(r R) string { return r.ID }, text: true},
		{name: "status", value: func(r R) string { return string(r.Status) }, text: true},
		{name: "amount", value: func(r R) string { return exactAmount(r.Amount) }},
		{name: "currency", value: func(r R) string { return r.Amount.Currency }, text: true},
		{name: "payment_id", value: func(r R) string { return r.PaymentID }, text: true},
		{name: "merchant_id", value: func(r R) string { return r.MerchantID }, text: true},
		{name: "created_utc", value: func(r R) string { return utcTime(r.Created) }},
		{name: "updated_utc", value: func(r R) string { return utcTime(r.Updated) }},
		{name: "result_code", value: func(r R) string { return r.ResultCode }, text: true},
		{name: "external_id", value: func(r R) string { return r.ExternalID }, text: true},
		{name: "read_through", value: func(r R) string { return string(r.Source) }},
	}
}

func tokenFields() []exportField[tokenView] {
	type V = tokenView
	card := func(get func(*backend.CardInfo) string) func(V) string {
		return func(v V) string {
			if v.read == nil || v.read.Card == nil {
				return ""
			}
			return get(v.read.Card)
		}
	}
	return []exportField[V]{
		{name: "id", value: func(v V) string { return v.ID }, text: true},
		{name: "status", value: func(v V) string { return string(v.newestStatus()) }, text: true},
		{name: "card", value: func(v V) string { return v.Title }, text: true},
		{name: "expires_utc", value: func(v V) string { return utcTime(v.Expires) }},
		{name: "result_code", value: func(v V) string {
			if v.read == nil {
				return ""
			}
			return v.read.ResultCode
		}, text: true},
		{name: "card_brand", value: card(func(c *backend.CardInfo) string { return c.Brand }), text: true},
		{name: "card_issuer", value: card(func(c *backend.CardInfo) string { return c.Issuer }), text: true},
		{name: "card_country", value: card(func(c *backend.CardInfo) string { return c.Country }), text: true},
		{name: "card_type", value: card(func(c *backend.CardInfo) string { return c.Type }), text: true},
		{name: "card_category", value: card(func(c *backend.CardInfo) string { return c.Category }), text: true},
		{name: "known_from", value: func(v V) string { return string(v.Source) }, text: true},
		{name: "first_seen_utc", value: func(v V) string { return utcTime(v.FirstSeen) }},
		{name: "last_seen_utc", value: func(v V) string { return utcTime(v.LastSeen) }},
		{name: "payments", value: func(v V) string { return strconv.Itoa(len(v.Payments)) }},
		{name: "payment_ids", value: func(v V) string { return strings.Join(v.Payments, " ") }, text: true},
	}
}

func stickerFields() []exportField[backend.Sticker] {
	type S = backend.Sticker
	return []exportField[S]{
		{name: "id", value: func(s S) string { return s.ID }, text: true},
		{name: "status", value: func(s S) string { return s.Status }, text: true},
		{name: "description", value: func(s S) string { return s.Description }, text: true},
		{name: "amount", value: func(s S) string {
			if s.Amount.Value.IsZero() {
				return "" // the payer chooses
			}
			return exactAmount(s.Amount)
		}},
		{name: "currency", value: func(s S) string { return s.Amount.Currency }, text: true},
		{name: "any_amount", value: func(s S) string { return boolText(s.Amount.Value.IsZero()) }},
		{name: "type", value: func(s S) string { return s.StickerType }, text: true},
		{name: "cash_link", value: func(s S) string { return boolText(s.Cashlink) }},
		{name: "product_code", value: func(s S) string { return s.ProductCode }, text: true},
		{name: "purpose", value: func(s S) string { return s.PaymentPurpose }, text: true},
		{name: "merchant_id", value: func(s S) string { return s.MerchantID }, text: true},
		{name: "payload", value: func(s S) string { return s.Payload }, text: true},
		{name: "read_through", value: func(s S) string { return string(s.Source) }},
	}
}

func transferFields() []exportField[backend.Transfer] {
	type X = backend.Transfer
	return []exportField[X]{
		{name: "date_utc", value: func(t X) string { return utcTime(t.Created) }},
		{name: "amount", value: func(t X) string { return exactAmount(t.Amount) }},
		{name: "currency", value: func(t X) string { return t.Amount.Currency }, text: true},
		{name: "payment_order_id", value: func(t X) string { return t.PaymentOrderID }, text: true},
		{name: "register_id", value: func(t X) string { return t.RegisterID }, text: true},
	}
}

func documentFields() []exportField[backend.Document] {
	type D = backend.Document
	return []exportField[D]{
		{name: "id", value: func(d D) string { return d.ID }, text: true},
		{name: "created_utc", value: func(d D) string { return utcTime(d.Created) }},
		{name: "file_name", value: func(d D) string { return d.FileName }, text: true},
		{name: "description", value: func(d D) string { return d.Description }, text: true},
	}
}

// fullReadLimit is the most payments an export reads in full, one
// request (or two, with both interfaces) each; more are exported with
// what the list carries.
const fullReadLimit = 200

// fullReads is how many payments an export reads at once.
const fullReads = 6

// export is ctrl+s on the Payments tab. A list row carries a part of what
// the pane shows (no customer, no card details): up to fullReadLimit rows
// are read in full first; the refunded amount is known for the payment
// whose refunds the pane read.
func (t *Payments) export() tea.Cmd {
	refunded := map[string]money.Amount{}
	if p := t.detail.obj; t.detail.isOpen() && t.refunds.loaded && t.refunds.err == nil {
		refunded[p.ID], _ = refundable(p, t.refunds.items)
	}
	spec := exportSpec[backend.Payment]{noun: "payments",
		stem: exportStem("payments", t.scope.MerchantID), fields: paymentFields(refunded), now: t.deps.timeNow()}
	toRead := 0
	for _, p := range t.list.table.Shown() {
		if !p.Detailed {
			toRead++
		}
	}
	switch {
	case toRead == 0:
	case toRead <= fullReadLimit:
		src := t.src
		spec.complete = func(ctx context.Context, rows []backend.Payment) ([]backend.Payment, error) {
			return readInFull(ctx, src, rows)
		}
		spec.how = "each read in full first"
	default:
		spec.how = "with the fields the list carries (customer and card details are read for at most " +
			strconv.Itoa(fullReadLimit) + " rows: filter first)"
	}
	return exportRows(t.list, spec)
}

// readInFull reads the payments not yet read in full, fullReads at a
// time, into a copy of rows; the first failure ends it.
func readInFull(ctx context.Context, src paymentSource, rows []backend.Payment) ([]backend.Payment, error) {
	out := slices.Clone(rows)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		wg    sync.WaitGroup
		once  sync.Once
		first error
		slots = make(chan struct{}, fullReads)
	)
	for i := range out {
		if out[i].Detailed {
			continue
		}
		select {
		case slots <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		wg.Add(1)
		go func() {
			defer func() { <-slots; wg.Done() }()
			p, err := src.GetPayment(ctx, out[i].ID)
			if err != nil {
				once.Do(func() {
					first = fmt.Errorf("payment %s could not be read in full: %w", textsafe.Line(out[i].ID, 40), err)
					cancel()
				})
				return
			}
			out[i] = p
		}()
	}
	wg.Wait()
	if first == nil {
		first = ctx.Err()
	}
	return out, first
}

// export is ctrl+s on the Refunds tab.
func (t *Refunds) export() tea.Cmd {
	return exportRows(t.list, exportSpec[backend.Refund]{noun: "refunds",
		stem: exportStem("refunds", t.scope.MerchantID), fields: refundFields(), now: t.now()})
}

// export is ctrl+s on the Tokens tab.
func (t *Tokens) export() tea.Cmd {
	return exportRows(t.list, exportSpec[tokenView]{noun: "tokens",
		stem: exportStem("tokens", t.scope.MerchantID), fields: tokenFields(), now: t.now()})
}

// export is ctrl+s on the Stickers tab.
func (t *Stickers) export() tea.Cmd {
	return exportRows(t.list, exportSpec[backend.Sticker]{noun: "stickers",
		stem: exportStem("stickers", t.scope.MerchantID), fields: stickerFields(), now: t.now()})
}

// exportList is ctrl+s on the Registers tab's lists: the transfers or the
// documents shown (a register or a document is saved from its pane).
func (t *Registers) exportList() tea.Cmd {
	if t.docs {
		return exportRows(t.documents, exportSpec[backend.Document]{noun: "documents",
			stem: "documents", fields: documentFields(), now: t.now()})
	}
	return exportRows(t.transfers, exportSpec[backend.Transfer]{noun: "transfers",
		stem: "transfers", fields: transferFields(), now: t.now()})
}
