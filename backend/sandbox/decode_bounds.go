package sandbox

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// The bounds on what a request may hold: the length of text members, the
// params map, and dates the store can keep.

// The store keys objects and events by int64 nanoseconds since 1970, which
// hold the times from storeTimeMin to storeTimeMax (1677-09-21 to
// 2262-04-11): a date outside them is refused, never wrapped around into
// another one (a period ending in 2300 used to list nothing, with 200).
var (
	storeTimeMin = time.Unix(0, math.MinInt64).UTC()
	storeTimeMax = time.Unix(0, math.MaxInt64).UTC()
)

// representable reports whether the store can hold t.
func representable(t time.Time) bool {
	return !t.Before(storeTimeMin) && !t.After(storeTimeMax)
}

// dateRange is the range representable accepts, in words.
const dateRange = "dates from 1677-09-22 to 2262-04-10 are accepted"

// Maximum lengths of text members, in characters (doc.go has the table).
const (
	maxDescription    = 1000 // invoice.description, sticker description (v1 Purpose)
	maxOrderNo        = 64   // invoice.orderNo (v1 invoiceID)
	maxEmail          = 254  // customer.email (RFC 5321's limit on a path)
	maxPhone          = 32   // customer.phone
	maxIP             = 45   // customer.ip (the longest IPv6 text form)
	maxAccount        = 255  // customer.account
	maxURL            = 2048 // every returnUrl, callbackUrl, threeDSCompleteUrl
	maxPurpose        = 255  // tokenization purpose, payment token purpose
	maxPaymentPurpose = 210  // sticker paymentPurpose (a payment order's purpose field)
	maxProductCode    = 64   // sticker productCode
	maxID             = 64   // merchantId, paymentId, token.id, stickerId; v1 ids
	maxExternalID     = 255  // v1 externalID
	maxParams         = 50   // invoice.params: members
	maxParamName      = 40   // invoice.params: a member's name
	maxParamValue     = 500  // invoice.params: a member's value, as JSON text
)

// maxLen notes a problem when v is longer than max characters.
func maxLen(field, v string, max int, problems *[]string) {
	if len(v) > max && utf8.RuneCountInString(v) > max {
		*problems = append(*problems, fmt.Sprintf("%s is longer than %d characters", field, max))
	}
}

// checkParams bounds invoice.params: its number of members, their names and
// their values.
func checkParams(field string, params map[string]any, problems *[]string) {
	if len(params) > maxParams {
		*problems = append(*problems, fmt.Sprintf("%s has more than %d members", field, maxParams))
		return
	}
	names := make([]string, 0, len(params))
	for k := range params {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		if utf8.RuneCountInString(k) > maxParamName {
			*problems = append(*problems, fmt.Sprintf("%s has a member name longer than %d characters", field, maxParamName))
			continue
		}
		b, _ := json.Marshal(params[k])
		if len(b) > maxParamValue && utf8.RuneCount(b) > maxParamValue {
			*problems = append(*problems, fmt.Sprintf("%s.%s is longer than %d characters (as JSON)", field, k, maxParamValue))
		}
	}
}

// parseDate reads an RFC 3339 time or a plain yyyy-MM-dd date (UTC midnight).
func parseDate(v string) (time.Time, bool) {
	if t, err := time.Parse(time.RFC3339Nano, v); err == nil {
		return t.UTC(), true
	}
	// A "+hh:mm" offset sent unencoded in a query string arrives as a space.
	if strings.Contains(v, " ") {
		if t, err := time.Parse(time.RFC3339Nano, strings.ReplaceAll(v, " ", "+")); err == nil {
			return t.UTC(), true
		}
	}
	if t, err := time.Parse(time.DateOnly, v); err == nil {
		return t.UTC(), true
	}
	return time.Time{}, false
}
