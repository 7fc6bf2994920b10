package ui

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"paydash/backend/money"
)

func TestParseAmountTakesWhatTheScreensShow(t *testing.T) {
	for typed, want := range map[string]string{
		"106":          "106",
		"106.5":        "106.5",
		"106.50":       "106.5",
		"39,840.00":    "39840", // as the dialog and the list show it
		"39840.00":     "39840",
		"1,234,567":    "1234567",
		"0.01":         "0.01",
		" 15 ":         "15", // spaces around are not part of the number
		"000000000015": "15",
		"999999999999": "999999999999",
		"1,000,000.5":  "1000000.5",
	} {
		if want == "" {
			continue
		}
		got, problem := ParseAmount(typed, "RUB")
		assert.Empty(t, problem, "%q", typed)
		assert.Equal(t, money.MustParse(want), got, "%q", typed)
	}
}

// Every amount users were seen to type wrong, and their neighbours: nothing
// is rewritten, each gets a message saying what is wrong.
func TestParseAmountRefusesWithTheReason(t *testing.T) {
	for typed, want := range map[string]string{
		"":                 "enter the amount",
		"   ":              "enter the amount",
		"-5":               "no sign",
		"+5":               "no sign",
		"15O":              "“O” is a letter, not the digit 0",
		"1l0":              "“l” is a letter, not the digit 1",
		"15x":              "“x” is a letter",
		"1e2":              "no exponent",
		"1E-2":             "no exponent",
		"e2":               "“e” is a letter",
		"100.5.5":          "only one decimal point",
		"9999999999999999": "too many digits: an amount has at most 12 before the point",
		"10.001":           "RUB amounts have at most 2 decimals",
		"0":                "more than 0",
		"0.00":             "more than 0",
		".":                "write the amount as digits",
		".5":               "write a digit before the point (0.5)",
		"5.":               "a point needs digits after it",
		"100,5":            "a comma groups thousands (1,250.00): write decimals after a point",
		"1,00,000":         "commas group thousands in threes",
		"1000,000":         "commas group thousands in threes",
		",100":             "commas group thousands in threes",
		"1.000,50":         "a comma after the decimal point",
		"1 000":            "no spaces",
		"1'000":            "no spaces or apostrophes",
		"$5":               "“$” has no place in an amount",
		"5\u200e":          "has no place in an amount", // a bidi mark pasted along
	} {
		got, problem := ParseAmount(typed, "RUB")
		assert.Contains(t, problem, want, "%q", typed)
		assert.Zero(t, got, "%q: no value when refused", typed)
	}
	_, problem := ParseAmount("1500.5", "JPY")
	assert.Equal(t, "JPY amounts have no decimals", problem)
	_, problem = ParseAmount("1.2345", "KWD")
	assert.Equal(t, "KWD amounts have at most 3 decimals", problem)
}

// A service may report an amount finer than its currency (82.989 RUB left
// to refund): written in full, that amount itself is taken; any other
// amount with extra decimals is refused as before, naming the one that
// may have them.
func TestParseAmountAllowingTakesWhatTheServiceReported(t *testing.T) {
	left := money.MustParse("82.989")
	for _, typed := range []string{"82.989", "82.9890", " 82.989 "} {
		got, problem := ParseAmountAllowing(typed, "RUB", left)
		assert.Empty(t, problem, "%q", typed)
		assert.Equal(t, left, got, "%q", typed)
	}
	got, problem := ParseAmountAllowing("82.98", "RUB", left)
	assert.Empty(t, problem)
	assert.Equal(t, money.MustParse("82.98"), got, "an amount in the currency's decimals is as usual")

	got, problem = ParseAmountAllowing("10.001", "RUB", left)
	assert.Zero(t, got)
	assert.Equal(t, "RUB amounts have at most 2 decimals (only 82.989 exactly, as the service gave it)", problem)
	_, problem = ParseAmountAllowing("10.001", "RUB", money.MustParse("82.98"))
	assert.Equal(t, "RUB amounts have at most 2 decimals", problem, "nothing reported is finer: nothing to name")
	_, problem = ParseAmountAllowing("82.98.9", "RUB", left)
	assert.Contains(t, problem, "only one decimal point", "other mistakes are refused as ParseAmount refuses them")
	_, problem = ParseAmountAllowing("82.98901", "RUB", left)
	assert.Contains(t, problem, "at most 2 decimals", "never more decimals than an amount can hold")
	got, problem = ParseAmountAllowing("1500.5", "JPY", money.MustParse("1500.5"))
	assert.Empty(t, problem)
	assert.Equal(t, money.MustParse("1500.5"), got, "a yen amount the service reported with a decimal")
}
