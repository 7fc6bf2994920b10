package sandbox

import (
	"fmt"
	"net/url"
	"strings"
	"time"

	"paydash/backend/money"
)

// The state rules (docs/service.md; the service's documentation gives
// none), one file per kind of object: rules_payments.go,
// rules_payment_steps.go, rules_refunds.go, rules_tokens.go and
// rules_stickers.go; this file holds the checks they share. Every move
// checks the request (ValidationError listing each problem), then the object
// (NotFoundError), then the state (InvalidOperationError, token errors), and
// only then changes anything. A status change queues a callback.

// --- checks shared by the requests ---

func normalizeMethod(m string) (string, bool) {
	switch strings.ToLower(m) {
	case "":
		return "", true
	case "bankcard", "card":
		return MethodBankCard, true
	case "sbp":
		return MethodSBP, true
	}
	return "", false
}

func checkMethod(field, m string, problems *[]string) string {
	method, ok := normalizeMethod(m)
	if !ok {
		*problems = append(*problems, fmt.Sprintf("%s %q is not supported (bankcard or sbp)", field, m))
	}
	return method
}

func checkAmount(field string, a *money.Amount, m *merchantData, required, bad bool, problems *[]string) {
	if bad {
		return
	}
	if a == nil {
		if required {
			*problems = append(*problems, field+" is required")
		}
		return
	}
	if !a.Value.IsPositive() {
		*problems = append(*problems, field+".value must be greater than 0")
	}
	switch {
	case a.Currency == "":
		*problems = append(*problems, field+".currency is required")
	case !money.ValidCurrency(a.Currency):
		*problems = append(*problems, fmt.Sprintf("%s.currency %q is not a three-letter ISO 4217 code", field, a.Currency))
	case m != nil && !m.Accepts(a.Currency):
		*problems = append(*problems, fmt.Sprintf("%s.currency %s is not accepted by merchant %s (it accepts %s)",
			field, a.Currency, m.ID, strings.Join(m.Currencies, ", ")))
	}
	checkMinorUnits(field+".value", a.Value, a.Currency, problems)
}

// checkMinorUnits refuses a value finer than its currency's minor unit
// (ISO 4217, as money.Decimals knows it: 2 decimals for RUB, USD and EUR, 0
// for JPY, 3 for KWD): nobody can pay 1.001 RUB, and a refund of it would
// leave a remainder that no client, ours included, can enter. The value is
// judged, not its text, so trailing zeros do not count: 1.000 RUB is 1 RUB.
// A currency that is not a code is left to the currency's own check.
func checkMinorUnits(name string, v money.Decimal, currency string, problems *[]string) {
	if p := minorUnitsProblem(name, v, currency); p != "" {
		*problems = append(*problems, p)
	}
}

// minorUnitsProblem is checkMinorUnits' problem, "" if there is none; the v1
// interface answers it with its own code.
func minorUnitsProblem(name string, v money.Decimal, currency string) string {
	if !money.ValidCurrency(currency) {
		return ""
	}
	most, has := money.Decimals(currency), decimalsOf(v)
	if has <= most {
		return ""
	}
	return fmt.Sprintf("%s %s has %s; %s has %s", name, v, plural(has, "decimal"), currency, atMostDecimals(most))
}

// decimalsOf counts the decimals v needs: 1.5 needs 1, 1.50 too, 2 none.
func decimalsOf(v money.Decimal) int {
	_, frac, _ := strings.Cut(v.String(), ".")
	return len(frac)
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

func atMostDecimals(n int) string {
	if n == 0 {
		return "no decimals"
	}
	return "at most " + plural(n, "decimal")
}

func checkURL(field, u string, problems *[]string) {
	if u == "" {
		return
	}
	p, err := url.Parse(u)
	if err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" {
		*problems = append(*problems, field+" must be an absolute http or https address")
	}
}

func checkTokenType(field, t string, problems *[]string) string {
	switch t {
	case "":
		return "recurring"
	case "cof", "recurring":
		return t
	}
	*problems = append(*problems, fmt.Sprintf("%s %q must be cof or recurring", field, t))
	return t
}

func checkInvoice(inv Invoice, now time.Time, problems *[]string) {
	if !inv.Expires.IsZero() && !inv.Expires.After(now) {
		*problems = append(*problems, "invoice.expires is in the past")
	}
}

func newCustomer(c Customer) *Customer {
	if c == (Customer{}) {
		return nil
	}
	return &c
}

func newProtocol(p Protocol) *Protocol {
	if p == (Protocol{}) {
		return nil
	}
	return &p
}

func fmtAmount(v money.Decimal, currency string) string {
	return money.Amount{Value: v, Currency: currency}.String()
}
