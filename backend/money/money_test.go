package money

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParse(t *testing.T) {
	cases := map[string]Decimal{
		"10": 100000, "10.5": 105000, "10.50": 105000, "-3.25": -32500,
		"0.0001": 1, ".5": 5000, "1.50000": 15000, "+7": 70000,
	}
	for in, want := range cases {
		got, err := Parse(in)
		require.NoError(t, err, in)
		assert.Equal(t, want, got, in)
	}
	for _, bad := range []string{"", "1.00001", "abc", "1,5", "1.", "-", "1e3", "123456789012345"} {
		_, err := Parse(bad)
		assert.Error(t, err, bad)
	}
}

func TestStringForms(t *testing.T) {
	assert.Equal(t, "10.5", MustParse("10.50").String())
	assert.Equal(t, "1250", MustParse("1250.00").String())
	assert.Equal(t, "10.50", MustParse("10.5").StringFixed(2))
	assert.Equal(t, "0.0001", MustParse("0.0001").StringFixed(2), "never rounds")
	assert.Equal(t, "-0.50", MustParse("-0.5").StringFixed(2))
	assert.Equal(t, "1250.00 RUB", Amount{MustParse("1250"), "RUB"}.String())
	assert.Equal(t, "500 JPY", Amount{MustParse("500"), "JPY"}.String())
}

func TestJSONRoundTripIsExact(t *testing.T) {
	var a Amount
	require.NoError(t, json.Unmarshal([]byte(`{"value":0.1,"currency":"RUB"}`), &a))
	var b Amount
	require.NoError(t, json.Unmarshal([]byte(`{"value":0.2,"currency":"RUB"}`), &b))
	assert.Equal(t, "0.3", (a.Value + b.Value).String())

	out, err := json.Marshal(Amount{MustParse("1250.5"), "EUR"})
	require.NoError(t, err)
	assert.JSONEq(t, `{"value":1250.5,"currency":"EUR"}`, string(out))

	var d Decimal
	require.NoError(t, json.Unmarshal([]byte(`1.25e3`), &d))
	assert.Equal(t, "1250", d.String())
	require.NoError(t, json.Unmarshal([]byte(`"99.99"`), &d))
	assert.Equal(t, "99.99", d.String())
	assert.Error(t, json.Unmarshal([]byte(`1.123456`), &d))
}

func TestFromMinor(t *testing.T) {
	assert.Equal(t, "1250", FromMinor(125000, 2).String())
	assert.Equal(t, "500", FromMinor(500, 0).String())
}

func TestGroupAndDisplay(t *testing.T) {
	for _, tc := range []struct {
		value, currency, want string
	}{
		{"0", "RUB", "0.00"},
		{"999.5", "RUB", "999.50"},
		{"1000", "RUB", "1,000.00"},
		{"39840", "RUB", "39,840.00"},
		{"1234567.891", "RUB", "1,234,567.891"}, // more decimals than usual: shown, never rounded
		{"-1250", "USD", "-1,250.00"},
		{"1250000", "JPY", "1,250,000"},
		{"1.5", "KWD", "1.500"},
	} {
		assert.Equal(t, tc.want, Group(MustParse(tc.value), tc.currency), "%s %s", tc.value, tc.currency)
	}
	assert.Equal(t, "39,840.00 RUB", Amount{Value: MustParse("39840"), Currency: "RUB"}.Display())
	assert.Equal(t, "12.50", Amount{Value: MustParse("12.5")}.Display(), "no currency: the number alone")
}

func TestCount(t *testing.T) {
	for n, want := range map[int]string{0: "0", 7: "7", 999: "999", 1000: "1,000", 100000: "100,000",
		1250000: "1,250,000", -1: "-1", -1234: "-1,234", -123456: "-123,456"} {
		assert.Equal(t, want, Count(n), n)
	}
}
