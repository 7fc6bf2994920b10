package sandbox

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"paydash/backend/money"
)

// The amount member of a request: a JSON number (or a string of one) and
// a currency, read exactly into minor units.

type amountIn struct {
	Value    json.RawMessage `json:"value"`
	Currency *string         `json:"currency"`
}

// parse reads an amount; bad reports a problem already noted.
func (a *amountIn) parse(field string, problems *[]string) (amount *money.Amount, bad bool) {
	if a == nil {
		return nil, false
	}
	out := &money.Amount{}
	if a.Currency != nil {
		out.Currency = *a.Currency
	}
	v, problem := a.value()
	switch {
	case problem == "":
		out.Value = v
	case problem == errTooPrecise:
		// Finer than any currency: say what this one allows, as for a
		// finer amount (rules.go, checkMinorUnits).
		p := field + ".value " + errTooPrecise
		if money.ValidCurrency(out.Currency) {
			p += "; " + out.Currency + " has " + atMostDecimals(money.Decimals(out.Currency))
		}
		*problems = append(*problems, p)
		bad = true
	default:
		*problems = append(*problems, field+".value "+problem)
		bad = true
	}
	if bad { // the store will not look at this amount: check the currency here
		switch {
		case out.Currency == "":
			*problems = append(*problems, field+".currency is required")
		case !money.ValidCurrency(out.Currency):
			*problems = append(*problems, fmt.Sprintf("%s.currency %q is not a three-letter ISO 4217 code", field, out.Currency))
		}
	}
	return out, bad
}

const errTooPrecise = "has more than 4 decimals"

// value reads the amount's value, a JSON number or a decimal sent as a JSON
// string ("11.00"), as some clients do: read like the number it holds, and
// only such a number. A problem is said after the member's name.
func (a *amountIn) value() (money.Decimal, string) {
	v := bytes.TrimSpace(a.Value)
	if len(v) == 0 || string(v) == "null" {
		return 0, "is required"
	}
	if v[0] == '"' {
		var str string
		if err := json.Unmarshal(v, &str); err != nil || !isJSONNumber(str) {
			return 0, strconv.Quote(clip(str, 40)) + " is not a decimal number such as 10.50"
		}
		v = []byte(str)
	}
	var d money.Decimal
	if err := d.UnmarshalJSON(v); err != nil {
		if errors.Is(err, money.ErrPrecision) {
			return 0, errTooPrecise
		}
		return 0, "is not a usable number"
	}
	return d, ""
}

// MarshalJSON writes the amount as the idempotency comparison reads it
// (idempotency.go): a readable value as the decimal it is, so that 1, 1.0
// and "1.00" are one amount; anything else as it came.
func (a amountIn) MarshalJSON() ([]byte, error) {
	var currency string
	if a.Currency != nil {
		currency = *a.Currency
	}
	value := json.RawMessage(a.Value)
	if d, problem := a.value(); problem == "" {
		value = json.RawMessage(d.String())
	} else if len(bytes.TrimSpace(value)) == 0 {
		value = nil
	}
	return json.Marshal(struct {
		Value    json.RawMessage `json:"value"`
		Currency string          `json:"currency"`
	}{value, currency})
}

// isJSONNumber reports whether s is exactly a number in JSON's grammar
// (-?int(.frac)?(e[+-]?exp)?): no spaces, no "+", no ".5", no "1,000".
func isJSONNumber(s string) bool {
	i, n := 0, len(s)
	digits := func() bool {
		j := i
		for i < n && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i > j
	}
	if i < n && s[i] == '-' {
		i++
	}
	switch {
	case i < n && s[i] == '0':
		i++
	case !digits():
		return false
	}
	if i < n && s[i] == '.' {
		i++
		if !digits() {
			return false
		}
	}
	if i < n && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < n && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if !digits() {
			return false
		}
	}
	return i == n
}
