package search

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend/money"
)

var paymentFields = []Field{
	{Name: "status", Kind: Enum, Values: []string{"pending", "confirmation", "authorized", "settled", "cancelled", "rejected"},
		Aliases: map[string]string{"held": "authorized", "declined": "rejected"}, Example: "status:authorized,pending"},
	{Name: "amount", Kind: Amount, Example: "amount:>100 or amount:100..500"},
	{Name: "card", Kind: Card, Example: "card:4242 or card:visa"},
	{Name: "email", Kind: Contains},
	{Name: "phone", Kind: Digits},
	{Name: "order", Kind: Exact},
	{Name: "id", Kind: Exact},
	{Name: "desc", Kind: Contains},
}

func TestParseValid(t *testing.T) {
	for _, tc := range []struct {
		in    string
		words []string
		conds []string // canonical
	}{
		{"", nil, nil},
		{"   ", nil, nil},
		{"Petrov", []string{"petrov"}, nil},
		{"petrov 1250", []string{"petrov", "1250"}, nil},
		{"status:authorized,pending", nil, []string{"status:authorized,pending"}},
		{"STATUS:Auth", nil, []string{"status:authorized"}},
		{"status:held,declined,held", nil, []string{"status:authorized,rejected"}},
		{"amount:>100", nil, []string{"amount:>100"}},
		{"amount:>=100.5", nil, []string{"amount:>=100.5"}},
		{"amount:<=7", nil, []string{"amount:<=7"}},
		{"amount:<7", nil, []string{"amount:<7"}},
		{"amount:100..500", nil, []string{"amount:100..500"}},
		{"amount:1250,50", nil, []string{"amount:=1250.5"}},
		{"amount:=3", nil, []string{"amount:=3"}},
		{"card:4242", nil, []string{"card:4242"}},
		{"card:VISA", nil, []string{"card:visa"}},
		{"email:Petrov@", nil, []string{"email:petrov@"}},
		{"phone:+7 (912)", []string{"(912)"}, []string{"phone:7"}},
		{`phone:"+7 (912) 555"`, nil, []string{"phone:7912555"}},
		{"order:ORD-33931 id:7000123", nil, []string{"order:ord-33931", "id:7000123"}},
		{`desc:"gift card" petrov`, []string{"petrov"}, []string{"desc:gift card"}},
		{"12:30", []string{"12:30"}, nil},
		{`"a:b"`, []string{"a:b"}, nil},
		{"status:settled amount:>10 petrov", []string{"petrov"}, []string{"status:settled", "amount:>10"}},
	} {
		q, err := Parse(tc.in, paymentFields)
		require.NoError(t, err, tc.in)
		assert.Equal(t, tc.words, q.Words, tc.in)
		var conds []string
		for _, c := range q.Conds {
			conds = append(conds, c.String())
		}
		assert.Equal(t, tc.conds, conds, tc.in)
		assert.Equal(t, tc.in == "" || tc.in == "   ", q.Empty(), tc.in)
	}
}

func TestParseInvalid(t *testing.T) {
	for in, want := range map[string]string{
		"colour:red":                 "colour: is not a field here; the fields are status: amount: card: email: phone: order: id: desc:",
		"status:":                    "status: needs a value, e.g. status:authorized,pending",
		"status:c":                   "status:c could be confirmation or cancelled; type more of it",
		"status:paid":                `status:paid: "paid" is not a status here; it is one of pending, confirmation, authorized, settled, cancelled, rejected`,
		"status:settled,":            "status:settled, has an empty value between commas, e.g. status:authorized,pending",
		"amount:>abc":                `amount:>abc: "abc" is not a number, e.g. amount:>100 or amount:100..500`,
		"amount:>":                   "amount:>: a number is missing, e.g. amount:>100 or amount:100..500",
		"amount:500..100":            "amount:500..100: the range starts above its end (500 > 100), e.g. amount:>100 or amount:100..500",
		"amount:1.00001":             `amount:1.00001: "1.00001" has more than 4 decimals, e.g. amount:>100 or amount:100..500`,
		"amount:-5":                  `amount:-5: "-5" is below zero, e.g. amount:>100 or amount:100..500`,
		"card:visa4242":              "card:visa4242: give the last digits (card:4242) or a brand (card:visa)",
		"phone:abc":                  "phone:abc has no digits to look for, e.g. phone:…",
		`desc:"gift`:                 `a quote is not closed: add " at the end of the value`,
		"status:held status:settled": "status: is given twice; give it once (e.g. status:authorized,pending)",
	} {
		_, err := Parse(in, paymentFields)
		if assert.Error(t, err, in) {
			assert.Equal(t, want, err.Error(), in)
		}
	}
}

func TestParseNoFields(t *testing.T) {
	_, err := Parse("status:x", nil)
	require.Error(t, err)
	assert.Equal(t, "status: is not a field here; the fields are none (type words only)", err.Error())
}

