package forms

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// checkAll runs a validator over cases: each message ("" for valid) and
// the inputs that get exactly it.
func checkAll(t *testing.T, name string, v func(string) error, cases map[string][]string) {
	t.Helper()
	for want, ins := range cases {
		for _, in := range ins {
			err := v(in)
			if want == "" {
				assert.NoError(t, err, "%s(%q)", name, in)
				continue
			}
			if assert.Error(t, err, "%s(%q) passed", name, in) {
				assert.Equal(t, want, err.Error(), "%s(%q)", name, in)
			}
		}
	}
}

func TestValidEmail(t *testing.T) {
	const bad = "an e-mail address like name@example.com"
	checkAll(t, "ValidEmail", ValidEmail, map[string][]string{
		"": {"ann@example.com", "  Ann.Lee+tag@Example.COM ", "аня@пример.рф"},
		"enter an e-mail address like name@example.com": {"", "   "},
		bad: {
			"ann", "ann@", "@example.com", "ann@example", "ann@example.com.", "ann@.example.com",
			"ann@example..com", "ann@@example.com", "ann example@example.com", "Ann <ann@example.com>",
			`"a b"@example.com`, "ann@[192.0.2.1]", "ann@example.com, bob@example.com",
		},
		"plain text only: no line breaks, tabs or other control characters": {"ann\t@example.com"},
		"too long: 262 characters, at most 254":                             {strings.Repeat("a", 250) + "@example.com"},
	})
}

// The phone field takes a number the way people write it and sends what
// the service wants in an invoice: E.164 digits without the plus sign.
func TestNormalizePhone(t *testing.T) {
	const (
		chars   = "only digits, spaces, brackets, dashes and dots, and + before the country code: +7 916 123-45-67"
		plus    = "a + goes only once, before the country code: +7 916 123-45-67"
		invalid = "not a phone number: check the digits; a number outside Russia starts with + and its country code (+49 151 12345678)"
	)
	cases := []struct{ in, want, err string }{
		{"+7 916 123-45-67", "79161234567", ""},
		{"8 (916) 123 45 67", "79161234567", ""},
		{"8(916)123-45-67", "79161234567", ""},
		{"89161234567", "79161234567", ""},
		{"79161234567", "79161234567", ""},
		{"9161234567", "79161234567", ""},
		{" +7 (916) 123.45.67 ", "79161234567", ""},
		{"+7\u00a0916\u00a0123\u201145\u201167", "79161234567", ""}, // no-break spaces and hyphens from a web page
		{"7 916 123–45–67", "79161234567", ""},                      // en dashes
		{"8 800 555 35 35", "78005553535", ""},
		{"+49 151 12345678", "4915112345678", ""},
		{"4915112345678", "4915112345678", ""}, // the form the service wants, typed as is
		{"0049 151 12345678", "4915112345678", ""},
		{"+1 (415) 555-0100", "14155550100", ""},
		{"+81 3-1234-5678", "81312345678", ""},
		{"", "", "enter a phone number, e.g. +7 916 123-45-67"},
		{"   ", "", "enter a phone number, e.g. +7 916 123-45-67"},
		{"+7 916 abc", "", chars},
		{"8 916 123 45 67 ext. 5", "", chars},
		{"916 123 45 67 #5", "", chars},
		{"7,916,1234567", "", chars},
		{"７９１６１２３４５６７", "", chars}, // full-width digits
		{"+7\t916 123 45 67", "", chars},
		{"++7 916 123 45 67", "", plus},
		{"7 916 +123 45 67", "", plus},
		{"123", "", invalid},
		{"+7 916 123", "", invalid},
		{"7 916 1234567 9999", "", invalid},
		{"+0 916 123 45 67", "", invalid},
		{"(", "", invalid},
	}
	for _, c := range cases {
		got, err := NormalizePhone(c.in)
		if c.err == "" {
			if assert.NoError(t, err, "NormalizePhone(%q)", c.in) {
				assert.Equal(t, c.want, got, "NormalizePhone(%q)", c.in)
			}
			assert.NoError(t, ValidPhone(c.in), "ValidPhone(%q)", c.in)
			continue
		}
		if assert.Error(t, err, "NormalizePhone(%q) gave %q", c.in, got) {
			assert.Equal(t, c.err, err.Error(), "NormalizePhone(%q)", c.in)
			assert.Equal(t, "", got)
		}
		assert.Equal(t, err, ValidPhone(c.in), "ValidPhone(%q)", c.in)
	}
}

