// Package money holds exact amounts. The service sends amounts as JSON
// numbers with at most the currency's minor-unit decimals
// (docs/service.md), and paydash holds up to four; a float64 would turn
// 0.1+0.2 into 0.30000000000000004 and a refund limit check into a coin
// toss, so an amount is an integer count of ten-thousandths instead.
package money

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Scale is the number of decimals a Decimal keeps.
const Scale = 4

const unit = 10000 // 10^Scale

// Decimal is an exact decimal number with Scale fractional digits, stored as
// an integer number of 1/10,000ths. The zero value is 0.
type Decimal int64

// ErrPrecision is returned for a number with more than Scale decimals.
var ErrPrecision = errors.New("money: more than 4 decimals")

// Parse reads a plain decimal such as "10", "-3.5" or "1250.0000". Exponents,
// thousands separators and more than four decimals are refused, so nothing is
// ever rounded silently.
func Parse(s string) (Decimal, error) {
	orig := s
	if s == "" {
		return 0, fmt.Errorf("money: empty amount")
	}
	neg := false
	switch s[0] {
	case '-':
		neg, s = true, s[1:]
	case '+':
		s = s[1:]
	}
	intPart, frac, hasDot := strings.Cut(s, ".")
	if intPart == "" && (!hasDot || frac == "") {
		return 0, fmt.Errorf("money: %q is not a number", orig)
	}
	if hasDot && frac == "" {
		return 0, fmt.Errorf("money: %q is not a number", orig)
	}
	if len(frac) > Scale {
		// Trailing zeros beyond the scale carry no value: 1.50000 is 1.5.
		trimmed := strings.TrimRight(frac[Scale:], "0")
		if trimmed != "" {
			return 0, fmt.Errorf("%w: %q", ErrPrecision, orig)
		}
		frac = frac[:Scale]
	}
	for _, part := range []string{intPart, frac} {
		for _, r := range part {
			if r < '0' || r > '9' {
				return 0, fmt.Errorf("money: %q is not a number", orig)
			}
		}
	}
	if len(intPart) > 14 {
		return 0, fmt.Errorf("money: %q is too large", orig)
	}
	var whole int64
	if intPart != "" {
		whole, _ = strconv.ParseInt(intPart, 10, 64)
	}
	frac += strings.Repeat("0", Scale-len(frac))
	fr, _ := strconv.ParseInt(frac, 10, 64)
	v := whole*unit + fr
	if neg {
		v = -v
	}
	return Decimal(v), nil
}

// MustParse is Parse for constants in tests and seed tables; it panics on bad input.
func MustParse(s string) Decimal {
	d, err := Parse(s)
	if err != nil {
		panic(err)
	}
	return d
}

// FromMinor converts an integer count of minor units (kopecks, cents) with the
// given number of decimals, e.g. FromMinor(125000, 2) = 1250.00.
func FromMinor(minor int64, decimals int) Decimal {
	v := minor
	for i := decimals; i < Scale; i++ {
		v *= 10
	}
	for i := decimals; i > Scale; i-- {
		v /= 10
	}
	return Decimal(v)
}

// String gives the shortest exact form: "10.5", "1250", "-0.0001".
func (d Decimal) String() string {
	s := d.StringFixed(Scale)
	if strings.Contains(s, ".") {
		s = strings.TrimRight(s, "0")
		s = strings.TrimSuffix(s, ".")
	}
	return s
}

// StringFixed formats with exactly places decimals (0..4), truncating none:
// places below the number's own precision are widened to keep it exact.
func (d Decimal) StringFixed(places int) string {
	if places < 0 {
		places = 0
	}
	if places > Scale {
		places = Scale
	}
	// Widen when the value has more precision than asked, never round.
	for places < Scale && int64(d)%pow10(Scale-places) != 0 {
		places++
	}
	v := int64(d)
	sign := ""
	if v < 0 {
		sign, v = "-", -v
	}
	whole, frac := v/unit, v%unit
	if places == 0 {
		return sign + strconv.FormatInt(whole, 10)
	}
	fs := fmt.Sprintf("%04d", frac)[:places]
	return sign + strconv.FormatInt(whole, 10) + "." + fs
}

func pow10(n int) int64 {
	p := int64(1)
	for range n {
		p *= 10
	}
	return p
}

// IsZero, IsNegative and IsPositive read better than comparisons with 0 at call sites.
func (d Decimal) IsZero() bool     { return d == 0 }
func (d Decimal) IsNegative() bool { return d < 0 }
func (d Decimal) IsPositive() bool { return d > 0 }

