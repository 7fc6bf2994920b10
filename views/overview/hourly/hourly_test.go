package hourly

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"paydash/backend"
	"paydash/backend/money"
)

var now = time.Date(2026, 11, 20, 14, 40, 0, 0, time.UTC)

func pay(id, merchant string, created time.Time, status backend.PaymentStatus, value, currency, code string) backend.Payment {
	return backend.Payment{ID: id, MerchantID: merchant, Created: created, Status: status, ResultCode: code,
		Amount: money.Amount{Value: money.MustParse(value), Currency: currency}}
}

func TestAddCountsByHourMerchantStatusCurrencyAndCode(t *testing.T) {
	var tl Tally
	tl.Add(pay("1", "m1", now.Add(-10*time.Minute), backend.PaymentSettled, "100", "RUB", ""))
	tl.Add(pay("2", "m1", now.Add(-20*time.Minute), backend.PaymentRejected, "50", "RUB", "IssuerUnavailable"))
	tl.Add(pay("3", "m2", now.Add(-30*time.Minute), backend.PaymentSettled, "7", "USD", ""))
	tl.Add(pay("4", "m1", now.Add(-2*time.Hour), backend.PaymentAuthorized, "30", "RUB", ""))

	d := tl.Day(now, "m1")
	last := d.Buckets[Hours-1]
	require.NotNil(t, last)
	assert.Equal(t, 2, last.Total())
	assert.Equal(t, 1, last.Of(backend.PaymentSettled))
	assert.Equal(t, map[string]int{"IssuerUnavailable": 1}, last.Codes)
	assert.Equal(t, money.MustParse("100"), last.Amounts["RUB"][statusIndex(backend.PaymentSettled)])
	assert.Nil(t, d.Buckets[Hours-2], "no payment of m1 an hour ago")
	require.NotNil(t, d.Buckets[Hours-3])
	assert.Equal(t, 1, d.Buckets[Hours-3].Of(backend.PaymentAuthorized))
	assert.Equal(t, time.Date(2026, 11, 20, 14, 0, 0, 0, time.UTC), d.Start[Hours-1])
	assert.Equal(t, time.Date(2026, 11, 19, 15, 0, 0, 0, time.UTC), d.Start[0])

	all := tl.Day(now, "")
	assert.Equal(t, 3, all.Buckets[Hours-1].Total(), "every merchant")
	assert.Equal(t, money.MustParse("7"), all.Buckets[Hours-1].Amounts["USD"][statusIndex(backend.PaymentSettled)])
	assert.Equal(t, 4, tl.Len())
}

// A row seen again is counted as it is now, once.
func TestARowSeenAgainMovesAndIsNeverCountedTwice(t *testing.T) {
	var tl Tally
	p := pay("1", "m1", now.Add(-5*time.Minute), backend.PaymentPending, "100", "RUB", "")
	tl.Add(p)
	tl.Add(p)
	b := tl.Day(now, "m1").Buckets[Hours-1]
	assert.Equal(t, 1, b.Total())

	p.Status, p.ResultCode = backend.PaymentRejected, "InsufficientFunds"
	tl.Add(p)
	assert.Equal(t, 1, b.Total())
	assert.Zero(t, b.Of(backend.PaymentPending))
	assert.Equal(t, 1, b.Of(backend.PaymentRejected))
	assert.Equal(t, map[string]int{"InsufficientFunds": 1}, b.Codes)
	assert.Zero(t, b.Amounts["RUB"][statusIndex(backend.PaymentPending)])

	p.Status = backend.PaymentSettled
	tl.Add(p)
	assert.Empty(t, b.Codes, "a code whose count falls to nothing goes")

	// A status it does not know takes the row back out; so does a row
	// without a creation time.
	p.Status = "Mystery"
	tl.Add(p)
	assert.Zero(t, b.Total())
	assert.Zero(t, tl.Len())
	tl.Add(pay("2", "m1", time.Time{}, backend.PaymentSettled, "1", "RUB", ""))
	assert.Zero(t, tl.Len())
}

func TestTrimDropsWhatTheDayNoLongerShows(t *testing.T) {
	var tl Tally
	tl.Add(pay("old", "m1", now.Add(-30*time.Hour), backend.PaymentSettled, "1", "RUB", ""))
	tl.Add(pay("new", "m1", now.Add(-time.Hour), backend.PaymentSettled, "1", "RUB", ""))
	tl.Trim(now)
	assert.Equal(t, 1, tl.Len())
	assert.Len(t, tl.hours, 1)
	sum := tl.Day(now, "").Sum()
	assert.Equal(t, 1, sum.Total())
}

