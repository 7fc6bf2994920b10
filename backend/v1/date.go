package v1

import (
	"fmt"
	"time"
)

// Date is a calendar day in UTC, the unit of every period the service
// takes (periodFrom, periodTo: yyyy-MM-dd UTC). The zero value means
// "absent": a filter with a zero PeriodFrom sends no periodFrom at all.
// Dates are comparable with ==.
type Date struct {
	n int64 // days since 0001-01-01 (the zero time's day), so Date{} is absent
}

const secondsPerDay = 24 * 60 * 60

// zeroUnix is the Unix time of 0001-01-01T00:00:00Z, time.Time's zero.
var zeroUnix = time.Time{}.Unix()

// DateOf is the UTC day of t. The zero time gives the zero (absent) Date.
func DateOf(t time.Time) Date {
	if t.IsZero() {
		return Date{}
	}
	secs := t.Unix() - zeroUnix
	n := secs / secondsPerDay
	if secs < 0 && secs%secondsPerDay != 0 {
		n-- // floor, for times before year 1
	}
	return Date{n: n}
}

// NewDate is the day year-month-day; out-of-range values are normalized as
// by time.Date (April 31 is May 1).
func NewDate(year int, month time.Month, day int) Date {
	return DateOf(time.Date(year, month, day, 0, 0, 0, 0, time.UTC))
}

// ParseDate reads yyyy-MM-dd. The empty string gives the zero Date.
func ParseDate(s string) (Date, error) {
	if s == "" {
		return Date{}, nil
	}
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return Date{}, fmt.Errorf("v1: %q is not a yyyy-MM-dd date", s)
	}
	return DateOf(t), nil
}

// String is the day as the service takes it, yyyy-MM-dd; "" for the zero Date.
func (d Date) String() string {
	if d.IsZero() {
		return ""
	}
	return d.Start().Format(time.DateOnly)
}

// IsZero reports whether d is the zero (absent) Date.
func (d Date) IsZero() bool { return d.n == 0 }

// Start is the day's first instant, 00:00 UTC.
func (d Date) Start() time.Time {
	return time.Unix(zeroUnix+d.n*secondsPerDay, 0).UTC()
}

// AddDays is the day n days after d (before, for a negative n).
func (d Date) AddDays(n int) Date { return Date{n: d.n + int64(n)} }

// Before reports whether d is an earlier day than o.
func (d Date) Before(o Date) bool { return d.n < o.n }

// After reports whether d is a later day than o.
func (d Date) After(o Date) bool { return d.n > o.n }

// DaysUntil is the number of days from d to o (negative when o is earlier):
// NewDate(2024,5,1).DaysUntil(NewDate(2024,5,3)) == 2.
func (d Date) DaysUntil(o Date) int { return int(o.n - d.n) }
