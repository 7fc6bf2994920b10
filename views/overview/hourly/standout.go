package hourly

import (
	"fmt"
	"math"
	"sort"
	"time"

	"paydash/backend"
)

// What stands out is judged against the merchant's own day, never against
// a fixed threshold: a share of the payments of one hour (declined, left
// in Confirmation, left Pending) stands out when it is well above the same
// share over the rest of the day. "Well above" asks for all of:
//   - enough payments in the hour (minHour) and enough of them with that
//     status (minHits), so that three declines of four do not ring;
//   - enough payments in the rest of the day (minBase) to have a pattern;
//   - a share at least twice the day's and minGap above it;
//   - a difference of at least minZ standard deviations of the day's share
//     over that many payments (a binomial test), so that chance alone
//     rings about once in a thousand hours.
//
// The hours judged are the one now is in and the one before: the last
// hour, whichever side of the o'clock it falls.
const (
	minHour = 10
	minHits = 5
	minBase = 20
	minGap  = 0.10
	minZ    = 3.0
)

// Finding is one figure that stands out.
type Finding struct {
	Status backend.PaymentStatus // the status whose share stands out
	Code   string                // for declines, the most frequent result code in the hour
	// From and To are the hour's bounds: the payments behind the figure
	// are those with Status (and Code) created in [From, To).
	From, To time.Time
	Hits, Of int     // Hits of the hour's Of payments have Status
	CodeHits int     // how many of the Hits have Code
	Share    float64 // Hits/Of
	DayShare float64 // the same share over the rest of the day
	Text     string  // one line for the person, e.g. "Declines 41% in the last hour, against 6% over the day — IssuerUnavailable 38 of 52"
}

// judged are the statuses whose share is judged, and what a line calls them.
var judged = []struct {
	status backend.PaymentStatus
	name   string
}{
	{backend.PaymentRejected, "Declines"},
	{backend.PaymentConfirmation, "Left in Confirmation (3-D Secure or SMS not completed)"},
	{backend.PaymentPending, "Left Pending"},
}

// StandOut is what stands out in d, the most telling first (the largest
// z); nothing when all is ordinary.
func StandOut(d Day) []Finding {
	type scored struct {
		f Finding
		z float64
	}
	var all []scored
	for _, i := range []int{Hours - 1, Hours - 2} {
		if d.Buckets[i] == nil {
			continue
		}
		for _, j := range judged {
			if f, z, ok := judge(d, i, j.status); ok {
				f.Text = line(f, j.name, i == Hours-1)
				all = append(all, scored{f, z})
			}
		}
	}
	sort.SliceStable(all, func(a, b int) bool { return all[a].z > all[b].z })
	out := make([]Finding, len(all))
	for i, s := range all {
		out[i] = s.f
	}
	return out
}

// judge weighs the share of status in bucket i against the rest of the day.
func judge(d Day, i int, status backend.PaymentStatus) (Finding, float64, bool) {
	b := d.Buckets[i]
	hits, of := b.Of(status), b.Total()
	baseHits, baseOf := 0, 0
	for j, o := range d.Buckets {
		if j != i && o != nil {
			baseHits += o.Of(status)
			baseOf += o.Total()
		}
	}
	if of < minHour || hits < minHits || baseOf < minBase {
		return Finding{}, 0, false
	}
	share, p0 := float64(hits)/float64(of), float64(baseHits)/float64(baseOf)
	if share < 2*p0 || share-p0 < minGap {
		return Finding{}, 0, false
	}
	z := math.Inf(1)
	if p0 > 0 {
		z = (float64(hits) - float64(of)*p0) / math.Sqrt(float64(of)*p0*(1-p0))
	}
	if z < minZ {
		return Finding{}, 0, false
	}
	f := Finding{Status: status, From: d.Start[i], To: d.Start[i].Add(time.Hour), Hits: hits, Of: of,
		Share: share, DayShare: p0}
	if status == backend.PaymentRejected {
		f.Code, f.CodeHits = topCode(b.Codes)
	}
	return f, z, true
}

// topCode is the most frequent code, the first by name among equals.
func topCode(codes map[string]int) (string, int) {
	best, n := "", 0
	for code, c := range codes {
		if c > n || (c == n && code < best) {
			best, n = code, c
		}
	}
	return best, n
}

// line is a finding in words.
func line(f Finding, name string, current bool) string {
	when := "in the last hour"
	if !current {
		when = fmt.Sprintf("%s–%s", f.From.Format("15:04"), f.To.Format("15:04"))
	}
	s := fmt.Sprintf("%s %s %s, against %s over the day", name, percent(f.Share), when, percent(f.DayShare))
	if f.Code != "" {
		s += fmt.Sprintf(" — %s %d of %d", f.Code, f.CodeHits, f.Hits)
	}
	return s
}

// percent is a share in whole percent ("41%"), "<1%" for a small one that
// is not nothing.
func percent(x float64) string {
	if x > 0 && x < 0.005 {
		return "<1%"
	}
	return fmt.Sprintf("%.0f%%", x*100)
}
