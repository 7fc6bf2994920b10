package v1

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"
)

const (
	unix2000           = 946684800
	secondsPer100Years = 100 * 365.2425 * secondsPerDay
)

// variedRegister is a register whose fields take the forms the service
// sends and a few it might: padded ids, entities, comments, times and
// amounts in other forms, so that most operations take the hand-written
// paths and some fall back.
func variedRegister(n int, rng *rand.Rand) []byte {
	pick := func(xs ...string) string { return xs[rng.IntN(len(xs))] }
	var b strings.Builder
	b.WriteString("<Response><ErrorCode>0</ErrorCode><Register><PeriodFrom>2024-05-01T00:00:00</PeriodFrom><RegisterNumber> R-1 </RegisterNumber><Operations>")
	for i := range n {
		// Any second of 1900-2100 (leap days included); impossible dates
		// are TestPlainTimeAgreesWithParse's.
		stamp := time.Unix(rng.Int64N(2*secondsPer100Years)-secondsPer100Years+unix2000, 0).UTC().Format("2006-01-02T15:04:05")
		stamp = pick(stamp, stamp, stamp, " "+stamp+"\n", "2024-05-01 10:00:05", "2024-05-01T10:00:05.5Z")
		amount := fmt.Sprintf("%s%d%s", pick("", "", "-", "+"), rng.IntN(100000), pick("", ".5", ".25", ".1234", ".00"))
		amount = pick(amount, amount, amount, " "+amount+" ", "1e2", "0.50000")
		fmt.Fprintf(&b, "\n<Operation><OperationID>%s</OperationID><SiteAlias>%s</SiteAlias><InvoiceID>%s</InvoiceID><Stamp>%s</Stamp><CurrencyCode>%s</CurrencyCode><OperationAmount>%s</OperationAmount><TransferAmount>%s</TransferAmount></Operation>",
			pick(fmt.Sprint(i), fmt.Sprint(i), " 7 ", "1<!-- c -->2"),
			pick("1001", "1002", "1001 ", fmt.Sprint(rng.IntN(1000))),
			pick(fmt.Sprint(rng.IntN(1e6)), "", " a &amp; b ", "x\r\ny"),
			stamp,
			pick("RUB", "RUB", "USD", " EUR"),
			amount,
			pick("0", "1225.49", "-3", ""))
	}
	b.WriteString("</Operations></Register></Response>")
	return []byte(b.String())
}

// The register's own fast path gives what encoding/xml gives, on thousands
// of operations of varied forms.
func TestFastXMLRegisterAgrees(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 20 {
		body := variedRegister(500, rng)
		var fast, slow xmlRoot
		if err := decodeXMLFast(body, &fast); err != nil {
			t.Fatalf("the fast path gave up: %v", err)
		}
		if err := newXMLDecoder(bytes.NewReader(body)).Decode(&slow); err != nil {
			t.Fatal(err)
		}
		if fast.Register == nil || len(fast.Register.Operations) != 500 {
			t.Fatalf("no register read")
		}
		if !reflect.DeepEqual(fast, slow) {
			for i := range fast.Register.Operations {
				if f, s := fast.Register.Operations[i], slow.Register.Operations[i]; !reflect.DeepEqual(f, s) {
					t.Fatalf("operation %d differs:\nfast %+v\nslow %+v", i, f, s)
				}
			}
			t.Fatalf("fast and slow paths differ:\nfast %+v\nslow %+v", fast.Register, slow.Register)
		}
	}
}

// Every valid day of four centuries, and the impossible ones around them,
// read by plainTime as by time.Parse.
func TestPlainTimeAgreesWithParse(t *testing.T) {
	for year := 1896; year <= 2404; year += 4 {
		for _, y := range []int{year, year + 1} {
			for month := 0; month <= 13; month++ {
				for day := 0; day <= 32; day++ {
					s := fmt.Sprintf("%04d-%02d-%02dT23:59:59", y, month, day)
					want, werr := parseTime(s)
					got, ok := plainTime([]byte(s))
					if ok != (werr == nil) || ok && !reflect.DeepEqual(got, want) {
						t.Fatalf("%s: plainTime %v %v, parseTime %v %v", s, got, ok, want, werr)
					}
				}
			}
		}
	}
	for _, s := range []string{"2024-05-01T24:00:00", "2024-05-01T23:60:00", "2024-05-01T23:00:60", "0000-01-01T00:00:00", "9999-12-31T23:59:59"} {
		want, werr := parseTime(s)
		got, ok := plainTime([]byte(s))
		if ok != (werr == nil) || ok && !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: plainTime %v %v, parseTime %v %v", s, got, ok, want, werr)
		}
	}
}

// plainDecimal reads what it accepts to money.Parse's value.
func TestPlainDecimalAgreesWithFlexDecimal(t *testing.T) {
	for _, s := range []string{"0", "-0", "+0", "1", "-1", "1.5", "1.25", "1.1234", "1.12345", "1.50000", "12345678901234",
		"123456789012345", "99999999999999.9999", "-99999999999999.9999", ".5", "5.", "-", "+", "", "1.2.3", "1,5", "1e3", "0x10", "٣"} {
		var want flexDecimal
		werr := want.UnmarshalText([]byte(s))
		got, ok := plainDecimal([]byte(s))
		if ok && (werr != nil || int64(got) != int64(want)) {
			t.Errorf("%q: plainDecimal %v, flexDecimal %v %v", s, got, want, werr)
		}
	}
}
