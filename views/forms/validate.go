package forms

import (
	"errors"
	"fmt"
	"net/mail"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/nyaruka/phonenumbers"

	"paydash/backend/money"
	"paydash/ui"
)

// Bounds of the text fields. The service's documentation gives no
// limits, so these are ours, chosen so that no real value is refused and a
// runaway paste is.
const (
	MaxDescription    = 250  // invoice and sticker description
	MaxOrderNo        = 64   // invoice order number
	MaxProductCode    = 64   // sticker product code
	MaxPaymentPurpose = 140  // sticker payment purpose (an SBP payment purpose is at most 140 characters)
	MaxPurpose        = 250  // tokenization purpose
	MaxAccount        = 100  // customer account in the merchant's system
	MaxEmail          = 254  // the longest address SMTP can carry (RFC 5321)
	MaxURL            = 2048 // return and callback addresses

	// MinExpiryLead is the least time a new link stays open: less, and it
	// could expire while the confirmation is still on the screen.
	MinExpiryLead = 5 * time.Minute
	// MaxExpiry is the furthest a link's expiry may be set (ours; the spec
	// gives no bound).
	MaxExpiry = 30 * 24 * time.Hour
)

// ExpiryLayout is how a local expiry time is typed and shown.
const ExpiryLayout = "2006-01-02 15:04"

// Messages a support person reads next to a field.
const (
	msgPlainText = "plain text only: no line breaks, tabs or other control characters"
	msgEmail     = "an e-mail address like name@example.com"
	examplePhone = "+7 916 123-45-67"

	msgPhoneChars   = "only digits, spaces, brackets, dashes and dots, and + before the country code: " + examplePhone
	msgPhonePlus    = "a + goes only once, before the country code: " + examplePhone
	msgPhoneInvalid = "not a phone number: check the digits; a number outside Russia starts with + and its country code (+49 151 12345678)"
	msgURL          = "a full address like https://shop.example.com/done"
	msgHTTPSURL     = "a full https address like https://shop.example.com/notify"
)

// ValidText checks a free-text value after trimming its spaces: printable
// text of at most maxLen characters. An empty value passes; whether a field
// may be empty is the field's business.
func ValidText(s string, maxLen int) error {
	s = strings.TrimSpace(s)
	if !plainText(s) {
		return errors.New(msgPlainText)
	}
	if n := utf8.RuneCountInString(s); n > maxLen {
		return fmt.Errorf("too long: %d characters, at most %d", n, maxLen)
	}
	return nil
}

// plainText: valid UTF-8 without control characters (tabs and line
// breaks included), line or paragraph separators, or the invisible
// characters that reorder text (bidi controls), which could make a value
// read differently on the customer's page than it does here.
func plainText(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		switch {
		case unicode.IsControl(r), r == '\u2028', r == '\u2029':
			return false
		case r == '\u200e', r == '\u200f', r >= '\u202a' && r <= '\u202e', r >= '\u2066' && r <= '\u2069', r == '\u061c':
			return false
		}
	}
	return true
}

// ValidEmail checks one bare e-mail address ("name@example.com"), after
// trimming spaces. Names and angle brackets ("Ann <ann@example.com>") are
// refused: the service wants the address alone.
func ValidEmail(s string) error {
	s = strings.TrimSpace(s)
	if s == "" {
		return errors.New("enter " + msgEmail)
	}
	if err := ValidText(s, MaxEmail); err != nil {
		return err
	}
	a, err := mail.ParseAddress(s)
	if err != nil || a.Name != "" || a.Address != s || strings.ContainsAny(s, " <>\"[]") {
		return errors.New(msgEmail)
	}
	at := strings.LastIndexByte(s, '@')
	domain := s[at+1:]
	if at <= 0 || !strings.Contains(domain, ".") || strings.HasPrefix(domain, ".") ||
		strings.HasSuffix(domain, ".") || strings.Contains(domain, "..") {
		return errors.New(msgEmail)
	}
	return nil
}

