package ui

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"paydash/backend/money"
)

// maxAmountDigits bounds the digits before the point of a typed amount: a
// trillion in any currency is not a support refund, and money.Decimal
// keeps every such amount exactly.
const maxAmountDigits = 12

// ParseAmount reads an amount as a person types it into a dialog, in the
// one number format of the screens (money.Group): digits, thousands
// optionally grouped by commas in threes, one decimal point and at most
// the currency's decimals ("1,250.00", "1250", "0.5"). Nothing is guessed
// or rewritten: anything else is refused with what is wrong, in words a
// support person can act on ("-5": a sign; "15O": a letter; "1e2": an
// exponent; "100.5.5": a second point; too many digits or decimals). A
// valid amount is above zero.
func ParseAmount(text, currency string) (money.Decimal, string) {
	return parseAmount(text, currency, money.Decimals(currency))
}

// ParseAmountAllowing is ParseAmount that also takes any of reported, the
// amounts the service itself gave (what is left to refund, what was
// authorized), written in full even when they have more decimals than the
// currency: a service may report 82.989 RUB left, and the dialog that
// offers it must accept it as shown. Any other amount with too many
// decimals is refused, saying which one may have them.
func ParseAmountAllowing(text, currency string, reported ...money.Decimal) (money.Decimal, string) {
	d, problem := ParseAmount(text, currency)
	if problem == "" {
		return d, ""
	}
	exact, fine := parseAmount(text, currency, money.Scale)
	if fine != "" {
		return d, problem // wrong for another reason than its decimals
	}
	var odd []string
	for _, r := range reported {
		if exact == r {
			return exact, ""
		}
		if g := money.Group(r, currency); finerThanMinor(r, currency) && !slices.Contains(odd, g) {
			odd = append(odd, g)
		}
	}
	if len(odd) > 0 {
		problem += " (only " + strings.Join(odd, " or ") + " exactly, as the service gave it)"
	}
	return 0, problem
}

// finerThanMinor: d has more decimals than currency's minor unit.
func finerThanMinor(d money.Decimal, currency string) bool {
	minor := money.FromMinor(1, money.Decimals(currency))
	return minor > 0 && d%minor != 0
}

// parseAmount is ParseAmount with at most decimals digits after the point.
func parseAmount(text, currency string, decimals int) (money.Decimal, string) {
	s := strings.TrimSpace(text)
	switch s {
	case "":
		return 0, "enter the amount"
	case ".", ",":
		return 0, "write the amount as digits, e.g. 1,250.00"
	}
	if problem := amountChars(s); problem != "" {
		return 0, problem
	}
	intPart, frac, hasPoint := strings.Cut(s, ".")
	switch {
	case strings.Contains(frac, "."):
		return 0, "only one decimal point: " + quote(s) + " has more"
	case strings.Contains(frac, ","):
		return 0, "a comma after the decimal point: commas only group thousands (1,250.00)"
	case hasPoint && intPart == "":
		return 0, "write a digit before the point (0" + s + ")"
	case hasPoint && frac == "":
		return 0, "a point needs digits after it (" + s + "00), or leave it out"
	}
	digits, problem := ungroup(intPart)
	if problem != "" {
		return 0, problem
	}
	if len(strings.TrimLeft(digits, "0")) > maxAmountDigits {
		return 0, fmt.Sprintf("too many digits: an amount has at most %d before the point", maxAmountDigits)
	}
	if dec := money.Decimals(currency); len(frac) > decimals {
		if dec == 0 {
			return 0, currency + " amounts have no decimals"
		}
		return 0, fmt.Sprintf("%s amounts have at most %d decimals", currencyName(currency), dec)
	}
	d, err := money.Parse(digits + "." + frac + "0")
	if err != nil { // cannot happen after the checks above; refuse rather than guess
		return 0, "write the amount as digits with one decimal point, e.g. 1,250.00"
	}
	if !d.IsPositive() {
		return 0, "the amount must be more than 0"
	}
	return d, ""
}

// amountChars refuses, by name, the first character that has no place in
// an amount.
func amountChars(s string) string {
	for i, r := range s {
		switch {
		case r >= '0' && r <= '9', r == '.', r == ',':
		case r == '-' || r == '+' || r == '−':
			return "no sign: the amount is a positive number without " + quote(string(r))
		case (r == 'e' || r == 'E') && i > 0 && isDigitByte(s[i-1]) && exponentFollows(s[i+1:]):
			return "no exponent: write the amount out in full (" + quote(s) + " is not one)"
		case r == ' ' || r == '\u00a0' || r == '\'' || r == '_':
			return "no spaces or apostrophes: group thousands with commas (1,250.00) or not at all"
		case r == 'O' || r == 'o':
			return quote(string(r)) + " is a letter, not the digit 0"
		case r == 'l' || r == 'I':
			return quote(string(r)) + " is a letter, not the digit 1"
		case unicode.IsLetter(r):
			return quote(string(r)) + " is a letter: an amount has digits only"
		default:
			return quote(string(r)) + " has no place in an amount: digits, one point and thousands commas only"
		}
	}
	return ""
}

func isDigitByte(b byte) bool { return b >= '0' && b <= '9' }

// exponentFollows: what comes after an "e" reads as an exponent ("2", "-3").
func exponentFollows(s string) bool {
	s = strings.TrimLeft(s, "+-")
	return s != "" && isDigitByte(s[0])
}

// ungroup checks the commas of the part before the point and drops them:
// "1,250,000" is fine, "1,25" and "12,50" are not (a comma is never a
// decimal point here, since "100,5" could mean either).
func ungroup(intPart string) (string, string) {
	if !strings.Contains(intPart, ",") {
		return intPart, ""
	}
	groups := strings.Split(intPart, ",")
	if len(groups[0]) == 0 || len(groups[0]) > 3 {
		return "", "commas group thousands in threes (1,250,000.00)"
	}
	for _, g := range groups[1:] {
		if len(g) != 3 {
			if len(groups) == 2 && len(g) < 3 {
				return "", "a comma groups thousands (1,250.00): write decimals after a point"
			}
			return "", "commas group thousands in threes (1,250,000.00)"
		}
	}
	return strings.Join(groups, ""), ""
}

func quote(s string) string { return "“" + s + "”" }

func currencyName(c string) string {
	if c == "" {
		return "these"
	}
	return c
}