// MarshalJSON writes a JSON number, the form the service uses.
func (d Decimal) MarshalJSON() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalJSON accepts a JSON number or a numeric string; a number with an
// exponent is accepted only when it is exact within four decimals.
func (d *Decimal) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if bytes.Equal(b, []byte("null")) {
		return nil
	}
	s := string(b)
	if len(b) >= 2 && b[0] == '"' {
		uq, err := strconv.Unquote(s)
		if err != nil {
			return fmt.Errorf("money: bad amount %s", s)
		}
		s = uq
	}
	if strings.ContainsAny(s, "eE") {
		return d.parseExponent(s)
	}
	v, err := Parse(s)
	if err != nil {
		return err
	}
	*d = v
	return nil
}

// parseExponent handles "1.25e3" by moving the decimal point, exactly.
func (d *Decimal) parseExponent(s string) error {
	mant, expStr, _ := strings.Cut(strings.ToLower(s), "e")
	exp, err := strconv.Atoi(expStr)
	if err != nil || exp > 20 || exp < -20 {
		return fmt.Errorf("money: %q is not a usable amount", s)
	}
	neg := strings.HasPrefix(mant, "-")
	mant = strings.TrimLeft(mant, "+-")
	intPart, frac, _ := strings.Cut(mant, ".")
	digits := intPart + frac
	point := len(intPart) + exp
	for point > len(digits) {
		digits += "0"
	}
	for point < 0 {
		digits = "0" + digits
		point++
	}
	out := digits[:point] + "." + digits[point:]
	if point == len(digits) {
		out = digits
	}
	if neg {
		out = "-" + out
	}
	v, err := Parse(out)
	if err != nil {
		return err
	}
	*d = v
	return nil
}

// MarshalText and UnmarshalText let a Decimal sit in XML and form values.
func (d Decimal) MarshalText() ([]byte, error) { return []byte(d.String()), nil }
func (d *Decimal) UnmarshalText(b []byte) error {
	v, err := Parse(strings.TrimSpace(string(b)))
	if err != nil {
		return err
	}
	*d = v
	return nil
}

// Amount is a value with its ISO 4217 currency, as in the spec's Amount object.
type Amount struct {
	Value    Decimal `json:"value"`
	Currency string  `json:"currency"`
}

// String formats for people: "1250.00 RUB", with the currency's usual decimals.
func (a Amount) String() string {
	return a.Value.StringFixed(Decimals(a.Currency)) + " " + a.Currency
}

// Group writes d with the currency's usual decimals (more only when d has
// them, never rounding) and its thousands grouped by commas: "1,250.00".
// It is the one number format of every screen: the lists, the detail
// panes and the dialogs.
func Group(d Decimal, currency string) string {
	s := d.StringFixed(Decimals(currency))
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	intPart, frac, _ := strings.Cut(s, ".")
	var b strings.Builder
	b.WriteString(sign)
	writeGrouped(&b, intPart)
	if frac != "" {
		b.WriteByte('.')
		b.WriteString(frac)
	}
	return b.String()
}

// Count writes a whole number with its thousands grouped by commas, as
// Group does an amount: "1,250,000" rows, "100,000" payments.
func Count(n int) string {
	s := strconv.Itoa(n)
	var b strings.Builder
	if n < 0 {
		b.WriteByte('-')
		s = s[1:]
	}
	writeGrouped(&b, s)
	return b.String()
}

// writeGrouped writes the digits with a comma before each group of three
// from the right.
func writeGrouped(b *strings.Builder, digits string) {
	for i := range len(digits) {
		if i > 0 && (len(digits)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteByte(digits[i])
	}
}

// Display is an amount for people: "1,250.00 RUB" (just the number when the
// currency is not known, as in v1 refund lists).
func (a Amount) Display() string {
	if a.Currency == "" {
		return Group(a.Value, a.Currency)
	}
	return Group(a.Value, a.Currency) + " " + a.Currency
}

// Decimals is the number of minor-unit digits a currency is usually shown with.
func Decimals(currency string) int {
	switch strings.ToUpper(currency) {
	case "JPY", "KRW", "VND", "CLP", "ISK", "UGX", "XAF", "XOF", "PYG":
		return 0
	case "BHD", "KWD", "OMR", "JOD", "TND", "IQD", "LYD":
		return 3
	default:
		return 2
	}
}

// ValidCurrency reports whether code looks like an ISO 4217 alphabetic code.
func ValidCurrency(code string) bool {
	if len(code) != 3 {
		return false
	}
	for _, r := range code {
		if r < 'A' || r > 'Z' {
			return false
		}
	}
	return true
}
