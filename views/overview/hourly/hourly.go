// Package hourly keeps the last day of payments in hourly buckets as their
// rows arrive: for each hour, merchant and status, how many and how much in
// each currency, and how many declines with each result code. An Overview
// asks it for a day of figures at every frame and every key; that costs the
// number of buckets, never a scan of the rows, however many there are.
//
// A row seen again (a refresh, a page read twice) replaces what it was
// counted as: a payment that went from Pending to Settled moves from one
// status to the other, and is never counted twice. Hours older than the
// day the Tally keeps are dropped as time goes on (Trim).
package hourly

import (
	"time"

	"paydash/backend"
	"paydash/backend/money"
)

// Hours is how many hourly buckets a day holds: the hour now is in and the
// 23 before it.
const Hours = 24

// Statuses are the statuses a Tally counts, in the order Counts holds them.
var Statuses = [...]backend.PaymentStatus{backend.PaymentPending, backend.PaymentConfirmation,
	backend.PaymentAuthorized, backend.PaymentSettled, backend.PaymentCancelled, backend.PaymentRejected}

// statusIndex is a status's place in Statuses; -1 for one it does not know.
func statusIndex(s backend.PaymentStatus) int {
	for i, known := range Statuses {
		if s == known {
			return i
		}
	}
	return -1
}

// Counts are the figures of one bucket.
type Counts struct {
	ByStatus [len(Statuses)]int
	// Amounts are the sums of the payments' amounts by currency, and
	// within it by status (the index of Statuses).
	Amounts map[string]*[len(Statuses)]money.Decimal
	// Codes counts the declined (Rejected) payments by result code; a
	// decline without a code counts under "".
	Codes map[string]int
}

// Total is how many payments the bucket holds.
func (c Counts) Total() int {
	n := 0
	for _, v := range c.ByStatus {
		n += v
	}
	return n
}

// Of is how many of the bucket's payments have status s.
func (c Counts) Of(s backend.PaymentStatus) int {
	if i := statusIndex(s); i >= 0 {
		return c.ByStatus[i]
	}
	return 0
}

// add counts a row's contribution (sign +1) or takes it back (-1).
func (c *Counts) add(r row, sign int) {
	c.ByStatus[r.status] += sign
	if c.Amounts == nil {
		c.Amounts = map[string]*[len(Statuses)]money.Decimal{}
	}
	sums := c.Amounts[r.currency]
	if sums == nil {
		sums = new([len(Statuses)]money.Decimal)
		c.Amounts[r.currency] = sums
	}
	sums[r.status] += money.Decimal(sign) * r.amount
	if Statuses[r.status] != backend.PaymentRejected {
		return
	}
	if c.Codes == nil {
		c.Codes = map[string]int{}
	}
	c.Codes[r.code] += sign
	if c.Codes[r.code] == 0 {
		delete(c.Codes, r.code)
	}
}

// row is what a payment was counted as.
type row struct {
	hour     int64 // Unix hours of its creation
	merchant string
	status   int // index of Statuses
	currency string
	amount   money.Decimal
	code     string
}

// hour is one hour's buckets: one per merchant, and their sum.
type hour struct {
	all        Counts
	byMerchant map[string]*Counts
}

// Tally is the day's buckets. The zero Tally is empty and ready; it is not
// safe for concurrent use (the Overview's Update owns it).
type Tally struct {
	rows  map[string]row  // by payment id
	hours map[int64]*hour // by Unix hours
}

// unixHour is the hour t is in, as hours since 1970 (UTC; an hour is an
// hour in every zone that matters here).
func unixHour(t time.Time) int64 { return t.Unix() / 3600 }

// Add counts p, or moves it when it was counted before as something else.
// A payment with no creation time (the legacy interface gives none) or a
// status the Tally does not know is left out (and taken back if it was
// counted).
func (t *Tally) Add(p backend.Payment) {
	old, seen := t.rows[p.ID]
	status := statusIndex(p.Status)
	if p.Created.IsZero() || status < 0 {
		if seen {
			t.count(old, -1)
			delete(t.rows, p.ID)
		}
		return
	}
	r := row{hour: unixHour(p.Created), merchant: p.MerchantID, status: status,
		currency: p.Amount.Currency, amount: p.Amount.Value, code: p.ResultCode}
	if seen {
		if old == r {
			return
		}
		t.count(old, -1)
	}
	if t.rows == nil {
		t.rows = map[string]row{}
		t.hours = map[int64]*hour{}
	}
	t.rows[p.ID] = r
	t.count(r, +1)
}

// count adds r's contribution to its hour, for its merchant and for all.
func (t *Tally) count(r row, sign int) {
	h := t.hours[r.hour]
	if h == nil {
		h = &hour{byMerchant: map[string]*Counts{}}
		t.hours[r.hour] = h
	}
	m := h.byMerchant[r.merchant]
	if m == nil {
		m = &Counts{}
		h.byMerchant[r.merchant] = m
	}
	m.add(r, sign)
	h.all.add(r, sign)
}

// Trim drops the rows and buckets of hours before the day that ends at
// now: what Day(now) can no longer show. It costs the rows dropped, and
// one look at every row when any hour is dropped.
func (t *Tally) Trim(now time.Time) {
	first := unixHour(now) - Hours + 1
	dropped := false
	for h := range t.hours {
		if h < first {
			delete(t.hours, h)
			dropped = true
		}
	}
	if !dropped {
		return
	}
	for id, r := range t.rows {
		if r.hour < first {
			delete(t.rows, id)
		}
	}
}

// Len is how many payments are counted.
func (t *Tally) Len() int { return len(t.rows) }

// Day is the figures of the day that ends at now, oldest hour first:
// Day[Hours-1] is the hour now is in. merchant "" is every merchant. The
// buckets are the Tally's own: read them, do not keep them past the next
// Add.
func (t *Tally) Day(now time.Time, merchant string) Day {
	var d Day
	d.End = now
	last := unixHour(now)
	for i := range Hours {
		h := t.hours[last-Hours+1+int64(i)]
		d.Start[i] = time.Unix((last-Hours+1+int64(i))*3600, 0).In(now.Location())
		switch {
		case h == nil:
		case merchant == "":
			d.Buckets[i] = &h.all
		default:
			d.Buckets[i] = h.byMerchant[merchant]
		}
	}
	return d
}

// Day is a day of hourly buckets.
type Day struct {
	End     time.Time
	Start   [Hours]time.Time // when each bucket's hour begins
	Buckets [Hours]*Counts   // nil: no payment in that hour
}

// Sum is the day's figures in one bucket.
func (d Day) Sum() Counts {
	var s Counts
	for _, b := range d.Buckets {
		if b == nil {
			continue
		}
		for i, v := range b.ByStatus {
			s.ByStatus[i] += v
		}
		for code, n := range b.Codes {
			if s.Codes == nil {
				s.Codes = map[string]int{}
			}
			s.Codes[code] += n
		}
		for cur, sums := range b.Amounts {
			if s.Amounts == nil {
				s.Amounts = map[string]*[len(Statuses)]money.Decimal{}
			}
			to := s.Amounts[cur]
			if to == nil {
				to = new([len(Statuses)]money.Decimal)
				s.Amounts[cur] = to
			}
			for i, v := range sums {
				to[i] += v
			}
		}
	}
	return s
}