func TestSumAddsTheDay(t *testing.T) {
	var tl Tally
	for i := range 30 {
		status, code := backend.PaymentSettled, ""
		if i%3 == 0 {
			status, code = backend.PaymentRejected, "TransactionDeclined"
		}
		tl.Add(pay(fmt.Sprint(i), "m1", now.Add(-time.Duration(i)*time.Hour/2), status, "10", "RUB", code))
	}
	s := tl.Day(now, "m1").Sum()
	assert.Equal(t, 30, s.Total())
	assert.Equal(t, 10, s.Of(backend.PaymentRejected))
	assert.Equal(t, map[string]int{"TransactionDeclined": 10}, s.Codes)
	assert.Equal(t, money.MustParse("200"), s.Amounts["RUB"][statusIndex(backend.PaymentSettled)])
}

// dayOf fills a tally: every hour before the last has perHour payments,
// declined of them declined; the last hour has lastOf payments with the
// given declines by code.
func dayOf(perHour, declined, lastOf int, lastDeclines map[string]int) *Tally {
	var tl Tally
	id := 0
	add := func(at time.Time, status backend.PaymentStatus, code string) {
		id++
		tl.Add(pay(fmt.Sprint(id), "m1", at, status, "100", "RUB", code))
	}
	for h := 1; h < Hours; h++ {
		at := now.Truncate(time.Hour).Add(-time.Duration(h) * time.Hour)
		for i := range perHour {
			if i < declined {
				add(at, backend.PaymentRejected, "TransactionDeclined")
			} else {
				add(at, backend.PaymentSettled, "")
			}
		}
	}
	n := 0
	for code, c := range lastDeclines {
		for range c {
			add(now.Add(-time.Minute), backend.PaymentRejected, code)
			n++
		}
	}
	for ; n < lastOf; n++ {
		add(now.Add(-time.Minute), backend.PaymentSettled, "")
	}
	return &tl
}

func TestADeclineSpikeStandsOutInWords(t *testing.T) {
	tl := dayOf(100, 6, 127, map[string]int{"IssuerUnavailable": 38, "TransactionDeclined": 14})
	found := StandOut(tl.Day(now, "m1"))
	require.Len(t, found, 1)
	f := found[0]
	assert.Equal(t, "Declines 41% in the last hour, against 6% over the day — IssuerUnavailable 38 of 52", f.Text)
	assert.Equal(t, backend.PaymentRejected, f.Status)
	assert.Equal(t, "IssuerUnavailable", f.Code)
	assert.Equal(t, time.Date(2026, 11, 20, 14, 0, 0, 0, time.UTC), f.From)
	assert.Equal(t, time.Date(2026, 11, 20, 15, 0, 0, 0, time.UTC), f.To)
}

func TestAnOrdinaryDayHasNothingToSay(t *testing.T) {
	// The same share of declines in the last hour as all day.
	assert.Empty(t, StandOut(dayOf(100, 6, 100, map[string]int{"TransactionDeclined": 6}).Day(now, "m1")))
	// Three declines of four: too few to ring.
	assert.Empty(t, StandOut(dayOf(100, 6, 4, map[string]int{"TransactionDeclined": 3}).Day(now, "m1")))
	// A merchant whose day always declines a third: 40% is within its pattern.
	assert.Empty(t, StandOut(dayOf(30, 10, 30, map[string]int{"TransactionDeclined": 12}).Day(now, "m1")))
	// No day to compare with.
	var tl Tally
	for i := range 20 {
		tl.Add(pay(fmt.Sprint(i), "m1", now.Add(-time.Minute), backend.PaymentRejected, "1", "RUB", "X"))
	}
	assert.Empty(t, StandOut(tl.Day(now, "m1")))
	assert.Empty(t, StandOut(new(Tally).Day(now, "")))
}

// The hour before the current one is judged too, and named by its times;
// a share that was nothing all day stands out with few hits.
func TestTheHourBeforeIsJudgedAndNamed(t *testing.T) {
	var tl Tally
	id := 0
	for h := 1; h < Hours; h++ {
		at := now.Truncate(time.Hour).Add(-time.Duration(h) * time.Hour)
		for i := range 20 {
			id++
			status := backend.PaymentSettled
			if h == 1 && i < 8 {
				status = backend.PaymentConfirmation
			}
			tl.Add(pay(fmt.Sprint(id), "m1", at, status, "100", "RUB", ""))
		}
	}
	found := StandOut(tl.Day(now, "m1"))
	require.Len(t, found, 1)
	assert.Equal(t, "Left in Confirmation (3-D Secure or SMS not completed) 40% 13:00–14:00, against 0% over the day", found[0].Text)
	assert.Equal(t, backend.PaymentConfirmation, found[0].Status)
}
