package v1

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"paydash/backend/money"
)

// The flex types read one field of an answer the way the spec describes the
// service: numbers or strings, null or absent, in JSON (UnmarshalJSON) and
// in XML (UnmarshalText, which encoding/xml uses for an element's text).
// Anything else (an object where a string belongs, a word where a number
// belongs) is an error that names what was wrong, never a panic.

func unmarshalJSONObject(b []byte, v any) error {
	return json.Unmarshal(b, v)
}

// jsonScalar returns the text of a JSON string, number or bool, with
// null reported as ok=false. Objects and arrays are refused.
func jsonScalar(b []byte) (s string, isNull bool, err error) {
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return "", true, nil
	}
	switch b[0] {
	case 'n':
		return "", true, nil
	case '"':
		// The decoder has validated the literal; without escapes it is the
		// bytes between the quotes (invalid UTF-8 is left to the decoder,
		// which replaces it).
		if len(b) >= 2 && b[len(b)-1] == '"' && bytes.IndexByte(b, '\\') < 0 && utf8.Valid(b) {
			return string(b[1 : len(b)-1]), false, nil
		}
		var v string
		if err := json.Unmarshal(b, &v); err != nil {
			return "", false, err
		}
		return v, false, nil
	case '{', '[':
		return "", false, fmt.Errorf("an %s where a value belongs", map[byte]string{'{': "object", '[': "array"}[b[0]])
	default:
		return string(b), false, nil // a number or true/false, already validated by the decoder
	}
}

// flexString is a string, or a number or bool kept as its JSON text; null
// is "".
type flexString string

func (f *flexString) UnmarshalJSON(b []byte) error {
	s, _, err := jsonScalar(b)
	if err != nil {
		return err
	}
	*f = flexString(s)
	return nil
}

func (f *flexString) UnmarshalText(b []byte) error {
	*f = flexString(b)
	return nil
}

// id is the value trimmed of surrounding space, as ids, codes and states
// are compared (an XML element may be indented).
func (f flexString) id() string { return strings.TrimSpace(string(f)) }

// flexInt is an integer from a number or a numeric string; null and "" are 0.
type flexInt int

func (f *flexInt) UnmarshalJSON(b []byte) error {
	s, _, err := jsonScalar(b)
	if err != nil {
		return err
	}
	return f.UnmarshalText([]byte(s))
}

func (f *flexInt) UnmarshalText(b []byte) error {
	s := strings.TrimSpace(string(b))
	if s == "" {
		*f = 0
		return nil
	}
	n, err := strconv.ParseInt(s, 10, 32)
	if err != nil {
		// 5.0 is an integer too, in JSON's eyes.
		if fl, ferr := strconv.ParseFloat(s, 64); ferr == nil && fl == float64(int32(fl)) {
			*f = flexInt(int32(fl))
			return nil
		}
		return fmt.Errorf("%q is not an integer", clip(s))
	}
	*f = flexInt(n)
	return nil
}

// flexDecimal is an exact amount from a number or a numeric string; null
// and "" are 0.
type flexDecimal money.Decimal

func (f *flexDecimal) UnmarshalJSON(b []byte) error {
	s, _, err := jsonScalar(b)
	if err != nil {
		return err
	}
	return f.UnmarshalText([]byte(s))
}

func (f *flexDecimal) UnmarshalText(b []byte) error {
	s := strings.TrimSpace(string(b))
	if s == "" {
		*f = 0
		return nil
	}
	var d money.Decimal
	var err error
	if strings.ContainsAny(s, "eE") {
		// money's JSON reader takes an exponent, exactly.
		err = d.UnmarshalJSON([]byte(strconv.Quote(s)))
	} else {
		d, err = money.Parse(s)
	}
	if err != nil {
		return fmt.Errorf("%q is not an amount", clip(s))
	}
	*f = flexDecimal(d)
	return nil
}

// flexBool is true, false, "true", "false", 1, 0, "1", "0"; null and "" are false.
type flexBool bool

func (f *flexBool) UnmarshalJSON(b []byte) error {
	s, _, err := jsonScalar(b)
	if err != nil {
		return err
	}
	return f.UnmarshalText([]byte(s))
}

func (f *flexBool) UnmarshalText(b []byte) error {
	switch strings.ToLower(strings.TrimSpace(string(b))) {
	case "true", "1", "yes":
		*f = true
	case "false", "0", "no", "":
		*f = false
	default:
		return fmt.Errorf("%q is not a boolean", clip(string(b)))
	}
	return nil
}

// flexTime is a time in the service's form, yyyy-MM-ddTHH:mm:ss in UTC
// without an offset; fractional seconds, a Z or an offset, a space instead
// of the T, and a bare date are tolerated. null and "" are the zero time.
type flexTime time.Time

func (f *flexTime) UnmarshalJSON(b []byte) error {
	s, _, err := jsonScalar(b)
	if err != nil {
		return err
	}
	return f.UnmarshalText([]byte(s))
}

var timeLayouts = []string{
	"2006-01-02T15:04:05", // also takes fractional seconds when parsing
	time.RFC3339Nano,
	"2006-01-02 15:04:05",
	"2006-01-02 15:04:05Z07:00",
	time.DateOnly,
}

func (f *flexTime) UnmarshalText(b []byte) error {
	s := strings.TrimSpace(string(b))
	if s == "" {
		*f = flexTime{}
		return nil
	}
	t, err := parseTime(s)
	if err != nil {
		return err
	}
	*f = flexTime(t)
	return nil
}

func parseTime(s string) (time.Time, error) {
	if len(s) <= 40 { // anything longer is no time of ours; don't let it reach the error text whole
		for _, layout := range timeLayouts {
			if t, err := time.Parse(layout, s); err == nil {
				return t.UTC(), nil
			}
		}
	}
	return time.Time{}, fmt.Errorf("%q is not a yyyy-MM-ddTHH:mm:ss time", clip(s))
}

// clip shortens a bad value quoted in an error.
func clip(s string) string {
	const n = 40
	if len(s) > n {
		r := []rune(s)
		if len(r) > n {
			return string(r[:n]) + "…"
		}
	}
	return s
}
