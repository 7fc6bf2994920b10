package config

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"paydash/backend/money"
	"paydash/keys"
)

// defaultTypedOver are the amounts above which a confirmation asks for the
// last four digits of the payment id typed (docs/confirmation.md): a
// refund or capture a support person does not do every day, about
// 500–1,500 US dollars in the currencies named. "*" is every other currency: 1,000 of it, the
// threshold of the dollar and the euro. No currency's unit is worth much
// more than three dollars (the Kuwaiti dinar, the strongest, about 3.3), so
// this never lets a large amount through unchecked; in currencies with
// small units (KRW, IDR, VND…) it asks for nearly every amount, until
// confirm_typed_over names them.
var defaultTypedOver = map[string]string{
	"RUB": "50000", "USD": "1000", "EUR": "1000", "GBP": "1000", "CHF": "1000",
	"CNY": "10000", "KZT": "500000", "BYN": "3000", "UAH": "40000", "JPY": "150000",
	"*": "1000",
}

// typedOver reads confirm_typed_over over the defaults: one amount for
// every currency (confirm_typed_over = 20000), or a table by currency
// (confirm_typed_over = { RUB = 100000, USD = "2500.50", "*" = 5000 }).
func typedOver(v any) (map[string]money.Decimal, error) {
	out := map[string]money.Decimal{}
	for cur, amount := range defaultTypedOver {
		out[cur] = money.MustParse(amount)
	}
	if v == nil {
		return out, nil
	}
	if table, ok := v.(map[string]any); ok {
		for _, cur := range slices.Sorted(maps.Keys(table)) {
			code := strings.ToUpper(strings.TrimSpace(cur))
			if code != "*" && !money.ValidCurrency(code) {
				return nil, fmt.Errorf("%q is not a currency code (three letters, such as RUB), nor \"*\" for the others", cur)
			}
			d, err := typedAmount(table[cur])
			if err != nil {
				return nil, fmt.Errorf("%s: %v", code, err)
			}
			out[code] = d
		}
		return out, nil
	}
	d, err := typedAmount(v)
	if err != nil {
		return nil, err
	}
	return map[string]money.Decimal{"*": d}, nil
}

// typedAmount is one threshold: a number not below zero (0: always ask).
func typedAmount(v any) (money.Decimal, error) {
	var text string
	switch x := v.(type) {
	case int64:
		text = strconv.FormatInt(x, 10)
	case float64:
		text = strconv.FormatFloat(x, 'f', -1, 64)
	case string:
		text = strings.ReplaceAll(strings.TrimSpace(x), "_", "")
	default:
		return 0, fmt.Errorf("must be an amount such as 50000 or \"1000.50\", not %s", keys.TOMLKind(v))
	}
	d, err := money.Parse(text)
	if err != nil || d.IsNegative() {
		return 0, fmt.Errorf("%q is not an amount; write it like 50000 or \"1000.50\" (0 asks for every amount)", text)
	}
	return d, nil
}