func TestMatchAmount(t *testing.T) {
	m := money.MustParse
	q, err := Parse("amount:100..500", paymentFields)
	require.NoError(t, err)
	c := q.Conds[0]
	assert.True(t, c.MatchAmount(m("100")))
	assert.True(t, c.MatchAmount(m("500")))
	assert.False(t, c.MatchAmount(m("500.0001")))
	assert.False(t, c.MatchAmount(m("99.9999")))
	q, _ = Parse("amount:>100", paymentFields)
	assert.False(t, q.Conds[0].MatchAmount(m("100")))
	assert.True(t, q.Conds[0].MatchAmount(m("100.01")))
	q, _ = Parse("amount:12.5", paymentFields)
	assert.True(t, q.Conds[0].MatchAmount(m("12.50")))
}

// With an error, the parts that make sense are still there: the list
// applies them while the wrong one is being typed.
func TestParseKeepsWhatMakesSense(t *testing.T) {
	q, err := Parse("petrov status:c amount:>5 colour:red", paymentFields)
	require.Error(t, err)
	assert.Equal(t, "status:c could be confirmation or cancelled; type more of it", err.Error(), "the first thing wrong")
	assert.Equal(t, "petrov amount:>5", q.String())
}

// A comparison may stand for the colon: amount>1000 is amount:>1000 for a
// field whose values compare; = is : for every field.
func TestParseComparisonsWithoutColon(t *testing.T) {
	for _, tc := range []struct {
		in    string
		words []string
		conds []string
	}{
		{"amount>1000", nil, []string{"amount:>1000"}},
		{"amount>=1000", nil, []string{"amount:>=1000"}},
		{"amount<5", nil, []string{"amount:<5"}},
		{"amount<=5", nil, []string{"amount:<=5"}},
		{"amount=5", nil, []string{"amount:=5"}},
		{"amount:>1000", nil, []string{"amount:>1000"}},
		{"AMOUNT>1000,50", nil, []string{"amount:>1000.5"}},
		{"amount=100..500", nil, []string{"amount:100..500"}},
		{"status:held amount>1000", nil, []string{"status:authorized", "amount:>1000"}},
		{"status=held", nil, []string{"status:authorized"}},
		{"order=ORD-1", nil, []string{"order:ord-1"}},
		{`desc="a=b"`, nil, []string{"desc:a=b"}},
		{`desc:a>b`, nil, []string{"desc:a>b"}},
		{`"a=b" "x>1"`, []string{"a=b", "x>1"}, nil},
		{"1>2 <3 =4", []string{"1>2", "<3", "=4"}, nil},
		{"petrov amount<=7", []string{"petrov"}, []string{"amount:<=7"}},
	} {
		q, err := Parse(tc.in, paymentFields)
		require.NoError(t, err, tc.in)
		assert.Equal(t, tc.words, q.Words, tc.in)
		var conds []string
		for _, c := range q.Conds {
			conds = append(conds, c.String())
		}
		assert.Equal(t, tc.conds, conds, tc.in)
	}
	q, err := Parse("order=ORD-1", paymentFields)
	require.NoError(t, err)
	assert.Equal(t, "ORD-1", q.Conds[0].Value, "as typed, for the service")
	q, err = Parse("amount>1000", paymentFields)
	require.NoError(t, err)
	assert.True(t, q.Conds[0].MatchAmount(money.MustParse("1000.01")))
	assert.False(t, q.Conds[0].MatchAmount(money.MustParse("1000")))
}

// What cannot be read says what would be: a comparison on a field that
// does not compare, a field and its value typed apart.
func TestParseComparisonMistakes(t *testing.T) {
	for in, want := range map[string]string{
		"status>held":                "status>held: status compares with : or = only, e.g. status:authorized,pending",
		"card<=4242":                 "card<=4242: card compares with : or = only, e.g. card:4242 or card:visa",
		"amount>":                    `amount:>: a number is missing, e.g. amount:>100 or amount:100..500`,
		"amount>abc":                 `amount:>abc: "abc" is not a number, e.g. amount:>100 or amount:100..500`,
		"colour>3":                   "colour: is not a field here; the fields are status: amount: card: email: phone: order: id: desc:",
		"amount > 1000":              "did you mean amount:>1000? (no space between amount and its value)",
		"amount >1000":               "did you mean amount:>1000? (no space between amount and its value)",
		"status:held amount >= 1000": "did you mean amount:>=1000? (no space between amount and its value)",
		"amount: >1000":              "did you mean amount:>1000? (no space between amount and its value)",
		"amount> 1000":               "did you mean amount:>1000? (no space between amount and its value)",
		"amount :>1000":              "did you mean amount:>1000? (no space between amount and its value)",
		"amount >":                   "did you mean amount:>…? (no space between amount and its value)",
		"status= held":               "did you mean status:held? (no space between status and its value)",
	} {
		_, err := Parse(in, paymentFields)
		if assert.Error(t, err, in) {
			assert.Equal(t, want, err.Error(), in)
		}
	}
	// The parts that make sense still apply; the field typed apart is not
	// searched as words.
	q, err := Parse("petrov amount > 1000 status:held", paymentFields)
	require.Error(t, err)
	assert.Equal(t, "petrov status:authorized", q.String())
}