func TestValidURL(t *testing.T) {
	const bad = "a full address like https://shop.example.com/done"
	checkAll(t, "ValidURL", ValidURL, map[string][]string{
		"": {
			"https://shop.example.com/done", "http://shop.example.com/done?o=1#top",
			" HTTPS://SHOP.EXAMPLE.COM ", "https://localhost:8443/cb",
		},
		"enter a full address like https://shop.example.com/done": {""},
		bad: {
			"shop.example.com/done", "//shop.example.com/done", "https://", "https:///done",
			"ftp://shop.example.com/", "javascript:alert(1)", "mailto:ann@example.com",
		},
		"no spaces in an address: " + bad:                                   {"https://shop.example.com/a b"},
		"no user name or password in the address: " + bad:                   {"https://ann:secret@shop.example.com"},
		"plain text only: no line breaks, tabs or other control characters": {"https://shop.example.com/\x1b[31m"},
		"too long: 2055 characters, at most 2048":                           {"https://shop.example.com/" + strings.Repeat("a", 2030)},
	})
}

func TestValidHTTPSURL(t *testing.T) {
	const bad = "a full https address like https://shop.example.com/notify"
	checkAll(t, "ValidHTTPSURL", ValidHTTPSURL, map[string][]string{
		"": {"https://shop.example.com/notify"},
		"enter a full https address like https://shop.example.com/notify": {""},
		"a callback address must start with https://":                     {"http://shop.example.com/notify"},
		bad: {"shop.example.com/notify", "https://"},
		"no user name or password in the address: " + bad: {"https://u@shop.example.com/"},
	})
}

func TestValidText(t *testing.T) {
	const ctl = "plain text only: no line breaks, tabs or other control characters"
	v := func(s string) error { return ValidText(s, 10) }
	checkAll(t, "ValidText", v, map[string][]string{
		"": {
			"",
			"Two mugs",
			"  ten chars!  ", // trimmed: exactly 10
			"Кофе ☕ 350",     // 10 characters, more bytes
			"a\u200db",       // zero-width joiner (emoji sequences) is fine
		},
		"too long: 11 characters, at most 10": {"eleven char"},
		ctl: {
			"a\tb", "a\nb", "a\x1b[31mb",
			"a\u0085b",       // C1 next line
			"a\u2028b",       // line separator
			"abc\u202edcba",  // right-to-left override
			"a\u2066b\u2069", // bidi isolate
			"a\xffb",         // not UTF-8
		},
	})
}

func TestRequiredAndOptional(t *testing.T) {
	desc := required("a description of what is paid for", MaxDescription)
	checkAll(t, "required", desc, map[string][]string{
		"": {"Two mugs", strings.Repeat("x", MaxDescription)},
		"enter a description of what is paid for": {"", "   "},
		"too long: 251 characters, at most 250":   {strings.Repeat("x", MaxDescription+1)},
	})
	checkAll(t, "optional", optional(ValidPhone), map[string][]string{
		"": {"", "  "},
		"not a phone number: check the digits; a number outside Russia starts with + and its country code (+49 151 12345678)": {"+7900"},
	})
}

func TestValidCurrency(t *testing.T) {
	const bad = "a currency is three capital letters, like RUB"
	checkAll(t, "ValidCurrency", ValidCurrency, map[string][]string{
		"":  {"RUB", "USD"},
		bad: {"rub", "RU", "RUBL", "", "R1B"},
	})
}

