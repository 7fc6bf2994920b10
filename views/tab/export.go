package tab

import (
	"bytes"
	"context"
	"encoding/csv"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"

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

// ExportField is one field of an export: its name (the CSV header, the
// JSON member) and its value for a row. text marks a server's free text,
// which CSV keeps from being read as a formula.
type ExportField[T any] struct {
	Name  string
	Value func(T) string
	Text  bool
}

// ExportSpec is what a tab exports: its rows' noun, the default file
// name's stem, the fields.
type ExportSpec[T any] struct {
	Noun   string // "payments"
	Stem   string // "payments-1001": the date and extension are added
	Fields []ExportField[T]
	Now    time.Time
	// Complete, when set, reads the rows in full before they are written
	// (a list row carries a part of what the detail pane shows); it runs
	// in the dialog's command, once, and gives up with its context.
	Complete func(ctx context.Context, rows []T) ([]T, error)
	// How says how the rows are read, for the dialog ("each read in
	// full first").
	How string
}

// Exportable says whether the list has rows to export now.
func Exportable[T any](l *PagedList[T]) (bool, string) {
	if l.Table.Filtered() == 0 {
		if l.Table.FilterText() != "" {
			return false, "no row matches the filter: nothing to export"
		}
		return false, "no rows to export"
	}
	return true, ""
}

// ExportRows opens the save dialog for the rows l shows now.
func ExportRows[T any](l *PagedList[T], spec ExportSpec[T]) tea.Cmd {
	if ok, why := Exportable(l); !ok {
		return ToastCmd(ui.ToastWarning, why)
	}
	rows := l.Table.Shown()
	fields, complete := spec.Fields, spec.Complete
	var mu sync.Mutex
	completed := complete == nil
	save := ui.SaveSpec{
		Title:       "Export the " + spec.Noun + " shown",
		What:        exportWhat(l, spec.Noun, len(rows), spec.How),
		DefaultPath: ui.SafeFileName(spec.Stem+"-"+spec.Now.Format("2006-01-02")+".csv", spec.Noun+".csv"),
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
				return ExportJSON(ctx, fields, rows)
			}
			return ExportCSV(ctx, fields, rows)
		},
	}
	return l.Dialogs.Open(ui.NewSave(save, l.km, l.theme))
}

// exportWhat is the dialog's line on what is saved: how many rows, after
// which filter and in which sort, and how.
func exportWhat[T any](l *PagedList[T], noun string, n int, how string) string {
	var about []string
	if f := l.Table.FilterText(); f != "" {
		about = append(about, "filter “"+textsafe.Line(f, 40)+"”")
	}
	if s := l.sortDescription(); s != "" {
		about = append(about, "sorted by "+s)
	}
	if !l.Done {
		about = append(about, "of the rows loaded so far")
	}
	what := "the " + Plural(n, strings.TrimSuffix(noun, "s"), noun) + " shown"
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

// ExportCSV writes rows as CSV: a header line of the field names, then a
// line per row.
func ExportCSV[T any](ctx context.Context, fields []ExportField[T], rows []T) ([]byte, error) {
	var buf bytes.Buffer
	buf.Grow(len(rows) * len(fields) * 12)
	w := csv.NewWriter(&buf)
	rec := make([]string, len(fields))
	for i, f := range fields {
		rec[i] = f.Name
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
			v := f.Value(r)
			if f.Text {
				v = CSVText(v)
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

// ExportJSON writes rows as a JSON array of objects, the fields in their
// order; every value a string, null when empty.
func ExportJSON[T any](ctx context.Context, fields []ExportField[T], rows []T) ([]byte, error) {
	names := make([][]byte, len(fields))
	for i, f := range fields {
		names[i] = appendJSONString(nil, f.Name)
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
			v := f.Value(r)
			if f.Text {
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

// UTCTime is a time for an export: UTC, RFC 3339; "" when zero.
func UTCTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

// ExactAmount is an amount's value for an export: exact, with its
// currency's places (more only when it has them, never rounded).
func ExactAmount(a money.Amount) string {
	return a.Value.StringFixed(money.Decimals(a.Currency))
}

func BoolText(b bool) string { return strconv.FormatBool(b) }

// --- the tabs' exports -------------------------------------------------------------

// ExportStem is a file name's stem: what, and the merchant when there is one.
func ExportStem(noun, merchant string) string {
	if merchant == "" {
		return noun
	}
	return noun + "-" + merchant
}
