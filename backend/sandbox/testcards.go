package sandbox

import (
	"strconv"
	"strings"
	"time"
)

// flow is what happens to a new payment: the scenario of its test card (or
// of its method). It is kept on the payment because a pending one decides at
// settle time.
type flow uint8

const (
	flowNone             flow = iota
	flowApprove               // Settled at once, or Authorized for dualMode
	flowDecline               // Rejected at once with the card's result code
	flowSmsOtp                // Confirmation SmsOtp; code 123456 approves
	flowThreeDSChallenge      // Confirmation ThreeDSChallenge; cres Y approves, N rejects
	flowThreeDSMethod         // ThreeDSMethod, then ThreeDSChallenge after threeDSCompInd
	flowThreeDSv1             // Confirmation ThreeDSv1; any PARes approves
	flowPendingApprove        // Pending for SettleDelay, then approved
	flowPendingDecline        // Pending for SettleDelay, then Rejected InsufficientFunds
	flowExternal              // Confirmation External (SBP, cashlink); complete approves
)

// testCard is one entry of the test-card table (see the package doc).
type testCard struct {
	flow   flow
	result string // result code of a declined card
	card   *CardInfo
}

var (
	testVisa       = &CardInfo{Brand: "Visa", Issuer: "Sandbox Bank", Country: "RU", Type: "debit", Category: "classic"}
	testMastercard = &CardInfo{Brand: "Mastercard", Issuer: "Sandbox Bank", Country: "RU", Type: "credit", Category: "gold"}
	testMir        = &CardInfo{Brand: "Mir", Issuer: "Sandbox Bank", Country: "RU", Type: "debit", Category: "classic"}
	testUnionPay   = &CardInfo{Brand: "UnionPay", Issuer: "Sandbox Bank", Country: "CN", Type: "debit", Category: "classic"}
)

// testCards are the only card numbers the sandbox accepts.
var testCards = map[string]testCard{
	"4111111111111111": {flow: flowApprove, card: testVisa},
	"5555555555554444": {flow: flowApprove, card: testMastercard},
	"2200000000000004": {flow: flowApprove, card: testMir},
	"6200000000000005": {flow: flowApprove, card: testUnionPay},
	"4000000000000002": {flow: flowDecline, result: "TransactionDeclined", card: testVisa},
	"4000000000009995": {flow: flowDecline, result: "InsufficientFunds", card: testVisa},
	"4000000000000077": {flow: flowSmsOtp, card: testVisa},
	"4000000000003063": {flow: flowThreeDSChallenge, card: testVisa},
	"4000000000003220": {flow: flowThreeDSMethod, card: testVisa},
	"4000000000000101": {flow: flowThreeDSv1, card: testVisa},
	"4000000000000259": {flow: flowPendingApprove, card: testVisa},
}

// SmsOtpCode is the one-time code that approves the SmsOtp test card.
const SmsOtpCode = "123456"

// resultMessages are the authorization result descriptions, as the service
// documents them.
var resultMessages = map[string]string{
	"Success":              "Approved",
	"TransactionDeclined":  "Authorization declined by the issuer",
	"IssuerUnavailable":    "The issuer is unavailable",
	"RejectedByFraud":      "Rejected by fraud monitoring",
	"InvalidAmount":        "Invalid amount",
	"InvalidAccount":       "Incorrect or nonexistent card number",
	"BlockedAccount":       "The card is blocked or reported lost",
	"OperationNotAllowed":  "The operation is not allowed for this card",
	"InsufficientFunds":    "Insufficient funds on the card",
	"ExpiredAccount":       "The card has expired or its expiry date is incorrect",
	"PaymentLimitExceeded": "Payment amount limit exceeded",
	"PaymentCountExceeded": "Payment count limit exceeded",
	"CardNotEnrolled":      "The card is not enrolled in 3-D Secure",
	"ThreeDSecureFailed":   "3-D Secure authentication failed",
	"CancelledByUser":      "The payer cancelled the payment",
	"PaymentExpired":       "The payment was not completed in time",
}

func resultMessage(code string) string {
	if m, ok := resultMessages[code]; ok {
		return m
	}
	return code
}

// luhn reports whether a digit string passes the Luhn check.
func luhn(pan string) bool {
	sum, double := 0, false
	for i := len(pan) - 1; i >= 0; i-- {
		d := int(pan[i] - '0')
		if double {
			d *= 2
			if d > 9 {
				d -= 9
			}
		}
		sum += d
		double = !double
	}
	return sum%10 == 0
}

// checkPAN validates a card number and finds its test card.
func checkPAN(field, pan string, problems *[]string) (testCard, string, bool) {
	pan = strings.ReplaceAll(pan, " ", "")
	if pan == "" {
		*problems = append(*problems, field+" is required")
		return testCard{}, "", false
	}
	if len(pan) < 12 || len(pan) > 19 || strings.Trim(pan, "0123456789") != "" || !luhn(pan) {
		*problems = append(*problems, field+" is not a valid card number")
		return testCard{}, "", false
	}
	tc, ok := testCards[pan]
	if !ok {
		*problems = append(*problems, field+" is not one of the sandbox test cards")
		return testCard{}, "", false
	}
	return tc, pan, true
}

// parseExpiry reads MM/YY, MM/YYYY or MMYY into the end of that month.
func parseExpiry(s string) (time.Time, bool) {
	s = strings.TrimSpace(s)
	var mm, yy string
	switch {
	case len(s) == 5 && s[2] == '/':
		mm, yy = s[:2], "20"+s[3:]
	case len(s) == 7 && s[2] == '/':
		mm, yy = s[:2], s[3:]
	case len(s) == 4:
		mm, yy = s[:2], "20"+s[2:]
	default:
		return time.Time{}, false
	}
	m, err1 := strconv.Atoi(mm)
	y, err2 := strconv.Atoi(yy)
	if err1 != nil || err2 != nil || m < 1 || m > 12 {
		return time.Time{}, false
	}
	return time.Date(y, time.Month(m)+1, 1, 0, 0, 0, 0, time.UTC).Add(-time.Second), true
}

// maskPAN gives the instrument title of a card: "411111******1111".
func maskPAN(pan string) string {
	if len(pan) < 10 {
		return pan
	}
	return pan[:6] + strings.Repeat("*", len(pan)-10) + pan[len(pan)-4:]
}

// tokenTitle gives a token's display name: "Visa *1111".
func tokenTitle(brand, pan string) string {
	if len(pan) < 4 {
		return brand
	}
	return brand + " *" + pan[len(pan)-4:]
}

// maskPhone shows what an SmsOtp confirmation shows: "+7 *** ***-**-67".
func maskPhone(phone string) string {
	if len(phone) < 4 {
		return "+7 *** ***-**-00"
	}
	return "+" + phone[:1] + " *** ***-**-" + phone[len(phone)-2:]
}
