package tab

import (
	"bytes"
	"cmp"
	"encoding/json"
	"strings"
	"time"

	"charm.land/lipgloss/v2"

	"paydash/backend"
	"paydash/backend/money"
	"paydash/backend/textsafe"
	"paydash/ui"
)

// PaymentTime orders payments: created, or the last update for v1-only rows.
func PaymentTime(p backend.Payment) time.Time {
	if p.Created.IsZero() {
		return p.Updated
	}
	return p.Created
}

func CmpIDs(a, b string) int {
	if len(a) != len(b) && IsDigits(a) && IsDigits(b) {
		return cmp.Compare(len(a), len(b))
	}
	return cmp.Compare(a, b)
}

// InScope reports whether an object of merchant made at when belongs to s
// (an empty merchant or zero time: not known, so it may).
func InScope(s ui.Scope, merchant string, when time.Time) bool {
	if merchant != "" && merchant != s.MerchantID {
		return false
	}
	if when.IsZero() {
		return true
	}
	return (s.Start.IsZero() || !when.Before(s.Start)) && (s.End.IsZero() || when.Before(s.End))
}

func StatusStyle(th ui.Theme, s backend.PaymentStatus) lipgloss.Style {
	return toneStyle(th, PaymentTone(s))
}

func RefundStyle(th ui.Theme, s backend.RefundStatus) lipgloss.Style {
	return toneStyle(th, RefundTone(s))
}

func YesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func IfThen(b bool, s string) string {
	if b {
		return s
	}
	return ""
}

func RefundTime(r backend.Refund) time.Time {
	if r.Created.IsZero() {
		return r.Updated
	}
	return r.Created
}

// Plural is "1 payment", "1,204 payments".
func Plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return money.Count(n) + " " + many
}

// CSVText keeps a spreadsheet from reading a server's text as a formula
// (a cell starting with =, +, -, @ or a control character), and keeps
// control characters out.
func CSVText(s string) string {
	s = textsafe.Clean(s)
	if s != "" && strings.ContainsRune("=+-@", rune(s[0])) {
		return "'" + s
	}
	return s
}

// RawLines turns a body as received into lines for the raw view: JSON
// pretty-printed, anything else (XML) as it is; every line cleaned.
func RawLines(body []byte) []string {
	body = bytes.TrimPrefix(body, []byte("\xef\xbb\xbf"))
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) > 0 && (trimmed[0] == '{' || trimmed[0] == '[') {
		var out bytes.Buffer
		if json.Indent(&out, trimmed, "", "  ") == nil {
			body = out.Bytes()
		}
	}
	text := strings.ReplaceAll(string(body), "\r\n", "\n")
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	for i, l := range lines {
		lines[i] = textsafe.Clean(strings.ReplaceAll(l, "\t", "    "))
	}
	return lines
}