// PhoneRegion is where a phone number typed without a country code is
// taken to be: the service is a Russian acquirer (SBP stickers, roubles by
// default), and its support staff write Russian numbers the Russian way,
// "8 (916) 123-45-67".
const PhoneRegion = "RU"

// NormalizePhone reads a phone number the way people write it and gives
// the digits the service wants in an invoice (api-v2 customer.phone: E.164
// without the plus sign), or says why it cannot be a phone number.
//
// Spaces, brackets, dashes (and their typographic kinds) and dots between
// the digits are dropped; a + may stand only before the country code.
// Letters, extensions and other signs are refused rather than guessed at.
// The digits are read by github.com/nyaruka/phonenumbers (Google's
// libphonenumber data): with a + or 00 in front as an international number;
// without, as a Russian one first ("8 916 …", "916 …" and "7 916 …" are all
// +7 916 …), and if that is no valid Russian number, as country code and
// number typed without the + ("49 151 …", the service's own form). What is
// sent is shown under the field before the form is submitted.
func NormalizePhone(s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", errors.New("enter a phone number, e.g. " + examplePhone)
	}
	var digits strings.Builder
	plus := false
	for i, r := range s {
		switch {
		case r >= '0' && r <= '9':
			digits.WriteRune(r)
		case r == '+':
			if i != 0 || plus {
				return "", errors.New(msgPhonePlus)
			}
			plus = true
		case strings.ContainsRune(phoneSeparators, r):
		default:
			return "", errors.New(msgPhoneChars)
		}
	}
	d := digits.String()
	if !plus && strings.HasPrefix(d, "00") { // the international call prefix of most countries
		d, plus = d[2:], true
	}
	var tries []string // the readings to try, in order
	if plus {
		tries = []string{"+" + d}
	} else {
		tries = []string{d, "+" + d}
	}
	for _, t := range tries {
		n, err := phonenumbers.Parse(t, PhoneRegion)
		if err != nil || !phonenumbers.IsValidNumber(n) {
			continue
		}
		return strings.TrimPrefix(phonenumbers.Format(n, phonenumbers.E164), "+"), nil
	}
	return "", errors.New(msgPhoneInvalid)
}

// ValidPhone checks that NormalizePhone can read s.
func ValidPhone(s string) error {
	_, err := NormalizePhone(s)
	return err
}

// phoneSeparators may stand between a phone number's digits: spaces
// (the no-break ones of a copied web page too), brackets, dots, and
// hyphens, dashes and the minus sign.
const phoneSeparators = " \u00a0\u202f().-\u2010\u2011\u2012\u2013\u2014\u2212"

// ValidURL checks an absolute http or https address with a host, such as a
// return page, after trimming spaces.
func ValidURL(s string) error { return checkURL(s, false) }

// ValidHTTPSURL checks an absolute https address with a host, such as a
// callback address, after trimming spaces.
func ValidHTTPSURL(s string) error { return checkURL(s, true) }

func checkURL(s string, httpsOnly bool) error {
	example := msgURL
	if httpsOnly {
		example = msgHTTPSURL
	}
	s = strings.TrimSpace(s)
	if s == "" {
		return errors.New("enter " + example)
	}
	if err := ValidText(s, MaxURL); err != nil {
		return err
	}
	if strings.ContainsAny(s, " \u00a0") {
		return errors.New("no spaces in an address: " + example)
	}
	u, err := url.Parse(s)
	if err != nil || u.Opaque != "" || u.Hostname() == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return errors.New(example)
	}
	if u.User != nil {
		return errors.New("no user name or password in the address: " + example)
	}
	if httpsOnly && u.Scheme != "https" {
		return errors.New("a callback address must start with https://")
	}
	return nil
}

// ValidCurrency checks an ISO 4217 code as the service wants it: three
// upper-case letters.
func ValidCurrency(s string) error {
	if !money.ValidCurrency(s) {
		return errors.New("a currency is three capital letters, like RUB")
	}
	return nil
}