func TestParseExpiry(t *testing.T) {
	at := func(s string) time.Time {
		tm, err := time.ParseInLocation("2006-01-02 15:04", s, msk)
		require.NoError(t, err)
		return tm
	}
	const form = "a duration like 90m, 24h or 3d, or a local time like 2026-11-28 18:00"
	const soon = "too soon: the link must stay open at least 5 minutes"
	const far = "too far: at most 30 days ahead (until 2026-12-21 12:00)"
	cases := []struct {
		in   string
		want time.Time
		msg  string
	}{
		{in: "", want: time.Time{}},
		{in: "   ", want: time.Time{}},
		{in: "24h", want: at("2026-11-22 12:00")},
		{in: " 3d ", want: at("2026-11-24 12:00")},
		{in: "3 D", want: at("2026-11-24 12:00")},
		{in: "90m", want: at("2026-11-21 13:30")},
		{in: "5m", want: at("2026-11-21 12:05")},
		{in: "30d", want: at("2026-12-21 12:00")},
		{in: "720h", want: at("2026-12-21 12:00")},
		{in: "2026-11-30 18:00", want: at("2026-11-30 18:00")},
		{in: "2026-11-21 12:05", want: at("2026-11-21 12:05")},
		{in: "2026-12-21 12:00", want: at("2026-12-21 12:00")},
		{in: "4m", msg: soon},
		{in: "0h", msg: soon},
		{in: "2026-11-21 12:04", msg: soon},
		{in: "31d", msg: far},
		{in: "721h", msg: far},
		{in: "999999d", msg: far},
		{in: "2026-12-21 12:01", msg: far},
		{in: "2026-11-20 10:00", msg: "2026-11-20 10:00 has already passed (it is 2026-11-21 12:00 now)"},
		{in: "2026-11-21 12:00", msg: "2026-11-21 12:00 has already passed (it is 2026-11-21 12:00 now)"},
		{in: "tomorrow", msg: form},
		{in: "1.5h", msg: form},
		{in: "-5m", msg: form},
		{in: "5s", msg: form},
		{in: "1d12h", msg: form},
		{in: "1234567m", msg: form},
		{in: "2026-11-30", msg: form},
		{in: "2026-11-30T18:00", msg: form},
		{in: "30.11.2026 18:00", msg: form},
		{in: "2026-11-31 18:00", msg: form},
		{in: "24h\x1b", msg: form},
	}
	for _, c := range cases {
		got, err := ParseExpiry(c.in, fixedNow)
		if c.msg != "" {
			if assert.Error(t, err, "%q", c.in) {
				assert.Equal(t, c.msg, err.Error(), "%q", c.in)
			}
			continue
		}
		if assert.NoError(t, err, "%q", c.in) {
			assert.True(t, c.want.Equal(got), "%q: got %v, want %v", c.in, got, c.want)
			if !got.IsZero() {
				assert.Equal(t, msk, got.Location(), "%q: in the clock's zone", c.in)
			}
		}
	}

	// A duration is counted from now and rounded up to the whole minute.
	got, err := ParseExpiry("24h", fixedNow.Add(30*time.Second))
	require.NoError(t, err)
	assert.Equal(t, at("2026-11-22 12:01"), got)
}

func TestFormatExpiry(t *testing.T) {
	assert.Equal(t, "2026-11-22 12:00 local (UTC+03:00), 2026-11-22 09:00 UTC",
		FormatExpiry(time.Date(2026, 11, 22, 12, 0, 0, 0, msk)))
	assert.Equal(t, "2026-11-22 01:30 local (UTC+03:00), 2026-11-21 22:30 UTC",
		FormatExpiry(time.Date(2026, 11, 22, 1, 30, 0, 0, msk)))
}

func TestCleanPaste(t *testing.T) {
	s, ok := cleanPaste("79001234567\r\n")
	assert.True(t, ok)
	assert.Equal(t, "79001234567", s)
	s, ok = cleanPaste(" mugs\t\n")
	assert.True(t, ok)
	assert.Equal(t, " mugs", s)
	_, ok = cleanPaste("line one\nline two")
	assert.False(t, ok)
	_, ok = cleanPaste("red \x1b[31m")
	assert.False(t, ok)
}