// parseAmount is ui.ParseAmount with its problem as an error, for a
// field's Validate.
func parseAmount(s, currency string) (money.Decimal, error) {
	d, problem := ui.ParseAmount(s, currency)
	if problem != "" {
		return 0, errors.New(problem)
	}
	return d, nil
}

// ParseExpiry reads when a link stops working, as typed: empty (no expiry
// sent: the service's default applies), a duration from now ("90m", "24h",
// "3d": minutes, hours, days), or a local date and time ("2026-11-30 18:00"
// in now's time zone). The result, in now's zone and to the minute, is at
// least MinExpiryLead and at most MaxExpiry after now. A duration is
// rounded up to the next whole minute.
func ParseExpiry(s string, now time.Time) (time.Time, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return time.Time{}, nil
	}
	badForm := errors.New("a duration like 90m, 24h or 3d, or a local time like " + exampleExpiry(now))
	if !plainText(s) {
		return time.Time{}, badForm
	}
	latest := now.Add(MaxExpiry)
	tooFar := fmt.Errorf("too far: at most %d days ahead (until %s)",
		int(MaxExpiry/(24*time.Hour)), latest.Format(ExpiryLayout))
	tooSoon := fmt.Errorf("too soon: the link must stay open at least %d minutes", int(MinExpiryLead/time.Minute))

	if n, unit, ok := cutDuration(s); ok {
		minutes := map[byte]int64{'m': 1, 'h': 60, 'd': 24 * 60}[unit]
		total := n * minutes
		switch {
		case total > int64(MaxExpiry/time.Minute):
			return time.Time{}, tooFar
		case time.Duration(total)*time.Minute < MinExpiryLead:
			return time.Time{}, tooSoon
		}
		t := now.Add(time.Duration(total) * time.Minute)
		if tr := t.Truncate(time.Minute); !tr.Equal(t) {
			t = tr.Add(time.Minute)
		}
		return t.In(now.Location()), nil
	}

	t, err := time.ParseInLocation(ExpiryLayout, s, now.Location())
	if err != nil {
		return time.Time{}, badForm
	}
	switch {
	case !t.After(now):
		return time.Time{}, fmt.Errorf("%s has already passed (it is %s now)", s, now.Format(ExpiryLayout))
	case t.Before(now.Add(MinExpiryLead)):
		return time.Time{}, tooSoon
	case t.After(latest):
		return time.Time{}, tooFar
	}
	return t, nil
}

// cutDuration splits "24h" or "3 d" into 24 and 'h'; ok is false for
// anything else. Numbers are capped at 6 digits (the bound check follows).
func cutDuration(s string) (n int64, unit byte, ok bool) {
	s = strings.ToLower(s)
	if len(s) < 2 {
		return 0, 0, false
	}
	unit = s[len(s)-1]
	if unit != 'm' && unit != 'h' && unit != 'd' {
		return 0, 0, false
	}
	digits := strings.TrimRight(s[:len(s)-1], " ")
	if digits == "" || len(digits) > 6 || strings.Trim(digits, "0123456789") != "" {
		return 0, 0, false
	}
	n, err := strconv.ParseInt(digits, 10, 64)
	return n, unit, err == nil
}

// optional lets an empty (or all-space) value pass check.
func optional(check func(string) error) func(string) error {
	return func(s string) error {
		if strings.TrimSpace(s) == "" {
			return nil
		}
		return check(s)
	}
}

// required refuses an empty value with "enter <what>", then checks the text.
func required(what string, maxLen int) func(string) error {
	return func(s string) error {
		if strings.TrimSpace(s) == "" {
			return errors.New("enter " + what)
		}
		return ValidText(s, maxLen)
	}
}

// text is an optional free-text field of at most maxLen characters.
func text(maxLen int) func(string) error {
	return func(s string) error { return ValidText(s, maxLen) }
}
